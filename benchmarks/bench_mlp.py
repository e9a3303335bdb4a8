"""Benchmark: one training epoch of an MLP, ours vs scikit-learn's MLPClassifier.

    .venv/bin/python benchmarks/bench_mlp.py

Both train the same architecture (one hidden layer of 100 ReLU units, the
default), with the same solver (Adam, learning rate 1e-3), the same batch size
(``"auto"``, 200) and one epoch (``max_iter=1``), on two data sets: the digits
(1,797 x 64, ten classes) and 20,000 x 50 synthetic data (ten classes). A fit
of one epoch includes the initialisation and the input checks on both sides.
Writes ``book/benchmarks/mlp_epoch_digits.json`` and
``book/benchmarks/mlp_epoch_synthetic.json`` (read by the chapter "Neural
networks").
"""

from __future__ import annotations

import os

# One BLAS thread for both sides (as bench_logistic.py): on a small shared
# machine a threaded matrix product waits for busy cores, which would measure
# the load rather than the code.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import sys  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
from sklearn.datasets import make_classification  # noqa: E402
from sklearn.neural_network import MLPClassifier as SkMLP  # noqa: E402

from benchmarks._common import best_time, record  # noqa: E402
from mlbook.datasets import load_digits  # noqa: E402
from mlbook.neural_network import MLPClassifier  # noqa: E402

SETTINGS = dict(hidden_layer_sizes=(100,), activation="relu", solver="adam",
                batch_size="auto", learning_rate_init=1e-3, max_iter=1, random_state=0)


def one_epoch(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # max_iter=1 does not converge, by design
        model.fit(X, y)


def run(name: str, X: np.ndarray, y: np.ndarray, repeat: int) -> None:
    ours, theirs = MLPClassifier(**SETTINGS), SkMLP(**SETTINGS)
    t_ours = best_time(lambda: one_epoch(ours, X, y), repeat=repeat)
    t_sk = best_time(lambda: one_epoch(theirs, X, y), repeat=repeat)
    record(name, t_ours, t_sk, n_samples=int(X.shape[0]), n_features=int(X.shape[1]),
           n_classes=int(np.unique(y).size), epochs=1, batches=int(np.ceil(X.shape[0] / 200)),
           settings={k: v for k, v in SETTINGS.items() if k != "random_state"},
           ours_loss=float(ours.loss_), sklearn_loss=float(theirs.loss_),
           blas_threads=os.environ["OPENBLAS_NUM_THREADS"])


def main() -> None:
    X, y = load_digits(return_X_y=True)
    run("mlp_epoch_digits", X / 16.0, y, repeat=15)
    X, y = make_classification(n_samples=20_000, n_features=50, n_informative=30,
                               n_classes=10, random_state=0)
    run("mlp_epoch_synthetic", X, y, repeat=7)


if __name__ == "__main__":
    main()
