"""The one checker of stated tolerances, run over tests/ (test_tolerances) and the chapters (test_project)."""

from __future__ import annotations

import ast


def loose_tolerance_calls(src: str) -> list[int]:
    """Lines of allclose/isclose/assert_allclose calls whose tolerance is not the stated one.

    Two kinds: a call that passes ``atol`` but no ``rtol`` (NumPy's default rtol,
    1e-5 for allclose/isclose and 1e-7 for assert_allclose, still applies, so
    the check is looser than the atol it states), and a call that states no
    tolerance at all (the defaults decide, and no reader can tell why they fit).
    A tolerance passed by position counts as stated.
    """
    # IPython magics and shell escapes are not Python.
    src = "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                    for line in src.splitlines())
    found = []
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name not in ("allclose", "isclose", "assert_allclose"):
                continue
            keywords = {k.arg for k in node.keywords}
            atol_only = "atol" in keywords and "rtol" not in keywords
            unstated = not keywords & {"atol", "rtol"} and len(node.args) < 3
            if atol_only or unstated:
                found.append(node.lineno)
    return found
