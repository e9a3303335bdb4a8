"""Base classes shared by every estimator of the book.

The conventions are scikit-learn's (see its ``doc/developers/develop.rst``):

* ``__init__`` stores its arguments under the same names and does nothing else;
* ``fit`` validates, learns, sets attributes ending in ``_`` and returns ``self``;
* ``get_params`` is read from the ``__init__`` signature, so no estimator
  repeats its own parameter list, and ``set_params`` writes them back.

That is enough for scikit-learn's ``clone`` and ``cross_val_score`` to accept
our estimators, which the tests rely on.
"""

from __future__ import annotations

import copy
import inspect
from typing import Any

import numpy as np

from ._validation import check_bool

__all__ = ["BaseEstimator", "ClassifierMixin", "RegressorMixin", "TransformerMixin", "clone"]


class BaseEstimator:
    """Parameter handling and a readable ``repr`` for every estimator.

    Examples
    --------
    >>> class Toy(BaseEstimator):
    ...     def __init__(self, alpha=1.0, max_iter=100):
    ...         self.alpha = alpha
    ...         self.max_iter = max_iter
    >>> toy = Toy(alpha=0.5)
    >>> toy
    Toy(alpha=0.5)
    >>> toy.get_params()
    {'alpha': 0.5, 'max_iter': 100}
    >>> toy.set_params(max_iter=10).max_iter
    10
    """

    @classmethod
    def _get_param_names(cls) -> list[str]:
        init = cls.__init__
        if init is object.__init__:
            return []
        params = inspect.signature(init).parameters.values()
        names = []
        for p in params:
            if p.name == "self":
                continue
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(
                    f"{cls.__name__}.__init__ must name every parameter explicitly "
                    f"(found *{p.name}); get_params reads them from the signature."
                )
            names.append(p.name)
        return names

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """Return the hyper-parameters as a dict (``deep`` includes nested estimators)."""
        check_bool(deep, "deep")
        out: dict[str, Any] = {}
        for name in self._get_param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                for key, sub in value.get_params(deep=True).items():
                    out[f"{name}__{key}"] = sub
            out[name] = value
        return out

    def set_params(self, **params: Any) -> "BaseEstimator":
        """Set hyper-parameters by name (``estimator__param`` reaches nested ones)."""
        valid = self._get_param_names()
        nested: dict[str, dict[str, Any]] = {}
        for key, value in params.items():
            name, sep, sub = key.partition("__")
            if name not in valid:
                raise ValueError(
                    f"invalid parameter {name!r} for {type(self).__name__}; "
                    f"valid parameters are {sorted(valid)}"
                )
            if sep:
                nested.setdefault(name, {})[sub] = value
            else:
                setattr(self, name, value)
        for name, sub_params in nested.items():
            getattr(self, name).set_params(**sub_params)
        return self

    def __repr__(self) -> str:
        init = type(self).__init__
        defaults = {
            p.name: p.default
            for p in inspect.signature(init).parameters.values()
            if p.name != "self"
        } if init is not object.__init__ else {}
        shown = []
        for name, value in self.get_params(deep=False).items():
            default = defaults.get(name, inspect.Parameter.empty)
            if _same(value, default):
                continue
            shown.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"

    # scikit-learn >= 1.6 asks estimators for their tags; older versions read
    # ``_estimator_type``. Both are provided so that ``clone``,
    # ``cross_val_score`` and ``is_classifier`` work with any recent version.
    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        from sklearn.utils import InputTags, Tags, TargetTags

        return Tags(
            estimator_type=getattr(self, "_estimator_type", None),
            target_tags=TargetTags(required=getattr(self, "_requires_y", True)),
            transformer_tags=None,
            regressor_tags=None,
            classifier_tags=None,
            input_tags=InputTags(),
        )


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    try:
        result = a == b
        return bool(result) if not isinstance(result, np.ndarray) else False
    except Exception:  # comparisons of exotic objects
        return False


class ClassifierMixin:
    """``score`` = mean accuracy; marks the estimator as a classifier for scikit-learn."""

    _estimator_type = "classifier"

    def score(self, X, y, sample_weight=None) -> float:
        """Mean accuracy of ``self.predict(X)`` against ``y``."""
        from .metrics import accuracy_score

        return accuracy_score(y, self.predict(X), sample_weight=sample_weight)

    #: True for an estimator that handles exactly two classes (it raises on more);
    #: scikit-learn's tag ``classifier_tags.multi_class`` says the same.
    _binary_only = False

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        from sklearn.utils import ClassifierTags

        tags = super().__sklearn_tags__()
        tags.estimator_type = "classifier"
        tags.classifier_tags = ClassifierTags(multi_class=not self._binary_only)
        return tags


class RegressorMixin:
    """``score`` = coefficient of determination R^2; marks a regressor for scikit-learn."""

    _estimator_type = "regressor"

    def score(self, X, y, sample_weight=None) -> float:
        r"""Coefficient of determination :math:`R^2 = 1 - \sum (y - \hat y)^2 / \sum (y - \bar y)^2`."""
        from .metrics import r2_score

        return r2_score(y, self.predict(X), sample_weight=sample_weight)

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        from sklearn.utils import RegressorTags

        tags = super().__sklearn_tags__()
        tags.estimator_type = "regressor"
        tags.regressor_tags = RegressorTags()
        return tags


class TransformerMixin:
    """``fit_transform`` = ``fit`` then ``transform``."""

    def fit_transform(self, X, y=None, **fit_params):
        """Fit to ``X`` (and ``y``) and return the transformed ``X``."""
        return self.fit(X, y, **fit_params).transform(X)

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        from sklearn.utils import TransformerTags

        tags = super().__sklearn_tags__()
        tags.transformer_tags = TransformerTags()
        return tags


def clone(estimator: Any) -> Any:
    """A new, unfitted estimator with the same hyper-parameters.

    ``type(estimator)(**estimator.get_params(deep=False))``: fitted attributes
    (ending in ``_``) are not copied; a parameter that is itself an estimator
    is cloned, any other parameter is deep-copied, so the clone shares no
    mutable state with the original. Works for scikit-learn estimators too.

    Parameters
    ----------
    estimator : estimator
        Anything with ``get_params`` (ours or scikit-learn's).

    Returns
    -------
    estimator
        A new instance of the same class, unfitted.

    Examples
    --------
    >>> class Toy(BaseEstimator):
    ...     def __init__(self, alpha=1.0):
    ...         self.alpha = alpha
    >>> toy = Toy(alpha=0.5)
    >>> toy.coef_ = 3.0
    >>> twin = clone(toy)
    >>> twin, twin is toy, hasattr(twin, "coef_")
    (Toy(alpha=0.5), False, False)
    """
    if not hasattr(estimator, "get_params") or isinstance(estimator, type):
        raise TypeError(
            f"cannot clone {estimator!r}: it is not an estimator (it has no get_params)"
        )
    params = {
        name: clone(value) if hasattr(value, "get_params") and not isinstance(value, type)
        else copy.deepcopy(value)
        for name, value in estimator.get_params(deep=False).items()
    }
    return type(estimator)(**params)
