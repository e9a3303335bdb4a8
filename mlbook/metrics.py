"""Losses and evaluation measures (chapters *Supervised learning* and *Model evaluation*).

Names, signatures and results follow scikit-learn's ``sklearn.metrics``, so the
functions can be swapped for scikit-learn's and the tests compare the two on
random inputs. What the notes call

* error rate (错误率) :math:`E = a/m` and accuracy (精度) :math:`1 - E`:
  :func:`error_rate`, :func:`accuracy_score`, :func:`zero_one_loss`;
* precision (查准率), recall (查全率), :math:`F_1` and :math:`F_\\beta`:
  :func:`precision_score`, :func:`recall_score`, :func:`f1_score`,
  :func:`fbeta_score`, :func:`precision_recall_fscore_support`;
* macro-/micro-averages (宏/微平均): the ``average`` argument, and
  :func:`fbeta_of_macro_averages` for the notes' macro-:math:`F_1`;
* the ROC curve (受试者工作特征曲线), AUC, the P-R curve and the break-even point
  (平衡点): :func:`roc_curve`, :func:`roc_auc_score`, :func:`auc`,
  :func:`precision_recall_curve`, :func:`average_precision_score`,
  :func:`break_even_point`;
* the loss functions (损失函数) of the first chapter: :func:`pointwise_loss`,
  :func:`mean_squared_error`, :func:`mean_absolute_error`, :func:`log_loss`,
  and :func:`r2_score`.

Every curve is computed by one sort of the scores and cumulative sums, never
by a loop over thresholds.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from ._validation import (check_bool, check_consistent_length, check_labels, check_probabilities,
                          check_sample_weight, check_scalar, check_vector, column_or_1d,
                          encode_labels)

__all__ = [
    "accuracy_score",
    "error_rate",
    "zero_one_loss",
    "confusion_matrix",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "f1_score",
    "fbeta_score",
    "fbeta_of_macro_averages",
    "roc_curve",
    "roc_auc_score",
    "auc",
    "precision_recall_curve",
    "average_precision_score",
    "break_even_point",
    "mean_squared_error",
    "mean_absolute_error",
    "log_loss",
    "r2_score",
    "pointwise_loss",
    "cost_sensitive_error_rate",
    "cost_curve",
    "calibration_curve",
]

_AVERAGES = ("binary", "micro", "macro", "weighted")


# ---------------------------------------------------------------------------
# input checks shared by the metrics
# ---------------------------------------------------------------------------


def _check_pair(y_true: Any, y_pred: Any, sample_weight: Any = None,
                names: tuple[str, str] = ("y_true", "y_pred")):
    """Validate two label vectors of the same length and the weights."""
    y_true = check_labels(y_true, names[0])
    y_pred = check_labels(y_pred, names[1])
    check_consistent_length(y_true, y_pred, names=list(names))
    is_str = [a.dtype.kind in "USO" and a.size and isinstance(a[0], str) for a in (y_true, y_pred)]
    if is_str[0] != is_str[1]:
        raise TypeError(
            f"{names[0]} and {names[1]} mix strings and numbers; "
            "both must use the same kind of label"
        )
    w = None if sample_weight is None else check_sample_weight(sample_weight, y_true.shape[0])
    return y_true, y_pred, w


def _encode(y: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index of each entry of ``y`` in ``labels`` (any order) and a mask of the entries found."""
    codes = encode_labels(y, labels)[1]
    return np.maximum(codes, 0), codes >= 0


def _as_labels(labels: Any) -> np.ndarray:
    arr = np.asarray(labels)
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(f"labels must be a non-empty 1-d list of class labels; got {labels!r}")
    return arr


