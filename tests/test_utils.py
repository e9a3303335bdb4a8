"""mlbook.utils: the seed helper and the book's contract (SHOWN); what show_source renders is checked in test_project."""

import ast
import importlib
import json
from pathlib import Path

import numpy as np
import pytest

from mlbook.utils import SHOWN, seed, seed_offset


def test_seed_adds_the_offset_from_the_environment(monkeypatch):
    monkeypatch.delenv("MLBOOK_SEED", raising=False)
    assert seed_offset() == 0 and seed() == 0 and seed(7) == 7
    monkeypatch.setenv("MLBOOK_SEED", "3")
    assert seed_offset() == 3 and seed() == 3 and seed(7) == 10
    assert seed(np.int64(2)) == 5 and type(seed(np.int64(2))) is int
    monkeypatch.setenv("MLBOOK_SEED", " 12 ")
    assert seed(1) == 13
    monkeypatch.setenv("MLBOOK_SEED", "")
    assert seed(1) == 1


def test_a_shifted_seed_draws_other_numbers(monkeypatch):
    monkeypatch.delenv("MLBOOK_SEED", raising=False)
    a = np.random.default_rng(seed(0)).random(3)
    monkeypatch.setenv("MLBOOK_SEED", "1")
    b = np.random.default_rng(seed(0)).random(3)
    assert not np.array_equal(a, b)
    assert np.array_equal(b, np.random.default_rng(1).random(3))


@pytest.mark.parametrize("value", ["x", "1.5", "-1"])
def test_bad_offsets_name_the_variable(monkeypatch, value):
    monkeypatch.setenv("MLBOOK_SEED", value)
    with pytest.raises(ValueError, match="MLBOOK_SEED must"):
        seed(0)


def test_bad_seeds_name_the_argument(monkeypatch):
    monkeypatch.delenv("MLBOOK_SEED", raising=False)
    with pytest.raises(TypeError, match="n must be a whole number"):
        seed(1.5)
    with pytest.raises(TypeError, match="n must be a whole number"):
        seed(True)
    with pytest.raises(ValueError, match="n must be >= 0"):
        seed(-1)


# --- the book's contract: what the chapters show with show_source ------------------

BOOK = Path(__file__).resolve().parents[1] / "book"


def _shown_by_chapters() -> dict[str, list[str]]:
    """Every ``show_source(mlbook....)`` argument of the chapters -> the chapters showing it."""
    shown: dict[str, list[str]] = {}
    for nb in sorted(BOOK.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            src = "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                            for line in "".join(cell["source"]).splitlines())
            for node in ast.walk(ast.parse(src)):
                if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "show_source"
                        and node.args):
                    shown.setdefault(ast.unparse(node.args[0]), []).append(
                        str(nb.relative_to(BOOK.parent)))
    return shown


def _resolve(dotted: str):
    """The object a dotted name ``mlbook.module.Class.method`` names (ImportError/AttributeError if gone)."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


def _is_private(dotted: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in dotted.split("."))


def test_the_chapters_show_objects_that_exist():
    gone = []
    for name, chapters in _shown_by_chapters().items():
        try:
            _resolve(name)
        except (ImportError, AttributeError) as exc:
            gone.append(f"  {name} ({exc}), shown by {', '.join(sorted(set(chapters)))}")
    assert not gone, ("these chapters show an object the package no longer has; a rename must "
                      "update the chapter's show_source call (and mlbook.utils.SHOWN):\n"
                      + "\n".join(gone))


def test_every_private_object_a_chapter_shows_is_listed_in_SHOWN():
    unlisted = [f"  {name}, shown by {', '.join(sorted(set(chapters)))}"
                for name, chapters in sorted(_shown_by_chapters().items())
                if _is_private(name) and name not in SHOWN]
    assert not unlisted, ("a chapter shows a private object that mlbook.utils.SHOWN does not "
                          "list; make it public or add it to SHOWN (the objects the book shows "
                          "are its contract with the package):\n" + "\n".join(unlisted))


def test_every_entry_of_SHOWN_is_private_existing_and_shown():
    shown = _shown_by_chapters()
    bad = []
    for name in sorted(SHOWN):
        if not _is_private(name):
            bad.append(f"  {name}: a public name needs no entry")
        elif name not in shown:
            bad.append(f"  {name}: no chapter shows it any more; remove the entry")
        else:
            try:
                _resolve(name)
            except (ImportError, AttributeError) as exc:
                bad.append(f"  {name}: it no longer exists ({exc}); rename it here and in "
                           f"{', '.join(sorted(set(shown[name])))}")
    assert not bad, "mlbook.utils.SHOWN is out of date:\n" + "\n".join(bad)


def test_the_contract_checks_can_fail():
    # a name that does not exist is reported, and so is a private name SHOWN does not list
    with pytest.raises(AttributeError):
        _resolve("mlbook.svm._no_such_step")
    assert _is_private("mlbook.svm._wss2") and _is_private("mlbook._distributions.betainc")
    assert not _is_private("mlbook.svm.SVR.fit") and not _is_private("mlbook.base.BaseEstimator.__init__")
