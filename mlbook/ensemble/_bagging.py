"""Bagging and random forests: the chapter "Bagging, random forests and combining learners"."""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from .._validation import check_array, check_bool, check_predict_X, check_random_state
from ..base import BaseEstimator, ClassifierMixin, clone
from ..tree import DecisionTreeClassifier, tree_feature_importances
from ._base import _check_n_estimators, _fit_classes, _seed_random_states, _sorted_once


# --- bagging and random forests --------------------------------------------------

def _resolve_count(value: Any, name: str, n: int) -> int:
    """An int in [1, n], or a float fraction in (0, 1] of n (at least 1)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be an int or a float; got {value!r}")
    if isinstance(value, numbers.Integral):
        if not 1 <= value <= n:
            raise ValueError(f"{name} must lie in [1, {n}] as an int; got {value}")
        return int(value)
    if not 0.0 < value <= 1.0:
        raise ValueError(f"{name} must lie in (0, 1] as a float; got {value}")
    return max(1, int(value * n))


class _BaseBagging(ClassifierMixin, BaseEstimator):
    """Bootstrap samples, soft voting and out-of-bag estimates shared by both ensembles."""

    def _fit_bagged(self, X, yk, base, n_estimators, n_samples_draw, n_features_draw,
                    bootstrap, rng, as_weights: bool = False) -> None:
        """Fit the members. ``as_weights``: give each member the distinct rows of its
        sample with their multiplicities as sample weights (the same tree as the
        repeated rows, on about 63 % of the rows) instead of the repeated rows."""
        n, d = X.shape
        self.estimators_, self.estimators_samples_, self.estimators_features_ = [], [], []
        y_lab = self.classes_[yk]
        K = self.classes_.shape[0]
        grower = (_sorted_once(base, X, yk, self.classes_)
                  if as_weights and n_features_draw == d else None)
        if grower is not None:
            grower.check(base)               # the trees' parameters, once before the long loop
        for _ in range(n_estimators):
            rows = (rng.integers(0, n, n_samples_draw) if bootstrap
                    else rng.permutation(n)[:n_samples_draw])
            cols = (np.arange(d) if n_features_draw == d
                    else np.sort(rng.permutation(d)[:n_features_draw]))
            h = clone(base)
            _seed_random_states(h, rng)
            n_classes = np.unique(yk[rows]).shape[0]        # classes in the sample
            if n_classes < 2:
                # a sample of one class: the learner cannot fit, it predicts that class
                h = _Constant(y_lab[rows[0]])
            elif as_weights:
                distinct, mult = np.unique(rows, return_counts=True)
                if grower is not None and n_classes == K:
                    keep = np.zeros(n, dtype=bool)            # the tree fit(X[distinct], ...) grows
                    keep[distinct] = True
                    weight = np.zeros(n)
                    weight[distinct] = mult
                    grower.fit(h, weight, rows=keep)
                else:
                    h.fit(X[np.ix_(distinct, cols)], y_lab[distinct],
                          sample_weight=mult.astype(np.float64))
            else:
                h.fit(X[np.ix_(rows, cols)], y_lab[rows])
            self.estimators_.append(h)
            self.estimators_samples_.append(rows)
            self.estimators_features_.append(cols)

    def _member_proba(self, h, X: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """A member's class probabilities in the columns of ``classes_`` (it may lack some)."""
        p = h.predict_proba(X[:, cols])
        out = np.zeros((X.shape[0], self.classes_.shape[0]))
        out[:, np.searchsorted(self.classes_, h.classes_)] = p
        return out

    def _oob(self, X: np.ndarray, yk: np.ndarray) -> None:
        n, K = X.shape[0], self.classes_.shape[0]
        votes = np.zeros((n, K))
        for h, rows, cols in zip(self.estimators_, self.estimators_samples_,
                                 self.estimators_features_):
            out = np.ones(n, dtype=bool)
            out[rows] = False                                   # not in this bootstrap sample
            if out.any():
                votes[out] += self._member_proba(h, X[out], cols)
        counted = votes.sum(axis=1) > 0
        if not counted.all():
            warnings.warn(f"{int((~counted).sum())} samples were in every bootstrap sample and "
                          "have no out-of-bag estimate; use more estimators", UserWarning,
                          stacklevel=3)
        with np.errstate(invalid="ignore"):
            self.oob_decision_function_ = votes / votes.sum(axis=1, keepdims=True)
        self.oob_score_ = float(np.mean(np.argmax(votes[counted], axis=1) == yk[counted]))

    def predict_proba(self, X: Any) -> np.ndarray:
        """The mean of the members' class probabilities (soft voting).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        X = check_predict_X(self, X, "estimators_")
        total = np.zeros((X.shape[0], self.classes_.shape[0]))
        for h, cols in zip(self.estimators_, self.estimators_features_):
            total += self._member_proba(h, X, cols)
        return total / len(self.estimators_)

    def predict(self, X: Any) -> np.ndarray:
        """The class of largest mean probability.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        proba = self.predict_proba(X)          # checks that the ensemble is fitted
        return self.classes_[np.argmax(proba, axis=1)]


