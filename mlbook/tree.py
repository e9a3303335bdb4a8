"""Decision trees (决策树): impurity functions, split search, and a classifier.

The chapter "Decision trees" (``book/trees/decision_trees.ipynb``) derives every
formula implemented here; the notation is Zhou's (chapter 4 of the watermelon
book):

* :func:`entropy`, :func:`gini` -- the impurity of a set of labels;
* :func:`information_gain`, :func:`intrinsic_value`, :func:`gain_ratio`,
  :func:`gini_index` -- the score of one *discrete* attribute;
* :func:`best_threshold` -- the best binary split of one *continuous*
  attribute (candidate thresholds at the midpoints of adjacent distinct values);
* :class:`DecisionTreeClassifier` -- Zhou's ``generate_tree`` with the three
  criteria, pre- and post-pruning on a validation set, continuous attributes
  and missing values (section 4.4.2: the weights rho and r_v);
* :class:`ObliqueDecisionTreeClassifier` -- a multivariate tree (section 4.5)
  whose nodes test a linear combination of the attributes;
* :func:`export_text` -- the fitted tree as indented text.

Missing values are ``None`` or ``NaN``. Every function that takes an attribute
column handles them with the weighted rule of section 4.4.2: the impurity
decrease is computed on the samples whose value is known and multiplied by
their weight share rho, and the branch fractions r_v are those of the known
samples (:func:`gini_index` reports Gini(D) minus that decrease, see there).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ._validation import (
    check_array,
    check_classification_targets,
    check_consistent_length,
    check_is_fitted,
    check_random_state,
    check_sample_weight,
    check_scalar,
    column_or_1d,
    _reject_sparse,
)
from .base import BaseEstimator, ClassifierMixin

__all__ = [
    "entropy",
    "gini",
    "information_gain",
    "intrinsic_value",
    "gain_ratio",
    "gini_index",
    "best_threshold",
    "Node",
    "DecisionTreeClassifier",
    "ObliqueDecisionTreeClassifier",
    "export_text",
]

_CRITERIA = ("entropy", "gain_ratio", "gini")
#: Scores closer than this (relative) count as a tie; ties go to the attribute
#: listed first and, within an attribute, to the smallest threshold.
_TIE = 1e-9

#: Use the level-wise builder where it applies (numeric data, no missing values,
#: gini or entropy, no pruning). Tests set it to False to compare the two builders.
_LEVELWISE = True


# --------------------------------------------------------------------------
# small helpers: missing values, label codes, impurities of count tables
# --------------------------------------------------------------------------

_missing_obj = np.frompyfunc(lambda v: v is None or (isinstance(v, float) and v != v), 1, 1)
_is_number_obj = np.frompyfunc(
    lambda v: isinstance(v, (numbers.Real, np.number)) and not isinstance(v, (bool, np.bool_)), 1, 1
)


def _is_missing(x: np.ndarray) -> np.ndarray:
    """Boolean mask of the missing entries (``None`` or NaN) of a 1-d or 2-d array."""
    if x.dtype.kind == "f":
        return np.isnan(x)
    if x.dtype.kind == "O":
        return _missing_obj(x).astype(bool)
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
    _, codes = np.unique(y, return_inverse=True)
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
        _, inv = np.unique(keys, return_inverse=True)
        codes[~missing] = inv
        return codes, int(inv.max()) + 1
    return codes, 0


def _continuous_values(x: np.ndarray, name: str = "x") -> np.ndarray:
    """A continuous column as float64 with NaN where missing."""
    if x.dtype.kind in "biuf":
        return x.astype(np.float64)
    missing = _is_missing(x)
    if not _is_number_obj(x[~missing]).astype(bool).all():
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
    imp = _impurity(total, "gini" if criterion == "gini" else "entropy")
    crit = "gini" if criterion == "gini" else "entropy"
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


# --------------------------------------------------------------------------
# the tree
# --------------------------------------------------------------------------

@dataclass(eq=False)
class Node:
    """One node of a fitted tree.

    Attributes
    ----------
    value : ndarray of shape (n_classes,)
        Weighted class counts of the training samples that reach the node.
    proba : ndarray of shape (n_classes,)
        The class distribution predicted at the node (its parent's for an
        empty branch).
    label : int
        Index into ``classes_`` of the node's majority class.
    depth : int
        0 at the root.
    feature : int or None
        The attribute tested (None at a leaf and at an oblique node).
    threshold : float or None
        Continuous and oblique tests send ``value <= threshold`` to
        ``children[0]`` and the rest to ``children[1]``; None for a
        categorical (multi-way) test, where ``children[v]`` holds category ``v``.
    coef : ndarray of shape (n_features,) or None
        The weights of an oblique test ``coef @ x <= threshold``.
    children : list of Node
        Empty at a leaf.
    branch_weights : ndarray of shape (n_children,) or None
        The fractions :math:`\\tilde r_v` of the known training weight sent to
        each child; a sample whose tested value is missing goes down every
        branch with these weights.
    n_samples : int
        Number of training samples (rows) reaching the node with positive weight.
    empty : bool
        True for a leaf made for a value no training sample at the node had.
    """

    value: np.ndarray
    proba: np.ndarray
    label: int
    depth: int
    n_samples: int
    feature: int | None = None
    threshold: float | None = None
    coef: np.ndarray | None = None
    children: list = field(default_factory=list)
    branch_weights: np.ndarray | None = None
    empty: bool = False

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def make_leaf(self) -> None:
        """Prune: drop the children and the test."""
        self.children = []
        self.feature = self.threshold = self.coef = self.branch_weights = None


def _majority(counts: np.ndarray, parent_label: int | None) -> int:
    """Majority class; a tie goes to the parent's class if it is among the tied, else the first."""
    best = counts.max()
    tied = np.flatnonzero(counts >= best - _TIE * max(1.0, best))
    if parent_label is not None and parent_label in tied:
        return int(parent_label)
    return int(tied[0])


def _make_node(counts: np.ndarray, depth: int, n_samples: int, parent: Node | None) -> Node:
    total = counts.sum()
    if total > 0:
        return Node(value=counts, proba=counts / total,
                    label=_majority(counts, None if parent is None else parent.label),
                    depth=depth, n_samples=n_samples)
    # an empty branch: a leaf labelled (and distributed) like its parent
    return Node(value=counts, proba=parent.proba.copy(), label=parent.label, depth=depth,
                n_samples=0, empty=True)


