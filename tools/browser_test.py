"""Browser test of the transcript explorer (nbs/60_transcripts.ipynb) in a real browser.

Starts JupyterLab headless on localhost (fresh token, its own settings and workspace folders), opens a copy of the
explorer notebook whose parameters point at a results folder (the committed fixtures by default), runs all cells from
JupyterLab's Run menu in Debian's Chromium driven by Playwright (the system browser, never a downloaded one), chooses an
episode in the explorer's episode list, waits for the conversation and the verdict, ticks "compare", saves a
screenshot, and finally opens a static HTML export from disk and checks its text. The server and the browser are
stopped whatever happens. Prints one JSON line with the findings; exit status 0 only if every check passed.

    python tools/browser_test.py --results nbs/fixtures/results --screenshot report/explorer.png \\
        --html some_export.html --expect "text that must be in it"
"""
import argparse, json, os, re, secrets, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

class Failed(Exception):
    "A check of the browser test failed; the message says which and what was seen."

def log(msg: str) -> None:
    print(f"[browser_test {time.strftime('%H:%M:%S')}] {msg}", flush=True)

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); return s.getsockname()[1]

def notebook_copy(results: Path, dest: Path, export_dir: Path) -> Path:
    "The explorer notebook with its parameters injected (papermill's way) and without its browser and export cells."
    import nbformat
    from papermill.iorw import load_notebook_node
    from papermill.parameterize import parameterize_notebook
    nb = load_notebook_node(str(ROOT / "nbs" / "60_transcripts.ipynb"))
    nb.cells = [c for c in nb.cells if not (c.cell_type == "code" and ("#| browser" in c.source or "nbdev_export" in c.source))]
    nb = parameterize_notebook(nb, {"results_dir": str(results), "export_dir": str(export_dir)})
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    path = dest / "explorer_browser_test.ipynb"
    nbformat.write(nb, path)
    return path

def start_lab(root_dir: Path, port: int, token: str, work: Path) -> subprocess.Popen:
    "JupyterLab on 127.0.0.1:port serving root_dir, in its own process group, with settings that never reach out."
    settings = work / "lab-settings"
    notif = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notif.parent.mkdir(parents=True)
    notif.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    tracker = settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True)
    tracker.write_text(json.dumps({"windowingMode": "none"}))   # every cell in the DOM, so its prompt can be read
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(settings), "JUPYTERLAB_WORKSPACES_DIR": str(work / "workspaces"),
           "JUPYTER_RUNTIME_DIR": str(work / "runtime"), "JUPYTER_CONFIG_DIR": str(work / "config"),
           "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1")}
    env.pop("IN_TEST", None)  # the notebook copy must take its injected parameters, not the test fixtures' branch
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
           "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root_dir}",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", "--LabApp.news_url=None",
           "--LabApp.extension_manager=readonly"] + (["--allow-root"] if os.geteuid() == 0 else [])
    out = open(work / "jupyterlab.log", "wb")
    return subprocess.Popen(cmd, cwd=root_dir, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)

def wait_for_server(base: str, token: str, proc: subprocess.Popen, timeout: float) -> None:
    t0 = time.time()
    while time.time() - t0 < timeout:
        if proc.poll() is not None: raise Failed(f"JupyterLab exited with status {proc.returncode} before serving")
        try:
            with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as r:
                if r.status == 200: return
        except OSError: time.sleep(0.5)
    raise Failed(f"JupyterLab did not answer on {base} within {timeout:.0f} s")

def stop_lab(proc: subprocess.Popen, base: str, token: str) -> None:
    "Ask the server to shut down (it stops its kernels), then end its process group if it lingers."
    if proc.poll() is None:
        try: urllib.request.urlopen(urllib.request.Request(f"{base}/api/shutdown?token={token}", method="POST"), timeout=5)
        except OSError: pass
        try: proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            try: proc.wait(timeout=10)
            except subprocess.TimeoutExpired: os.killpg(proc.pid, signal.SIGKILL); proc.wait()

def shrink_png(path: Path) -> None:
    "Quantise a screenshot to 256 colours (a fraction of the size, still readable)."
    try: from PIL import Image
    except ImportError: return
    img = Image.open(path).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    img.save(path, optimize=True)

