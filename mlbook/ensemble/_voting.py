r"""Voting: the chapter "Bagging, random forests and combining learners" (Zhou 8.4).

:class:`VotingClassifier` combines already chosen, different learners by
(weighted) plurality voting of their labels ("hard") or by the weighted mean of
their class probabilities ("soft"). The names and attributes are
scikit-learn's. The helpers for a list of named members (checks of the names,
``get_params``/``set_params`` reaching the members by name) are shared with
stacking.
"""

from __future__ import annotations

import functools
import inspect
import types
from typing import Any, Callable

import numpy as np

from .._validation import (check_array, check_predict_X, check_sample_weight, check_vector,
                           encode_labels)
from ..base import BaseEstimator, ClassifierMixin, clone
from ..datasets import Bunch
from ._base import _fit_classes


# --- what a heterogeneous ensemble (members with names) shares ----------------------

class _AvailableIf:
    """A method that exists only when ``check(obj)`` passes (scikit-learn's
    ``available_if``): otherwise looking it up raises ``AttributeError``, so
    ``hasattr`` is False."""

    def __init__(self, fn: Callable, check: Callable[[Any], None]) -> None:
        self.fn = fn
        self.check = check
        functools.update_wrapper(self, fn)

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self.fn
        self.check(obj)                      # raises AttributeError when not available
        return types.MethodType(self.fn, obj)


def _available_if(check: Callable[[Any], None]) -> Callable[[Callable], _AvailableIf]:
    return lambda fn: _AvailableIf(fn, check)


def _is_drop(estimator: Any) -> bool:
    return isinstance(estimator, str) and estimator == "drop"


def _accepts_sample_weight(estimator: Any) -> bool:
    try:
        return "sample_weight" in inspect.signature(estimator.fit).parameters
    except (TypeError, ValueError):   # a fit without a signature (a builtin)
        return False


def _fit_member(estimator: Any, name: str, X: np.ndarray, y: np.ndarray,
                sample_weight: np.ndarray | None) -> Any:
    """A fitted clone of ``estimator``; ``sample_weight`` is passed only when given."""
    h = clone(estimator)
    if sample_weight is None:
        return h.fit(X, y)
    if not _accepts_sample_weight(h):
        raise TypeError(f"estimator {name!r} ({type(h).__name__}) does not take sample_weight "
                        "in fit; fit without sample_weight or drop this member")
    return h.fit(X, y, sample_weight=sample_weight)