def _divide(num: np.ndarray, den: np.ndarray, zero_division: float) -> np.ndarray:
    """``num / den`` with ``zero_division`` where ``den == 0`` (and no RuntimeWarning)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.full(np.broadcast(num, den).shape, zero_division, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _check_zero_division(zero_division: Any) -> float:
    if isinstance(zero_division, bool) or not isinstance(zero_division, numbers.Real):
        raise TypeError(f"zero_division must be a number in [0, 1] or nan; got {zero_division!r}")
    z = float(zero_division)
    if not (np.isnan(z) or 0.0 <= z <= 1.0):
        raise ValueError(f"zero_division must be in [0, 1] or nan; got {zero_division!r}")
    return z


def _check_beta(beta: Any) -> float:
    return float(check_scalar(beta, "beta", numbers.Real, min_val=0.0, include_min=False))


def _weighted_mean(values: np.ndarray, weights: np.ndarray | None) -> float:
    """Mean ignoring NaN entries (from ``zero_division=nan``); weights summing to 0 are ignored."""
    mask = np.isnan(values)
    if values.size == 0 or mask.all():
        return float("nan")
    values = values[~mask]
    if weights is None:
        return float(np.mean(values))
    weights = np.asarray(weights, dtype=np.float64)[~mask]
    if weights.sum() == 0:
        return float(np.mean(values))
    return float(np.average(values, weights=weights))


# ---------------------------------------------------------------------------
# accuracy, error rate, confusion matrix
# ---------------------------------------------------------------------------


def accuracy_score(y_true: Any, y_pred: Any, *, normalize: bool = True,
                   sample_weight: Any = None) -> float:
    r"""Fraction (or weight) of correctly classified samples: accuracy (精度).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted class labels (numbers or strings).
    normalize : bool, default=True
        Return the fraction; if False, the number (or total weight) of correct
        predictions.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights :math:`w_i`.

    Returns
    -------
    float

    Notes
    -----
    With :math:`a` misclassified samples among :math:`m`, the notes' accuracy
    is :math:`\mathrm{acc} = 1 - a/m`; with weights,
    :math:`\sum_i w_i [\hat y_i = y_i] / \sum_i w_i`.
    See the chapter *Model evaluation and selection*.

    Examples
    --------
    >>> accuracy_score([0, 1, 1, 0], [0, 1, 0, 0])
    0.75
    >>> accuracy_score(["a", "b"], ["a", "a"], normalize=False)
    1.0
    """
    check_bool(normalize, "normalize")
    y_true, y_pred, w = _check_pair(y_true, y_pred, sample_weight)
    correct = (y_true == y_pred).astype(np.float64)
    if normalize:
        return float(np.average(correct, weights=w))
    return float(correct.sum() if w is None else np.dot(correct, w))


def error_rate(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    r"""Fraction (or weighted fraction) of misclassified samples: error rate (错误率).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float
        :math:`E = a/m`, where :math:`a` of the :math:`m` samples are
        misclassified; equal to ``1 - accuracy_score(y_true, y_pred)``.

    Examples
    --------
    >>> error_rate([0, 1, 1, 0], [0, 1, 0, 0])
    0.25
    """
    return 1.0 - accuracy_score(y_true, y_pred, sample_weight=sample_weight)


def zero_one_loss(y_true: Any, y_pred: Any, *, normalize: bool = True,
                  sample_weight: Any = None) -> float:
    r"""Average (or total) 0-1 loss :math:`\mathbb 1[\hat y_i \neq y_i]`.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    normalize : bool, default=True
        Return the fraction of errors (the error rate); if False, the number
        (or total weight) of errors.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float

    Examples
    --------
    >>> zero_one_loss([0, 1, 1, 0], [0, 1, 0, 0], normalize=False)
    1.0
    """
    check_bool(normalize, "normalize")
    if normalize:
        return 1.0 - accuracy_score(y_true, y_pred, sample_weight=sample_weight)
    y_true, y_pred, w = _check_pair(y_true, y_pred, sample_weight)
    total = float(y_true.shape[0]) if w is None else float(w.sum())
    return total - accuracy_score(y_true, y_pred, normalize=False, sample_weight=w)


def confusion_matrix(y_true: Any, y_pred: Any, *, labels: Any = None,
                     sample_weight: Any = None) -> np.ndarray:
    r"""Confusion matrix (混淆矩阵): ``C[i, j]`` counts samples of class i predicted as j.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    labels : array-like of shape (n_classes,), optional
        The classes, in the order of the rows and columns. By default the
        sorted union of the labels in ``y_true`` and ``y_pred``. Samples whose
        true or predicted label is not listed are left out.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    C : ndarray of shape (n_classes, n_classes)
        Rows are true classes and columns predicted classes (scikit-learn's
        convention). Integer counts without weights (or with integer weights),
        float sums of weights otherwise.

    Notes
    -----
    For two classes with the positive class second, ``C`` is
    :math:`\begin{pmatrix}\mathrm{TN} & \mathrm{FP}\\ \mathrm{FN} & \mathrm{TP}\end{pmatrix}`.
    Built by one ``np.bincount`` of the flat index ``n_classes * i + j``.

    Examples
    --------
    >>> confusion_matrix([0, 1, 1, 0], [0, 1, 0, 0])
    array([[2, 0],
           [1, 1]])
    """
    int_weights = sample_weight is None or np.asarray(sample_weight).dtype.kind in "iub"
    y_true, y_pred, w = _check_pair(y_true, y_pred, sample_weight)
    if labels is None:
        labels = np.unique(np.concatenate([y_true, y_pred]))
    else:
        labels = _as_labels(labels)
        if not np.isin(y_true, labels).any():
            raise ValueError("labels: at least one of the given labels must occur in y_true")
    n_labels = labels.shape[0]
    t, t_ok = _encode(y_true, labels)
    p, p_ok = _encode(y_pred, labels)
    keep = t_ok & p_ok
    weights = None if w is None else w[keep]
    flat = np.bincount(n_labels * t[keep] + p[keep], weights=weights,
                       minlength=n_labels * n_labels)
    cm = flat.reshape(n_labels, n_labels)
    return cm.astype(np.int64) if int_weights else cm.astype(np.float64)


# ---------------------------------------------------------------------------
# precision, recall, F-beta
# ---------------------------------------------------------------------------


def _class_counts(y_true, y_pred, w, labels):
    """Per-label true-positive, predicted and true totals (weighted)."""
    L = labels.shape[0]
    t, t_ok = _encode(y_true, labels)
    p, p_ok = _encode(y_pred, labels)
    ones = np.ones(y_true.shape[0]) if w is None else w
    true_sum = np.bincount(t[t_ok], weights=ones[t_ok], minlength=L)
    pred_sum = np.bincount(p[p_ok], weights=ones[p_ok], minlength=L)
    hit = t_ok & (y_true == y_pred)
    tp_sum = np.bincount(t[hit], weights=ones[hit], minlength=L)
    return tp_sum, pred_sum, true_sum


def precision_recall_fscore_support(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = None,
    sample_weight: Any = None,
    zero_division: float = 0.0,
):
    r"""Precision (查准率), recall (查全率), :math:`F_\beta` and support, per class or averaged.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted class labels.
    beta : float, default=1.0
        Weight of recall relative to precision, :math:`\beta > 0`.
    labels : array-like, optional
        The classes to report (and to average over); by default the sorted
        union of the labels in ``y_true`` and ``y_pred``. Ignored with
        ``average="binary"``.
    pos_label : label, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted"} or None, default=None
        ``None``: one value per class. ``"binary"``: the value for
        ``pos_label`` only (two classes at most). ``"micro"``: pool the
        counts TP, FP, FN over the classes, then divide. ``"macro"``: the
        unweighted mean of the per-class values. ``"weighted"``: their mean
        weighted by the support (number of true samples of each class).
    sample_weight : array-like of shape (n_samples,), optional
    zero_division : float, default=0.0
        The value returned where a denominator is 0 (no predicted positives
        for precision, no true positives for recall, neither for F); ``nan``
        makes the averages skip that class.

    Returns
    -------
    precision, recall, fbeta : float or ndarray of shape (n_labels,)
    support : ndarray of shape (n_labels,) or None
        The number (or weight) of true samples per class; None when averaged.

    Notes
    -----
    For one class taken as positive,

    .. math::
        P = \frac{\mathrm{TP}}{\mathrm{TP}+\mathrm{FP}},\quad
        R = \frac{\mathrm{TP}}{\mathrm{TP}+\mathrm{FN}},\quad
        F_\beta = \frac{(1+\beta^2)PR}{\beta^2 P + R}
                = \frac{(1+\beta^2)\mathrm{TP}}{(1+\beta^2)\mathrm{TP} + \beta^2\mathrm{FN} + \mathrm{FP}},

    the last form being the one computed (it needs no division by P or R).
    :math:`F_\beta` is a weighted harmonic mean,
    :math:`1/F_\beta = \frac{1}{1+\beta^2}(1/P + \beta^2/R)`; :math:`\beta > 1`
    weighs recall more. ``average="macro"`` is scikit-learn's macro-F, the
    *mean of the per-class* :math:`F_\beta`; the notes' macro-:math:`F_1` is the
    :math:`F_1` *of* macro-P and macro-R: see :func:`fbeta_of_macro_averages`
    and the chapter *Model evaluation and selection*. ``average="micro"`` is
    the notes' micro-average (averaging TP, FP, FN over the classes and then
    forming P and R gives the same ratios as pooling them).

    Examples
    --------
    >>> p, r, f, s = precision_recall_fscore_support([0, 1, 1, 2], [0, 1, 2, 2])
    >>> p.tolist(), r.tolist(), s.tolist()
    ([1.0, 1.0, 0.5], [1.0, 0.5, 1.0], [1, 2, 1])
    """
    if average is not None and average not in _AVERAGES:
        raise ValueError(
            f"average must be one of 'binary', 'micro', 'macro', 'weighted' or None; "
            f"got {average!r}"
        )
    beta = _check_beta(beta)
    zero_division = _check_zero_division(zero_division)
    integer_weights = sample_weight is None
    y_true, y_pred, w = _check_pair(y_true, y_pred, sample_weight)
    present = np.unique(np.concatenate([y_true, y_pred]))
    if average == "binary":
        if present.shape[0] > 2:
            raise ValueError(
                f"average='binary' needs two classes, but y_true and y_pred contain "
                f"{present.shape[0]}: {present.tolist()}; choose average='micro', "
                "'macro', 'weighted' or None"
            )
        if pos_label not in present.tolist() and present.shape[0] == 2:
            raise ValueError(
                f"pos_label={pos_label!r} is not among the labels {present.tolist()}"
            )
        labels = np.asarray([pos_label])
    elif labels is None:
        labels = present
    else:
        labels = _as_labels(labels)

    tp_sum, pred_sum, true_sum = _class_counts(y_true, y_pred, w, labels)
    if average == "micro":
        tp_sum, pred_sum, true_sum = (np.array([a.sum()]) for a in (tp_sum, pred_sum, true_sum))

    beta2 = beta * beta
    precision = _divide(tp_sum, pred_sum, zero_division)
    recall = _divide(tp_sum, true_sum, zero_division)
    fbeta = _divide((1 + beta2) * tp_sum, beta2 * true_sum + pred_sum, zero_division)

    if average is None:
        support = true_sum.astype(np.int64) if integer_weights else true_sum
        return precision, recall, fbeta, support
    weights = true_sum if average == "weighted" else None
    return (_weighted_mean(precision, weights), _weighted_mean(recall, weights),
            _weighted_mean(fbeta, weights), None)


def precision_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
                    average: str | None = "binary", sample_weight: Any = None,
                    zero_division: float = 0.0) -> float | np.ndarray:
    r"""Precision :math:`P = \mathrm{TP}/(\mathrm{TP}+\mathrm{FP})` (查准率).

    The share of predicted positives that are truly positive, as in
    :func:`precision_recall_fscore_support`.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted class labels (numbers or strings).
    labels : array-like, optional
        The classes to report or average over; by default the sorted union of
        the labels in ``y_true`` and ``y_pred``. Ignored with ``average="binary"``.
    pos_label : label, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted"} or None, default="binary"
        ``"binary"``: the value for ``pos_label``; ``"micro"``: from the
        counts pooled over the classes; ``"macro"``: the unweighted mean of
        the per-class values; ``"weighted"``: their mean weighted by the
        support; None: one value per class.
    sample_weight : array-like of shape (n_samples,), optional
    zero_division : float, default=0.0
        The value used where a denominator is 0 (``nan`` skips that class in
        the averages).

    Returns
    -------
    float, or ndarray of shape (n_labels,) when ``average=None``

    Examples
    --------
    >>> precision_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return precision_recall_fscore_support(
        y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
        sample_weight=sample_weight, zero_division=zero_division)[0]


