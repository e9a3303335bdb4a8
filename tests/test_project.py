"""The project's own files stay consistent: dependencies, notebooks, table of contents."""

import json
import re
import tomllib
from pathlib import Path

import yaml  # pyyaml is in the test extra

from tolerance_check import loose_tolerance_calls

ROOT = Path(__file__).resolve().parent.parent


def _name(req: str) -> str:
    return re.split(r"[<>=!~ \[]", req.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _spec(req: str) -> str:
    return req.replace(" ", "")


def test_environment_yml_lists_what_pyproject_lists():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        wanted += extra
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    listed = []
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            listed += [d for d in dep["pip"] if not d.startswith("-e")]
        else:
            listed.append(dep)
    listed_specs = {_name(d): _spec(d) for d in listed}
    # and nothing more, except the interpreter, pip itself and JupyterLab for
    # students, with jupyterlab-myst to render MyST (`make lab` installs both on
    # demand for the .venv/ route)
    extra = set(listed_specs) - {_name(r) for r in wanted} - {"python", "pip", "jupyterlab",
                                                               "jupyterlab-myst"}
    assert not extra, f"environment.yml lists {sorted(extra)}, which pyproject.toml does not"
    for req in wanted:
        name = _name(req)
        assert name in listed_specs, f"{name} is in pyproject.toml but not environment.yml"
        assert listed_specs[name] == _spec(req), (
            f"{name}: pyproject.toml says {req!r}, environment.yml says {listed_specs[name]!r}"
        )


def test_every_notebook_is_in_the_toc_and_stores_no_images():
    toc = (ROOT / "_toc.yml").read_text()
    active = {line.split("file:")[1].strip() for line in toc.splitlines()
              if "file:" in line and not line.lstrip().startswith("#")}
    for nb in (ROOT / "book").rglob("*.ipynb"):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        rel = nb.relative_to(ROOT).with_suffix("").as_posix()
        assert rel in active, f"{rel} is not in _toc.yml"
        cells = json.loads(nb.read_text())["cells"]
        for cell in cells:
            for out in cell.get("outputs", []):
                assert "image/png" not in out.get("data", {}), f"{rel} stores an image output"
        code = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        assert "mlbook" in code, f"{rel} does not import mlbook"


def _notebooks():
    for folder in ("book", "assignments/source"):
        for nb in sorted((ROOT / folder).rglob("*.ipynb")):
            if ".ipynb_checkpoints" not in nb.parts:
                yield nb


def _cells(nb):
    return json.loads(nb.read_text(encoding="utf-8"))["cells"]


def test_no_notebook_uses_literalinclude():
    # Jupyter and Colab cannot render it: the code is shown with mlbook.utils.show_source.
    for nb in _notebooks():
        for cell in _cells(nb):
            assert "literalinclude" not in "".join(cell["source"]), (
                f"{nb.relative_to(ROOT)} still uses literalinclude; show the code with show_source")


def test_directives_use_colon_fences():
    # ```{prf:theorem} reads as a code block of raw LaTeX in plain Jupyter and Colab.
    fence = re.compile(r"^\s*`{3,}\s*\{", re.M)
    for nb in _notebooks():
        for i, cell in enumerate(_cells(nb)):
            if cell["cell_type"] == "markdown":
                src = "".join(cell["source"])
                assert not fence.search(src), (
                    f"{nb.relative_to(ROOT)}, cell {i}: a directive with a backtick fence; use :::{{...}}")


def test_every_notebook_starts_with_the_install_cell_from_config():
    import sys
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import install_cell
    finally:
        sys.path.pop(0)
    expected = install_cell.cell_source()
    assert "git+" in expected and yaml.safe_load((ROOT / "_config.yml").read_text())[
        "repository"]["url"].rstrip("/") in expected
    for nb in _notebooks():
        code = [c for c in _cells(nb) if c["cell_type"] == "code"]
        assert code, f"{nb.relative_to(ROOT)} has no code cell"
        first = code[0]
        where = nb.relative_to(ROOT)
        assert "".join(first["source"]) == expected, (
            f"{where}: the first code cell is not the install cell of _config.yml; "
            f"run tools/install_cell.py")
        assert first["metadata"].get("tags") == ["remove-cell"], f"{where}: install cell not tagged remove-cell"


def test_no_cell_reads_a_file_by_a_repository_path():
    # Colab opens one notebook alone: data and results come through the package.
    relative = re.compile(r"""(open|Path|read_text|loadtxt|read_csv|genfromtxt)\(\s*f?["']\.{1,2}/""")
    for nb in _notebooks():
        for i, cell in enumerate(_cells(nb)):
            if cell["cell_type"] == "code":
                src = "".join(cell["source"])
                assert not relative.search(src), (
                    f"{nb.relative_to(ROOT)}, cell {i} reads a file by a relative path")
                assert "../" not in src, f"{nb.relative_to(ROOT)}, cell {i} names a path outside its folder"


def _flag_lines(cell_type: str, checker) -> list[str]:
    """Run ``checker`` (source -> flagged line numbers) on every cell of one type."""
    return [f"{nb.relative_to(ROOT)}, cell {i}, line {line}"
            for nb in _notebooks()
            for i, cell in enumerate(_cells(nb)) if cell["cell_type"] == cell_type
            for line in checker("".join(cell["source"]))]


def test_notebook_tolerances_state_rtol_with_atol():
    # np.allclose(a, b, atol=1e-12) still carries rtol=1e-5: state rtol (usually 0).
    bad = _flag_lines("code", loose_tolerance_calls)
    assert not bad, "tolerance not stated, or atol without rtol (pass rtol=0 or state both):\n" + "\n".join(bad)


def test_no_block_quote_in_markdown():
    # The book uses no block quotes: a wrapped line that starts with ">" (as in
    # "$a\n> 0$") becomes one and breaks the inline math around it.
    for nb in _notebooks():
        for i, cell in enumerate(_cells(nb)):
            if cell["cell_type"] != "markdown":
                continue
            in_math = False
            for line in "".join(cell["source"]).splitlines():
                if line.strip().startswith("$$"):
                    in_math = not in_math if line.strip().count("$$") == 1 else in_math
                    continue
                assert in_math or not line.lstrip().startswith(">"), (
                    f"{nb.relative_to(ROOT)}, cell {i}: a line starts with '>' (a block quote): {line!r}")


def test_shown_code_holds_no_harness_markers_or_label_names():
    # The HTML shows these cells; a reader cannot resolve a MyST label such as
    # "tree-eq-gini", and "# NBVAL_CHECK_OUTPUT" is the test harness's (use the tag).
    for nb in _notebooks():
        cells = _cells(nb)
        text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        labels = set(re.findall(r"^\$\$\s*\(([\w:-]+)\)\s*$", text, re.M))
        labels |= set(re.findall(r"^:label:\s*(\S+)", text, re.M))
        labels |= set(re.findall(r"^\(([\w:-]+)\)=\s*$", text, re.M))
        for i, cell in enumerate(cells):
            tags = cell["metadata"].get("tags", [])
            if cell["cell_type"] != "code" or {"remove-cell", "remove-input"} & set(tags):
                continue
            src = "".join(cell["source"])
            where = f"{nb.relative_to(ROOT)}, cell {i}"
            assert "NBVAL_" not in src, f"{where}: an NBVAL marker in shown code; tag the cell instead"
            comments = " ".join(re.findall(r"#(.*)$", src, re.M))
            named = sorted(lab for lab in labels if re.search(rf"(?<![\w-]){re.escape(lab)}(?![\w-])", comments))
            assert not named, f"{where}: a comment names the label(s) {named}; say it in words"


def test_binder_pins_a_supported_python_and_installs_the_package():
    # repo2docker reads only an exact version (runtime.txt "python-3.X"); with a
    # binder/ folder it ignores the files at the top level.
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    m = re.fullmatch(r"python-3\.(\d+)", runtime)
    assert m, f"binder/runtime.txt must pin python-3.X exactly; it says {runtime!r}"
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    low = re.fullmatch(r">=\s*3\.(\d+)", requires)
    assert low and int(m.group(1)) >= int(low.group(1)), (
        f"Binder's Python 3.{m.group(1)} is older than requires-python {requires!r}")
    reqs = [r.strip() for r in (ROOT / "binder" / "requirements.txt").read_text().splitlines()
            if r.strip() and not r.lstrip().startswith("#")]
    assert "-e ." in reqs, "binder/requirements.txt must install the package (-e .)"
    assert any(_name(r) == "jupyterlab-myst" for r in reqs), "Binder must install jupyterlab-myst"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = {_name(r): _spec(r) for r in project["optional-dependencies"]["test"]}
    for r in reqs:
        if _name(r) in pinned:
            assert _spec(r) == pinned[_name(r)], f"binder: {r!r} differs from pyproject.toml's {pinned[_name(r)]!r}"


def test_every_exercise_has_a_short_title():
    # Exercises read alike in every chapter: ":::{exercise} A short title".
    opening = re.compile(r"^(:{3,})\{exercise\}(.*)$", re.M)
    for nb in _notebooks():
        for i, cell in enumerate(_cells(nb)):
            if cell["cell_type"] != "markdown":
                continue
            for m in opening.finditer("".join(cell["source"])):
                title = m.group(2).strip()
                assert title, f"{nb.relative_to(ROOT)}, cell {i}: an exercise without a title"
                assert len(title) <= 60, f"{nb.relative_to(ROOT)}, cell {i}: exercise title too long: {title!r}"


def test_closing_fences_stand_apart_in_plain_markdown():
    # Without a MyST renderer (plain JupyterLab, Colab) a closing ":::" right
    # under the text joins the paragraph; tools/md_fences.py inserts the blank line.
    import sys
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import md_fences
    finally:
        sys.path.pop(0)
    for nb in _notebooks():
        for i, cell in enumerate(_cells(nb)):
            if cell["cell_type"] == "markdown":
                src = "".join(cell["source"])
                assert md_fences.fix(src) == src, (
                    f"{nb.relative_to(ROOT)}, cell {i}: a closing fence right under text; "
                    f"run tools/md_fences.py")


def test_every_mention_of_the_repository_matches_config():
    # The repository is set once, in _config.yml (launch, repository and issue
    # buttons and the install cells derive from it); every link written out by
    # hand must be that one.
    url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"].rstrip("/")
    owner_repo = re.compile(r"github\.com/([\w.-]+/[\w.-]+?)(?:\.git)?(?=[/@\s`'\")\]]|$)")
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "book").glob("*.md")),
             *(ROOT / "binder").glob("*"), *_notebooks()]
    for path in files:
        text = path.read_text(encoding="utf-8")
        for m in owner_repo.finditer(text):
            assert f"https://github.com/{m.group(1)}" == url, (
                f"{path.relative_to(ROOT)} names the repository github.com/{m.group(1)}; "
                f"_config.yml says {url}")


