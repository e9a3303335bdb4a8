"""Decision trees (决策树): impurity functions, split search, two classifiers, a regressor.

The chapter "Decision trees" (``book/trees/decision_trees.ipynb``) derives every
formula implemented here; the notation is Zhou's (chapter 4 of the watermelon
book). The package follows scikit-learn's ``sklearn/tree/``:

* ``_criteria`` -- the impurity formulas, pure functions: :func:`entropy`,
  :func:`gini`, :func:`information_gain`, :func:`intrinsic_value`,
  :func:`gain_ratio`, :func:`gini_index` and :func:`best_threshold`;
* ``_node`` -- :class:`Node` and its flat-array form for prediction;
* ``_levelwise`` -- the sort-once grower behind one entry point,
  ``LevelwiseGrower``, which the trees and the ensembles call;
* ``_classes`` -- :class:`DecisionTreeClassifier` (Zhou's ``generate_tree``
  with the three criteria, pruning, continuous attributes and missing values)
  :class:`DecisionTreeRegressor` (CART's squared-error regression tree, grown
  by the same level-wise engine) and :class:`ObliqueDecisionTreeClassifier`
  (section 4.5);
* ``_export`` -- :func:`export_text`, the node tests and
  :func:`tree_feature_importances`.

Missing values are ``None`` or ``NaN`` and follow the weighted rule of
section 4.4.2 everywhere.
"""

from ._classes import DecisionTreeClassifier, DecisionTreeRegressor, ObliqueDecisionTreeClassifier
from ._criteria import (best_threshold, entropy, gain_ratio, gini, gini_index,
                        information_gain, intrinsic_value)
from ._export import branch_labels, export_text, node_test, tree_feature_importances
from ._levelwise import LevelwiseGrower
from ._node import Node

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
    "DecisionTreeRegressor",
    "ObliqueDecisionTreeClassifier",
    "export_text",
    "tree_feature_importances",
]
