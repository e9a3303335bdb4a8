"""Put the wheel of mlbook into the built HTML site, for the notebooks' install cell.

The first cell of every notebook (``tools/install_cell.py``) installs the
book's version of ``mlbook`` from ``<html.baseurl>_static/wheels/`` before it
tries the repository, so a book served from any web server runs on Colab
without GitHub. This extension writes that file: when an HTML build has
finished without error, it builds ``mlbook-<version>-py3-none-any.whl`` with
``pip wheel --no-deps`` from a copy of the package (nothing is written into the
source folder) and puts it into ``<outdir>/_static/wheels/``. It runs in every
build, ``make book`` or a plain ``jupyter-book build``, and a failure to build
the wheel fails the build: a site without it would leave every install cell
one source short.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from book_version import book_version  # _ext/ is on the path of Sphinx and of the tools

WHEEL_FOLDER = "_static/wheels"  # tools/install_cell.py builds its URL with the same folder
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "mlbook")


class WheelError(RuntimeError):
    pass


def copy_sources(project: Path, dest: Path) -> None:
    """Copy what the package is built from (``SOURCES``) to ``dest``, caches left out."""
    for name in SOURCES:
        if (project / name).is_dir():
            shutil.copytree(project / name, dest / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
        else:
            shutil.copy(project / name, dest / name)


def build_wheel(project: Path, outdir: Path, python: str = sys.executable,
                env: dict | None = None) -> Path:
    """Build the wheel of the package in ``project`` into ``outdir/_static/wheels/``.

    Returns the wheel's path. Older ``mlbook-*.whl`` there are removed, so the
    folder holds the book's version alone.
    """
    project, outdir = Path(project), Path(outdir)
    version = book_version(project)
    expected = f"mlbook-{version}-py3-none-any.whl"
    with tempfile.TemporaryDirectory(prefix="mlbook-wheel-") as tmp:
        src, built = Path(tmp) / "src", Path(tmp) / "wheel"
        src.mkdir()
        copy_sources(project, src)
        cmd = [python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check",
               "-w", str(built), str(src)]
        if _has_setuptools(python, env):  # build offline with the setuptools at hand
            cmd.insert(4, "--no-build-isolation")
        done = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if done.returncode:
            raise WheelError(f"could not build the wheel of mlbook ({' '.join(cmd)}):\n"
                             f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
        wheels = sorted(built.glob("mlbook-*.whl"))
        if [w.name for w in wheels] != [expected]:
            raise WheelError(f"expected the wheel {expected}, pip built {[w.name for w in wheels]}: "
                             "the install cell's URL names the former")
        dest = outdir / WHEEL_FOLDER
        dest.mkdir(parents=True, exist_ok=True)
        for old in dest.glob("mlbook-*.whl"):
            old.unlink()
        return Path(shutil.copy(wheels[0], dest / expected))


def _has_setuptools(python: str, env: dict | None = None) -> bool:
    # setuptools >= 77 reads the SPDX license string of pyproject.toml (PEP 639) and
    # builds wheels by itself (>= 70.1); an older one cannot build this package offline
    check = ("import importlib.metadata as m, sys; "
             "v = m.version('setuptools').split('.'); "
             "sys.exit(not (v[0].isdigit() and int(v[0]) >= 77))")
    return subprocess.run([python, "-c", check], capture_output=True, env=env).returncode == 0


def on_build_finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    from sphinx.errors import ExtensionError
    try:
        wheel = build_wheel(Path(app.srcdir), Path(app.outdir))
    except WheelError as err:
        raise ExtensionError(str(err)) from err
    from sphinx.util import logging
    logging.getLogger(__name__).info(f"wrote {wheel.relative_to(app.outdir)}")


def setup(app):
    app.connect("build-finished", on_build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
