"""The tolerances of the test suite are the ones it states.

``np.allclose(a, b, atol=1e-12)`` still carries NumPy's default ``rtol=1e-5``
(``assert_allclose``: ``1e-7``), so the check is far looser than its comment
says wherever ``|b|`` is not small. Every call that states ``atol`` must state
``rtol`` too (``rtol=0`` when the absolute tolerance is the real one), and a
call that states neither leaves its tolerance to NumPy's defaults, unexplained:
state it. The checker (``tolerance_check.py``) is the one that ``test_project`` runs on
the notebooks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tolerance_check import loose_tolerance_calls  # the one checker, shared with the notebooks

TESTS = sorted(Path(__file__).parent.glob("*.py"))


def _loose_calls(source: str) -> list[tuple[int, str]]:
    lines = source.splitlines()
    return [(n, lines[n - 1].strip()) for n in loose_tolerance_calls(source)]


def test_loose_tolerance_checker_finds_what_it_should():
    flagged = loose_tolerance_calls(
        "np.allclose(a, b, atol=1e-12)\n"
        "np.testing.assert_allclose(\n    a,\n    b,\n    atol=1e-9,\n)\n"
        "assert_allclose(a, b, rtol=0, atol=1e-9)\n"
        "np.isclose(a, b, rtol=1e-6)\n"
        "%timeit np.isclose(a, b, atol=1)\n"
        "isclose(a, b, atol=1)\n"
        "np.allclose(a, b)\n"
        "np.allclose(a, b, 1e-9, 0)\n"
        "np.allclose(a, b, equal_nan=True)\n")
    assert flagged == [1, 2, 10, 11, 13]


@pytest.mark.parametrize("path", TESTS, ids=lambda p: p.name)
def test_every_stated_atol_comes_with_an_rtol(path):
    loose = _loose_calls(path.read_text(encoding="utf-8"))
    assert not loose, "tolerance not stated, or atol without rtol (add rtol=0, or the tolerance meant):\n" + \
        "\n".join(f"  {path.name}:{line}: {text.splitlines()[0]}" for line, text in loose)
