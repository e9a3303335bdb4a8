"""ROC curve and confusion matrix: mlbook.metrics against sklearn.metrics.

    .venv/bin/python benchmarks/bench_metrics.py

Both curves come from one sort of the scores and cumulative sums, the
confusion matrix from one ``np.bincount``; the benchmark checks that the
approach costs no more than scikit-learn's. Data: 200,000 samples, scores
rounded to 3 decimals (so there are ties), 5 classes for the confusion
matrix. Writes book/benchmarks/roc_curve.json and
book/benchmarks/confusion_matrix.json.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import best_time, record  # noqa: E402
from mlbook import metrics  # noqa: E402


def main() -> None:
    from sklearn import metrics as skm

    rng = np.random.default_rng(0)
    n = 200_000
    y = rng.integers(0, 2, n)
    score = np.round(rng.normal(size=n) + y, 3)
    t_ours = best_time(lambda: metrics.roc_curve(y, score), repeat=7)
    t_sk = best_time(lambda: skm.roc_curve(y, score), repeat=7)
    ours, theirs = metrics.roc_curve(y, score), skm.roc_curve(y, score)
    diff = max(float(np.abs(a[1:] - b[1:]).max()) for a, b in zip(ours, theirs))
    record("roc_curve", t_ours, t_sk, n_samples=n, n_thresholds=int(ours[0].shape[0]),
           max_difference=diff)

    k = 5
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, k, n))
    t_ours = best_time(lambda: metrics.confusion_matrix(y_true, y_pred), repeat=7)
    t_sk = best_time(lambda: skm.confusion_matrix(y_true, y_pred), repeat=7)
    same = bool(np.array_equal(metrics.confusion_matrix(y_true, y_pred),
                               skm.confusion_matrix(y_true, y_pred)))
    record("confusion_matrix", t_ours, t_sk, n_samples=n, n_classes=k, identical=same)


if __name__ == "__main__":
    main()