def _flatten(root: Node):
    """The tree as arrays (feature, threshold, left child, proba; the right
    child is ``left + 1``, a leaf has feature -1), nodes in breadth-first
    order; None if a node is not a binary threshold test.

    Built afresh at every prediction (a walk over the nodes, cheap beside the
    prediction it speeds up), so that it always describes the tree as it is
    now, even after a node was changed by hand.
    """
    nodes, feature, threshold, left = [root], [], [], []
    for node in nodes:                             # the list grows as the walk goes
        if node.children:
            if node.threshold is None or node.coef is not None:
                return None                        # a multi-way or an oblique test
            feature.append(node.feature)
            threshold.append(node.threshold)
            left.append(len(nodes))                # the right child follows the left
            nodes.extend(node.children)
        else:
            feature.append(-1)
            threshold.append(0.0)
            left.append(-1)
    return (np.array(feature), np.array(threshold), np.array(left),
            np.array([node.proba for node in nodes]))


def _predict_flat(flat, Z: np.ndarray) -> np.ndarray:
    """Class distributions of the leaves reached by the rows of ``Z`` (no NaN):
    all rows descend one level per step, so the loop runs once per level."""
    feature, threshold, left, proba = flat
    at = np.zeros(Z.shape[0], dtype=np.intp)               # the node of every row
    moving = np.flatnonzero(feature[at] >= 0)              # rows not yet at a leaf
    while moving.shape[0]:
        node = at[moving]
        nxt = left[node] + (Z[moving, feature[node]] > threshold[node])
        at[moving] = nxt
        moving = moving[feature[nxt] >= 0]
    return proba[at]


