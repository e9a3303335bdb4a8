"""Give every closing directive fence its own paragraph, so plain Markdown reads it apart.

    .venv/bin/python tools/md_fences.py            # fix the notebooks in place
    .venv/bin/python tools/md_fences.py --check    # exit 1 if any notebook needs it

In plain JupyterLab and on Colab (no MyST renderer) a closing fence written
right under the text, as in ``...frequent.\\n:::``, joins the last paragraph
("frequent. :::"), and under a display equation it joins the equation's label.
A blank line before the fence makes it a paragraph of its own; MyST (the book,
jupyterlab-myst) reads both forms the same. Only markdown cells change, and
only by inserting blank lines, so the diff stays small.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from install_cell import notebooks  # noqa: E402

FENCE = re.compile(r"^(:{3,})(\{[\w:-]+\}.*)?\s*$")


def fix(text: str) -> str:
    lines = text.split("\n")
    out: list[str] = []
    in_code = False
    for line in lines:
        if line.lstrip().startswith("```"):
            in_code = not in_code
        m = FENCE.match(line)
        if not in_code and m and not m.group(2) and out:
            prev = out[-1]
            # keep it where the directive has no body (the fence follows the
            # opening line or an option line directly)
            if prev.strip() and not FENCE.match(prev) and not prev.startswith(":"):
                out.append("")
        out.append(line)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("paths", nargs="*", type=Path)
    args = parser.parse_args(argv)
    stale = []
    for path in args.paths or notebooks():
        nb = nbformat.read(path, as_version=4)
        changed = False
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                new = fix(cell.source)
                if new != cell.source:
                    cell.source, changed = new, True
        if changed:
            stale.append(path)
            if not args.check:
                nbformat.write(nb, path)
    for path in stale:
        print(f"{path}: closing fences {'need a blank line' if args.check else 'fixed'}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
