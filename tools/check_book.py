"""Checks on the built HTML that Sphinx's -W cannot make.

    .venv/bin/python tools/check_book.py [_build/html]

Every chapter (each notebook in the table of contents) must show at least one
figure: a chapter without one usually means the plots were lost (for example a
non-inline matplotlib backend in the kernel), not that the chapter has none.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(html: Path) -> int:
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    files = [m.group(1).strip() for m in re.finditer(r"^\s*- file:\s*(\S+)", toc, re.M)]
    problems = []
    for stem in files:
        if not (ROOT / f"{stem}.ipynb").exists():
            continue
        page = html / f"{stem}.html"
        if not page.exists():
            problems.append(f"{page} was not built")
            continue
        text = page.read_text(encoding="utf-8")
        figures = len(re.findall(r'<img[^>]+src="[^"]*_images/', text))
        if figures == 0:
            problems.append(f"{stem}: the built page shows no figure")
    for p in problems:
        print(f"check_book: {p}")
    print(f"check_book: {len(files)} pages in the table of contents, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_build" / "html"))
