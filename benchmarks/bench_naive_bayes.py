"""GaussianNB and CategoricalNB: fit + predict_proba on 100,000 x 50, against scikit-learn.

    .venv/bin/python benchmarks/bench_naive_bayes.py

Both sides fit and then predict the probabilities of the training set; the
data has 3 classes (Gaussian: normal features with class-dependent means;
categorical: 5 categories per feature). Writes
book/benchmarks/naive_bayes_gaussian.json and
book/benchmarks/naive_bayes_categorical.json. The aim is a ratio of at most
1.5 for each.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import best_time, record  # noqa: E402
from mlbook import naive_bayes  # noqa: E402


def main() -> None:
    from sklearn import naive_bayes as sk

    rng = np.random.default_rng(0)
    n, d, k = 100_000, 50, 3
    y = rng.integers(0, k, n)
    Xg = rng.normal(size=(n, d)) + y[:, None] * rng.normal(size=d)
    Xc = np.minimum(rng.poisson(1.0 + y[:, None], size=(n, d)), 4)

    def run(est, X):
        return lambda: est.fit(X, y).predict_proba(X)

    for name, ours, theirs, X in [
        ("naive_bayes_gaussian", naive_bayes.GaussianNB(), sk.GaussianNB(), Xg),
        ("naive_bayes_categorical", naive_bayes.CategoricalNB(), sk.CategoricalNB(), Xc),
    ]:
        t_ours = best_time(run(ours, X), repeat=5)
        t_sk = best_time(run(theirs, X), repeat=5)
        diff = float(np.abs(ours.predict_proba(X) - theirs.predict_proba(X)).max())
        record(name, t_ours, t_sk, n_samples=n, n_features=d, n_classes=k,
               max_probability_difference=diff, aim=1.5)


if __name__ == "__main__":
    main()
