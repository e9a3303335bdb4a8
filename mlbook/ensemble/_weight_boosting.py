"""AdaBoost (SAMME): the chapter "Boosting"."""

from __future__ import annotations

import inspect
import numbers
import warnings
from typing import Any, Iterator

import numpy as np

from .._math import softmax
from .._validation import (check_array, check_predict_X, check_random_state, check_sample_weight,
                           check_scalar, column_or_1d)
from ..base import BaseEstimator, ClassifierMixin, clone
from ..tree import DecisionTreeClassifier
from ._base import _check_n_estimators, _fit_classes, _seed_random_states, _sorted_once


# --- AdaBoost ------------------------------------------------------------------

class AdaBoostClassifier(ClassifierMixin, BaseEstimator):
    r"""AdaBoost by SAMME (scikit-learn's algorithm), with weighted base learners.

    Parameters
    ----------
    estimator : classifier or None, default=None
        The base learner, cloned every round; its ``fit`` must take
        ``sample_weight``. None: a stump,
        ``DecisionTreeClassifier(criterion="gini", max_depth=1)``.
    n_estimators : int >= 1, default=50
        The largest number of rounds; fewer if a learner is perfect (it then
        decides alone) or no better than chance.
    learning_rate : float > 0, default=1.0
        Shrinks every :math:`\alpha_t` by this factor.
    random_state : None, int or Generator, default=None
        Seeds the rounds: every ``random_state`` parameter of a base learner,
        nested ones too (a pipeline's steps), gets an int drawn from it.

    Attributes
    ----------
    estimators_ : list of fitted classifiers
    estimator_weights_ : ndarray of shape (n_estimators,)
        :math:`\alpha_t`; ``inf`` for a perfect learner (:math:`\epsilon_t = 0`);
        0 for rounds not run.
    estimator_errors_ : ndarray of shape (n_estimators,)
        :math:`\epsilon_t`, the weighted training error of round :math:`t`; 1 for
        rounds not run.
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int

    Notes
    -----
    Round :math:`t` (weights :math:`D_t` summing to 1): fit :math:`h_t` with
    weights :math:`D_t`; :math:`\epsilon_t = \sum_i D_t(i)\,\mathbb I(h_t(x_i) \ne y_i)`;
    stop if :math:`\epsilon_t = 0` (keep :math:`h_t` with weight
    :math:`\alpha_t = \ln\frac{1-0}{0} = \infty`) or
    :math:`\epsilon_t \ge 1 - 1/K` (discard it); otherwise
    :math:`D_{t+1}(i) \propto D_t(i)\,e^{\alpha_t\mathbb I(h_t(x_i)\ne y_i)}`. The
    decision function is :math:`\sum_t \alpha_t\,g_t(x) / \sum_t\alpha_t` with
    :math:`g_{t,k}(x) = 1` if :math:`h_t(x) = k` and :math:`-1/(K-1)` otherwise;
    after a perfect round it is that round's :math:`g_t(x)`, the limit of the
    normalised vote as :math:`\alpha_t \to \infty`, so the perfect learner
    decides alone and the training error is 0, as the training-error bound
    :math:`\prod_t Z_t = 0` requires. scikit-learn keeps a perfect learner
    with weight 1 instead, so that after round 1 the earlier learners can
    outvote it.

    With an unpruned ``DecisionTreeClassifier`` (gini or entropy) as the base
    learner, the columns of ``X`` are sorted once before the first round: only
    the weights change between rounds, so every round grows the tree ``fit``
    would grow without sorting again.
    """

    def __init__(self, estimator: Any = None, n_estimators: int = 50,
                 learning_rate: float = 1.0, random_state: Any = None) -> None:
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.random_state = random_state

    def _base(self):
        if self.estimator is None:
            return DecisionTreeClassifier(criterion="gini", max_depth=1)
        fit = getattr(self.estimator, "fit", None)
        if fit is None or not hasattr(self.estimator, "predict"):
            raise TypeError(f"estimator must be a classifier with fit and predict; got "
                            f"{self.estimator!r}")
        if "sample_weight" not in inspect.signature(fit).parameters:
            raise ValueError(f"estimator {type(self.estimator).__name__} cannot take sample "
                             "weights (its fit has no sample_weight parameter), which AdaBoost "
                             "needs to reweight the training set")
        return self.estimator

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "AdaBoostClassifier":
        """Run up to ``n_estimators`` rounds of SAMME.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            Initial weights (uniform by default); normalised to sum to 1.

        Returns
        -------
        self
        """
        T = _check_n_estimators(self.n_estimators)
        eta = float(check_scalar(self.learning_rate, "learning_rate", numbers.Real,
                                 min_val=0.0, include_min=False))
        base = self._base()
        X = check_array(X, "X")
        self.classes_, yk = _fit_classes(y, X)
        K = self.classes_.shape[0]
        self.n_features_in_ = X.shape[1]
        if sample_weight is None:
            D = np.full(X.shape[0], 1.0 / X.shape[0])
        else:
            D = check_sample_weight(sample_weight, X.shape[0])   # >= 0, positive sum
            D = D / D.sum()
        rng = check_random_state(self.random_state)
        y_lab = self.classes_[yk]
        grower = _sorted_once(base, X, yk, self.classes_)     # the same X in every round
        self.estimators_ = []
        self.estimator_weights_ = np.zeros(T)
        self.estimator_errors_ = np.ones(T)
        for t in range(T):
            h = clone(base)
            _seed_random_states(h, rng)
            if grower is not None and (D > 0).all():      # the tree fit(X, y, D) would grow
                grower.fit(h, D)
            else:
                h.fit(X, y_lab, sample_weight=D)
            wrong = h.predict(X) != y_lab                       # (n,)
            eps = float(np.average(wrong, weights=D))        # scikit-learn's arithmetic
            self.estimators_.append(h)
            if eps <= 0.0:              # a perfect learner: alpha = ln(1/0) = inf, it decides
                self.estimator_weights_[t], self.estimator_errors_[t] = np.inf, 0.0
                break
            if eps >= 1.0 - 1.0 / K:                            # no better than chance
                self.estimators_.pop()
                if not self.estimators_:
                    raise ValueError(
                        f"the first base learner has weighted error {eps:.3f} >= 1 - 1/K = "
                        f"{1 - 1 / K:.3f} (no better than chance), so AdaBoost cannot start")
                break
            alpha = eta * (np.log((1.0 - eps) / eps) + np.log(K - 1.0))
            self.estimator_weights_[t], self.estimator_errors_[t] = alpha, eps
            if t < T - 1:
                D = D * np.exp(alpha * wrong * (D > 0))
                total = D.sum()
                if not np.isfinite(total) or total <= 0:
                    warnings.warn(f"the sample weights became {total} after round {t + 1}; "
                                  "boosting stops there", RuntimeWarning, stacklevel=2)
                    break
                D /= total
        return self

    def _votes(self, X: np.ndarray) -> Iterator[tuple[float, np.ndarray]]:
        """(alpha_t, g_t(X)) for every kept round; g_t of shape (n_samples, K)."""
        K = self.classes_.shape[0]
        for h, alpha in zip(self.estimators_, self.estimator_weights_):
            pred = h.predict(X)
            g = np.where(pred[:, None] == self.classes_[None, :], 1.0, -1.0 / (K - 1))
            yield alpha, g

    def staged_decision_function(self, X: Any) -> Iterator[np.ndarray]:
        """The decision function after rounds 1, 2, ... (as ``decision_function``)."""
        X = check_predict_X(self, X, "estimators_")
        total, norm = None, 0.0
        for alpha, g in self._votes(X):
            if np.isinf(alpha):         # a perfect round (the last): the limit alpha -> inf
                yield self._binary(g)
                return
            total = alpha * g if total is None else total + alpha * g
            norm += alpha
            yield self._binary(total / norm)

    def _binary(self, f: np.ndarray) -> np.ndarray:
        if self.classes_.shape[0] == 2:
            return f[:, 1] - f[:, 0]      # scikit-learn's sign: positive for classes_[1]
        return f

    def decision_function(self, X: Any) -> np.ndarray:
        r"""The normalised vote :math:`\sum_t\alpha_t g_t(x) / \sum_t\alpha_t`.

        Returns
        -------
        ndarray of shape (n_samples,) for two classes (positive favours
        ``classes_[1]``), else (n_samples, n_classes).
        """
        out = None
        for out in self.staged_decision_function(X):
            pass
        return out

    def predict(self, X: Any) -> np.ndarray:
        """The class with the largest vote.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        f = self.decision_function(X)
        if self.classes_.shape[0] == 2:
            return self.classes_[(f > 0).astype(int)]
        return self.classes_[np.argmax(f, axis=1)]

    def predict_proba(self, X: Any) -> np.ndarray:
        r"""Class probabilities :math:`\mathrm{softmax}(f(x)/(K-1))` (Zhu et al., eq. 15).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return self._proba(self.decision_function(X))

    def _proba(self, f: np.ndarray) -> np.ndarray:
        K = self.classes_.shape[0]
        if K == 2:
            return softmax(np.column_stack([-f, f]) / 2)
        return softmax(f / (K - 1))

    def staged_predict(self, X: Any) -> Iterator[np.ndarray]:
        """Predictions after rounds 1, 2, ... (for test error against rounds)."""
        for f in self.staged_decision_function(X):
            if self.classes_.shape[0] == 2:
                yield self.classes_[(f > 0).astype(int)]
            else:
                yield self.classes_[np.argmax(f, axis=1)]

    def staged_score(self, X: Any, y: Any) -> Iterator[float]:
        """Accuracy on ``(X, y)`` after rounds 1, 2, ..."""
        y = column_or_1d(y, "y")
        for pred in self.staged_predict(X):
            yield float(np.mean(pred == y))
