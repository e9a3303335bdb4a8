r"""Gradient boosting (梯度提升): Friedman's algorithm, as scikit-learn implements it.

Boosting as gradient descent in function space (ESL 10.10): the model is
:math:`F_T(x) = F_0(x) + \nu\sum_{t=1}^T h_t(x)`. Stage :math:`t`

1. computes the pseudo-residuals, the negative gradient of the loss at the
   current raw predictions, :math:`r_{it} = -\partial L(y_i, F)/\partial F
   \,|_{F = F_{t-1}(x_i)}`;
2. fits a regression tree (squared error, depth ``max_depth``) to them, which
   gives the terminal regions :math:`R_{jt}` (the leaves);
3. replaces the value of every leaf by a line search for the loss itself,
   :math:`\gamma_{jt} = \arg\min_\gamma \sum_{x_i \in R_{jt}} L(y_i, F_{t-1}(x_i) + \gamma)`
   (exactly for the squared and absolute errors, one Newton step for the
   log-loss and the exponential loss);
4. adds the tree, shrunk by the learning rate: :math:`F_t = F_{t-1} + \nu h_t`.

A classifier with :math:`K > 2` classes grows one tree per class and stage on
the multinomial log-loss. The columns of ``X`` never change from stage to
stage, only the targets (the pseudo-residuals) and, with ``subsample < 1``,
the rows in play: every tree is grown by one
:class:`~mlbook.tree.LevelwiseGrower` that sorted the columns once.

See the chapter "Gradient boosting".
"""

from __future__ import annotations

import numbers
from typing import Any, Iterator

import numpy as np

from .._math import expit, logsumexp, softmax
from .._validation import (check_array, check_consistent_length, check_is_fitted,
                           check_predict_X, check_random_state, check_sample_weight,
                           check_scalar, column_or_1d)
from ..base import BaseEstimator, ClassifierMixin, RegressorMixin
from ..tree import DecisionTreeRegressor, LevelwiseGrower, tree_feature_importances
from ._base import _check_n_estimators, _fit_classes

__all__ = ["GradientBoostingRegressor", "GradientBoostingClassifier"]

_EPS = np.finfo(np.float64).eps


# --------------------------------------------------------------------------
# the losses: initial raw prediction, negative gradient, leaf line search, score
# --------------------------------------------------------------------------
#
# ``y`` is the target (regression) or the class code (classification, 0/1 for
# two classes), ``raw`` the raw predictions of shape (n, K), ``w`` the sample
# weights (ones when the user gave none, as scikit-learn). ``score`` is on the
# scale of scikit-learn's ``train_score_``: the mean squared error, the mean
# absolute error, the binomial deviance (twice the mean log-loss), the mean
# multinomial log-loss, the mean exponential loss.

def _weighted_average(a, w, leaf, n_leaves):
    """The weighted mean of ``a`` in every leaf (0 for a leaf without weight)."""
    total = np.bincount(leaf, weights=w, minlength=n_leaves)
    return np.bincount(leaf, weights=w * a, minlength=n_leaves) / np.where(total > 0, total, 1.0)


def _newton_step(numerator, denominator):
    """One Newton step per leaf, 0 where the Hessian vanishes (scikit-learn's
    ``_safe_divide``: a leaf whose probabilities are all 0 or 1 cannot improve)."""
    tiny = np.abs(denominator) < 1e-150
    return np.where(tiny, 0.0, numerator / np.where(tiny, 1.0, denominator))


def _weighted_lower_median(a, w):
    """scikit-learn's ``_weighted_percentile(a, w, 50)``: the smallest value whose
    cumulative weight reaches half the total (the lower median for unit weights)."""
    order = np.argsort(a, kind="stable")
    cdf = np.cumsum(w[order])
    at = min(int(np.searchsorted(cdf, 0.5 * cdf[-1])), a.shape[0] - 1)
    return a[order[at]]


class _SquaredError:
    n_trees = 1

    @staticmethod
    def init_raw(y, w, weighted):
        return np.array([np.average(y, weights=w)])

    @staticmethod
    def negative_gradient(y, raw):
        return (y - raw[:, 0])[:, None]

    @staticmethod
    def line_search(y, raw_k, g_k, w, leaf, n_leaves, k):
        # the leaf's mean pseudo-residual, the value the tree itself predicts
        return _weighted_average(g_k, w, leaf, n_leaves)

    @staticmethod
    def score(y, raw, w):
        return float(np.average((y - raw[:, 0]) ** 2, weights=w))