def recall_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
                 average: str | None = "binary", sample_weight: Any = None,
                 zero_division: float = 0.0) -> float | np.ndarray:
    r"""Recall :math:`R = \mathrm{TP}/(\mathrm{TP}+\mathrm{FN})` (查全率).

    The share of true positives that are found; for the positive class it is
    the true-positive rate of the ROC curve.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted class labels (numbers or strings).
    labels : array-like, optional
        The classes to report or average over; by default the sorted union of
        the labels in ``y_true`` and ``y_pred``. Ignored with ``average="binary"``.
    pos_label : label, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted"} or None, default="binary"
        ``"binary"``: the value for ``pos_label``; ``"micro"``: from the
        counts pooled over the classes; ``"macro"``: the unweighted mean of
        the per-class values; ``"weighted"``: their mean weighted by the
        support; None: one value per class.
    sample_weight : array-like of shape (n_samples,), optional
    zero_division : float, default=0.0
        The value used where a denominator is 0 (``nan`` skips that class in
        the averages).

    Returns
    -------
    float, or ndarray of shape (n_labels,) when ``average=None``

    Examples
    --------
    >>> recall_score([0, 1, 1, 1], [1, 1, 0, 1])
    0.6666666666666666
    """
    return precision_recall_fscore_support(
        y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
        sample_weight=sample_weight, zero_division=zero_division)[1]


def fbeta_score(y_true: Any, y_pred: Any, *, beta: float, labels: Any = None,
                pos_label: Any = 1, average: str | None = "binary",
                sample_weight: Any = None, zero_division: float = 0.0) -> float | np.ndarray:
    r""":math:`F_\beta = (1+\beta^2)PR/(\beta^2P+R)`, the weighted harmonic mean of P and R.

    :math:`\beta > 1` favours recall, :math:`\beta < 1` precision;
    ``average="macro"`` is the mean of the per-class :math:`F_\beta` (compare
    :func:`fbeta_of_macro_averages`).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted class labels (numbers or strings).
    beta : float
        :math:`\beta > 0`, the weight of recall relative to precision.
    labels : array-like, optional
        The classes to report or average over; by default the sorted union of
        the labels in ``y_true`` and ``y_pred``. Ignored with ``average="binary"``.
    pos_label : label, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted"} or None, default="binary"
        ``"binary"``: the value for ``pos_label``; ``"micro"``: from the
        counts pooled over the classes; ``"macro"``: the unweighted mean of
        the per-class values; ``"weighted"``: their mean weighted by the
        support; None: one value per class.
    sample_weight : array-like of shape (n_samples,), optional
    zero_division : float, default=0.0
        The value used where a denominator is 0 (``nan`` skips that class in
        the averages).

    Returns
    -------
    float, or ndarray of shape (n_labels,) when ``average=None``

    Examples
    --------
    >>> round(fbeta_score([0, 1, 1, 1], [1, 1, 0, 1], beta=2.0), 6)
    0.666667
    """
    return precision_recall_fscore_support(
        y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label, average=average,
        sample_weight=sample_weight, zero_division=zero_division)[2]


