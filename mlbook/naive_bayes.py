r"""Naive Bayes classifiers (朴素贝叶斯分类器): categorical, Gaussian and mixed.

A naive Bayes classifier models the joint distribution as
:math:`P(c)\prod_{j=1}^d p(x_j \mid c)`: the class prior times one
class-conditional distribution per attribute, the attributes being assumed
independent given the class. It predicts the class with the largest posterior

.. math:: h(\boldsymbol{x}) = \arg\max_c \; \log P(c) + \sum_{j=1}^d \log p(x_j \mid c).

Everything is computed in log space, so a product of many small factors
cannot underflow to 0, and ``predict_proba`` normalises with log-sum-exp.

* :class:`CategoricalNB`: categorical attributes, counts with Laplace
  smoothing (拉普拉斯修正) :math:`\alpha`; equal to scikit-learn's estimator of
  the same name on integer codes, and it also takes the string columns of
  ``load_watermelon`` as they come.
* :class:`GaussianNB`: continuous attributes, one normal distribution per class
  and attribute; ``ddof=0`` is the maximum-likelihood variance (scikit-learn's),
  ``ddof=1`` the sample variance of Zhou's worked example.
* :class:`MixedNB`: both kinds of column at once (watermelon 3.0), which no
  scikit-learn estimator does.

See the chapter "Generative models and naive Bayes".
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ._validation import (check_array, check_bool, check_classification_targets,
                          check_consistent_length, check_is_fitted, check_n_features,
                          check_scalar, column_or_1d, encode_labels, missing_in_objects,
                          reals_in_objects)
from ._math import logsumexp
from .base import BaseEstimator, ClassifierMixin

__all__ = ["CategoricalNB", "GaussianNB", "MixedNB", "logsumexp"]


# --- shared machinery ------------------------------------------------------------

_UNSEEN_VALUE = ("one of its values was never seen with any class and alpha=0 gives unseen "
                 "values probability zero; use alpha > 0 (Laplace smoothing)")
_FAR_VALUE = ("one of its values is so far from every class mean that (x - mean)^2 / variance "
              "overflows float64 (|x| of about 1e154 or more); rescale X, e.g. standardise it")


class _BaseNB(ClassifierMixin, BaseEstimator):
    """Posterior from ``_joint_log_likelihood``: the log of P(c) * prod_j p(x_j | c)."""

    #: Why a sample can have probability zero under every class (said in the error).
    _zero_probability_reason = _UNSEEN_VALUE

    def _fit_classes(self, y: Any, n_samples: int) -> np.ndarray:
        y = column_or_1d(y, "y", warn=True)   # a column vector is flattened, with a warning
        check_consistent_length(np.empty(n_samples), y, names=["X", "y"])
        self.classes_ = check_classification_targets(y)
        yk = np.searchsorted(self.classes_, y)
        self.class_count_ = np.bincount(yk, minlength=self.classes_.shape[0]).astype(np.float64)
        return yk

    def _prior(self, alpha: float = 0.0) -> np.ndarray:
        """Class prior: relative frequencies, or (N_c + alpha) / (N + K alpha) when smoothed."""
        K = self.classes_.shape[0]
        return (self.class_count_ + alpha) / (self.class_count_.sum() + K * alpha)

    def predict_joint_log_proba(self, X: Any) -> np.ndarray:
        r"""The log of :math:`P(c)\prod_j p(x_j\mid c)` for every sample and class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``. Up to the constant
            :math:`\log p(\boldsymbol{x})` of each row, this is the log
            posterior.
        """
        check_is_fitted(self, "classes_")
        jll = self._joint_log_likelihood(X)
        dead = ~np.isfinite(jll).any(axis=1)
        if dead.any():
            i = int(np.flatnonzero(dead)[0])
            raise ValueError(f"sample {i} of X has probability zero under every class: "
                             f"{self._zero_probability_reason}")
        return jll

    def predict_log_proba(self, X: Any) -> np.ndarray:
        """Log posterior :math:`\\log P(c \\mid x)`, normalised by log-sum-exp.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        jll = self.predict_joint_log_proba(X)
        return jll - logsumexp(jll, axis=1)[:, None]

    def predict_proba(self, X: Any) -> np.ndarray:
        """Posterior :math:`P(c \\mid x)`; each row sums to 1.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return np.exp(self.predict_log_proba(X))

    def predict(self, X: Any) -> np.ndarray:
        """The class with the largest posterior (ties: the first in ``classes_``).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        jll = self.predict_joint_log_proba(X)      # checks that the model is fitted
        return self.classes_[np.argmax(jll, axis=1)]


def _check_alpha(alpha: Any) -> float:
    return float(check_scalar(alpha, "alpha", numbers.Real, min_val=0.0))


# --- categorical -----------------------------------------------------------------

#: The largest category code: every code up to the largest one seen gets a count per
#: class, so a code of 2**31 would need tables of 16 GiB per class and column.
_MAX_CODE = 2**31 - 1


def _check_codes(X: np.ndarray, name: str, first: int = 0) -> np.ndarray:
    """Category codes are 0, 1, 2, ...: name the first column holding a negative or huge one.

    Returns each column's largest code, shape (n_features,).
    """
    smallest, largest = X.min(axis=0), X.max(axis=0)
    negative = smallest < 0
    if negative.any():
        j = int(np.flatnonzero(negative)[0])
        raise ValueError(f"Negative values in data: column {first + j} of {name} holds "
                         f"negative category codes (smallest {smallest[j]:g}); codes "
                         "must be 0, 1, 2, ...")
    huge = largest > _MAX_CODE
    if huge.any():
        j = int(np.flatnonzero(huge)[0])
        raise ValueError(f"column {first + j} of {name} holds the category code "
                         f"{largest[j]:g}; codes must be 0, 1, 2, ... up to 2**31 - 1 "
                         "(each code up to the largest gets a count per class); re-encode "
                         "the categories as 0, 1, ..., k-1")
    return largest