_LITERAL_SEED = re.compile(
    r"default_rng\(\s*(\d|\))"            # default_rng(0), default_rng()
    r"|random_state\s*=\s*\d"             # random_state=0
    r"|np\.random\.seed\("                 # the global generator
    r"|RandomState\(\s*\d")


def test_chapters_take_every_seed_through_the_helper():
    # MLBOOK_SEED shifts every seed of a chapter only if each one is drawn as
    # mlbook.utils.seed(n): a literal seed would stay fixed under the sweep.
    bad = []
    for nb in _notebooks():
        if "assignments" in nb.parts:
            continue
        for i, cell in enumerate(_cells(nb)):
            if cell["cell_type"] == "code":
                for n, line in enumerate("".join(cell["source"]).splitlines(), 1):
                    if _LITERAL_SEED.search(line.split("#")[0]):
                        bad.append(f"{nb.relative_to(ROOT)}, cell {i}, line {n}: {line.strip()}")
    assert not bad, "a literal seed (use mlbook.utils.seed(n)):\n" + "\n".join(bad)


def _math_lines_read_as_bullets(src: str) -> list[int]:
    """Lines that open with "+ " or "- " while an inline $...$ formula is open.

    Markdown reads such a line as a list item: the formula is cut in two and
    printed as raw TeX (in the book and in Jupyter alike). Display math ($$)
    is left alone: its block is parsed before the lists.
    """
    found, open_inline, in_display = [], False, False
    for n, line in enumerate(src.split("\n"), 1):
        if not line.strip():
            open_inline = False
        if "$$" in line:
            if line.count("$$") % 2:
                in_display = not in_display
            continue
        if in_display:
            continue
        if open_inline and re.match(r"\s*[-+]\s", line):
            found.append(n)
        if len(re.findall(r"(?<![\\$])\$(?!\$)", line)) % 2:
            open_inline = not open_inline
    return found