def f1_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
             average: str | None = "binary", sample_weight: Any = None,
             zero_division: float = 0.0) -> float | np.ndarray:
    r""":math:`F_1 = 2PR/(P+R)`, the harmonic mean of precision and recall.

    Note that ``average="macro"`` gives scikit-learn's macro-F1 (the mean of the
    per-class :math:`F_1`), which differs from the notes' macro-:math:`F_1`
    (the :math:`F_1` of macro-P and macro-R, :func:`fbeta_of_macro_averages`).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted class labels (numbers or strings).
    labels : array-like, optional
        The classes to report or average over; by default the sorted union of
        the labels in ``y_true`` and ``y_pred``. Ignored with ``average="binary"``.
    pos_label : label, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted"} or None, default="binary"
        ``"binary"``: the value for ``pos_label``; ``"micro"``: from the
        counts pooled over the classes; ``"macro"``: the unweighted mean of
        the per-class values; ``"weighted"``: their mean weighted by the
        support; None: one value per class.
    sample_weight : array-like of shape (n_samples,), optional
    zero_division : float, default=0.0
        The value used where a denominator is 0 (``nan`` skips that class in
        the averages).

    Returns
    -------
    float, or ndarray of shape (n_labels,) when ``average=None``

    Examples
    --------
    >>> f1_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return fbeta_score(y_true, y_pred, beta=1.0, labels=labels, pos_label=pos_label,
                       average=average, sample_weight=sample_weight,
                       zero_division=zero_division)


def fbeta_of_macro_averages(y_true: Any, y_pred: Any, *, beta: float = 1.0,
                            labels: Any = None) -> float:
    r"""The notes' (Zhou's) macro-:math:`F_\beta`: the :math:`F_\beta` of macro-P and macro-R.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    beta : float, default=1.0
    labels : array-like, optional
        The classes to average over (default: all labels present).

    Returns
    -------
    float

    Notes
    -----
    With one binary confusion matrix per class (that class against the
    rest), macro-averaging first averages precision and recall,

    .. math::
        \text{macro-}P = \frac1q\sum_{k=1}^q P_k,\quad
        \text{macro-}R = \frac1q\sum_{k=1}^q R_k,\quad
        \text{macro-}F_\beta = \frac{(1+\beta^2)\,\text{macro-}P\,\text{macro-}R}
                                    {\beta^2\,\text{macro-}P + \text{macro-}R}.

    scikit-learn's ``f1_score(average="macro")`` instead averages the
    per-class :math:`F_1`, :math:`\frac1q\sum_k F_{1,k}`. Both are in use
    and they differ in general (the harmonic mean of averages is not the
    average of harmonic means); the chapter *Model evaluation and selection*
    compares them. A class with no predicted (or no true) sample contributes
    precision (or recall) 0; the result is 0 when macro-P and macro-R are 0.

    Examples
    --------
    >>> y_true, y_pred = [0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 0]
    >>> round(fbeta_of_macro_averages(y_true, y_pred), 6)
    0.693333
    >>> round(f1_score(y_true, y_pred, average="macro"), 6)
    0.655556
    """
    precision, recall, _, _ = precision_recall_fscore_support(
        y_true, y_pred, beta=beta, labels=labels, average=None, zero_division=0.0)
    beta2 = _check_beta(beta) ** 2
    macro_p, macro_r = float(np.mean(precision)), float(np.mean(recall))
    return float(_divide((1 + beta2) * macro_p * macro_r, beta2 * macro_p + macro_r, 0.0))


# ---------------------------------------------------------------------------
# ROC and precision-recall curves
# ---------------------------------------------------------------------------


def _positive_mask(y_true: np.ndarray, pos_label: Any) -> np.ndarray:
    """Boolean vector "is positive"; ``pos_label=None`` means 1 for {0, 1} or {-1, 1} labels."""
    classes = np.unique(y_true)
    if pos_label is None:
        numeric = y_true.dtype.kind in "biuf"
        if not (numeric and set(classes.tolist()) <= {0, 1} or
                numeric and set(classes.tolist()) <= {-1, 1}):
            raise ValueError(
                f"y_true takes the values {classes.tolist()}; pass pos_label to say "
                "which one is the positive class (the default 1 needs labels in "
                "{0, 1} or {-1, 1})"
            )
        pos_label = 1
    elif pos_label not in classes.tolist():
        raise ValueError(
            f"pos_label={pos_label!r} is not among the labels of y_true {classes.tolist()}"
        )
    return y_true == pos_label


def _binary_clf_curve(y_true, y_score, pos_label, sample_weight):
    """False and true positives (weighted) at each distinct threshold, from the top.

    One stable sort by decreasing score, then cumulative sums; a threshold is
    kept at the last sample of every run of tied scores.

    Returns
    -------
    fps, tps : ndarray of shape (n_thresholds,)
        :math:`\\mathrm{FP}(t)` and :math:`\\mathrm{TP}(t)` when the samples with
        score :math:`\\ge t` are predicted positive.
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores, decreasing.
    """
    y_true = check_labels(y_true, "y_true")
    y_score = check_vector(y_score, "y_score", what="scores", allow_column=True)
    check_consistent_length(y_true, y_score, names=["y_true", "y_score"])
    positive = _positive_mask(y_true, pos_label)
    w = None
    if sample_weight is not None:
        w = check_sample_weight(sample_weight, y_true.shape[0])
        nonzero = w != 0  # as scikit-learn: zero-weight samples add no threshold
        positive, y_score, w = positive[nonzero], y_score[nonzero], w[nonzero]
    order = np.argsort(-y_score, kind="stable")
    y_score = y_score[order]
    pos = positive[order].astype(np.float64)
    last_of_run = np.r_[np.nonzero(np.diff(y_score))[0], y_score.shape[0] - 1]
    if w is None:
        tps = np.cumsum(pos)[last_of_run]
        fps = 1 + last_of_run - tps
    else:
        w = w[order]
        tps = np.cumsum(pos * w)[last_of_run]
        fps = np.cumsum((1 - pos) * w)[last_of_run]
    return fps, tps, y_score[last_of_run]


def roc_curve(y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None,
              drop_intermediate: bool = True):
    r"""Receiver operating characteristic (ROC, 受试者工作特征) curve.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels; two classes, or more with ``pos_label`` (one against the rest).
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning "more positive" (probabilities or decision values).
    pos_label : label, optional
        The positive class; by default 1 for labels in {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), optional
    drop_intermediate : bool, default=True
        Drop thresholds whose point lies on a straight line between its
        neighbours (it changes neither the plot nor the AUC).

    Returns
    -------
    fpr, tpr : ndarray of shape (n_thresholds + 1,)
        False- and true-positive rates, increasing from (0, 0) to (1, 1).
    thresholds : ndarray of shape (n_thresholds + 1,)
        Decreasing; the first is ``inf`` (nothing predicted positive), as in
        scikit-learn >= 1.3.

    Notes
    -----
    Predicting positive every sample with score :math:`\ge t`,

    .. math::
        \mathrm{TPR}(t) = \frac{\mathrm{TP}}{\mathrm{TP}+\mathrm{FN}},\qquad
        \mathrm{FPR}(t) = \frac{\mathrm{FP}}{\mathrm{TN}+\mathrm{FP}}.

    Sorting the scores once in decreasing order, :math:`\mathrm{TP}(t)` and
    :math:`\mathrm{FP}(t)` are cumulative sums of the positive and negative
    indicators, read at the last sample of each run of tied scores, so the
    whole curve costs one sort. Ties give a diagonal segment. See the chapter
    *Model evaluation and selection*.

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [inf, 0.8, 0.4, 0.35, 0.1])
    """
    check_bool(drop_intermediate, "drop_intermediate")
    fps, tps, thresholds = _binary_clf_curve(y_true, y_score, pos_label, sample_weight)
    if tps[-1] <= 0 or fps[-1] <= 0:
        missing = "positive" if tps[-1] <= 0 else "negative"
        raise ValueError(
            f"y_true contains no {missing} sample (a single class); the ROC curve "
            "needs both positives and negatives"
        )
    if drop_intermediate and fps.shape[0] > 2:
        corner = np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True]
        fps, tps, thresholds = fps[corner], tps[corner], thresholds[corner]
    fps = np.r_[0.0, fps]
    tps = np.r_[0.0, tps]
    thresholds = np.r_[np.inf, thresholds]
    return fps / fps[-1], tps / tps[-1], thresholds


def auc(x: Any, y: Any) -> float:
    r"""Area under a curve by the trapezoidal rule, :math:`\sum_i (x_{i+1}-x_i)(y_i+y_{i+1})/2`.

    Parameters
    ----------
    x : array-like of shape (n_points,)
        Monotone (increasing or decreasing) abscissae, at least two.
    y : array-like of shape (n_points,)

    Returns
    -------
    float
        The area (positive for a decreasing ``x`` too).

    Examples
    --------
    >>> auc([0, 0.5, 1], [0, 1, 1])
    0.75
    """
    x = check_vector(x, "x", allow_column=True)
    y = check_vector(y, "y", allow_column=True)
    check_consistent_length(x, y, names=["x", "y"])
    if x.shape[0] < 2:
        raise ValueError(f"x needs at least 2 points to compute an area; got {x.shape[0]}")
    dx = np.diff(x)
    direction = 1.0
    if np.any(dx < 0):
        if np.all(dx <= 0):
            direction = -1.0
        else:
            raise ValueError("x is neither increasing nor decreasing; cannot compute the area")
    # the same arithmetic as np.trapezoid
    return float(direction * (dx * (y[1:] + y[:-1]) / 2.0).sum())


def roc_auc_score(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    r"""Area under the ROC curve (AUC) of a binary problem.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two classes; the larger label (in sorted order) is the positive one,
        as in scikit-learn.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float

    Notes
    -----
    The AUC equals the probability that a randomly drawn positive gets a
    higher score than a randomly drawn negative, ties counting one half
    (the Mann-Whitney statistic):

    .. math::
        \mathrm{AUC} = \frac{1}{m^+ m^-}\sum_{x^+}\sum_{x^-}
        \Big(\mathbb 1[s(x^+) > s(x^-)] + \tfrac12\,\mathbb 1[s(x^+) = s(x^-)]\Big),

    and :math:`1-\mathrm{AUC}` is the ranking loss :math:`\ell_{rank}` of
    Zhou's book. Computed as :func:`auc` of :func:`roc_curve`.

    Examples
    --------
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    y_true_arr = check_labels(y_true, "y_true")
    classes = np.unique(y_true_arr)
    if classes.shape[0] != 2:
        raise ValueError(
            f"y_true must contain exactly two classes for the AUC; got {classes.shape[0]}: "
            f"{classes.tolist()}"
        )
    fpr, tpr, _ = roc_curve(y_true_arr, y_score, pos_label=classes[1],
                            sample_weight=sample_weight)
    return auc(fpr, tpr)


