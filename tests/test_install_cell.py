"""How a reader gets mlbook: the notebooks' install cell (tools/install_cell.py), the wheel
the book's site serves (_ext/site_wheel.py), and what `make lab` and Binder install.

The install cell is run as a student's notebook runs it: its code, as
``install_cell.cell_source()`` writes it, goes through IPython (as in Jupyter and
Colab) in a fresh virtual environment that has NumPy, matplotlib and IPython but
no ``mlbook``, in an empty folder, with pip cut off from any index
(``PIP_NO_INDEX``, no configuration file). "The book's site" is a local
``http.server`` on 127.0.0.1 serving the folder the extension built; "the
repository" is a URL on 127.0.0.1 where nothing listens.

The fresh environment is ``python -m venv --without-pip`` plus a ``.pth`` line
naming a folder of links to this environment's packages less ``mlbook`` (a plain
path line: the editable install's own ``.pth`` is not processed), so making one
takes well under a second and needs no download.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from local_site import serve

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "_ext"))
try:
    import install_cell
    import site_wheel
finally:
    del sys.path[:2]

VERSION = install_cell.version()
WHEEL = install_cell.wheel_name(VERSION)

# Runs in the fresh environment: the cell through IPython, then where mlbook came from.
RUNNER = r'''
import importlib.util, sys
from IPython.core.interactiveshell import InteractiveShell
result = InteractiveShell.instance().run_cell(open(sys.argv[1]).read())
spec = importlib.util.find_spec("mlbook")
print("CELL_OK" if result.success else "CELL_FAILED")
print("MLBOOK_AT", spec.origin if spec else None)
'''


def _free_port() -> int:
    """A port on 127.0.0.1 with nothing listening (taken and released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def built_site(tmp_path_factory):
    """The HTML output folder as the book build leaves it: the extension's wheel in it."""
    out = tmp_path_factory.mktemp("html")
    app = SimpleNamespace(srcdir=str(ROOT), outdir=str(out), builder=SimpleNamespace(format="html"))
    site_wheel.on_build_finished(app, None)
    return out


@pytest.fixture(scope="module")
def site(built_site):
    """Serve the built folder on 127.0.0.1; yields its URL and the paths requested."""
    with serve(built_site) as (url, requested):
        yield SimpleNamespace(url=url, requested=requested)


@pytest.fixture(scope="module")
def packages_without_mlbook(tmp_path_factory):
    """A folder of links to this environment's packages, mlbook's files left out."""
    farm = tmp_path_factory.mktemp("site-packages")
    here = Path(sysconfig.get_path("purelib"))
    for entry in here.iterdir():
        if "mlbook" in entry.name.lower() or entry.suffix == ".pth":
            continue
        (farm / entry.name).symlink_to(entry)
    return farm


def _cell(tmp: Path, site_url: str, repository: str) -> str:
    config = tmp / "_config.yml"
    config.write_text(yaml.safe_dump({"html": {"baseurl": site_url}, "repository": {"url": repository}}))
    return install_cell.cell_source(config, ROOT / "pyproject.toml")


def _run_cell(tmp: Path, code: str, packages: Path, **extra_env) -> subprocess.CompletedProcess:
    """Run ``code`` through IPython in a fresh environment without mlbook, in an empty folder."""
    env_dir, content = tmp / "env", tmp / "content"
    content.mkdir(exist_ok=True)
    base_python = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base_python, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "_packages.pth").write_text(f"{packages}\n")
    (tmp / "cell.py").write_text(code)
    (tmp / "runner.py").write_text(RUNNER)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PIP_") and k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"}}
    env.update(PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1",
               PYTHONNOUSERSITE="1", **extra_env)
    return subprocess.run([python, tmp / "runner.py", tmp / "cell.py"], cwd=content, env=env,
                          capture_output=True, text=True, timeout=300)


def _installed_in(done: subprocess.CompletedProcess, env_dir: Path) -> bool:
    where = re.search(r"^MLBOOK_AT (.*)$", done.stdout, re.M).group(1)
    return where != "None" and env_dir.resolve() in Path(where).resolve().parents


def test_the_extension_writes_the_wheel_the_cell_names(built_site):
    wheel = built_site / site_wheel.WHEEL_FOLDER / WHEEL
    assert wheel.is_file(), f"no {WHEEL} in {built_site / site_wheel.WHEEL_FOLDER}"
    # the cell asks for the very path the build wrote, under the site of _config.yml
    assert install_cell.wheel_url() == install_cell.site_url() + f"{site_wheel.WHEEL_FOLDER}/{WHEEL}"
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        metadata = z.read(f"mlbook-{VERSION}.dist-info/METADATA").decode()
    assert "mlbook/__init__.py" in names and "mlbook/datasets/data/" in " ".join(names)
    assert f"\nVersion: {VERSION}\n" in metadata


