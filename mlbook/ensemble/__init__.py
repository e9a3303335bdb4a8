r"""Ensembles (集成学习): boosting, bagging, random forests, and combining learners.

* :class:`AdaBoostClassifier` is boosting (提升) by SAMME, the multi-class
  AdaBoost of Zhu et al. that scikit-learn implements: round :math:`t` fits a
  base learner to the weighted data, measures its weighted error
  :math:`\epsilon_t`, gives it the weight

  .. math:: \alpha_t = \eta\Big(\ln\frac{1-\epsilon_t}{\epsilon_t} + \ln(K-1)\Big),

  and multiplies the weight of every misclassified sample by
  :math:`e^{\alpha_t}`. For :math:`K = 2` and :math:`\eta = 1` this is twice
  Zhou's :math:`\alpha_t = \frac12\ln\frac{1-\epsilon_t}{\epsilon_t}` with
  labels in :math:`\{-1, +1\}`, and the same classifier.
* :class:`BaggingClassifier` is bagging (装袋): base learners fitted on
  bootstrap samples (自助采样) and averaged, with out-of-bag (包外) estimates.
* :class:`RandomForestClassifier` is bagging of trees that also draw a random
  subset of attributes at every node (随机森林).
* :class:`GradientBoostingRegressor` and :class:`GradientBoostingClassifier`
  are gradient boosting (梯度提升): Friedman's functional gradient descent with
  regression trees fitted to the pseudo-residuals (伪残差) and a line search at
  the leaves, as scikit-learn's ``GradientBoosting*``.
* :class:`VotingClassifier` combines fitted members by hard or soft voting
  (投票法), and :class:`StackingClassifier` by a learner fitted on their
  out-of-fold predictions (Stacking).
* :func:`disagreement_measure`, :func:`correlation_coefficient`,
  :func:`q_statistic` and :func:`kappa_statistic` are Zhou's pairwise diversity
  measures (多样性度量); :func:`error_ambiguity` is the error-ambiguity
  decomposition of a regression ensemble.

The default base learners are :class:`mlbook.tree.DecisionTreeClassifier`:
a stump (depth 1, Gini) for AdaBoost, a full Gini tree for bagging; gradient
boosting grows :class:`mlbook.tree.DecisionTreeRegressor`. The package follows
scikit-learn's ``sklearn/ensemble/``: ``_weight_boosting`` (AdaBoost),
``_bagging`` (bagging, random forests), ``_gradient_boosting``, ``_voting``,
``_stacking`` and ``_diversity``, with ``_base`` for what they share.
See the chapters "Boosting", "Gradient boosting" and "Bagging, random forests
and combining learners".
"""

from ..tree import tree_feature_importances
from ._bagging import BaggingClassifier, RandomForestClassifier
from ._diversity import (ErrorAmbiguityResult, correlation_coefficient, disagreement_measure,
                         error_ambiguity, kappa_statistic, q_statistic)
from ._gradient_boosting import GradientBoostingClassifier, GradientBoostingRegressor
from ._stacking import StackingClassifier
from ._voting import VotingClassifier
from ._weight_boosting import AdaBoostClassifier

__all__ = ["AdaBoostClassifier", "GradientBoostingClassifier", "GradientBoostingRegressor",
           "BaggingClassifier", "RandomForestClassifier", "tree_feature_importances",
           "VotingClassifier", "StackingClassifier", "disagreement_measure",
           "correlation_coefficient", "q_statistic", "kappa_statistic", "error_ambiguity",
           "ErrorAmbiguityResult"]
