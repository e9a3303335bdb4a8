"""Shared helpers of the benchmarks (run with `make bench`, never by `pytest`).

A benchmark times mlbook and scikit-learn on the same data in the same run and
records the *ratio* (ours / scikit-learn), which moves far less between
machines than either absolute time. Results go to ``book/benchmarks/NAME.json``;
the chapters read that file and report the ratio, so the number in the book is
the one the benchmark computed.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

RESULTS = Path(__file__).resolve().parent.parent / "book" / "benchmarks"


def best_time(fn: Callable[[], Any], repeat: int = 5, warmup: int = 1) -> float:
    """Best wall-clock time of ``fn()`` over ``repeat`` runs, after ``warmup`` runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def record(name: str, ours: float, sklearn: float, **details: Any) -> dict:
    """Write ``book/benchmarks/NAME.json`` with both times, the ratio and the setting."""
    import sklearn as sk

    result = {
        "name": name,
        "ours_seconds": ours,
        "sklearn_seconds": sklearn,
        "ratio": ours / sklearn,
        "details": details,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "sklearn": sk.__version__,
        },
        "date": datetime.date.today().isoformat(),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"{name}: ours {ours:.4f} s, scikit-learn {sklearn:.4f} s, ratio {result['ratio']:.2f}")
    return result


def record_against(name: str, ours: float, reference: float | None, reference_name: str,
                   reference_version: str | None = None, **details: Any) -> dict:
    """Like :func:`record`, against a reference other than scikit-learn (e.g. PyTorch).

    ``reference`` may be None when the reference is not installed: the file then
    holds our time only and ``ratio`` is None.
    """
    result = {
        "name": name,
        "ours_seconds": ours,
        "reference": reference_name,
        "reference_seconds": reference,
        "ratio": None if reference is None else ours / reference,
        "details": details,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            reference_name: reference_version,
        },
        "date": datetime.date.today().isoformat(),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    if reference is None:
        print(f"{name}: ours {ours:.4g} s ({reference_name} not installed)")
    else:
        print(f"{name}: ours {ours:.4g} s, {reference_name} {reference:.4g} s, "
              f"ratio {result['ratio']:.2f}")
    return result
