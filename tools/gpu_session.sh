#!/usr/bin/env bash
# How the committed GPU results were made on the lent H200, which has no Jupyter, no internet and takes at most
# 64 MiB of working tree per call (see /work/.library/device/README.md and ../shared/reference/models.md §10).
# Three calls back to back (the machine goes back 30 s after a call; /tmp survives while it is held):
#   stage S (cold machine, carry .whl and .carry/smol0): stash the first half of the SmolLM2 GGUF; build the demo
#            climb's three synthetic suites
#   stage Q (instead of S): the same, with decode rows of the random-init Qwen3.5-4B twin meanwhile
#   stage C (carry .whl and .carry/smol1): the second half; the demo climb from its warm-up adapter until the call's
#            time is nearly spent (it stops between steps, checkpointed)
#   stage J (carry .whl): the climb goes on to its last step, then the held-out judge of its arms
#   stage D (cold machine, any session): the GRPO step benchmark alone (8 tasks x 8 rollouts, 3 turns of 256 tokens)
# Each call's copy of the tree replaces whatever git does not ignore on the device, so the climb's folders are kept in
# /tmp/sqlforge-keep between calls (checkpoints included) and put back at the start of the next. What comes back
# through $OUT: the climb's logs, each judge arm and the adapters as archives (files over 16 MiB do not come back, so
# checkpoints are never packed and the arms go separately), unpacked here into the repository.
# On the morning of 2026-12-03 Q and C ran (Qwen compiled rows; the climb to step 18 of 20, results/climbs/demo-v3), but the machine
# went back before J was called, taking the checkpoints and the GGUF with it: call J within 30 s of C's return.
# Later on 2026-12-03 S, C and J ran back to back (results/climbs/demo): C trained all 20 steps (8 min 11 s), J judged
# with 4 seeds; two more calls, each right after the last, judged seeds 4-7 (the same climb command with
# -p judge_seeds 8) and step 10 (judge_heldout(..., last=10) with judge_seeds 8). The preset now asks for both
# (judge_seeds 8, judge_steps (10,)), so stage J makes that judge: about 13 minutes, so J twice (the sweeps resume).
# The missing decode rows then came from two back-to-back calls (part0, then part1 to rebuild the GGUF):
#   python -m sqlforge.bench gpu --models qwen3.5-4b-arch --batches 128 --modes plain compiled --repeats 1 --budget-s 170
#   python -m sqlforge.bench gpu --models smollm2-135m --batches 8 128 32 --modes plain compiled --repeats 1 --budget-s 200
# Locally beforehand: pip download --no-deps -d .whl sqlglot==30.31.0 gguf==0.19.0; split -b 47M the GGUF into
# .carry/smol0/part0 and .carry/smol1/part1; a tree of at most ~16 MiB beside a part: for the calls, check out a branch
# without results/, report/ and the step adapters (the warm-up adapter adapters/demo/sft stays: the climb reuses it).
set -uo pipefail
stage=$1
site=/tmp/sqlforge-site; smol=/tmp/sqlforge-smol; keep=/tmp/sqlforge-keep
export SQLFORGE_CACHE=/tmp/sqlforge-cache HF_HUB_OFFLINE=1 PYTHONPATH=$site:$PWD TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1
[ -d $site/sqlglot ] || pip install -q --no-index --no-deps --target $site .whl/*.whl
python -c "import sqlforge.climb, sqlforge.sweeps, sqlforge.bench, sqlforge.grpo" || exit 1
climb() { python -m sqlforge.climb --preset demo -p out results/climbs/demo -p adapters_root adapters "$@"; }
restore() { [ -d $keep ] && cp -a $keep/. . ; ls adapters/demo results/climbs/demo 2>/dev/null | head -20; }
save() { rm -rf $keep && mkdir -p $keep/results/climbs $keep/adapters && cp -a results/climbs/demo $keep/results/climbs/ \
         && cp -a adapters/demo $keep/adapters/; }
pack() { tar czf "$OUT/climb.tgz" --exclude=checkpoints --exclude=judge results/climbs/demo
         for a in results/climbs/demo/judge/*/; do [ -d "$a" ] && tar czf "$OUT/judge-$(basename "$a").tgz" "$a"; done   # one per arm
         tar czf "$OUT/adapters.tgz" --exclude=sft adapters/demo; ls -la "$OUT"; }
suites() {   # the pool, the warm-up's tasks and the held-out tasks, built in parallel
  for f in prepare_pool warmup_suite heldout_tasks; do
    python -c "from sqlforge.climb import *; p = resolve('demo'); c, _ = climb_configs(p)
s = prepare_pool(p, c, progress=False)[0] if '$f' != 'heldout_tasks' else None
print('$f', warmup_suite(p, s).path if '$f' == 'warmup_suite' else heldout_tasks(p) if s is None else len(s.tasks))" &
  done; wait; }
bench() { local out=$1 t=$2; shift 2
  timeout "$t" python -m sqlforge.bench gpu --out "$OUT/$out" "$@" 2>&1 | grep -v Warning | tee "$OUT/$out.log" || echo "stopped"; }
stash() { mkdir -p $smol && cp .carry/smol0/part0 $smol/
    { nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
      python -c "import torch, transformers, peft, sys; print(sys.version.split()[0], torch.__version__, transformers.__version__, peft.__version__)"
    } | tee "$OUT/machine.txt"; }
case $stage in
S)  stash; suites 2>&1 | tee "$OUT/suites.log" ;;
Q)  stash; suites > "$OUT/suites.log" 2>&1 &
    bench qwen-b128 "${2:-210}" --models qwen3.5-4b-arch --batches 128 --modes plain --repeats 1 --budget-s 5
    bench qwen-opt "${3:-230}" --models qwen3.5-4b-arch --batches 32 8 128 --modes compiled static --repeats 1 --budget-s 140
    wait; cat "$OUT/suites.log" ;;
C)  cp .carry/smol1/part1 $smol/ && cat $smol/part0 $smol/part1 > $smol/smol.gguf || exit 1
    echo "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53  $smol/smol.gguf" | sha256sum -c || exit 1
    rm -f $smol/part0 $smol/part1
    export SQLFORGE_SMOLLM2_GGUF=$smol/smol.gguf
    timeout "${2:-580}" bash -c "$(declare -f climb); climb --no-judge --train-until-s $(( ${2:-580} - 45 ))"
    echo "climb exit $?"; save; pack ;;
J)  export SQLFORGE_SMOLLM2_GGUF=$smol/smol.gguf
    restore
    timeout "${2:-560}" bash -c "$(declare -f climb); climb --train-until-s $(( ${2:-560} - 380 ))"; echo "climb exit $?"
    save; pack ;;
D)  timeout "${2:-380}" python -c "from sqlforge.grpo import bench_step; bench_step('qwen3.5-4b-arch', turns=3, rollout=True, out='$OUT/grpo_step_qwen3.5-4b-arch.json')" \
      || echo "step benchmark stopped (a partial report is kept)" ;;
esac
