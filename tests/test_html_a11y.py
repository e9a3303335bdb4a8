"""The accessibility steps of the HTML build (_ext/lang_zh.py, _ext/unique_ids.py,
_ext/a11y_fixes.py) and the link and alt-text checks of tools/check_book.py.

The doctree tests need Docutils, and the tests of a small book built here need
Sphinx, myst-parser, sphinx-proof and sphinx-exercise (all from the extra [book]);
without them they skip, saying so. `make check-html` runs this file with the
book's extra installed.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check_book = _load("check_book", ROOT / "tools" / "check_book.py")
a11y_fixes = _load("a11y_fixes", ROOT / "_ext" / "a11y_fixes.py")


# ---------------------------------------------------------------------------
# Chinese runs

def test_chinese_runs_are_cut_out_of_the_text_and_nothing_else():
    docutils = pytest.importorskip("docutils", reason="the extra [book] brings Docutils")
    del docutils
    lang_zh = _load("lang_zh", ROOT / "_ext" / "lang_zh.py")
    text = "Load the watermelon data (西瓜数据集 3.0) where 好瓜 = 是, （信息增益）and C4.5."
    pieces = lang_zh.split_runs(text)
    assert "".join(p for p, _ in pieces) == text
    assert [p for p, zh in pieces if zh] == ["西瓜数据集", "好瓜", "是", "（信息增益）"]
    assert lang_zh.split_runs("no Chinese here, only ASCII and a full-width comma，") == \
        [("no Chinese here, only ASCII and a full-width comma，", False)]


def test_chinese_is_marked_in_prose_but_not_in_math_or_code():
    pytest.importorskip("docutils", reason="the extra [book] brings Docutils")
    from docutils import nodes

    lang_zh = _load("lang_zh", ROOT / "_ext" / "lang_zh.py")
    para = nodes.paragraph("", "", nodes.Text("决策树 (decision tree), "),
                           nodes.literal("代码", "代码"), nodes.math("x_{好}", "x_{好}"))
    block = nodes.literal_block("print('好瓜')", "print('好瓜')")
    doc = nodes.section("", para, block)
    assert lang_zh.mark_chinese(doc) == 1
    spans = [n for n in doc.findall(nodes.inline) if "language-zh" in n["classes"]]
    assert [s.astext() for s in spans] == ["决策树"]
    assert doc.astext().replace("\n", "") == "决策树 (decision tree), 代码x_{好}print('好瓜')"
    assert lang_zh.mark_chinese(doc) == 0   # a second pass marks nothing twice


# ---------------------------------------------------------------------------
# unique ids

def test_the_repeated_ids_of_proofs_exercises_and_solutions_become_unique():
    pytest.importorskip("docutils", reason="the extra [book] brings Docutils")
    from docutils import nodes

    unique_ids = _load("unique_ids", ROOT / "_ext" / "unique_ids.py")

    def box(label, body_id):
        return nodes.container("", nodes.section("", nodes.paragraph("", "x"), ids=[body_id]),
                               ids=[label] if label else [])

    doc = nodes.section("", box("thm-a", "proof-content"), box("thm-b", "proof-content"),
                        box(None, "proof-content"), box("ex-1", "exercise-content"),
                        box("sol-1", "solution-content"), box("sol-2", "solution-content"),
                        nodes.admonition("", ids=["proof"]), nodes.admonition("", ids=["proof"]),
                        nodes.paragraph("", "", ids=["thm-a-content"]),   # a name already taken
                        nodes.reference("", "see", refid="proof"))
    # the taken name: the box thm-a's body gets a suffix instead
    unique_ids.make_ids_unique(doc)
    ids = [i for n in doc.findall(nodes.Element) for i in n.get("ids", [])]
    assert len(ids) == len(set(ids)), Counter(ids).most_common(3)
    assert {"thm-a-content-2", "thm-b-content", "proof-content-1", "ex-1-content",
            "sol-1-content", "sol-2-content", "proof-1", "proof-2"} <= set(ids)
    assert not {"proof-content", "solution-content", "exercise-content", "proof"} & set(ids)
    assert next(doc.findall(nodes.reference))["refid"] == "proof-1"


# ---------------------------------------------------------------------------
# the HTML fixes

def test_bibliography_entries_become_list_items_and_empty_corners_plain_cells():
    body = ('<div role="list" class="citation-list">\n'
            '<div class="citation" id="id48" role="doc-biblioentry">\n<span>x</span></div>\n'
            '<table><thead><tr class="row-odd"><th class="head"><p></p></th>\n'
            '<th class="head"><p>predicted positive</p></th>\n'
            '<th class="head"></th></tr></thead></table>\n'
            '<details class="admonition hide above-input">\n<summary aria-label="Toggle hidden content">\n'
            '<p class="collapsed admonition-title">Show code cell content</p>')
    fixed = a11y_fixes.fix_body(body)
    assert 'role="doc-biblioentry"' not in fixed
    assert '<div class="citation" id="id48" role="listitem">' in fixed
    assert fixed.count('<td class="head"></td>') == 2
    assert '<th class="head"><p>predicted positive</p></th>' in fixed
    assert "<summary>\n<p" in fixed and "Toggle hidden content" not in fixed


def test_the_theme_templates_overridden_keep_their_names_and_drop_the_mismatch():
    search = (ROOT / "_ext" / "templates" / "search-button-field.html").read_text(encoding="utf-8")
    switch = (ROOT / "_ext" / "templates" / "theme-switcher.html").read_text(encoding="utf-8")
    assert "search-button__button" in search and "aria-label" not in search.split("#}")[-1]
    assert switch.split("#}")[-1].count('aria-hidden="true"') == 3
    assert not re.search(r"\stitle=", switch.split("#}")[-1])   # Font Awesome makes it an SVG <title>


# ---------------------------------------------------------------------------
# tools/check_book.py: links and fragments, alt texts

def _site(tmp_path: Path, target_html: str, link: str, alt: str = "A scatter plot") -> Path:
    html = tmp_path / "html"
    (html / "book").mkdir(parents=True)
    (html / "book" / "a.html").write_text(
        f'<article><p><a href="{link}">there</a> <img src="../_images/x.png" alt="{alt}"></p>'
        '<a href="https://example.org/#nowhere">outside</a></article>', encoding="utf-8")
    (html / "book" / "b.html").write_text(target_html, encoding="utf-8")
    return html


def test_a_link_to_an_existing_page_and_id_passes(tmp_path):
    html = _site(tmp_path, '<h2 id="sec-one">One</h2>', "b.html#sec-one")
    assert check_book.check_links(html) == []


@pytest.mark.parametrize("link, what", [("b.html#sec-two", "#sec-two"), ("c.html", "c.html"),
                                        ("#missing", "#missing")])
def test_a_broken_link_or_fragment_fails(tmp_path, link, what):
    html = _site(tmp_path, '<h2 id="sec-one">One</h2>', link)
    problems = check_book.check_links(html)
    assert len(problems) == 1 and what in problems[0], problems


@pytest.mark.parametrize("alt, is_path", [
    ("../../_build/jupyter_execute/book/trees/abc123.png", True),
    ("_images/figure.png", True), ("figure.svg", True),
    ("Training and test error against the depth of the tree", False),
    ("The ROC curve (TPR against FPR)", False), ("", False)])
def test_an_alt_text_that_is_a_file_path_is_found(tmp_path, alt, is_path):
    html = _site(tmp_path, "<p>b</p>", "b.html", alt=alt)
    assert bool(check_book.check_alt_paths(html)) == is_path


def test_an_image_whose_alt_text_is_a_path_fails_the_book(tmp_path, capsys):
    html = _site(tmp_path, "<p>b</p>", "b.html", alt="../_build/jupyter_execute/x.png")
    assert check_book.main(html) == 1
    assert "an image's alt text is a file path: '../_build/jupyter_execute/x.png'" in capsys.readouterr().out


# ---------------------------------------------------------------------------
# a small book built with the three extensions, as the book is built

SMALL_BOOK = {
    "conf.py": """
