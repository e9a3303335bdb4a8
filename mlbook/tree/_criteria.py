"""The impurity formulas of the chapter "Decision trees" (pure functions).

The notation is Zhou's (chapter 4 of the watermelon book):

* :func:`entropy`, :func:`gini` -- the impurity of a set of labels;
* :func:`information_gain`, :func:`intrinsic_value`, :func:`gain_ratio`,
  :func:`gini_index` -- the score of one *discrete* attribute;
* :func:`best_threshold` -- the best binary split of one *continuous*
  attribute (candidate thresholds at the midpoints of adjacent distinct values).

The helpers the growers share also live here: :func:`_impurity` of a table of
class counts, :func:`_table_gain` of a discrete split, :func:`_threshold_search`
over every threshold of a column at once, and the tie rule (``_TIE``).

Missing values are ``None`` or ``NaN``. Every function that takes an attribute
column handles them with the weighted rule of section 4.4.2: the impurity
decrease is computed on the samples whose value is known and multiplied by
their weight share rho, and the branch fractions r_v are those of the known
samples (:func:`gini_index` reports Gini(D) minus that decrease, see there).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import (check_consistent_length, column_or_1d, encode_labels,
                           missing_in_objects, reals_in_objects)

__all__ = ["entropy", "gini", "information_gain", "intrinsic_value", "gain_ratio",
           "gini_index", "best_threshold"]

_CRITERIA = ("entropy", "gain_ratio", "gini")
#: Scores closer than this (relative) count as a tie; ties go to the attribute
#: listed first and, within an attribute, to the smallest threshold.
_TIE = 1e-9

# --------------------------------------------------------------------------
# small helpers: missing values, label codes, impurities of count tables
# --------------------------------------------------------------------------

def _is_missing(x: np.ndarray) -> np.ndarray:
    """Boolean mask of the missing entries (``None`` or NaN) of a 1-d or 2-d array."""
    if x.dtype.kind == "f":
        return np.isnan(x)
    if x.dtype.kind == "O":
        return missing_in_objects(x)
    return np.zeros(x.shape, dtype=bool)


def _as_1d(x: Any, name: str) -> np.ndarray:
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array (one attribute column); got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty")
    return arr


def _labels_and_weights(y: Any, sample_weight: Any, n: int | None = None):
    """Return the integer class codes of ``y``, the number of classes and the weights."""
    y = column_or_1d(y, "y")
    if n is not None:
        check_consistent_length(np.empty(n), y, names=["x", "y"])
    _, codes = encode_labels(y)
    n_classes = int(codes.max()) + 1
    if sample_weight is None:
        w = np.ones(y.shape[0])
    else:
        w = column_or_1d(sample_weight, "sample_weight", dtype=np.float64)
        check_consistent_length(y, w, names=["y", "sample_weight"])
        if (w < 0).any():
            raise ValueError("sample_weight must be non-negative")
    return codes, n_classes, w


def _discrete_codes(x: np.ndarray) -> tuple[np.ndarray, int]:
    """Codes 0..k-1 of the known values of a discrete column (NaN where missing)."""
    missing = _is_missing(x)
    codes = np.full(x.shape[0], np.nan)
    if (~missing).any():
        known = x[~missing]
        keys = known.astype(str) if known.dtype.kind in "OUS" else known
        _, inv = encode_labels(keys)
        codes[~missing] = inv
        return codes, int(inv.max()) + 1
    return codes, 0


def _continuous_values(x: np.ndarray, name: str = "x") -> np.ndarray:
    """A continuous column as float64 with NaN where missing."""
    if x.dtype.kind in "biuf":
        return x.astype(np.float64)
    missing = _is_missing(x)
    if not reals_in_objects(x[~missing]).all():
        raise TypeError(f"{name} must hold numbers (or None/NaN for missing values) for a "
                        "continuous attribute")
    out = np.full(x.shape[0], np.nan)
    out[~missing] = x[~missing].astype(np.float64)
    return out


def _impurity(counts: np.ndarray, criterion: str) -> np.ndarray:
    """Entropy (bits) or Gini value of each row of a table of class counts.

    ``counts`` has shape (..., n_classes) and may hold weights; a row that sums
    to zero (an empty branch) has impurity 0.
    """
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum(axis=-1, keepdims=True)
    p = np.divide(counts, total, out=np.zeros_like(counts), where=total > 0)
    if criterion == "gini":
        imp = 1.0 - np.sum(p * p, axis=-1)
        return np.where(total[..., 0] > 0, imp, 0.0)
    # 0 log 0 = 0: log2 is taken of 1 where p = 0
    # (+ 0.0 turns the -0.0 of a pure set into 0.0)
    return -np.sum(p * np.log2(np.where(p > 0, p, 1.0)), axis=-1) + 0.0


def _split_entropy(fractions: np.ndarray) -> float:
    """-sum r log2 r over the branch fractions r (the intrinsic value)."""
    r = fractions[fractions > 0]
    return float(-np.sum(r * np.log2(r)))


def _midpoint(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Midpoints of a < b that stay strictly below b (x <= t goes left)."""
    t = 0.5 * a + 0.5 * b
    return np.where(t < b, t, a)


