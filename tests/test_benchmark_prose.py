"""The prose around a benchmark cell reads correctly whether or not the result is there.

A chapter's benchmark cell calls ``mlbook.utils.load_benchmark``, which returns
None and prints one line when the stored result (``book/benchmarks/*.json``) is
absent: on Colab, or wherever ``mlbook`` was installed from a wheel rather than
a clone. The paragraphs next to the cell must then not promise numbers that are
not there ("the numbers below are read from ...", "as the table shows").

What this test looks for, for every code cell of every chapter that calls
``load_benchmark(``:

1. The paragraph just before the cell (the last paragraph of the nearest
   markdown cell above it) names ``make bench``, the command that writes the
   result, and states the condition: a clause such as "when the result is
   present" (``CONDITION``).
2. In that paragraph and in the paragraph just after the cell (the first
   paragraph of the nearest markdown cell below it), every sentence that points
   at the cell's output (``POINTS_AT_OUTPUT``: "the numbers below", "the
   printed ratio", "as the table shows", "its depth is printed above", ...)
   carries such a condition itself.

Only the two paragraphs that touch the cell are read: further away, "below"
and "printed" usually mean another cell. A sentence is the text up to a full
stop followed by a space and a capital letter (or a backtick or parenthesis).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from test_colab import toc_notebooks  # the chapters, in book order

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = toc_notebooks()

# What a benchmark reports, and the words that point from prose to printed output.
# ("times" and "benchmark" are left out: "the benchmark times the fit ... below the same
# tolerance" is no pointer; "printed" catches "the times printed below".)
_OUTPUT = r"(?:numbers?|table|timings?|ratios?|results?|output|seconds|depth)"
_POINTER = r"(?:below|above|shows?|printed|prints?)"
_NEAR = r"(?:\W+\w+){0,3}?\W+"           # at most three words in between
POINTS_AT_OUTPUT = re.compile(
    rf"\b{_OUTPUT}{_NEAR}{_POINTER}\b"       # "the numbers below", "its depth is printed above"
    rf"|\b{_POINTER}{_NEAR}{_OUTPUT}\b"      # "shows the ratio", "printed below, the numbers"
    r"|\bprint(?:s|ed)\b",                   # "the cell prints ...", "the printed ratios"
    re.I)
# A clause that makes the sentence conditional on the result being there.
CONDITION = re.compile(
    r"\b(?:when|where|if|once|unless)\b[^.;]*?\b(?:present|absent|available|been run|there)\b",
    re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(])")


def benchmark_cells(path: Path):
    """Yield (cell index, paragraph before, paragraph after) for each benchmark cell."""
    cells = nbformat.read(path, as_version=4).cells
    for i, cell in enumerate(cells):
        if cell.cell_type != "code" or "load_benchmark(" not in cell.source:
            continue
        before = next((c.source for c in reversed(cells[:i]) if c.cell_type == "markdown"), "")
        after = next((c.source for c in cells[i + 1:] if c.cell_type == "markdown"), "")
        yield (i, _paragraphs(before)[-1] if before.strip() else "",
               _paragraphs(after)[0] if after.strip() else "")


def _paragraphs(markdown: str) -> list[str]:
    """Paragraphs of prose: blank-line separated, headings and directive fences dropped."""
    paras = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        lines = [ln for ln in block.splitlines()
                 if not re.match(r"\s*(#|:::|\(\S+\)=)", ln)]
        if lines:
            paras.append(" ".join(ln.strip() for ln in lines))
    return paras or [""]


def _sentences(paragraph: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(paragraph) if s.strip()]


def prose_problems(path: Path) -> list[str]:
    """Every fault of rules 1 and 2 in one notebook."""
    problems = []
    for i, before, after in benchmark_cells(path):
        where = f"{path.relative_to(ROOT)} cell {i}"
        if "make bench" not in before or not CONDITION.search(before):
            problems.append(f"{where}: the paragraph before the benchmark cell does not say that "
                            f"its result appears only when present (`make bench`): {before[-200:]!r}")
        for side, para in (("before", before), ("after", after)):
            for sentence in _sentences(para):
                if POINTS_AT_OUTPUT.search(sentence) and not CONDITION.search(sentence):
                    problems.append(f"{where}: a sentence {side} the benchmark cell points at its "
                                    f"output without saying 'when it is present': {sentence!r}")
    return problems


def test_some_chapter_has_a_benchmark_cell():
    # guards against the test silently checking nothing (a renamed helper, a moved folder)
    assert sum(1 for p in CHAPTERS for _ in benchmark_cells(p)) >= 10


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: str(p.relative_to(ROOT / "book")))
def test_benchmark_prose_holds_without_the_result(path):
    problems = prose_problems(path)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("text, ok", [
    ("The numbers below are read from the file the benchmark wrote.", False),
    ("As the table shows, ours is faster.", False),
    ("The printed ratio says how the two compare.", False),
    ("When the result is present (`make bench` writes it), the next cell prints it.", True),
    ("The printed ratio, when the result is present, says how the two compare.", True),
    ("The times depend on the machine, so only the ratios mean much.", True),
])
def test_the_rule_itself(text, ok):
    # rule 2 on single sentences: pointing at output needs a condition in the same sentence
    flagged = any(POINTS_AT_OUTPUT.search(s) and not CONDITION.search(s) for s in _sentences(text))
    assert flagged is not ok
