"""tools/check_math.py: a formula may use only commands MathJax knows by itself."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import check_math  # noqa: E402

# A stand-in for MathJax's bundle: minified macro tables, keyed by command name.
BUNDLE = 'var a={alpha:"\\u03b1",boldsymbol:["Boldsymbol"],top:"\\u22a4",newcommand:"NewCommand",T:1,x:2},b={"\\\\lVert":["\\u2016"]};'


def _book(tmp_path: Path, formula: str) -> Path:
    (tmp_path / "_static" / "mathjax").mkdir(parents=True)
    (tmp_path / "_static" / "mathjax" / "tex-chtml.js").write_text(BUNDLE, encoding="utf-8")
    (tmp_path / "page.html").write_text(
        f'<p>text \\vx</p><span class="math notranslate nohighlight">{formula}</span>',
        encoding="utf-8")
    return tmp_path


def test_reads_command_names_from_the_bundle(tmp_path):
    book = _book(tmp_path, "")
    assert check_math.mathjax_commands(book / check_math.BUNDLE) == {
        "alpha", "boldsymbol", "top", "newcommand", "lVert"}


def test_known_commands_pass(tmp_path):
    assert check_math.check(_book(tmp_path, r"\(\alpha \boldsymbol{x} \lVert\)")) == []


def test_a_macro_of_the_html_build_fails(tmp_path):
    problems = check_math.check(_book(tmp_path, r"\(\vx^\top \alpha\)"))
    assert len(problems) == 1 and problems[0].endswith(r"could supply: \vx")


def test_one_letter_keys_of_the_bundle_are_not_commands(tmp_path):
    # minified JavaScript is full of one-letter keys ({T:1,x:2}); a \T transpose
    # macro would still show red in Jupyter
    problems = check_math.check(_book(tmp_path, r"\(X^\T \x\)"))
    assert len(problems) == 1 and problems[0].endswith(r"could supply: \T, \x")


def test_a_line_break_is_not_a_command(tmp_path):
    # "a \\ b" in a matrix: the backslash pair ends a row; it is not \b
    assert check_math.check(_book(tmp_path, r"\(\alpha \\b\)")) == []


def test_a_command_defined_on_the_page_passes(tmp_path):
    assert check_math.check(_book(tmp_path, r"\(\newcommand{\vx}{\boldsymbol{x}} \vx\)")) == []


def test_html_entities_are_read_as_text(tmp_path):
    # Sphinx escapes < and & inside formulas; the TeX is what MathJax reads
    assert check_math.check(_book(tmp_path, r"\(a &lt; \alpha &amp; \beta\)")) == [
        r"page.html: TeX commands that only a macro definition outside the notebook could "
        r"supply: \beta"]


def test_missing_bundle_is_a_problem_not_a_pass(tmp_path):
    (tmp_path / "page.html").write_text("<p>x</p>", encoding="utf-8")
    assert "bundle is missing" in check_math.check(tmp_path)[0]
