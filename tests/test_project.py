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
