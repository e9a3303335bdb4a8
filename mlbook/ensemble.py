r"""Ensembles (集成学习): AdaBoost (SAMME), bagging and random forests.

* :class:`AdaBoostClassifier` is boosting (提升) by SAMME, the multi-class
  AdaBoost of Zhu et al. that scikit-learn implements: round :math:`t` fits a
  base learner to the weighted data, measures its weighted error
  :math:`\epsilon_t`, gives it the weight

  .. math:: \alpha_t = \eta\Big(\ln\frac{1-\epsilon_t}{\epsilon_t} + \ln(K-1)\Big),

  and multiplies the weight of every misclassified sample by
  :math:`e^{\alpha_t}`. For :math:`K = 2` and :math:`\eta = 1` this is twice
  Zhou's :math:`\alpha_t = \frac12\ln\frac{1-\epsilon_t}{\epsilon_t}` with
  labels in :math:`\{-1, +1\}`, and the same classifier.
* :class:`BaggingClassifier` is bagging (装袋): base learners fitted on
  bootstrap samples (自助采样) and averaged, with out-of-bag (包外) estimates.
* :class:`RandomForestClassifier` is bagging of trees that also draw a random
  subset of attributes at every node (随机森林).

The default base learners are :class:`mlbook.tree.DecisionTreeClassifier`:
a stump (depth 1, Gini) for AdaBoost, a full Gini tree for bagging.
See the chapter "Ensembles: boosting and bagging".
"""

from __future__ import annotations

import inspect
import numbers
import warnings
from typing import Any, Iterator

import numpy as np

from ._math import softmax
from ._validation import (check_array, check_bool, check_classification_targets,
                          check_consistent_length, check_predict_X, check_random_state,
                          check_sample_weight, check_scalar, column_or_1d, encode_labels)
from .base import BaseEstimator, ClassifierMixin, clone
from .tree import DecisionTreeClassifier, LevelwiseGrower, tree_feature_importances

__all__ = ["AdaBoostClassifier", "BaggingClassifier", "RandomForestClassifier",
           "tree_feature_importances"]


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
        Mean over the trees of :func:`tree_feature_importances`, normalised
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