def test_the_extension_is_registered_and_skips_other_builders(tmp_path):
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert config["sphinx"]["local_extensions"].get("site_wheel") == "_ext/", (
        "_config.yml does not load _ext/site_wheel.py: the site would serve no wheel")
    app = SimpleNamespace(srcdir=str(ROOT), outdir=str(tmp_path), builder=SimpleNamespace(format="latex"))
    site_wheel.on_build_finished(app, None)
    assert not any(tmp_path.iterdir())


def test_the_cell_installs_the_books_version_not_a_branch():
    code = install_cell.cell_source()
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    repo = config["repository"]["url"].rstrip("/")
    assert f'"{install_cell.wheel_url()}"' in code
    assert f'"mlbook @ git+{repo}@v{VERSION}"' in code
    # the site is tried before the repository, and no branch is named
    assert code.index(install_cell.wheel_url()) < code.index(f"git+{repo}")
    assert "@main" not in code and "@" + config["repository"].get("branch", "main") not in code


def test_the_cell_installs_from_the_site(tmp_path, site, packages_without_mlbook):
    code = _cell(tmp_path, site.url, f"http://127.0.0.1:{_free_port()}/mlbook")
    done = _run_cell(tmp_path, code, packages_without_mlbook)
    assert "CELL_OK" in done.stdout, done.stdout + done.stderr
    assert _installed_in(done, tmp_path / "env"), done.stdout
    assert f"/{site_wheel.WHEEL_FOLDER}/{WHEEL}" in site.requested
    assert f"mlbook {VERSION} installed from the book's site, {site.url}{site_wheel.WHEEL_FOLDER}/{WHEEL}" in done.stdout


def test_the_cell_takes_a_wheel_put_next_to_the_notebook(tmp_path, built_site, packages_without_mlbook):
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / WHEEL).write_bytes((built_site / site_wheel.WHEEL_FOLDER / WHEEL).read_bytes())
    code = _cell(tmp_path, f"http://127.0.0.1:{_free_port()}/", f"http://127.0.0.1:{_free_port()}/mlbook")
    done = _run_cell(tmp_path, code, packages_without_mlbook)
    assert "CELL_OK" in done.stdout, done.stdout + done.stderr
    assert _installed_in(done, tmp_path / "env"), done.stdout
    assert f"mlbook {VERSION} installed from {WHEEL}" in done.stdout


def test_mlbook_install_source_replaces_the_sources(tmp_path, built_site, packages_without_mlbook):
    code = _cell(tmp_path, f"http://127.0.0.1:{_free_port()}/", f"http://127.0.0.1:{_free_port()}/mlbook")
    wheel = built_site / site_wheel.WHEEL_FOLDER / WHEEL
    done = _run_cell(tmp_path, code, packages_without_mlbook, MLBOOK_INSTALL_SOURCE=str(wheel))
    assert "CELL_OK" in done.stdout, done.stdout + done.stderr
    assert _installed_in(done, tmp_path / "env"), done.stdout


def test_a_failed_install_says_one_plain_sentence(tmp_path, packages_without_mlbook):
    site_url = f"http://127.0.0.1:{_free_port()}/"
    repository = f"http://127.0.0.1:{_free_port()}/mlbook"
    code = _cell(tmp_path, site_url, repository)
    done = _run_cell(tmp_path, code, packages_without_mlbook)
    shown = done.stdout + done.stderr
    # the cell fails, so that "Run all" stops here, and mlbook is still missing
    assert "CELL_FAILED" in done.stdout and not _installed_in(done, tmp_path / "env"), shown
    # what the student sees: one line, naming both places tried and the way out
    lines = [line for line in done.stdout.splitlines() if line.strip()
             and not line.startswith(("CELL_", "MLBOOK_AT"))]
    assert len(lines) == 1, f"expected one line, the cell showed:\n{shown}"
    (line,) = lines
    wheel_url = f"{site_url}{site_wheel.WHEEL_FOLDER}/{WHEEL}"
    assert line.startswith(f"MlbookNotInstalled: mlbook {VERSION} could not be installed from "
                           f"the book's site, {wheel_url} (pip: "), line
    assert f"; nor from the book's repository, {repository} at tag v{VERSION} (pip: " in line, line
    # pip's own reason for each place is passed on (a student whose Python is too old
    # must not be told to upload a wheel that would fail the same way, unexplained)
    assert line.count("(pip: ") == 2 and "(pip: no reason given)" not in line, line
    assert "next to this notebook" in line and "run this cell again" in line, line
    for noise in ("Traceback", "CalledProcessError", "Username", "fatal:", "ERROR:"):
        assert noise not in shown, f"{noise!r} shown to the student:\n{shown}"


