"""CI gate: notebooks must be clean, the library exported from them, README.md generated from index.ipynb and
results/bench/INDEX.md from the benchmark files.

Runs nbdev_clean, nbdev_export, tools/readme.py and `python -m sqlforge.bench_index`, then fails if any of them changed a
tracked file (or wrote one that is not committed).
"""
import subprocess, sys

def run(cmd: list[str]) -> None:
    print("$", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)

def main() -> int:
    run(["nbdev_clean"])
    run(["nbdev_export"])
    run([sys.executable, "tools/readme.py"])
    run([sys.executable, "-m", "sqlforge.bench_index"])
    changed = subprocess.run(["git", "status", "--porcelain", "--", "nbs", "sqlforge", "README.md", "results/bench/INDEX.md"],
                             capture_output=True, text=True, check=True).stdout.strip()
    if changed:
        print("These files change under nbdev_clean / nbdev_export / tools/readme.py / sqlforge.bench_index; run `make check-clean` "
              "locally and commit the result:\n" + changed, file=sys.stderr)
        subprocess.run(["git", "--no-pager", "diff", "--stat"])
        return 1
    print("notebooks clean, library exported, README and benchmark index in sync")
    return 0

if __name__ == "__main__":
    sys.exit(main())