def test_math_line_checker_finds_what_it_should():
    assert _math_lines_read_as_bullets("a $x\n+ y$ b\n- a list item\n$$\n- z\n$$") == [2]


def test_no_inline_formula_line_starts_with_a_sign():
    bad = _flag_lines("markdown", _math_lines_read_as_bullets)
    assert not bad, ("a line inside $...$ starts with + or - and reads as a bullet "
                     "(move the sign to the line above):\n" + "\n".join(bad))


def test_the_html_build_defines_no_tex_macro():
    # A notebook is rendered by whatever opens it (the HTML book, JupyterLab, Colab,
    # plain Jupyter, LaTeX for the PDF); only the HTML book could see a macro set in
    # _config.yml. So the book sets none, and tools/check_math.py (run by `make book`)
    # fails on any command in a formula that MathJax does not know by itself.
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    mathjax = config["sphinx"]["config"].get("mathjax3_config", {})
    assert not mathjax.get("tex", {}).get("macros"), (
        "_config.yml defines MathJax macros: write them out in the notebooks instead")


def test_the_license_is_an_spdx_string_that_the_build_backend_reads():
    # a {text = ...} table makes setuptools print a deprecation box (an error from 2027);
    # the SPDX string (PEP 639) needs setuptools >= 77, in the build requirements and in
    # the venv the Makefile makes (the book's wheel is built offline with it)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert isinstance(project["project"]["license"], str), "license = \"MIT\" (an SPDX expression)"
    assert "setuptools>=77" in project["build-system"]["requires"]
    assert '"setuptools>=77"' in (ROOT / "Makefile").read_text(encoding="utf-8")


