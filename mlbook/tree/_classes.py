"""The tree estimators: :class:`DecisionTreeClassifier`, :class:`DecisionTreeRegressor`
and :class:`ObliqueDecisionTreeClassifier`.

``DecisionTreeClassifier`` is Zhou's ``generate_tree`` (chapter 4 of the
watermelon book) with the three criteria, pre- and post-pruning on a validation
set, continuous attributes and missing values (section 4.4.2: the weights rho
and r_v). Its recursive grower, :meth:`DecisionTreeClassifier._grow`, takes the
training data as an argument (a :class:`_Growing`); on numeric data without
missing values and without pruning, ``fit`` hands the work to the level-wise
grower (:class:`~mlbook.tree._levelwise.LevelwiseGrower`), which grows the same
tree faster. ``DecisionTreeRegressor`` is CART's regression tree (squared
error), grown by the same level-wise grower. ``ObliqueDecisionTreeClassifier``
is a multivariate tree (section 4.5) whose nodes test a linear combination of
the attributes.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    check_array,
    check_classification_targets,
    check_consistent_length,
    check_is_fitted,
    check_n_features,
    check_predict_X,
    check_random_state,
    check_sample_weight,
    check_scalar,
    column_or_1d,
    encode_labels,
    reals_in_objects,
)
from ..base import BaseEstimator, ClassifierMixin, RegressorMixin
from ._criteria import (_CRITERIA, _TIE, _first_max, _is_missing,
                        _split_entropy, _table_gain, _threshold_search)
from ._export import tree_feature_importances
from ._levelwise import LevelwiseGrower
from ._node import Node, _apply_flat, _flatten, _make_node, _predict_flat

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor", "ObliqueDecisionTreeClassifier"]


@dataclass(frozen=True)
class _Growing:
    """The data the recursive grower reads, passed down as an argument.

    ``Z`` is the encoded training data (categories as codes, NaN missing), ``yk``
    the class codes; ``categorical[j]`` and ``n_values[j]`` describe column
    ``j``; ``n_draw`` attributes are drawn per node with ``rng``; ``Z_val`` and
    ``y_val`` (codes, -1 for a class unseen in training) are the validation set
    of pruning (None without it).
    """

    Z: np.ndarray
    yk: np.ndarray
    n_classes: int
    categorical: np.ndarray
    n_values: np.ndarray
    n_draw: int
    rng: Any
    Z_val: np.ndarray | None = None
    y_val: np.ndarray | None = None


class _Inspect:
    """The walk over a fitted tree's nodes, and the depth and leaf count read from it."""

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


class _TreeBase(_Inspect, ClassifierMixin, BaseEstimator):
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
        classes = check_classification_targets(y)
        return X, y, classes, encode_labels(y, classes)[1]

    def _set_fitted(self, classes: np.ndarray, categories: list, root: Node) -> "_TreeBase":
        """Set every learned attribute, from the classes, the categories of each feature
        (None for a continuous one) and the root a grower returned; return ``self``."""
        self.classes_ = classes
        self.n_features_in_ = len(categories)
        self.categories_ = categories
        self.feature_types_ = ["continuous" if c is None else "categorical" for c in categories]
        self.tree_ = root
        return self


def _as_2d(X: Any, name: str) -> np.ndarray:
    """``X`` as a 2-d array for a tree: dense, never complex, object columns kept, NaN or
    ``None`` for missing values (the sizes are checked where they matter)."""
    return check_array(X, name, dtype=None, allow_nan=True, min_samples=0, min_features=0)


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
        if reals_in_objects(known).all():
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


