r"""Diversity (多样性) of an ensemble: the chapter "Bagging, random forests and combining
learners" (Zhou 8.5).

Pairwise measures of two classifiers' predictions on the same :math:`m`
samples, from Zhou's contingency table (8.5.2): for labels :math:`\pm 1`,

=====================  =====================  =====================
\                      :math:`h_i = +1`       :math:`h_i = -1`
:math:`h_j = +1`       :math:`a`              :math:`c`
:math:`h_j = -1`       :math:`b`              :math:`d`
=====================  =====================  =====================

(:math:`a` counts the samples both predict :math:`+1`, :math:`b` those
:math:`h_i` predicts :math:`+1` and :math:`h_j` predicts :math:`-1`, and so on;
:math:`a + b + c + d = m`). Two labels other than :math:`\pm 1` are sorted and
the larger plays :math:`+1`. And the error-ambiguity decomposition of a
regression ensemble (8.5.1).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._validation import check_array, check_consistent_length, check_labels, check_vector


def _holds_strings(h: np.ndarray) -> bool:
    return h.dtype.kind in "US" or (h.dtype.kind == "O" and isinstance(h[0], str))


def _pair(h_i: Any, h_j: Any) -> tuple[np.ndarray, np.ndarray]:
    """Both prediction vectors checked, their sorted labels and their codes (2, m)."""
    a = check_labels(h_i, "h_i")
    b = check_labels(h_j, "h_j")
    check_consistent_length(a, b, names=["h_i", "h_j"])
    if a.shape[0] and _holds_strings(a) != _holds_strings(b):
        raise TypeError("h_i and h_j mix strings and numbers; use one type of label")
    labels, codes = np.unique(np.concatenate([a, b]), return_inverse=True)
    return labels, codes.reshape(2, -1)


def _table(h_i: Any, h_j: Any, measure: str) -> tuple[int, int, int, int]:
    """Zhou's a, b, c, d for two classes; a clear error for more, or for a constant predictor."""
    labels, codes = _pair(h_i, h_j)
    if labels.shape[0] > 2:
        raise ValueError(f"{measure} needs two classes; h_i and h_j hold {labels.shape[0]} "
                         f"labels: {labels.tolist()}. Use disagreement_measure or "
                         "kappa_statistic for more classes")
    for name, c in zip(("h_i", "h_j"), codes):
        if labels.shape[0] == 1 or np.all(c == c[0]):
            raise ValueError(
                f"{measure} is undefined when a predictor is constant: {name} predicts only "
                f"{labels.tolist()[c[0]]!r}, so a row or column of the contingency table is "
                "zero and so is the denominator")
    pos_i, pos_j = codes == 1                                  # the larger label is "+1"
    a = int(np.sum(pos_i & pos_j))
    b = int(np.sum(pos_i & ~pos_j))
    c = int(np.sum(~pos_i & pos_j))
    d = int(np.sum(~pos_i & ~pos_j))
    return a, b, c, d


def disagreement_measure(h_i: Any, h_j: Any) -> float:
    r"""The disagreement measure (不合度量): the fraction of samples the two classifiers
    label differently.

    Parameters
    ----------
    h_i, h_j : array-like of shape (m,)
        The two classifiers' predicted labels, any number of classes.

    Returns
    -------
    float in [0, 1]

    Notes
    -----
    .. math:: \mathrm{dis}_{ij} = \frac{b + c}{m},

    and for any number of classes the fraction of samples with
    :math:`h_i(\boldsymbol x) \ne h_j(\boldsymbol x)`. Larger means more diverse.
    It has no degenerate case: :math:`m \ge 1` is required.

    Examples
    --------
    >>> disagreement_measure([1, 1, -1, -1], [1, -1, -1, 1])
    0.5
    """
    _, codes = _pair(h_i, h_j)
    return float(np.mean(codes[0] != codes[1]))