class _CategoryCodes:
    """Per-column category encoding, learned in fit and applied in predict.

    Integer codes are taken as the categories 0, 1, ..., max (scikit-learn's
    rule: a code below the largest one counts as a category even if no training
    sample has it). Any other column (strings, mixed objects) has as categories
    the sorted distinct values seen in fit.
    """

    def __init__(self, X: np.ndarray, name: str = "X") -> None:
        self.categories: list[np.ndarray | None] = []
        self.n_categories = np.zeros(X.shape[1], dtype=np.intp)
        if X.dtype.kind in "iu" and X.size:
            self.categories = [None] * X.shape[1]
            self.n_categories = _check_codes(X, name).astype(np.intp) + 1
            return
        for j in range(X.shape[1]):
            col = X[:, j]
            codes = self._integer_codes(col, j, name)
            if codes is not None:
                self.categories.append(None)
                self.n_categories[j] = int(codes.max()) + 1
            else:
                keys = col.astype(str)
                self.categories.append(encode_labels(keys)[0])
                self.n_categories[j] = self.categories[-1].shape[0]

    @staticmethod
    def _integer_codes(col: np.ndarray, j: int, name: str) -> np.ndarray | None:
        if col.dtype.kind == "O":
            if missing_in_objects(col).any():
                raise ValueError(f"column {j} of {name} contains a missing value (None or "
                                 "NaN); naive Bayes here needs every value")
            if not reals_in_objects(col).all():
                return None
            col = col.astype(np.float64)
        if col.dtype.kind in "US":
            return None
        if col.dtype.kind == "b":
            col = col.astype(np.intp)
        if col.dtype.kind == "f":
            if np.isnan(col).any():
                raise ValueError(f"column {j} of {name} contains NaN")
            if not np.isfinite(col).all() or not np.all(np.mod(col, 1) == 0):
                raise ValueError(f"column {j} of {name} must hold category codes (whole "
                                 "numbers 0, 1, 2, ...) or strings; got non-integer values")
        if col.dtype.kind not in "biuf":
            raise TypeError(f"column {j} of {name} has an unsupported dtype {col.dtype}")
        _check_codes(col[:, None], name, first=j)
        return col.astype(np.intp)

    def transform(self, X: np.ndarray, name: str = "X") -> np.ndarray:
        """Codes of shape (n_samples, n_features); -1 marks a value unseen in fit."""
        if X.dtype.kind in "iu" and all(c is None for c in self.categories):
            largest = _check_codes(X, name)      # the whole array at once: the fast path
            codes = X.astype(np.intp)
            if (largest >= self.n_categories).any():        # some codes unseen in fit
                codes = np.where(codes < self.n_categories, codes, -1)
            return codes
        out = np.empty(X.shape, dtype=np.intp)
        for j, cats in enumerate(self.categories):
            col = X[:, j]
            if cats is None:
                if col.dtype.kind in "OUS" and not (col.dtype.kind == "O"
                                                    and reals_in_objects(col).all()):
                    raise TypeError(f"column {j} of {name} must hold category codes (it held "
                                    "integer codes in fit)")
                codes = self._integer_codes(col, j, name)
                out[:, j] = np.where(codes < self.n_categories[j], codes, -1)
            else:
                if col.dtype.kind == "O" and missing_in_objects(col).any():
                    raise ValueError(f"column {j} of {name} contains a missing value")
                keys = col.astype(str)
                out[:, j] = encode_labels(keys, cats)[1]
        return out


def _categorical_log_probs(codes: np.ndarray, yk: np.ndarray, K: int,
                           n_categories: np.ndarray, alpha: float):
    """Counts N_{c,j,v} and the smoothed log P(x_j = v | c) for every column j."""
    counts, log_probs = [], []
    class_count = np.bincount(yk, minlength=K).astype(np.float64)
    for j, n_j in enumerate(n_categories):      # a loop over columns, not samples
        cnt = np.bincount(yk * n_j + codes[:, j], minlength=K * n_j).reshape(K, n_j)
        cnt = cnt.astype(np.float64)
        with np.errstate(divide="ignore"):
            lp = np.log(cnt + alpha) - np.log(class_count + alpha * n_j)[:, None]
        counts.append(cnt)
        log_probs.append(lp)
    return counts, log_probs


def _categorical_jll(codes: np.ndarray, log_probs: list[np.ndarray], n_categories: np.ndarray,
                     class_count: np.ndarray, alpha: float) -> np.ndarray:
    """Sum over columns of log P(x_j | c), shape (n_samples, n_classes).

    A value unseen in fit (code -1) is treated as the smoothing rule implies:
    a category with count 0 in every class, so log(alpha / (N_c + alpha n_j)).
    It is looked up in an extra last column of each table.
    """
    n, K = codes.shape[0], class_count.shape[0]
    jll_t = np.zeros((K, n))                      # classes x samples: contiguous rows
    for j, lp in enumerate(log_probs):            # a loop over columns, not samples
        n_j = n_categories[j]
        with np.errstate(divide="ignore"):
            unseen = np.log(alpha) - np.log(class_count + alpha * n_j)
        table = np.column_stack([lp, unseen])     # (K, n_j + 1)
        jll_t += table[:, np.where(codes[:, j] >= 0, codes[:, j], n_j)]
    return jll_t.T


class _CategoricalInput:
    """scikit-learn's input tags of the categorical models (CategoricalNB, AODE, TAN)."""

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        # the input is category codes 0, 1, 2, ... (or strings), as for scikit-learn's
        # CategoricalNB: its checks then pass non-negative integer codes
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.positive_only = True
        tags.input_tags.string = True
        return tags