def precision_recall_curve(y_true: Any, y_score: Any, *, pos_label: Any = None,
                           sample_weight: Any = None, drop_intermediate: bool = False):
    r"""Precision-recall (P-R) curve: precision and recall at every threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,)
    pos_label : label, optional
        As in :func:`roc_curve`.
    sample_weight : array-like of shape (n_samples,), optional
    drop_intermediate : bool, default=False
        Keep only the first and last threshold of each run with the same
        recall (vertical steps of the curve).

    Returns
    -------
    precision, recall : ndarray of shape (n_thresholds + 1,)
        Recall decreasing to 0; the last point is the convention
        (recall 0, precision 1), as in scikit-learn.
    thresholds : ndarray of shape (n_thresholds,)
        Increasing.

    Notes
    -----
    :math:`P(t) = \mathrm{TP}/(\mathrm{TP}+\mathrm{FP})` and
    :math:`R(t) = \mathrm{TP}/m^+`, from the same cumulative sums as the ROC
    curve. A P-R curve needs at least one positive sample.

    Examples
    --------
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> p.round(4).tolist(), r.tolist(), t.tolist()
    ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    check_bool(drop_intermediate, "drop_intermediate")
    fps, tps, thresholds = _binary_clf_curve(y_true, y_score, pos_label, sample_weight)
    if tps[-1] <= 0:
        raise ValueError("y_true contains no positive sample; recall is undefined")
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.r_[True, np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:])), True]
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    precision = _divide(tps, tps + fps, 0.0)
    recall = tps / tps[-1]
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thresholds[::-1]


def average_precision_score(y_true: Any, y_score: Any, *, pos_label: Any = 1,
                            sample_weight: Any = None) -> float:
    r"""Average precision: :math:`\mathrm{AP} = \sum_n (R_n - R_{n-1}) P_n`.

    The area under the P-R curve taken as a step function (no
    interpolation), as scikit-learn computes it.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,)
    pos_label : label, default=1
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float

    Examples
    --------
    >>> round(average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 6)
    0.833333
    """
    precision, recall, _ = precision_recall_curve(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))


def break_even_point(y_true: Any, y_score: Any, *, pos_label: Any = None,
                     sample_weight: Any = None) -> float:
    r"""Break-even point (BEP, 平衡点): the value at which precision equals recall.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,)
    pos_label : label, optional
        As in :func:`roc_curve`.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float
        In [0, 1].

    Notes
    -----
    Zhou's book defines the BEP as the value of :math:`P` (= :math:`R`) at
    the point of the P-R curve where the two are equal. Since
    :math:`P = \mathrm{TP}/(\mathrm{TP}+\mathrm{FP})` and
    :math:`R = \mathrm{TP}/m^+` share their numerator, :math:`P = R` exactly
    when the number predicted positive, :math:`\mathrm{TP}+\mathrm{FP}`,
    equals the number :math:`m^+` of positives. So we predict the :math:`m^+`
    top-scored samples positive and return

    .. math::
        \mathrm{BEP} = \frac{\mathrm{TP}(m^+)}{m^+},

    the *R-precision* of information retrieval. When a run of tied scores
    straddles rank :math:`m^+`, :math:`\mathrm{TP}` is interpolated linearly
    in the number predicted positive between the two neighbouring
    thresholds: this is the expected value under random tie-breaking, and
    the point where the P-R curve interpolated in Davis and Goadrich's way
    (linear in TP against TP + FP) crosses the line :math:`P = R`. A linear
    interpolation of the (R, P) points themselves would be simpler but is
    not a curve any classifier attains. With weights, :math:`m^+` and the
    counts are weights.

    Examples
    --------
    >>> break_even_point([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.5
    """
    fps, tps, _ = _binary_clf_curve(y_true, y_score, pos_label, sample_weight)
    n_pos = tps[-1]
    if n_pos <= 0:
        raise ValueError("y_true contains no positive sample; the break-even point is undefined")
    predicted = np.r_[0.0, tps + fps]  # increasing: every threshold adds weight > 0
    tp = np.interp(n_pos, predicted, np.r_[0.0, tps])
    return float(tp / n_pos)


# ---------------------------------------------------------------------------
# losses and R^2
# ---------------------------------------------------------------------------


def _check_regression(y_true, y_pred, sample_weight):
    out = []
    for arr, name in ((y_true, "y_true"), (y_pred, "y_pred")):
        if arr is None:
            raise TypeError(f"{name} must be an array-like, got None")
        try:
            a = np.asarray(arr, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must contain numbers") from None
        out.append(column_or_1d(a, name))
    check_consistent_length(*out, names=["y_true", "y_pred"])
    w = None if sample_weight is None else check_sample_weight(sample_weight, out[0].shape[0])
    return out[0], out[1], w


def mean_squared_error(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    r"""Mean squared error :math:`\frac1m\sum_i (y_i - f(x_i))^2` (mean of the squared loss).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional
        A weighted mean :math:`\sum_i w_i (y_i - f_i)^2 / \sum_i w_i`.

    Returns
    -------
    float

    Examples
    --------
    >>> mean_squared_error([1.0, 2.0, 3.0], [1.0, 2.0, 5.0])
    1.3333333333333333
    """
    y_true, y_pred, w = _check_regression(y_true, y_pred, sample_weight)
    return float(np.average((y_true - y_pred) ** 2, weights=w))


def mean_absolute_error(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    r"""Mean absolute error :math:`\frac1m\sum_i |y_i - f(x_i)|` (mean of the absolute loss).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional
        A weighted mean :math:`\sum_i w_i |y_i - f_i| / \sum_i w_i`.

    Returns
    -------
    float

    Examples
    --------
    >>> mean_absolute_error([1.0, 2.0, 3.0], [1.0, 2.0, 5.0])
    0.6666666666666666
    """
    y_true, y_pred, w = _check_regression(y_true, y_pred, sample_weight)
    return float(np.average(np.abs(y_true - y_pred), weights=w))


def r2_score(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    r"""Coefficient of determination :math:`R^2 = 1 - \sum_i (y_i-f_i)^2 / \sum_i (y_i-\bar y)^2`.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        At least two samples.
    sample_weight : array-like of shape (n_samples,), optional
        Weights in both sums, with :math:`\bar y` the weighted mean.

    Returns
    -------
    float
        1 for a perfect fit, 0 for predicting the mean, negative when worse.
        For a constant ``y_true`` (denominator 0) it is 1 if the fit is
        perfect and 0 otherwise, as scikit-learn's ``force_finite=True``.

    Raises
    ------
    ValueError
        With a single sample, where :math:`R^2` is undefined (scikit-learn
        returns NaN with a warning instead; a leave-one-out cross-validation
        of a regressor should therefore score with
        ``scoring="neg_mean_squared_error"``).

    Examples
    --------
    >>> r2_score([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 5.0])
    0.8
    """
    y_true, y_pred, w = _check_regression(y_true, y_pred, sample_weight)
    if y_true.shape[0] < 2:
        raise ValueError("y_true needs at least two samples for R^2; got 1")
    weight = 1.0 if w is None else w
    numerator = np.sum(weight * (y_true - y_pred) ** 2)
    denominator = np.sum(weight * (y_true - np.average(y_true, weights=w)) ** 2)
    if denominator == 0:
        return 1.0 if numerator == 0 else 0.0
    return float(1 - numerator / denominator)


def log_loss(y_true: Any, y_prob: Any, *, labels: Any = None,
             sample_weight: Any = None) -> float:
    r"""Mean log loss (对数损失), :math:`-\frac1m\sum_i \log \hat P(y_i \mid x_i)`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities, columns in the sorted order of the classes;
        a 1-d array is the probability of the larger of two classes.
    labels : array-like, optional
        All the classes, when ``y_true`` does not contain every one.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float

    Notes
    -----
    For two classes this is the cross-entropy
    :math:`-\frac1m\sum_i [y_i\log p_i + (1-y_i)\log(1-p_i)]` minimised by
    logistic regression. As in scikit-learn 1.9, the probabilities are
    clipped to :math:`[\epsilon, 1-\epsilon]` with :math:`\epsilon` the float64
    machine epsilon, which only avoids :math:`\log 0`; rows that do not sum
    to 1 trigger a ``UserWarning`` but are not renormalised.

    Examples
    --------
    >>> round(log_loss(["spam", "ham", "ham", "spam"],
    ...                [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]), 5)
    0.21616
    """
    y_true = check_labels(y_true, "y_true")
    if y_prob is None:
        raise TypeError("y_prob must be an array-like, got None")
    try:
        p = np.asarray(y_prob, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("y_prob must contain numbers (probabilities)") from None
    if p.ndim not in (1, 2):
        raise ValueError(f"y_prob must be 1-d or 2-d; got shape {p.shape}")
    check_consistent_length(y_true, p, names=["y_true", "y_prob"])
    if np.isnan(p).any():
        raise ValueError("y_prob contains NaN")
    if (p < 0).any() or (p > 1).any():
        raise ValueError(
            f"y_prob must contain probabilities in [0, 1]; got values in [{p.min():g}, {p.max():g}]"
        )
    w = None if sample_weight is None else check_sample_weight(sample_weight, y_true.shape[0])
    if labels is None:
        classes = np.unique(y_true)
        if classes.shape[0] < 2:
            raise ValueError(
                f"y_true contains a single class ({classes[0]!r}); pass all the classes "
                "through labels"
            )
    else:
        classes = np.unique(_as_labels(labels))
        if classes.shape[0] < 2:
            raise ValueError(f"labels must contain at least two classes; got {classes.tolist()}")
        if not np.isin(y_true, classes).all():
            raise ValueError(
                f"y_true contains labels {sorted(set(y_true.tolist()) - set(classes.tolist()))} "
                f"not in labels {classes.tolist()}"
            )
    if p.ndim == 1:
        p = p[:, None]
    if p.shape[1] == 1:
        p = np.hstack([1 - p, p])
    if p.shape[1] != classes.shape[0]:
        raise ValueError(
            f"y_prob has {p.shape[1]} columns but there are {classes.shape[0]} classes "
            f"{classes.tolist()}; pass all the classes through labels"
        )
    if not np.allclose(p.sum(axis=1), 1.0, rtol=np.sqrt(np.finfo(np.float64).eps), atol=0):
        warnings.warn("the rows of y_prob do not sum to one; pass probabilities",
                      UserWarning, stacklevel=2)
    eps = np.finfo(np.float64).eps
    p = np.clip(p, eps, 1 - eps)
    idx, _ = _encode(y_true, classes)
    loss = -np.log(p[np.arange(p.shape[0]), idx])
    return float(np.average(loss, weights=w))


_LOSS_KINDS = ("0-1", "squared", "absolute", "log")


def pointwise_loss(kind: str, y: Any, f: Any) -> np.ndarray:
    r"""Per-sample loss :math:`L(y, f)` of the chapter *Supervised learning*.

    Parameters
    ----------
    kind : {"0-1", "squared", "absolute", "log"}
    y : array-like
        True values: labels for "0-1", numbers for "squared" and "absolute",
        0/1 labels for "log".
    f : array-like, broadcastable with ``y``
        Predictions: labels for "0-1", numbers for "squared"/"absolute", and
        for "log" the predicted probability :math:`f = \hat P(y=1\mid x)` in [0, 1].

    Returns
    -------
    ndarray
        The losses, one per element (float64).

    Notes
    -----
    .. math::
        L_{0\text{-}1}(y, f) &= \mathbb 1[f \neq y], \\
        L_{sq}(y, f) &= (y - f)^2, \\
        L_{abs}(y, f) &= |y - f|, \\
        L_{log}(y, f) &= -\log \hat P(y\mid x) = -y\log f - (1-y)\log(1-f).

    The 0-1 loss is 1 for a *wrong* prediction (the notes print the
    indicator of a correct one, :math:`[f(x_i)=y_i]`, which is the 0-1
    *gain*; see the errata). The log loss is :math:`+\infty` where the true
    class gets probability 0 (no warning is raised: the infinity is exact).

    Examples
    --------
    >>> pointwise_loss("squared", [1.0, 2.0], [0.0, 2.5]).tolist()
    [1.0, 0.25]
    >>> pointwise_loss("0-1", ["a", "b"], ["a", "a"]).tolist()
    [0.0, 1.0]
    >>> pointwise_loss("log", [1, 0], [0.5, 0.0]).tolist()
    [0.6931471805599453, 0.0]
    """
    if kind not in _LOSS_KINDS:
        raise ValueError(f"kind must be one of {list(_LOSS_KINDS)}; got {kind!r}")
    if y is None or f is None:
        raise TypeError("y and f must be array-likes, got None")
    if kind == "0-1":
        return (np.asarray(y) != np.asarray(f)).astype(np.float64)
    try:
        y = np.asarray(y, dtype=np.float64)
        f = np.asarray(f, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"the {kind} loss needs numbers in y and f") from None
    try:
        np.broadcast(y, f)
    except ValueError:
        raise ValueError(f"y and f have incompatible shapes {y.shape} and {f.shape}") from None
    if np.isnan(y).any() or np.isnan(f).any():
        raise ValueError("y and f must not contain NaN")
    if kind == "squared":
        return (y - f) ** 2
    if kind == "absolute":
        return np.abs(y - f)
    if not np.isin(y, (0.0, 1.0)).all():
        raise ValueError("the log loss needs y in {0, 1}")
    if (f < 0).any() or (f > 1).any():
        raise ValueError("the log loss needs f (the probability of y = 1) in [0, 1]")
    p_true = np.where(y == 1, f, 1 - f) + np.zeros(np.broadcast(y, f).shape)
    log_p = np.full(p_true.shape, -np.inf)
    np.log(p_true, out=log_p, where=p_true > 0)
    return 0.0 - log_p


# ---------------------------------------------------------------------------
# cost-sensitive error and cost curves (代价敏感错误率, 代价曲线), Zhou section 2.3.4
# ---------------------------------------------------------------------------


def cost_sensitive_error_rate(y_true: Any, y_pred: Any, *, cost_matrix: Any,
                              labels: Any = None) -> float:
    r"""Cost-sensitive error rate (代价敏感错误率): the mean cost of the predictions.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    cost_matrix : array-like of shape (n_classes, n_classes)
        The cost matrix (代价矩阵): ``cost_matrix[i, j]`` is the cost of
        predicting class ``labels[j]`` for a sample of class ``labels[i]``;
        non-negative and finite (the diagonal is usually 0).
    labels : array-like of shape (n_classes,), optional
        The classes in the order of the rows and columns of ``cost_matrix``;
        by default the sorted union of the labels in ``y_true`` and ``y_pred``.

    Returns
    -------
    float
        :math:`\frac1m \sum_{i=1}^m \mathrm{cost}_{y_i, f(\boldsymbol{x}_i)}`.

    Notes
    -----
    Row :math:`i` and column :math:`j` of ``cost_matrix`` belong to
    ``labels[i]`` and ``labels[j]``. Zhou numbers the positive class 0 and the
    negative class 1, so that :math:`\mathrm{cost}_{01}` is the cost of a
    false negative (a positive predicted negative) and
    :math:`\mathrm{cost}_{10}` that of a false positive. To use his indices
    with labels whose positive class is 1, list the positive class first,
    ``labels=[1, 0]``: then ``cost_matrix[0][1]`` is :math:`\mathrm{cost}_{01}`
    and the function is Zhou's (2.23),
    :math:`\frac1m\big(\sum_{D^+}\mathbb{I}(f(\boldsymbol{x}_i) \ne y_i)\,\mathrm{cost}_{01}
    + \sum_{D^-}\mathbb{I}(f(\boldsymbol{x}_i) \ne y_i)\,\mathrm{cost}_{10}\big)`.
    With the default sorted labels ``[0, 1]``, row 0 is the class 0 and
    ``cost_matrix[0][1]`` is charged for predicting 1 for a 0. With all
    off-diagonal costs 1 it is the error rate. Computed as the sum of the
    elementwise product of the confusion matrix and the cost matrix, divided
    by :math:`m`. See the chapter *Comparing learners*.

    Examples
    --------
    Positive class 1, a false negative costing 5 and a false positive 1, in
    Zhou's order (positive first): one false negative and one false positive
    among four samples cost (5 + 1)/4.

    >>> cost_sensitive_error_rate([0, 1, 1, 0], [0, 0, 1, 1], cost_matrix=[[0, 5], [1, 0]],
    ...                           labels=[1, 0])
    1.5
    """
    y_t, y_p, _ = _check_pair(y_true, y_pred, None)
    if labels is None:
        labels = np.unique(np.concatenate([y_t, y_p]))
    else:
        labels = _as_labels(labels)
    try:
        cost = np.asarray(cost_matrix, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("cost_matrix must be an array of numbers") from None
    q = labels.shape[0]
    if cost.shape != (q, q):
        raise ValueError(f"cost_matrix must have shape ({q}, {q}), one row and column per "
                         f"class {labels.tolist()}; got shape {cost.shape}")
    if not np.isfinite(cost).all() or (cost < 0).any():
        raise ValueError("cost_matrix must contain finite, non-negative costs")
    for arr, name in ((y_t, "y_true"), (y_p, "y_pred")):
        if not np.isin(arr, labels).all():
            raise ValueError(f"{name} contains labels that are not in labels {labels.tolist()}")
    cm = confusion_matrix(y_t, y_p, labels=labels)
    return float(np.sum(cm * cost) / y_t.shape[0])


def cost_curve(y_true: Any, y_score: Any, *, pos_label: Any = None,
               sample_weight: Any = None) -> tuple[np.ndarray, np.ndarray]:
    r"""The cost curve (代价曲线): lower envelope of the ROC points' cost lines.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning "more positive".
    pos_label : label, optional
        The positive class (as in :func:`roc_curve`).
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    probability_cost : ndarray of shape (n_corners,)
        :math:`P(+)_{\mathrm{cost}}` at the corners of the envelope, from 0 to 1
        (non-decreasing).
    normalized_cost : ndarray of shape (n_corners,)
        The envelope :math:`\min_t \mathrm{cost}_{\mathrm{norm}}` at those
        corners; it is linear in between, so ``auc(probability_cost,
        normalized_cost)`` is exactly the area under the curve.

    Notes
    -----
    With :math:`p` the probability of a positive and the costs
    :math:`\mathrm{cost}_{01}` (a positive predicted negative) and
    :math:`\mathrm{cost}_{10}` (a negative predicted positive),

    .. math::
        P(+)_{\mathrm{cost}} = \frac{p\,\mathrm{cost}_{01}}{p\,\mathrm{cost}_{01} + (1-p)\,\mathrm{cost}_{10}},
        \qquad
        \mathrm{cost}_{\mathrm{norm}} = \mathrm{FNR}\cdot P(+)_{\mathrm{cost}}
        + \mathrm{FPR}\cdot\big(1 - P(+)_{\mathrm{cost}}\big).

    Each threshold, a point :math:`(\mathrm{FPR}, \mathrm{TPR})` of the ROC
    curve, is the segment from :math:`(0, \mathrm{FPR})` to
    :math:`(1, \mathrm{FNR})`. For a given :math:`P(+)_{\mathrm{cost}}` the best
    threshold maximises :math:`\mathrm{TPR}\,P - \mathrm{FPR}\,(1-P)`, a linear
    function, so it is a vertex of the ROC convex hull. The envelope is
    therefore made of the hull vertices' lines, and two consecutive vertices
    (differences :math:`\Delta F`, :math:`\Delta T`) meet at
    :math:`P(+)_{\mathrm{cost}} = \Delta F / (\Delta F + \Delta T)`. See the
    chapter *Comparing learners*.

    Examples
    --------
    >>> pc, cost = cost_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> pc.tolist(), cost.tolist()
    ([0.0, 0.0, 0.5, 1.0, 1.0], [0.0, 0.0, 0.25, 0.0, 0.0])
    """
    fpr, tpr, _ = roc_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
                            drop_intermediate=False)
    order = np.lexsort((tpr, fpr))                   # by FPR, then TPR
    pts = np.column_stack([fpr[order], tpr[order]])
    hull: list[np.ndarray] = []                       # upper hull, monotone chain
    for p in pts:
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            if (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1) >= 0:   # not a right turn
                hull.pop()
            else:
                break
        hull.append(p)
    h = np.array(hull)                                # from (0, 0) to (1, 1)
    d_f, d_t = np.diff(h[:, 0]), np.diff(h[:, 1])
    corners = d_f / (d_f + d_t)                       # where consecutive vertices' lines meet
    # non-decreasing along a concave hull; two nearly collinear edges can come out
    # 1 ulp in the wrong order, which the running maximum undoes
    corners = np.maximum.accumulate(corners)
    # On [corners[i-1], corners[i]] the line of vertex i is the lowest.
    pc = np.r_[0.0, corners, 1.0]
    vert = np.r_[0, np.arange(corners.shape[0]), h.shape[0] - 1]
    cost = (1.0 - h[vert, 1]) * pc + h[vert, 0] * (1.0 - pc)
    return pc, cost


def calibration_curve(y_true: Any, y_prob: Any, *, pos_label: Any = None,
                      n_bins: int = 5) -> tuple[np.ndarray, np.ndarray]:
    r"""Reliability of predicted probabilities: observed frequency against mean prediction.

    The interval [0, 1] is cut into ``n_bins`` equal bins (a probability on an
    edge belongs to the lower bin); for every bin that
    holds at least one prediction, the fraction of positives among its samples
    is returned beside the mean predicted probability of those samples. A
    calibrated (校准的) classifier lies on the diagonal.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two classes.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].
    pos_label : label, optional
        The positive class (default: the larger label, as scikit-learn).
    n_bins : int >= 1, default=5

    Returns
    -------
    prob_true : ndarray of shape (n_nonempty_bins,)
        Fraction of positives in each non-empty bin.
    prob_pred : ndarray of shape (n_nonempty_bins,)
        Mean predicted probability in each non-empty bin.

    Notes
    -----
    Equal to ``sklearn.calibration.calibration_curve(strategy="uniform")``.
    See the chapter "Generative models and naive Bayes".

    Examples
    --------
    >>> t, p = calibration_curve([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9], n_bins=2)
    >>> t.tolist(), p.round(2).tolist()
    ([0.0, 1.0], [0.15, 0.85])
    """
    y_true = check_labels(y_true, "y_true")
    y_prob = check_probabilities(column_or_1d(y_prob, "y_prob", dtype=np.float64), "y_prob")
    if y_true.shape[0] != y_prob.shape[0]:
        raise ValueError(f"y_true and y_prob have different lengths: {y_true.shape[0]} "
                         f"and {y_prob.shape[0]}")
    n_bins = int(check_scalar(n_bins, "n_bins", numbers.Integral, min_val=1))
    pos = _positive_mask(y_true, pos_label)
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    which = np.searchsorted(edges[1:-1], y_prob)   # bins [0, b1], (b1, b2], ..., as scikit-learn
    total = np.bincount(which, minlength=n_bins)
    hits = np.bincount(which, weights=pos.astype(np.float64), minlength=n_bins)
    sums = np.bincount(which, weights=y_prob, minlength=n_bins)
    keep = total > 0
    return hits[keep] / total[keep], sums[keep] / total[keep]


__all__ += ["brier_score_loss"]          # chapter "Semi-naive Bayes and calibrated probabilities"


def brier_score_loss(y_true: Any, y_proba: Any, *, sample_weight: Any = None,
                     pos_label: Any = None) -> float:
    r"""Brier score: the mean squared error of a predicted probability, binary case.

    .. math:: \mathrm{BS} = \frac1m\sum_{i=1}^m \big(\hat p_i - [y_i = \text{pos}]\big)^2,

    between 0 (certain and right) and 1 (certain and wrong); always saying
    :math:`\hat p = \pi`, the rate of positives, scores :math:`\pi(1-\pi)`.
    Unlike the log loss it stays finite when a wrong prediction is certain.
    A proper scoring rule: its expectation is smallest for the true probability.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two classes (or only one of them).
    y_proba : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].
    sample_weight : array-like of shape (n_samples,), optional
    pos_label : label, optional
        The positive class; by default 1 for labels in {0, 1} or {-1, 1}.

    Returns
    -------
    float

    Notes
    -----
    Equal to ``sklearn.metrics.brier_score_loss`` for binary labels and a
    1-d ``y_proba``.

    Examples
    --------
    >>> round(brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 6)
    0.0375
    """
    y_true = check_labels(y_true, "y_true")
    p = check_probabilities(column_or_1d(y_proba, "y_proba", dtype=np.float64), "y_proba")
    if y_true.shape[0] != p.shape[0]:
        raise ValueError(f"y_true and y_proba have different lengths: {y_true.shape[0]} "
                         f"and {p.shape[0]}")
    if np.unique(y_true).shape[0] > 2:
        raise ValueError(f"y_true has more than two classes {np.unique(y_true).tolist()}; "
                         "brier_score_loss here is for binary labels")
    w = None if sample_weight is None else check_sample_weight(sample_weight, y_true.shape[0])
    pos = _positive_mask(y_true, pos_label).astype(np.float64)
    return float(np.average((p - pos) ** 2, weights=w))
