r"""Stacking: the chapter "Bagging, random forests and combining learners" (Zhou 8.4.3).

:class:`StackingClassifier` learns how to combine its members: a second-level
learner (the meta-learner, 元学习器) is fitted on the members' out-of-fold
predictions, so that it sees how the members behave on data they were not
fitted on. The names and attributes are scikit-learn's.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from .._validation import (check_array, check_predict_X, check_sample_weight, check_scalar,
                           encode_labels)
from ..base import ClassifierMixin, TransformerMixin
from ..linear_model import LogisticRegression
from ..model_selection import StratifiedKFold
from ._base import _fit_classes
from ._voting import _available_if, _BaseHeterogeneous, _fit_member, _is_drop


def _final_has(method: str):
    """Check for ``_available_if``: the (fitted, else given) final estimator has ``method``."""
    def check(obj: "StackingClassifier") -> None:
        final = getattr(obj, "final_estimator_", None)
        if final is None:
            final = LogisticRegression() if obj.final_estimator is None else obj.final_estimator
        getattr(final, method)      # AttributeError when it has no such method
    return check


class StackingClassifier(ClassifierMixin, TransformerMixin, _BaseHeterogeneous):
    r"""Stacking: a final classifier fitted on the members' out-of-fold predictions.

    Parameters
    ----------
    estimators : list of (str, classifier) pairs
        The first-level members; a member given as ``"drop"`` is left out.
        Names are unique strings without ``"__"`` and differ from the
        parameter names.
    final_estimator : classifier or None, default=None
        The meta-learner, fitted on the meta-features. None:
        :class:`mlbook.linear_model.LogisticRegression`, which handles two
        classes only (unlike scikit-learn's default, its multinomial
        ``LogisticRegression``): for more classes pass a multi-class
        classifier, e.g. ``GaussianNB()``, or ``fit`` raises.
    cv : int >= 2, splitter or iterable of (train, test) pairs, default=5
        How the out-of-fold predictions are made: an int :math:`k` means
        ``StratifiedKFold(k)`` without shuffling (scikit-learn's choice for a
        classifier); a splitter is anything with ``split(X, y)``. The test
        folds must partition the samples.

    Attributes
    ----------
    estimators_ : list of fitted classifiers
        The members refitted on all the data, in order, without the dropped ones.
    named_estimators_ : Bunch
        Every name mapped to its fitted member (or to "drop").
    final_estimator_ : fitted classifier
        The meta-learner, fitted on the out-of-fold meta-features.
    stack_method_ : list of str
        The method that gives each member's meta-features: ``predict_proba``
        if it has one, else ``decision_function``, else ``predict``.
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int

    Notes
    -----
    Zhou's stacking (algorithm 8.4 with his remark on cross-validation): with
    folds :math:`D_1, \dots, D_k` and member :math:`h_t^{(-j)}` fitted on
    :math:`D \setminus D_j`, sample :math:`\boldsymbol x_i \in D_j` gets the
    meta-feature vector
    :math:`\boldsymbol z_i = (h_1^{(-j)}(\boldsymbol x_i), \dots,
    h_T^{(-j)}(\boldsymbol x_i))`, each block one column per class of
    ``predict_proba`` (only the column of the second class when there are two,
    as the first is one minus it), the columns of ``decision_function``, or
    the class index from ``predict``. The final estimator is fitted on
    :math:`\{(\boldsymbol z_i, y_i)\}`; every member is then refitted on all
    of :math:`D`, and a new :math:`\boldsymbol x` is classified by the final
    estimator on the refitted members' :math:`\boldsymbol z` (``transform``).
    Fitting the final estimator on in-sample predictions instead would teach
    it to trust the members that overfit most.

    See the chapter "Bagging, random forests and combining learners".

    Examples
    --------
    >>> from mlbook.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from mlbook.naive_bayes import GaussianNB
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 2)); y = (X[:, 0] + rng.normal(size=40) > 0).astype(int)
    >>> stack = StackingClassifier([("nb", GaussianNB()),
    ...                             ("lda", LinearDiscriminantAnalysis())]).fit(X, y)
    >>> stack.stack_method_, stack.transform(X).shape
    (['predict_proba', 'predict_proba'], (40, 2))
    """

    def __init__(self, estimators: list[tuple[str, Any]], final_estimator: Any = None,
                 cv: Any = 5) -> None:
        self.estimators = estimators
        self.final_estimator = final_estimator
        self.cv = cv

    @property
    def _binary_only(self) -> bool:
        """Two classes only when the final estimator is (the default LogisticRegression is)."""
        final = LogisticRegression() if self.final_estimator is None else self.final_estimator
        return bool(getattr(final, "_binary_only", False))

    def _folds(self, X: np.ndarray, y: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        cv = self.cv
        if isinstance(cv, numbers.Integral) and not isinstance(cv, (bool, np.bool_)):
            check_scalar(cv, "cv", numbers.Integral, min_val=2)
            folds = list(StratifiedKFold(int(cv)).split(X, y))
        elif not isinstance(cv, str) and callable(getattr(cv, "split", None)):   # str.split
            folds = list(cv.split(X, y))
        elif isinstance(cv, (list, tuple)):
            folds = list(cv)
        else:
            raise TypeError("cv must be an int >= 2, a splitter with split(X, y) or a list of "
                            f"(train, test) index pairs; got {cv!r}")
        try:
            folds = [(np.asarray(train, dtype=np.int64), np.asarray(test, dtype=np.int64))
                     for train, test in folds]
        except (TypeError, ValueError):
            raise TypeError("cv must yield (train, test) pairs of integer indices") from None
        tests = np.sort(np.concatenate([test for _, test in folds])) if folds else np.array([])
        if tests.shape[0] != X.shape[0] or not np.array_equal(tests, np.arange(X.shape[0])):
            raise ValueError("cv: the test folds must partition the samples (every sample in "
                             "exactly one test fold) for out-of-fold predictions")
        return folds

    @staticmethod
    def _method(est: Any) -> str:
        for method in ("predict_proba", "decision_function", "predict"):
            if hasattr(est, method):
                return method
        raise TypeError(f"{type(est).__name__} has none of predict_proba, decision_function "
                        "and predict")     # pragma: no cover - an estimator predicts

    def _meta_block(self, h: Any, method: str, X: np.ndarray) -> np.ndarray:
        """The meta-features that member ``h`` gives ``X``: shape (n_samples, columns)."""
        K = self.classes_.shape[0]
        if method == "predict":
            return encode_labels(h.predict(X), self.classes_)[1].astype(np.float64)[:, None]
        if method == "predict_proba":
            p = np.zeros((X.shape[0], K))      # a class the member never saw: probability 0
            p[:, np.searchsorted(self.classes_, h.classes_)] = h.predict_proba(X)
            return p[:, 1:] if K == 2 else p
        d = np.asarray(h.decision_function(X), dtype=np.float64)
        d = d[:, None] if d.ndim == 1 else d
        if d.shape[1] != (1 if K == 2 else K):
            raise ValueError(f"{type(h).__name__}.decision_function gave {d.shape[1]} columns "
                             f"for {K} classes: a training fold lacks a class; use fewer folds")
        return d

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "StackingClassifier":
        """Fit the members out of fold, the final estimator on their predictions, then
        the members again on all the data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,) or None
            Passed to every member's and the final estimator's ``fit`` only when given.

        Returns
        -------
        self
        """
        names, ests = self._validate_estimators()
        final = LogisticRegression() if self.final_estimator is None else self.final_estimator
        if not callable(getattr(final, "fit", None)) or isinstance(final, type):
            raise TypeError(f"final_estimator must be an estimator instance with fit; "
                            f"got {final!r}")
        X = check_array(X, "X")
        classes, codes = _fit_classes(y, X)
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X.shape[0])
        y_lab = classes[codes]
        if getattr(final, "_binary_only", False) and classes.shape[0] > 2:
            raise ValueError(f"final_estimator {final!r} handles two classes only (Only binary "
                             f"classification is supported), but y has {classes.shape[0]} "
                             "classes; pass a multi-class final_estimator, e.g. GaussianNB()")
        folds = self._folds(X, y_lab)
        for i, (train, _) in enumerate(folds):
            missing = np.setdiff1d(classes, y_lab[train])
            if missing.shape[0]:
                warnings.warn(f"cv: the training part of fold {i} lacks the class(es) "
                              f"{missing.tolist()}; the members fitted on it give them "
                              "probability 0 (or fail with decision_function)", UserWarning,
                              stacklevel=2)
        self.classes_ = classes
        kept = [(name, est) for name, est in zip(names, ests) if not _is_drop(est)]
        methods = [self._method(est) for _, est in kept]
        blocks = []
        for (name, est), method in zip(kept, methods):
            block = None
            for train, test in folds:
                sw = None if sample_weight is None else sample_weight[train]
                h = _fit_member(est, name, X[train], y_lab[train], sw)
                out = self._meta_block(h, method, X[test])
                if block is None:
                    block = np.empty((X.shape[0], out.shape[1]))
                block[test] = out
            blocks.append(block)
        meta = np.hstack(blocks)                                 # (n_samples, n_meta)
        self.final_estimator_ = _fit_member(final, "final_estimator", meta, y_lab, sample_weight)
        fitted = [_fit_member(est, name, X, y_lab, sample_weight) for name, est in kept]
        self._set_members(names, ests, fitted)
        self.stack_method_ = methods
        self.n_features_in_ = X.shape[1]
        return self

    def transform(self, X: Any) -> np.ndarray:
        """The meta-features of ``X`` from the refitted members.

        Returns
        -------
        ndarray of shape (n_samples, n_meta_features)
        """
        X = check_predict_X(self, X, "final_estimator_")
        return np.hstack([self._meta_block(h, method, X)
                          for h, method in zip(self.estimators_, self.stack_method_)])

    def predict(self, X: Any) -> np.ndarray:
        """The final estimator's prediction on the meta-features of ``X``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        meta = self.transform(X)                   # checks that the ensemble is fitted
        return self.final_estimator_.predict(meta)

    @_available_if(_final_has("predict_proba"))
    def predict_proba(self, X: Any) -> np.ndarray:
        """The final estimator's class probabilities on the meta-features of ``X``.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        meta = self.transform(X)
        return self.final_estimator_.predict_proba(meta)

    @_available_if(_final_has("decision_function"))
    def decision_function(self, X: Any) -> np.ndarray:
        """The final estimator's decision function on the meta-features of ``X``.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        meta = self.transform(X)
        return self.final_estimator_.decision_function(meta)
