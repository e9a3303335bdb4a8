"""The shared input checks: each bad input gets a message naming the argument."""

import numpy as np
import pytest

from mlbook._validation import (
    NotFittedError,
    check_array,
    check_classification_targets,
    check_consistent_length,
    check_is_fitted,
    check_probabilities,
    check_random_state,
    check_sample_weight,
    check_scalar,
    check_X_y,
    column_or_1d,
)


@pytest.mark.parametrize(
    "X, match",
    [
        (None, "X must be an array-like, got None"),
        ("abc", "X must be an array-like of numbers"),
        ([[1, "a"]], "X must contain numbers only"),
        ([1.0, 2.0], "X must be a 2-d array"),
        (np.empty((0, 3)), "at least 1 sample"),
        ([[1.0, np.nan]], "X contains NaN"),
        ([[1.0, np.inf]], "X contains infinity"),
    ],
)
def test_check_array_rejects(X, match):
    with pytest.raises((ValueError, TypeError), match=match):
        check_array(X)


def test_check_array_allows_nan_when_asked_and_keeps_objects():
    assert np.isnan(check_array([[np.nan, 1.0]], allow_nan=True)).sum() == 1
    mixed = check_array([["a", 1.0]], dtype=None)
    assert mixed.dtype == object or mixed.dtype.kind == "U"


def test_lengths_and_1d():
    with pytest.raises(ValueError, match="X and y have different lengths: 3 and 2"):
        check_X_y(np.ones((3, 2)), [0, 1])
    with pytest.raises(ValueError, match="y must be a 1-d array"):
        column_or_1d(np.ones((2, 2)))
    with pytest.raises(ValueError, match="y is empty"):
        column_or_1d([])
    check_consistent_length([1], None, [2])  # None is skipped


def test_check_scalar():
    assert check_scalar(1, "n", int, min_val=1) == 1
    with pytest.raises(TypeError, match="C must be of type Real"):
        check_scalar("1", "C")
    with pytest.raises(ValueError, match="C must be > 0"):
        check_scalar(0.0, "C", min_val=0.0, include_min=False)
    with pytest.raises(TypeError, match="must be a number, got a bool"):
        check_scalar(True, "alpha")


def test_fitted_targets_weights_probabilities():
    class E:
        pass

    with pytest.raises(NotFittedError, match="not fitted yet"):
        check_is_fitted(E(), "coef_")
    with pytest.raises(ValueError, match="single class"):
        check_classification_targets(np.array([1, 1, 1]))
    with pytest.raises(ValueError, match="exactly 2 classes"):
        check_classification_targets(np.array([0, 1, 2]), n_classes=2)
    with pytest.raises(ValueError, match="looks continuous"):
        check_classification_targets(np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match="non-negative"):
        check_sample_weight([1, -1], 2)
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        check_probabilities([0.2, 1.5])


def test_random_state_is_local_and_reproducible():
    before = np.random.get_state()[1].copy()
    a = check_random_state(42).random(3)
    b = check_random_state(42).random(3)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(np.random.get_state()[1], before)
    with pytest.raises(TypeError, match="random_state must be"):
        check_random_state("seed")