def _first_max(scores: np.ndarray) -> int:
    """Index of the first score within a relative ``_TIE`` of the maximum."""
    best = np.max(scores)
    return int(np.flatnonzero(scores >= best - _TIE * max(1.0, abs(best)))[0])


# --------------------------------------------------------------------------
# the formulas of section 4.2 (pure functions)
# --------------------------------------------------------------------------

def entropy(y: Any, sample_weight: Any = None) -> float:
    r"""Information entropy (信息熵) of a set of labels, in bits.

    Parameters
    ----------
    y : array-like of shape (m,)
        Class labels of the samples of :math:`D`.
    sample_weight : array-like of shape (m,), optional
        Non-negative weights; the class proportions become weighted proportions.

    Returns
    -------
    float
        :math:`\mathrm{Ent}(D)`, between 0 (pure) and :math:`\log_2 |\mathcal Y|`.

    Notes
    -----
    .. math:: \mathrm{Ent}(D) = -\sum_{k=1}^{|\mathcal Y|} p_k \log_2 p_k,
              \qquad 0 \log_2 0 = 0,

    where :math:`p_k` is the (weighted) proportion of class :math:`k` in
    :math:`D`. See the chapter "Decision trees".

    Examples
    --------
    >>> round(entropy([1] * 8 + [0] * 9), 3)   # watermelon 2.0, Zhou section 4.2.1
    0.998
    >>> entropy(["a", "a"])
    0.0
    """
    codes, k, w = _labels_and_weights(y, sample_weight)
    return float(_impurity(np.bincount(codes, weights=w, minlength=k), "entropy"))


def gini(y: Any, sample_weight: Any = None) -> float:
    r"""Gini value (基尼值) of a set of labels.

    Parameters
    ----------
    y : array-like of shape (m,)
    sample_weight : array-like of shape (m,), optional

    Returns
    -------
    float
        :math:`\mathrm{Gini}(D) = 1 - \sum_k p_k^2`, the probability that two
        samples drawn with replacement from :math:`D` have different labels.

    Examples
    --------
    >>> gini([0, 1, 0, 1])
    0.5
    """
    codes, k, w = _labels_and_weights(y, sample_weight)
    return float(_impurity(np.bincount(codes, weights=w, minlength=k), "gini"))


def _discrete_table(x: Any, y: Any, sample_weight: Any):
    """Weighted class counts per value of a discrete column, and rho."""
    x = _as_1d(x, "x")
    yk, k, w = _labels_and_weights(y, sample_weight, n=x.shape[0])
    codes, n_values = _discrete_codes(x)
    known = ~np.isnan(codes)
    if not known.any():
        raise ValueError("x has no observed value (every entry is missing)")
    table = np.bincount(codes[known].astype(np.intp) * k + yk[known], weights=w[known],
                        minlength=n_values * k).reshape(n_values, k)
    rho = w[known].sum() / w.sum()
    return table, rho


