"""Naive Bayes against scikit-learn: GaussianNB and CategoricalNB (fit + predict_proba on
100,000 x 50), MultinomialNB and BernoulliNB (fit + predict_proba on 100,000 x 1,000 counts).

    .venv/bin/python benchmarks/bench_naive_bayes.py            # all four
    .venv/bin/python benchmarks/bench_naive_bayes.py event      # the two event models only

Both sides fit and then predict the probabilities of the training set; the
data has 3 classes (Gaussian: normal features with class-dependent means;
categorical: 5 categories per feature). Writes
book/benchmarks/naive_bayes_gaussian.json and
book/benchmarks/naive_bayes_categorical.json. The aim is a ratio of at most
1.5 for each.

The event models get sparse-looking word counts in a dense float64 array
(100,000 documents, a vocabulary of 1,000 words, 2 classes, about 99% zeros:
Poisson counts with a Zipf-like rate per word and class) and are timed by
``_common.paired_times`` (CPU time, ours and scikit-learn alternating, one BLAS
thread) on the same array; they write book/benchmarks/naive_bayes_multinomial.json
and book/benchmarks/naive_bayes_bernoulli.json. The aim is again at most 1.5.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import best_time, paired_details, paired_times, record  # noqa: E402
from mlbook import naive_bayes  # noqa: E402


def event_models(repeat: int = 5) -> None:
    from sklearn import naive_bayes as sk

    rng = np.random.default_rng(1)
    n, d, k = 100_000, 1_000, 2
    y = rng.integers(0, k, n)
    # a Zipf-like word frequency, shuffled differently per class; about 15 words per document
    base = 1.0 / np.arange(1, d + 1)
    rates = np.stack([rng.permutation(base) for _ in range(k)])
    rates *= 15.0 / rates.sum(axis=1, keepdims=True)
    X = rng.poisson(rates[y]).astype(np.float64)

    for name, ours, theirs in [
        ("naive_bayes_multinomial", naive_bayes.MultinomialNB(), sk.MultinomialNB()),
        ("naive_bayes_bernoulli", naive_bayes.BernoulliNB(), sk.BernoulliNB()),
    ]:
        t = paired_times(lambda: ours.fit(X, y).predict_proba(X),
                         lambda: theirs.fit(X, y).predict_proba(X), repeat=repeat)
        diff = float(np.abs(ours.predict_proba(X) - theirs.predict_proba(X)).max())
        jll = float(np.abs(ours.predict_joint_log_proba(X)
                           - theirs.predict_joint_log_proba(X)).max())
        record(name, t["ours"], t["sklearn"], n_samples=n, n_features=d, n_classes=k,
               fraction_of_zeros=float((X == 0).mean()), input="dense float64 counts",
               max_probability_difference=diff, max_joint_log_proba_difference=jll, aim=1.5,
               **paired_details(t, repeat))


def main() -> None:
    if sys.argv[1:] == ["event"]:
        event_models()
        return
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
    event_models()


if __name__ == "__main__":
    main()
