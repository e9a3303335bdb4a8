"""The project's own files stay consistent: dependencies, notebooks, table of contents."""

import json
import re
import tomllib
from pathlib import Path

import yaml  # pyyaml is in the test extra

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
    # students (`make lab` installs it on demand for the .venv/ route)
    extra = set(listed_specs) - {_name(r) for r in wanted} - {"python", "pip", "jupyterlab"}
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



def _loose_tolerance_calls(src: str) -> list[int]:
    """Lines of allclose/isclose/assert_allclose calls that pass atol but no rtol.

    NumPy's default rtol (1e-5 for allclose/isclose, 1e-7 for assert_allclose)
    still applies there, so the check is looser than the atol it states.
    """
    import ast

    # IPython magics and shell escapes are not Python.
    src = "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                    for line in src.splitlines())
    found = []
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            keywords = {k.arg for k in node.keywords}
            if name in ("allclose", "isclose", "assert_allclose") and "atol" in keywords \
                    and "rtol" not in keywords:
                found.append(node.lineno)
    return found


def test_loose_tolerance_checker_finds_what_it_should():
    flagged = _loose_tolerance_calls(
        "np.allclose(a, b, atol=1e-12)\n"
        "np.testing.assert_allclose(\n    a,\n    b,\n    atol=1e-9,\n)\n"
        "assert_allclose(a, b, rtol=0, atol=1e-9)\n"
        "np.isclose(a, b, rtol=1e-6)\n"
        "%timeit np.isclose(a, b, atol=1)\n"
        "isclose(a, b, atol=1)\n")
    assert flagged == [1, 2, 10]


def test_notebook_tolerances_state_rtol_with_atol():
    # np.allclose(a, b, atol=1e-12) still carries rtol=1e-5: state rtol (usually 0).
    bad = []
    for nb in _notebooks():
        for i, cell in enumerate(_cells(nb)):
            if cell["cell_type"] == "code":
                for line in _loose_tolerance_calls("".join(cell["source"])):
                    bad.append(f"{nb.relative_to(ROOT)}, cell {i}, line {line}")
    assert not bad, "atol without rtol (pass rtol=0 or state both):\n" + "\n".join(bad)
