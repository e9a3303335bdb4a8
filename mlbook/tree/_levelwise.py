r"""The sort-once grower: numeric data, one level of the tree at a time.

:class:`LevelwiseGrower` is the package's one entry point to it. It sorts the
columns of a numeric ``X`` once and then fits any number of unpruned Gini or
entropy :class:`~mlbook.tree.DecisionTreeClassifier` and of squared-error
:class:`~mlbook.tree.DecisionTreeRegressor` on (weighted subsets of) its rows
without sorting again: the trees' own ``fit`` use it, and so do the ensembles
(AdaBoost's rounds, the members of bagging and of a random forest, the stages
of gradient boosting, whose columns never change while their targets do).

:func:`grow_levelwise` is the engine. The samples of the nodes of the current
level sit, for every feature, in one row of an index array sorted by (node,
value); every node occupies the same segment in every row. One cumulative sum
of class counts along the rows scores every threshold of every feature of every
node at once; splitting a node is a stable partition of its segment, so the
columns are never sorted again. The tree is the one the recursive grower of
``DecisionTreeClassifier`` grows on the same data (the same thresholds, counts,
labels and tie rules), only faster.

Regression is the same computation with one "class": the squared-error score
of a threshold, :math:`S_L^2/W_L + S_R^2/W_R` with :math:`S` the weighted sums
of the targets and :math:`W` the weights on each side, has the shape of the
Gini score :math:`\sum_k c_{Lk}^2/W_L + \sum_k c_{Rk}^2/W_R` with a single
column :math:`c = w y`. Maximising it minimises the weighted sum of squared
errors of the two children (CART's regression tree, scikit-learn's
``criterion="squared_error"``). The targets are centred on each node's mean
before the cumulative sum (``S_R = -S_L`` then, and the score is
:math:`S_L^2 (1/W_L + 1/W_R)`): the same argmax, without the large common term
:math:`S^2/W` that would swamp the differences between thresholds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._criteria import _TIE, _midpoint
from ._node import Node, _make_node

__all__ = ["LevelwiseGrower"]   # the one entry point; the rest is its machinery

#: The criteria the level-wise scores implement (the classifier's).
CRITERIA = ("gini", "entropy")

#: A regression node is pure (a leaf) when all its targets are equal: a rule free
#: of units and offsets. (scikit-learn's is an absolute one, weighted variance at
#: most the machine epsilon: targets of scale 1e-8 then give a single leaf.)
#: Two regression scores closer than this, relative to the best, tie (the first
#: feature, then the first threshold, wins); a relative rule, since the scores
#: scale with the squared targets (gradient boosting's residuals shrink).
_REGRESSION_TIE = 1e-12


def _power_of_two(x: float) -> float:
    """The power of two nearest above ``x`` (1 for 0): dividing by it is exact."""
    return float(np.ldexp(1.0, int(np.frexp(x)[1]))) if x > 0 else 1.0


class SortedColumns:
    """Every column of a numeric ``X`` sorted once, to grow many trees on it.

    ``columns`` is ``X.T`` (contiguous), ``order[j]`` the row indices in
    increasing order of feature ``j`` (ties in row order), ``has_ties[j]``
    whether feature ``j`` has two equal values at all, and ``samples`` the rows
    in play (ascending; None for all of them). :meth:`rows` restricts to a
    subset without sorting again: the same tree as sorting ``X[rows]`` afresh.
    """

    __slots__ = ("columns", "order", "has_ties", "samples")

    def __init__(self, columns, order, has_ties, samples=None):
        self.columns, self.order, self.has_ties, self.samples = columns, order, has_ties, samples

    @classmethod
    def of(cls, X: np.ndarray) -> "SortedColumns":
        columns = np.ascontiguousarray(X.T, dtype=np.float64)
        order = np.argsort(columns, axis=1, kind="stable")              # (d, n)
        ordered = np.take_along_axis(columns, order, axis=1)
        return cls(columns, order, (ordered[:, 1:] == ordered[:, :-1]).any(axis=1))

    def rows(self, keep: np.ndarray) -> "SortedColumns":
        """The rows where the boolean mask ``keep`` is True."""
        kept = keep[self.order]                                   # (d, n), the same count per row
        return SortedColumns(self.columns, self.order[kept].reshape(self.order.shape[0], -1),
                             self.has_ties, np.flatnonzero(keep))


class LevelwiseGrower:
    """Fit unpruned trees on the rows of one numeric ``X``, sorted once: Gini or
    entropy classifiers, squared-error regressors.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Numeric, no missing value.
    yk : ndarray of shape (n_samples,) or None
        Class codes, indices into ``classes`` (None: regression trees only).
    classes : ndarray of shape (n_classes,) or None
        The classes every classification tree is fitted with.

    Notes
    -----
    ``LevelwiseGrower(X, yk, classes).fit(tree, sample_weight, rows)`` is the
    tree ``tree.fit(X[rows], classes[yk[rows]], sample_weight[rows])`` grows,
    provided :meth:`applies` to ``tree``, every class occurs among those rows
    and every weight there is positive.

    ``LevelwiseGrower(X).fit(regressor, sample_weight, rows, y=y)`` is the
    ``DecisionTreeRegressor`` ``regressor.fit(X[rows], y[rows],
    sample_weight[rows])`` grows; the target ``y`` (float, finite) may change
    from one call to the next, as the pseudo-residuals of gradient boosting do.
    """

    def __init__(self, X: np.ndarray, yk: np.ndarray | None = None,
                 classes: np.ndarray | None = None) -> None:
        self.sorted = SortedColumns.of(X)
        self.yk = yk
        self.classes = classes

    @staticmethod
    def applies(tree: Any) -> bool:
        """Whether ``tree`` is a ``DecisionTreeClassifier`` or ``DecisionTreeRegressor``
        this grower can fit."""
        from ._classes import DecisionTreeClassifier, DecisionTreeRegressor  # imports us

        if isinstance(tree, DecisionTreeRegressor):
            return True
        return (isinstance(tree, DecisionTreeClassifier) and tree.pruning is None
                and tree.criterion in CRITERIA)

    @staticmethod
    def _is_regressor(tree: Any) -> bool:
        from ._classes import DecisionTreeRegressor

        return isinstance(tree, DecisionTreeRegressor)

    def check(self, tree: Any) -> None:
        """Check ``tree``'s growth parameters for this ``X``, raising as ``tree.fit`` would."""
        tree._growth_settings(self.sorted.columns.shape[0])

    def grow(self, tree: Any, sample_weight: np.ndarray | None = None,
             rows: np.ndarray | None = None, y: np.ndarray | None = None) -> Node:
        """The root of the tree ``tree``'s parameters grow on the rows where the mask
        ``rows`` is True (all if None); ``tree`` itself is left as it is.

        ``sample_weight`` (None: unweighted) and ``y`` (the target of a regression
        tree, required for one and refused for a classifier) are indexed by the
        rows of ``X``.
        """
        if not self.applies(tree):
            raise ValueError("the level-wise grower fits unpruned gini or entropy "
                             "DecisionTreeClassifier and DecisionTreeRegressor only; "
                             f"got {tree!r}")
        settings = tree._growth_settings(self.sorted.columns.shape[0])
        data = self.sorted if rows is None else self.sorted.rows(rows)
        if self._is_regressor(tree):
            if y is None:
                raise ValueError("a DecisionTreeRegressor needs its target: pass y")
            return grow_levelwise(data, np.asarray(y, dtype=np.float64), 1, "squared_error",
                                  sample_weight=sample_weight, **settings)
        if y is not None or self.yk is None:
            raise ValueError("a DecisionTreeClassifier is grown on the class codes given "
                             "to the LevelwiseGrower, not on a y passed to grow")
        return grow_levelwise(data, self.yk, self.classes.shape[0], tree.criterion,
                              sample_weight=sample_weight, **settings)

    def fit(self, tree: Any, sample_weight: np.ndarray | None = None,
            rows: np.ndarray | None = None, y: np.ndarray | None = None) -> Any:
        """Fit ``tree`` on the rows where the mask ``rows`` is True (all if None): the
        root :meth:`grow` returns, set by the tree with its other learned attributes.

        Returns the fitted ``tree``.
        """
        root = self.grow(tree, sample_weight, rows, y)
        if self._is_regressor(tree):
            return tree._set_fitted(self.sorted.columns.shape[0], root)
        return tree._set_fitted(self.classes, [None] * self.sorted.columns.shape[0], root)