class _AbsoluteError:
    n_trees = 1

    @staticmethod
    def init_raw(y, w, weighted):
        # scikit-learn's DummyRegressor(strategy="quantile", quantile=0.5):
        # np.percentile without weights, the weighted percentile with them
        return np.array([_weighted_lower_median(y, w) if weighted else np.median(y)])

    @staticmethod
    def negative_gradient(y, raw):
        # sign(y - F), with +1 where y == F (scikit-learn's gradient is -1 unless F > y)
        return np.where(raw[:, 0] > y, -1.0, 1.0)[:, None]

    @staticmethod
    def line_search(y, raw_k, g_k, w, leaf, n_leaves, k):
        # the weighted median of the residuals y - F in each leaf (the exact minimiser)
        residual = y - raw_k
        out = np.zeros(n_leaves)
        for j in np.unique(leaf):                         # a loop over the leaves
            m = leaf == j
            out[j] = _weighted_lower_median(residual[m], w[m])
        return out

    @staticmethod
    def score(y, raw, w):
        return float(np.average(np.abs(y - raw[:, 0]), weights=w))


class _BinomialLogLoss:
    n_trees = 1

    @staticmethod
    def init_raw(y, w, weighted):
        p = np.clip(np.average(y, weights=w), _EPS, 1 - _EPS)
        return np.array([np.log(p / (1 - p))])              # the log-odds of the prior

    @staticmethod
    def negative_gradient(y, raw):
        return (y - expit(raw[:, 0]))[:, None]

    @staticmethod
    def line_search(y, raw_k, g_k, w, leaf, n_leaves, k):
        # one Newton step: sum w (y - p) / sum w p (1 - p)
        p = y - g_k
        return _newton_step(_weighted_average(g_k, w, leaf, n_leaves),
                            _weighted_average(p * (1 - p), w, leaf, n_leaves))

    @staticmethod
    def proba(raw):
        p = expit(raw[:, 0])
        return np.column_stack([1 - p, p])

    @staticmethod
    def score(y, raw, w):
        # the binomial deviance, twice the log-loss log(1 + e^F) - y F
        return 2.0 * float(np.average(np.logaddexp(0.0, raw[:, 0]) - y * raw[:, 0], weights=w))


class _MultinomialLogLoss:
    def __init__(self, n_classes):
        self.n_trees = n_classes

    def init_raw(self, y, w, weighted):
        p = np.clip(np.bincount(y.astype(np.intp), weights=w, minlength=self.n_trees) / w.sum(),
                    _EPS, 1 - _EPS)
        return np.log(p) - np.log(p).mean()       # log priors, centred (geometric-mean reference)

    def negative_gradient(self, y, raw):
        return (y[:, None] == np.arange(self.n_trees)) - softmax(raw)

    def line_search(self, y, raw_k, g_k, w, leaf, n_leaves, k):
        # one Newton step on the diagonal Hessian, times (K - 1) / K (Friedman's
        # factor, which scikit-learn keeps)
        p = (y == k) - g_k
        K = self.n_trees
        return _newton_step((K - 1) / K * _weighted_average(g_k, w, leaf, n_leaves),
                            _weighted_average(p * (1 - p), w, leaf, n_leaves))

    @staticmethod
    def proba(raw):
        return softmax(raw)

    @staticmethod
    def score(y, raw, w):
        picked = raw[np.arange(raw.shape[0]), y.astype(np.intp)]
        return float(np.average(logsumexp(raw, axis=1) - picked, weights=w))


