"""The release a reader downloads: ``_build/dist/mlbook-<version>.zip`` (``make dist``).

    .venv/bin/python tools/make_dist.py

The archive unpacks into one folder, ``mlbook-<version>/``:

- ``README.txt``: what is where;
- ``html/``: the HTML book, to read offline (open ``html/index.html``); its
  ``downloads/`` folder holds what every chapter page links to;
- ``mlbook-<version>.pdf``: the book as a PDF;
- ``notebooks/<part>/<chapter>.ipynb`` and ``scripts/<part>/<chapter>.py``: every
  chapter as a notebook and as a plain script (jupytext's percent format);
- ``python/``: the wheel and the source archive of ``mlbook``, both passed by
  ``twine check``;
- ``LICENSE``, ``LICENSE-CC-BY-SA-4.0``, ``CITATION.cff``, ``CHANGELOG.md``.

Beside the archive it writes the PDF alone (``mlbook-<version>.pdf``, which a site built
without ``MLBOOK_PDF`` links to on the release page) and ``SHA256SUMS``. The archive's
entries carry the date of the last commit and come in name order, so the zip adds no
time of its own; the wheel, the sdist and the PDF inside it still carry their build times.

It reuses ``_build/latex/book.pdf`` and ``_build/html`` when they are newer than every
file they are built from and the HTML was built with that PDF (``MLBOOK_PDF``, see
``_ext/downloads.py``); otherwise it runs ``make pdf`` and ``make book
MLBOOK_PDF=_build/latex/book.pdf`` first. Then it checks the archive: every chapter
in both forms, the PDF the HTML links to equal to the top-level one, every link of the
HTML resolved (``tools/check_book.py`` on the unpacked copy), the wheel's version and
licence, the site's wheel the same file, ``twine check``, and one chapter's script run
to its end (``SCRIPT_RUN``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))
from downloads import FOLDER, notebook_to_script, pdf_name, version  # noqa: E402
from site_wheel import copy_sources  # noqa: E402

BUILD = ROOT / "_build"
PDF = BUILD / "latex" / "book.pdf"
HTML = BUILD / "html"
DIST = BUILD / "dist"
# what the HTML book and the PDF are built from
SOURCES = ("book", "mlbook", "_ext", "_static", "_config.yml", "_toc.yml", "pyproject.toml",
           "CHANGELOG.md", "tools/latex", "tools/build_pdf.py")
LEGAL = ("LICENSE", "LICENSE-CC-BY-SA-4.0", "CITATION.cff", "CHANGELOG.md")


class DistError(RuntimeError):
    pass


def newest_source(root: Path = ROOT) -> float:
    """The newest modification time among the files the book is built from."""
    newest = 0.0
    for name in SOURCES:
        path = root / name
        files = [path] if path.is_file() else (p for p in path.rglob("*") if p.is_file())
        for f in files:
            if "__pycache__" in f.parts or ".ipynb_checkpoints" in f.parts:
                continue
            newest = max(newest, f.stat().st_mtime)
    return newest


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _make(*args: str, env: dict | None = None) -> None:
    print(f"make_dist: make {' '.join(args)}", flush=True)
    done = subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT,
                          env={**os.environ, **(env or {})})
    if done.returncode:
        raise DistError(f"make {' '.join(args)} failed (exit {done.returncode})")


def ensure_builds() -> None:
    """Build the PDF and the HTML book with it, unless both are up to date."""
    newest = newest_source()
    if not PDF.is_file() or PDF.stat().st_mtime < newest:
        _make("pdf")
    bundled = HTML / FOLDER / pdf_name(ROOT)
    index = HTML / "index.html"
    if (not index.is_file() or index.stat().st_mtime < newest or not bundled.is_file()
            or _digest(bundled) != _digest(PDF)):
        _make("book", env={"MLBOOK_PDF": str(PDF)})


def chapter_notebooks(html: Path = HTML) -> list[Path]:
    """The chapter notebooks the HTML build put into its downloads folder."""
    return sorted((html / FOLDER).rglob("*.ipynb"))


def build_python(out: Path, python: str = sys.executable) -> list[Path]:
    """The wheel and sdist of mlbook in ``out``, built offline from a copy of the sources."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="mlbook-dist-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        copy_sources(ROOT, src)          # what the site's wheel is built from, too
        done = subprocess.run([python, "-m", "build", "--no-isolation", "--outdir", str(out), str(src)],
                              capture_output=True, text=True)
        if done.returncode:
            raise DistError(f"python -m build failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    v = version(ROOT)
    built = sorted(out.iterdir())
    expected = {f"mlbook-{v}-py3-none-any.whl", f"mlbook-{v}.tar.gz"}
    if {p.name for p in built} != expected:
        raise DistError(f"expected {sorted(expected)}, build wrote {[p.name for p in built]}")
    done = subprocess.run([python, "-m", "twine", "check", "--strict", *map(str, built)],
                          capture_output=True, text=True)
    print(done.stdout.strip())
    if done.returncode:
        raise DistError(f"twine check failed:\n{done.stdout}{done.stderr}")
    return built


README = """\
Classical Machine Learning, Derived and Implemented -- version {version}

  html/index.html        the book, to read in a browser, offline
  {pdf:<22} the book as a PDF
  notebooks/             every chapter as a Jupyter notebook (.ipynb); each installs
                         mlbook in its first cell, so one file is enough on Colab
  scripts/               every chapter as a plain Python script (.py), the prose as
                         comments; run it where mlbook is installed
  python/                mlbook {version}: the wheel and the source archive
  CHANGELOG.md           what each version changed
  CITATION.cff           how to cite the book
  LICENSE                the MIT licence of the code
  LICENSE-CC-BY-SA-4.0   the CC BY-SA 4.0 licence of the text and the figures

To run the notebooks or the scripts offline, install mlbook first, into the Python
that will run them:

  pip install python/{wheel}

(numpy and matplotlib come from your package index). The first cell of each chapter
then only checks the version; without mlbook it would try the book's web site and
the repository, which need the internet.

The text and the figures are licensed under CC BY-SA 4.0; the code, mlbook and the
code cells of the chapters, under the MIT licence.
"""

def stage(folder: Path, python: str = sys.executable) -> Path:
    """Lay the release out in ``folder/mlbook-<version>/`` and return that path."""
    v = version(ROOT)
    top = folder / f"mlbook-{v}"
    shutil.copytree(HTML, top / "html", ignore=shutil.ignore_patterns(".buildinfo", ".doctrees"))
    shutil.copyfile(PDF, top / pdf_name(ROOT))
    for nb in chapter_notebooks(top / "html"):
        rel = nb.relative_to(top / "html" / FOLDER / "book")
        for kind, suffix in (("notebooks", ".ipynb"), ("scripts", ".py")):
            target = (top / kind / rel).with_suffix(suffix)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(nb.with_suffix(suffix), target)
    built = build_python(top / "python", python)
    # the site's copy of the wheel (the notebooks' install cell fetches it) is this one,
    # not the one the HTML build made from the same sources at another time
    wheel_path = next(p for p in built if p.suffix == ".whl")
    site_wheels = top / "html" / "_static" / "wheels"
    for old in site_wheels.glob("mlbook-*.whl"):
        old.unlink()
    shutil.copyfile(wheel_path, site_wheels / wheel_path.name)
    for name in LEGAL:
        shutil.copyfile(ROOT / name, top / name)
    wheel = next(p.name for p in built if p.suffix == ".whl")
    (top / "README.txt").write_text(README.format(version=v, pdf=pdf_name(ROOT), wheel=wheel),
                                    encoding="utf-8")
    return top


def check(top: Path) -> list[str]:
    """What is wrong with the staged release (an empty list if nothing)."""
    problems = []
    v = version(ROOT)
    pdf = top / pdf_name(ROOT)
    linked = top / "html" / FOLDER / pdf_name(ROOT)
    if not pdf.is_file() or not linked.is_file():
        problems.append(f"the PDF is missing ({pdf.name} at the top and in html/{FOLDER}/)")
    elif _digest(pdf) != _digest(linked):
        problems.append("the PDF the HTML links to is not the archive's PDF")
    notebooks = sorted((top / "notebooks").rglob("*.ipynb"))
    scripts = sorted((top / "scripts").rglob("*.py"))
    sources = sorted(p for p in (ROOT / "book").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    if [p.relative_to(top / "notebooks") for p in notebooks] != [p.relative_to(ROOT / "book") for p in sources]:
        problems.append(f"notebooks/ holds {len(notebooks)} chapters, book/ {len(sources)}")
    for nb in notebooks:
        if nb.read_bytes() != (ROOT / "book" / nb.relative_to(top / "notebooks")).read_bytes():
            problems.append(f"notebooks/{nb.relative_to(top / 'notebooks')} differs from the chapter")
        script = (top / "scripts" / nb.relative_to(top / "notebooks")).with_suffix(".py")
        if not script.is_file():
            problems.append(f"no script for {nb.name}")
        elif script.read_text(encoding="utf-8") != notebook_to_script(nb.read_text(encoding="utf-8")):
            problems.append(f"{script.relative_to(top)} is not the notebook's script")
        else:
            try:
                compile(script.read_text(encoding="utf-8"), str(script), "exec")
            except SyntaxError as err:
                problems.append(f"{script.relative_to(top)} is not valid Python: {err}")
    if len(scripts) != len(notebooks):
        problems.append(f"scripts/ holds {len(scripts)} files, notebooks/ {len(notebooks)}")
    names = sorted(p.name for p in (top / "python").iterdir())
    if names != sorted([f"mlbook-{v}-py3-none-any.whl", f"mlbook-{v}.tar.gz"]):
        problems.append(f"python/ holds {names}")
    else:
        problems += check_packages(top / "python", v)
        site = top / "html" / "_static" / "wheels" / f"mlbook-{v}-py3-none-any.whl"
        if not site.is_file() or _digest(site) != _digest(top / "python" / f"mlbook-{v}-py3-none-any.whl"):
            problems.append("the site's wheel (html/_static/wheels/) is not python/'s")
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "check_book.py"), str(top / "html")],
                          capture_output=True, text=True)
    if done.returncode:
        problems.append("tools/check_book.py on the archive's HTML:\n" + done.stdout[-3000:])
    return problems