def _encode_with(X: np.ndarray, categories: list, name: str) -> np.ndarray:
    """Encode ``X`` (checked by ``_as_2d``) with the categories learned in ``fit``
    (unseen: -1, missing: NaN)."""
    if X.dtype.kind in "biuf":
        if any(c is not None for c in categories):
            raise TypeError(f"{name} is numeric, but the tree was fitted with categorical "
                            "columns; pass an object array")
        return X.astype(np.float64, copy=False)        # _as_2d has refused infinity
    X = X.astype(object)
    missing = _is_missing(X)
    Z = np.full(X.shape, np.nan)
    for j, cats in enumerate(categories):
        known = X[~missing[:, j], j]
        if cats is None:
            if not reals_in_objects(known).all():
                raise TypeError(f"column {j} of {name} must hold numbers "
                                "(it was continuous in fit)")
            Z[~missing[:, j], j] = known.astype(np.float64)
        else:
            # codes index the categories in their order of first appearance
            Z[~missing[:, j], j] = encode_labels(known.astype(str), cats.astype(str))[1]
    return Z


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
            raise ValueError(f"max_features must lie in [1, n_features={n_features}] as an int; "
                             f"got {max_features}")
        return int(max_features)
    if isinstance(max_features, numbers.Real):
        if not 0.0 < max_features <= 1.0:
            raise ValueError(f"max_features must lie in (0, 1] as a float; got {max_features}")
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
        check_n_features(self, X, name)
        return _encode_with(X, self.categories_, name)

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
        X, y, classes, yk = self._check_common(X, y)
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
        Z, categories = _encode_fit(X)
        Z_val = y_val_codes = None
        if self.pruning is not None:
            if X_val is None or y_val is None:
                raise ValueError(f"pruning={self.pruning!r} needs a validation set: "
                                 "pass X_val and y_val to fit")
            y_val = column_or_1d(y_val, "y_val")
            X_val = _as_2d(X_val, "X_val")
            check_n_features(self, X_val, "X_val", expected=Z.shape[1])
            Z_val = _encode_with(X_val, categories, "X_val")
            check_consistent_length(Z_val, y_val, names=["X_val", "y_val"])
            # a validation label never seen in training (code -1) can never be predicted
            y_val_codes = encode_labels(y_val, classes)[1]
        if (LevelwiseGrower.applies(self) and all(c is None for c in categories)
                and not np.isnan(Z).any()):
            # numeric, nothing missing, no pruning: the same tree, grown level by level
            root = LevelwiseGrower(Z, yk, classes).grow(self, None if sample_weight is None
                                                        else w)
        else:
            settings = self._growth_settings(Z.shape[1])
            data = _Growing(Z=Z, yk=yk, n_classes=classes.shape[0],
                            categorical=np.array([c is not None for c in categories]),
                            n_values=np.array([0 if c is None else len(c) for c in categories]),
                            n_draw=settings["n_draw"], rng=settings["rng"],
                            Z_val=Z_val, y_val=y_val_codes)
            root = self._grow_recursive(data, w)
        return self._set_fitted(classes, categories, root)

    def _grow_recursive(self, data: _Growing, w: np.ndarray) -> Node:
        """The recursive grower (categorical data, missing values, pruning): the root of
        the tree grown on every row of ``data.Z`` with weights ``w``, post-pruned if asked."""
        n, d = data.Z.shape
        if data.Z_val is None:
            val_idx = val_w = None
        else:
            val_idx, val_w = np.arange(data.Z_val.shape[0]), np.ones(data.Z_val.shape[0])
        root = self._grow(data, np.arange(n), w, 0, np.ones(d, dtype=bool), None, val_idx, val_w)
        if self.pruning == "post":
            self._post_prune(data, root, val_idx, val_w)
        return root

    def _growth_settings(self, n_features: int) -> dict:
        """The checked growth parameters both growers take (``max_features`` resolved
        to the number of attributes drawn at a node, ``random_state`` to a Generator)."""
        self._check_sizes()
        check_scalar(self.min_samples_leaf, "min_samples_leaf", numbers.Integral, min_val=1)
        return {"max_depth": self.max_depth, "min_samples_split": self.min_samples_split,
                "min_samples_leaf": self.min_samples_leaf,
                "n_draw": _resolve_max_features(self.max_features, n_features),
                "rng": check_random_state(self.random_state)}

    # --- split selection -----------------------------------------------
    def _candidate_splits(self, data, idx, w, available):
        """Score every available attribute at a node.

        Returns a list of ``(feature, gain, ratio, threshold, branch_weights)``
        where ``gain`` is rho times the impurity decrease and ``ratio`` the
        gain ratio (gain / IV); attributes constant on the node are skipped.
        """
        crit = "gini" if self.criterion == "gini" else "entropy"
        yk = data.yk[idx]

        def score(j):
            return self._score_attribute(data, j, idx, w, yk, crit)

        features = np.flatnonzero(available)
        if data.n_draw >= features.shape[0]:
            return [c for j in features for c in score(j)]     # a loop over attributes
        # max_features: attributes in a random order, until n_draw of them can split
        out = []
        for j in data.rng.permutation(features):
            out += score(j)
            if len(out) == data.n_draw:
                break
        return sorted(out, key=lambda c: c[0])     # ties still go to the first attribute

    def _score_attribute(self, data, j, idx, w, yk, crit) -> list:
        """``[(feature, gain, ratio, threshold, branch_weights)]``, or ``[]`` if j cannot split."""
        x = data.Z[idx, j]
        known = ~np.isnan(x)
        if not known.any():
            return []
        xk = x[known]
        if xk.min() == xk.max():                  # constant on this node: cannot split
            return []
        K = data.n_classes
        if data.categorical[j]:
            n_values = data.n_values[j]
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
    def _grow(self, data, idx, w, depth, available, parent, vidx, vw) -> Node:
        K = data.n_classes
        counts = np.bincount(data.yk[idx], weights=w, minlength=K)
        node = _make_node(counts, depth, idx.shape[0], parent)
        if (np.count_nonzero(counts) <= 1 or idx.shape[0] < self.min_samples_split
                or (self.max_depth is not None and depth >= self.max_depth)):
            return node
        split = self._choose(self._candidate_splits(data, idx, w, available))
        if split is None:          # every attribute is constant here: a leaf
            return node
        j, _, _, t, r = split
        node.feature, node.threshold, node.branch_weights = j, t, r
        n_children = 2 if t is not None else data.n_values[j]
        node.children = [None] * n_children      # placeholders so _route knows the arity
        routes, _ = self._route(node, data.Z, idx, w)
        routes = [(cidx[cw > 0], cw[cw > 0]) for _, cidx, cw in routes]
        if self.pruning == "pre":
            # children as leaves: does the split strictly raise validation accuracy?
            leaves = [_make_node(np.bincount(data.yk[ci], weights=cw, minlength=K),
                                 depth + 1, ci.shape[0], node) for ci, cw in routes]
            if not self._split_helps(data, node, leaves, vidx, vw):
                node.make_leaf()
                return node
        vroutes = (self._route(node, data.Z_val, vidx, vw)[0] if vidx is not None
                   else [(None, None, None)] * n_children)
        below = available.copy()
        if data.categorical[j]:
            below[j] = False                     # a categorical attribute is used once
        node.children = [self._grow(data, ci, cw, depth + 1, below, node, vi, vwi)
                         for (ci, cw), (_, vi, vwi) in zip(routes, vroutes)]
        return node

    # --- pruning against the validation set --------------------------------
    @staticmethod
    def _correct(data, label: int, vidx, vw) -> float:
        """Validation weight classified correctly by a leaf with this label."""
        return float(np.sum(vw * (data.y_val[vidx] == label)))

    def _split_helps(self, data, node, leaves, vidx, vw) -> bool:
        node.children = leaves
        routes, stay = self._route(node, data.Z_val, vidx, vw)
        after = self._correct(data, node.label, vidx[stay], vw[stay]) + sum(
            self._correct(data, leaf.label, vi, vwi) for leaf, vi, vwi in routes)
        before = self._correct(data, node.label, vidx, vw)
        return after > before + _TIE

    def _post_prune(self, data, node, vidx, vw) -> float:
        """Bottom-up: replace a subtree by a leaf if that strictly raises accuracy.

        Returns the validation weight the (possibly pruned) subtree gets right.
        """
        as_leaf = self._correct(data, node.label, vidx, vw)
        if node.is_leaf:
            return as_leaf
        routes, stay = self._route(node, data.Z_val, vidx, vw)
        kept = self._correct(data, node.label, vidx[stay], vw[stay]) + sum(
            self._post_prune(data, child, vi, vwi) for child, vi, vwi in routes)
        if as_leaf > kept + _TIE:
            node.make_leaf()
            return as_leaf
        return kept