def correlation_coefficient(h_i: Any, h_j: Any) -> float:
    r"""The correlation coefficient (相关系数) of two classifiers' predictions (two classes).

    Parameters
    ----------
    h_i, h_j : array-like of shape (m,)
        The two classifiers' predicted labels, two classes in all.

    Returns
    -------
    float in [-1, 1]

    Raises
    ------
    ValueError
        For more than two labels, and when a predictor is constant.

    Notes
    -----
    .. math:: \rho_{ij} = \frac{ad - bc}{\sqrt{(a+b)(a+c)(c+d)(b+d)}},

    Pearson's correlation of the two :math:`\pm 1` vectors: 0 for unrelated
    predictions, :math:`+1` for equal ones. The denominator is zero exactly
    when a predictor is constant (one of its rows or columns in the table is
    zero; then the numerator is zero too): a constant has no variance and its
    correlation with anything is undefined, so this raises ``ValueError``
    rather than returning a number that would mean something it does not.

    Examples
    --------
    >>> correlation_coefficient([1, 1, -1, -1], [1, 1, -1, 1])
    0.5773502691896258
    """
    a, b, c, d = _table(h_i, h_j, "correlation_coefficient")
    return float((a * d - b * c) / np.sqrt(float((a + b) * (a + c) * (c + d) * (b + d))))


def q_statistic(h_i: Any, h_j: Any) -> float:
    r"""Yule's Q-statistic (Q-统计量) of two classifiers' predictions (two classes).

    Parameters
    ----------
    h_i, h_j : array-like of shape (m,)
        The two classifiers' predicted labels, two classes in all.

    Returns
    -------
    float in [-1, 1]

    Raises
    ------
    ValueError
        For more than two labels, and when a predictor is constant.

    Notes
    -----
    .. math:: Q_{ij} = \frac{ad - bc}{ad + bc},

    of the same sign as :math:`\rho_{ij}` and :math:`|Q_{ij}| \ge |\rho_{ij}|`.
    The denominator is zero exactly when :math:`ad = bc = 0` with both
    zero, that is when one predictor is constant (for instance :math:`a = b = 0`:
    :math:`h_i` never predicts :math:`+1`); the numerator is then zero too and
    Q is undefined, so this raises ``ValueError``. :math:`Q = \pm 1` as soon as
    only one of :math:`ad`, :math:`bc` vanishes.

    Examples
    --------
    >>> q_statistic([1, 1, -1, -1], [1, 1, -1, 1])
    1.0
    """
    a, b, c, d = _table(h_i, h_j, "q_statistic")
    return float((a * d - b * c) / (a * d + b * c))


def kappa_statistic(h_i: Any, h_j: Any) -> float:
    r"""The :math:`\kappa`-statistic (κ-统计量): agreement beyond chance (Cohen's kappa).

    Parameters
    ----------
    h_i, h_j : array-like of shape (m,)
        The two classifiers' predicted labels, any number of classes.

    Returns
    -------
    float in [-1, 1]
        1 when the classifiers agree on every sample, 0 when they agree as
        often as chance would.

    Notes
    -----
    .. math::

        \kappa = \frac{p_1 - p_2}{1 - p_2}, \qquad
        p_1 = \frac{a + d}{m}, \qquad
        p_2 = \frac{(a + b)(a + c) + (c + d)(b + d)}{m^2}:

    :math:`p_1` is the probability that they agree, :math:`p_2` the probability
    that they agree by chance (each labelling independently with its own
    frequencies). For :math:`K` classes, :math:`p_1` is the fraction of equal
    labels and :math:`p_2 = \sum_k q_{ik} q_{jk}` with :math:`q_{ik}` the
    fraction of samples :math:`h_i` labels :math:`k`: Cohen's kappa, as
    ``sklearn.metrics.cohen_kappa_score``.

    Degenerate case: :math:`1 - p_2 = 0` only when both classifiers predict one
    and the same label everywhere; then :math:`p_1 = 1` as well, and this
    returns 1.0, Zhou's value for two classifiers that agree on every sample
    (scikit-learn gives NaN there).

    Examples
    --------
    >>> kappa_statistic([1, 1, -1, -1], [1, 1, -1, 1])
    0.5
    """
    labels, codes = _pair(h_i, h_j)
    m, K = codes.shape[1], labels.shape[0]
    rows = np.bincount(codes[0], minlength=K)
    cols = np.bincount(codes[1], minlength=K)
    chance = int(rows @ cols)                           # m^2 p_2, an exact integer
    if chance == m * m:                                 # p_2 = 1: one constant, shared label
        return 1.0
    agree = int(np.sum(codes[0] == codes[1]))           # m p_1
    return float((m * agree - chance) / (m * m - chance))