def check_packages(folder: Path, v: str) -> list[str]:
    """The wheel holds the package of version ``v`` and its licence; the sdist its metadata."""
    import tarfile

    problems = []
    wheel = folder / f"mlbook-{v}-py3-none-any.whl"
    try:
        with zipfile.ZipFile(wheel) as z:
            names = set(z.namelist())
            init = z.read("mlbook/__init__.py").decode("utf-8") if "mlbook/__init__.py" in names else ""
    except zipfile.BadZipFile:
        return [f"{wheel.name} is not a zip archive"]
    if f'__version__ = "{v}"' not in init:
        problems.append(f"{wheel.name}: mlbook/__init__.py missing or not version {v}")
    if not any(n.startswith(f"mlbook-{v}.dist-info/") and n.endswith("LICENSE") for n in names):
        problems.append(f"{wheel.name}: no LICENSE in its dist-info")
    sdist = folder / f"mlbook-{v}.tar.gz"
    try:
        with tarfile.open(sdist) as t:
            members = set(t.getnames())
    except tarfile.TarError:
        return problems + [f"{sdist.name} is not a gzipped tar archive"]
    for member in (f"mlbook-{v}/PKG-INFO", f"mlbook-{v}/mlbook/__init__.py", f"mlbook-{v}/LICENSE"):
        if member not in members:
            problems.append(f"{sdist.name} lacks {member}")
    return problems


