"""Write the install cell into every notebook, from the repository set in ``_config.yml``.

    .venv/bin/python tools/install_cell.py            # rewrite the cell where it differs
    .venv/bin/python tools/install_cell.py --check    # exit 1 if any notebook is out of date

Every chapter (and every student assignment) starts with this code cell,
tagged ``remove-cell`` so the HTML book does not show it. Where ``mlbook``
cannot be imported (Colab opens one notebook alone), it installs the package
from the book's repository at the branch the book is built from; where
``mlbook`` is installed, it does nothing. The environment variable
``MLBOOK_INSTALL_SOURCE`` replaces the source (a local wheel, a fork, a tag):
the Colab simulation in ``tests/test_colab.py`` uses it.

The repository URL and branch are read from ``repository:`` in
``_config.yml``, the one place they are set.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parent.parent
MARKER = "# Install mlbook where it is missing"
TAG = "remove-cell"

TEMPLATE = '''\
{marker} (Colab, a bare Jupyter); where it is installed, nothing happens.
# Written by tools/install_cell.py from _config.yml: edit it there.
import importlib, importlib.util, os, subprocess, sys

if importlib.util.find_spec("mlbook") is None:
    _source = os.environ.get("MLBOOK_INSTALL_SOURCE", "{source}")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", _source], check=True)
    importlib.invalidate_caches()'''


def install_source(config: Path = ROOT / "_config.yml") -> str:
    """The pip requirement that installs the book's version of ``mlbook``."""
    repo = yaml.safe_load(config.read_text(encoding="utf-8"))["repository"]
    url = repo["url"].rstrip("/")
    branch = repo.get("branch", "main")
    return f"mlbook @ git+{url}@{branch}"


def cell_source(config: Path = ROOT / "_config.yml") -> str:
    return TEMPLATE.format(marker=MARKER, source=install_source(config))


def notebooks() -> list[Path]:
    """The chapter notebooks and the assignment sources."""
    found = []
    for folder in ("book", "assignments/source"):
        found += [p for p in sorted((ROOT / folder).rglob("*.ipynb"))
                  if ".ipynb_checkpoints" not in p.parts]
    return found


def is_install_cell(cell) -> bool:
    return cell.cell_type == "code" and cell.source.startswith(MARKER)


def apply(nb, source: str) -> bool:
    """Put the install cell first in ``nb``; return True when the notebook changed."""
    existing = [i for i, c in enumerate(nb.cells) if is_install_cell(c)]
    first_code = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), None)
    if existing:
        cell = nb.cells[existing[0]]
        ok = (cell.source == source and existing == [first_code]
              and cell.metadata.get("tags") == [TAG])
        if ok:
            return False
        for i in reversed(existing):
            del nb.cells[i]
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["tags"] = [TAG]
    # after the title cell (the first markdown cell), before any code
    first_code = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), len(nb.cells))
    nb.cells.insert(min(1, first_code) if nb.cells and nb.cells[0].cell_type == "markdown"
                    else 0, cell)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report notebooks out of date")
    parser.add_argument("paths", nargs="*", type=Path)
    args = parser.parse_args(argv)
    source = cell_source()
    stale = []
    for path in args.paths or notebooks():
        nb = nbformat.read(path, as_version=4)
        if apply(nb, source):
            stale.append(path)
            if not args.check:
                nbformat.write(nb, path)
    verb = "out of date" if args.check else "rewritten"
    for path in stale:
        print(f"{path}: install cell {verb}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