class CategoricalNB(_CategoricalInput, _BaseNB):
    r"""Naive Bayes for categorical attributes, with Laplace smoothing.

    Parameters
    ----------
    alpha : float, default=1.0
        Additive (Laplace, 拉普拉斯修正) smoothing :math:`\alpha \ge 0`:

        .. math:: \hat P(x_j = v \mid c) = \frac{N_{c,j,v} + \alpha}{N_c + \alpha\,n_j},

        with :math:`n_j` the number of categories of attribute :math:`j`.
        ``alpha=0`` gives the maximum-likelihood estimates (a zero count then
        vetoes a class).
    smooth_prior : bool, default=False
        Also smooth the class prior, :math:`\hat P(c) = (N_c + \alpha)/(N + K\alpha)`,
        as Zhou's equation (7.19) does. The default keeps the relative class
        frequencies, as scikit-learn does.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_count_ : ndarray of shape (n_classes,)
        :math:`N_c`.
    class_prior_ : ndarray of shape (n_classes,)
        :math:`\hat P(c)`.
    category_count_ : list of ndarray of shape (n_classes, n_categories_[j])
        :math:`N_{c,j,v}`.
    feature_log_prob_ : list of ndarray of shape (n_classes, n_categories_[j])
        :math:`\log\hat P(x_j = v\mid c)`.
    n_categories_ : ndarray of shape (n_features,)
    categories_ : list
        For a string column, its sorted categories; None for integer codes
        (categories 0, ..., max).
    n_features_in_ : int

    Notes
    -----
    Integer codes follow scikit-learn: column :math:`j` has the categories
    :math:`0,\dots,\max_i x_{ij}`. String columns (as ``load_watermelon``
    returns them) have the distinct values seen in fit. A value never seen in
    fit is treated as the smoothing rule implies: a category whose count is 0
    in every class, :math:`\alpha/(N_c + \alpha n_j)`; with ``alpha=0`` it has
    probability 0 under every class and ``predict`` raises a ``ValueError``.
    This is a convention, not a distribution: with the unseen value a class's
    factors sum to :math:`(N_c + \alpha(n_j + 1))/(N_c + \alpha n_j) > 1`, and
    the factor is larger for a smaller class, so an unseen value votes for the
    smaller class by :math:`\log\frac{N_{big} + \alpha n_j}{N_{small} + \alpha n_j}`.

    Examples
    --------
    >>> X = np.array([[0, 1], [0, 0], [1, 1], [1, 0]])
    >>> nb = CategoricalNB(alpha=1.0).fit(X, [0, 0, 1, 1])
    >>> np.round(nb.predict_proba([[0, 1]]), 3)
    array([[0.75, 0.25]])
    """

    def __init__(self, alpha: float = 1.0, smooth_prior: bool = False) -> None:
        self.alpha = alpha
        self.smooth_prior = smooth_prior

    def fit(self, X: Any, y: Any) -> "CategoricalNB":
        """Count the categories of every attribute in every class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Non-negative integer codes, or strings (an object array).
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        alpha = _check_alpha(self.alpha)
        check_bool(self.smooth_prior, "smooth_prior")
        X = check_array(X, "X", dtype=None)   # keeps strings and integer codes
        yk = self._fit_classes(y, X.shape[0])
        self._encoder_ = _CategoryCodes(X)
        codes = self._encoder_.transform(X)
        self.n_features_in_ = X.shape[1]
        self.categories_ = self._encoder_.categories
        self.n_categories_ = self._encoder_.n_categories.copy()
        self.category_count_, self.feature_log_prob_ = _categorical_log_probs(
            codes, yk, self.classes_.shape[0], self.n_categories_, alpha)
        self.class_prior_ = self._prior(alpha if self.smooth_prior else 0.0)
        self._alpha_ = alpha
        return self

    def _joint_log_likelihood(self, X: Any) -> np.ndarray:
        X = check_array(X, "X", dtype=None)   # keeps strings and integer codes
        check_n_features(self, X)
        codes = self._encoder_.transform(X)
        jll = _categorical_jll(codes, self.feature_log_prob_, self.n_categories_,
                               self.class_count_, self._alpha_)
        return jll + np.log(self.class_prior_)


# --- Gaussian --------------------------------------------------------------------

def _check_gaussian_params(var_smoothing: Any, ddof: Any) -> tuple[float, int]:
    vs = float(check_scalar(var_smoothing, "var_smoothing", numbers.Real, min_val=0.0))
    check_scalar(ddof, "ddof", numbers.Integral)
    if ddof not in (0, 1):
        raise ValueError(f"ddof must be 0 (maximum likelihood) or 1 (sample variance); got {ddof}")
    return vs, int(ddof)


def _gaussian_moments(X: np.ndarray, yk: np.ndarray, K: int, ddof: int, var_smoothing: float,
                      classes: np.ndarray):
    """Per-class means and variances (+ epsilon), shapes (K, d); epsilon."""
    counts = np.bincount(yk, minlength=K)
    if ddof == 1 and (counts < 2).any():
        c = classes[int(np.argmax(counts < 2))].tolist()
        raise ValueError(f"class {c!r} has a single sample, so its sample variance (ddof=1) "
                         "is undefined; use ddof=0 or more data")
    theta = np.empty((K, X.shape[1]))
    var = np.empty((K, X.shape[1]))
    for k in range(K):               # a loop over classes; each is vectorised over samples
        Xk = X[yk == k]
        theta[k] = Xk.mean(axis=0)
        var[k] = Xk.var(axis=0, ddof=ddof)   # two-pass: exact for un-centred data
    if not np.isfinite(var).all():
        j = int(np.argwhere(~np.isfinite(var))[0, 1])
        raise ValueError(
            f"attribute {j} of X has a variance that overflows float64 (its values reach "
            f"{np.abs(X[:, j]).max():g}; squares of values above about 1e154 are infinite); "
            "rescale X, e.g. standardise it")
    epsilon = var_smoothing * float(np.var(X, axis=0).max())
    var = var + epsilon
    if (var <= 0).any():
        k, j = np.argwhere(var <= 0)[0]
        raise ValueError(
            f"attribute {j} has zero variance in class {classes[k].tolist()!r} (and var_smoothing "
            f"adds {epsilon:g}); a normal density with zero variance is undefined. Use "
            "var_smoothing > 0 on data that is not constant, or drop the attribute")
    return theta, var, epsilon


def _gaussian_jll(X: np.ndarray, theta: np.ndarray, var: np.ndarray) -> np.ndarray:
    r"""Sum over attributes of :math:`\log\mathcal N(x_j; \mu_{c,j}, \sigma^2_{c,j})`."""
    K = theta.shape[0]
    jll = np.empty((X.shape[0], K))
    log_norm = -0.5 * np.sum(np.log(2.0 * np.pi * var), axis=1)        # (K,)
    for k in range(K):
        jll[:, k] = log_norm[k] - 0.5 * np.sum((X - theta[k]) ** 2 / var[k], axis=1)
    return jll


class GaussianNB(_BaseNB):
    r"""Naive Bayes for continuous attributes: a normal density per class and attribute.

    Parameters
    ----------
    var_smoothing : float, default=1e-9
        Add :math:`\epsilon` = ``var_smoothing`` times the largest variance of
        any attribute (over all samples) to every variance, as scikit-learn
        does, so that an attribute that is constant within a class does not
        give a zero variance.
    ddof : {0, 1}, default=0
        ``0``: the maximum-likelihood variance :math:`\frac1{N_c}\sum(x-\mu)^2`
        (scikit-learn's); ``1``: the sample variance
        :math:`\frac1{N_c-1}\sum(x-\mu)^2`, which Zhou's worked example uses.

    Attributes
    ----------
    classes_, class_count_, class_prior_ : ndarray of shape (n_classes,)
    theta_ : ndarray of shape (n_classes, n_features)
        Means :math:`\mu_{c,j}`.
    var_ : ndarray of shape (n_classes, n_features)
        Variances :math:`\sigma^2_{c,j}` (with :math:`\epsilon` added).
    epsilon_ : float
    n_features_in_ : int

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> GaussianNB().fit(X, [0, 0, 1, 1]).predict([[0.8], [3.2]])
    array([0, 1])
    """

    _zero_probability_reason = _FAR_VALUE

    def __init__(self, var_smoothing: float = 1e-9, ddof: int = 0) -> None:
        self.var_smoothing = var_smoothing
        self.ddof = ddof

    def fit(self, X: Any, y: Any) -> "GaussianNB":
        """Estimate the class priors, means and variances.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        vs, ddof = _check_gaussian_params(self.var_smoothing, self.ddof)
        X = check_array(X, "X")
        yk = self._fit_classes(y, X.shape[0])
        self.n_features_in_ = X.shape[1]
        self.theta_, self.var_, self.epsilon_ = _gaussian_moments(
            X, yk, self.classes_.shape[0], ddof, vs, self.classes_)
        self.class_prior_ = self._prior()
        return self

    def _joint_log_likelihood(self, X: Any) -> np.ndarray:
        X = check_array(X, "X")
        check_n_features(self, X)
        return _gaussian_jll(X, self.theta_, self.var_) + np.log(self.class_prior_)


# --- mixed -----------------------------------------------------------------------

class MixedNB(_BaseNB):
    r"""Naive Bayes for data with categorical and continuous columns (watermelon 3.0).

    The categorical columns get :class:`CategoricalNB`'s smoothed frequencies,
    the continuous ones :class:`GaussianNB`'s normal densities; the two sums of
    log-likelihoods are added to one log prior.

    Parameters
    ----------
    categorical_features : "auto", sequence of int, or boolean mask, default="auto"
        Which columns are categorical. ``"auto"``: the columns that hold
        anything other than real numbers (strings, as ``load_watermelon``
        returns them); a numeric array then has no categorical column.
    alpha : float, default=1.0
        Laplace smoothing of the categorical columns (see :class:`CategoricalNB`).
    ddof : {0, 1}, default=0
        Variance of the continuous columns (see :class:`GaussianNB`).
    var_smoothing : float, default=1e-9
        See :class:`GaussianNB`; the largest variance is taken over the
        continuous columns.
    smooth_prior : bool, default=False
        Smooth the class prior with ``alpha`` too (Zhou's (7.19)).

    Attributes
    ----------
    classes_, class_count_, class_prior_ : ndarray of shape (n_classes,)
    categorical_mask_ : ndarray of bool, shape (n_features,)
    feature_log_prob_, category_count_, n_categories_ : as in CategoricalNB, for the
        categorical columns in order
    theta_, var_ : ndarray of shape (n_classes, n_continuous)
        As in GaussianNB, for the continuous columns in order.
    epsilon_ : float
    n_features_in_ : int

    Notes
    -----
    With only categorical columns it equals ``CategoricalNB(alpha)``, with
    only continuous ones ``GaussianNB(var_smoothing, ddof)``.
    """

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        # string columns are categorical attributes (watermelon 3.0), not an error
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        return tags

    _zero_probability_reason = _UNSEEN_VALUE + "; or " + _FAR_VALUE

    def __init__(self, categorical_features: Any = "auto", alpha: float = 1.0, ddof: int = 0,
                 var_smoothing: float = 1e-9, smooth_prior: bool = False) -> None:
        self.categorical_features = categorical_features
        self.alpha = alpha
        self.ddof = ddof
        self.var_smoothing = var_smoothing
        self.smooth_prior = smooth_prior

    def _mask(self, X: np.ndarray) -> np.ndarray:
        d = X.shape[1]
        cf = self.categorical_features
        if isinstance(cf, str):
            if cf != "auto":
                raise ValueError(f"categorical_features must be 'auto', a sequence of column "
                                 f"indices or a boolean mask; got {cf!r}")
            if X.dtype.kind in "biuf":
                return np.zeros(d, dtype=bool)
            if X.dtype.kind in "US":
                return np.ones(d, dtype=bool)
            return np.array([not reals_in_objects(X[~missing_in_objects(X[:, j]), j]).all()
                             for j in range(d)])
        arr = np.asarray(cf)
        if arr.dtype.kind == "b":
            if arr.shape != (d,):
                raise ValueError(f"categorical_features as a boolean mask needs {d} entries "
                                 f"(one per column of X); got shape {arr.shape}")
            return arr.copy()
        if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
            raise ValueError(f"categorical_features must be 'auto', a sequence of column "
                             f"indices or a boolean mask; got {cf!r}")
        if arr.size and (arr.min() < -d or arr.max() >= d):
            raise ValueError(f"categorical_features holds a column index out of range for X "
                             f"with {d} columns: {arr.tolist()}")
        mask = np.zeros(d, dtype=bool)
        mask[arr] = True
        return mask

    def fit(self, X: Any, y: Any) -> "MixedNB":
        """Fit the categorical and the continuous parts.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            An object array (strings and numbers) or a numeric array.
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        alpha = _check_alpha(self.alpha)
        vs, ddof = _check_gaussian_params(self.var_smoothing, self.ddof)
        check_bool(self.smooth_prior, "smooth_prior")
        X = check_array(X, "X", dtype=None)   # keeps strings and integer codes
        yk = self._fit_classes(y, X.shape[0])
        K = self.classes_.shape[0]
        self.n_features_in_ = X.shape[1]
        self.categorical_mask_ = self._mask(X)
        Xc, Xg = self._split(X, "X")
        self._encoder_ = _CategoryCodes(Xc)
        self.n_categories_ = self._encoder_.n_categories.copy()
        self.category_count_, self.feature_log_prob_ = _categorical_log_probs(
            self._encoder_.transform(Xc), yk, K, self.n_categories_, alpha)
        if Xg.shape[1]:
            self.theta_, self.var_, self.epsilon_ = _gaussian_moments(
                Xg, yk, K, ddof, vs, self.classes_)
        else:
            self.theta_ = self.var_ = np.empty((K, 0))
            self.epsilon_ = 0.0
        self.class_prior_ = self._prior(alpha if self.smooth_prior else 0.0)
        self._alpha_ = alpha
        return self

    def _split(self, X: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
        mask = self.categorical_mask_
        Xc = X[:, mask]
        Xg = X[:, ~mask]
        if Xg.shape[1]:
            if Xg.dtype.kind == "O":
                for j in range(Xg.shape[1]):
                    col = Xg[:, j]
                    if missing_in_objects(col).any():
                        raise ValueError(f"a continuous column of {name} contains a missing "
                                         "value (None or NaN)")
                    if not reals_in_objects(col).all():
                        raise TypeError(f"continuous column {int(np.flatnonzero(~mask)[j])} of "
                                        f"{name} holds non-numbers; list it in "
                                        "categorical_features")
            Xg = check_array(Xg.astype(np.float64) if Xg.dtype.kind == "O" else Xg, name)
        return Xc, Xg

    def _joint_log_likelihood(self, X: Any) -> np.ndarray:
        X = check_array(X, "X", dtype=None)   # keeps strings and integer codes
        check_n_features(self, X)
        Xc, Xg = self._split(X, "X")
        jll = np.log(self.class_prior_) + np.zeros((X.shape[0], 1))
        if Xc.shape[1]:
            jll = jll + _categorical_jll(self._encoder_.transform(Xc), self.feature_log_prob_,
                                         self.n_categories_, self.class_count_, self._alpha_)
        if Xg.shape[1]:
            jll = jll + _gaussian_jll(Xg, self.theta_, self.var_)
        return jll


# --- event models ----------------------------------------------------------------
#
# Text as counts (multinomial) or as present/absent words (multivariate Bernoulli):
# both fit with one matrix product Y^T X and predict with one product X @ W^T.

__all__ += ["MultinomialNB", "BernoulliNB"]


def _check_fit_prior(fit_prior: Any) -> None:
    check_bool(fit_prior, "fit_prior")


def _one_hot(yk: np.ndarray, K: int) -> np.ndarray:
    Y = np.zeros((yk.shape[0], K))
    Y[np.arange(yk.shape[0]), yk] = 1.0
    return Y


def _linear_jll(X: np.ndarray, W: np.ndarray) -> np.ndarray:
    """``X @ W.T`` where W may hold -inf (alpha=0): 0 * -inf counts as 0, not NaN."""
    finite = np.isfinite(W)
    if finite.all():
        return X @ W.T
    jll = X @ np.where(finite, W, 0.0).T
    vetoed = (X != 0).astype(np.float64) @ (~finite).astype(np.float64).T
    return np.where(vetoed > 0, -np.inf, jll)


class _BaseDiscreteNB(_BaseNB):
    """Shared by MultinomialNB and BernoulliNB: counts by Y^T X, the class log prior."""

    _zero_probability_reason = ("a word it contains has count zero in every class and "
                                "alpha=0 gives it probability zero; use alpha > 0 "
                                "(Laplace smoothing)")

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        # an event model on scikit-learn's Gaussian blobs scores below the 0.83 accuracy
        # its checks ask of a classifier; scikit-learn's own discrete naive Bayes
        # estimators carry the same tag
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True
        return tags

    def _check_X(self, X: Any) -> np.ndarray:
        return check_array(X, "X")

    def fit(self, X: Any, y: Any):
        """Count the features in every class and smooth the estimates.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Word counts (MultinomialNB) or features to binarise (BernoulliNB).
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        alpha = _check_alpha(self.alpha)
        _check_fit_prior(self.fit_prior)
        self._check_params()
        X = self._check_X(X)
        yk = self._fit_classes(y, X.shape[0])
        K = self.classes_.shape[0]
        self.n_features_in_ = X.shape[1]
        self.feature_count_ = _one_hot(yk, K).T @ X          # (K, d): one matrix product
        if self.fit_prior:
            with np.errstate(divide="ignore"):
                self.class_log_prior_ = np.log(self.class_count_) - np.log(self.class_count_.sum())
        else:
            self.class_log_prior_ = np.full(K, -np.log(K))
        with np.errstate(divide="ignore", invalid="ignore"):
            self.feature_log_prob_ = self._feature_log_prob(alpha)
        if np.isnan(self.feature_log_prob_).any():
            k = int(np.argwhere(np.isnan(self.feature_log_prob_))[0, 0])
            raise ValueError(f"class {self.classes_[k].tolist()!r} has no counts at all (every "
                             "feature is 0 in its samples) and alpha=0 leaves its estimates "
                             "0/0; use alpha > 0 (Laplace smoothing)")
        self._alpha_ = alpha
        return self

    def _check_params(self) -> None:
        pass


class MultinomialNB(_BaseDiscreteNB):
    r"""Naive Bayes for counts (the multinomial event model, 多项式朴素贝叶斯): text as words.

    A document of class :math:`c` is a sequence of words, each drawn
    independently from the class's distribution :math:`\theta_{c,1},\dots,
    \theta_{c,d}` over the vocabulary; with :math:`x_j` the count of word
    :math:`j`, up to a factor that does not depend on the class,

    .. math:: \log P(c\mid\boldsymbol x) = \log P(c) + \sum_j x_j\log\theta_{c,j} + \text{const}.

    A word absent from the document (:math:`x_j=0`) contributes
    :math:`\theta_{c,j}^0 = 1`: nothing.

    Parameters
    ----------
    alpha : float, default=1.0
        Additive (Laplace) smoothing :math:`\alpha\ge 0` of the word counts:

        .. math:: \hat\theta_{c,j} = \frac{N_{c,j} + \alpha}{N_c + \alpha d},

        with :math:`N_{c,j}` the total count of word :math:`j` in the documents
        of class :math:`c`, :math:`N_c = \sum_j N_{c,j}` and :math:`d` the
        number of words. ``alpha=0``: maximum likelihood (a word never seen in
        a class then vetoes the class).
    fit_prior : bool, default=True
        Estimate :math:`P(c)` as the class frequencies; False: uniform.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_count_ : ndarray of shape (n_classes,)
        Number of training samples of each class.
    class_log_prior_ : ndarray of shape (n_classes,)
        :math:`\log\hat P(c)`.
    feature_count_ : ndarray of shape (n_classes, n_features)
        :math:`N_{c,j}` = ``Y.T @ X`` (Y the one-hot class matrix).
    feature_log_prob_ : ndarray of shape (n_classes, n_features)
        :math:`\log\hat\theta_{c,j}`.
    n_features_in_ : int

    Notes
    -----
    Equal to scikit-learn's ``MultinomialNB(alpha, fit_prior=...,
    force_alpha=True)``; scikit-learn's default ``force_alpha`` would raise an
    ``alpha`` below 1e-10 to 1e-10. ``X`` may hold any non-negative numbers
    (counts, or tf-idf weights as is common in practice).

    Examples
    --------
    >>> X = np.array([[2, 1, 0], [3, 0, 0], [0, 1, 2], [0, 0, 3]])
    >>> nb = MultinomialNB().fit(X, [0, 0, 1, 1])
    >>> nb.predict([[1, 0, 0], [0, 0, 1]])
    array([0, 1])
    >>> np.exp(nb.feature_log_prob_[0]).round(3)      # (5+1)/9, (1+1)/9, (0+1)/9
    array([0.667, 0.222, 0.111])
    """

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        # counts: scikit-learn's checks then pass non-negative data
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        return tags

    def __init__(self, alpha: float = 1.0, fit_prior: bool = True) -> None:
        self.alpha = alpha
        self.fit_prior = fit_prior

    def _check_X(self, X: Any) -> np.ndarray:
        X = check_array(X, "X")
        if X.min() < 0:                            # one pass; the column only on error
            smallest = X.min(axis=0)
            j = int(np.flatnonzero(smallest < 0)[0])
            raise ValueError(f"Negative values in data passed to MultinomialNB (input X): "
                             f"column {j} of X holds {smallest[j]:g}; X must hold counts "
                             "(non-negative numbers)")
        return X

    def _feature_log_prob(self, alpha: float) -> np.ndarray:
        smoothed = self.feature_count_ + alpha
        return np.log(smoothed) - np.log(smoothed.sum(axis=1))[:, None]

    def _joint_log_likelihood(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "feature_log_prob_")
        X = self._check_X(X)
        check_n_features(self, X)
        return _linear_jll(X, self.feature_log_prob_) + self.class_log_prior_


class BernoulliNB(_BaseDiscreteNB):
    r"""Naive Bayes for binary features (the multivariate Bernoulli event model, 伯努利朴素贝叶斯).

    Each feature (word of the vocabulary) is present (:math:`x_j=1`) or absent
    (:math:`x_j=0`), independently given the class, with probability
    :math:`\theta_{c,j}` of being present:

    .. math:: \log P(c\mid\boldsymbol x) = \log P(c) + \sum_j \bigl[x_j\log\theta_{c,j}
              + (1-x_j)\log(1-\theta_{c,j})\bigr] + \text{const}.

    Unlike :class:`MultinomialNB`, an absent word contributes a factor
    :math:`1-\theta_{c,j}`: every word of the vocabulary counts, present or not.
    It is computed as :math:`\sum_j\log(1-\theta_{c,j})` once per class plus
    ``X @ (log theta - log(1 - theta)).T``.

    Parameters
    ----------
    alpha : float, default=1.0
        Additive (Laplace) smoothing :math:`\alpha\ge0`:
        :math:`\hat\theta_{c,j} = (m_{c,j} + \alpha)/(m_c + 2\alpha)`, with
        :math:`m_{c,j}` the number of samples of class :math:`c` in which
        feature :math:`j` is present and :math:`m_c` the number of samples of
        class :math:`c` (two outcomes: hence :math:`2\alpha`).
    binarize : float or None, default=0.0
        Threshold: a feature is present when it is greater than ``binarize``
        (in fit and in predict). None: ``X`` is binary already and is used as
        it is.
    fit_prior : bool, default=True
        Estimate :math:`P(c)` as the class frequencies; False: uniform.

    Attributes
    ----------
    classes_, class_count_, class_log_prior_ : ndarray of shape (n_classes,)
        As in :class:`MultinomialNB`.
    feature_count_ : ndarray of shape (n_classes, n_features)
        :math:`m_{c,j}`: in how many samples of class :math:`c` feature
        :math:`j` is present.
    feature_log_prob_ : ndarray of shape (n_classes, n_features)
        :math:`\log\hat\theta_{c,j}`.
    n_features_in_ : int

    Notes
    -----
    Equal to scikit-learn's ``BernoulliNB(alpha, binarize=..., fit_prior=...,
    force_alpha=True)``, except that :math:`\log(1-\hat\theta_{c,j})` is
    computed from the counts, :math:`\log(m_c - m_{c,j} + \alpha) - \log(m_c +
    2\alpha)`, and so stays exact when :math:`\hat\theta_{c,j}` is close to 1
    (a feature present in every sample of a class and a tiny ``alpha``), where
    :math:`\log(1 - e^{\log\hat\theta})` loses about :math:`k` of its 16
    digits at a distance :math:`10^{-k}` from 1.

    Examples
    --------
    >>> X = np.array([[2, 1, 0], [3, 0, 0], [0, 1, 2], [0, 0, 3]])
    >>> nb = BernoulliNB().fit(X, [0, 0, 1, 1])
    >>> np.exp(nb.feature_log_prob_[0]).round(3)      # (2+1)/4, (1+1)/4, (0+1)/4
    array([0.75, 0.5 , 0.25])
    """

    _zero_probability_reason = ("with alpha=0 every class has a feature whose value here it "
                                "never saw (present where the class's training samples never "
                                "had it, or absent where they always had it); use alpha > 0 "
                                "(Laplace smoothing)")

    def __init__(self, alpha: float = 1.0, binarize: float | None = 0.0,
                 fit_prior: bool = True) -> None:
        self.alpha = alpha
        self.binarize = binarize
        self.fit_prior = fit_prior

    def _check_params(self) -> None:
        if self.binarize is not None:
            check_scalar(self.binarize, "binarize", numbers.Real)

    def _check_X(self, X: Any) -> np.ndarray:
        X = check_array(X, "X")
        if self.binarize is not None:
            X = (X > self.binarize).astype(np.float64)
        return X

    def _feature_log_prob(self, alpha: float) -> np.ndarray:
        return (np.log(self.feature_count_ + alpha)
                - np.log(self.class_count_ + 2.0 * alpha)[:, None])

    def _joint_log_likelihood(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "feature_log_prob_")
        self._check_params()
        X = self._check_X(X)
        check_n_features(self, X)
        with np.errstate(divide="ignore"):
            # log(1 - theta) from the counts, exact also when theta is close to 1, where
            # scikit-learn's log(1 - exp(log theta)) loses k digits at a distance 10^-k
            neg = (np.log(self.class_count_[:, None] - self.feature_count_ + self._alpha_)
                   - np.log(self.class_count_ + 2.0 * self._alpha_)[:, None])
        with np.errstate(invalid="ignore"):
            present = self.feature_log_prob_ - neg
        finite = np.isfinite(self.feature_log_prob_) & np.isfinite(neg)
        if finite.all():
            return X @ present.T + (self.class_log_prior_ + neg.sum(axis=1))
        # alpha = 0: theta may be 0 or 1, so a present (absent) feature vetoes a class
        jll = (X @ np.where(finite, present, 0.0).T
               + np.where(np.isfinite(neg), neg, 0.0).sum(axis=1) + self.class_log_prior_)
        veto = (X @ (~np.isfinite(self.feature_log_prob_)).T
                + (1.0 - X) @ (~np.isfinite(neg)).T)
        return np.where(veto > 0, -np.inf, jll)


# --- semi-naive Bayes ------------------------------------------------------------
#
# AODE and TAN relax the independence assumption by one dependence per attribute
# (Zhou, section 7.4). Both are built on the categorical machinery above: the
# category coding of _CategoryCodes, Laplace-smoothed counts, log space.

__all__ += ["AODE", "TAN", "conditional_mutual_information", "maximum_spanning_tree"]


def _check_m_min(m_min: Any) -> float:
    return float(check_scalar(m_min, "m_min", numbers.Real, min_val=0.0))


def _pair_counts(codes: np.ndarray, yk: np.ndarray, K: int, V: int) -> np.ndarray:
    r"""All pairwise counts :math:`N_{c, x_i = v, x_j = w}`, shape (d, K, V, d, V).

    One ``bincount`` per parent attribute i over the n*d (sample, j) pairs: a
    loop over the d attributes, none over samples, and an index array of n*d
    entries (one over all n*d*d triples would need 8 GB at n = 10^5, d = 100).
    """
    n, d = codes.shape
    out = np.empty((d, K, V, d, V))
    child = np.arange(d)[None, :] * V + codes                        # (n, d): (j, x_j)
    for i in range(d):
        parent = (yk * V + codes[:, i]) * (d * V)                    # (n,): (c, x_i)
        out[i] = np.bincount((parent[:, None] + child).ravel(),
                             minlength=K * V * d * V).reshape(K, V, d, V)
    return out


def _log_ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """log(num / den) with log(0/0) = -inf (a zero count with alpha=0: that term is absent)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(num) - np.log(den)
    return np.where(np.isnan(out), -np.inf, out)


class AODE(_CategoricalInput, _BaseNB):
    r"""Averaged one-dependent estimators (平均独依赖估计, Webb, Boughton and Wang 2005).

    Every attribute :math:`x_i` in turn is a super-parent (超父) on which all
    the attributes depend besides the class (a SPODE); AODE averages the
    SPODEs whose super-parent value is frequent enough, Zhou's (7.23):

    .. math::
        P(c \mid \boldsymbol x) \propto
        \sum_{i:\ |D_{x_i}| \ge m'} \hat P(c, x_i) \prod_{j=1}^d \hat P(x_j \mid c, x_i),

    with the Laplace-smoothed estimates (7.24)-(7.25), :math:`\alpha = 1` in Zhou:

    .. math::
        \hat P(c, x_i) = \frac{|D_{c, x_i}| + \alpha}{|D| + \alpha N N_i}, \qquad
        \hat P(x_j \mid c, x_i) = \frac{|D_{c, x_i, x_j}| + \alpha}{|D_{c, x_i}| + \alpha N_j},

    :math:`N` the number of classes and :math:`N_i` the number of categories of
    attribute :math:`i`.

    Parameters
    ----------
    m_min : float, default=30
        :math:`m'`: a value :math:`x_i` of the sample being classified makes
        attribute :math:`i` a super-parent only if at least ``m_min`` training
        samples have it (Webb et al. use 30), so that the estimates conditioned
        on it rest on enough data. Must be >= 0.
    alpha : float, default=1.0
        Laplace smoothing; ``alpha=0`` gives the unsmoothed frequencies.

    Attributes
    ----------
    classes_, class_count_ : ndarray of shape (n_classes,)
    class_prior_ : ndarray of shape (n_classes,)
        :math:`(N_c + \alpha)/(|D| + N\alpha)`, used by the naive-Bayes fallback.
    n_categories_ : ndarray of shape (n_features,)
        :math:`N_i`.
    value_count_ : list of ndarray of shape (n_categories_[i],)
        :math:`|D_{x_i = v}|`, the counts compared with ``m_min``.
    pair_count_ : ndarray of shape (n_features, n_classes, V, n_features, V)
        :math:`|D_{c, x_i = v, x_j = w}|` at ``[i, c, v, j, w]`` (V: the
        largest :math:`N_i` plus one; entries past a column's categories are 0).
    categories_ : list
        As in :class:`CategoricalNB`.
    n_features_in_ : int

    Notes
    -----
    * ``predict_joint_log_proba`` returns the log of the *average* of the
      qualifying SPODEs' joints, an estimate of :math:`P(c, \boldsymbol x)`;
      Zhou's sum differs from it by the number of super-parents, a factor that
      cancels in the posterior. The average is taken by log-sum-exp, so it
      does not underflow however many attributes there are.
    * The product runs over all :math:`j` including :math:`j = i`, as in
      (7.23); the factor :math:`\hat P(x_i\mid c, x_i) = (|D_{c,x_i}| +
      \alpha)/(|D_{c,x_i}| + \alpha N_i)` is 1 without smoothing.
    * **No super-parent.** If no value of the sample reaches ``m_min``, the
      sample is classified by naive Bayes,
      ``CategoricalNB(alpha, smooth_prior=True)`` (Zhou's (7.19)-(7.20)), as
      Webb et al. do.
    * **A value never seen in fit** follows the smoothing rule, as in
      :class:`CategoricalNB`: it cannot be a super-parent while ``m_min > 0``
      (it has count 0); as a child it gets
      :math:`\alpha/(|D_{c,x_i}| + \alpha N_j)`, the estimate of a
      category with count 0. With ``alpha=0`` it has probability 0; if that
      holds for every class, ``predict`` raises a ``ValueError``.
    * A continuous column (floats that are not whole numbers) is refused with
      an error naming the column: discretise it first.

    Examples
    --------
    >>> X = np.array([[0, 0], [0, 0], [1, 1], [1, 1], [0, 1]])
    >>> np.round(AODE(m_min=0).fit(X, [0, 0, 1, 1, 1]).predict_proba([[0, 0]]), 3)
    array([[0.829, 0.171]])
    """

    def __init__(self, m_min: float = 30, alpha: float = 1.0) -> None:
        self.m_min = m_min
        self.alpha = alpha

    def fit(self, X: Any, y: Any) -> "AODE":
        """Count every class, attribute value and pair of attribute values.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Categories: non-negative integer codes or strings.
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        m_min = _check_m_min(self.m_min)
        alpha = _check_alpha(self.alpha)
        X = check_array(X, "X", dtype=None)   # keeps strings and integer codes
        yk = self._fit_classes(y, X.shape[0])
        K = self.classes_.shape[0]
        self._encoder_ = _CategoryCodes(X)
        codes = self._encoder_.transform(X)
        n, d = codes.shape
        self.n_features_in_ = d
        self.categories_ = self._encoder_.categories
        self.n_categories_ = Nj = self._encoder_.n_categories.copy()
        V = int(Nj.max()) + 1                  # slot Nj[j] of column j: a value unseen in fit
        self.pair_count_ = pc = _pair_counts(codes, yk, K, V)
        parent = pc[np.arange(d), :, :, np.arange(d), :].diagonal(axis1=2, axis2=3)
        # parent[i, c, v] = |D_{c, x_i = v}| (the diagonal j = i, w = v of the pair counts)
        self.value_count_ = [parent[i].sum(axis=0)[:Nj[i]] for i in range(d)]
        self._qualifies_ = parent.sum(axis=1) >= m_min                       # (d, V)
        self._log_parent_ = _log_ratio(parent + alpha,
                                       (n + alpha * K * Nj)[:, None, None])  # (d, K, V)
        self._log_child_ = _log_ratio(pc + alpha, parent[:, :, :, None, None]
                                      + alpha * Nj[None, None, None, :, None])
        # the naive-Bayes fallback: CategoricalNB(alpha, smooth_prior=True)
        _, self._nb_log_prob_ = _categorical_log_probs(codes, yk, K, Nj, alpha)
        self.class_prior_ = self._prior(alpha)
        self._alpha_ = alpha
        return self

    def _codes(self, X: Any) -> np.ndarray:
        X = check_array(X, "X", dtype=None)
        check_n_features(self, X)
        codes = self._encoder_.transform(X)
        return np.where(codes >= 0, codes, self.n_categories_)    # unseen -> its slot

    def _spode_log_joint(self, codes: np.ndarray) -> np.ndarray:
        r"""log of :math:`\hat P(c, x_i)\prod_j \hat P(x_j\mid c, x_i)`, shape (d, n, K).

        A loop over the d super-parents; each step is vectorised over samples.
        """
        n, d = codes.shape
        cols = np.arange(d)
        out = np.empty((d, n, self.classes_.shape[0]))
        for i in range(d):
            child = self._log_child_[i][:, codes[:, i][:, None], cols[None, :], codes]  # (K,n,d)
            out[i] = (self._log_parent_[i][:, codes[:, i]] + child.sum(axis=2)).T
        return out

    def _joint_log_likelihood(self, X: Any) -> np.ndarray:
        codes = self._codes(X)
        n, d = codes.shape
        parents = self._qualifies_[np.arange(d)[None, :], codes]          # (n, d)
        spode = self._spode_log_joint(codes)
        spode[~parents.T] = -np.inf
        n_par = parents.sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):   # rows without parents: below
            jll = logsumexp(spode, axis=0) - np.log(n_par)[:, None]
        none = n_par == 0
        if none.any():
            nb_codes = np.where(codes < self.n_categories_, codes, -1)[none]
            jll[none] = (_categorical_jll(nb_codes, self._nb_log_prob_, self.n_categories_,
                                          self.class_count_, self._alpha_)
                         + np.log(self.class_prior_))
        return jll

    def n_super_parents(self, X: Any) -> np.ndarray:
        """How many attributes of each sample qualify as super-parents (0: naive Bayes).

        Returns
        -------
        ndarray of int, shape (n_samples,)
        """
        check_is_fitted(self, "classes_")
        codes = self._codes(X)
        return self._qualifies_[np.arange(codes.shape[1])[None, :], codes].sum(axis=1)


def conditional_mutual_information(X: Any, y: Any) -> np.ndarray:
    r"""The matrix of conditional mutual informations (条件互信息) :math:`I(x_i; x_j \mid y)`.

    From the empirical frequencies (no smoothing), in nats, as Friedman, Geiger
    and Goldszmidt (1997) define it:

    .. math::
        I(x_i; x_j \mid y) = \sum_{c}\sum_{v, w} P(v, w, c)
        \log\frac{P(v, w \mid c)}{P(v \mid c)\, P(w \mid c)},

    terms with :math:`P(v, w, c) = 0` being 0. Zhou's (7.26) weights the
    terms by :math:`P(v, w \mid c)` instead, which drops the weight
    :math:`P(c)` of each class; the maximum-likelihood property of TAN's tree
    needs the weighted form used here.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Categories (integer codes or strings).
    y : array-like of shape (n_samples,)

    Returns
    -------
    ndarray of shape (n_features, n_features)
        Symmetric, non-negative; the diagonal holds
        :math:`I(x_i; x_i \mid y) = H(x_i \mid y)`.

    Examples
    --------
    >>> X = np.array([[0, 0, 0], [1, 1, 0], [0, 0, 1], [1, 1, 1]])
    >>> np.round(conditional_mutual_information(X, [0, 0, 1, 1]), 3)
    array([[0.693, 0.693, 0.   ],
           [0.693, 0.693, 0.   ],
           [0.   , 0.   , 0.   ]])
    """
    X = check_array(X, "X", dtype=None)
    y = column_or_1d(y, "y")
    check_consistent_length(X, y, names=["X", "y"])
    _, yk = encode_labels(y)
    K = int(yk.max()) + 1
    codes = _CategoryCodes(X).transform(X)
    n, d = codes.shape
    V = int(codes.max()) + 1
    pc = _pair_counts(codes, yk, K, V)                        # (d, K, V, d, V)
    single = pc[np.arange(d), :, :, np.arange(d), :].diagonal(axis1=2, axis2=3)  # (d, K, V)
    nc = np.bincount(yk, minlength=K).astype(np.float64)      # (K,)
    # P(v,w,c) log[P(v,w|c) / (P(v|c) P(w|c))] = (N_cvw / n) log[N_cvw N_c / (N_cv N_cw)]
    num = pc * nc[None, :, None, None, None]
    den = single[:, :, :, None, None] * single.transpose(1, 0, 2)[None, :, None, :, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(pc > 0, pc / n * (np.log(num) - np.log(den)), 0.0)
    cmi = terms.sum(axis=(1, 2, 4))
    return np.maximum((cmi + cmi.T) / 2, 0.0)      # exact symmetry; clip -1e-17 round-off


def maximum_spanning_tree(weights: Any, root: int = 0) -> np.ndarray:
    r"""Prim's maximum spanning tree (最大带权生成树) of a complete graph, rooted.

    Starts from ``root`` and repeatedly adds the heaviest edge from the tree to
    a vertex outside it; the vertex it reaches gets the tree vertex as parent,
    so the result is the tree with every edge directed away from ``root``
    (TAN's step 3). :math:`O(d^2)` with NumPy, a loop over the d vertices.

    Parameters
    ----------
    weights : array-like of shape (d, d)
        Symmetric edge weights (the diagonal is ignored), finite.
    root : int, default=0

    Returns
    -------
    ndarray of int, shape (d,)
        ``parent[j]``, the vertex ``j`` hangs from; ``parent[root] = -1``.
        Ties between vertices to add go to the smaller index; between tree
        vertices to hang from, to the one added first.

    Examples
    --------
    >>> W = np.array([[0, 3, 1], [3, 0, 2], [1, 2, 0]])
    >>> maximum_spanning_tree(W).tolist()
    [-1, 0, 1]
    """
    W = check_array(weights, "weights")
    d = W.shape[0]
    if W.shape != (d, d):
        raise ValueError(f"weights must be a square matrix; got shape {W.shape}")
    if not np.array_equal(W, W.T):
        raise ValueError("weights must be symmetric (an undirected graph)")
    root = int(check_scalar(root, "root", numbers.Integral, min_val=0))
    if root >= d:
        raise ValueError(f"root must be a vertex 0..{d - 1}; got {root}")
    parent = np.full(d, -1, dtype=np.intp)
    in_tree = np.zeros(d, dtype=bool)
    in_tree[root] = True
    best = W[root].copy()                    # heaviest edge from the tree to each vertex
    best_from = np.full(d, root, dtype=np.intp)
    for _ in range(d - 1):
        j = int(np.argmax(np.where(in_tree, -np.inf, best)))
        in_tree[j] = True
        parent[j] = best_from[j]
        better = ~in_tree & (W[j] > best)
        best[better] = W[j, better]
        best_from[better] = j
    return parent


class TAN(_CategoricalInput, _BaseNB):
    r"""Tree-augmented naive Bayes (树增强朴素贝叶斯; Friedman, Geiger and Goldszmidt 1997).

    Each attribute depends on the class and on at most one other attribute,
    its parent in a tree: the maximum spanning tree of the conditional mutual
    informations :math:`I(x_i; x_j\mid y)` (:func:`conditional_mutual_information`,
    :func:`maximum_spanning_tree`), rooted at attribute ``root``. Then

    .. math::
        P(c, \boldsymbol x) = \hat P(c)\,\hat P(x_r\mid c)
        \prod_{j \ne r} \hat P(x_j \mid c, x_{\mathrm{pa}(j)}),

    with the Laplace-smoothed estimates of :class:`AODE` (7.25) and
    :class:`CategoricalNB`, and the prior :math:`(N_c+\alpha)/(|D| + N\alpha)`.

    Parameters
    ----------
    alpha : float, default=1.0
    root : int, default=0
        The attribute at the root (the tree's direction). With ``alpha=0`` the
        model does not depend on it (every direction of a tree gives the same
        product of maximum-likelihood factors); with smoothing it changes the
        probabilities a little.

    Attributes
    ----------
    classes_, class_count_, class_prior_ : ndarray of shape (n_classes,)
    cmi_ : ndarray of shape (n_features, n_features)
    parent_ : ndarray of int, shape (n_features,)
        The tree: ``parent_[root] = -1``.
    n_categories_ : ndarray of shape (n_features,)
    n_features_in_ : int

    Notes
    -----
    A value unseen in fit is treated by the smoothing rule as in
    :class:`CategoricalNB` and :class:`AODE`: count 0.
    """

    def __init__(self, alpha: float = 1.0, root: int = 0) -> None:
        self.alpha = alpha
        self.root = root

    def fit(self, X: Any, y: Any) -> "TAN":
        """Build the tree and count.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        alpha = _check_alpha(self.alpha)
        root = int(check_scalar(self.root, "root", numbers.Integral, min_val=0))
        X = check_array(X, "X", dtype=None)
        yk = self._fit_classes(y, X.shape[0])
        K = self.classes_.shape[0]
        if root >= X.shape[1]:
            raise ValueError(f"root must be an attribute 0..{X.shape[1] - 1}; got {root}")
        self._encoder_ = _CategoryCodes(X)
        codes = self._encoder_.transform(X)
        self.n_features_in_ = d = X.shape[1]
        self.n_categories_ = Nj = self._encoder_.n_categories.copy()
        self.cmi_ = conditional_mutual_information(codes, yk)
        self.parent_ = maximum_spanning_tree(self.cmi_, root=root)
        _, nb_lp = _categorical_log_probs(codes, yk, K, Nj, alpha)
        self._tables_ = []
        for j in range(d):                 # a loop over attributes, not samples
            p = self.parent_[j]
            if p < 0:
                self._tables_.append(np.column_stack([nb_lp[j], _log_ratio(
                    np.full(K, alpha), self.class_count_ + alpha * Nj[j])])[:, None, :])
                continue
            # (K, N_p + 1, N_j + 1): the last row/column is a value unseen in fit
            cnt = np.zeros((K, Nj[p] + 1, Nj[j] + 1))
            np.add.at(cnt, (yk, codes[:, p], codes[:, j]), 1.0)
            self._tables_.append(_log_ratio(cnt + alpha,
                                            cnt.sum(axis=2, keepdims=True) + alpha * Nj[j]))
        self.class_prior_ = self._prior(alpha)
        return self

    def _joint_log_likelihood(self, X: Any) -> np.ndarray:
        X = check_array(X, "X", dtype=None)
        check_n_features(self, X)
        codes = self._encoder_.transform(X)
        codes = np.where(codes >= 0, codes, self.n_categories_)
        jll = np.tile(np.log(self.class_prior_), (codes.shape[0], 1))
        for j, table in enumerate(self._tables_):
            p = self.parent_[j]
            pv = codes[:, p] if p >= 0 else np.zeros(codes.shape[0], dtype=np.intp)
            jll += table[:, pv, codes[:, j]].T
        return jll
