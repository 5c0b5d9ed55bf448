"""Run the README's commands ("What else it runs": its first `sh` block, then its first `python` block, the PEFT recipe) in a
fresh clone, as a newcomer would.

The clone is made from this repository's HEAD in a temporary folder, with this checkout's `.venv` and, when it is
there, `../shared` beside it; `PYTHONPATH` points at the clone, as the clone's own editable install would. Every
command must exit 0, and afterwards the clone's git status must be clean: nothing written outside `scratch/` (which git
ignores), nothing under `results/` changed or added. Ends with `N passed, N failed`; exit status 1 on any failure.

    python tools/readme_commands.py            # run them all
    python tools/readme_commands.py --list     # print the commands
"""
import os, pathlib, re, shlex, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parent.parent

def readme_commands(readme: pathlib.Path = ROOT / "README.md") -> list[str]:
    """The command lines of the first `sh` block under the README's `## What else it runs` (comments and blanks left out),
    then its first `python` block as one command."""
    section = readme.read_text().split("## What else it runs", 1)[1]
    sh, py = (re.search(rf"```{lang}\n(.*?)```", section, re.S) for lang in ("sh", "python"))
    if sh is None or py is None: raise SystemExit("README.md: no ```sh block and ```python block under '## What else it runs'")
    return ([l for l in sh.group(1).splitlines() if l.strip() and not l.lstrip().startswith("#")]
            + [".venv/bin/python -c " + shlex.quote(py.group(1))])

def fresh_clone(where: pathlib.Path) -> pathlib.Path:
    "A clone of HEAD with this checkout's .venv, and ../shared beside it when this checkout has one."
    clone = where / "sqlforge"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    (clone / ".venv").symlink_to(ROOT / ".venv")
    with open(clone / ".git" / "info" / "exclude", "a") as f: f.write("/.venv\n")    # the link itself (.gitignore's .venv/ is a folder)
    if (ROOT.parent / "shared").is_dir(): (where / "shared").symlink_to(ROOT.parent / "shared")
    return clone

def main() -> int:
    commands = readme_commands()
    if "--list" in sys.argv[1:]:
        print("\n".join(commands)); return 0
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="sqlforge-readme-") as t:
        clone = fresh_clone(pathlib.Path(t))
        env = {**os.environ, "PYTHONPATH": str(clone), "PYTHONDONTWRITEBYTECODE": "1"}
        for cmd in commands:
            t0 = time.time()
            r = subprocess.run(["bash", "-c", cmd], cwd=clone, env=env, capture_output=True, text=True, timeout=1800)
            took = f"{time.time() - t0:.0f} s"
            if r.returncode == 0:
                passed += 1; print(f"ok ({took}): {cmd}", flush=True)
            else:
                failed += 1
                print(f"FAILED (exit {r.returncode}, {took}): {cmd}\n    " + "\n    ".join((r.stdout + r.stderr).splitlines()[-15:]), flush=True)
        status = subprocess.run(["git", "-C", str(clone), "status", "--porcelain", "--untracked-files=all"],
                                capture_output=True, text=True).stdout.strip()
        if status:
            failed += 1; print(f"FAILED: the commands wrote outside scratch/:\n    " + status.replace("\n", "\n    "))
        else:
            passed += 1; print("ok: the clone's git status is clean (results/ untouched, everything else in scratch/)")
    print(f"{passed} passed, {failed} failed")
    return int(failed > 0)

if __name__ == "__main__":
    sys.exit(main())