def grow_levelwise(data: SortedColumns, yk: np.ndarray, n_classes: int, criterion: str,
                   max_depth: int | None = None, min_samples_split: int = 2,
                   min_samples_leaf: int = 1, sample_weight: np.ndarray | None = None,
                   n_draw: int | None = None, rng: np.random.Generator | None = None) -> Node:
    """Grow a full tree on numeric data one level at a time; return its root.

    ``data`` holds the sorted columns; ``yk`` and ``sample_weight`` are indexed
    by the rows of ``X``. ``criterion="squared_error"`` grows a regression
    tree: ``yk`` is then the float target and ``n_classes`` is 1. With
    ``n_draw < d`` each node scores only ``n_draw`` features drawn at random
    (``rng``) among those not constant on it, so the work shrinks with them.
    The samples of a node that will not split again leave the index array with it.
    """
    n_features = data.columns.shape[0]
    n_draw = n_features if n_draw is None else n_draw
    w = sample_weight
    in_play = slice(None) if data.samples is None else data.samples
    n_samples = data.order.shape[1]
    regression = criterion == "squared_error"
    if regression:
        y, w_in = yk[in_play], (np.ones(n_samples) if w is None else w[in_play])
        weight = float(w_in.sum())
        # sums, not np.dot: a dot product of 20,000 entries wakes OpenBLAS's threads,
        # which then spin idle and double the CPU time of gradient boosting
        mean = float((w_in * y).sum()) / weight
        # the variance in two passes: E[y^2] - E[y]^2 cancels catastrophically when
        # the mean is large against the spread (an offset of 1e6 made pure nodes
        # look impure and impure ones negative)
        # (deviations divided by a power of two near the largest, exactly, so that
        # their squares neither overflow nor underflow; the children reuse it)
        unit = _power_of_two(np.abs(y - mean).max())
        with np.errstate(over="ignore"):
            impurity = float((w_in * ((y - mean) / unit) ** 2).sum()) / weight * unit * unit
        if not np.isfinite(impurity):
            raise ValueError("y (the regression target) is too large: its variance "
                             f"overflows float64 (|y| up to {np.abs(y).max():.3g}, the limit "
                             "is about 1e154 about the mean); rescale y")
        root = Node(np.array([mean]), np.array([mean]), 0, 0, n_samples,
                    impurity=impurity, weight=weight)
        root_counts = np.array([[weight * mean]])
        extra = {"weights": np.array([weight]), "means": np.array([mean]), "unit": unit}
        root_grows = bool(y.min() < y.max())          # pure: every target equal
    else:
        root_counts = np.bincount(yk[in_play], weights=None if w is None else w[in_play],
                                  minlength=n_classes).astype(np.float64)
        root = _make_node(root_counts, 0, n_samples, None)
        root_counts, extra = root_counts[None, :], {}
        root_grows = np.count_nonzero(root_counts) > 1

    def growing(children, depth):
        sizes = children["sizes"]
        if max_depth is not None and depth >= max_depth:
            return np.zeros(sizes.shape[0], dtype=bool)
        impure = (children["spread"] if regression
                  else np.count_nonzero(children["counts"], axis=1) > 1)
        return impure & (sizes >= min_samples_split)

    if not (root_grows and n_samples >= min_samples_split
            and (max_depth is None or max_depth > 0)):
        return root
    level = _Level(data, [root], root_counts, np.array([n_samples]), **extra)
    depth = 0
    while True:
        # the nodes of this level all may split; level.order holds just their samples.
        # 1-3: score every threshold of the scored (feature, node) pairs, keep the best
        pair_feature, pair_node = level.pairs(n_draw, rng)
        if pair_feature.shape[0] == 0 or not level.sizes[pair_node].sum():
            break
        cells = level.cells(pair_feature, pair_node)
        score = level.scores(cells, yk, w, n_classes, criterion, min_samples_leaf)
        split = level.best_splits(cells, score)
        if split is None:
            break
        children = level.split(split, yk, w, n_classes, depth + 1)       # 4
        depth += 1
        grow = growing(children, depth)                                # 5. which split next
        if not grow.any():
            break
        level = level.next_level(split, children, grow)                 # 6
    return root


