"""The tolerances of the test suite are the ones it states.

``np.allclose(a, b, atol=1e-12)`` still carries NumPy's default ``rtol=1e-5``
(``assert_allclose``: ``1e-7``), so the check is far looser than its comment
says wherever ``|b|`` is not small. Every call that states ``atol`` must state
``rtol`` too (``rtol=0`` when the absolute tolerance is the real one).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = sorted(Path(__file__).parent.glob("*.py"))
CLOSE = {"allclose", "isclose", "assert_allclose"}


def _loose_calls(source: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            keywords = {k.arg for k in node.keywords}
            if name in CLOSE and "atol" in keywords and "rtol" not in keywords:
                found.append((node.lineno, ast.get_source_segment(source, node) or name))
    return found


def test_the_checker_flags_what_it_should():
    assert _loose_calls("np.allclose(a, b, atol=1e-12)")
    assert _loose_calls("np.testing.assert_allclose(a, b, atol=1e-9)")
    assert _loose_calls("isclose(a, b, atol=1)")
    assert not _loose_calls("np.allclose(a, b, rtol=0, atol=1e-12)")
    assert not _loose_calls("np.allclose(a, b)")            # both defaults, stated by omission


@pytest.mark.parametrize("path", TESTS, ids=lambda p: p.name)
def test_every_stated_atol_comes_with_an_rtol(path):
    loose = _loose_calls(path.read_text(encoding="utf-8"))
    assert not loose, "atol without rtol (add rtol=0, or the relative tolerance meant):\n" + \
        "\n".join(f"  {path.name}:{line}: {text.splitlines()[0]}" for line, text in loose)
