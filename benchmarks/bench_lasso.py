"""LASSO by coordinate descent: mlbook.linear_model.Lasso against scikit-learn's Lasso.

    .venv/bin/python benchmarks/bench_lasso.py

A 5,000 x 100 regression problem with 20 informative features out of 100,
the same alpha and tol for both, times of the whole ``fit`` (ours includes
computing the Gram matrix X^T X once). Writes book/benchmarks/lasso_cd.json.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# One BLAS thread for both sides, set before NumPy is imported: on a small shared
# machine a multi-threaded BLAS call (scikit-learn makes several per fit) waits for
# busy cores and makes the timing depend on the load more than on the algorithm.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import best_time, record  # noqa: E402
from mlbook.linear_model import Lasso  # noqa: E402


def main() -> None:
    from sklearn.linear_model import Lasso as SkLasso

    rng = np.random.default_rng(0)
    m, d, informative = 5000, 100, 20
    X = rng.normal(size=(m, d))
    w_true = np.zeros(d)
    w_true[rng.choice(d, informative, replace=False)] = rng.normal(scale=2.0, size=informative)
    y = X @ w_true + 1.0 + rng.normal(size=m)
    alpha, tol, max_iter = 0.05, 1e-6, 10_000

    ours = Lasso(alpha=alpha, tol=tol, max_iter=max_iter)
    theirs = SkLasso(alpha=alpha, tol=tol, max_iter=max_iter)
    ours.fit(X, y)                                   # warm up both once
    theirs.fit(X, y)
    # Interleave the two (one call of each per round, best of each over the rounds) so
    # that both see the same load on a shared machine; best_time per round.
    t_ours, t_sk = np.inf, np.inf
    for _ in range(25):
        t_ours = min(t_ours, best_time(lambda: ours.fit(X, y), repeat=1, warmup=0))
        t_sk = min(t_sk, best_time(lambda: theirs.fit(X, y), repeat=1, warmup=0))
    diff = float(np.abs(ours.coef_ - theirs.coef_).max())
    record(
        "lasso_cd", t_ours, t_sk,
        n_samples=m, n_features=d, informative=informative, alpha=alpha, tol=tol,
        ours_n_iter=int(ours.n_iter_), sklearn_n_iter=int(theirs.n_iter_),
        nonzero=int(np.count_nonzero(ours.coef_)), max_coef_difference=diff,
        blas_threads=os.environ["OPENBLAS_NUM_THREADS"], timing="best of 25 interleaved rounds",
    )


if __name__ == "__main__":
    main()
