"""The release archive's parts (tools/make_dist.py, _ext/downloads.py), without building the book.

`make dist` itself checks the archive it writes (tools/make_dist.py: ``check``); these
tests check that those checks and the conversions they rest on do what they say.
"""

import json
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))
sys.path.insert(0, str(ROOT / "tools"))

import jupytext  # noqa: E402
import downloads  # noqa: E402
import make_dist  # noqa: E402

CHAPTERS = sorted(p for p in (ROOT / "book").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


@pytest.mark.parametrize("nb", CHAPTERS, ids=lambda p: p.stem)
def test_a_chapters_script_is_python_holding_every_code_cell(nb):
    script = downloads.notebook_to_script(nb.read_text(encoding="utf-8"))
    compile(script, f"{nb.stem}.py", "exec")          # plain Python: no IPython syntax left
    cells = [c for c in nbformat.read(nb, 4).cells if c.cell_type == "code"]
    back = [c for c in jupytext.reads(script, fmt="py:percent").cells if c.cell_type == "code"]
    # (a cell's trailing newline is not kept by the round trip; it is no code)
    assert [c.source.rstrip("\n") for c in back] == [c.source.rstrip("\n") for c in cells]
    # and the prose is there, as comments
    first_md = next(c for c in nbformat.read(nb, 4).cells if c.cell_type == "markdown")
    assert "# " + first_md.source.splitlines()[0] in script


# The theme's download menu of a page whose source is a notebook, as sphinx-book-theme
# 1.x builds it: the source file and "print to PDF" (its ``download-notebook-button``
# appears only for notebooks paired with a text file, which the chapters are not).
THEME_MENU = [
    {"type": "link", "url": "../_sources/book/x.ipynb", "text": ".ipynb", "label": "download-source-button"},
    {"type": "javascript", "javascript": "window.print()", "text": ".pdf", "label": "download-pdf-button"},
]


def _pathto(target, _resource=1):
    return "../../" + target


def test_a_chapters_download_menu_offers_notebook_script_print_and_book_pdf():
    menu = downloads.download_menu([dict(b) for b in THEME_MENU], _pathto, "book/trees/x", True, "PDF-URL")
    assert [(b["text"], b.get("url")) for b in menu] == [
        (".ipynb", "../../downloads/book/trees/x.ipynb"), (".py", "../../downloads/book/trees/x.py"),
        ("print", None), ("book.pdf", "PDF-URL")]
    # the same if the theme ever adds its notebook button too: one .ipynb, ours
    both = [{"type": "link", "url": "u", "text": ".ipynb", "label": "download-notebook-button"}, *THEME_MENU]
    assert [b["text"] for b in downloads.download_menu(both, _pathto, "book/trees/x", True, "P")] == \
        [".ipynb", ".py", "print", "book.pdf"]


def test_another_pages_download_menu_keeps_its_source_and_offers_the_book_pdf():
    md = [{"type": "link", "url": "../_sources/book/glossary.md", "text": ".md",
           "label": "download-source-button"}, THEME_MENU[1]]
    menu = downloads.download_menu([dict(b) for b in md], _pathto, "book/glossary", False, "PDF-URL")
    assert [b["text"] for b in menu] == [".md", "print", "book.pdf"]


def test_newest_source_sees_a_changed_file(tmp_path, monkeypatch):
    for name in make_dist.SOURCES:
        if "." in Path(name).name:
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text("x")
        else:
            (tmp_path / name).mkdir(parents=True, exist_ok=True)
    before = make_dist.newest_source(tmp_path)
    late = tmp_path / "book" / "part" / "chapter.ipynb"
    late.parent.mkdir()
    late.write_text("{}")
    import os
    os.utime(late, (before + 100, before + 100))
    assert make_dist.newest_source(tmp_path) == before + 100


def _fake_release(tmp_path: Path) -> Path:
    """A staged release that is right in every part make_dist.check reads but the HTML."""
    v = make_dist.version(ROOT)
    top = tmp_path / f"mlbook-{v}"
    pdf = downloads.pdf_name(ROOT)
    (top / "html" / downloads.FOLDER).mkdir(parents=True)
    (top / pdf).write_bytes(b"%PDF-1.5 stand-in")
    (top / "html" / downloads.FOLDER / pdf).write_bytes(b"%PDF-1.5 stand-in")
    for nb in CHAPTERS:
        rel = nb.relative_to(ROOT / "book")
        (top / "notebooks" / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(nb, top / "notebooks" / rel)
        (top / "scripts" / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / "scripts" / rel).with_suffix(".py").write_text(
            downloads.notebook_to_script(nb.read_text(encoding="utf-8")), encoding="utf-8")
    _packages(top / "python", v)
    (top / "html" / "_static" / "wheels").mkdir(parents=True)
    shutil.copyfile(top / "python" / f"mlbook-{v}-py3-none-any.whl",
                    top / "html" / "_static" / "wheels" / f"mlbook-{v}-py3-none-any.whl")
    return top


def _packages(folder: Path, v: str, version_in_wheel: str | None = None, licence: bool = True) -> None:
    """A stand-in wheel and sdist with what make_dist.check_packages reads."""
    import io
    import tarfile
    import zipfile

    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(folder / f"mlbook-{v}-py3-none-any.whl", "w") as z:
        z.writestr("mlbook/__init__.py", f'__version__ = "{version_in_wheel or v}"\n')
        if licence:
            z.writestr(f"mlbook-{v}.dist-info/licenses/LICENSE", "MIT License\n")
    with tarfile.open(folder / f"mlbook-{v}.tar.gz", "w:gz") as t:
        for name in ("PKG-INFO", "mlbook/__init__.py", "LICENSE"):
            data = b"x\n"
            info = tarfile.TarInfo(f"mlbook-{v}/{name}")
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))