# --------------------------------------------------------------------------
# the regression tree (CART, squared error)
# --------------------------------------------------------------------------

class DecisionTreeRegressor(_Inspect, RegressorMixin, BaseEstimator):
    r"""A regression tree (回归树): CART with the squared error.

    Every node tests one attribute, :math:`x_j \le t`, chosen to minimise the
    weighted sum of squared errors of the two children about their means,
    :math:`\sum_{i \in L} w_i (y_i - \bar y_L)^2 + \sum_{i \in R} w_i (y_i - \bar y_R)^2`;
    a leaf predicts the weighted mean of its training targets.

    Parameters
    ----------
    max_depth : int >= 1 or None, default=None
        Grow no deeper than this (None: until every leaf is pure, holds one
        sample, or cannot be split).
    min_samples_leaf : int >= 1, default=1
        A threshold is a candidate only if it leaves at least this many
        training samples (of positive weight) on each side.
    max_features : int, float, "sqrt", "log2" or None, default=None
        How many attributes to score at each node, drawn anew at every node
        among those not constant on it (as for ``DecisionTreeClassifier``);
        None, all of them.
    random_state : None, int or numpy Generator, default=None
        Seeds the draw of ``max_features`` (unused when it is None).

    Attributes
    ----------
    tree_ : Node
        The root of the fitted tree. A node's ``value`` (and ``proba``) is the
        one-element array of its prediction; ``impurity`` its weighted
        variance, ``weight`` its total training weight.
    n_features_in_ : int
    max_features_ : int
        The number of attributes scored at each node.

    Notes
    -----
    The score of a threshold is :math:`S_L^2/W_L + S_R^2/W_R`, where
    :math:`S` and :math:`W` are the weighted sums of the targets and of the
    weights on each side: the sum of squared errors of the children is
    :math:`\sum_i w_i y_i^2` minus it. It has the shape of the Gini score with a
    single "class" holding :math:`w y`, so the level-wise grower that fits
    ``DecisionTreeClassifier`` grows this tree too: every column sorted once,
    all the thresholds of a level scored in one array operation.

    A threshold lies midway between two consecutive distinct values (the lower
    one if the midpoint rounds up to the higher); a node whose targets are all
    equal is a leaf; ties between thresholds go to the first attribute, then
    the lowest threshold. Samples of zero weight are dropped before growing, as
    scikit-learn's splitter does. On data without ties this is scikit-learn's
    ``DecisionTreeRegressor`` with ``criterion="squared_error"``: the same
    splits, depth, leaves and predictions (scikit-learn compares the values as
    float32, so its thresholds differ in the last digits).

    Where it departs from scikit-learn: neither the units nor an offset of the
    targets change the tree (the tree of :math:`a(y + b)` has the partition of
    the tree of :math:`y`, up to the rounding of :math:`a(y + b)` itself). The
    variances are computed in two passes, about each node's mean
    (scikit-learn's :math:`E[y^2] - E[y]^2` cancels when the mean is large
    against the spread: pure nodes look impure and split, impure ones get a
    negative variance and stop), and a node is pure when its targets are all
    equal (scikit-learn's rule, weighted variance at most the machine epsilon,
    makes a tree of targets of scale :math:`10^{-8}` a single leaf). Targets
    whose variance overflows float64 (a spread :math:`|y - \bar y|` beyond
    about :math:`10^{154}`) are refused.

    See the chapter "Gradient boosting".

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(8.0).reshape(-1, 1)
    >>> reg = DecisionTreeRegressor(max_depth=1).fit(X, [0, 0, 0, 0, 1, 1, 1, 1.0])
    >>> reg.predict([[2.0], [6.0]])
    array([0., 1.])
    >>> float(reg.tree_.threshold)
    3.5
    """

    def __init__(self, max_depth: int | None = None, min_samples_leaf: int = 1,
                 max_features: int | float | str | None = None, random_state: Any = None):
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.random_state = random_state

    def _growth_settings(self, n_features: int) -> dict:
        """The checked growth parameters the level-wise grower takes."""
        if self.max_depth is not None:
            check_scalar(self.max_depth, "max_depth", numbers.Integral, min_val=1)
        check_scalar(self.min_samples_leaf, "min_samples_leaf", numbers.Integral, min_val=1)
        return {"max_depth": self.max_depth, "min_samples_split": 2,
                "min_samples_leaf": self.min_samples_leaf,
                "n_draw": _resolve_max_features(self.max_features, n_features),
                "rng": check_random_state(self.random_state)}

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "DecisionTreeRegressor":
        """Grow the tree on numeric ``X`` (n_samples, n_features) and targets ``y``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite numbers (no missing value).
        y : array-like of shape (n_samples,)
            Finite real targets.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights :math:`w_i` (1 by default); samples of weight
            zero are left out.

        Returns
        -------
        self
        """
        X = check_array(X, "X")
        y = _regression_target(y, X.shape[0])
        self._growth_settings(X.shape[1])              # bad parameters fail before the work
        w = None
        if sample_weight is not None:
            w = check_sample_weight(sample_weight, X.shape[0])
            if not (w > 0).all():
                keep = w > 0
                X, y, w = X[keep], y[keep], w[keep]
        grower = LevelwiseGrower(X)
        return grower.fit(self, sample_weight=w, y=y)

    def _set_fitted(self, n_features: int, root: Node) -> "DecisionTreeRegressor":
        """Set every learned attribute from the root a grower returned; return ``self``."""
        self.n_features_in_ = n_features
        self.max_features_ = _resolve_max_features(self.max_features, n_features)
        self.tree_ = root
        return self

    def _flat(self):
        return _flatten(self.tree_)

    def predict(self, X: Any) -> np.ndarray:
        """Predicted targets, shape (n_samples,): the mean of the leaf reached."""
        X = check_predict_X(self, X, "tree_")
        return _predict_flat(self._flat(), X)[:, 0]

    def apply(self, X: Any) -> np.ndarray:
        """The index of the leaf each sample reaches, shape (n_samples,).

        Nodes are numbered breadth-first from the root (0), a left child just
        before its right sibling (scikit-learn numbers them depth-first, so the
        indices differ while the partition is the same).
        """
        X = check_predict_X(self, X, "tree_")
        return _apply_flat(self._flat(), X)

    @property
    def feature_importances_(self) -> np.ndarray:
        """Normalised mean decrease in impurity of each attribute (zeros without a split)."""
        return tree_feature_importances(self)


