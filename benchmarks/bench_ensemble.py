"""AdaBoost with stumps and a random forest against scikit-learn, in the same run.

    .venv/bin/python benchmarks/bench_ensemble.py

Data: 20,000 x 10 standard normal features, labels from a noisy non-linear
rule. AdaBoostClassifier: 200 SAMME rounds of depth-1 Gini stumps (aim: at
most 2 x scikit-learn's time). RandomForestClassifier: 100 full-depth trees,
max_features="sqrt", bootstrap, one job on both sides (aim: at most 3 x).
Writes book/benchmarks/adaboost_stumps.json and book/benchmarks/random_forest.json.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import best_time, record  # noqa: E402
from mlbook import ensemble  # noqa: E402


def main() -> None:
    from sklearn import ensemble as sk

    rng = np.random.default_rng(0)
    n, d = 20_000, 10
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=n) > 0).astype(int)
    Xt = rng.normal(size=(5_000, d))
    yt = (Xt[:, 0] + Xt[:, 1] * Xt[:, 2] + rng.normal(size=5_000) > 0).astype(int)

    ours = ensemble.AdaBoostClassifier(n_estimators=200)
    ref = sk.AdaBoostClassifier(n_estimators=200)
    t_ours = best_time(lambda: ours.fit(X, y), repeat=3, warmup=0)
    t_sk = best_time(lambda: ref.fit(X, y), repeat=3, warmup=0)
    same = bool(np.array_equal(ours.predict(Xt), ref.predict(Xt)))
    record("adaboost_stumps", t_ours, t_sk, n_samples=n, n_features=d, n_estimators=200,
           same_predictions=same, max_weight_difference=float(np.abs(
               ours.estimator_weights_ - ref.estimator_weights_).max()), aim=2.0)

    ours = ensemble.RandomForestClassifier(n_estimators=100, random_state=0)
    ref = sk.RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=1)
    t_ours = best_time(lambda: ours.fit(X, y), repeat=3, warmup=0)
    t_sk = best_time(lambda: ref.fit(X, y), repeat=3, warmup=0)
    record("random_forest", t_ours, t_sk, n_samples=n, n_features=d, n_estimators=100,
           ours_test_accuracy=float(ours.score(Xt, yt)),
           sklearn_test_accuracy=float(ref.score(Xt, yt)), aim=3.0)


if __name__ == "__main__":
    main()
