#!/usr/bin/env bash
# The machine's side of work longer than a call, on a GPU machine reached only by copying files (nbs/91_transfer.ipynb).
# Each call copies the working tree there, runs one command and brings back one output folder. Work that outlives its
# call lives outside the repository, under $SQLFORGE_REMOTE (default /tmp/sqlforge-remote): a copy of the tree, the
# packages, the transfer store, logs, and the clock the deadline counts from.
#
#   tools/copy_machine.sh setup SHA DEADLINE_S      first call, from the tree's root: install the carried wheels (.whl/),
#                                                   copy the tree out, unpack the carried archives (.carry/*.tar.gz), and
#                                                   start the clock; DEADLINE_S counts from now
#   tools/copy_machine.sh start SETS FILE VAR CMD…  in the background: build the replication SETS (comma-separated; "-"
#                                                   for none), wait until FILE is assembled in the store ("-" for none),
#                                                   then run CMD in the copy with VAR=<the assembled file>; "@LEFT@" in
#                                                   CMD becomes the seconds left until the deadline. FILE and VAR may be
#                                                   comma-separated lists of one length: each file is waited for and
#                                                   named by its variable (e.g. both Qwen2.5-Coder GGUFs)
#   tools/copy_machine.sh deadline S                move the deadline (before CMD starts)
#   tools/copy_machine.sh status [RUN]              where it stands (RUN: a climb's run folder in the copy)
#   tools/copy_machine.sh wait SECONDS [RUN]        wait until CMD ends or SECONDS pass, then status
#   tools/copy_machine.sh pack OUT [--exclude=P] PATH…   one archive of the copy's PATHs (tar's options first) cut
#                                                   by `sqlforge.transfer split` into 15 MiB parts: the manifest, the
#                                                   first four parts and the logs into OUT (`transfer stash` joins them)
#   tools/copy_machine.sh more OUT START            parts START.. (four at most) into OUT
set -u
R=${SQLFORGE_REMOTE:-/tmp/sqlforge-remote}
SRC=$R/src L=$R/logs
export PYTHONPATH=$R/site:$SRC PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1
[ -f "$R/sha" ] && export SQLFORGE_GIT_SHA=$(cat "$R/sha")
elapsed() { echo $(( $(date +%s) - $(cat "$R/t0") )); }
py() { (cd "$SRC" && python3 "$@"); }