def expected_episode(results: Path, label: str):
    "The transcript behind an episode-list label `task · seed N · arm [run] · outcome · k turns`, read from the files."
    sys.path.insert(0, str(ROOT))
    from sqlforge.explorer import episode_table, list_runs, load_transcript
    parts = label.split(" · ")
    if len(parts) < 5: raise Failed(f"unexpected episode label {label!r}")
    task, seed, arm = parts[:3]
    run = arm.split(" [", 1)[1].rstrip("]") if " [" in arm else None
    t = episode_table(list_runs(results).path)
    t = t[(t.task == task) & (t.seed == int(seed.split()[1])) & (t.arm == arm.split(" [")[0]) & ((t.run == run) if run else True)]
    if len(t) != 1: raise Failed(f"cannot tell which episode {label!r} is ({len(t)} candidates)")
    return load_transcript(t.run_dir.iloc[0], task, int(seed.split()[1]))

def drive(page, nb_name: str, base: str, token: str, screenshot: Path, timeout_s: float, results: Path) -> dict:
    "Open the notebook, run all, pick an episode, check the rendering, compare, screenshot."
    from playwright.sync_api import TimeoutError as PWTimeout
    ms = int(timeout_s * 1000)
    found = {}
    page.goto(f"{base}/lab/tree/{nb_name}?token={token}", timeout=ms)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=ms)
    page.wait_for_function("() => /Idle/.test(document.querySelector('#jp-main-statusbar')?.innerText || '')", timeout=ms)
    log("notebook open, kernel idle")
    t0 = time.time()
    for attempt in range(3):                  # Run > Run All Cells; again if no cell has started within 30 s
        page.locator(".jp-Notebook .jp-Cell").first.click()
        page.locator(".lm-MenuBar-item", has_text="Run").first.click()
        page.locator("li.lm-Menu-item[data-command='runmenu:run-all']").click()
        log(f"Run > Run All Cells (attempt {attempt + 1})")
        try:
            page.wait_for_function("() => [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]"
                                   ".some(e => /\\[(\\*|\\d+)\\]/.test(e.innerText))", timeout=30_000)
            break
        except PWTimeout: page.keyboard.press("Escape")
    else: raise Failed("Run All Cells did not start any cell (three attempts)")
    state = {}
    while time.time() - t0 < timeout_s:        # until every code cell has run, or one has failed
        state = page.evaluate("""() => ({
            prompts: [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')].map(e => e.innerText.trim()),
            errors: [...document.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"],'
                                                + ' .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
                    .map(e => e.innerText).filter(t => /Traceback|Error/.test(t))})""")
        if state["errors"]: raise Failed(f"a cell failed while running the notebook: {state['errors'][0][:2000]}")
        p = state["prompts"]
        if p and re.match(r"^\[\d+\]", p[-1]) and all(re.match(r"^\[\d+\]", x) for x in p if x): break
        time.sleep(2)
    else:
        raise Failed(f"the notebook did not finish within {timeout_s:.0f} s; cell prompts: {state.get('prompts')}")
    sel = page.locator(".sqlforge-episode select").last
    sel.wait_for(state="visible", timeout=ms)
    found["run_all_s"] = round(time.time() - t0, 1)
    options = [o.strip() for o in sel.locator("option").all_inner_texts()]
    log(f"all cells ran in {found['run_all_s']} s; the explorer lists {len(options) - 1} episodes")
    plain = lambda o: o.replace("\xa0", " ")                 # ipywidgets writes option labels with no-break spaces
    want = next((o for o in options if "scripted-skilled" in plain(o) and " · pass · " in plain(o)), None) or (
        options[1] if len(options) > 1 else None)
    if want is None: raise Failed(f"the episode list is empty: {options}")
    tr = expected_episode(results, plain(want))
    sel.select_option(label=want)
    view = page.locator(".sqlforge-view").last
    view.locator(".verdict").first.wait_for(timeout=ms)
    text = view.inner_text()
    checks = {"question": " ".join(tr.user.split())[:80] in " ".join(text.split()), "verdict": "verdict" in text,
              "outcome": tr.outcome in text, "verifier message": tr.message in text, "task": tr.task in text,
              "sql_table": view.locator("table.obs").count() > 0, "thinking_folded": view.locator("details").count() > 0}
    found.update(episode=plain(want), checks=checks)
    if not all(checks.values()): raise Failed(f"the episode view lacks {[k for k, v in checks.items() if not v]}: {text[:600]!r}")
    page.locator(".sqlforge-compare input").last.check()
    page.wait_for_function("() => { const v = [...document.querySelectorAll('.sqlforge-view')].pop();"
                           " return v && v.querySelectorAll('.sqlforge-compare').length > 0; }", timeout=ms)
    ctext = view.inner_text()
    found["compare"] = {"two_columns": view.locator(".sqlforge-ep").count() >= 2, "base": "base" in ctext}
    if not all(found["compare"].values()): raise Failed(f"the comparison did not render: {ctext[:400]!r}")
    page.locator(".sqlforge-compare input").last.uncheck()
    page.wait_for_function("() => { const v = [...document.querySelectorAll('.sqlforge-view')].pop();"
                           " return v && !v.querySelector('.sqlforge-compare') && v.querySelector('.verdict'); }", timeout=ms)
    page.keyboard.press("Escape")
    page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").first.click()   # fold the file browser away
    page.wait_for_timeout(500)
    page.locator(".sqlforge-explorer").last.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    screenshot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(screenshot))
    shrink_png(screenshot)
    found["screenshot"] = {"path": str(screenshot), "bytes": screenshot.stat().st_size}
    log(f"screenshot {screenshot} ({screenshot.stat().st_size:,} bytes)")
    return found

