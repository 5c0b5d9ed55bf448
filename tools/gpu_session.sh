#!/usr/bin/env bash
# How the committed GPU results were made on the lent H200, which has no Jupyter, no internet and takes at most
# 64 MiB of working tree per call (see /work/.library/device/README.md and ../shared/reference/models.md §10).
#   stage A (cold machine): decode benchmark of the random-init Qwen3.5-4B twin; stash the first half of the SmolLM2
#                           GGUF; build the demo climb's three synthetic suites on the CPU meanwhile
#   stage B (right after A, machine still warm): the second half; decode benchmark of SmolLM2; warm-up and GRPO until
#                           the call's time is nearly spent (the climb stops between steps, checkpointed)
#   stage C (right after B): the climb goes on from its checkpoint, then the held-out judge of its arms
#   stage D (cold machine): the GRPO step benchmark alone (8 tasks x 8 rollouts, 3 turns of 256 tokens, real rollouts)
# Between calls, unpack the returned $OUT/demo.tgz into the working tree before the next call: each call's copy of the
# tree replaces whatever git does not ignore on the device (results and adapters written there included); only ignored
# paths (the climb's checkpoints/) stay. Files over about 16 MB do not come back, so checkpoints are never packed.
# The committed demo climb (13 steps) ran as A, B (whose outputs did not come back: packed with checkpoints, too big),
# C (which retrained the warm-up, so B's checkpoints no longer matched and the resume was refused), then the climb
# command of stage C alone on a fresh out folder with C's warm-up adapter, --train-until-s 330.
# Locally beforehand: pip download --no-deps -d .whl sqlglot==30.31.0 gguf==0.19.0; split -b 47M the GGUF into
# .carry/smol0/part0 and .carry/smol1/part1. Results come back through $OUT and are unpacked into the repository.
set -uo pipefail
stage=$1
site=/tmp/sqlforge-site; smol=/tmp/sqlforge-smol
export SQLFORGE_CACHE=/tmp/sqlforge-cache HF_HUB_OFFLINE=1 PYTHONPATH=$site:$PWD TOKENIZERS_PARALLELISM=false
[ -d $site/sqlglot ] || pip install -q --no-index --no-deps --target $site .whl/*.whl
python -c "import sqlforge.climb, sqlforge.sweeps, sqlforge.bench, sqlforge.grpo" || exit 1
climb() { python -m sqlforge.climb --preset demo -p out results/climbs/demo -p adapters_root adapters "$@"; }
pack() { tar czf "$OUT/demo.tgz" --exclude=checkpoints results/climbs/demo adapters/demo; ls -la "$OUT"; }
suites() {   # the pool, the warm-up's tasks and the held-out tasks, built in parallel
  for f in prepare_pool warmup_suite heldout_tasks; do
    python -c "from sqlforge.climb import *; p = resolve('demo'); c, _ = climb_configs(p)
s = prepare_pool(p, c, progress=False)[0] if '$f' != 'heldout_tasks' else None
print('$f', warmup_suite(p, s).path if '$f' == 'warmup_suite' else heldout_tasks(p) if s is None else len(s.tasks))" &
  done; wait; }
case $stage in
A)  mkdir -p $smol && cp .carry/smol0/part0 $smol/
    { nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
      python -c "import torch, transformers, peft, sys; print(sys.version.split()[0], torch.__version__, transformers.__version__, peft.__version__)"
    } | tee "$OUT/machine.txt"
    suites > "$OUT/suites.log" 2>&1 &
    timeout "${2:-300}" python -m sqlforge.bench gpu --models qwen3.5-4b-arch --batches 8 128 32 --modes plain compiled \
      --budget-s "${3:-150}" --out "$OUT" 2>&1 | grep -v Warning | tee "$OUT/decode_qwen.log" || echo "decode benchmark stopped"
    wait; cat "$OUT/suites.log" ;;
B)  cp .carry/smol1/part1 $smol/ && cat $smol/part0 $smol/part1 > $smol/smol.gguf || exit 1
    echo "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53  $smol/smol.gguf" | sha256sum -c || exit 1
    export SQLFORGE_SMOLLM2_GGUF=$smol/smol.gguf
    timeout "${3:-100}" python -m sqlforge.bench gpu --models smollm2-135m --batches 32 128 --modes plain compiled \
      --budget-s 45 --out "$OUT/smol" 2>&1 | grep -v Warning | tee "$OUT/decode_smol.log" || echo "decode benchmark stopped"
    timeout "${2:-560}" bash -c "$(declare -f climb); climb --no-judge --train-until-s $(( ${2:-560} - 60 ))"; echo "climb exit $?"; pack ;;
C)  export SQLFORGE_SMOLLM2_GGUF=$smol/smol.gguf
    timeout "${2:-570}" bash -c "$(declare -f climb); climb --train-until-s $(( ${2:-570} - 200 ))"; echo "climb exit $?"; pack ;;
D)  timeout "${2:-380}" python -c "from sqlforge.grpo import bench_step; bench_step('qwen3.5-4b-arch', turns=3, rollout=True, out='$OUT/grpo_step_qwen3.5-4b-arch.json')" \
      || echo "step benchmark stopped (a partial report is kept)" ;;
esac
