"""A fitted tree's nodes: :class:`Node`, and its flat-array form for prediction.

:func:`_make_node` makes a node from its class counts (the majority rule of
:func:`_majority`, ties to the parent's class); :func:`_flatten` turns a tree of
binary threshold tests into arrays and :func:`_predict_flat` routes all rows
through them one level per step.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._criteria import _TIE

__all__ = ["Node"]


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
    impurity : float or None
        A regression tree's node: the weighted variance of the training
        targets reaching it (None in a classification tree).
    weight : float or None
        A regression tree's node: the total weight of the training samples
        reaching it (None in a classification tree, whose ``value`` sums to it).

    In a regression tree ``value`` and ``proba`` both hold the one-element
    array of the node's prediction, the weighted mean of its targets, and
    ``label`` is 0.
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
    impurity: float | None = None
    weight: float | None = None

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
    """Class distributions of the leaves reached by the rows of ``Z`` (no NaN)."""
    return flat[3][_apply_flat(flat, Z)]


def _apply_flat(flat, Z: np.ndarray) -> np.ndarray:
    """The (breadth-first) index of the leaf each row of ``Z`` (no NaN) reaches: all
    rows descend one level per step, so the loop runs once per level."""
    feature, threshold, left, _ = flat
    at = np.zeros(Z.shape[0], dtype=np.intp)               # the node of every row
    moving = np.flatnonzero(feature[at] >= 0)              # rows not yet at a leaf
    while moving.shape[0]:
        node = at[moving]
        nxt = left[node] + (Z[moving, feature[node]] > threshold[node])
        at[moving] = nxt
        moving = moving[feature[nxt] >= 0]
    return at
