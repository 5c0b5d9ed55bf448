"""Write README.md from nbs/index.ipynb (markdown cells as they are, code cells as fenced blocks).

nbdev's own `nbdev_readme` needs the Quarto binary, which these machines cannot download; this does the part
we need. Cells whose first line is `#| hide` are left out, as are nbdev directive lines.
"""
import json, pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent

def cell_text(cell: dict) -> str | None:
    src = "".join(cell["source"]).strip("\n")
    lines = src.splitlines()
    if any(l.strip().replace(" ", "") in ("#|hide", "#|exporti") for l in lines[:3]): return None
    if cell["cell_type"] == "markdown": return src
    code = "\n".join(l for l in lines if not l.startswith("#|")).strip("\n")
    return f"```python\n{code}\n```" if code else None

def main() -> None:
    nb = json.loads((ROOT / "nbs" / "index.ipynb").read_text())
    parts = [t for c in nb["cells"] if (t := cell_text(c))]
    header = "<!-- Generated from nbs/index.ipynb by tools/readme.py; edit the notebook, not this file. -->\n\n"
    (ROOT / "README.md").write_text(header + "\n\n".join(parts) + "\n")

if __name__ == "__main__":
    main()
