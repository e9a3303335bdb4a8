"""SVM benchmarks: our SMO against libsvm (through scikit-learn), and Platt vs WSS2.

    .venv/bin/python benchmarks/bench_svm.py

Writes two files:

* ``book/benchmarks/svm_rbf_smo.json``: an RBF ``SVC`` on 3,000 x 10 samples
  with the default C = 1, gamma = "scale" and tol = 1e-3 for both; times of
  the whole ``fit``. libsvm additionally shrinks the working problem, which
  our solver does not do.
* ``book/benchmarks/svm_smo_selection.json``: the same kind of problem with
  1,000 samples, solved with Platt's pair heuristics and with the second-order
  working-set selection (WSS2) of Fan, Chen and Lin; "ours" is Platt, the
  reference libsvm, and the details hold the WSS2 time, the iteration counts
  and the kernel columns each method computed.
* ``book/benchmarks/svm_rbf_svr.json``: an RBF ``SVR`` on 3,000 x 10 samples
  with the defaults C = 1, epsilon = 0.1, gamma = "scale", tol = 1e-3 for both
  (6,000 dual variables); times of the whole ``fit``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import best_time, record  # noqa: E402
from mlbook.svm import SVC, SVR, _KernelColumns, smo_solve  # noqa: E402


def make_data(n: int, d: int = 10, seed: int = 0):
    """A non-linear two-class problem with label noise (some points overlap)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    score = X[:, :3].sum(axis=1) + X[:, 3] ** 2 - 1.0 + rng.normal(size=n)
    return X, (score > 0).astype(int)


def interleaved(f_ours, f_theirs, rounds: int = 5) -> tuple[float, float]:
    """Best time of each over ``rounds`` alternating runs (same load for both)."""
    t_ours, t_sk = np.inf, np.inf
    for _ in range(rounds):
        t_ours = min(t_ours, best_time(f_ours, repeat=1, warmup=0))
        t_sk = min(t_sk, best_time(f_theirs, repeat=1, warmup=0))
    return t_ours, t_sk


def bench_rbf() -> None:
    from sklearn.svm import SVC as SkSVC

    n, d = 3000, 10
    X, y = make_data(n, d)
    ours, theirs = SVC(), SkSVC()
    ours.fit(X, y)                                   # warm up both once
    theirs.fit(X, y)
    t_ours, t_sk = interleaved(lambda: ours.fit(X, y), lambda: theirs.fit(X, y))
    diff = float(np.abs(ours.decision_function(X) - theirs.decision_function(X)).max())
    record(
        "svm_rbf_smo", t_ours, t_sk,
        n_samples=n, n_features=d, kernel="rbf", C=1.0, gamma="scale", tol=1e-3,
        ours_n_iter=int(ours.n_iter_[0]), sklearn_n_iter=int(theirs.n_iter_[0]),
        ours_n_support=int(ours.support_.shape[0]),
        sklearn_n_support=int(theirs.support_.shape[0]),
        same_support=bool(np.array_equal(ours.support_, theirs.support_)),
        max_decision_difference=diff,
    )


def bench_selection() -> None:
    from sklearn.svm import SVC as SkSVC

    n, d = 1000, 10
    X, y = make_data(n, d, seed=1)
    gamma = 1.0 / (d * X.var())
    ypm = np.where(y == 1, 1.0, -1.0)
    results = {}
    for selection in ("platt", "wss2"):
        def solve(selection=selection):
            cache = _KernelColumns(X, "rbf", {"gamma": gamma}, cache_size=200)
            return smo_solve(cache.column, cache.diag, ypm, -np.ones(n), np.ones(n),
                             tol=1e-3, selection=selection)
        res = solve()
        results[selection] = (res, best_time(solve, repeat=3, warmup=0))
    theirs = SkSVC(tol=1e-3)
    t_sk = best_time(lambda: theirs.fit(X, y), repeat=3)
    platt, t_platt = results["platt"]
    wss2, t_wss2 = results["wss2"]
    record(
        "svm_smo_selection", t_platt, t_sk,
        n_samples=n, n_features=d, kernel="rbf", C=1.0, gamma="scale", tol=1e-3,
        platt_seconds=t_platt, wss2_seconds=t_wss2,
        platt_n_iter=platt.n_iter, wss2_n_iter=wss2.n_iter,
        sklearn_n_iter=int(theirs.n_iter_[0]),
        platt_kernel_columns=platt.n_kernel_columns,
        wss2_kernel_columns=wss2.n_kernel_columns,
        platt_dual_objective=-platt.objective, wss2_dual_objective=-wss2.objective,
        platt_over_wss2_time=t_platt / t_wss2,
        platt_over_wss2_iterations=platt.n_iter / wss2.n_iter,
    )


def bench_svr() -> None:
    from sklearn.svm import SVR as SkSVR

    n, d = 3000, 10
    rng = np.random.default_rng(2)
    X = rng.normal(size=(n, d))
    y = X[:, :3].sum(axis=1) + np.sin(2 * X[:, 3]) + 0.3 * rng.normal(size=n)
    ours, theirs = SVR(), SkSVR()
    ours.fit(X, y)                                   # warm up both once
    theirs.fit(X, y)
    t_ours, t_sk = interleaved(lambda: ours.fit(X, y), lambda: theirs.fit(X, y))
    diff = float(np.abs(ours.predict(X) - theirs.predict(X)).max())
    record(
        "svm_rbf_svr", t_ours, t_sk,
        n_samples=n, n_features=d, kernel="rbf", C=1.0, epsilon=0.1, gamma="scale", tol=1e-3,
        ours_n_iter=int(ours.n_iter_), sklearn_n_iter=int(np.ravel(theirs.n_iter_)[0]),
        ours_n_support=int(ours.support_.shape[0]),
        sklearn_n_support=int(theirs.support_.shape[0]),
        same_support=bool(np.array_equal(ours.support_, theirs.support_)),
        max_prediction_difference=diff,
    )


if __name__ == "__main__":
    bench_rbf()
    bench_selection()
    bench_svr()