# the chapter script that make dist runs, to see that the scripts run as scripts
SCRIPT_RUN = "trees/decision_trees.py"


def run_a_script(top: Path, python: str = sys.executable) -> list[str]:
    """Run one chapter's script from the archive in an empty folder, figures off screen."""
    script = top / "scripts" / SCRIPT_RUN
    with tempfile.TemporaryDirectory(prefix="mlbook-script-") as tmp:
        done = subprocess.run([python, str(script)], cwd=tmp, capture_output=True, text=True,
                              env={**os.environ, "MPLBACKEND": "Agg"}, timeout=600)
    if done.returncode:
        return [f"scripts/{SCRIPT_RUN} failed (exit {done.returncode}):\n{done.stderr[-2000:]}"]
    return []


def write_zip(top: Path, archive: Path, when: tuple[int, ...]) -> int:
    """Zip ``top`` (its folder name included) with every entry dated ``when``, in name
    order, so that the same release gives the same bytes; return the number of files."""
    n = 0
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for path in sorted(top.rglob("*")):
            if not path.is_file():
                continue
            info = zipfile.ZipInfo(str(path.relative_to(top.parent)), date_time=when)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, path.read_bytes(), compresslevel=9)
            n += 1
    with zipfile.ZipFile(archive) as z:   # read back: every file there, none damaged
        if z.testzip() is not None or len(z.namelist()) != n:
            raise DistError(f"{archive.name}: the written archive does not read back whole")
    return n


def commit_time() -> tuple[int, ...]:
    """The date of the checkout's last commit (the release's date), else now."""
    import time

    done = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%ct"],
                          capture_output=True, text=True)
    stamp = int(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip() else int(time.time())
    return time.gmtime(stamp)[:6]


def main() -> int:
    try:
        ensure_builds()
        DIST.mkdir(parents=True, exist_ok=True)
        archive = DIST / f"mlbook-{version(ROOT)}.zip"
        with tempfile.TemporaryDirectory(prefix="mlbook-release-", dir=DIST) as tmp:
            top = stage(Path(tmp))
            problems = check(top) + run_a_script(top)
            if problems:
                raise DistError("the release is not right:\n  " + "\n  ".join(problems))
            if archive.exists():
                archive.unlink()
            n = write_zip(top, archive, commit_time())
        # the PDF on its own too, for the release page and the site's PDF links
        pdf = DIST / pdf_name(ROOT)
        shutil.copyfile(PDF, pdf)
        sums = "".join(f"{_digest(p)}  {p.name}\n" for p in (archive, pdf))
        (DIST / "SHA256SUMS").write_text(sums, encoding="utf-8")
    except DistError as err:
        print(f"make_dist: {err}", file=sys.stderr)
        return 1
    print(f"make_dist: wrote {archive.relative_to(ROOT)} ({n} files, "
          f"{archive.stat().st_size / 2**20:.1f} MB), {pdf.relative_to(ROOT)} and SHA256SUMS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
