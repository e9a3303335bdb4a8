"""Gradient boosting against scikit-learn, in the same run.

    .venv/bin/python benchmarks/bench_gradient_boosting.py

GradientBoostingClassifier with its defaults (log-loss, 100 stages of depth-3
trees, learning rate 0.1, no subsampling) on 20,000 x 10 samples of
``make_classification`` with two classes (aim: at most 2 x scikit-learn's
time). Both fit the same model: the training deviance and accuracy of the two
are recorded beside the times. Writes book/benchmarks/gradient_boosting.json.

Timed by ``_common.paired_times``: CPU time of the process, ours and
scikit-learn alternating so both see the same load, one BLAS/OpenMP thread,
median of 5 (the best and the median paired ratios are recorded beside it). Wall-clock
times moved about twofold with the load of the shared machine, ours far more
than scikit-learn's: a fit of ours takes ~230,000 minor page faults (fresh
temporaries every level of every tree, which the kernel zeroes), scikit-learn's
none.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import paired_details, paired_times, record  # noqa: E402
from mlbook.ensemble import GradientBoostingClassifier  # noqa: E402

N_SAMPLES, N_FEATURES, N_ESTIMATORS, MAX_DEPTH = 20_000, 10, 100, 3
REPEAT = 5             # runs of each library, alternating (see benchmarks/_common.py)


def main() -> None:
    from sklearn.datasets import make_classification
    from sklearn.ensemble import GradientBoostingClassifier as SkGB

    X, y = make_classification(n_samples=N_SAMPLES + 5_000, n_features=N_FEATURES,
                               n_informative=6, n_redundant=2, random_state=0)
    X, Xt, y, yt = X[:N_SAMPLES], X[N_SAMPLES:], y[:N_SAMPLES], y[N_SAMPLES:]
    ours = GradientBoostingClassifier(n_estimators=N_ESTIMATORS, max_depth=MAX_DEPTH)
    theirs = SkGB(n_estimators=N_ESTIMATORS, max_depth=MAX_DEPTH, random_state=0)
    t = paired_times(lambda: ours.fit(X, y), lambda: theirs.fit(X, y), repeat=REPEAT,
                     warmup=0)
    record("gradient_boosting", t["ours"], t["sklearn"], **paired_details(t, REPEAT),
           n_samples=N_SAMPLES, n_features=N_FEATURES, n_estimators=N_ESTIMATORS,
           max_depth=MAX_DEPTH, loss="log_loss",
           ours_train_deviance=float(ours.train_score_[-1]),
           sklearn_train_deviance=float(theirs.train_score_[-1]),
           ours_train_accuracy=float(ours.score(X, y)),
           sklearn_train_accuracy=float(theirs.score(X, y)),
           ours_test_accuracy=float(ours.score(Xt, yt)),
           sklearn_test_accuracy=float(theirs.score(Xt, yt)),
           max_probability_difference=float(np.abs(ours.predict_proba(Xt)
                                                   - theirs.predict_proba(Xt)).max()),
           aim=2.0)


if __name__ == "__main__":
    main()