import sys
sys.path.insert(0, {ext!r})
extensions = ["myst_parser", "sphinx_proof", "sphinx_exercise", "lang_zh", "unique_ids", "a11y_fixes"]
myst_enable_extensions = ["colon_fence", "dollarmath"]
exclude_patterns = ["_build"]
""",
    "two.md": """# 第二 The second page

Text.
""",
    "index.md": """# 决策树 (decision trees)

```{toctree}
two
```

The information gain (信息增益) of a split, $x_{好}$, and `代码`.

:::{prf:theorem} First
:label: thm-first
One 一.
:::

:::{prf:theorem} Second
:label: thm-second
Two.
:::

:::{prf:proof}
Trivial.
:::

:::{prf:proof}
Also trivial.
:::

:::{exercise}
:label: ex-one
Do it.
:::

:::{solution} ex-one
:label: sol-one
Done.
:::

:::{exercise}
:label: ex-two
Again.
:::

:::{solution} ex-two
:label: sol-two
Done again.
:::
""",
}


@pytest.fixture(scope="module")
def small_book(tmp_path_factory):
    for module in ("sphinx", "myst_parser", "sphinx_proof", "sphinx_exercise"):
        pytest.importorskip(module, reason="the extra [book] brings the book's Sphinx extensions")
    from sphinx.application import Sphinx

    src = tmp_path_factory.mktemp("small_book")
    for name, text in SMALL_BOOK.items():
        (src / name).write_text(text.format(ext=str(ROOT / "_ext")) if name == "conf.py" else text,
                                encoding="utf-8")
    out = src / "_build" / "html"
    path = list(sys.path)   # conf.py puts _ext/ on it, for this build only
    try:
        app = Sphinx(str(src), str(src), str(out), str(src / "_build" / "doctrees"), "html",
                     status=None, warning=None, freshenv=True)
        app.build()
    finally:
        sys.path[:] = path
    return (out / "index.html").read_text(encoding="utf-8")


def test_a_built_page_has_unique_ids(small_book):
    ids = re.findall(r'\sid="([^"]+)"', small_book)
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    for new in ("thm-first-content", "thm-second-content", "proof-1", "proof-2",
                "ex-one-content", "sol-one-content", "ex-two-content", "sol-two-content"):
        assert f'id="{new}"' in small_book, new


def test_the_navigation_marks_chinese_in_titles(small_book):
    """The "next" link of index.html is drawn from the title the build keeps apart
    from the page (env.titles), not from the page's own doctree."""
    nav = small_book[small_book.find('class="sphinxsidebar"'):]
    assert re.search(r'<a href="two.html"[^>]*><span lang="zh">第二</span> The second page</a>', nav), \
        re.findall(r'<a href="two.html"[^>]*>.*?</a>', small_book)
    assert "<title>决策树 (decision trees)" in small_book   # a <title> holds no element