class _BaseHeterogeneous(BaseEstimator):
    """Named members ``estimators = [(name, estimator), ...]``, as scikit-learn's
    ``_BaseHeterogeneousEnsemble``: ``get_params(deep=True)`` lists every member
    under its name and its parameters as ``name__param``; ``set_params`` replaces
    a member (``name=new``) or sets one of its parameters (``name__param=value``).
    """

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The hyper-parameters; with ``deep``, also every member by name and its parameters."""
        out = super().get_params(deep=deep)
        if not deep:
            return out
        try:
            pairs = [(name, est) for name, est in self.estimators]
        except (TypeError, ValueError):      # not (yet) a list of pairs: fit will say so
            return out
        for name, est in pairs:
            if not isinstance(name, str):
                continue
            out[name] = est
            if hasattr(est, "get_params") and not isinstance(est, type):
                for key, value in est.get_params(deep=True).items():
                    out[f"{name}__{key}"] = value
        return out

    def set_params(self, **params: Any) -> "_BaseHeterogeneous":
        """Set hyper-parameters; a member's name replaces it, ``name__param`` reaches into it."""
        if "estimators" in params:
            self.estimators = params.pop("estimators")
        try:
            names = [pair[0] for pair in self.estimators]
        except (TypeError, IndexError, KeyError):
            names = []
        if names:
            for key in list(params):
                name, sep, sub = key.partition("__")
                if name not in names or name in self._get_param_names():
                    continue
                value = params.pop(key)
                i = names.index(name)
                if sep:
                    self.estimators[i][1].set_params(**{sub: value})
                else:
                    self.estimators = [(n, value if j == i else e)
                                       for j, (n, e) in enumerate(self.estimators)]
        return super().set_params(**params)

    def _validate_estimators(self) -> tuple[list[str], list[Any]]:
        """The names and estimators of ``estimators``, every one checked ("drop" kept)."""
        estimators = self.estimators
        if not isinstance(estimators, (list, tuple)) or len(estimators) == 0:
            raise ValueError("estimators must be a non-empty list of (name, estimator) pairs; "
                             f"got {estimators!r}")
        names, ests = [], []
        for i, pair in enumerate(estimators):
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise TypeError(f"estimators[{i}] must be a (name, estimator) pair; got {pair!r}")
            name, est = pair
            if not isinstance(name, str):
                raise TypeError(f"estimators[{i}]: the name must be a string; got {name!r} "
                                f"({type(name).__name__})")
            if "__" in name:
                raise ValueError(f"estimators[{i}]: the name {name!r} contains '__', which "
                                 "set_params reserves for name__parameter")
            if name in self._get_param_names():
                raise ValueError(f"estimators[{i}]: the name {name!r} clashes with a parameter "
                                 f"of {type(self).__name__}; choose another name")
            if not _is_drop(est) and (isinstance(est, type)
                                      or not callable(getattr(est, "fit", None))):
                raise TypeError(f"estimators[{i}] ({name!r}) must be an estimator with fit, or "
                                f"'drop'; got {est!r}")
            names.append(name)
            ests.append(est)
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"estimators: the names must be unique; repeated: {duplicates}")
        if all(_is_drop(e) for e in ests):
            raise ValueError("estimators: every member is 'drop'; at least one must be an "
                             "estimator")
        return names, ests

    def _set_members(self, names: list[str], ests: list[Any], fitted: list[Any]) -> None:
        """``estimators_`` (the fitted members, in order, without the dropped ones) and
        ``named_estimators_`` (every name: its fitted member, or 'drop')."""
        self.estimators_ = fitted
        self.named_estimators_ = Bunch()
        members = iter(fitted)
        for name, est in zip(names, ests):
            self.named_estimators_[name] = est if _is_drop(est) else next(members)


# --- voting --------------------------------------------------------------------------

def _check_soft(obj: "VotingClassifier") -> None:
    if obj.voting == "hard":
        raise AttributeError(f"predict_proba is not available when voting={obj.voting!r}; "
                             "use voting='soft'")


