"""What a reader downloads and cites: the version, the licences, CITATION.cff, and
the sources the PDF is made from (what LaTeX cannot typeset is caught here, before
a `make pdf` that only CI and release builds run)."""

import json
import re
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

import mlbook

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import build_pdf  # noqa: E402

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_one_version_everywhere():
    """pyproject.toml, mlbook.__version__, the changelog's newest entry and CITATION.cff agree."""
    assert mlbook.__version__ == VERSION
    headings = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), flags=re.M)
    assert headings, "CHANGELOG.md has no version heading"
    assert headings[0] == VERSION, f"the newest changelog entry is {headings[0]}, the package {VERSION}"
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["version"] == VERSION


def test_citation_cff_is_valid():
    """CITATION.cff against the Citation File Format 1.2.0 schema, shipped in tools/schemas/."""
    schema = json.loads((ROOT / "tools" / "schemas" / "citation-file-format-1.2.0.json").read_text())
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.validate(cff, schema, cls=jsonschema.Draft7Validator)
    # the check can fail: a file without authors is refused
    with pytest.raises(jsonschema.ValidationError, match="authors"):
        jsonschema.validate({k: v for k, v in cff.items() if k != "authors"}, schema,
                            cls=jsonschema.Draft7Validator)


def test_licences_are_stated_where_a_reader_looks():
    """MIT for the code, CC BY-SA 4.0 for the prose and figures: files, pyproject, README, front page."""
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "Attribution-ShareAlike 4.0 International" in (ROOT / "LICENSE-CC-BY-SA-4.0").read_text()
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"] == "MIT"
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert sorted(cff["license"]) == ["CC-BY-SA-4.0", "MIT"]
    for page in ("README.md", "book/intro.md"):
        text = (ROOT / page).read_text()
        assert "CC BY-SA 4.0" in text and "MIT" in text, f"{page} does not state both licences"


def release_problems(tags: list[str], version: str, changelog: str, cff: dict) -> list[str]:
    """What is wrong with a commit that carries the release tags ``tags`` (``v...`` only).

    A release tag names the package's version, ``v<version>``; the changelog's entry for
    that version carries its date (``## 0.1.0 (2026-12-01)``) instead of "unreleased",
    and CITATION.cff's ``date-released`` is that date. An untagged commit may say
    "unreleased".
    """
    problems = []
    tags = [t for t in tags if t.startswith("v")]
    if not tags:
        return problems
    for tag in tags:
        if tag != f"v{version}":
            problems.append(f"the tag {tag} is not v{version}, the version in pyproject.toml")
    entry = re.search(rf"^## {re.escape(version)} \((.*?)\)", changelog, flags=re.M)
    date = entry.group(1) if entry else None
    if date is None or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        problems.append(f"CHANGELOG.md: the entry of the released {version} has no date "
                        f"(it says {date!r}); write ## {version} (YYYY-MM-DD)")
    elif str(cff.get("date-released")) != date:
        problems.append(f"CITATION.cff: date-released is {cff.get('date-released')!r}, the "
                        f"changelog dates {version} {date}")
    return problems


def test_release_problems_names_each_fault():
    cff = {"version": "1.2.0", "date-released": "2026-12-01"}
    dated = "## 1.2.0 (2026-12-01)\n"
    assert release_problems([], "1.2.0", "## 1.2.0 (unreleased)\n", cff) == []
    assert release_problems(["v1.2.0", "draft"], "1.2.0", dated, cff) == []
    assert "is not v1.2.0" in release_problems(["v1.1.0"], "1.2.0", dated, cff)[0]
    assert "has no date" in release_problems(["v1.2.0"], "1.2.0", "## 1.2.0 (unreleased)\n", cff)[0]
    assert "date-released" in release_problems(["v1.2.0"], "1.2.0", dated,
                                               {**cff, "date-released": "2026-11-30"})[0]


