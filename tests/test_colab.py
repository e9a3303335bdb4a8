"""Colab simulation: every chapter runs alone, from its install cell to the end.

Colab opens one notebook by itself, in an empty folder, on a Python that has
NumPy, matplotlib and scikit-learn but not ``mlbook``. This test does the same
for every chapter in ``_toc.yml``:

1. it builds a wheel of ``mlbook`` from this checkout;
2. it makes a bare virtual environment with only numpy, matplotlib,
   scikit-learn, ipykernel and nbclient (once; kept in ``.venv/colab-base-<key>``,
   keyed on the Python version and that list, so a second run reuses it);
3. for each chapter it makes a fresh, empty virtual environment layered on
   that base (a ``.pth`` file adds the base's site-packages: mlbook is never in
   it), copies the notebook alone into an empty temporary folder and executes
   it there with the environment's own nbclient and kernel, with
   ``MLBOOK_INSTALL_SOURCE`` pointing the install cell at the wheel and pip
   cut off from any index (``PIP_NO_INDEX``), so that only the wheel can
   satisfy the import;
4. it checks that every cell ran and that ``mlbook`` was imported from the
   wheel the install cell installed, not from this checkout.

Chapters run two at a time (the kernels mostly wait on each other's pip and
imports). Set ``MLBOOK_SKIP_COLAB=1`` to leave the simulation out of a run.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BASE_PACKAGES = ["numpy", "matplotlib", "scikit-learn", "ipykernel", "nbclient"]
WORKERS = 2
TIMEOUT = 600  # seconds for one notebook, install included


def toc_notebooks() -> list[Path]:
    """The chapter notebooks of the table of contents, in book order."""
    found = []
    for line in (ROOT / "_toc.yml").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\s*-\s*file:\s*(\S+)", line)  # commented lines do not match
        if m and (ROOT / f"{m.group(1)}.ipynb").is_file():
            found.append(ROOT / f"{m.group(1)}.ipynb")
    return found


NOTEBOOKS = toc_notebooks()

# Run inside the bare environment: execute one notebook with that environment's
# own nbclient and kernel, then report where mlbook came from.
RUNNER = r'''
import json, sys, time
import nbformat
from nbclient import NotebookClient

path, report = sys.argv[1], sys.argv[2]
nb = nbformat.read(path, as_version=4)
nb.cells.append(nbformat.v4.new_code_cell(
    "import mlbook as _m, sys as _s\nprint('MLBOOK_FROM', _m.__file__, _s.executable)"))
t0 = time.perf_counter()
NotebookClient(nb, timeout=int(sys.argv[3]), kernel_name="python3",
               resources={"metadata": {"path": "."}}).execute()
text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream")
with open(report, "w") as f:
    json.dump({"seconds": time.perf_counter() - t0, "where": text}, f)
'''


def _clean_env() -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "JUPYTER_PATH", "PYTHONSTARTUP"}}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONNOUSERSITE="1",
               JUPYTER_PLATFORM_DIRS="1", PYDEVD_DISABLE_FILE_VALIDATION="1")
    return env


def _run(cmd, **kw):
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if done.returncode:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _site_packages(python: Path) -> Path:
    out = _run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"])
    return Path(out.stdout.strip())


def _base_env() -> Path:
    """The bare environment (no mlbook), built once and reused while its key holds."""
    base_python = getattr(sys, "_base_executable", sys.executable)
    key = hashlib.sha256(json.dumps(
        [sys.version, base_python, BASE_PACKAGES]).encode()).hexdigest()[:12]
    venv = ROOT / ".venv" / f"colab-base-{key}"
    if (venv / "ready").is_file():
        return venv
    venv.parent.mkdir(exist_ok=True)
    for old in (ROOT / ".venv").glob("colab-base-*"):
        shutil.rmtree(old, ignore_errors=True)
    _run([base_python, "-m", "venv", venv], env=_clean_env())
    _run([_venv_python(venv), "-m", "pip", "install", "-q", *BASE_PACKAGES], env=_clean_env())
    (venv / "ready").write_text("\n".join(BASE_PACKAGES) + "\n")
    return venv


def _wheel(out: Path) -> Path:
    """A wheel of mlbook, built from a copy so that nothing is written into the checkout."""
    src = out / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "mlbook", src / "mlbook",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    cmd = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", out, src]
    try:  # setuptools is here (it is in Python 3.11's venvs): no isolated build env needed
        import setuptools  # noqa: F401
        cmd.insert(5, "--no-build-isolation")
    except ImportError:
        pass
    _run(cmd, env=_clean_env())
    (wheel,) = out.glob("mlbook-*.whl")
    return wheel


def _layered_env(base: Path, where: Path) -> Path:
    """A fresh empty venv that sees the base's packages; pip installs into it alone."""
    base_python = getattr(sys, "_base_executable", sys.executable)
    _run([base_python, "-m", "venv", "--without-pip", where], env=_clean_env())
    python = _venv_python(where)
    site = _site_packages(python)
    base_site = _site_packages(_venv_python(base))
    (site / "_colab_base.pth").write_text(f"import site; site.addsitedir({str(base_site)!r})\n")
    # the kernel that nbclient starts is this environment's Python
    spec = where / "share" / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (Colab simulation)", "language": "python"}))
    return python