def check_static(page, html: Path, expect: list, timeout_s: float) -> dict:
    "Open a static export from disk and check that each expected text is in it."
    page.goto(html.resolve().as_uri(), timeout=int(timeout_s * 1000))
    body = page.locator("body").inner_text()
    missing = [e for e in expect if e not in body]
    if missing: raise Failed(f"{html}: the static export lacks {missing}")
    return {"path": str(html), "checked": len(expect)}

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", default=str(ROOT / "nbs" / "fixtures" / "results"))
    ap.add_argument("--screenshot", default=str(ROOT / "report" / "explorer.png"))
    ap.add_argument("--html", help="a static HTML export to open with file://")
    ap.add_argument("--expect", action="append", default=[], help="text the static export must contain (repeatable)")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--timeout", type=float, default=240, help="seconds for each wait in the browser")
    a = ap.parse_args(argv)
    if not Path(a.chromium).exists():
        print(f"browser test: no Chromium at {a.chromium}; install it with `apt-get install -y chromium`", file=sys.stderr)
        return 2
    try: from playwright.sync_api import sync_playwright
    except ImportError:
        print("browser test: the `playwright` package is missing; pip install playwright (the system Chromium is used, "
              "never `playwright install`)", file=sys.stderr)
        return 2
    t_start = time.time()
    work = Path(tempfile.mkdtemp(prefix="sqlforge-browser-"))
    port, token = free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    proc, result, rc = None, {"ok": False}, 1
    try:
        root_dir = work / "lab"; root_dir.mkdir()
        nb = notebook_copy(Path(a.results).resolve(), root_dir, work / "export")
        proc = start_lab(root_dir, port, token, work)
        wait_for_server(base, token, proc, 120)
        log(f"JupyterLab up on {base}")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=a.chromium, args=CHROMIUM_ARGS, headless=True)
            try:
                page = browser.new_page(viewport={"width": 1360, "height": 1900})
                result["browser"] = browser.version
                result["explorer"] = drive(page, nb.name, base, token, Path(a.screenshot), a.timeout, Path(a.results).resolve())
                if a.html: result["static"] = check_static(page, Path(a.html), a.expect, a.timeout)
            finally: browser.close()
        result["ok"], rc = True, 0
    except Exception as e:   # Failed, a Playwright error or anything else: report it, clean up, fail
        result["error"] = f"{type(e).__name__}: {e}"
        log(f"FAILED: {result['error']}")
        logf = work / "jupyterlab.log"
        if logf.exists(): print(logf.read_text(errors="replace")[-3000:], file=sys.stderr)
    finally:
        if proc is not None: stop_lab(proc, base, token)
        shutil.rmtree(work, ignore_errors=True)
    result["seconds"] = round(time.time() - t_start, 1)
    print(json.dumps(result))
    return rc

if __name__ == "__main__":
    sys.exit(main())