class _ExponentialLoss:
    n_trees = 1

    @staticmethod
    def init_raw(y, w, weighted):
        p = np.clip(np.average(y, weights=w), _EPS, 1 - _EPS)
        return np.array([0.5 * np.log(p / (1 - p))])        # half the log-odds

    @staticmethod
    def negative_gradient(y, raw):
        # L = y e^{-F} + (1 - y) e^{F}, with labels 0/1: AdaBoost's e^{-y' F}, y' = 2y - 1
        return (y * np.exp(-raw[:, 0]) - (1 - y) * np.exp(raw[:, 0]))[:, None]

    @staticmethod
    def line_search(y, raw_k, g_k, w, leaf, n_leaves, k):
        # one Newton step: the Hessian y e^{-F} + (1 - y) e^{F} is |g|
        return _newton_step(_weighted_average(g_k, w, leaf, n_leaves),
                            _weighted_average(np.abs(g_k), w, leaf, n_leaves))

    @staticmethod
    def proba(raw):
        p = expit(2.0 * raw[:, 0])
        return np.column_stack([1 - p, p])

    @staticmethod
    def score(y, raw, w):
        return float(np.average(y * np.exp(-raw[:, 0]) + (1 - y) * np.exp(raw[:, 0]),
                                weights=w))


# --------------------------------------------------------------------------
# the boosting loop
# --------------------------------------------------------------------------

def _nodes_breadth_first(root):
    """The nodes of a tree in the order ``DecisionTreeRegressor.apply`` numbers them."""
    nodes = [root]
    for node in nodes:                       # the list grows as the walk goes
        nodes.extend(node.children)
    return nodes


def _oob_score(loss, y, raw, w, out):
    """The loss on the left-out rows ``out``; NaN if they carry no weight."""
    if not w[out].sum() > 0:
        return np.nan
    return loss.score(y[out], raw[out], w[out])


class _BaseGradientBoosting(BaseEstimator):
    """The boosting loop, the staged predictions and the checks both estimators share."""

    _LOSSES: tuple = ()

    def _check_params(self) -> None:
        if self.loss not in self._LOSSES:
            raise ValueError(f"loss must be one of {list(self._LOSSES)}; got {self.loss!r}")
        check_scalar(self.learning_rate, "learning_rate", numbers.Real, min_val=0.0,
                     include_min=False)
        _check_n_estimators(self.n_estimators)
        check_scalar(self.subsample, "subsample", numbers.Real, min_val=0.0, max_val=1.0,
                     include_min=False)
        if self.max_depth is not None:
            check_scalar(self.max_depth, "max_depth", numbers.Integral, min_val=1)

    def _boost(self, X: np.ndarray, y: np.ndarray, sample_weight: Any, loss) -> None:
        """Fit the stages; set every learned attribute but the classes."""
        n = X.shape[0]
        weighted = sample_weight is not None
        w = check_sample_weight(sample_weight, n)
        rng = check_random_state(self.random_state)
        K, M = loss.n_trees, int(self.n_estimators)
        raw = np.tile(loss.init_raw(y, w, weighted), (n, 1))         # (n, K)
        self.init_raw_prediction_ = raw[0].copy()
        self.estimators_ = np.empty((M, K), dtype=object)
        self.train_score_ = np.zeros(M)
        do_oob = self.subsample < 1.0
        n_inbag = max(1, int(self.subsample * n))       # scikit-learn's count (it truncates)
        if do_oob:
            self.oob_improvement_ = np.zeros(M)
            self.oob_scores_ = np.zeros(M)
        grower = LevelwiseGrower(X)                     # the columns, sorted once for all
        positive = w > 0
        in_bag = np.ones(n, dtype=bool)
        for m in range(M):
            if do_oob:                                  # rows drawn without replacement
                in_bag = np.zeros(n, dtype=bool)
                in_bag[rng.choice(n, size=n_inbag, replace=False)] = True
                if m == 0:
                    initial_oob = _oob_score(loss, y, raw, w, ~in_bag)
            rows = in_bag & positive                    # a weight of 0 takes no part
            if not rows.any():
                raise ValueError(
                    f"stage {m + 1} drew no row of positive sample_weight: subsample="
                    f"{self.subsample} keeps {n_inbag} of {n} rows and only "
                    f"{int(positive.sum())} have a positive weight; raise subsample or "
                    "give more rows a positive sample_weight")
            neg_gradient = loss.negative_gradient(y, raw)                  # (n, K)
            for k in range(K):
                # scikit-learn grows this tree with criterion "squared_error"; its old
                # "friedman_mse", w_L w_R (mean_L - mean_R)^2 / (w_L + w_R), is the
                # squared-error decrease itself (w_L mean_L^2 + w_R mean_R^2 - S^2/W
                # with S = w_L mean_L + w_R mean_R), so both pick the same split.
                tree = DecisionTreeRegressor(max_depth=self.max_depth)
                grower.fit(tree, sample_weight=w if weighted else None,
                           rows=None if rows.all() else rows, y=neg_gradient[:, k])
                leaf = tree.apply(X)
                nodes = _nodes_breadth_first(tree.tree_)
                values = loss.line_search(y[rows], raw[rows, k], neg_gradient[rows, k],
                                          w[rows], leaf[rows], len(nodes), k)
                for j in np.unique(leaf[rows]).tolist():   # the leaves get the line search
                    nodes[j].value = nodes[j].proba = values[j:j + 1]
                raw[:, k] += self.learning_rate * values[leaf]
                self.estimators_[m, k] = tree
            if do_oob:
                self.train_score_[m] = loss.score(y[in_bag], raw[in_bag], w[in_bag])
                self.oob_scores_[m] = _oob_score(loss, y, raw, w, ~in_bag)
                previous = initial_oob if m == 0 else self.oob_scores_[m - 1]
                self.oob_improvement_[m] = previous - self.oob_scores_[m]
            else:
                self.train_score_[m] = loss.score(y, raw, w)
        if do_oob:
            self.oob_score_ = float(self.oob_scores_[-1])
        self.n_estimators_ = M
        self.n_features_in_ = X.shape[1]

    def _staged_raw(self, X: Any) -> Iterator[np.ndarray]:
        X = check_predict_X(self, X, "estimators_")
        raw = np.tile(self.init_raw_prediction_, (X.shape[0], 1))
        for stage in self.estimators_:
            for k, tree in enumerate(stage):
                raw[:, k] += self.learning_rate * tree.predict(X)
            yield raw.copy()

    def _raw(self, X: Any) -> np.ndarray:
        raw = None
        for raw in self._staged_raw(X):
            pass
        return raw

    @property
    def feature_importances_(self) -> np.ndarray:
        """Mean decrease in impurity, averaged over the trees with a split, normalised.

        As scikit-learn: each tree's total weighted variance decrease per
        feature, divided by the weight at its root, averaged over the trees
        that split at all, then scaled to sum to 1 (zeros if none splits).
        """
        check_is_fitted(self, "estimators_")
        trees = [t for stage in self.estimators_ for t in stage if t.tree_.children]
        if not trees:
            return np.zeros(self.n_features_in_)
        imp = np.mean([tree_feature_importances(t, normalize=False) for t in trees], axis=0)
        return imp / imp.sum()


