"""Reading a fitted tree: :func:`export_text`, the node tests, feature importances."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .._validation import check_bool, check_is_fitted
from ._criteria import _impurity
from ._node import Node

__all__ = ["export_text", "node_test", "branch_labels", "tree_feature_importances"]


def _fmt(v: float) -> str:
    return f"{v:.4f}".rstrip("0").rstrip(".") if abs(v) < 1e4 else f"{v:.4g}"


def _feature_names(estimator, feature_names: Sequence[str] | None) -> list:
    """The column names (``x0, x1, ...`` by default), one per feature of the fitted tree."""
    names = list(feature_names) if feature_names is not None else \
        [f"x{j}" for j in range(estimator.n_features_in_)]
    if len(names) != estimator.n_features_in_:
        raise ValueError(f"feature_names has {len(names)} name(s), but the tree was fitted "
                         f"with {estimator.n_features_in_} features")
    return names


def node_test(estimator, node: Node, feature_names: Sequence[str] | None = None) -> str:
    """The question a node asks, e.g. ``"texture = ?"`` or ``"density <= 0.381?"``."""
    names = _feature_names(estimator, feature_names)
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
    >>> from mlbook.tree import DecisionTreeClassifier
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
    check_bool(show_counts, "show_counts")
    names = _feature_names(estimator, feature_names)
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


def tree_feature_importances(tree, normalize: bool = True) -> np.ndarray:
    r"""Mean decrease in impurity of each attribute in one fitted tree.

    Every internal node :math:`v` testing attribute :math:`j` adds
    :math:`\frac{n_v}{n}\big(I(v) - \sum_c \frac{n_c}{n_v} I(c)\big)` to attribute
    :math:`j`, where :math:`I` is the impurity the tree was grown by (the Gini
    value for ``criterion="gini"``, the entropy otherwise, as scikit-learn
    does; the weighted variance for a regression tree) of the node's
    (weighted) samples, :math:`n_v` their total weight and :math:`c` the
    children. A tree without a split gives zeros.

    Parameters
    ----------
    tree : fitted DecisionTreeClassifier or DecisionTreeRegressor
    normalize : bool, default=True
        Scale the decreases to sum to 1; False leaves them divided by the
        root's weight :math:`n` only (scikit-learn's
        ``compute_feature_importances(normalize=False)``, which gradient
        boosting averages over its trees).

    Returns
    -------
    ndarray of shape (n_features,)
    """
    check_is_fitted(tree, "tree_")
    normalize = check_bool(normalize, "normalize")
    features, parents, children, owner = [], [], [], []
    stack = [tree.tree_]
    while stack:                                   # a walk over the nodes, collecting arrays
        node = stack.pop()
        if node.is_leaf:
            continue
        owner += [len(features)] * len(node.children)
        features.append(node.feature)
        parents.append(node)
        children += node.children
        stack.extend(node.children)
    if not features:
        return np.zeros(tree.n_features_in_)

    if hasattr(tree, "classes_"):                  # a classifier: impurity of the counts
        criterion = "gini" if tree.criterion == "gini" else "entropy"

        def weighted_impurity(nodes):              # n_v * I(v), 0 for an empty child
            counts = np.asarray([node.value for node in nodes], dtype=np.float64)
            return counts.sum(axis=1) * _impurity(counts, criterion)

        root_weight = float(np.sum(tree.tree_.value))
    else:                                          # a regressor: its nodes keep W and I

        def weighted_impurity(nodes):
            return np.array([node.weight * node.impurity for node in nodes])

        root_weight = tree.tree_.weight

    decrease = weighted_impurity(parents) - np.bincount(
        owner, weights=weighted_impurity(children), minlength=len(features))
    imp = np.bincount(features, weights=decrease, minlength=tree.n_features_in_)
    if not normalize:
        return imp / root_weight
    total = imp.sum()
    return imp / total if total > 0 else imp
