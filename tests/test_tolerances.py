"""The tolerances of the test suite are the ones it states.

``np.allclose(a, b, atol=1e-12)`` still carries NumPy's default ``rtol=1e-5``
(``assert_allclose``: ``1e-7``), so the check is far looser than its comment
says wherever ``|b|`` is not small. Every call that states ``atol`` must state
``rtol`` too (``rtol=0`` when the absolute tolerance is the real one), and a
call that states neither leaves its tolerance to NumPy's defaults, unexplained:
state it. The checker is the one that ``test_project`` runs on the notebooks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_project import _loose_tolerance_calls  # the one checker, shared with the notebooks

TESTS = sorted(Path(__file__).parent.glob("*.py"))


def _loose_calls(source: str) -> list[tuple[int, str]]:
    lines = source.splitlines()
    return [(n, lines[n - 1].strip()) for n in _loose_tolerance_calls(source)]


def test_the_checker_flags_what_it_should():
    assert _loose_calls("np.allclose(a, b, atol=1e-12)")
    assert _loose_calls("np.testing.assert_allclose(a, b, atol=1e-9)")
    assert _loose_calls("isclose(a, b, atol=1)")
    assert not _loose_calls("np.allclose(a, b, rtol=0, atol=1e-12)")
    assert _loose_calls("np.allclose(a, b)")                # both defaults: nothing stated


@pytest.mark.parametrize("path", TESTS, ids=lambda p: p.name)
def test_every_stated_atol_comes_with_an_rtol(path):
    loose = _loose_calls(path.read_text(encoding="utf-8"))
    assert not loose, "tolerance not stated, or atol without rtol (add rtol=0, or the tolerance meant):\n" + \
        "\n".join(f"  {path.name}:{line}: {text.splitlines()[0]}" for line, text in loose)