def _without_html(problems):
    return [p for p in problems if not p.startswith("tools/check_book.py")]


def test_check_passes_a_right_release_and_names_each_fault(tmp_path):
    top = _fake_release(tmp_path)
    assert _without_html(make_dist.check(top)) == []
    # the HTML's PDF is another file
    (top / "html" / downloads.FOLDER / downloads.pdf_name(ROOT)).write_bytes(b"%PDF other")
    # a chapter's script is missing, another one's is stale
    scripts = sorted((top / "scripts").rglob("*.py"))
    scripts[0].unlink()
    scripts[1].write_text("print('old')\n", encoding="utf-8")
    # a notebook was edited after the build
    nb = sorted((top / "notebooks").rglob("*.ipynb"))[2]
    data = json.loads(nb.read_text(encoding="utf-8"))
    data["cells"].append({"cell_type": "markdown", "id": "late", "metadata": {}, "source": "late"})
    nb.write_text(json.dumps(data), encoding="utf-8")
    # the wheel is missing
    next((top / "python").glob("*.whl")).unlink()
    (top / "python" / "stray.txt").write_text("")
    problems = "\n".join(_without_html(make_dist.check(top)))
    assert "the PDF the HTML links to is not the archive's PDF" in problems
    assert f"no script for {scripts[0].stem}.ipynb" in problems
    assert f"{scripts[1].relative_to(top)} is not the notebook's script" in problems
    assert "differs from the chapter" in problems
    assert "python/ holds" in problems


def test_check_runs_the_link_checker_on_the_archives_html(tmp_path):
    top = _fake_release(tmp_path)
    # an HTML folder with no page: tools/check_book.py reports the chapters as not built
    problems = make_dist.check(top)
    assert any(p.startswith("tools/check_book.py on the archive's HTML") and "was not built" in p
               for p in problems)


def test_check_packages_names_a_wrong_wheel_or_sdist(tmp_path):
    v = make_dist.version(ROOT)
    _packages(tmp_path / "ok", v)
    assert make_dist.check_packages(tmp_path / "ok", v) == []
    _packages(tmp_path / "old", v, version_in_wheel="0.0.1", licence=False)
    problems = "\n".join(make_dist.check_packages(tmp_path / "old", v))
    assert f"not version {v}" in problems and "no LICENSE" in problems
    (tmp_path / "old" / f"mlbook-{v}.tar.gz").write_bytes(b"not a tar")
    assert "not a gzipped tar archive" in make_dist.check_packages(tmp_path / "old", v)[-1]


def test_the_archive_is_the_same_bytes_for_the_same_files(tmp_path):
    top = tmp_path / "mlbook-9.9.9"
    (top / "a").mkdir(parents=True)
    (top / "a" / "x.txt").write_text("one")
    (top / "y.txt").write_text("two")
    when = (2026, 11, 26, 8, 0, 0)
    first, second = tmp_path / "1.zip", tmp_path / "2.zip"
    assert make_dist.write_zip(top, first, when) == 2
    import os
    os.utime(top / "y.txt", (0, 0))          # another file time: the archive does not change
    make_dist.write_zip(top, second, when)
    assert first.read_bytes() == second.read_bytes()
    import zipfile
    with zipfile.ZipFile(first) as z:
        assert z.namelist() == ["mlbook-9.9.9/a/x.txt", "mlbook-9.9.9/y.txt"]
        assert z.getinfo("mlbook-9.9.9/y.txt").date_time == when
