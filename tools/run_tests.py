"""Run the notebook tests (`nbdev_test`), say which flagged cells did not run and why, and end with one line:
`N passed, N failed`.

Extra arguments go to nbdev_test (e.g. `--flags slow`). Exit status is nbdev_test's.
"""
import configparser, os, pathlib, re, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

def not_run(argv: list[str], chromium: str = "/usr/bin/chromium") -> list[str]:
    "One line per kind of flagged cell this run leaves out, with what would run it."
    flags = set(argv[argv.index("--flags") + 1].split()) if "--flags" in argv and argv.index("--flags") + 1 < len(argv) else set()
    ini = configparser.ConfigParser(); ini.read(ROOT / "settings.ini")
    left = [f for f in ini["DEFAULT"].get("tst_flags", "").split() if f not in flags]
    lines = []
    if "browser" in left:
        why = (f"{chromium} is absent (as root: apt-get install chromium; CI installs it)" if not os.path.exists(chromium)
               else "FLAGS left it out")
        lines.append(f"not run: the explorer's browser test (cells flagged browser): {why}")
    if rest := [f for f in left if f != "browser"]:
        lines.append(f"not run: cells flagged {', '.join(rest)} (by design; name them to run them: make test FLAGS=\"{' '.join(rest[:1])}\")")
    return lines

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
    for line in not_run(sys.argv[1:]): print(line)
    print(f"{len(started - failed)} passed, {len(failed)} failed")
    return rc

if __name__ == "__main__":
    sys.exit(main())