def _private_imports() -> set[tuple[str, str]]:
    """(importing module or package, imported private name) across mlbook's modules.

    A module is ``mlbook.<name>``, a package with all its files (``mlbook.tree``);
    ``from .m import _name`` inside one of them is its own business.
    """
    import ast

    found = set()
    for path in sorted((ROOT / "mlbook").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts      # ('mlbook', 'tree', '_node')
        unit = ".".join(parts[:2])
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and node.level and node.module):
                continue                                     # `from . import _m` imports a module
            base = parts[: len(parts) - node.level] + tuple(node.module.split("."))
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__") \
                        and ".".join(base[:2]) != unit:
                    found.add((unit, ".".join(base + (alias.name,))))
    return found


def test_no_module_imports_another_modules_private_name():
    # private modules (_validation, _math, _distributions) are imported by their public
    # names; a private helper stays inside its module or package
    found = sorted(_private_imports())
    assert not found, "a module imports another module's private name (make it public or move it):\n" + \
        "\n".join(f"  {m} imports {n}" for m, n in found)


def test_no_control_character_in_the_package_source():
    # a "\b" in a non-raw docstring is a backspace byte: the rendered maths
    # shows "y_i - ^Har y" instead of \bar y; tabs, newlines and carriage
    # returns are the only control characters a source file may hold
    control = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
    found = []
    for path in sorted((ROOT / "mlbook").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            for m in control.finditer(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: byte {ord(m.group()):#04x}")
    assert not found, "control characters in the source:\n" + "\n".join(found)


def _bib_entries(text: str) -> list[tuple[str, str]]:
    """(key, body) of every entry of a .bib text, split at each '@' that starts a line."""
    parts = re.split(r"^@", text, flags=re.M)[1:]
    return [(re.match(r"\w+\{([^,]*),", p).group(1) if re.match(r"\w+\{([^,]*),", p) else p[:40], p)
            for p in parts]


def bib_problems(text: str) -> list[str]:
    """Entries whose braces do not balance, or that share a key (either breaks the book build)."""
    problems, seen = [], set()
    for key, body in _bib_entries(text):
        depth = 0
        for ch in body:
            depth += (ch == "{") - (ch == "}")
            if depth < 0:
                break
        if depth != 0:
            problems.append(f"{key}: braces do not balance ({depth:+d})")
        if key in seen:
            problems.append(f"{key}: a second entry with this key")
        seen.add(key)
    return problems


def test_every_bibliography_entry_is_closed_and_unique():
    """A merge once left an entry unclosed: pybtex then stops the whole book build."""
    assert bib_problems("@misc{a,\n  year = {2017}\n\n@article{b,\n  year = {2005}\n}\n") == [
        "a: braces do not balance (+1)"]
    assert bib_problems("@misc{a,\n year={1}\n}\n@misc{a,\n year={2}\n}\n") == [
        "a: a second entry with this key"]
    assert bib_problems((ROOT / "book" / "references.bib").read_text(encoding="utf-8")) == []


# Alt text of the chapters' figures: myst-nb reads it from a code cell's metadata
# (mystnb: image: alt) and gives it to every image the cell shows. Whether each figure
# has one is checked on the built book (tools/check_book.py: an image whose alt text
# is its file path fails); this checks that what is written reads as a description.
_ALT_PATHLIKE = re.compile(r"[\\/]|\.(png|svg|jpe?g|pdf)\b", re.IGNORECASE)


def test_figure_alt_texts_describe_the_figure():
    problems = []
    for nb in _notebooks():
        for i, cell in enumerate(_cells(nb)):
            image = cell.get("metadata", {}).get("mystnb", {}).get("image")
            if image is None:
                continue
            where = f"{nb.relative_to(ROOT)} cell {i}"
            alt = image.get("alt") if isinstance(image, dict) else None
            if not isinstance(alt, str):
                problems.append(f"{where}: mystnb.image has no alt string")
                continue
            # 40 characters is about the shortest sentence that names a figure's kind and
            # its axes; 700 is where alt text stops being a summary (a screen reader
            # cannot skip within it), and the prose carries the detail.
            if not 40 <= len(alt) <= 700:
                problems.append(f"{where}: alt text of {len(alt)} characters (40 to 700)")
            if _ALT_PATHLIKE.search(alt) or "$" in alt or "`" in alt:
                problems.append(f"{where}: alt text holds a path, TeX or Markdown, which "
                                f"a screen reader reads out as symbols: {alt[:60]!r}")
            if not alt.rstrip().endswith("."):
                problems.append(f"{where}: alt text is not a sentence ending in a full stop")
    assert not problems, "\n".join(problems)
