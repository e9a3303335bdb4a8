"""Benchmark: a full-depth Gini tree on 20,000 x 10 numeric samples, ours vs scikit-learn.

    .venv/bin/python benchmarks/bench_tree.py

Both fit the same data with the same settings (Gini, no depth limit,
min_samples_split=2); ours takes the level-wise fast path (every feature
sorted once, all thresholds of all nodes of a level scored in one array
operation). Writes ``book/benchmarks/tree_gini_fit.json`` (read by the chapter
"Decision trees").
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sklearn.datasets import make_classification  # noqa: E402
from sklearn.tree import DecisionTreeClassifier as SkTree  # noqa: E402

from benchmarks._common import best_time, record  # noqa: E402
from mlbook.tree import DecisionTreeClassifier  # noqa: E402

N_SAMPLES, N_FEATURES = 20_000, 10


def main() -> None:
    X, y = make_classification(n_samples=N_SAMPLES, n_features=N_FEATURES, n_informative=6,
                               n_redundant=2, flip_y=0.05, random_state=0)
    ours = DecisionTreeClassifier(criterion="gini")
    theirs = SkTree(criterion="gini", random_state=0)
    t_ours = best_time(lambda: ours.fit(X, y), repeat=5)
    t_sk = best_time(lambda: theirs.fit(X, y), repeat=5)
    record("tree_gini_fit", t_ours, t_sk,
           n_samples=N_SAMPLES, n_features=N_FEATURES, criterion="gini", max_depth=None,
           ours_leaves=int(ours.get_n_leaves()), sklearn_leaves=int(theirs.get_n_leaves()),
           ours_depth=int(ours.get_depth()), sklearn_depth=int(theirs.get_depth()))


if __name__ == "__main__":
    main()