class _Level:
    """The nodes of one level of :func:`grow_levelwise` and their samples.

    ``order`` is ``(d, width)``: for every feature the samples of the level's
    nodes, node after node (segments ``[starts, starts + sizes)``), each segment
    in increasing order of that feature. ``counts`` holds the nodes' (weighted)
    class counts; in a regression tree ``weights`` and ``means`` hold the nodes'
    total weights and target means (``counts`` their products, one column).
    """

    def __init__(self, data: SortedColumns, nodes: list, counts: np.ndarray, sizes: np.ndarray,
                 order: np.ndarray | None = None, weights: np.ndarray | None = None,
                 means: np.ndarray | None = None, unit: float = 1.0) -> None:
        self.data, self.nodes, self.counts, self.sizes = data, nodes, counts, sizes
        self.weights, self.means, self.unit = weights, means, unit
        self.order = data.order if order is None else order
        self.values = data.columns.ravel()                    # feature j's row at j * n_rows
        self.feature_offset = np.arange(data.columns.shape[0]) * data.columns.shape[1]
        self.order_flat = self.order.ravel()
        self.starts = np.zeros(len(nodes), dtype=np.intp)
        np.cumsum(sizes[:-1], out=self.starts[1:])

    # 1. which (feature, node) pairs are scored
    def pairs(self, n_draw: int, rng) -> tuple[np.ndarray, np.ndarray]:
        """Every pair, or for each node the first ``n_draw`` features, in a random
        order, that are not constant on it. Returns (feature, node) of the pairs,
        in (feature, node) order."""
        n_features, n_nodes = self.order.shape[0], len(self.nodes)
        if n_draw >= n_features:
            return np.repeat(np.arange(n_features), n_nodes), np.tile(np.arange(n_nodes),
                                                                    n_features)
        offset = self.feature_offset[:, None]
        lowest = self.values[offset + self.order[:, self.starts]]
        highest = self.values[offset + self.order[:, self.starts + self.sizes - 1]]
        movable = lowest < highest                                   # (d, q) not constant
        keys = np.where(movable, rng.random((n_features, n_nodes)), np.inf)
        rank = np.argsort(np.argsort(keys, axis=0), axis=0)
        return np.nonzero(movable & (rank < n_draw))

    # each pair is a run of cells of the (d, width) grid; the runs in flat order
    def cells(self, pair_feature: np.ndarray, pair_node: np.ndarray) -> dict:
        """The cells of the scored pairs: one per (pair, sample of the node)."""
        width = self.order.shape[1]
        run_length = self.sizes[pair_node]
        run_start = np.zeros(pair_feature.shape[0], dtype=np.intp)   # first cell of each run
        np.cumsum(run_length[:-1], out=run_start[1:])
        n_cells = int(run_start[-1] + run_length[-1])
        if n_cells == self.order.size:                                # every pair: the whole grid
            position, sample = np.arange(n_cells), self.order_flat
        else:
            position = (np.repeat(pair_feature * width + self.starts[pair_node] - run_start,
                                  run_length) + np.arange(n_cells))
            sample = self.order_flat[position]                        # the sample at each cell
        return {
            "pair_feature": pair_feature, "pair_node": pair_node,
            "run_length": run_length, "run_start": run_start,
            "position": position, "sample": sample,
            "node": np.repeat(pair_node, run_length),                 # the node of each cell
            # samples left of the threshold after the cell
            "n_left": np.arange(n_cells) - np.repeat(run_start, run_length) + 1,
        }

    # 2. the score of the threshold after every cell
    def scores(self, cells: dict, yk: np.ndarray, w: np.ndarray | None, n_classes: int,
               criterion: str, min_samples_leaf: int) -> np.ndarray:
        """Minus the weighted child impurity times n (larger is better); -inf where
        no threshold may go. Class counts left of every cell come from one
        cumulative sum per class."""
        run_length, node, n_left = cells["run_length"], cells["node"], cells["n_left"]
        pair_feature, sample = cells["pair_feature"], cells["sample"]
        cell_w = None if w is None else w[sample]
        if criterion == "squared_error":
            score = self._squared_error_scores(cells, yk, cell_w)
        else:
            score = self._class_scores(cells, yk, cell_w, n_classes, criterion)
        valid = n_left < self.sizes[node]                   # no split after a node's last sample
        if self.data.has_ties.any():                        # no split between equal values
            check = np.flatnonzero(valid & np.repeat(self.data.has_ties[pair_feature],
                                                     run_length))
            if check.shape[0]:
                offset = np.repeat(self.feature_offset[pair_feature], run_length)[check]
                valid[check] = (self.values[offset + self.order_flat[cells["position"][check] + 1]]
                                > self.values[offset + sample[check]])
        if min_samples_leaf > 1:
            valid &= (n_left >= min_samples_leaf) & (self.sizes[node] - n_left >= min_samples_leaf)
        score[~valid] = -np.inf
        return score

    def _squared_error_scores(self, cells: dict, y: np.ndarray,
                              cell_w: np.ndarray | None) -> np.ndarray:
        """:math:`S_L^2/W_L + S_R^2/W_R` of the targets centred on their node's mean,
        :math:`S_L^2 (1/W_L + 1/W_R)` (the centred sums of the two sides cancel)."""
        run_length, run_start, node = cells["run_length"], cells["run_start"], cells["node"]
        n_pairs = run_length.shape[0]
        centred = y[cells["sample"]] - np.repeat(self.means[cells["pair_node"]], run_length)
        if cell_w is not None:
            centred *= cell_w
        centred /= _power_of_two(np.abs(centred).max())   # the scores are only compared:
        # an exact scaling keeps S_L^2 finite and normal at any scale of y
        left = np.cumsum(centred)
        before = np.zeros(n_pairs)
        before[1:] = left[run_start[1:] - 1]
        left -= np.repeat(before, run_length)                          # sums within each run
        if cell_w is None:                   # n_L n_R / n = 1 / (1/n_L + 1/n_R)
            n_left = cells["n_left"]
            size = self.sizes[node]
            return left * left * size / np.maximum(n_left * (size - n_left), 1)
        else:
            left_weight = np.cumsum(cell_w)
            before[1:] = left_weight[run_start[1:] - 1]
            left_weight -= np.repeat(before, run_length)
            right_weight = self.weights[node] - left_weight
        # a side without weight (after a node's last sample; invalid anyway) adds nothing
        return left * left * (1.0 / np.where(left_weight > 0, left_weight, np.inf)
                              + 1.0 / np.where(right_weight > 0, right_weight, np.inf))

    def _class_scores(self, cells: dict, yk: np.ndarray, cell_w: np.ndarray | None,
                      n_classes: int, criterion: str) -> np.ndarray:
        """The Gini or entropy score of every cell (larger is better)."""
        run_length, run_start, node, n_left = (cells["run_length"], cells["run_start"],
                                               cells["node"], cells["n_left"])
        pair_feature, sample = cells["pair_feature"], cells["sample"]
        cell_y = yk[sample]
        left = np.empty((n_classes, sample.shape[0]))
        for k in range(n_classes):                                     # a loop over classes
            np.cumsum(cell_y == k if cell_w is None else (cell_y == k) * cell_w, out=left[k])
        before = np.zeros((n_classes, pair_feature.shape[0]))
        before[:, 1:] = left[:, run_start[1:] - 1]
        left -= np.repeat(before, run_length, axis=1)                  # counts within each run
        right = np.repeat(self.counts.T[:, cells["pair_node"]], run_length, axis=1) - left
        if cell_w is None:
            left_weight = n_left.astype(np.float64)
            right_weight = self.sizes[node] - left_weight
        else:
            left_weight = left.sum(axis=0)
            right_weight = self.counts.sum(axis=1)[node] - left_weight
        if criterion == "gini":
            left_squares, right_squares = left[0] * left[0], right[0] * right[0]
            for k in range(1, n_classes):
                left_squares += left[k] * left[k]
                right_squares += right[k] * right[k]
            # A left (or right) side whose weight is zero, or rounds to zero or below
            # because the cumulative sums run across nodes and features, adds nothing:
            # its squared counts are smaller still (0 / 0 would be NaN and would
            # silently keep the node from splitting).
            score = (left_squares / np.where(left_weight > 0, left_weight, 1.0)
                     + right_squares / np.where(right_weight > 0, right_weight, 1.0))
        else:
            def xlogx(v):                                            # v log2 v, with 0 log 0 = 0
                return v * np.log2(np.where(v > 0, v, 1.0))
            score = (xlogx(left).sum(axis=0) + xlogx(right).sum(axis=0)
                     - xlogx(left_weight) - xlogx(right_weight))
        return score

    # 3. the best cell of each node; ties: first feature, then first position
    def best_splits(self, cells: dict, score: np.ndarray) -> dict | None:
        """The nodes that split, their feature, position and threshold; None if none."""
        n_nodes, width = len(self.nodes), self.order.shape[1]
        node = cells["node"]
        best = np.full(n_nodes, -np.inf)
        np.maximum.at(best, cells["pair_node"], np.maximum.reduceat(score, cells["run_start"]))
        if self.weights is None:
            slack = _TIE * np.maximum(1.0, np.abs(best))
        else:                                    # regression: a relative tie (see the constant)
            slack = _REGRESSION_TIE * np.abs(best)
        near_best = np.flatnonzero(score >= (best - slack)[node])
        first = np.full(n_nodes, self.order.size)
        np.minimum.at(first, node[near_best], cells["position"][near_best])  # (feature, position)
        splitting = np.flatnonzero(np.isfinite(best))
        if splitting.shape[0] == 0:
            return None
        feature, position = np.divmod(first[splitting], width)
        n_rows = self.data.columns.shape[1]
        threshold = _midpoint(self.values[feature * n_rows + self.order_flat[first[splitting]]],
                              self.values[feature * n_rows
                                          + self.order_flat[first[splitting] + 1]])
        return {"nodes": splitting, "feature": feature, "position": position,
                "threshold": threshold}

    # 4. the children: class counts summed afresh from their samples (the
    #    differences of cumulative sums would leave rounding dust, -1e-15, in
    #    a class that is absent, and a pure child would look impure)
    def split(self, split: dict, yk: np.ndarray, w: np.ndarray | None, n_classes: int,
              depth: int):
        """Make the children of the splitting nodes and attach them.

        Returns a dict: ``nodes``, ``counts`` and ``sizes`` of the children (two per
        splitting node), and ``samples`` (the samples of ``order[0]`` at splitting
        nodes) with ``goes_left`` for each.
        """
        splitting, feature, threshold = split["nodes"], split["feature"], split["threshold"]
        n_nodes, n_split = len(self.nodes), splitting.shape[0]
        n_rows = self.data.columns.shape[1]
        node_of_position = np.repeat(np.arange(n_nodes), self.sizes)
        split_of_node = np.full(n_nodes, -1)
        split_of_node[splitting] = np.arange(n_split)
        split_of_position = split_of_node[node_of_position]
        at_split = split_of_position >= 0
        samples = self.order[0][at_split]
        split_of_sample = split_of_position[at_split]
        goes_left = (self.values[feature[split_of_sample] * n_rows + samples]
                     <= threshold[split_of_sample])
        n_left = split["position"] - self.starts[splitting] + 1
        child_sizes = np.column_stack([n_left, self.sizes[splitting] - n_left]).ravel()
        if self.weights is not None:
            return self._regression_children(split, samples, split_of_sample, goes_left, yk, w,
                                             depth, child_sizes)
        count_cell = split_of_sample * n_classes + yk[samples]
        sample_w = 1.0 if w is None else w[samples]
        left_counts = np.bincount(count_cell, weights=sample_w * goes_left,
                                  minlength=n_split * n_classes).reshape(-1, n_classes)
        right_counts = np.bincount(count_cell, weights=sample_w * ~goes_left,
                                   minlength=n_split * n_classes).reshape(-1, n_classes)
        child_counts = np.stack([left_counts, right_counts], axis=1).reshape(-1, n_classes)
        child_total = child_counts.sum(axis=1)
        child_proba = child_counts / child_total[:, None]
        # the children's labels (the rule of _majority: ties go to the parent's class)
        top = child_counts.max(axis=1)
        tied = child_counts >= (top - _TIE * np.maximum(1.0, top))[:, None]
        parent_label = np.repeat([self.nodes[i].label for i in splitting.tolist()], 2)
        child_label = np.where(tied[np.arange(2 * n_split), parent_label], parent_label,
                               np.argmax(tied, axis=1))
        r_left = (n_left / self.sizes[splitting] if w is None
                  else left_counts.sum(axis=1) / child_total.reshape(-1, 2).sum(axis=1))
        children = [Node(v, p, label, depth, n) for v, p, label, n in zip(
            list(child_counts), list(child_proba), child_label.tolist(), child_sizes.tolist())]
        for i, (at, j, t, fractions) in enumerate(zip(
                splitting.tolist(), feature.tolist(), threshold.tolist(),
                list(np.column_stack([r_left, 1.0 - r_left])))):
            node = self.nodes[at]                                     # a loop over nodes
            node.feature, node.threshold, node.branch_weights = j, t, fractions
            node.children = children[2 * i: 2 * i + 2]
        return {"nodes": children, "counts": child_counts, "sizes": child_sizes,
                "samples": samples, "goes_left": goes_left}

    def _regression_children(self, split, samples, split_of_sample, goes_left, y, w, depth,
                             child_sizes):
        """:meth:`split` for a regression tree: the children's weights, means and
        variances summed afresh from their samples (child ``2i`` is the left one)."""
        n_split = split["nodes"].shape[0]
        child = 2 * split_of_sample + ~goes_left
        sample_w = None if w is None else w[samples]
        ys = y[samples]
        weight = np.bincount(child, weights=sample_w, minlength=2 * n_split).astype(np.float64)
        wy = ys if sample_w is None else sample_w * ys
        mean = np.bincount(child, weights=wy, minlength=2 * n_split) / weight
        # the weighted variance in two passes, about each child's mean (scikit-learn's
        # E[y^2] - E[y]^2 cancels when the mean is large against the spread)
        dev = (ys - mean[child]) / self.unit        # the root's power of two: no overflow
        dev *= dev
        if sample_w is not None:
            dev *= sample_w
        with np.errstate(over="ignore"):
            impurity = np.bincount(child, weights=dev, minlength=2 * n_split) / weight
            impurity *= self.unit * self.unit
        # value and proba: the same one-element row of ``mean`` (views made in one go)
        children = [Node(m, m, 0, depth, n, None, None, None, [], None, False, v, c)
                    for m, n, v, c in zip(list(mean[:, None]), child_sizes.tolist(),
                                          impurity.tolist(), weight.tolist())]
        # pure: every target of the child equal (its smallest is its largest)
        lo = np.full(2 * n_split, np.inf)
        hi = np.full(2 * n_split, -np.inf)
        np.minimum.at(lo, child, ys)
        np.maximum.at(hi, child, ys)
        r_left = weight[0::2] / (weight[0::2] + weight[1::2])
        for i, (at, j, t, r) in enumerate(zip(split["nodes"].tolist(), split["feature"].tolist(),
                                              split["threshold"].tolist(), r_left.tolist())):
            node = self.nodes[at]                                     # a loop over nodes
            node.feature, node.threshold = j, t
            node.branch_weights = np.array([r, 1.0 - r])
            node.children = children[2 * i: 2 * i + 2]
        return {"nodes": children, "counts": (weight * mean)[:, None], "sizes": child_sizes,
                "samples": samples, "goes_left": goes_left, "weights": weight, "means": mean,
                "impurity": impurity, "spread": lo < hi}

    # 6. stable partition of every segment into its two children (a node that
    #    did not split sends all its samples "left", to a child that is dropped):
    #    kept children in order in the first columns, the rest after them
    def next_level(self, split: dict, children: dict, grow: np.ndarray) -> "_Level":
        """The level of the children that split next (``grow``); the others' samples leave."""
        splitting = split["nodes"]
        n_left = children["sizes"][0::2]
        n_features, width = self.order.shape
        n_nodes, n_split = len(self.nodes), splitting.shape[0]
        slot_size = np.zeros(2 * n_nodes, dtype=np.intp)
        slot_size[0::2] = self.sizes
        slot_size[2 * splitting] = n_left
        slot_size[2 * splitting + 1] = self.sizes[splitting] - n_left
        slot_keep = np.zeros(2 * n_nodes, dtype=bool)
        slot_keep[np.repeat(2 * splitting, 2) + np.tile([0, 1], n_split)] = grow
        kept = np.where(slot_keep, slot_size, 0)
        new_width = int(kept.sum())
        new_start = np.cumsum(kept) - kept
        dropped = slot_size - kept
        dropped_start = np.cumsum(dropped) - dropped
        j = np.arange(n_features)[:, None]
        offset = np.where(slot_keep, j * new_width + new_start,
                          n_features * new_width + j * (width - new_width) + dropped_start)
        sample_goes_left = np.ones(self.data.columns.shape[1], dtype=bool)
        sample_goes_left[children["samples"]] = children["goes_left"]
        left_mask = sample_goes_left[self.order]                      # (d, width)
        lefts_before = np.cumsum(left_mask, axis=1)
        lefts_before -= left_mask                                     # lefts before each position
        segment_lefts = lefts_before[:, self.starts]                  # (d, q) before each segment
        offset_left = np.repeat(offset[:, 0::2] - segment_lefts, self.sizes, axis=1)
        offset_right = np.repeat(offset[:, 1::2] + segment_lefts - self.starts, self.sizes, axis=1)
        destination = np.where(left_mask, offset_left + lefts_before,
                               offset_right + (np.arange(width) - lefts_before))
        buffer = np.empty(n_features * width, dtype=self.order.dtype)
        buffer[destination.ravel()] = self.order_flat
        order = buffer[:n_features * new_width].reshape(n_features, new_width)
        nodes = [child for child, g in zip(children["nodes"], grow.tolist()) if g]
        extra = ({} if self.weights is None else
                 {"weights": children["weights"][grow], "means": children["means"][grow],
                  "unit": self.unit})
        return _Level(self.data, nodes, children["counts"][grow], children["sizes"][grow], order,
                      **extra)