case ${1:-status} in
setup)
  [ $# -eq 3 ] || { echo "usage: $0 setup SHA DEADLINE_S" >&2; exit 2; }
  rm -rf "$R"; mkdir -p "$R/site" "$SRC/nbs" "$L" || exit 1
  if compgen -G ".whl/*.whl" > /dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$R/site" .whl/*.whl || exit 1
  fi
  cp -r sqlforge settings.ini pyproject.toml tools "$SRC/" || exit 1
  [ -d results ] && cp -r results "$SRC/"
  repo=$PWD
  if compgen -G ".carry/*.tar.gz" > /dev/null; then py -m sqlforge.transfer unpack "$repo"/.carry/*.tar.gz || exit 1; fi
  echo "$2" > "$R/sha"; date +%s > "$R/t0"; echo "$3" > "$R/deadline"
  echo "set up in $R (commit $2, deadline $3 s from now)"
  ;;
start)
  [ $# -ge 5 ] || { echo "usage: $0 start SETS FILE VAR CMD..." >&2; exit 2; }
  [ -f "$R/t0" ] || { echo "not set up: run setup first (a fresh machine?)" >&2; exit 1; }
  IFS=, read -ra files <<< "$3"; IFS=, read -ra vars <<< "$4"
  [ ${#files[@]} -eq ${#vars[@]} ] || { echo "FILE names ${#files[@]} files and VAR ${#vars[@]} variables: give one variable for each file" >&2; exit 2; }
  setsid nohup bash "$SRC/tools/copy_machine.sh" _run "${@:2}" > "$L/driver.log" 2>&1 < /dev/null &
  echo "started: $L/driver.log"
  ;;
_run)
  sets=$2 file=$3 var=$4; shift 4
  if [ "$sets" != - ]; then
    for s in ${sets//,/ }; do
      py -c "import sys; from sqlforge.evalsets import set_suite; print(set_suite(sys.argv[1]))" "$s" > "$L/set-$s.log" 2>&1 &
    done
    wait || true
    for s in ${sets//,/ }; do grep -q "tasks.jsonl" "$L/set-$s.log" || { echo "set $s failed: $L/set-$s.log"; echo 1 > "$R/rc"; exit 1; }; done
    echo "sets built at $(elapsed) s"
  fi
  if [ "$file" != - ]; then
    IFS=, read -ra files <<< "$file"; IFS=, read -ra vars <<< "$var"
    for i in "${!files[@]}"; do
      f=${files[$i]} v=${vars[$i]}
      echo "waiting for $f at $(elapsed) s"
      until py -m sqlforge.transfer held --store "$R/stash" --expect "$f" > /dev/null 2>&1; do sleep 3; done
      export "$v"="$(ls "$R"/stash/*-"$f"/"$f")"
      echo "$f assembled at $(elapsed) s; $v=${!v}"
    done
  fi
  left=$(( $(cat "$R/t0") + $(cat "$R/deadline") - $(date +%s) ))
  cmd=("${@//@LEFT@/$left}")
  echo "at $(elapsed) s, $left s before the deadline: ${cmd[*]}"
  (cd "$SRC" && "${cmd[@]}") > "$L/command.log" 2>&1
  rc=$?; echo "$rc" > "$R/rc"; echo "the command ended with $rc at $(elapsed) s"
  ;;
deadline)
  echo "$2" > "$R/deadline"; echo "deadline: $2 s after setup"
  ;;
status)
  [ -f "$R/t0" ] || { echo "not set up (a fresh machine?)"; exit 1; }
  echo "t=$(elapsed) s, deadline $(cat "$R/deadline") s, command rc: $(cat "$R/rc" 2>/dev/null || echo running)"
  tail -n 3 "$L/driver.log" 2>/dev/null
  run=$SRC/${2:-}
  if [ -n "${2:-}" ] && [ -f "$run/metrics.jsonl" ]; then
    python3 -c "
import json, sys; r = [json.loads(l) for l in open(sys.argv[1])]; x = r[-1]
print('steps', len(r), 'last', x['step'], 's_step', x.get('s_step'), 'pass', x.get('pass_rate'), 'turns', x.get('mean_turns'))" "$run/metrics.jsonl"
    ls "$run/judge" 2>/dev/null | tr '\n' ' '; echo
  fi
  tail -c 600 "$L/command.log" 2>/dev/null | tr '\r' '\n' | tail -n 3 | cut -c1-200
  command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader
  ;;
wait)
  end=$(( $(date +%s) + $2 ))
  while [ "$(date +%s)" -lt $end ] && [ ! -f "$R/rc" ]; do sleep 5; done
  bash "$0" status "${3:-}"
  ;;
pack)
  out=$2; shift 2
  rm -rf "$R/back"; mkdir -p "$R/back" "$out"
  (cd "$SRC" && tar czf "$R/back/back.tgz" "$@") || exit 1
  py -m sqlforge.transfer split "$R/back/back.tgz" "$R/back/parts" --chunk-mib 15 > /dev/null || exit 1
  tar czf "$out/logs.tgz" -C "$R" logs; cp "$R/back/parts/chunks.json" "$out/"
  bash "$0" more "$out" 0
  ;;
more)
  n=0; for p in "$R"/back/parts/back.tgz.part*; do
    [ $n -ge "$3" ] && [ $n -lt $(( $3 + 4 )) ] && cp "$p" "$2/"; n=$((n + 1)); done
  echo "$n parts; in $2: $(ls "$2" | tr '\n' ' ')"
  if [ $n -gt $(( $3 + 4 )) ]; then echo "the rest: $0 more OUT $(( $3 + 4 ))"; fi
  ;;
*) sed -n '2,22p' "$0"; exit 2 ;;
esac