class VotingClassifier(ClassifierMixin, _BaseHeterogeneous):
    r"""Combine different classifiers by hard (plurality) or soft (probability) voting.

    Parameters
    ----------
    estimators : list of (str, classifier) pairs
        The members, each cloned and fitted on the whole data; a member given
        as the string ``"drop"`` is left out. Names are unique strings without
        ``"__"`` and differ from the parameter names.
    voting : {"hard", "soft"}, default="hard"
        "hard": weighted plurality vote of the predicted labels. "soft": the
        class of largest weighted mean probability (every member needs
        ``predict_proba``).
    weights : array-like of shape (n_estimators,) or None, default=None
        Non-negative weight :math:`w_i` of each member (one entry per item of
        ``estimators``, "drop" included, whose weight is ignored); None gives
        every member weight 1.

    Attributes
    ----------
    estimators_ : list of fitted classifiers
        The fitted members, in order, without the dropped ones.
    named_estimators_ : Bunch
        Every name mapped to its fitted member (or to "drop"), also as an
        attribute: ``named_estimators_.tree``.
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int

    Notes
    -----
    Write :math:`h_i^j(\boldsymbol x) \in \{0, 1\}` for "member :math:`i`
    predicts class :math:`c_j`" (hard) and :math:`h_i^j(\boldsymbol x) \in [0,
    1]` for its probability of :math:`c_j` (soft). Both votes are Zhou's
    weighted voting (8.25),

    .. math:: H(\boldsymbol x) = c_{\arg\max_j \sum_{i=1}^{T} w_i h_i^j(\boldsymbol x)},

    with the argmax taking the first (smallest) class on a tie, as
    scikit-learn. With equal weights hard voting is plurality voting (8.24).
    Soft probabilities are the weighted mean
    :math:`\sum_i w_i h_i^j(\boldsymbol x) / \sum_i w_i`.

    See the chapter "Bagging, random forests and combining learners".

    Examples
    --------
    >>> from mlbook.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from mlbook.naive_bayes import GaussianNB
    >>> X = np.array([[0.0], [1.0], [1.5], [2.0], [3.0], [3.5]])
    >>> vote = VotingClassifier([("nb", GaussianNB()), ("lda", LinearDiscriminantAnalysis())],
    ...                         voting="soft").fit(X, ["a", "a", "a", "b", "b", "b"])
    >>> vote.predict([[0.5], [3.2]]).tolist(), sorted(vote.named_estimators_)
    (['a', 'b'], ['lda', 'nb'])
    """

    def __init__(self, estimators: list[tuple[str, Any]], voting: str = "hard",
                 weights: Any = None) -> None:
        self.estimators = estimators
        self.voting = voting
        self.weights = weights

    @property
    def _binary_only(self) -> bool:
        """Two classes only when a member is."""
        try:
            return any(getattr(est, "_binary_only", False) for _, est in self.estimators)
        except (TypeError, ValueError):       # not a list of pairs: fit will say so
            return False

    def _check_weights(self, ests: list[Any]) -> np.ndarray:
        """The weights of the kept members (ones when ``weights`` is None)."""
        keep = np.array([not _is_drop(e) for e in ests])
        if self.weights is None:
            return np.ones(int(keep.sum()))
        w = check_vector(self.weights, "weights", what="weights")
        if w.shape[0] != len(ests):
            raise ValueError(f"weights has {w.shape[0]} entries, but there are {len(ests)} "
                             "estimators; give one weight per estimator")
        if (w < 0).any():
            raise ValueError(f"weights must be non-negative; got {w.tolist()}")
        if not (w[keep] > 0).any():
            raise ValueError("weights of the members that are not dropped are all zero; at "
                             "least one must be positive")
        return w[keep]

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "VotingClassifier":
        """Fit a clone of every member on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,) or None
            Passed to every member's ``fit`` only when given (each must take it).

        Returns
        -------
        self
        """
        names, ests = self._validate_estimators()
        if not isinstance(self.voting, str) or self.voting not in ("hard", "soft"):
            raise ValueError(f"voting must be 'hard' or 'soft'; got {self.voting!r}")
        weights = self._check_weights(ests)
        if self.voting == "soft":
            for name, est in zip(names, ests):
                if not _is_drop(est) and not hasattr(est, "predict_proba"):
                    raise ValueError(f"voting='soft' needs predict_proba, but estimator {name!r} "
                                     f"({type(est).__name__}) has none; use voting='hard' or "
                                     "drop it")
        X = check_array(X, "X")
        classes, codes = _fit_classes(y, X)
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X.shape[0])
        y_lab = classes[codes]
        fitted = [_fit_member(est, name, X, y_lab, sample_weight)
                  for name, est in zip(names, ests) if not _is_drop(est)]
        self._set_members(names, ests, fitted)
        self._weights_ = weights
        self.classes_ = classes
        self.n_features_in_ = X.shape[1]
        return self

    @_available_if(_check_soft)
    def predict_proba(self, X: Any) -> np.ndarray:
        r"""The weighted mean of the members' class probabilities (voting="soft" only).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        X = check_predict_X(self, X, "estimators_")
        probas = np.stack([h.predict_proba(X) for h in self.estimators_])   # (T, n, K)
        return np.average(probas, axis=0, weights=self._weights_)

    def predict(self, X: Any) -> np.ndarray:
        """The class with the most (weighted) votes, or of largest mean probability.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = check_predict_X(self, X, "estimators_")
        if self.voting == "soft":
            return self.classes_[np.argmax(self.predict_proba(X), axis=1)]
        n, K = X.shape[0], self.classes_.shape[0]
        votes = np.zeros((n, K))                                 # (n, K): weighted votes
        rows = np.arange(n)
        for h, w in zip(self.estimators_, self._weights_):
            votes[rows, encode_labels(h.predict(X), self.classes_)[1]] += w
        return self.classes_[np.argmax(votes, axis=1)]        # ties: the smallest class index