class _TreeBase(ClassifierMixin, BaseEstimator):
    """Prediction, traversal and inspection shared by the two tree classifiers."""

    # --- routing: where do samples go at a node? -------------------------
    def _route(self, node: Node, Z: np.ndarray, idx: np.ndarray, w: np.ndarray):
        """Send the samples ``idx`` (weights ``w``) at ``node`` to its children.

        Returns ``(routes, stay)``: a list of ``(child, idx, w)`` and a mask of
        the samples that stop at the node (a category unseen in training).
        A missing value goes down every branch with weight ``w * r_v``.
        """
        z = Z[idx] @ node.coef if node.coef is not None else Z[idx, node.feature]
        missing = np.isnan(z)
        if node.threshold is not None:           # binary test: z <= t goes left
            masks = [z <= node.threshold, z > node.threshold]
            stay = np.zeros(idx.shape[0], dtype=bool)
        else:                                    # multi-way test on category codes
            masks = [z == v for v in range(len(node.children))]
            stay = z < 0                         # code -1: a category unseen in training
        routes = []
        for child, mask, r in zip(node.children, masks, node.branch_weights):
            take = mask | (missing & (r > 0))
            cw = np.where(missing[take], w[take] * r, w[take])
            routes.append((child, idx[take], cw))
        return routes, stay

    def _accumulate(self, node: Node, Z: np.ndarray, idx: np.ndarray, w: np.ndarray,
                    out: np.ndarray) -> None:
        if node.is_leaf:
            out[idx] += w[:, None] * node.proba
            return
        routes, stay = self._route(node, Z, idx, w)
        if stay.any():   # unseen category: the node's own distribution
            out[idx[stay]] += w[stay, None] * node.proba
        for child, cidx, cw in routes:
            if cidx.shape[0]:
                self._accumulate(child, Z, cidx, cw, out)

    # --- public API -------------------------------------------------------
    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities: the class distribution of the leaf reached.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns follow ``classes_``. A sample with a missing tested value
            gets the mixture of its branches' distributions weighted by
            :math:`\\tilde r_v`; a category never seen in training stops at the
            node that tests it and gets that node's distribution.
        """
        check_is_fitted(self, "tree_")
        Z = self._encode(X)
        flat = None if np.isnan(Z).any() else _flatten(self.tree_)
        if flat is not None:                       # binary tests, nothing missing
            return _predict_flat(flat, Z)
        out = np.zeros((Z.shape[0], self.classes_.shape[0]))
        self._accumulate(self.tree_, Z, np.arange(Z.shape[0]), np.ones(Z.shape[0]), out)
        return out

    def predict(self, X: Any) -> np.ndarray:
        """Predicted class labels, shape (n_samples,): the most probable class."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """Mean accuracy of ``predict(X)`` against ``y`` (weighted if ``sample_weight``)."""
        y = column_or_1d(y, "y")
        pred = self.predict(X)
        check_consistent_length(pred, y, names=["X", "y"])
        w = np.ones(y.shape[0]) if sample_weight is None else column_or_1d(
            sample_weight, "sample_weight", dtype=np.float64)
        return float(np.sum(w * (pred == y)) / np.sum(w))

    def _nodes(self):
        stack = [self.tree_]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children)

    def get_depth(self) -> int:
        """Depth of the fitted tree: the number of tests on the longest path."""
        check_is_fitted(self, "tree_")
        return max(node.depth for node in self._nodes())

    def get_n_leaves(self) -> int:
        """Number of leaves of the fitted tree."""
        check_is_fitted(self, "tree_")
        return sum(node.is_leaf for node in self._nodes())

    # --- validation shared by fit -------------------------------------
    def _check_sizes(self):
        if self.max_depth is not None:
            check_scalar(self.max_depth, "max_depth", numbers.Integral, min_val=1)
        check_scalar(self.min_samples_split, "min_samples_split", numbers.Integral, min_val=2)

    def _check_common(self, X, y):
        self._check_sizes()
        y = column_or_1d(y, "y", warn=True)
        if y.shape[0] < 2:
            raise ValueError(f"y has {y.shape[0]} sample; a tree needs at least two samples")
        X = _as_2d(X, "X")
        check_consistent_length(X, y, names=["X", "y"])
        if _is_missing(y).any():
            raise ValueError("y contains missing labels (None or NaN); a tree needs the "
                             "class of every training sample")
        self.classes_ = check_classification_targets(y)
        yk = np.searchsorted(self.classes_, y)
        return X, y, yk


def _as_2d(X: Any, name: str) -> np.ndarray:
    """``np.asarray(X)`` for a tree (object arrays allowed): dense, 2-d, never complex."""
    _reject_sparse(X, name)
    X = np.asarray(X)
    if X.dtype.kind == "c":
        check_array(X, name)                              # raises the complex-number error
    if X.ndim != 2:
        hint = (" Reshape your data: X.reshape(-1, 1) if it has a single feature, "
                "X.reshape(1, -1) if it is a single sample.") if X.ndim == 1 else ""
        raise ValueError(f"{name} must be a 2-d array of shape (n_samples, n_features); "
                         f"got shape {X.shape}.{hint}")
    return X


def _encode_fit(X: np.ndarray):
    """Turn X into floats: categorical columns become codes 0..k-1, missing NaN.

    Returns ``(Z, categories)``: ``categories[j]`` is the array of category
    values of column ``j`` in order of first appearance (None for a continuous
    column).
    """
    if X.dtype.kind in "biuf":
        Z = check_array(X, "X", allow_nan=True)
        all_missing = np.isnan(Z).all(axis=0)
        if all_missing.any():
            raise ValueError(f"column {int(np.flatnonzero(all_missing)[0])} of X has no "
                             "observed value (every entry is missing)")
        return Z, [None] * Z.shape[1]
    if X.dtype.kind not in "OUS":
        raise TypeError(f"X has an unsupported dtype {X.dtype}; pass numbers or an object "
                        "array of categories")
    if X.shape[0] < 1 or X.shape[1] < 1:
        raise ValueError(f"X must have at least one sample and one feature; got shape {X.shape}")
    X = X.astype(object)
    missing = _is_missing(X)
    Z = np.full(X.shape, np.nan)
    categories: list = []
    for j in range(X.shape[1]):          # a loop over columns, not samples
        known = X[~missing[:, j], j]
        if known.shape[0] == 0:
            raise ValueError(f"column {j} of X has no observed value (every entry is missing)")
        if _is_number_obj(known).astype(bool).all():
            Z[~missing[:, j], j] = known.astype(np.float64)
            if not np.isfinite(Z[~missing[:, j], j]).all():
                raise ValueError(f"column {j} of X contains infinity")
            categories.append(None)
        else:
            keys = known.astype(str)
            uniq, first, inv = np.unique(keys, return_index=True, return_inverse=True)
            rank = np.empty(uniq.shape[0], dtype=np.intp)
            rank[np.argsort(first)] = np.arange(uniq.shape[0])   # order of first appearance
            Z[~missing[:, j], j] = rank[inv]
            categories.append(known[np.sort(first)])
    return Z, categories


def _resolve_max_features(max_features: Any, n_features: int) -> int:
    """The number of attributes drawn at each node (``max_features`` of the tree)."""
    if max_features is None:
        return n_features
    if isinstance(max_features, str):
        if max_features == "sqrt":
            return max(1, int(np.sqrt(n_features)))
        if max_features == "log2":
            return max(1, int(np.log2(n_features)))
        raise ValueError(f"max_features must be None, an int, a float in (0, 1], 'sqrt' or "
                         f"'log2'; got {max_features!r}")
    if isinstance(max_features, (bool, np.bool_)):
        raise TypeError(f"max_features must be None, an int, a float, 'sqrt' or 'log2'; got "
                        f"{max_features!r}")
    if isinstance(max_features, numbers.Integral):
        if not 1 <= max_features <= n_features:
            raise ValueError(f"max_features as an int must lie in [1, n_features={n_features}]; "
                             f"got {max_features}")
        return int(max_features)
    if isinstance(max_features, numbers.Real):
        if not 0.0 < max_features <= 1.0:
            raise ValueError(f"max_features as a float must lie in (0, 1]; got {max_features}")
        return max(1, int(max_features * n_features))
    raise TypeError(f"max_features must be None, an int, a float, 'sqrt' or 'log2'; got "
                    f"{max_features!r}")


class DecisionTreeClassifier(_TreeBase):
    """A decision tree (决策树) grown by Zhou's ``generate_tree``.

    Parameters
    ----------
    criterion : {"entropy", "gain_ratio", "gini"}
        Split selection: information gain (ID3), C4.5's gain-ratio heuristic
        (among the attributes with at least average gain, the largest gain
        ratio) or the Gini index (CART).
    max_depth : int or None
        Grow no deeper than this (None: until the leaves are pure or no
        attribute can split them).
    min_samples_split : int
        A node with fewer training samples becomes a leaf.
    pruning : {None, "pre", "post"}
        Pre-pruning (预剪枝) or post-pruning (后剪枝) against the validation set
        passed to ``fit`` (section 4.3). A split is kept only if it strictly
        raises the validation accuracy.
    max_features : int, float, "sqrt", "log2" or None, default=None
        How many attributes to consider at each node, drawn at random anew for
        every node (the random forest's per-node subsampling): an int is a
        number, a float in (0, 1] a fraction of ``n_features_in_``, "sqrt" and
        "log2" that function of it (at least 1); None, all attributes. An
        attribute that is constant on the node does not count: attributes are
        drawn until that many that can split it are found (or none is left),
        as in scikit-learn.
    random_state : None, int or numpy Generator, default=None
        Seeds the draw of ``max_features`` (unused when it is None).
    min_samples_leaf : int, default=1
        A threshold of a continuous attribute is a candidate only if it leaves
        at least this many training samples on each side (categorical
        attributes are not restricted).

    Attributes
    ----------
    tree_ : Node
        The root of the fitted tree.
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    feature_types_ : list of str
        ``"categorical"`` or ``"continuous"`` for each column.
    categories_ : list
        For a categorical column, its values in order of first appearance
        (branch ``v`` of a node testing the column holds ``categories_[j][v]``);
        None for a continuous column.

    Notes
    -----
    * ``X`` may be a float array (all attributes continuous) or an object array
      mixing strings (categorical attributes) and numbers (continuous ones),
      with ``None``/NaN for missing values -- the watermelon data sets of
      :func:`mlbook.datasets.load_watermelon` fit directly.
    * A categorical attribute splits into one branch per value it takes in the
      whole training set; a value absent at the node gives an empty leaf
      labelled with the node's majority class. It is not tested again below.
      A continuous attribute splits in two (``x <= t``) and may be reused.
    * Missing values follow section 4.4.2 in fitting and in prediction.
    * A category never seen in training stops at the node that tests it and
      gets that node's class distribution (its majority class).
    * Ties between attributes go to the one listed first; ties between classes
      to the parent's class if it is among the tied ones, otherwise to the
      first class of ``classes_``.
    * Numeric input without missing values, criterion "gini" or "entropy",
      no pruning: the tree is grown level by level with every feature pre-sorted
      once (the result is the same tree, only faster), with or without sample
      weights.

    See the chapter "Decision trees".

    Examples
    --------
    >>> from mlbook.datasets import load_watermelon
    >>> wm = load_watermelon("2.0")
    >>> tree = DecisionTreeClassifier().fit(wm.data, wm.target)
    >>> tree.get_depth(), tree.get_n_leaves()     # Zhou's figure 4.4
    (4, 9)
    >>> float(tree.score(wm.data, wm.target))
    1.0
    """

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        # missing values (NaN or None) and categorical (string) columns are part
        # of the model (C4.5's rules, Zhou's section 4.4)
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        return tags

    def __init__(self, criterion: str = "entropy", max_depth: int | None = None,
                 min_samples_split: int = 2, pruning: str | None = None,
                 max_features: int | float | str | None = None, random_state: Any = None,
                 min_samples_leaf: int = 1):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.pruning = pruning
        self.max_features = max_features
        self.random_state = random_state
        self.min_samples_leaf = min_samples_leaf

    # --- encoding --------------------------------------------------------
    def _encode(self, X: Any, name: str = "X") -> np.ndarray:
        """Encode new data with the categories learned in ``fit`` (unseen: -1).

        ``name`` is the argument named in error messages (``"X_val"`` in fit).
        """
        X = _as_2d(X, name)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"{name} has {X.shape[1]} features, but DecisionTreeClassifier "
                             f"is expecting {self.n_features_in_} features as input (it was "
                             f"fitted with {self.n_features_in_})")
        if X.dtype.kind in "biuf":
            if any(c is not None for c in self.categories_):
                raise TypeError(f"{name} is numeric, but the tree was fitted with categorical "
                                "columns; pass an object array")
            return check_array(X, name, allow_nan=True)
        X = X.astype(object)
        missing = _is_missing(X)
        Z = np.full(X.shape, np.nan)
        for j, cats in enumerate(self.categories_):
            known = X[~missing[:, j], j]
            if cats is None:
                if not _is_number_obj(known).astype(bool).all():
                    raise TypeError(f"column {j} of {name} must hold numbers "
                                    "(it was continuous in fit)")
                Z[~missing[:, j], j] = known.astype(np.float64)
            else:
                keys = cats.astype(str)
                order = np.argsort(keys)
                pos = np.searchsorted(keys[order], known.astype(str))
                pos = np.minimum(pos, keys.shape[0] - 1)
                found = keys[order][pos] == known.astype(str)
                Z[~missing[:, j], j] = np.where(found, order[pos], -1)
        return Z

    # --- fit -------------------------------------------------------------
    def fit(self, X: Any, y: Any, X_val: Any = None, y_val: Any = None,
            sample_weight: Any = None) -> "DecisionTreeClassifier":
        """Grow the tree (and prune it against ``X_val``, ``y_val`` if asked).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Float array, or object array of strings / numbers / None.
        y : array-like of shape (n_samples,)
        X_val : array-like of shape (n_val, n_features), optional
            Validation set, required when ``pruning`` is "pre" or "post".
        y_val : array-like of shape (n_val,), optional
        sample_weight : array-like of shape (n_samples,), optional
            Initial weights :math:`w_i` (1 by default).

        Returns
        -------
        self
        """
        if self.criterion not in _CRITERIA:
            raise ValueError(f"criterion must be one of {list(_CRITERIA)}; got {self.criterion!r}")
        if self.pruning not in (None, "pre", "post"):
            raise ValueError(f"pruning must be None, 'pre' or 'post'; got {self.pruning!r}")
        X, y, yk = self._check_common(X, y)
        w = check_sample_weight(sample_weight, X.shape[0])
        if sample_weight is not None and not (w > 0).all():
            # A row of weight zero adds nothing to any class count, but it would
            # still offer a candidate threshold (a midpoint between observed
            # values) and a category value: drop it, so that the tree is exactly
            # the one grown without those rows.
            keep = w > 0
            X, y, yk, w = X[keep], y[keep], yk[keep], w[keep]
            if np.unique(yk).shape[0] < 2:
                raise ValueError("sample_weight is zero for every sample but those of one "
                                 "class; a classifier needs two classes with positive weight")
            if X.shape[0] < 2:
                raise ValueError("sample_weight is positive for only one sample; a tree "
                                 "needs at least two")
        Z, self.categories_ = _encode_fit(X)
        self.n_features_in_ = Z.shape[1]
        self.feature_types_ = ["continuous" if c is None else "categorical"
                               for c in self.categories_]
        self._K = self.classes_.shape[0]
        val = None
        if self.pruning is not None:
            if X_val is None or y_val is None:
                raise ValueError(f"pruning={self.pruning!r} needs a validation set: "
                                 "pass X_val and y_val to fit")
            y_val = column_or_1d(y_val, "y_val")
            Zv = self._encode(X_val, "X_val")
            check_consistent_length(Zv, y_val, names=["X_val", "y_val"])
            # a validation label never seen in training can never be predicted
            yv = np.searchsorted(self.classes_, y_val)
            yv = np.where((yv < self._K) & (self.classes_[np.minimum(yv, self._K - 1)] == y_val),
                          yv, -1)
            val = (Zv, yv)
        check_scalar(self.min_samples_leaf, "min_samples_leaf", numbers.Integral, min_val=1)
        self._n_draw = _resolve_max_features(self.max_features, Z.shape[1])
        self._rng = check_random_state(self.random_state)
        if (self._presortable() and all(c is None for c in self.categories_)
                and not np.isnan(Z).any()):
            self.tree_ = self._grow_presorted(_Presorted.of(Z), yk,
                                              None if sample_weight is None else w)
            return self
        self._Z, self._yk, self._val = Z, yk, val
        categorical = np.array([c is not None for c in self.categories_])
        self._n_values = np.array([0 if c is None else len(c) for c in self.categories_])
        vargs = (np.arange(val[0].shape[0]), np.ones(val[0].shape[0])) if val else (None, None)
        try:
            self.tree_ = self._grow(np.arange(Z.shape[0]), w, 0, np.ones(Z.shape[1], dtype=bool),
                                    categorical, None, *vargs)
            if self.pruning == "post":
                self._post_prune(self.tree_, *vargs)
        finally:
            del self._Z, self._yk, self._val
        return self

    def _fit_presorted(self, data: "_Presorted", yk: np.ndarray, classes: np.ndarray,
                       sample_weight: np.ndarray | None) -> "DecisionTreeClassifier":
        """The ensembles' shortcut: ``fit`` on numeric data sorted once for many trees.

        The same tree as ``fit(X[rows], classes[yk[rows]], sample_weight[rows])``
        with ``rows = data.samples`` (all rows if None), provided every class of
        ``classes`` occurs among those rows and every weight there is positive.
        ``yk`` and ``sample_weight`` are indexed by the rows of the full ``X``.
        """
        if not self._presortable():
            raise ValueError("_fit_presorted grows unpruned gini or entropy trees only")
        self._check_sizes()
        check_scalar(self.min_samples_leaf, "min_samples_leaf", numbers.Integral, min_val=1)
        d = data.XT.shape[0]
        self.classes_ = classes
        self.n_features_in_ = d
        self.categories_ = [None] * d
        self.feature_types_ = ["continuous"] * d
        self._K = classes.shape[0]
        self._n_draw = _resolve_max_features(self.max_features, d)
        self._rng = check_random_state(self.random_state)
        self.tree_ = self._grow_presorted(data, yk, sample_weight)
        return self

    def _presortable(self) -> bool:
        """Whether the level-wise grower applies (to numeric data without missing values)."""
        return _LEVELWISE and self.pruning is None and self.criterion in ("gini", "entropy")

    def _grow_presorted(self, data: "_Presorted", yk: np.ndarray, w: np.ndarray | None) -> Node:
        return _grow_levelwise(data, yk, self._K, self.criterion, self.max_depth,
                               self.min_samples_split, w, self._n_draw, self._rng,
                               self.min_samples_leaf)

    # --- split selection -----------------------------------------------
    def _candidate_splits(self, idx, w, available, categorical):
        """Score every available attribute at a node.

        Returns a list of ``(feature, gain, ratio, threshold, branch_weights)``
        where ``gain`` is rho times the impurity decrease and ``ratio`` the
        gain ratio (gain / IV); attributes constant on the node are skipped.
        """
        crit = "gini" if self.criterion == "gini" else "entropy"
        yk, K = self._yk[idx], self._K

        def score(j):
            return self._score_attribute(j, idx, w, yk, K, crit, categorical)

        features = np.flatnonzero(available)
        if self._n_draw >= features.shape[0]:
            return [c for j in features for c in score(j)]     # a loop over attributes
        # max_features: attributes in a random order, until n_draw of them can split
        out = []
        for j in self._rng.permutation(features):
            out += score(j)
            if len(out) == self._n_draw:
                break
        return sorted(out, key=lambda c: c[0])     # ties still go to the first attribute

    def _score_attribute(self, j, idx, w, yk, K, crit, categorical) -> list:
        """``[(feature, gain, ratio, threshold, branch_weights)]``, or ``[]`` if j cannot split."""
        x = self._Z[idx, j]
        known = ~np.isnan(x)
        if not known.any():
            return []
        xk = x[known]
        if xk.min() == xk.max():                  # constant on this node: cannot split
            return []
        if categorical[j]:
            n_values = self._n_values[j]
            table = np.bincount(xk.astype(np.intp) * K + yk[known], weights=w[known],
                                minlength=n_values * K).reshape(n_values, K)
            rho = w[known].sum() / w.sum()
            gain, r = _table_gain(table, rho, crit)
            return [(j, gain, gain / max(_split_entropy(r), 1e-300), None, r)]
        found = _threshold_search(x, yk, w, K, crit, self.min_samples_leaf)
        if found is None:
            return []
        t, gain, r_left, iv = found
        return [(j, gain, gain / max(iv, 1e-300), t, np.array([r_left, 1 - r_left]))]

    def _choose(self, candidates):
        if not candidates:
            return None
        gains = np.array([c[1] for c in candidates])
        if self.criterion == "gain_ratio":
            # C4.5: among attributes with at least average gain, the best gain ratio
            ok = gains >= gains.mean() - _TIE * max(1.0, abs(gains.mean()))
            ratios = np.where(ok, [c[2] for c in candidates], -np.inf)
            return candidates[_first_max(ratios)]
        return candidates[_first_max(gains)]

    # --- generate_tree ---------------------------------------------------
    def _grow(self, idx, w, depth, available, categorical, parent, vidx, vw) -> Node:
        counts = np.bincount(self._yk[idx], weights=w, minlength=self._K)
        node = _make_node(counts, depth, idx.shape[0], parent)
        if (np.count_nonzero(counts) <= 1 or idx.shape[0] < self.min_samples_split
                or (self.max_depth is not None and depth >= self.max_depth)):
            return node
        split = self._choose(self._candidate_splits(idx, w, available, categorical))
        if split is None:          # every attribute is constant here: a leaf
            return node
        j, _, _, t, r = split
        node.feature, node.threshold, node.branch_weights = j, t, r
        n_children = 2 if t is not None else self._n_values[j]
        node.children = [None] * n_children      # placeholders so _route knows the arity
        routes, _ = self._route(node, self._Z, idx, w)
        routes = [(cidx[cw > 0], cw[cw > 0]) for _, cidx, cw in routes]
        if self.pruning == "pre":
            # children as leaves: does the split strictly raise validation accuracy?
            leaves = [_make_node(np.bincount(self._yk[ci], weights=cw, minlength=self._K),
                                 depth + 1, ci.shape[0], node) for ci, cw in routes]
            if not self._split_helps(node, leaves, vidx, vw):
                node.make_leaf()
                return node
        vroutes = (self._route(node, self._val[0], vidx, vw)[0] if vidx is not None
                   else [(None, None, None)] * n_children)
        below = available.copy()
        if categorical[j]:
            below[j] = False                     # a categorical attribute is used once
        node.children = [self._grow(ci, cw, depth + 1, below, categorical, node, vi, vwi)
                         for (ci, cw), (_, vi, vwi) in zip(routes, vroutes)]
        return node

    # --- pruning against the validation set --------------------------------
    def _correct(self, label: int, vidx, vw) -> float:
        """Validation weight classified correctly by a leaf with this label."""
        return float(np.sum(vw * (self._val[1][vidx] == label)))

    def _split_helps(self, node, leaves, vidx, vw) -> bool:
        node.children = leaves
        routes, stay = self._route(node, self._val[0], vidx, vw)
        after = self._correct(node.label, vidx[stay], vw[stay]) + sum(
            self._correct(leaf.label, vi, vwi) for leaf, vi, vwi in routes)
        before = self._correct(node.label, vidx, vw)
        return after > before + _TIE

    def _post_prune(self, node, vidx, vw) -> float:
        """Bottom-up: replace a subtree by a leaf if that strictly raises accuracy.

        Returns the validation weight the (possibly pruned) subtree gets right.
        """
        as_leaf = self._correct(node.label, vidx, vw)
        if node.is_leaf:
            return as_leaf
        routes, stay = self._route(node, self._val[0], vidx, vw)
        kept = self._correct(node.label, vidx[stay], vw[stay]) + sum(
            self._post_prune(child, vi, vwi) for child, vi, vwi in routes)
        if as_leaf > kept + _TIE:
            node.make_leaf()
            return as_leaf
        return kept


# --------------------------------------------------------------------------
# the fast path: numeric data, level by level, every feature sorted once
# --------------------------------------------------------------------------

class _Presorted:
    """Every column of a numeric ``X`` sorted once, to grow many trees on it.

    ``XT`` is ``X.T`` (contiguous), ``P[j]`` the row indices in increasing
    order of feature ``j`` (ties in row order), ``ties[j]`` whether feature
    ``j`` has two equal values at all, and ``samples`` the rows in play
    (ascending; None for all of them). :meth:`rows` restricts to a subset
    without sorting again: the same tree as sorting ``X[rows]`` afresh.
    """

    __slots__ = ("XT", "P", "ties", "samples")

    def __init__(self, XT, P, ties, samples=None):
        self.XT, self.P, self.ties, self.samples = XT, P, ties, samples

    @classmethod
    def of(cls, X: np.ndarray) -> "_Presorted":
        XT = np.ascontiguousarray(X.T, dtype=np.float64)
        P = np.argsort(XT, axis=1, kind="stable")              # (d, n)
        s = np.take_along_axis(XT, P, axis=1)
        return cls(XT, P, (s[:, 1:] == s[:, :-1]).any(axis=1))

    def rows(self, keep: np.ndarray) -> "_Presorted":
        """The rows where the boolean mask ``keep`` is True."""
        sub = keep[self.P]                                      # (d, n), the same count per row
        return _Presorted(self.XT, self.P[sub].reshape(self.P.shape[0], -1), self.ties,
                          np.flatnonzero(keep))


def _grow_levelwise(data: _Presorted, yk: np.ndarray, K: int, criterion: str,
                    max_depth: int | None, min_samples_split: int,
                    w: np.ndarray | None = None, n_draw: int | None = None,
                    rng: np.random.Generator | None = None, min_leaf: int = 1) -> Node:
    """Grow a full tree on numeric data one level at a time.

    ``P[j]`` lists the active samples sorted by (node, x_j): the nodes of the
    current level occupy the same segments ``[start, start + size)`` in every
    row. One cumulative sum of (weighted) class counts along the rows scores
    every threshold of every feature of every node at once; splitting a node
    is a stable partition of its segment, so the features are never sorted
    again. With ``n_draw < d`` each node scores only ``n_draw`` features drawn
    at random among those not constant on it, so the work shrinks with them.
    Samples of a node that will not split again leave ``P`` with it.
    ``data`` holds the presorted features (:class:`_Presorted`); ``yk`` and
    ``w`` are indexed by the rows of ``X``.
    """
    XT, P, ties = data.XT, data.P, data.ties
    d, N = XT.shape
    n = P.shape[1]
    n_draw = d if n_draw is None else n_draw
    XTf = XT.ravel()
    row_off = np.arange(d) * N                              # where each feature's row starts
    rows0 = slice(None) if data.samples is None else data.samples
    root_counts = np.bincount(yk[rows0], weights=None if w is None else w[rows0],
                              minlength=K).astype(np.float64)
    root = _make_node(root_counts, 0, n, None)

    def growing(counts, sizes, depth):
        if max_depth is not None and depth >= max_depth:
            return np.zeros(sizes.shape[0], dtype=bool)
        return (np.count_nonzero(counts, axis=1) > 1) & (sizes >= min_samples_split)

    if not growing(root_counts[None, :], np.array([n]), 0)[0]:
        return root
    nodes, counts, sizes, depth = [root], root_counts[None, :], np.array([n]), 0
    while True:
        # the nodes of this level all may split; P holds just their samples
        q, m = len(nodes), P.shape[1]
        Pf = P.ravel()
        starts = np.zeros(q, dtype=np.intp)
        np.cumsum(sizes[:-1], out=starts[1:])
        # 1. which (feature, node) pairs are scored: every pair, or for each node
        #    the first n_draw features, in a random order, that are not constant on it
        if n_draw < d:
            lo = XTf[row_off[:, None] + P[:, starts]]
            hi = XTf[row_off[:, None] + P[:, starts + sizes - 1]]
            movable = lo < hi                                   # (d, q) not constant
            keys = np.where(movable, rng.random((d, q)), np.inf)
            rank = np.argsort(np.argsort(keys, axis=0), axis=0)
            pj, ps = np.nonzero(movable & (rank < n_draw))
        else:
            pj, ps = np.repeat(np.arange(d), q), np.tile(np.arange(q), d)
        # each pair is a run of cells of the (d, m) grid; the runs in flat order
        plen = sizes[ps]
        pstart = np.zeros(pj.shape[0], dtype=np.intp)       # first cell of each run
        np.cumsum(plen[:-1], out=pstart[1:])
        c = int(pstart[-1] + plen[-1]) if pj.shape[0] else 0
        if c == 0:
            break
        if c == d * m:                                       # every pair: the whole grid
            flat, smp = np.arange(c), Pf
        else:
            flat = np.repeat(pj * m + starts[ps] - pstart, plen) + np.arange(c)
            smp = Pf[flat]                                   # the sample at each cell
        node = np.repeat(ps, plen)                           # the node of each cell
        n_left = np.arange(c) - np.repeat(pstart, plen) + 1  # samples left of the threshold
        # 2. class counts left of every cell from one cumulative sum per class
        Y = yk[smp]
        W = None if w is None else w[smp]
        L = np.empty((K, c))
        for k in range(K):                                   # a loop over classes
            np.cumsum(Y == k if W is None else (Y == k) * W, out=L[k])
        before = np.zeros((K, pj.shape[0]))
        before[:, 1:] = L[:, pstart[1:] - 1]
        L -= np.repeat(before, plen, axis=1)                  # counts within each run
        R = np.repeat(counts.T[:, ps], plen, axis=1) - L     # right counts
        if W is None:
            nL = n_left.astype(np.float64)
            nR = sizes[node] - nL
        else:
            nL = L.sum(axis=0)                                # left weight
            nR = counts.sum(axis=1)[node] - nL
        # score = minus the weighted child impurity times n (larger is better)
        if criterion == "gini":
            sl, sr = L[0] * L[0], R[0] * R[0]
            for k in range(1, K):
                sl += L[k] * L[k]
                sr += R[k] * R[k]
            # A left (or right) side whose weight is zero, or rounds to zero or below
            # because the cumulative sums run across nodes and features, adds nothing:
            # its squared counts are smaller still (0 / 0 would be NaN and would
            # silently keep the node from splitting).
            score = sl / np.where(nL > 0, nL, 1.0) + sr / np.where(nR > 0, nR, 1.0)
        else:
            def xlogx(v):                                   # v log2 v, with 0 log 0 = 0
                return v * np.log2(np.where(v > 0, v, 1.0))
            score = xlogx(L).sum(axis=0) + xlogx(R).sum(axis=0) - xlogx(nL) - xlogx(nR)
        valid = n_left < sizes[node]                         # no split after a node's last sample
        if ties.any():                                       # no split between equal values
            check = np.flatnonzero(valid & np.repeat(ties[pj], plen))
            if check.shape[0]:
                off = np.repeat(row_off[pj], plen)[check]
                valid[check] = XTf[off + Pf[flat[check] + 1]] > XTf[off + smp[check]]
        if min_leaf > 1:
            valid &= (n_left >= min_leaf) & (sizes[node] - n_left >= min_leaf)
        score[~valid] = -np.inf
        # 3. the best cell of each node; ties: first feature, then first position
        best = np.full(q, -np.inf)
        np.maximum.at(best, ps, np.maximum.reduceat(score, pstart))
        cand = np.flatnonzero(score >= (best - _TIE * np.maximum(1.0, np.abs(best)))[node])
        first = np.full(q, d * m)
        np.minimum.at(first, node[cand], flat[cand])         # flat order = (feature, position)
        split = np.flatnonzero(np.isfinite(best))
        if split.shape[0] == 0:
            break
        S = split.shape[0]
        f, p = np.divmod(first[split], m)
        thr = _midpoint(XTf[f * N + Pf[first[split]]], XTf[f * N + Pf[first[split] + 1]])
        # 4. the children: class counts summed afresh from their samples (the
        #    differences of cumulative sums would leave rounding dust, -1e-15, in
        #    a class that is absent, and a pure child would look impure)
        seg = np.repeat(np.arange(q), sizes)                 # node of each position
        s_of = np.full(q, -1)
        s_of[split] = np.arange(S)
        i_pos = s_of[seg]
        at_split = i_pos >= 0
        smp0 = P[0][at_split]
        i_smp = i_pos[at_split]
        goes_left = XTf[f[i_smp] * N + smp0] <= thr[i_smp]
        cell = i_smp * K + yk[smp0]
        w_smp = 1.0 if w is None else w[smp0]
        left_counts = np.bincount(cell, weights=w_smp * goes_left, minlength=S * K).reshape(-1, K)
        right_counts = np.bincount(cell, weights=w_smp * ~goes_left,
                                   minlength=S * K).reshape(-1, K)
        n_left = p - starts[split] + 1
        child_counts = np.stack([left_counts, right_counts], axis=1).reshape(-1, K)  # (2S, K)
        child_total = child_counts.sum(axis=1)
        child_proba = child_counts / child_total[:, None]
        # the children's labels (the rule of _majority: ties go to the parent's class)
        top = child_counts.max(axis=1)
        tied = child_counts >= (top - _TIE * np.maximum(1.0, top))[:, None]
        parent_label = np.repeat([nodes[i].label for i in split.tolist()], 2)
        child_label = np.where(tied[np.arange(2 * S), parent_label], parent_label,
                               np.argmax(tied, axis=1))
        child_n = np.column_stack([n_left, sizes[split] - n_left]).ravel()
        r_left = (n_left / sizes[split] if w is None
                  else left_counts.sum(axis=1) / child_total.reshape(-1, 2).sum(axis=1))
        children = [Node(v, pr, lb, depth + 1, k) for v, pr, lb, k in zip(
            list(child_counts), list(child_proba), child_label.tolist(), child_n.tolist())]
        for i, (qi, fi, ti, bw) in enumerate(zip(split.tolist(), f.tolist(), thr.tolist(),
                                                 list(np.column_stack([r_left, 1.0 - r_left])))):
            nd = nodes[qi]                                     # a loop over nodes
            nd.feature, nd.threshold, nd.branch_weights = fi, ti, bw
            nd.children = children[2 * i: 2 * i + 2]
        # 5. which children split next; the samples of the others leave P
        depth += 1
        grow = growing(child_counts, child_n, depth)
        if not grow.any():
            break
        # 6. stable partition of every segment into its two children (a node that
        #    did not split sends all its samples "left", to a child that is dropped):
        #    kept children in order in the first m_new columns, the rest after them
        slot_size = np.zeros(2 * q, dtype=np.intp)
        slot_size[0::2] = sizes
        slot_size[2 * split] = n_left
        slot_size[2 * split + 1] = sizes[split] - n_left
        slot_keep = np.zeros(2 * q, dtype=bool)
        slot_keep[np.repeat(2 * split, 2) + np.tile([0, 1], S)] = grow
        kept = np.where(slot_keep, slot_size, 0)
        m_new = int(kept.sum())
        new_start = np.cumsum(kept) - kept
        trash = slot_size - kept
        trash_start = np.cumsum(trash) - trash
        j = np.arange(d)[:, None]
        off = np.where(slot_keep, j * m_new + new_start, d * m_new + j * (m - m_new) + trash_start)
        go_left = np.ones(N, dtype=bool)
        go_left[smp0] = goes_left
        Lmask = go_left[P]                                   # (d, m)
        E = np.cumsum(Lmask, axis=1)
        E -= Lmask                                            # lefts before each position
        B = E[:, starts]                                      # (d, q) lefts before each segment
        off_left = np.repeat(off[:, 0::2] - B, sizes, axis=1)
        off_right = np.repeat(off[:, 1::2] + B - starts, sizes, axis=1)
        newflat = np.where(Lmask, off_left + E, off_right + (np.arange(m) - E))
        buf = np.empty(d * m, dtype=P.dtype)
        buf[newflat.ravel()] = Pf
        P = buf[:d * m_new].reshape(d, m_new)
        nodes = [ch for ch, g in zip(children, grow.tolist()) if g]
        counts, sizes = child_counts[grow], child_n[grow]
    return root


# --------------------------------------------------------------------------
# multivariate (oblique) trees, section 4.5
# --------------------------------------------------------------------------

def _logistic_direction(Z: np.ndarray, t: np.ndarray, alpha: float, n_iter: int = 25):
    """Weights of an L2-regularised logistic regression fitted by Newton's method.

    ``Z`` (m, d) is standardised, ``t`` (m,) is 0/1. Returns ``v`` of shape (d,)
    (the intercept is dropped: the threshold is searched afterwards).
    """
    m, d = Z.shape
    A = np.column_stack([Z, np.ones(m)])                   # (m, d+1)
    beta = np.zeros(d + 1)
    reg = np.full(d + 1, alpha)
    reg[-1] = 0.0                                          # no penalty on the intercept
    for _ in range(n_iter):
        s = A @ beta                                       # (m,)
        p = np.exp(-np.logaddexp(0.0, -s))                 # stable sigmoid
        g = A.T @ (p - t) + reg * beta                     # (d+1,)
        H = (A * (p * (1 - p))[:, None]).T @ A + np.diag(reg) + 1e-10 * np.eye(d + 1)
        step = np.linalg.solve(H, g)
        beta -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return beta[:-1]


class ObliqueDecisionTreeClassifier(_TreeBase):
    """A multivariate (oblique) decision tree (多变量决策树), section 4.5.

    Each internal node tests a linear combination of the attributes,
    :math:`\\boldsymbol w^\\top \\boldsymbol x \\le t`. The direction
    :math:`\\boldsymbol w` is that of an L2-regularised logistic regression
    separating the node's majority class from the rest (fitted by Newton's
    method on standardised attributes); the threshold :math:`t` is then the
    best one along :math:`\\boldsymbol w^\\top \\boldsymbol x` by
    :func:`best_threshold`. The boundaries are slanted line segments instead
    of axis-parallel ones.

    Parameters
    ----------
    criterion : {"entropy", "gini"}
        Used to place the threshold along the direction.
    max_depth : int or None
    min_samples_split : int
    alpha : float
        L2 penalty of the logistic regression at each node (keeps the
        direction finite when the node is linearly separable).

    Attributes
    ----------
    tree_ : Node
        Internal nodes carry ``coef`` (unit L2 norm, in the original units) and
        ``threshold``.
    classes_, n_features_in_

    Notes
    -----
    Numeric input without missing values only. A node stops (becomes a leaf)
    when it is pure, too small or too deep, or when no threshold along the
    logistic direction lowers its impurity. See the chapter "Decision trees".

    Examples
    --------
    >>> from mlbook.datasets import load_watermelon
    >>> X, y = load_watermelon("3.0alpha", return_X_y=True)
    >>> ob = ObliqueDecisionTreeClassifier().fit(X, y)
    >>> float(ob.score(X, y))
    1.0
    """

    def __init__(self, criterion: str = "entropy", max_depth: int | None = None,
                 min_samples_split: int = 2, alpha: float = 1.0):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.alpha = alpha

    def _encode(self, X: Any) -> np.ndarray:
        X = check_array(X, "X")
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but ObliqueDecisionTreeClassifier "
                             f"is expecting {self.n_features_in_} features as input (it was "
                             f"fitted with {self.n_features_in_})")
        return X

    def fit(self, X: Any, y: Any) -> "ObliqueDecisionTreeClassifier":
        """Grow the oblique tree on numeric ``X`` (n_samples, n_features); returns self."""
        if self.criterion not in ("entropy", "gini"):
            raise ValueError(f"criterion must be 'entropy' or 'gini'; got {self.criterion!r}")
        check_scalar(self.alpha, "alpha", numbers.Real, min_val=0.0, include_min=False)
        if not np.isfinite(self.alpha):
            raise ValueError(f"alpha must be finite (an infinite penalty leaves no direction "
                             f"to split along); got {self.alpha}")
        X, y, yk = self._check_common(X, y)
        X = check_array(X, "X")
        self.n_features_in_ = X.shape[1]
        self._K = self.classes_.shape[0]
        self.categories_ = [None] * X.shape[1]
        self.tree_ = self._grow(X, yk, 0, None)
        return self

    def _grow(self, X, yk, depth, parent) -> Node:
        counts = np.bincount(yk, minlength=self._K).astype(np.float64)
        node = _make_node(counts, depth, X.shape[0], parent)
        if (np.count_nonzero(counts) <= 1 or X.shape[0] < self.min_samples_split
                or (self.max_depth is not None and depth >= self.max_depth)):
            return node
        mu, sd = X.mean(axis=0), X.std(axis=0)
        sd = np.where(sd > 0, sd, 1.0)
        v = _logistic_direction((X - mu) / sd, (yk == node.label).astype(np.float64), self.alpha)
        coef = v / sd                                          # back to the original units
        norm = np.linalg.norm(coef)
        if not norm > 0:
            return node
        coef = coef / norm
        z = X @ coef
        found = _threshold_search(z, yk, np.ones(z.shape[0]), self._K, self.criterion)
        if found is None or found[1] <= 0:                     # no useful oblique split
            return node
        t, _, r_left, _ = found
        left = z <= t
        node.coef, node.threshold = coef, t
        node.branch_weights = np.array([r_left, 1.0 - r_left])
        node.children = [self._grow(X[left], yk[left], depth + 1, node),
                         self._grow(X[~left], yk[~left], depth + 1, node)]
        return node


# --------------------------------------------------------------------------
# reading a fitted tree
# --------------------------------------------------------------------------

def _fmt(v: float) -> str:
    return f"{v:.4f}".rstrip("0").rstrip(".") if abs(v) < 1e4 else f"{v:.4g}"


def node_test(estimator, node: Node, feature_names: Sequence[str] | None = None) -> str:
    """The question a node asks, e.g. ``"texture = ?"`` or ``"density <= 0.381?"``."""
    names = list(feature_names) if feature_names is not None else \
        [f"x{j}" for j in range(estimator.n_features_in_)]
    if len(names) != estimator.n_features_in_:
        raise ValueError(f"feature_names has {len(names)} name(s), but the tree was fitted "
                         f"with {estimator.n_features_in_} features")
    if node.coef is not None:
        terms = "".join(f" {'-' if c < 0 else '+'} {abs(c):.3f} {names[j]}"
                        for j, c in enumerate(node.coef) if c != 0)
        first = ("-" + terms[3:]) if terms.startswith(" - ") else terms[3:]   # drop a leading "+"
        return f"{first} <= {node.threshold:.3f}?"
    if node.threshold is not None:
        return f"{names[node.feature]} <= {_fmt(node.threshold)}?"
    return f"{names[node.feature]} = ?"


def branch_labels(estimator, node: Node) -> list[str]:
    """The label of each branch of an internal node (a category, or yes/no)."""
    if node.threshold is not None:
        return ["yes", "no"]
    return [str(c) for c in estimator.categories_[node.feature]]


def export_text(estimator, feature_names: Sequence[str] | None = None,
                class_names: Sequence[str] | None = None, show_counts: bool = False) -> str:
    """The fitted tree as indented text, one line per branch.

    Parameters
    ----------
    estimator : fitted DecisionTreeClassifier or ObliqueDecisionTreeClassifier
    feature_names : sequence of str, optional
        Names of the columns (``x0, x1, ...`` by default).
    class_names : sequence of str, optional
        Names of the classes, indexed like ``classes_``.
    show_counts : bool
        Append the (weighted) class counts of the training samples at each leaf.

    Returns
    -------
    str

    Examples
    --------
    >>> from mlbook.datasets import load_watermelon
    >>> wm = load_watermelon("3.0")
    >>> tree = DecisionTreeClassifier().fit(wm.data, wm.target)
    >>> print(export_text(tree, wm.feature_names, wm.target_names))
    texture = clear
    |   density <= 0.3815: no
    |   density > 0.3815: yes
    texture = slightly blurry
    |   touch = hard smooth: no
    |   touch = soft sticky: yes
    texture = blurry: no
    """
    check_is_fitted(estimator, "tree_")
    names = list(feature_names) if feature_names is not None else \
        [f"x{j}" for j in range(estimator.n_features_in_)]
    if len(names) != estimator.n_features_in_:
        raise ValueError(f"feature_names has {len(names)} name(s), but the tree was fitted "
                         f"with {estimator.n_features_in_} features")
    classes = list(class_names) if class_names is not None else \
        [str(c) for c in estimator.classes_]
    if len(classes) != len(estimator.classes_):
        raise ValueError(f"class_names has {len(classes)} name(s), but the tree has "
                         f"{len(estimator.classes_)} classes")
    lines: list[str] = []

    def leaf_text(node: Node) -> str:
        text = str(classes[node.label])
        if node.empty:
            text += " (empty branch)"
        if show_counts:
            text += " [" + ", ".join(_fmt(c) for c in node.value) + "]"
        return text

    def tests(node: Node) -> list[str]:
        if node.coef is not None or node.threshold is not None:
            q = node_test(estimator, node, names)[:-1]        # drop the "?"
            return [q, q.replace("<=", ">")]
        return [f"{names[node.feature]} = {c}" for c in branch_labels(estimator, node)]

    def walk(node: Node, indent: str) -> None:
        for text, child in zip(tests(node), node.children):
            if child.is_leaf:
                lines.append(f"{indent}{text}: {leaf_text(child)}")
            else:
                lines.append(f"{indent}{text}")
                walk(child, indent + "|   ")

    if estimator.tree_.is_leaf:
        return leaf_text(estimator.tree_)
    walk(estimator.tree_, "")
    return "\n".join(lines)
