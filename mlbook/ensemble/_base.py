"""Helpers the ensembles share: labels, counts, the sort-once shortcut, member seeds."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._validation import (check_classification_targets, check_consistent_length, check_scalar,
                           column_or_1d, encode_labels)
from ..tree import DecisionTreeClassifier, LevelwiseGrower


def _fit_classes(y: Any, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    y = column_or_1d(y, "y", warn=True)    # a column vector is flattened, with a warning
    check_consistent_length(X, y, names=["X", "y"])
    classes = check_classification_targets(y)
    return classes, encode_labels(y, classes)[1]


def _check_n_estimators(n_estimators: Any) -> int:
    return int(check_scalar(n_estimators, "n_estimators", numbers.Integral, min_val=1))


def _sorted_once(base: Any, X: np.ndarray, yk: np.ndarray,
                 classes: np.ndarray) -> LevelwiseGrower | None:
    """X's columns sorted once for all the members, if the base learner is a tree the
    level-wise grower fits (whose ``fit`` would sort them again for every member); not
    for a subclass, whose ``fit`` may do something else."""
    if type(base) is DecisionTreeClassifier and LevelwiseGrower.applies(base):
        return LevelwiseGrower(X, yk, classes)
    return None


def _seed_random_states(estimator: Any, rng: np.random.Generator) -> None:
    """Give every ``random_state`` parameter of ``estimator``, nested ones too, its own
    int drawn from ``rng``, in the sorted order of the parameter names.

    scikit-learn's ``_set_random_states``: a member's randomness (a tree's drawn
    attributes, a random projection inside a pipeline) then follows the
    ensemble's ``random_state`` alone, so two fits with the same seed agree.
    """
    keys = [key for key in sorted(estimator.get_params(deep=True))
            if key == "random_state" or key.endswith("__random_state")]
    if keys:
        estimator.set_params(**{key: int(rng.integers(np.iinfo(np.int32).max))
                                for key in keys})
