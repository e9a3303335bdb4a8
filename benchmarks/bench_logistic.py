"""Benchmark: l2-penalised logistic regression, Newton (ours) vs scikit-learn's lbfgs.

Run with ``.venv/bin/python benchmarks/bench_logistic.py`` (or ``make bench``);
writes ``book/benchmarks/logistic_newton.json``, which the chapter "Logistic
regression" reads.

Both solve the same strictly convex problem
:math:`\\tfrac12\\|w\\|^2 + C \\sum_i \\ell_i` and stop on the same test: the
largest absolute entry of the gradient of the mean objective is at most ``tol``
(scipy's L-BFGS-B ``gtol``, which scikit-learn sets to ``tol``).
"""

from __future__ import annotations

import os

# One BLAS thread for both sides, set before NumPy is imported (as in
# bench_lasso.py): on a small shared machine a multi-threaded BLAS call waits for
# busy cores, and scikit-learn's many small matrix-vector products suffer from it
# far more than our few large ones, so the ratio would measure the load rather
# than the algorithms.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from sklearn.linear_model import LogisticRegression as SkLogisticRegression  # noqa: E402

from _common import best_time, record  # noqa: E402
from mlbook.linear_model import LogisticRegression  # noqa: E402

N_SAMPLES, N_FEATURES, C, TOL = 50_000, 30, 1.0, 1e-6


def make_data(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Standardised, mildly correlated Gaussian features; labels drawn from a logistic model.

    The classes overlap (the data are not separable), and the features are
    standardised as they would be in practice, so neither solver is favoured
    by a badly conditioned problem.
    """
    rng = np.random.default_rng(seed)
    A = np.eye(N_FEATURES) + 0.3 * rng.normal(size=(N_FEATURES, N_FEATURES)) / np.sqrt(N_FEATURES)
    X = rng.normal(size=(N_SAMPLES, N_FEATURES)) @ A
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    w = rng.normal(size=N_FEATURES) / np.sqrt(N_FEATURES)
    p = 1.0 / (1.0 + np.exp(-(X @ w + 0.5)))
    y = (rng.random(N_SAMPLES) < p).astype(int)
    return X, y


def main() -> None:
    X, y = make_data()
    ours = LogisticRegression(solver="newton", penalty="l2", C=C, tol=TOL)
    theirs = SkLogisticRegression(C=C, solver="lbfgs", tol=TOL, max_iter=10_000)
    t_ours = best_time(lambda: ours.fit(X, y))
    t_sk = best_time(lambda: theirs.fit(X, y))
    rel = float(np.max(np.abs(ours.coef_ - theirs.coef_)) / np.max(np.abs(theirs.coef_)))
    record("logistic_newton", t_ours, t_sk, n_samples=N_SAMPLES, n_features=N_FEATURES,
           C=C, tol=TOL, ours_model="LogisticRegression(solver='newton', penalty='l2')",
           sklearn_model="LogisticRegression(solver='lbfgs')",
           ours_iterations=int(ours.n_iter_), sklearn_iterations=int(theirs.n_iter_[0]),
           max_relative_coef_difference=rel,
           blas_threads=os.environ["OPENBLAS_NUM_THREADS"])


if __name__ == "__main__":
    main()
