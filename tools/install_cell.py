"""Write the install cell (and the solutions note) into every notebook, from ``_config.yml``.

    .venv/bin/python tools/install_cell.py            # rewrite the cells where they differ
    .venv/bin/python tools/install_cell.py --check    # exit 1 if any notebook is out of date

Every chapter (and every student assignment) starts with a code cell, tagged
``remove-cell`` so the HTML book does not show it. Where ``mlbook`` cannot be
imported (Colab opens one notebook alone), it installs the ``mlbook`` of the
book's own version (``version`` in ``pyproject.toml``), trying in turn:

1. a wheel ``mlbook-<version>-*.whl`` in the notebook's folder (a student who
   uploaded one);
2. the book's web site: ``<html.baseurl>_static/wheels/mlbook-<version>-py3-none-any.whl``,
   which every HTML build writes (``_ext/site_wheel.py``);
3. the repository at the tag ``v<version>`` (``repository.url`` in ``_config.yml``).

When all fail, it stops with one sentence that names what it tried and what
the student can do (no traceback). Where ``mlbook`` is installed, it does
nothing. The environment variable ``MLBOOK_INSTALL_SOURCE`` replaces the three
sources with one (a local wheel, a fork, a tag): ``tests/test_colab.py`` uses
it.

A chapter with solutions also gets, right after the install cell, a Markdown
cell tagged ``remove-cell`` that says where the solutions are: plain Jupyter
and Colab show them written out (the HTML book and jupyterlab-myst fold them).
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parent.parent
MARKER = "# Install mlbook where it is missing"
NOTE_MARKER = "**Where the solutions are.**"
TAG = "remove-cell"
WHEEL_FOLDER = "_static/wheels"  # in the built site; _ext/site_wheel.py writes the wheel there

TEMPLATE = """\
{marker} (Colab, a bare Jupyter); where it is installed, it only checks the version.
# Written by tools/install_cell.py from _config.yml and pyproject.toml: edit it there.
import glob, importlib, importlib.util, os, subprocess, sys

if importlib.util.find_spec("mlbook") is None:
    _wheels = sorted(glob.glob("mlbook-*.whl"))  # a wheel uploaded next to this notebook
    _sources = ([("MLBOOK_INSTALL_SOURCE", os.environ["MLBOOK_INSTALL_SOURCE"])]
                if os.environ.get("MLBOOK_INSTALL_SOURCE") else
                [(w, w) for w in _wheels if w.startswith("mlbook-{version}-")] + [
                    ("the book's site, {site}", "{site}"),
                    ("the book's repository, {repository_url} at tag v{version}", "{repository}"),
                ])
    _failed = []
    for _where, _source in _sources:
        _pip = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--retries", "1", _source],
                              capture_output=True, text=True, env={{**os.environ, "GIT_TERMINAL_PROMPT": "0"}})
        if _pip.returncode == 0:
            print(f"mlbook {version} installed from {{_where}}")
            break
        # pip's reason in a few words: git's own message, else pip's first two lines
        _said = [l.strip(" │╰─>×").removeprefix("ERROR:").strip() for l in _pip.stderr.splitlines()]
        _said = [l for l in _said if l and not l.startswith(("hint:", "note:", "WARNING:", "["))]
        _said = [l.removeprefix("fatal:").strip() for l in _said if l.startswith("fatal:")] or _said[:2]
        _failed.append(f"{{_where}} (pip: {{': '.join(_said)[:200] or 'no reason given'}})")
    else:
        class MlbookNotInstalled(Exception):
            def _render_traceback_(self):  # Jupyter shows this line instead of a traceback
                return [f"MlbookNotInstalled: {{self}}"]
        _other = [w for w in _wheels if not w.startswith("mlbook-{version}-")]
        raise MlbookNotInstalled(
            f"mlbook {version} could not be installed from {{'; nor from '.join(_failed)}}"
            + (f" (the wheel {{', '.join(_other)}} next to this notebook is not version {version})" if _other else "")
            + "; download {wheel} from the book's site, or build it with `pip wheel --no-deps .` "
            "in a clone of the repository, put it next to this notebook (on Colab: Files, Upload) "
            "and run this cell again.")
    importlib.invalidate_caches()