class GradientBoostingRegressor(RegressorMixin, _BaseGradientBoosting):
    r"""Gradient boosting of regression trees for regression.

    Parameters
    ----------
    loss : {"squared_error", "absolute_error"}, default="squared_error"
        :math:`L = (y - F)^2` (initial prediction the mean, pseudo-residuals
        :math:`y - F`, leaves the mean residual) or :math:`L = |y - F|`
        (initial prediction the median, pseudo-residuals
        :math:`\operatorname{sign}(y - F)`, leaves the weighted median of the
        residuals :math:`y - F`, as scikit-learn's ``_weighted_percentile``).
    learning_rate : float > 0, default=0.1
        Shrinkage :math:`\nu`: every tree's contribution is multiplied by it.
    n_estimators : int >= 1, default=100
        The number of boosting stages :math:`T`.
    subsample : float in (0, 1], default=1.0
        The fraction of the rows each stage's tree sees, drawn without
        replacement anew at every stage (``int(subsample * n_samples)`` rows,
        at least one): stochastic gradient boosting. Below 1 the left-out rows
        give ``oob_improvement_``.
    max_depth : int >= 1 or None, default=3
        The depth of every tree.
    random_state : None, int or numpy Generator, default=None
        Seeds the subsampling (unused when ``subsample=1``).

    Attributes
    ----------
    estimators_ : ndarray of DecisionTreeRegressor, shape (n_estimators, 1)
        The trees; a leaf's value is its line-search update :math:`\gamma_{jm}`
        (before the learning rate).
    init_raw_prediction_ : ndarray of shape (1,)
        :math:`F_0`, the constant that minimises the loss.
    train_score_ : ndarray of shape (n_estimators,)
        The loss on the training data after each stage (on the stage's in-bag
        rows when ``subsample < 1``): the mean squared error or the mean
        absolute error, scikit-learn's scale.
    oob_improvement_, oob_scores_, oob_score_ : with ``subsample < 1`` only
        The loss on the rows a stage left out, its drop from before the stage
        to after it (the first from :math:`F_0`), and the last loss; NaN at a
        stage whose left-out rows all have weight zero. (A stage whose in-bag
        rows all have weight zero cannot be fitted: ``fit`` raises.)
    n_estimators_ : int
    n_features_in_ : int

    Notes
    -----
    With ``subsample=1`` and data without ties this is scikit-learn's
    ``GradientBoostingRegressor`` with the same parameters, stage by stage
    (its random draws differ, so with ``subsample < 1`` the models differ).
    Two cases part ways by design. The absolute error fits trees to signs
    (:math:`\pm 1`), where two features can reach exactly the same best score
    with different partitions: scikit-learn takes the first in a random order
    of the features, we the first. And with non-unit sample weights
    scikit-learn may split a node whose signs are all equal, because its
    variance :math:`E[y^2] - E[y]^2` rounds to a few ulp above machine epsilon;
    we keep such a node a leaf.
    See the chapter "Gradient boosting".
    """

    _LOSSES = ("squared_error", "absolute_error")

    def __init__(self, loss: str = "squared_error", learning_rate: float = 0.1,
                 n_estimators: int = 100, subsample: float = 1.0, max_depth: int | None = 3,
                 random_state: Any = None) -> None:
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.subsample = subsample
        self.max_depth = max_depth
        self.random_state = random_state

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "GradientBoostingRegressor":
        """Fit the stages on numeric ``X`` (n_samples, n_features) and real ``y``.

        ``sample_weight`` (optional, non-negative) weights the loss of every
        sample. Returns ``self``.
        """
        self._check_params()
        X = check_array(X, "X")
        y = column_or_1d(y, "y", dtype=np.float64, warn=True)   # refuses NaN and infinity
        check_consistent_length(X, y, names=["X", "y"])
        loss = _SquaredError() if self.loss == "squared_error" else _AbsoluteError()
        self._boost(X, y, sample_weight, loss)
        return self

    def staged_predict(self, X: Any) -> Iterator[np.ndarray]:
        """The prediction after each stage, shape (n_samples,) each (a generator)."""
        for raw in self._staged_raw(X):
            yield raw[:, 0]

    def predict(self, X: Any) -> np.ndarray:
        """:math:`F_M(x)`, shape (n_samples,)."""
        return self._raw(X)[:, 0]


