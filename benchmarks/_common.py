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


def paired_times(ours: Callable[[], Any], theirs: Callable[[], Any], repeat: int = 5,
                 warmup: int = 1) -> dict:
    """Time ``ours()`` and ``theirs()`` in the same conditions: alternately (ours,
    theirs, ours, ...), so both see the same load of the machine, with BLAS and
    OpenMP limited to one thread (threadpoolctl), after ``warmup`` runs of each.

    The CPU time of the process (``time.process_time``: user + system) is the
    measure: the wall-clock time of a run also counts the time the process waits
    for a core, which on a shared machine grows with the load of others. Returns
    the per-run lists and the summary the JSON records: the median CPU time of
    each (``ours``, ``sklearn``; their ratio is the one reported), the ratio of
    the best times and the median of the ratios of the runs paired in time, the
    wall-clock times, the minor page faults per run (fresh memory the kernel
    zeroes), and the load average before and after.

    The median, not the best: even in CPU time ours varies with the load of
    the machine (its level-wise arrays, megabytes per level, stream through the
    caches and memory that the other processes share, and every stall counts as
    CPU time) while scikit-learn's compact loops do not; the best run of ours is
    the rare one nobody disturbed, and the ratio of the best times moves with
    how lucky that one run was.
    """
    import resource
    import statistics

    from threadpoolctl import threadpool_limits

    def one(fn):
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        c, w = time.process_time() - c0, time.perf_counter() - w0
        return c, w, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - r0.ru_minflt

    load_before = os.getloadavg()
    with threadpool_limits(limits=1):
        for _ in range(warmup):
            ours()
            theirs()
        runs = [(one(ours), one(theirs)) for _ in range(repeat)]
    out = {"ours_cpu": [a[0] for a, _ in runs], "sklearn_cpu": [b[0] for _, b in runs],
           "ours_wall": [a[1] for a, _ in runs], "sklearn_wall": [b[1] for _, b in runs],
           "ours_page_faults": [a[2] for a, _ in runs],
           "sklearn_page_faults": [b[2] for _, b in runs]}
    out["ours"] = statistics.median(out["ours_cpu"])
    out["sklearn"] = statistics.median(out["sklearn_cpu"])
    out["best_ratio"] = min(out["ours_cpu"]) / min(out["sklearn_cpu"])
    out["median_paired_ratio"] = statistics.median(
        a / b for a, b in zip(out["ours_cpu"], out["sklearn_cpu"]))
    out["load_average_before"] = [round(x, 2) for x in load_before]
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return out


def paired_details(t: dict, repeat: int) -> dict:
    """The timing details :func:`paired_times` measured, for :func:`record`."""
    return {
        "timing": (f"CPU time of the process (user + system), median of {repeat} runs of "
                   "each, ours and scikit-learn alternating, BLAS/OpenMP limited to one "
                   "thread; ratio = median ours / median scikit-learn"),
        "best_ratio": t["best_ratio"],
        "median_paired_ratio": t["median_paired_ratio"],
        "ours_cpu_seconds": t["ours_cpu"], "sklearn_cpu_seconds": t["sklearn_cpu"],
        "ours_wall_seconds": t["ours_wall"], "sklearn_wall_seconds": t["sklearn_wall"],
        "ours_minor_page_faults": t["ours_page_faults"],
        "sklearn_minor_page_faults": t["sklearn_page_faults"],
        "load_average_before": t["load_average_before"],
        "load_average_after": t["load_average_after"],
    }


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
