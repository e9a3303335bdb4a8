"""Browser tests of the built HTML book: ``make test-browser``.

They load the pages of a built book (``make book`` first) in headless Chromium
and are not part of ``make test``: pytest collects this folder only when
``MLBOOK_BROWSER=1`` (the ``test-browser`` target sets it).

    MLBOOK_BROWSER=1 .venv/bin/python -m pytest tests/browser

Settings (environment):
    MLBOOK_HTML      the built book's folder (default: _build/html)
    MLBOOK_CHROMIUM  the Chromium to drive (default: /usr/bin/chromium, Debian's)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from local_site import serve  # noqa: E402

if os.environ.get("MLBOOK_BROWSER") != "1":
    collect_ignore_glob = ["*.py"]


def _book_dir() -> Path:
    folder = Path(os.environ.get("MLBOOK_HTML", "_build/html"))
    if not folder.is_absolute():
        folder = ROOT / folder
    return folder


@pytest.fixture(scope="session")
def book_dir() -> Path:
    folder = _book_dir()
    if not (folder / "genindex.html").is_file():
        pytest.exit(f"No built book in {folder}: run `make book` first "
                    "(or set MLBOOK_HTML to a built book's folder).", returncode=2)
    return folder


@pytest.fixture(scope="session")
def base_url(book_dir):
    """The book served over HTTP on 127.0.0.1 (a free port), as a web site serves it."""
    with serve(book_dir) as (url, _):
        yield url


@pytest.fixture(scope="session")
def browser():
    chromium = os.environ.get("MLBOOK_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).is_file():
        pytest.exit("Chromium is missing: install Debian's chromium (apt-get install chromium)",
                    returncode=2)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.exit("Playwright is missing: `make test-browser` installs it "
                    "(pip install -e '.[browser]').", returncode=2)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium)
        yield b
        b.close()
