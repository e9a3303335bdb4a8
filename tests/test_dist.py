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


def test_the_release_names_agree_with_the_version():
    v = make_dist.version(ROOT)
    assert downloads.pdf_name(ROOT) == f"mlbook-{v}.pdf"
    assert make_dist.README.format(version=v, pdf=downloads.pdf_name(ROOT), wheel="w.whl").count(v) >= 2


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
    (top / "python").mkdir()
    for name in (f"mlbook-{v}-py3-none-any.whl", f"mlbook-{v}.tar.gz"):
        (top / "python" / name).write_bytes(b"")
    return top


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