def test_a_built_page_marks_chinese_in_prose_only(small_book):
    article = small_book[small_book.find('<h1>'):]
    assert '<h1><span lang="zh">决策树</span> (decision trees)' in article
    assert '(<span lang="zh">信息增益</span>)' in article
    assert '<span lang="zh">一</span>' in article
    # the formula and the inline code keep their Chinese as it is
    assert r"\(x_{好}\)" in article
    assert re.search(r'<code[^>]*><span class="pre">代码</span></code>', article)
    assert 'lang="zh"' not in re.sub(r"<span lang=\"zh\">[^<]*</span>", "", article)


@pytest.mark.parametrize("body, found", [
    ("<p>The archive <code>mlbook-{{ version }}.zip</code> holds it.</p>", True),
    ("<p>Version {{version}} of the book.</p>", True),
    ("<p>Version 0.1.0 of the book.</p>", False),
    ('<div class="highlight"><pre>f"{{ x }}"</pre></div>', False)])
def test_an_unexpanded_substitution_is_found(tmp_path, body, found):
    html = _site(tmp_path, body, "b.html")
    assert bool(check_book.check_substitutions(html)) == found


def test_a_chapter_page_without_its_downloads_is_found():
    line = ('<p class="mlbook-downloads"><a href="../../downloads/book/x/ch.ipynb">n</a>'
            '<a href="../../downloads/book/x/ch.py">s</a></p>')
    menu = ('<a href="../../downloads/book/x/ch.ipynb" class="download-notebook-button">'
            '<a href="../../downloads/book/x/ch.py"><a class="download-book-pdf-button">')
    assert check_book._check_downloads("book/x/ch", line + menu) == []
    problems = "\n".join(check_book._check_downloads("book/x/ch", menu))
    assert "no download line" in problems and "1 link(s) to downloads/book/x/ch.ipynb" in problems
    assert "does not offer the book's PDF" in check_book._check_downloads("book/x/ch", line)[-1]
