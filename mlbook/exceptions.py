"""The exceptions and warnings of ``mlbook``: one of each, with scikit-learn's names.

Every module re-exports the ones it raises (``mlbook.svm.ConvergenceWarning`` is
this module's :class:`ConvergenceWarning`), so a single filter silences a warning
wherever it comes from:

>>> import warnings
>>> from mlbook import linear_model, neural_network, svm
>>> linear_model.ConvergenceWarning is svm.ConvergenceWarning is neural_network.ConvergenceWarning
True
"""

from __future__ import annotations

__all__ = [
    "NotFittedError",
    "ConvergenceWarning",
    "DataConversionWarning",
    "RankDeficientWarning",
    "SeparableDataWarning",
    "QuasiSeparableDataWarning",
]


class NotFittedError(ValueError, AttributeError):
    """Raised when an estimator is used before ``fit``."""


class ConvergenceWarning(UserWarning):
    """An iterative solver stopped at ``max_iter`` before its stopping rule was met."""


class DataConversionWarning(UserWarning):
    """Issued when input is converted in a way the caller may not have meant (scikit-learn's name)."""


class RankDeficientWarning(UserWarning):
    """The normal equations are singular; the minimum-norm solution is returned."""


class SeparableDataWarning(UserWarning):
    """The training data are linearly separable: the unpenalised MLE does not exist."""


class QuasiSeparableDataWarning(SeparableDataWarning):
    """The training data are quasi-completely separated: the unpenalised MLE does not exist.

    A hyperplane has every point on its own class's side or on the hyperplane
    itself, with points of both classes on it (Albert and Anderson, 1984).
    A subclass of :class:`SeparableDataWarning`, so a filter for that one
    catches both.
    """