def _table_gain(table: np.ndarray, rho: float, criterion: str) -> tuple[float, np.ndarray]:
    """rho * (impurity of the known samples - weighted impurity of the branches)."""
    branch = table.sum(axis=1)
    r = branch / branch.sum()
    parent = _impurity(table.sum(axis=0), criterion)
    return float(rho * (parent - r @ _impurity(table, criterion))), r


def information_gain(x: Any, y: Any, sample_weight: Any = None) -> float:
    r"""Information gain (信息增益) of splitting on a discrete attribute.

    Parameters
    ----------
    x : array-like of shape (m,)
        The attribute's value for each sample (strings or numbers); ``None``
        or NaN marks a missing value.
    y : array-like of shape (m,)
        Class labels.
    sample_weight : array-like of shape (m,), optional
        The weights :math:`w_i` of section 4.4.2 (all 1 by default).

    Returns
    -------
    float
        :math:`\mathrm{Gain}(D, a)` in bits.

    Notes
    -----
    Without missing values,

    .. math:: \mathrm{Gain}(D, a) = \mathrm{Ent}(D)
              - \sum_{v=1}^{V} \frac{|D^v|}{|D|} \mathrm{Ent}(D^v).

    With missing values (Zhou, eq. 4.12), :math:`\tilde D` is the set of
    samples whose value of :math:`a` is known, :math:`\rho` its weight share,
    :math:`\tilde r_v` the weight share of value :math:`v` inside
    :math:`\tilde D`, and

    .. math:: \mathrm{Gain}(D, a) = \rho \Big(\mathrm{Ent}(\tilde D)
              - \sum_{v} \tilde r_v \mathrm{Ent}(\tilde D^v)\Big).

    Examples
    --------
    >>> from mlbook.datasets import load_watermelon
    >>> X, y = load_watermelon("2.0", return_X_y=True)
    >>> round(information_gain(X[:, 3], y), 3)   # texture, Zhou: 0.381
    0.381
    """
    table, rho = _discrete_table(x, y, sample_weight)
    return _table_gain(table, rho, "entropy")[0]


def intrinsic_value(x: Any, sample_weight: Any = None) -> float:
    r"""Intrinsic value (固有值) IV(a) of a discrete attribute, in bits.

    Parameters
    ----------
    x : array-like of shape (m,)
        Missing entries (``None``/NaN) are left out: the fractions are the
        :math:`\tilde r_v` of the known samples.
    sample_weight : array-like of shape (m,), optional

    Returns
    -------
    float
        :math:`\mathrm{IV}(a) = -\sum_v \tilde r_v \log_2 \tilde r_v`, which
        grows with the number of values the attribute takes.

    Examples
    --------
    >>> intrinsic_value(["a", "b", "c", "d"])
    2.0
    """
    x = _as_1d(x, "x")
    w = np.ones(x.shape[0]) if sample_weight is None else column_or_1d(
        sample_weight, "sample_weight", dtype=np.float64)
    check_consistent_length(x, w, names=["x", "sample_weight"])
    codes, n_values = _discrete_codes(x)
    known = ~np.isnan(codes)
    if not known.any():
        raise ValueError("x has no observed value (every entry is missing)")
    branch = np.bincount(codes[known].astype(np.intp), weights=w[known], minlength=n_values)
    return _split_entropy(branch / branch.sum())


