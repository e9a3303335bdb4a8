"""Build the PDF of the book: ``_build/latex/book.pdf``.

    .venv/bin/python tools/build_pdf.py

The PDF is made by Jupyter Book's LaTeX builder and XeLaTeX (TeX Live), in a
build of its own under ``_build/pdf/`` (its configuration is ``_config.yml``
with absolute paths, written to ``_build/pdf/pdf_config.yml``). Like ``make
book`` it executes every chapter: the notebooks store no figures, so a PDF
from the stored outputs alone would have none. Sphinx writes ``book.tex``;
this script renumbers it as the HTML book is numbered and widens the
glossary's columns (``number_like_the_html``, ``wrap_long_tables``), then runs
latexmk and copies the PDF to ``_build/latex/book.pdf``.

XeLaTeX exits 0 on two faults that spoil a PDF without stopping it: a glyph
that no font has (``Missing character``: Chinese without xeCJK vanishes that
way) and a command that nothing defines (``Undefined control sequence``). So
after the build this script reads ``_build/latex/book.log`` and fails on
either of them, on any LaTeX error (a line starting with ``!``) and on a
reference LaTeX could not resolve; it prints each with its line in the log.

System tools: ``xelatex`` and ``latexmk`` with the LaTeX packages of Debian's
``texlive-xetex``, ``texlive-latex-extra``, ``texlive-lang-chinese`` (xeCJK and
the Fandol fonts), ``texlive-fonts-recommended``, ``lmodern`` and
``fonts-freefont-otf``. A missing one is named before anything is built.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "_build" / "pdf"              # this build's own Sphinx output and doctrees
OUT = ROOT / "_build" / "latex" / "book.pdf"  # where make pdf puts the result
APT = ("texlive-xetex texlive-latex-extra texlive-lang-chinese texlive-fonts-recommended "
       "lmodern fonts-freefont-otf latexmk")

# What the log must not hold (compiled once; each matches a whole log line).
FAULTS = {
    "missing character": re.compile(r"^Missing character: There is no .*$"),
    "undefined control sequence": re.compile(r"^! Undefined control sequence\..*$"),
    "LaTeX error": re.compile(r"^! .*$"),
    "unresolved reference": re.compile(r"^LaTeX Warning: (Reference|Citation) .* undefined.*$"),
}


def missing_tools() -> list[str]:
    """The system tools the build needs and this machine lacks, as messages."""
    out = []
    for tool in ("xelatex", "latexmk", "kpsewhich"):
        if shutil.which(tool) is None:
            out.append(f"{tool} is missing")
    if not out:
        for sty, pkg in (("xeCJK.sty", "texlive-lang-chinese"), ("fncychap.sty", "texlive-latex-extra"),
                         ("FandolSong-Regular.otf", "texlive-lang-chinese")):
            found = subprocess.run(["kpsewhich", sty], capture_output=True, text=True).stdout.strip()
            if not found:
                out.append(f"{sty} is missing (Debian's {pkg})")
        if shutil.which("fc-list") is not None:
            fonts = subprocess.run(["fc-list", ":family=FreeSerif"], capture_output=True, text=True).stdout
            if "FreeSerif" not in fonts:
                out.append("the FreeSerif font is missing (Debian's fonts-freefont-otf)")
    return out


# A page whose body is taller than the page by more than a line of text has lost what
# ran off its foot (a table that cannot break, a float too tall): LaTeX only warns.
PAGE_OVERFLOW = re.compile(r"^Overfull \\vbox \(([\d.]+)pt too high\) has occurred while \\output is active")
PAGE_OVERFLOW_PT = 10.0


def log_faults(log: str) -> list[tuple[str, int, str]]:
    """Every fault in a LaTeX log: (kind, line number, line). One line, one kind (the first)."""
    found = []
    for number, line in enumerate(log.splitlines(), start=1):
        overflow = PAGE_OVERFLOW.match(line)
        if overflow and float(overflow.group(1)) > PAGE_OVERFLOW_PT:
            found.append(("page overflow", number, line))
            continue
        for kind, pattern in FAULTS.items():
            if pattern.match(line):
                found.append((kind, number, line))
                break
    return found


def number_like_the_html(tex: str) -> str:
    """Chapter and section numbers in ``book.tex`` as the HTML book has them.

    The HTML book numbers only the chapters of the numbered parts (I to VII), from 1:
    the front page, the front matter and the back matter carry no number. LaTeX numbers
    every chapter, and the parts too ("Part II: I. Foundations"). So: the parts lose
    LaTeX's number (their captions carry the book's), the pages before the first
    numbered part and from the back matter on are unnumbered (``secnumdepth`` -1, still
    in the table of contents), and the chapter counter starts again at Part I. Each
    edit asserts that what it edits is there, so a change in Sphinx's output stops the
    build instead of numbering the book wrongly.
    """
    parts = re.findall(r"^\\part\{(.*)\}$", tex, flags=re.M)
    numbered = [p for p in parts if re.match(r"[IVX]+\. ", p)]
    if not numbered or parts[0] in numbered or parts[-1] in numbered:
        raise RuntimeError(f"book.tex: expected unnumbered front and back matter around "
                           f"numbered parts, found parts {parts}")
    depth = re.search(r"^\\setcounter\{secnumdepth\}\{(\d+)\}$", tex, flags=re.M)
    depth = depth.group(1) if depth else "2"
    start = "\\pagestyle{normal}\n"
    if tex.count(start) != 1:
        raise RuntimeError("book.tex: the start of the front matter (\\pagestyle{normal}) not found once")
    # the front page's text follows the contents under a heading of its own
    tex = tex.replace(start, start + "\\setcounter{secnumdepth}{-1}\n\\chapter{About this book}\n", 1)
    for part in parts:
        line = f"\\part{{{part}}}"
        new = f"\\part*{{{part}}}\\addcontentsline{{toc}}{{part}}{{{part}}}"
        if part == numbered[0]:
            new = f"\\setcounter{{secnumdepth}}{{{depth}}}\\setcounter{{chapter}}{{0}}\n" + new
        elif part == parts[-1]:
            new = "\\setcounter{secnumdepth}{-1}\n" + new
        tex = tex.replace(line, new, 1)
    return tex


def wrap_long_tables(tex: str) -> str:
    """Give the book's long three-column tables (the glossary) wrapping columns.

    Sphinx sets a table of more than 30 rows as a ``longtable`` with ``lll`` columns,
    which never wrap: the glossary's rows ran 130 pt past the margin. Its columns (the
    English term, the Chinese term, the chapter) get 7/20, 5/20 and 8/20 of the line,
    with Sphinx's own ``\\X`` column type, set ragged right (justified, a narrow
    column of Chinese spread its characters apart). A table carried over a page break is
    headed "Table 18.1 -- continued" by LaTeX's table counter, though the book numbers no
    table (the HTML shows none): the heading loses the number.
    """
    ragged = ">{\\raggedright\\arraybackslash}"
    tex = tex.replace("\\begin{longtable}{lll}",
                      f"\\begin{{longtable}}{{{ragged}\\X{{7}}{{20}}{ragged}\\X{{5}}{{20}}{ragged}\\X{{8}}{{20}}}}")
    return tex.replace("\\tablename\\ \\thetable{} \\textendash{} continued from previous page",
                       "continued from previous page")


# The errata tables: six columns (# | note | where | the notes say | correct | checked by).
# In 50ths of the line; the prose columns get the room.
ERRATA_COLUMNS = (2, 3, 9, 11, 13, 12)
_SIX_COLUMN_TABLE = re.compile(
    r"\\begin\{savenotes\}\\sphinxattablestart\n(?P<style>(?:\\sphinxthistablewithglobalstyle\n)?)"
    r"\\centering\n\\begin\{tabulary\}\{\\linewidth\}\[t\]\{TTTTTT\}\n"
    r"\\sphinxtoprule\n(?P<head>.*?)\\sphinxmidrule\n\\sphinxtableatstartofbodyhook\n"
    r"(?P<rows>.*?)\\sphinxbottomrule\n\\end\{tabulary\}\n"
    r"\\sphinxtableafterendhook\\par\n\\sphinxattableend\\end\{savenotes\}",
    re.S)


def break_six_column_tables(tex: str) -> str:
    """Set the errata's six-column tables as long tables with fixed, wrapping columns.

    Sphinx sets a table of up to 30 rows with ``tabulary``, which sizes each column by
    its text and cannot break across pages: the errata's columns "where" and "the notes
    say" came out a word wide, words ran into the next column, and the longer tables ran
    off the foot of the page (LaTeX's "Overfull \\vbox", rows lost). Here they become
    ``longtable`` (broken across pages, the header repeated) in a smaller font, with
    ragged-right columns of fixed shares of the line, ``ERRATA_COLUMNS``.
    """
    total = sum(ERRATA_COLUMNS)
    spec = "".join(f">{{\\raggedright\\arraybackslash}}\\X{{{w}}}{{{total}}}" for w in ERRATA_COLUMNS)

    def longtable(m: re.Match) -> str:
        head = m["head"]
        return ("\\begin{savenotes}\\sphinxatlongtablestart\n" + m["style"] + "\\footnotesize\n"
                "\\makeatletter\n  \\LTleft \\@totalleftmargin plus1fill\n"
                "  \\LTright\\dimexpr\\columnwidth-\\@totalleftmargin-\\linewidth\\relax plus1fill\n"
                "\\makeatother\n"
                f"\\begin{{longtable}}{{{spec}}}\n"
                f"\\sphinxtoprule\n{head}\\sphinxmidrule\n\\endfirsthead\n"
                f"\\sphinxtoprule\n{head}\\sphinxmidrule\n\\endhead\n"
                "\\sphinxbottomrule\n\\endfoot\n\\sphinxbottomrule\n\\endlastfoot\n"
                "\\sphinxtableatstartofbodyhook\n" + m["rows"] +
                "\\end{longtable}\n\\sphinxtableafterendhook\n\\sphinxatlongtableend\\end{savenotes}")

    return _SIX_COLUMN_TABLE.sub(longtable, tex)


# sphinx-proof writes a proof as an admonition box without a title argument, so LaTeX
# takes the paragraph mark for the title: an empty coloured bar over "Proof. ...".
_PROOF = re.compile(r"\\begin\{sphinxadmonition\}\{note\}\n\\sphinxAtStartPar\nProof\.(.*?)"
                    r"\\end\{sphinxadmonition\}", re.S)


def format_proofs(tex: str) -> str:
    """Set each proof as a book sets one: "Proof." in italics, the text, a square at its end."""
    def proof(m: re.Match) -> str:
        if "sphinxadmonition" in m.group(1):
            raise RuntimeError("book.tex: a proof holds a box of its own; format_proofs "
                               "cannot tell where the proof ends")
        return ("\\par\\medskip\\noindent\\textit{Proof.}" + m.group(1).rstrip() +
                "\\nobreak\\hfill\\ensuremath{\\square}\\par\\medskip\n")
    return _PROOF.sub(proof, tex)


def main() -> int:
    missing = missing_tools()
    if missing:
        print("make pdf needs TeX Live from Debian:", "; ".join(missing) + ".", file=sys.stderr)
        print(f"Install it with: sudo apt-get install {APT}", file=sys.stderr)
        return 2
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    # Jupyter Book resolves these against the folder of the configuration file,
    # which is now _build/pdf: make them absolute.
    sphinx = config["sphinx"]
    sphinx["local_extensions"] = {name: str(ROOT / path) for name, path in sphinx["local_extensions"].items()}
    config["bibtex_bibfiles"] = [str(ROOT / f) for f in config["bibtex_bibfiles"]]
    sphinx["config"]["latex_additional_files"] = [str(ROOT / f) for f in sphinx["config"]["latex_additional_files"]]
    WORK.mkdir(parents=True, exist_ok=True)
    pdf_config = WORK / "pdf_config.yml"
    pdf_config.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    latex = WORK / "_build" / "latex"
    if latex.exists():
        shutil.rmtree(latex)   # latexmk would reuse a stale .aux of an older book
    jb = Path(sys.executable).with_name("jupyter-book")
    # its own doctrees (WORK/_build/.doctrees), so that it and the HTML build never share a stale environment
    run = subprocess.run([str(jb), "build", str(ROOT), "--builder", "latex", "--path-output", str(WORK),
                          "--config", str(pdf_config)], cwd=ROOT)
    tex_path = latex / "book.tex"
    if run.returncode != 0 or not tex_path.exists():
        print(f"make pdf failed: jupyter-book exited {run.returncode} before LaTeX ran", file=sys.stderr)
        return 1
    tex_path.write_text(format_proofs(break_six_column_tables(wrap_long_tables(
        number_like_the_html(tex_path.read_text(encoding="utf-8"))))), encoding="utf-8")
    # Sphinx's Makefile runs latexmk with its latexmkrc (xelatex, as many passes as it takes)
    tex = subprocess.run(["make", "-C", str(latex), "all-pdf", "LATEXMKOPTS=-interaction=nonstopmode -halt-on-error"])
    log_path = latex / "book.log"
    if not log_path.exists():
        print(f"no LaTeX log at {log_path}: latexmk exited {tex.returncode}", file=sys.stderr)
        return 1
    faults = log_faults(log_path.read_text(encoding="utf-8", errors="replace"))
    for kind, number, line in faults:
        print(f"{log_path.relative_to(ROOT)}:{number}: {kind}: {line}", file=sys.stderr)
    pdf = latex / "book.pdf"
    if tex.returncode != 0 or faults or not pdf.exists():
        print(f"make pdf failed: latexmk exited {tex.returncode}, {len(faults)} fault(s) in "
              f"the LaTeX log, PDF {'written' if pdf.exists() else 'missing'}", file=sys.stderr)
        return 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(pdf, OUT)
    print(f"wrote {OUT.relative_to(ROOT)} (LaTeX sources and log in {latex.relative_to(ROOT)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