elif (_have := getattr(importlib.import_module("mlbook"), "__version__", "unknown")) != "{version}":
    print(f"Note: the mlbook installed here is version {{_have}}, "
          "not {version}, the version this chapter was written for.")"""

NOTE = '''\
{marker} This chapter has {exercises}, in its section
*Exercises*, each followed by its worked solution. In plain Jupyter and on Colab
the solutions are written out in plain sight, each under a line that starts with
`:::{{solution}}`: stop at that line if you want to try the exercise first.
JupyterLab with jupyterlab-myst, like the HTML book, folds each solution until
you open it.'''


def _config(config: Path) -> dict:
    return yaml.safe_load(config.read_text(encoding="utf-8"))


def version(pyproject: Path = ROOT / "pyproject.toml") -> str:
    """The book's version: that of the package in ``pyproject.toml``."""
    return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]


def wheel_name(version: str) -> str:
    """The file name of the (pure Python) wheel of that version."""
    return f"mlbook-{version}-py3-none-any.whl"


def site_url(config: Path = ROOT / "_config.yml") -> str:
    """The book's web site, ``html.baseurl`` in ``_config.yml``, ending in ``/``."""
    url = (_config(config).get("html") or {}).get("baseurl")
    if not url or not re.match(r"https?://", url):
        raise SystemExit(f"{config}: html.baseurl must be the book's web site (https://...); it is {url!r}")
    return url.rstrip("/") + "/"


def wheel_url(config: Path = ROOT / "_config.yml", pyproject: Path = ROOT / "pyproject.toml") -> str:
    """Where the built site serves the wheel of the book's version."""
    return f"{site_url(config)}{WHEEL_FOLDER}/{wheel_name(version(pyproject))}"


def repository_url(config: Path = ROOT / "_config.yml") -> str:
    """The book's repository, ``repository.url`` in ``_config.yml``."""
    return _config(config)["repository"]["url"].rstrip("/")


def repository_source(config: Path = ROOT / "_config.yml",
                      pyproject: Path = ROOT / "pyproject.toml") -> str:
    """The pip requirement that installs the book's version from the repository's tag."""
    return f"mlbook @ git+{repository_url(config)}@v{version(pyproject)}"


def cell_source(config: Path = ROOT / "_config.yml", pyproject: Path = ROOT / "pyproject.toml") -> str:
    v = version(pyproject)
    return TEMPLATE.format(marker=MARKER, version=v, wheel=wheel_name(v),
                           site=wheel_url(config, pyproject),
                           repository=repository_source(config, pyproject),
                           repository_url=repository_url(config))


def note_source(nb) -> str | None:
    """The solutions note for ``nb``, or None where it has no solution."""
    exercises = solutions = 0
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            exercises += len(re.findall(r"^:{3,}\{exercise\}", cell.source, re.M))
            solutions += len(re.findall(r"^:{3,}\{solution\}", cell.source, re.M))
    if not solutions:
        return None
    said = "one exercise" if exercises == 1 else f"{exercises} exercises"
    return NOTE.format(marker=NOTE_MARKER, exercises=said)


def notebooks() -> list[Path]:
    """The chapter notebooks and the assignment sources."""
    found = []
    for folder in ("book", "assignments/source"):
        found += [p for p in sorted((ROOT / folder).rglob("*.ipynb"))
                  if ".ipynb_checkpoints" not in p.parts]
    return found


def is_install_cell(cell) -> bool:
    return cell.cell_type == "code" and cell.source.startswith(MARKER)


def is_note_cell(cell) -> bool:
    return cell.cell_type == "markdown" and cell.source.startswith(NOTE_MARKER)


def _ok(cell, source: str) -> bool:
    return cell.source == source and cell.metadata.get("tags") == [TAG]


def apply(nb, source: str) -> bool:
    """Put the install cell first in ``nb`` and the solutions note after it;
    return True when the notebook changed."""
    note = note_source(nb)
    installs = [i for i, c in enumerate(nb.cells) if is_install_cell(c)]
    notes = [i for i, c in enumerate(nb.cells) if is_note_cell(c)]
    first_code = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), None)
    if (installs == [first_code] and _ok(nb.cells[first_code], source)
            and (notes == [first_code + 1] and _ok(nb.cells[first_code + 1], note)
                 if note else not notes)):
        return False
    for i in sorted(installs + notes, reverse=True):
        del nb.cells[i]
    cells = [nbformat.v4.new_code_cell(source)]
    if note:
        cells.append(nbformat.v4.new_markdown_cell(note))
    for cell in cells:
        cell.metadata["tags"] = [TAG]
    # after the title cell (the first markdown cell), before any code
    first_code = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), len(nb.cells))
    at = min(1, first_code) if nb.cells and nb.cells[0].cell_type == "markdown" else 0
    nb.cells[at:at] = cells
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
        print(f"{path}: install cell or solutions note {verb}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