def _simulate(notebook: Path, base: Path, wheel: Path, scratch: Path) -> dict:
    work = scratch / notebook.stem
    folder = work / "content"              # the notebook alone, as Colab opens it
    folder.mkdir(parents=True)
    shutil.copy(notebook, folder / notebook.name)
    python = _layered_env(base, work / "env")
    env = _clean_env()
    env.update(MLBOOK_INSTALL_SOURCE=str(wheel), PIP_NO_INDEX="1",
               JUPYTER_PATH=str(work / "env" / "share" / "jupyter"),
               MPLBACKEND="module://matplotlib_inline.backend_inline")
    runner = work / "run_notebook.py"
    runner.write_text(RUNNER)
    report = work / "report.json"
    t0 = time.perf_counter()
    done = subprocess.run([python, runner, notebook.name, report, str(TIMEOUT)], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=TIMEOUT + 60)
    result = {"returncode": done.returncode, "stderr": done.stderr[-6000:],
              "wall": time.perf_counter() - t0, "env": str(work / "env")}
    if report.is_file():
        result.update(json.loads(report.read_text()))
    return result


@pytest.fixture(scope="session")
def colab_runs(tmp_path_factory):
    """Start every chapter's simulation once; each test waits for its own."""
    if os.environ.get("MLBOOK_SKIP_COLAB"):
        pytest.skip("MLBOOK_SKIP_COLAB is set")
    scratch = Path(tempfile.mkdtemp(prefix="mlbook-colab-"))
    t0 = time.perf_counter()
    base = _base_env()
    wheel = _wheel(tmp_path_factory.mktemp("wheel"))
    setup = time.perf_counter() - t0
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS)
    futures = {nb: pool.submit(_simulate, nb, base, wheel, scratch) for nb in NOTEBOOKS}
    yield {"futures": futures, "setup": setup, "wheel": wheel}
    pool.shutdown(wait=True)
    shutil.rmtree(scratch, ignore_errors=True)


def test_the_toc_lists_chapters():
    assert NOTEBOOKS, "no chapter notebook found through _toc.yml"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT / "book").as_posix())
def test_chapter_runs_alone_as_on_colab(colab_runs, notebook):
    result = colab_runs["futures"][notebook].result()
    assert result["returncode"] == 0, (
        f"{notebook.name} failed in the Colab simulation:\n{result['stderr']}")
    where = result.get("where", "")
    # mlbook came from the wheel, installed by the notebook's own install cell
    # into its fresh environment (not from this checkout, not from the base)
    assert "MLBOOK_FROM" in where, where
    module_file = Path(where.split()[1])
    assert Path(result["env"]) in module_file.parents, (
        f"mlbook was imported from {module_file}, not from the wheel the install cell installed")
    assert ROOT not in module_file.parents
