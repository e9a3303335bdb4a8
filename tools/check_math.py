"""Every TeX command in the book's formulas is one MathJax knows without help.

    .venv/bin/python tools/check_math.py [_build/html]

The chapters are notebooks, and a notebook's formulas are rendered by
whatever opens it: the HTML book's MathJax, JupyterLab (MathJax, or
jupyterlab-myst's KaTeX), Colab's renderer, plain Jupyter, and later LaTeX
for the PDF. Only the HTML book could ever see a macro defined in the book's
configuration, so the book defines none: every formula is written with
standard LaTeX/AMS commands, and this check holds it to that.

For every page of the built book it collects the formulas (the
``<span class="math">`` and ``<div class="math">`` elements Sphinx writes,
whose text is the TeX source MathJax will typeset) and every ``\\command`` in
them. A command passes when MathJax's own TeX input (the bundle
``_static/mathjax/tex-chtml.js`` that the build serves) defines it, or when
the same page defines it with ``\\newcommand``/``\\def``/``\\DeclareMathOperator``.
Macros set in the page's MathJax configuration do not count: a notebook
opened outside the book would not have them.

The names MathJax defines are read from the bundle: its macro tables are
JavaScript objects whose keys are the command names (``alpha:``,
``boldsymbol:`` or ``"\\\\lVert":``). Reading keys out of minified JavaScript
can only err towards accepting (a key of some other table that happens to
spell a command), never towards rejecting a command MathJax knows, except
for one-letter names, which are all rejected (minified code is full of
one-letter keys; the book needs no one-letter command).
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

BACKSLASH = "\\"
BUNDLE = Path("_static") / "mathjax" / "tex-chtml.js"

MATH_ELEMENT = re.compile(
    r'<(span|div) class="math[^"]*"[^>]*>(.*?)</\1>', re.S)
COMMAND = re.compile(r"\\([A-Za-z]+)")
DEFINED_IN_PAGE = re.compile(
    r"\\(?:newcommand|renewcommand|DeclareMathOperator\*?)\s*\{?\\([A-Za-z]+)|\\def\\([A-Za-z]+)")


def mathjax_commands(bundle: Path) -> set[str]:
    """The command names MathJax's TeX input defines, read from its bundle."""
    js = bundle.read_text(encoding="utf-8")
    names = set(re.findall(r"[{,]([A-Za-z]+):", js))
    names |= set(re.findall(r'"\\\\([A-Za-z]+)":', js))
    # One-letter keys of minified JavaScript ({x:..., w:...}) are mostly variables
    # and options, not commands; the book uses no one-letter command, so none counts
    # as known and a stray \x or \T (a transpose macro) is flagged.
    return {name for name in names if len(name) > 1}


def page_formulas(page: str) -> list[str]:
    """The TeX source of every formula on one built page."""
    return [html.unescape(re.sub(r"<[^>]+>", "", m.group(2)))
            for m in MATH_ELEMENT.finditer(page)]


def unknown_commands(tex: str, known: set[str], defined: set[str]) -> list[str]:
    tex = tex.replace(BACKSLASH * 2, " ")  # a TeX line break (a\\b) is no command
    return sorted({c for c in COMMAND.findall(tex) if c not in known and c not in defined})


def check(html_dir: Path) -> list[str]:
    bundle = html_dir / BUNDLE
    if not bundle.is_file():
        return [f"{bundle}: MathJax's bundle is missing, so the formulas cannot be checked "
                "(is sphinx-mathjax-offline still among the extensions?)"]
    known = mathjax_commands(bundle)
    problems = []
    for page in sorted(html_dir.rglob("*.html")):
        if "_static" in page.parts or "_sources" in page.parts:
            continue
        formulas = page_formulas(page.read_text(encoding="utf-8"))
        text = "\n".join(formulas)
        defined = {a or b for a, b in DEFINED_IN_PAGE.findall(text)}
        bad = unknown_commands(text, known, defined)
        if bad:
            where = page.relative_to(html_dir)
            names = ", ".join(BACKSLASH + b for b in bad)
            problems.append(f"{where}: TeX commands that only a macro definition outside the "
                            f"notebook could supply: {names}")
    return problems


def main(argv: list[str]) -> int:
    html_dir = Path(argv[1] if len(argv) > 1 else "_build/html")
    problems = check(html_dir)
    for p in problems:
        print(p)
    print(f"check_math: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
