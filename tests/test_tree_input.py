"""Bad and extreme input of mlbook.tree: rows of zero weight, export_text's names.

These tests belong in ``tests/test_tree.py``; they wait here while ``mlbook.tree``
becomes a package, and move there with it.
"""

from __future__ import annotations

import numpy as np
import pytest

from input_data import binary
from mlbook.tree import DecisionTreeClassifier, export_text


def test_tree_rows_of_zero_weight_do_not_move_thresholds():
    X = np.array([[0.0], [1.0], [5.0], [9.0]])
    y = np.array([0, 0, 1, 1])
    weighted = DecisionTreeClassifier().fit(X, y, sample_weight=[1, 1, 0, 1])
    dropped = DecisionTreeClassifier().fit(X[[0, 1, 3]], y[[0, 1, 3]])
    # guards against: threshold 3 (midpoint of 1 and the weightless 5) instead of 5
    assert export_text(weighted) == export_text(dropped) == "x0 <= 5: 0\nx0 > 5: 1"
    grid = np.linspace(-1, 10, 45)[:, None]
    np.testing.assert_array_equal(weighted.predict(grid), dropped.predict(grid))


def test_best_threshold_ignores_weightless_values():
    from mlbook.tree import best_threshold

    x = np.array([0.0, 1.0, 5.0, 9.0])
    y = np.array([0, 0, 1, 1])
    t, gain = best_threshold(x, y, sample_weight=[1, 1, 0, 1])
    t_ref, gain_ref = best_threshold(x[[0, 1, 3]], y[[0, 1, 3]])
    assert (t, gain) == (t_ref, gain_ref) == (5.0, gain_ref)


def test_tree_zero_weights_equal_dropping_rows_on_random_data():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=80) > 0).astype(int)
    w = rng.integers(0, 3, size=80).astype(float)          # a third of the rows weigh 0
    keep = w > 0
    a = DecisionTreeClassifier(max_depth=4).fit(X, y, sample_weight=w)
    b = DecisionTreeClassifier(max_depth=4).fit(X[keep], y[keep], sample_weight=w[keep])
    Xt = rng.normal(size=(300, 3))
    np.testing.assert_array_equal(a.predict_proba(Xt), b.predict_proba(Xt))


def test_tree_all_weight_on_one_class_is_an_error():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    with pytest.raises(ValueError, match="two classes with positive weight"):
        DecisionTreeClassifier().fit(X, [0, 0, 1, 1], sample_weight=[1, 1, 0, 0])
    with pytest.raises(ValueError, match="weight.*zero"):
        DecisionTreeClassifier().fit(X, [0, 0, 1, 1], sample_weight=[0, 0, 0, 0])


def test_export_text_checks_the_names():
    # guards against: IndexError: list index out of range
    X, y = binary(40, 3)
    tree = DecisionTreeClassifier(max_depth=2).fit(X, y)
    with pytest.raises(ValueError, match="feature_names has 1 name.*fitted with 3 features"):
        export_text(tree, feature_names=["a"])
    with pytest.raises(ValueError, match="class_names has 3 name.*2 classes"):
        export_text(tree, class_names=["a", "b", "c"])

