r"""Recalibrating a classifier's probabilities: Platt scaling and isotonic regression.

A classifier whose ranking of the samples is good can still put out
probabilities that are too extreme (naive Bayes, boosting) or too timid (an
SVM's scores are no probabilities at all). A calibration map (校准映射)
:math:`g` fitted on held-out scores fixes the numbers without changing the
order (much):

* :class:`SigmoidCalibration`: Platt scaling, :math:`g(f) = 1/(1 + e^{af + b})`,
  :math:`a, b` fitted by Newton's method to smoothed targets (Platt 1999).
* :func:`isotonic_regression` and :class:`IsotonicRegression`: the best
  non-decreasing step function in weighted least squares, by the
  pool-adjacent-violators algorithm (保序回归; Zadrozny and Elkan 2002),
  equal to scikit-learn's ``IsotonicRegression``.
* :class:`CalibratedClassifier`: either map fitted on out-of-fold scores,
  then the classifier refitted on all the data (scikit-learn's
  ``CalibratedClassifierCV(ensemble=False)``).

See the chapter "Semi-naive Bayes and calibrated probabilities".
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from ._math import expit
from ._validation import (check_array, check_bool, check_classification_targets,
                          check_consistent_length, check_is_fitted, check_n_features,
                          check_sample_weight,
                          check_scalar, column_or_1d)
from .base import BaseEstimator, ClassifierMixin, RegressorMixin, TransformerMixin, clone

__all__ = ["isotonic_regression", "IsotonicRegression", "SigmoidCalibration",
           "CalibratedClassifier"]


# --- isotonic regression ---------------------------------------------------------

def isotonic_regression(y: Any, sample_weight: Any = None, increasing: bool = True) -> np.ndarray:
    r"""Pool adjacent violators (PAV): the isotonic fit of a sequence.

    Solves

    .. math:: \min_{\hat y_1 \le \hat y_2 \le \dots \le \hat y_m}\ \sum_i w_i (y_i - \hat y_i)^2

    (or :math:`\ge` when ``increasing=False``). The solution is a step
    function whose steps are weighted means of consecutive :math:`y_i`. PAV
    reads the sequence once, keeping a stack of blocks (weighted mean, total
    weight, length); a new value starts a block, and while the top block's
    mean is not larger than the one below it (a violation), the two are
    pooled into their weighted mean. Each pooling removes a block, so there
    are fewer than :math:`m` of them: :math:`O(m)` time.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        The values, in the order of the (sorted) inputs.
    sample_weight : array-like of shape (n_samples,), optional
        Positive weights (default: ones).
    increasing : bool, default=True

    Returns
    -------
    ndarray of shape (n_samples,)

    Examples
    --------
    >>> isotonic_regression([1.0, 3.0, 2.0, 4.0, 3.0, 5.0]).tolist()
    [1.0, 2.5, 2.5, 3.5, 3.5, 5.0]
    """
    y = column_or_1d(y, "y", dtype=np.float64)
    if not np.isfinite(y).all():
        raise ValueError("y contains NaN or infinity")
    increasing = check_bool(increasing, "increasing")
    w = check_sample_weight(sample_weight, y.shape[0])
    if (w <= 0).any():
        raise ValueError("sample_weight must be positive in isotonic_regression (a weight "
                         "of 0 leaves its sample's value undefined; drop such samples)")
    if not increasing:
        return -isotonic_regression(-y, w, increasing=True)
    m = y.shape[0]
    mean = np.empty(m)            # the stack of blocks: mean, weight, number of samples
    weight = np.empty(m)
    size = np.empty(m, dtype=np.intp)
    top = -1
    for i in range(m):            # PAV is sequential: one pass over the samples
        top += 1
        mean[top], weight[top], size[top] = y[i], w[i], 1
        while top > 0 and mean[top - 1] >= mean[top]:
            wt = weight[top - 1] + weight[top]
            mean[top - 1] = (weight[top - 1] * mean[top - 1] + weight[top] * mean[top]) / wt
            weight[top - 1] = wt
            size[top - 1] += size[top]
            top -= 1
    return np.repeat(mean[:top + 1], size[:top + 1])


def _check_1d_input(X: Any, name: str = "X") -> np.ndarray:
    X = np.asarray(X) if not hasattr(X, "shape") else X
    if getattr(X, "ndim", 1) == 2:
        if X.shape[1] != 1:
            raise ValueError(f"{name} must be 1-d or a single column; got shape {X.shape}")
        X = X[:, 0]
    return column_or_1d(X, name, dtype=np.float64)


def _tie_groups(X: np.ndarray) -> np.ndarray:
    """Where the groups of tied inputs start in sorted ``X``.

    An input less than 1e-15 (the resolution of float64) above the first input
    of the current group joins it, as scikit-learn's ``_make_unique`` does; this
    matters for scores such as naive Bayes probabilities that differ from 1 in
    the 16th digit.
    """
    start = np.flatnonzero(np.r_[True, X[1:] != X[:-1]])
    eps = np.finfo(np.float64).resolution
    if start.shape[0] < 2 or np.diff(X[start]).min() >= eps:
        return start                      # the usual case: exact ties only
    keep, current = [start[0]], X[start[0]]
    for s in start[1:]:                   # a loop over the distinct inputs only
        if X[s] - current >= eps:
            keep.append(s)
            current = X[s]
    return np.asarray(keep, dtype=np.intp)


class IsotonicRegression(RegressorMixin, TransformerMixin, BaseEstimator):
    r"""Isotonic regression (保序回归) of y on one input, as scikit-learn's.

    ``fit`` sorts the inputs, replaces the samples with equal inputs (equal
    to within 1e-15, as scikit-learn) by one sample (their weighted mean of
    y, their total weight), and runs
    :func:`isotonic_regression`; ``predict`` interpolates linearly between
    the fitted points.

    Parameters
    ----------
    increasing : bool, default=True
    out_of_bounds : {"clip", "nan", "raise"}, default="clip"
        What ``predict`` does with an input outside the range seen in fit:
        the value at the nearest end, NaN, or a ``ValueError``. A calibration
        map uses ``"clip"``.

    Attributes
    ----------
    X_thresholds_, y_thresholds_ : ndarray
        The distinct sorted inputs and the fitted values at them.
    X_min_, X_max_ : float

    Examples
    --------
    >>> iso = IsotonicRegression().fit([1, 2, 2, 3], [1.0, 3.0, 1.0, 2.0])
    >>> iso.predict([0.0, 2.5, 9.0]).tolist()
    [1.0, 2.0, 2.0]
    """

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        tags = super().__sklearn_tags__()      # one input column, as scikit-learn's
        tags.input_tags.one_d_array = True
        tags.input_tags.two_d_array = False
        return tags

    def __init__(self, increasing: bool = True, out_of_bounds: str = "clip") -> None:
        self.increasing = increasing
        self.out_of_bounds = out_of_bounds

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "IsotonicRegression":
        """Fit the step function.

        Parameters
        ----------
        X : array-like of shape (n_samples,) or (n_samples, 1)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            Samples of weight 0 are dropped.

        Returns
        -------
        self
        """
        increasing = check_bool(self.increasing, "increasing")
        if self.out_of_bounds not in ("clip", "nan", "raise"):
            raise ValueError("out_of_bounds must be 'clip', 'nan' or 'raise'; got "
                             f"{self.out_of_bounds!r}")
        X = _check_1d_input(X)
        y = column_or_1d(y, "y", dtype=np.float64)
        check_consistent_length(X, y, names=["X", "y"])
        for a, name in ((X, "X"), (y, "y")):
            if not np.isfinite(a).all():
                raise ValueError(f"{name} contains NaN or infinity")
        w = check_sample_weight(sample_weight, X.shape[0])
        keep = w > 0
        X, y, w = X[keep], y[keep], w[keep]
        order = np.lexsort((y, X))
        X, y, w = X[order], y[order], w[order]
        start = _tie_groups(X)
        wsum = np.add.reduceat(w, start)
        ymean = np.add.reduceat(w * y, start) / wsum        # the ties pooled first
        ux = X[start]
        self.X_thresholds_ = ux
        self.y_thresholds_ = isotonic_regression(ymean, wsum, increasing=increasing)
        self.X_min_, self.X_max_ = float(ux[0]), float(ux[-1])
        self.increasing_ = increasing
        return self

    def predict(self, T: Any) -> np.ndarray:
        """Interpolate the fitted step function at ``T``.

        Parameters
        ----------
        T : array-like of shape (n_samples,) or (n_samples, 1)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "X_thresholds_")
        T = _check_1d_input(T, "T")
        if self.out_of_bounds == "raise" and ((T < self.X_min_) | (T > self.X_max_)).any():
            raise ValueError(f"T holds values outside the range [{self.X_min_:g}, "
                             f"{self.X_max_:g}] seen in fit (out_of_bounds='raise')")
        if self.X_thresholds_.shape[0] == 1:
            out = np.full(T.shape[0], self.y_thresholds_[0])
        else:
            out = np.interp(T, self.X_thresholds_, self.y_thresholds_)   # clips at the ends
        if self.out_of_bounds == "nan":
            out[(T < self.X_min_) | (T > self.X_max_)] = np.nan
        return out

    def transform(self, T: Any) -> np.ndarray:
        """The same as :meth:`predict`."""
        return self.predict(T)