def gain_ratio(x: Any, y: Any, sample_weight: Any = None) -> float:
    r"""Gain ratio (增益率) of a discrete attribute (C4.5).

    Parameters
    ----------
    x, y, sample_weight
        As in :func:`information_gain`.

    Returns
    -------
    float
        :math:`\mathrm{Gain\_ratio}(D, a) = \mathrm{Gain}(D, a) / \mathrm{IV}(a)`;
        0 for an attribute that takes a single value (IV = 0, no split).

    Notes
    -----
    The denominator is the attribute's intrinsic value
    :func:`intrinsic_value`, not the entropy of :math:`D`. With missing
    values the numerator is the :math:`\rho`-scaled gain of eq. 4.12 and the
    intrinsic value is taken over the fractions :math:`\tilde r_v` of the
    known samples, the branch weights the tree uses.

    Examples
    --------
    >>> from mlbook.datasets import load_watermelon
    >>> X, y = load_watermelon("2.0", return_X_y=True)
    >>> round(gain_ratio(X[:, 3], y), 3)   # texture: 0.381 / IV = 0.381 / 1.447
    0.263
    """
    table, rho = _discrete_table(x, y, sample_weight)
    gain, r = _table_gain(table, rho, "entropy")
    iv = _split_entropy(r)
    return gain / iv if iv > 0 else 0.0


def gini_index(x: Any, y: Any, sample_weight: Any = None) -> float:
    r"""Gini index (基尼指数) of a discrete attribute (CART; smaller is better).

    Parameters
    ----------
    x, y, sample_weight
        As in :func:`information_gain`.

    Returns
    -------
    float
        Without missing values,
        :math:`\mathrm{Gini\_index}(D, a) = \sum_v \frac{|D^v|}{|D|} \mathrm{Gini}(D^v)`.
        With missing values, the Gini value of :math:`D` minus the decrease
        of eq. 4.12 written for the Gini value (see Notes).

    Notes
    -----
    Zhou (section 4.4.2) extends only the gain to missing values: the decrease
    is computed on the known samples :math:`\tilde D` and scaled by their
    weight share :math:`\rho`. The same rule for the Gini value gives

    .. math:: \mathrm{Gini\_index}(D, a) = \mathrm{Gini}(D)
              - \rho \Big(\mathrm{Gini}(\tilde D)
              - \sum_v \tilde r_v \mathrm{Gini}(\tilde D^v)\Big),

    which is the definition above when nothing is missing (:math:`\rho = 1`,
    :math:`\tilde D = D`). :math:`\mathrm{Gini}(D)` is the same for every
    attribute, so the smallest index is the largest :math:`\rho`-scaled
    decrease, the rule :class:`DecisionTreeClassifier` uses with
    ``criterion="gini"``; an attribute that is often missing is trusted less.

    Examples
    --------
    >>> gini_index(["a", "a", "b", "b"], [0, 0, 1, 1])
    0.0
    >>> round(gini_index(["a", "a", "b", None], [0, 0, 1, 1]), 4)   # 1/2 - 3/4 * 4/9
    0.1667
    """
    table, rho = _discrete_table(x, y, sample_weight)
    yk, k, w = _labels_and_weights(y, sample_weight)
    gini_all = float(_impurity(np.bincount(yk, weights=w, minlength=k), "gini"))
    return gini_all - _table_gain(table, rho, "gini")[0]


def _threshold_search(x: np.ndarray, yk: np.ndarray, w: np.ndarray, n_classes: int,
                      criterion: str, min_leaf: int = 1):
    """Best binary split ``x <= t`` of a continuous column, all thresholds at once.

    ``x`` is float with NaN for missing. Sorts once and reads the class counts
    on the left of every candidate threshold from one cumulative sum, so the
    search costs O(m log m) for sorting plus O(m K) for the scores.

    Returns ``None`` when the known values are all equal (or no threshold
    leaves ``min_leaf`` known samples on each side), otherwise a tuple
    ``(threshold, gain, left_fraction, intrinsic_value)`` where ``gain`` is
    rho times the impurity decrease (entropy or Gini).
    """
    known = ~np.isnan(x) & (w > 0)                   # a weightless value offers no threshold
    order = np.argsort(x[known], kind="stable")
    xs = x[known][order]
    if xs.shape[0] < 2 or xs[0] == xs[-1]:
        return None
    ys, ws = yk[known][order], w[known][order]
    onehot = np.zeros((xs.shape[0], n_classes))
    onehot[np.arange(xs.shape[0]), ys] = ws
    left = np.cumsum(onehot, axis=0)[:-1]            # (m-1, K): counts with x <= x_(i)
    total = left[-1] + onehot[-1]                    # (K,)
    right = total - left
    w_known = total.sum()
    r_left = left.sum(axis=1) / w_known              # (m-1,)
    crit = "gini" if criterion == "gini" else "entropy"
    imp = _impurity(total, crit)
    child = r_left * _impurity(left, crit) + (1.0 - r_left) * _impurity(right, crit)
    rho = w_known / w.sum()
    gain = rho * (imp - child)
    valid = xs[1:] > xs[:-1]                         # thresholds between distinct values
    if min_leaf > 1:
        n_left = np.arange(1, xs.shape[0])
        valid &= (n_left >= min_leaf) & (xs.shape[0] - n_left >= min_leaf)
        if not valid.any():
            return None
    i = np.flatnonzero(valid)[_first_max(gain[valid])]
    t = float(_midpoint(xs[i], xs[i + 1]))
    iv = _split_entropy(np.array([r_left[i], 1.0 - r_left[i]]))
    return t, float(gain[i]), float(r_left[i]), iv