class ErrorAmbiguityResult(NamedTuple):
    """The error-ambiguity decomposition: ``error == mean_error - mean_ambiguity``."""

    error: float
    mean_error: float
    mean_ambiguity: float


def error_ambiguity(predictions: Any, y: Any, weights: Any = None) -> ErrorAmbiguityResult:
    r"""The error-ambiguity decomposition (误差-分歧分解) of a weighted-average regression
    ensemble: :math:`E = \bar E - \bar A`.

    Parameters
    ----------
    predictions : array-like of shape (T, m)
        Row :math:`i` holds member :math:`h_i`'s predictions on the :math:`m` samples.
    y : array-like of shape (m,)
        The targets.
    weights : array-like of shape (T,) or None, default=None
        Non-negative member weights, not all zero; they are divided by their sum
        (Zhou's :math:`w_i \ge 0`, :math:`\sum_i w_i = 1`). None: equal weights.

    Returns
    -------
    ErrorAmbiguityResult
        ``error`` :math:`E`, ``mean_error`` :math:`\bar E` and
        ``mean_ambiguity`` :math:`\bar A`, each averaged over the samples.

    Notes
    -----
    With :math:`H(\boldsymbol x) = \sum_i w_i h_i(\boldsymbol x)` (Zhou 8.27-8.36),

    .. math::

        E = \frac1m \sum_{k} \big(H(\boldsymbol x_k) - y_k\big)^2, \quad
        \bar E = \frac1m \sum_{k} \sum_i w_i \big(h_i(\boldsymbol x_k) - y_k\big)^2, \quad
        \bar A = \frac1m \sum_{k} \sum_i w_i \big(h_i(\boldsymbol x_k) - H(\boldsymbol x_k)\big)^2,

    and :math:`E = \bar E - \bar A` holds exactly: expand
    :math:`(h_i - y)^2 = (h_i - H)^2 + 2(h_i - H)(H - y) + (H - y)^2`, weight
    by :math:`w_i` and sum; the middle term vanishes because
    :math:`\sum_i w_i (h_i - H) = 0`. The more the members disagree (the larger
    :math:`\bar A`), the better the ensemble than its average member.

    Examples
    --------
    >>> r = error_ambiguity([[1.0, 2.0], [3.0, 2.0]], [2.0, 2.0])
    >>> r.error, r.mean_error, r.mean_ambiguity
    (0.0, 0.5, 0.5)
    """
    if np.ndim(predictions) != 2:        # check_array's hint speaks of (n_samples, n_features)
        raise ValueError("predictions must be a 2-d array of shape (T, m), one row per member "
                         f"and one column per sample; got a {np.ndim(predictions)}-d array of "
                         f"shape {np.shape(predictions)} (a single member: reshape(1, -1))")
    P = check_array(predictions, "predictions")                 # (T, m)
    y = check_vector(y, "y", what="targets")                     # (m,)
    if P.shape[1] != y.shape[0]:
        raise ValueError(f"predictions has {P.shape[1]} samples per member (columns), but y "
                         f"has {y.shape[0]}; predictions must have shape (T, m)")
    T = P.shape[0]
    if weights is None:
        w = np.full(T, 1.0 / T)
    else:
        w = check_vector(weights, "weights", what="weights")
        if w.shape[0] != T:
            raise ValueError(f"weights has {w.shape[0]} entries, but predictions has {T} "
                             "members (rows)")
        if (w < 0).any():
            raise ValueError(f"weights must be non-negative; got {w.tolist()}")
        if w.sum() <= 0:
            raise ValueError("weights are all zero; at least one must be positive")
        w = w / w.sum()
    H = w @ P                                                     # (m,): the ensemble
    error = float(np.mean((H - y) ** 2))
    mean_error = float(np.mean(w @ (P - y) ** 2))                 # (T,) @ (T, m) -> (m,)
    mean_ambiguity = float(np.mean(w @ (P - H) ** 2))
    return ErrorAmbiguityResult(error, mean_error, mean_ambiguity)