def test_a_wheel_of_another_version_is_named_not_installed(tmp_path, built_site, packages_without_mlbook):
    (tmp_path / "content").mkdir()
    other = "mlbook-0.0.1-py3-none-any.whl"
    (tmp_path / "content" / other).write_bytes((built_site / site_wheel.WHEEL_FOLDER / WHEEL).read_bytes())
    code = _cell(tmp_path, f"http://127.0.0.1:{_free_port()}/", f"http://127.0.0.1:{_free_port()}/mlbook")
    done = _run_cell(tmp_path, code, packages_without_mlbook)
    assert "CELL_FAILED" in done.stdout and not _installed_in(done, tmp_path / "env"), done.stdout
    assert f"(the wheel {other} next to this notebook is not version {VERSION})" in done.stdout


def test_the_cell_names_another_installed_version(monkeypatch, capsys):
    import mlbook
    monkeypatch.setattr(mlbook, "__version__", "0.0.1")
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("pip ran although mlbook is importable"))
    exec(compile(install_cell.cell_source(), "<install cell>", "exec"), {})
    assert capsys.readouterr().out == (
        f"Note: the mlbook installed here is version 0.0.1, not {VERSION}, "
        "the version this chapter was written for.\n")


def test_the_cell_does_nothing_where_mlbook_is_installed(monkeypatch, capsys):
    def no_pip(*args, **kwargs):
        raise AssertionError("the install cell ran pip although mlbook is importable")
    monkeypatch.setattr(subprocess, "run", no_pip)
    exec(compile(install_cell.cell_source(), "<install cell>", "exec"), {})
    assert capsys.readouterr().out == ""


def test_the_note_on_solutions_follows_the_install_cell():
    import nbformat
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Title"),
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_markdown_cell(
            "## Exercises\n\n:::{exercise} One\n:label: a\n\nQ\n:::\n\n:::{solution} a\n"
            ":class: dropdown\n\nS\n:::\n\n:::{exercise} Two\n:label: b\n\nQ\n:::\n")])
    source = install_cell.cell_source()
    assert install_cell.apply(nb, source)
    kinds = [(c.cell_type, c.metadata.get("tags")) for c in nb.cells]
    assert kinds[:3] == [("markdown", None), ("code", ["remove-cell"]), ("markdown", ["remove-cell"])]
    assert nb.cells[1].source == source
    assert nb.cells[2].source.startswith(install_cell.NOTE_MARKER)
    assert "This chapter has 2 exercises, in its section" in nb.cells[2].source
    assert not install_cell.apply(nb, source), "a second run changed the notebook again"
    # a notebook without solutions gets no note, and loses a stale one
    nb.cells[-1].source = "## Exercises\n\n:::{exercise} One\n:label: a\n\nQ\n:::\n"
    assert install_cell.apply(nb, source)
    assert not any(install_cell.is_note_cell(c) for c in nb.cells)


def test_every_notebook_is_as_the_tool_writes_it(capsys):
    # the install cell and the solutions note of every chapter and assignment
    # (fails until `tools/install_cell.py` has been run after a change of either)
    assert install_cell.main(["--check"]) == 0, capsys.readouterr().out


def _requirement_names(reqs) -> dict:
    return {re.split(r"[<>=!~ \[]", r.strip(), maxsplit=1)[0].lower().replace("_", "-"): r.replace(" ", "")
            for r in reqs}


def test_make_lab_and_binder_install_the_lab_extra_alone():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    lab = _requirement_names(extras["lab"])
    assert {"jupyterlab", "jupyterlab-myst", "scikit-learn"} <= set(lab)
    heavy = {"torch", "otter-grader", "playwright", "scipy", "pytest", "jupyter-book"}
    assert not heavy & set(lab), f"the lab extra pulls in the test or book stack: {heavy & set(lab)}"
    binder = [r.strip() for r in (ROOT / "binder" / "requirements.txt").read_text().splitlines()
              if r.strip() and not r.lstrip().startswith("#")]
    assert _requirement_names(r for r in binder if r != "-e .") == lab, (
        "binder/requirements.txt and the lab extra of pyproject.toml list different packages")
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^\$\(VENV\)/\.lab-installed:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert recipe and 'install -e ".[lab]"' in recipe.group(1)
    assert re.search(r"^lab: \$\(VENV\)/\.lab-installed\s*$", makefile, re.M)