def _regression_target(y: Any, n_samples: int) -> np.ndarray:
    """``y`` as a finite float vector of ``n_samples`` entries, or a clear error."""
    y = column_or_1d(y, "y", dtype=np.float64, warn=True)      # refuses NaN and infinity
    check_consistent_length(np.empty((n_samples, 0)), y, names=["X", "y"])
    return y


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
        # stable sigmoid; not mlbook._math.expit: the two formulas differ by 1 ulp on about
        # half of all inputs, which moves the oblique trees' weights in their last bits, and
        # the trees stay bit-identical with those the chapter shows
        p = np.exp(-np.logaddexp(0.0, -s))
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
        return check_predict_X(self, X, "tree_")

    def fit(self, X: Any, y: Any) -> "ObliqueDecisionTreeClassifier":
        """Grow the oblique tree on numeric ``X`` (n_samples, n_features); returns self."""
        if self.criterion not in ("entropy", "gini"):
            raise ValueError(f"criterion must be 'entropy' or 'gini'; got {self.criterion!r}")
        check_scalar(self.alpha, "alpha", numbers.Real, min_val=0.0, include_min=False)
        X, y, classes, yk = self._check_common(X, y)
        X = check_array(X, "X")
        root = self._grow(X, yk, classes.shape[0], 0, None)
        return self._set_fitted(classes, [None] * X.shape[1], root)

    def _grow(self, X, yk, n_classes, depth, parent) -> Node:
        counts = np.bincount(yk, minlength=n_classes).astype(np.float64)
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
        found = _threshold_search(z, yk, np.ones(z.shape[0]), n_classes, self.criterion)
        if found is None or found[1] <= 0:                     # no useful oblique split
            return node
        t, _, r_left, _ = found
        left = z <= t
        node.coef, node.threshold = coef, t
        node.branch_weights = np.array([r_left, 1.0 - r_left])
        node.children = [self._grow(X[left], yk[left], n_classes, depth + 1, node),
                         self._grow(X[~left], yk[~left], n_classes, depth + 1, node)]
        return node