def best_threshold(x: Any, y: Any, criterion: str = "entropy",
                   sample_weight: Any = None) -> tuple[float, float]:
    r"""Best threshold of a continuous attribute (bi-partition, section 4.4.1).

    Parameters
    ----------
    x : array-like of shape (m,)
        Numbers; ``None`` or NaN marks a missing value.
    y : array-like of shape (m,)
        Class labels.
    criterion : {"entropy", "gini", "gain_ratio"}
        What to optimise and return (see Returns).
    sample_weight : array-like of shape (m,), optional

    Returns
    -------
    threshold : float
        The split sends :math:`x \le t` left and :math:`x > t` right.
    score : float
        ``"entropy"``: the information gain :math:`\mathrm{Gain}(D, a, t)` (largest);
        ``"gini"``: the Gini index of the split (smallest; with missing
        values defined as in :func:`gini_index`);
        ``"gain_ratio"``: the gain ratio of the threshold with the largest gain
        (as C4.5 does).

    Notes
    -----
    With the sorted distinct values :math:`a^1 < \dots < a^n`, the candidates are
    :math:`T_a = \{(a^i + a^{i+1})/2 : 1 \le i < n\}` and

    .. math:: \mathrm{Gain}(D, a) = \max_{t \in T_a} \mathrm{Ent}(D)
              - \sum_{\lambda \in \{-, +\}} \frac{|D_t^\lambda|}{|D|} \mathrm{Ent}(D_t^\lambda).

    All candidates are scored at once from cumulative class counts of the
    sorted column. Ties go to the smallest threshold.

    Examples
    --------
    >>> from mlbook.datasets import load_watermelon
    >>> X, y = load_watermelon("3.0alpha", return_X_y=True)
    >>> t, g = best_threshold(X[:, 0], y)      # density, Zhou: 0.381 and 0.262
    >>> round(t, 4), round(g, 3)               # Zhou prints the threshold as 0.381
    (0.3815, 0.262)
    """
    if criterion not in _CRITERIA:
        raise ValueError(f"criterion must be one of {list(_CRITERIA)}; got {criterion!r}")
    x = _continuous_values(_as_1d(x, "x"))
    yk, k, w = _labels_and_weights(y, sample_weight, n=x.shape[0])
    if np.isnan(x).all():
        raise ValueError("x has no observed value (every entry is missing)")
    found = _threshold_search(x, yk, w, k, "gini" if criterion == "gini" else "entropy")
    if found is None:
        raise ValueError("x takes a single value; there is no threshold to split on")
    t, gain, r_left, iv = found
    if criterion == "entropy":
        return t, gain
    if criterion == "gain_ratio":
        return t, gain / iv
    # the Gini index of the split, with missing values as in gini_index:
    # Gini(D) minus the rho-scaled decrease that _threshold_search maximised
    return t, float(_impurity(np.bincount(yk, weights=w, minlength=k), "gini")) - gain
