"""Run the notebook tests (`nbdev_test`) and end with one line: `N passed, N failed`.

Extra arguments go to nbdev_test (e.g. `--flags slow`). Exit status is nbdev_test's.
"""
import os, re, subprocess, sys

def main() -> int:
    cmd = ["nbdev_test", "--do_print", "--timing", *sys.argv[1:]]
    print("$", " ".join(cmd), flush=True)
    # nbdev_test runs one notebook per core; torch's default of one thread per core in each of them oversubscribes
    # the machine (a tiny model's decode step was 30x slower), so each notebook gets one thread unless told otherwise.
    env = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", **os.environ}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    started, failed, in_failures = set(), set(), False
    for line in proc.stdout:
        sys.stdout.write(line); sys.stdout.flush()
        for m in re.finditer(r"Starting (\S+?\.ipynb)", line):      # notebooks run in parallel: two lines can arrive glued
            started.add(m.group(1).rsplit("/", 1)[-1])
        if "Tests Failed On The Following Notebooks" in line: in_failures = True
        elif in_failures and line.startswith("\t"): failed.add(line.strip())
    rc = proc.wait()
    if rc and not failed: failed.add("<nbdev_test itself>")
    print(f"{len(started - failed)} passed, {len(failed)} failed")
    return rc

if __name__ == "__main__":
    sys.exit(main())