def test_a_release_tag_matches_the_version_changelog_and_citation():
    """If this commit is tagged v..., the tag, the changelog and CITATION.cff agree on the release."""
    import shutil
    import subprocess

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no tags to check")
    done = subprocess.run(["git", "-C", str(ROOT), "tag", "--points-at", "HEAD"],
                          capture_output=True, text=True, check=True)
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    problems = release_problems(done.stdout.split(), VERSION, (ROOT / "CHANGELOG.md").read_text(), cff)
    assert not problems, "\n".join(problems)


# --- the sources the PDF is typeset from -------------------------------------------

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
MATH = re.compile(r"\$\$(.+?)\$\$|(?<!\\)\$(.+?)(?<!\\)\$", re.S)
TEXT_ARG = re.compile(r"\\(?:text|textrm|textbf|textit|mbox)\{[^{}]*\}")


def _markdown_sources():
    for path in sorted((ROOT / "book").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        yield path, "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    for path in sorted((ROOT / "book").glob("*.md")):
        yield path, path.read_text(encoding="utf-8")


def cjk_in_math(text: str) -> list[str]:
    """Formulas with Chinese outside \\text{...}: LaTeX's math fonts have no Chinese glyphs
    (xelatex drops them with only a 'Missing character' line in its log), and a command
    written right before a Chinese character (\\mid是) is one undefined command under xeCJK."""
    bad = []
    for m in MATH.finditer(text):
        body = m.group(1) if m.group(1) is not None else m.group(2)
        if CJK.search(TEXT_ARG.sub("", body)):
            bad.append(body)
    return bad


def test_cjk_in_math_is_caught():
    assert cjk_in_math(r"so $P_{凹陷\mid是} = 6/8$ and") == [r"P_{凹陷\mid是} = 6/8"]
    assert cjk_in_math(r"so $P_{\text{凹陷} \mid \text{是}} = 6/8$ and $x$") == []


def test_no_chinese_in_formulas_outside_text():
    bad = {str(p.relative_to(ROOT)): found for p, t in _markdown_sources() if (found := cjk_in_math(t))}
    assert not bad, f"Chinese inside formulas (wrap it in \\text{{...}}): {bad}"


def test_pdf_log_faults_are_found():
    """The faults tools/build_pdf.py fails on, on lines as XeLaTeX writes them (and not on harmless ones)."""
    log = "\n".join([
        "Missing character: There is no 凹 (U+51F9) in font [latinmodern-math.otf]/OT:script=math;!",
        "! Undefined control sequence.",
        "! LaTeX Error: File `bbm.sty' not found.",
        "LaTeX Warning: Reference `book/linear/lda:lda-def-fisher' on page 1 undefined on input line 9.",
        "LaTeX Warning: Citation `zhou2016' on page 2 undefined on input line 3.",
        "Overfull \\hbox (1.2pt too wide) in paragraph at lines 1--2",
        "LaTeX Warning: Label(s) may have changed. Rerun to get cross-references right.",
        "Overfull \\vbox (592.88867pt too high) has occurred while \\output is active []",
        "Overfull \\vbox (2.4pt too high) has occurred while \\output is active []",
        "Overfull \\vbox (14.9pt too high) detected at line 19263",
    ])
    kinds = [kind for kind, _, _ in build_pdf.log_faults(log)]
    assert kinds == ["missing character", "undefined control sequence", "LaTeX error",
                     "unresolved reference", "unresolved reference", "page overflow"]


TEX = "\n".join([
    r"\pagestyle{normal}",
    r"\part{Front matter}", r"\chapter{Notation}",
    r"\part{I. Foundations}", r"\chapter{Supervised learning}",
    r"\part{II. Linear models}", r"\chapter{Linear regression}",
    r"\part{Back matter}", r"\chapter{Glossary}",
    r"\begin{longtable}{lll}",
    r"\makebox[0pt]{\sphinxtablecontinued{\tablename\ \thetable{} \textendash{} continued from previous page}}%",
])


def test_pdf_numbers_chapters_like_the_html():
    """Front and back matter unnumbered, the chapter counter restarting at Part I, no part numbers."""
    out = build_pdf.number_like_the_html(TEX).splitlines()
    assert out[:3] == [r"\pagestyle{normal}", r"\setcounter{secnumdepth}{-1}", r"\chapter{About this book}"]
    assert out.index(r"\setcounter{secnumdepth}{2}\setcounter{chapter}{0}") == out.index(
        r"\part*{I. Foundations}\addcontentsline{toc}{part}{I. Foundations}") - 1
    assert out[out.index(r"\part*{Back matter}\addcontentsline{toc}{part}{Back matter}") - 1] == \
        r"\setcounter{secnumdepth}{-1}"
    assert not [line for line in out if line.startswith(r"\part{")]
    # a book whose parts are not as expected stops the build
    with pytest.raises(RuntimeError, match="numbered parts"):
        build_pdf.number_like_the_html(TEX.replace(r"\part{Back matter}", r"\part{VIII. More}"))


def test_pdf_long_tables_wrap():
    out = build_pdf.wrap_long_tables(TEX)
    ragged = r">{\raggedright\arraybackslash}"
    assert (r"\begin{longtable}{" + ragged + r"\X{7}{20}" + ragged + r"\X{5}{20}" + ragged
            + r"\X{8}{20}}") in out
    assert r"\sphinxtablecontinued{continued from previous page}" in out and r"\thetable" not in out


ERRATA_TEX = "\n".join([
    r"\begin{savenotes}\sphinxattablestart", r"\sphinxthistablewithglobalstyle", r"\centering",
    r"\begin{tabulary}{\linewidth}[t]{TTTTTT}", r"\sphinxtoprule",
    r"\sphinxstyletheadfamily \#&note&where&the notes say&correct&checked by\\", r"\sphinxmidrule",
    r"\sphinxtableatstartofbodyhook", r"1&001&a&b&c&d\\", r"\sphinxbottomrule", r"\end{tabulary}",
    r"\sphinxtableafterendhook\par", r"\sphinxattableend\end{savenotes}",
    r"\begin{tabulary}{\linewidth}[t]{TTT}",
])


def test_pdf_errata_tables_break_across_pages():
    """The six-column tables become long tables with fixed columns; other tables are left alone."""
    out = build_pdf.break_six_column_tables(ERRATA_TEX)
    assert "{TTTTTT}" not in out and out.count(r"\begin{longtable}") == 1
    assert r"\begin{tabulary}{\linewidth}[t]{TTT}" in out
    spec = re.search(r"\\begin\{longtable\}\{(.*)\}\n", out).group(1)
    shares = [(int(a), int(b)) for a, b in re.findall(r"\\X\{(\d+)\}\{(\d+)\}", spec)]
    assert len(shares) == 6 and sum(a for a, _ in shares) == shares[0][1]   # the line, shared out
    # the header twice (first page and the pages it continues on), the rule closing each page
    assert out.count(r"the notes say") == 2 and r"\endhead" in out and r"\endlastfoot" in out
    assert out.count(r"\sphinxbottomrule") == 2 and r"1&001&a&b&c&d" in out


def test_pdf_proofs_lose_their_empty_title_bar():
    tex = ("\\begin{sphinxadmonition}{note}\n\\sphinxAtStartPar\nProof. Trivially \\(a=a\\).\n"
           "\\end{sphinxadmonition}\n\\begin{sphinxadmonition}{note}{Note:}\nKept.\n\\end{sphinxadmonition}")
    out = build_pdf.format_proofs(tex)
    assert out.startswith("\\par\\medskip\\noindent\\textit{Proof.} Trivially \\(a=a\\).")
    assert "\\ensuremath{\\square}" in out and out.count("sphinxadmonition") == 2   # the note stays
    nested = tex.replace("Trivially", "\\begin{sphinxadmonition}{note}{Note:}x\\end{sphinxadmonition}")
    with pytest.raises(RuntimeError, match="box of its own"):
        build_pdf.format_proofs(nested)