class GradientBoostingClassifier(ClassifierMixin, _BaseGradientBoosting):
    r"""Gradient boosting of regression trees for classification.

    Parameters
    ----------
    loss : {"log_loss", "exponential"}, default="log_loss"
        The binomial log-loss :math:`\log(1 + e^{F}) - yF` for two classes
        (one tree per stage; initial prediction the log-odds of the prior,
        pseudo-residuals :math:`y - p`, leaves one Newton step
        :math:`\sum (y - p) / \sum p(1 - p)`), the multinomial log-loss for
        :math:`K > 2` (one tree per class and stage, softmax probabilities,
        initial predictions the centred log priors, leaves
        :math:`\frac{K-1}{K}\sum (y_k - p_k) / \sum p_k(1 - p_k)`), or, for two
        classes only, AdaBoost's exponential loss
        :math:`y e^{-F} + (1 - y) e^{F}` (:math:`e^{-\tilde y F}` with
        :math:`\tilde y = 2y - 1`; initial prediction half the log-odds,
        :math:`P(y = 1) = \sigma(2F)`).
    learning_rate, n_estimators, subsample, max_depth, random_state
        As for :class:`GradientBoostingRegressor`.

    Attributes
    ----------
    estimators_ : ndarray of DecisionTreeRegressor, shape (n_estimators, K)
        :math:`K = 1` for two classes, the number of classes otherwise.
    init_raw_prediction_ : ndarray of shape (K,)
    train_score_ : ndarray of shape (n_estimators,)
        scikit-learn's scale: the binomial deviance (twice the mean log-loss)
        for two classes, the mean log-loss for more, the mean exponential loss.
    oob_improvement_, oob_scores_, oob_score_ : with ``subsample < 1`` only
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    n_estimators_, n_features_in_, feature_importances_

    Notes
    -----
    With ``subsample=1`` this is scikit-learn's ``GradientBoostingClassifier``
    with the same parameters, stage by stage, whenever no two splits tie exactly
    in score. Data without tied values are not enough for that: the first
    stage's trees fit :math:`y_k - p_k`, which takes two values, and splits on
    different features can then reach exactly the same score with different
    partitions; scikit-learn takes the first in a random order of the
    features, we the first feature, and the models part ways from there (by
    up to 1e-2 in the training loss on some unweighted data). With one feature,
    or with continuous sample weights, such ties do not occur in practice.
    See the chapter "Gradient boosting".
    """

    _LOSSES = ("log_loss", "exponential")

    def __init__(self, loss: str = "log_loss", learning_rate: float = 0.1,
                 n_estimators: int = 100, subsample: float = 1.0, max_depth: int | None = 3,
                 random_state: Any = None) -> None:
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.subsample = subsample
        self.max_depth = max_depth
        self.random_state = random_state

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "GradientBoostingClassifier":
        """Fit the stages on numeric ``X`` (n_samples, n_features) and labels ``y``.

        ``sample_weight`` (optional, non-negative) weights the loss of every
        sample. Returns ``self``.
        """
        self._check_params()
        X = check_array(X, "X")
        classes, yk = _fit_classes(y, X)
        if classes.shape[0] < 2:
            raise ValueError(f"y has one class only ({classes[0]!r}); a classifier needs two")
        if sample_weight is not None:
            total = np.bincount(yk, weights=check_sample_weight(sample_weight, X.shape[0]),
                                minlength=classes.shape[0])
            if not (total > 0).all():
                empty = classes[np.argmin(total > 0)].item()
                raise ValueError(f"sample_weight gives class {empty!r} "
                                 "no weight at all (every sample of it has weight zero): "
                                 "drop the class from y or give it a positive weight")
        if self.loss == "exponential" and classes.shape[0] > 2:
            raise ValueError(f"loss='exponential' is for two classes (AdaBoost's loss); y has "
                             f"{classes.shape[0]}: use loss='log_loss'")
        if self.loss == "exponential":
            loss = _ExponentialLoss()
        elif classes.shape[0] == 2:
            loss = _BinomialLogLoss()
        else:
            loss = _MultinomialLogLoss(classes.shape[0])
        self._loss = loss
        self._boost(X, yk.astype(np.float64), sample_weight, loss)
        self.classes_ = classes
        self.n_classes_ = classes.shape[0]
        return self

    def staged_decision_function(self, X: Any) -> Iterator[np.ndarray]:
        """The raw predictions after each stage (a generator), shape (n_samples, K):
        K = 1 for two classes (as scikit-learn, unlike ``decision_function``)."""
        yield from self._staged_raw(X)

    def decision_function(self, X: Any) -> np.ndarray:
        """The raw prediction :math:`F_M(x)`: shape (n_samples,) for two classes,
        (n_samples, n_classes) otherwise."""
        raw = self._raw(X)
        return raw[:, 0] if raw.shape[1] == 1 else raw

    def staged_predict_proba(self, X: Any) -> Iterator[np.ndarray]:
        """Class probabilities after each stage, (n_samples, n_classes) each."""
        for raw in self._staged_raw(X):
            yield self._loss.proba(raw)

    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities, shape (n_samples, n_classes), columns as ``classes_``."""
        raw = self._raw(X)                         # checks that the model is fitted first
        return self._loss.proba(raw)

    def staged_predict(self, X: Any) -> Iterator[np.ndarray]:
        """Predicted labels after each stage (a generator)."""
        for proba in self.staged_predict_proba(X):
            yield self.classes_[np.argmax(proba, axis=1)]

    def predict(self, X: Any) -> np.ndarray:
        """Predicted labels, shape (n_samples,): the most probable class."""
        proba = self.predict_proba(X)              # checks that the model is fitted first
        return self.classes_[np.argmax(proba, axis=1)]