class _Constant:
    """A member fitted on a bootstrap sample of one class: it predicts that class."""

    def __init__(self, label):
        self.classes_ = np.array([label])
        self._label = label

    def predict_proba(self, X):
        return np.ones((X.shape[0], 1))

    def predict(self, X):
        return np.full(X.shape[0], self._label)


class BaggingClassifier(_BaseBagging):
    r"""Bagging: base learners on bootstrap samples, averaged.

    Parameters
    ----------
    estimator : classifier or None, default=None
        Cloned for every member. None: a full-depth
        ``DecisionTreeClassifier(criterion="gini")``.
    n_estimators : int >= 1, default=10
    max_samples : int or float, default=1.0
        Samples drawn for each member: an int in [1, n], or a fraction in (0, 1].
    max_features : int or float, default=1.0
        Attributes drawn (without replacement) for each member, likewise.
    bootstrap : bool, default=True
        Draw samples with replacement (the bootstrap); False draws without.
    oob_score : bool, default=False
        Estimate the accuracy from the out-of-bag samples (needs ``bootstrap``).
    random_state : None, int or Generator, default=None
        Draws the samples and attributes and seeds the members: every
        ``random_state`` parameter of a member, nested ones too (a pipeline's
        steps), gets an int drawn from it.

    Attributes
    ----------
    estimators_ : list of fitted classifiers
    estimators_samples_ : list of ndarray
        The (repeated) row indices each member was fitted on.
    estimators_features_ : list of ndarray
        The columns each member saw.
    oob_score_ : float
        Accuracy of the out-of-bag vote (with ``oob_score=True``).
    oob_decision_function_ : ndarray of shape (n_samples, n_classes)
        Mean probabilities of the members that did not see each sample
        (NaN for a sample every member saw).
    classes_, n_features_in_

    Notes
    -----
    A bootstrap sample of size :math:`m` misses a given sample with probability
    :math:`(1 - 1/m)^m \to e^{-1} \approx 0.368`, so each member leaves about
    36.8 % of the data out of bag.
    """

    def __init__(self, estimator: Any = None, n_estimators: int = 10,
                 max_samples: int | float = 1.0, max_features: int | float = 1.0,
                 bootstrap: bool = True, oob_score: bool = False,
                 random_state: Any = None) -> None:
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.random_state = random_state

    def fit(self, X: Any, y: Any) -> "BaggingClassifier":
        """Fit ``n_estimators`` members on bootstrap samples.

        Returns
        -------
        self
        """
        T = _check_n_estimators(self.n_estimators)
        _check_flags(self.bootstrap, self.oob_score)
        base = (DecisionTreeClassifier(criterion="gini") if self.estimator is None
                else self.estimator)
        if not (hasattr(base, "fit") and hasattr(base, "predict_proba")):
            raise TypeError(f"estimator must be a classifier with fit and predict_proba; got "
                            f"{base!r}")
        X = check_array(X, "X")
        self.classes_, yk = _fit_classes(y, X)
        self.n_features_in_ = X.shape[1]
        n_s = _resolve_count(self.max_samples, "max_samples", X.shape[0])
        n_f = _resolve_count(self.max_features, "max_features", X.shape[1])
        self._fit_bagged(X, yk, base, T, n_s, n_f, self.bootstrap,
                         check_random_state(self.random_state))
        if self.oob_score:
            self._oob(X, yk)
        return self


