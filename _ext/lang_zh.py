"""Mark Chinese in the book's pages as Chinese: ``<span lang="zh">…</span>``.

The pages are English (``<html lang="en">``), and a screen reader reads every
word with the rules of the page's language unless an element says otherwise;
Chinese terms in the prose (决策树, 西瓜数据集 3.0) would be spelled out or
skipped. This extension wraps each run of Chinese characters in running text
in an inline node with the class ``language-zh``, which Docutils' HTML writers
turn into the attribute ``lang="zh"`` (and drop as a class).

A run is a maximal stretch of Han characters and CJK punctuation that holds at
least one Han character ("好瓜", "西瓜数据集", "（信息增益）"); the Latin text,
digits and spaces around it stay outside. Text inside formulas, code (inline
and blocks, cell outputs), raw HTML and comments is left alone, and so are
attributes (they are not text nodes). The titles and tables of contents that
the navigation is drawn from are marked the same way. Only HTML builders are
touched: the PDF sets Chinese with xeCJK. The page's ``<title>`` cannot hold an
element and stays as it is.
"""

from __future__ import annotations

import re

from docutils import nodes

# Han ideographs: CJK Unified Ideographs and Extension A, Compatibility
# Ideographs, Extensions B-F and the Compatibility Supplement.
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
# CJK punctuation and full-width forms (、。「」（）：，), and the middle dot
# of transliterated names (·) only between Han characters, via the run itself.
CJK_PUNCT = "\u3000-\u303f\uff00-\uffef"
RUN = re.compile(f"[{CJK_PUNCT}]*[{HAN}][{HAN}{CJK_PUNCT}\u00b7]*")
# a trailing middle dot belongs to the text after it
_TRAILING_DOT = re.compile("\u00b7+$")

# Text under these nodes is not running text.
SKIP = (nodes.FixedTextElement,   # literal_block, math_block, doctest, line blocks of code
        nodes.literal, nodes.math, nodes.raw, nodes.comment, nodes.Invisible,
        nodes.system_message)
LANG_CLASS = "language-zh"


def split_runs(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into pieces, each (piece, is_chinese), in order; the pieces join to ``text``."""
    out, at = [], 0
    for m in RUN.finditer(text):
        run = _TRAILING_DOT.sub("", m.group(0))
        if m.start() > at:
            out.append((text[at:m.start()], False))
        out.append((run, True))
        at = m.start() + len(run)
    if at < len(text):
        out.append((text[at:], False))
    return out


def _skipped(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, SKIP):
            return True
        if isinstance(parent, nodes.inline) and LANG_CLASS in parent.get("classes", []):
            return True   # already marked
        parent = parent.parent
    return False


def mark_chinese(doctree: nodes.Node) -> int:
    """Wrap every Chinese run of running text in ``doctree``; return how many were wrapped."""
    count = 0
    for text in list(doctree.findall(nodes.Text)):
        if not RUN.search(text) or _skipped(text):
            continue
        pieces = split_runs(str(text))
        new = [nodes.inline(piece, piece, classes=[LANG_CLASS]) if chinese else nodes.Text(piece)
               for piece, chinese in pieces]
        count += sum(chinese for _, chinese in pieces)
        text.parent.replace(text, new)
    return count


def _on_doctree_resolved(app, doctree, docname) -> None:
    if app.builder.format == "html":
        mark_chinese(doctree)


def _on_env_updated(app, env) -> None:
    """The titles and tables of contents the theme draws its navigation from (the
    sidebar, "previous"/"next", the page's contents) are kept apart from the pages'
    doctrees: mark them too. Marking twice marks nothing new."""
    if app.builder.format != "html":
        return
    for store in (env.titles, env.longtitles, env.tocs):
        for node in store.values():
            mark_chinese(node)


def setup(app):
    app.connect("doctree-resolved", _on_doctree_resolved)
    app.connect("env-updated", _on_env_updated)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
