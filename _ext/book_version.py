"""The version of the book and of mlbook, as ``{{ version }}`` in the book's Markdown pages.

The number lives in one place, ``pyproject.toml`` (``mlbook.__version__`` and the
newest heading of ``CHANGELOG.md`` must agree with it: ``tests/test_release.py``).
This extension reads it when the configuration is ready and adds it to MyST's
substitutions, so the front page and the changelog page print the number of the
package the build installed, never a typed copy.
"""

from __future__ import annotations

import tomllib
from pathlib import Path


def book_version(root: Path) -> str:
    """The version in ``root/pyproject.toml``."""
    with open(root / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["version"]


def _add_substitution(app, config) -> None:
    subs = dict(config.myst_substitutions or {})
    subs["version"] = book_version(Path(app.srcdir))
    config.myst_substitutions = subs
    # Sphinx's own version fields, which the PDF's title page prints ("Release 0.1.0")
    if not config.release:
        config.release = config.version = subs["version"]


def setup(app):
    app.connect("config-inited", _add_substitution)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