def _check_flags(bootstrap: Any, oob_score: Any) -> None:
    check_bool(bootstrap, "bootstrap")
    check_bool(oob_score, "oob_score")
    if oob_score and not bootstrap:
        raise ValueError("oob_score=True needs bootstrap=True: without the bootstrap no "
                         "sample is left out of bag")


class RandomForestClassifier(_BaseBagging):
    r"""A random forest: bagged trees that draw random attributes at every node.

    Parameters
    ----------
    n_estimators : int >= 1, default=100
    criterion : {"gini", "entropy"}, default="gini"
    max_depth : int or None, default=None
    min_samples_leaf : int >= 1, default=1
    max_features : int, float, "sqrt", "log2" or None, default="sqrt"
        Attributes drawn at each node (see ``DecisionTreeClassifier``).
    bootstrap : bool, default=True
    oob_score : bool, default=False
    random_state : None, int or Generator, default=None

    Attributes
    ----------
    estimators_ : list of DecisionTreeClassifier
    estimators_samples_ : list of ndarray
    feature_importances_ : ndarray of shape (n_features,)
        Mean over the trees of :func:`~mlbook.tree.tree_feature_importances`, normalised
        to sum to 1.
    oob_score_, oob_decision_function_ : as in BaggingClassifier
    classes_, n_features_in_

    Notes
    -----
    Each tree is fitted on the distinct rows of its bootstrap sample, weighted
    by how often each was drawn (the same tree as the repeated rows, as in
    scikit-learn; ``min_samples_leaf`` counts distinct rows). The columns of
    ``X`` are sorted once for the whole forest; a tree's order is that order
    without its out-of-bag rows, so no tree sorts again. The random
    numbers differ from scikit-learn's, so the two forests are equal in
    distribution only.
    """

    def __init__(self, n_estimators: int = 100, criterion: str = "gini",
                 max_depth: int | None = None, min_samples_leaf: int = 1,
                 max_features: int | float | str | None = "sqrt", bootstrap: bool = True,
                 oob_score: bool = False, random_state: Any = None) -> None:
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.random_state = random_state

    def fit(self, X: Any, y: Any) -> "RandomForestClassifier":
        """Grow ``n_estimators`` randomised trees on bootstrap samples.

        Returns
        -------
        self
        """
        T = _check_n_estimators(self.n_estimators)
        _check_flags(self.bootstrap, self.oob_score)
        if self.criterion not in ("gini", "entropy"):
            raise ValueError(f"criterion must be 'gini' or 'entropy'; got {self.criterion!r}")
        base = DecisionTreeClassifier(criterion=self.criterion, max_depth=self.max_depth,
                                      max_features=self.max_features,
                                      min_samples_leaf=self.min_samples_leaf)
        X = check_array(X, "X")
        self.classes_, yk = _fit_classes(y, X)
        self.n_features_in_ = X.shape[1]
        self._fit_bagged(X, yk, base, T, X.shape[0], X.shape[1], self.bootstrap,
                         check_random_state(self.random_state), as_weights=True)
        fitted = [h for h in self.estimators_ if isinstance(h, DecisionTreeClassifier)]
        imp = np.mean([tree_feature_importances(h) for h in fitted], axis=0)
        self.feature_importances_ = imp / imp.sum() if imp.sum() > 0 else imp
        if self.oob_score:
            self._oob(X, yk)
        return self