# --- Platt scaling ---------------------------------------------------------------

def _platt_loss(a: float, b: float, f: np.ndarray, t: np.ndarray, w: np.ndarray) -> float:
    z = a * f + b         # P(y=1 | f) = 1 / (1 + e^z); the cross-entropy without overflow
    return float(np.sum(w * (t * np.logaddexp(0.0, z) + (1 - t) * np.logaddexp(0.0, -z))))


class SigmoidCalibration(RegressorMixin, BaseEstimator):
    r"""Platt scaling: :math:`\hat P(y = 1 \mid f) = 1/(1 + e^{af + b})`.

    :math:`a, b` minimise the cross-entropy on the scores :math:`f` against
    Platt's smoothed targets,

    .. math:: t_+ = \frac{N_+ + 1}{N_+ + 2}, \qquad t_- = \frac{1}{N_- + 2},

    in place of 1 and 0 (the posterior mean of a frequency under a uniform
    prior, which keeps :math:`a, b` finite on separable scores). The loss is
    convex in :math:`(a, b)`; Newton's method with a backtracking line search
    converges in a few steps, from :math:`a = 0,\ b = \log\frac{N_- + 1}{N_+ + 1}`.
    Scores larger than 30 in absolute value are divided by their largest one
    first (and :math:`a` scaled back), as in scikit-learn.

    Parameters
    ----------
    max_iter : int, default=100
    tol : float, default=1e-12
        Stop when the largest absolute entry of the gradient, divided by the
        total weight, is below ``tol``.

    Attributes
    ----------
    a_, b_ : float
    n_iter_ : int

    Notes
    -----
    scikit-learn's private ``_SigmoidCalibration`` minimises the same loss
    with L-BFGS (``gtol=1e-6``), so the two agree to about 1e-6.
    """

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        tags = super().__sklearn_tags__()      # one input column: the scores
        tags.input_tags.one_d_array = True
        tags.input_tags.two_d_array = False
        return tags

    def __init__(self, max_iter: int = 100, tol: float = 1e-12) -> None:
        self.max_iter = max_iter
        self.tol = tol

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "SigmoidCalibration":
        """Fit :math:`a, b`.

        Parameters
        ----------
        X : array-like of shape (n_samples,) or (n_samples, 1)
            The classifier's scores :math:`f` (larger: more likely positive).
        y : array-like of shape (n_samples,)
            1 (or True) for a positive sample, 0 (or -1) for a negative one.
        sample_weight : array-like of shape (n_samples,), optional

        Returns
        -------
        self
        """
        max_iter = int(check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=1))
        tol = float(check_scalar(self.tol, "tol", numbers.Real, min_val=0.0))
        f = _check_1d_input(X)
        y = column_or_1d(y, "y")
        check_consistent_length(f, y, names=["X", "y"])
        if not np.isfinite(f).all():
            raise ValueError("X (the scores) contains NaN or infinity")
        w = check_sample_weight(sample_weight, f.shape[0])
        labels = np.unique(y)
        if not (np.isin(labels, [0, 1]).all() or np.isin(labels, [-1, 1]).all()):
            raise ValueError(f"y must hold the labels 0 and 1 (or -1 and 1); got "
                             f"{labels.tolist()[:5]}: map the positive class to 1 first")
        pos = y > 0
        n_pos, n_neg = float(w[pos].sum()), float(w[~pos].sum())
        t = np.where(pos, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
        scale = max(float(np.abs(f).max()), 1.0) if np.abs(f).max() >= 30 else 1.0
        f = f / scale
        a, b = 0.0, math.log((n_neg + 1.0) / (n_pos + 1.0))
        loss = _platt_loss(a, b, f, t, w)
        total = float(w.sum())
        self.n_iter_ = 0
        for it in range(1, max_iter + 1):
            p = expit(-(a * f + b))                     # P(y = 1 | f)
            r = w * (t - p)                             # dL/dz
            g = np.array([r @ f, r.sum()])
            self.n_iter_ = it
            if np.abs(g).max() / total < tol:
                break
            h = w * p * (1 - p)
            H = np.array([[h @ (f * f), h @ f], [h @ f, h.sum()]])
            H += 1e-12 * total * np.eye(2)              # f constant: H is singular
            step = np.linalg.solve(H, g)
            lr = 1.0
            while True:                                 # backtracking (Armijo)
                a_new, b_new = a - lr * step[0], b - lr * step[1]
                new = _platt_loss(a_new, b_new, f, t, w)
                if new <= loss - 1e-4 * lr * float(g @ step) or lr < 1e-10:
                    break
                lr /= 2
            if lr < 1e-10:                              # no descent left: at the optimum
                break
            a, b, loss = a_new, b_new, new
        self.a_, self.b_ = a / scale, b
        return self

    def predict(self, T: Any) -> np.ndarray:
        """Calibrated probabilities :math:`1/(1 + e^{aT + b})`.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "a_")
        T = _check_1d_input(T, "T")
        return expit(-(self.a_ * T + self.b_))


# --- the wrapper -----------------------------------------------------------------

_RESPONSES = ("auto", "decision_function", "predict_proba", "log_odds")


def _scores(estimator: Any, X: Any, response: str) -> np.ndarray:
    if response == "auto":
        response = ("decision_function" if hasattr(estimator, "decision_function")
                    else "predict_proba")
    if response == "decision_function":
        s = np.asarray(estimator.decision_function(X), dtype=np.float64)
        return s.ravel() if s.ndim == 2 and s.shape[1] == 1 else s
    if response == "predict_proba":
        return np.asarray(estimator.predict_proba(X), dtype=np.float64)[:, 1]
    lp = np.asarray(estimator.predict_log_proba(X), dtype=np.float64)
    return lp[:, 1] - lp[:, 0]


class CalibratedClassifier(ClassifierMixin, BaseEstimator):
    r"""A binary classifier whose probabilities are recalibrated out of fold.

    ``fit`` splits the data into ``cv`` stratified folds (without shuffling);
    the estimator trained on the other folds scores each fold, so every
    training sample gets a score from a model that did not see it. The
    calibration map (Platt's sigmoid or isotonic regression) is fitted to
    these out-of-fold scores, and the estimator is finally refitted on all
    the data. This is scikit-learn's ``CalibratedClassifierCV(ensemble=False)``:
    one estimator and one map, rather than the average of ``cv`` pairs. A map
    fitted to in-sample scores would learn the training set's
    overconfidence, not the test set's.

    Parameters
    ----------
    estimator : classifier
        Any classifier with ``fit`` and the method ``response`` names. ``X`` is
        passed to it as given (numbers, or the strings of a categorical
        estimator such as :class:`~mlbook.naive_bayes.AODE`).
    method : {"sigmoid", "isotonic"}, default="sigmoid"
    cv : int >= 2, default=5
    response : {"auto", "decision_function", "predict_proba", "log_odds"}, default="auto"
        The score the map reads. ``"auto"``: ``decision_function`` if the
        estimator has one, else the probability of the positive class
        (scikit-learn's choice); ``"log_odds"``:
        :math:`\log P(c_1\mid x) - \log P(c_0\mid x)` from
        ``predict_log_proba``, the natural score of naive Bayes, whose
        probabilities round to exactly 0 or 1 in float64 when it is sure.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    estimator_ : the refitted estimator
    calibrator_ : SigmoidCalibration or IsotonicRegression
    oof_scores_ : ndarray of shape (n_samples,)
        The out-of-fold scores the map was fitted to.

    Notes
    -----
    Two classes only; ``predict`` thresholds the calibrated probability at
    1/2, so it can differ from the estimator's own ``predict``.
    """

    _binary_only = True

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        # X goes to the wrapped estimator as given, so whether it may hold string
        # categories is the wrapped estimator's call, as for scikit-learn's
        # CalibratedClassifierCV (missing values are refused here, whatever it takes)
        tags = super().__sklearn_tags__()
        inner = getattr(self.estimator, "__sklearn_tags__", None)
        if inner is not None:
            given = inner().input_tags
            for name in ("string", "categorical", "positive_only"):
                setattr(tags.input_tags, name, getattr(given, name))
        return tags

    def __init__(self, estimator: Any, method: str = "sigmoid", cv: int = 5,
                 response: str = "auto") -> None:
        self.estimator = estimator
        self.method = method
        self.cv = cv
        self.response = response

    def fit(self, X: Any, y: Any) -> "CalibratedClassifier":
        """Out-of-fold scores, the calibration map, then the estimator on all the data.

        Returns
        -------
        self
        """
        from .model_selection import StratifiedKFold   # no import cycle at load time

        if self.method not in ("sigmoid", "isotonic"):
            raise ValueError(f"method must be 'sigmoid' or 'isotonic'; got {self.method!r}")
        if self.response not in _RESPONSES:
            raise ValueError(f"response must be one of {list(_RESPONSES)}; got "
                             f"{self.response!r}")
        cv = int(check_scalar(self.cv, "cv", numbers.Integral, min_val=2))
        if not hasattr(self.estimator, "fit"):
            raise TypeError(f"estimator must be a classifier with fit; got {self.estimator!r}")
        X = check_array(X, "X", dtype=None)   # as given: the estimator checks its own input
        y = column_or_1d(y, "y", warn=True)   # a column vector is flattened, with a warning
        check_consistent_length(X, y, names=["X", "y"])
        self.classes_ = check_classification_targets(y, n_classes=2)
        self.n_features_in_ = X.shape[1]
        yk = (y == self.classes_[1]).astype(np.intp)
        scores = np.empty(y.shape[0])
        for train, test in StratifiedKFold(n_splits=cv).split(X, y):
            est = clone(self.estimator).fit(X[train], y[train])
            scores[test] = _scores(est, X[test], self.response)
        self.oof_scores_ = scores
        self.calibrator_ = (SigmoidCalibration() if self.method == "sigmoid"
                            else IsotonicRegression(out_of_bounds="clip")).fit(scores, yk)
        self.estimator_ = clone(self.estimator).fit(X, y)
        return self

    def predict_proba(self, X: Any) -> np.ndarray:
        """Calibrated probabilities, columns in the order of ``classes_``.

        Returns
        -------
        ndarray of shape (n_samples, 2)
        """
        check_is_fitted(self, "calibrator_")
        X = check_array(X, "X", dtype=None)
        check_n_features(self, X)
        p1 = np.clip(self.calibrator_.predict(_scores(self.estimator_, X, self.response)),
                     0.0, 1.0)
        return np.column_stack([1.0 - p1, p1])

    def predict(self, X: Any) -> np.ndarray:
        """The class whose calibrated probability is larger (ties: the first class).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self.classes_[(self.predict_proba(X)[:, 1] > 0.5).astype(np.intp)]
