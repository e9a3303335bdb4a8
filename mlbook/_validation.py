"""Input checks shared by every estimator and metric.

Every check raises a ``ValueError`` or ``TypeError`` whose message names the
argument and says what was wrong, so that a reader who passes bad input gets a
sentence, not a NaN or a traceback from deep inside NumPy.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any, Sequence

import numpy as np

from .exceptions import DataConversionWarning, NotFittedError

__all__ = [
    "NotFittedError",
    "DataConversionWarning",
    "check_array",
    "check_dense",
    "check_X_y",
    "check_consistent_length",
    "check_vector",
    "check_labels",
    "column_or_1d",
    "check_is_fitted",
    "check_scalar",
    "check_bool",
    "encode_labels",
    "check_random_state",
    "check_sample_weight",
    "check_classification_targets",
    "check_n_features",
    "check_predict_X",
    "check_probabilities",
    "missing_in_objects",
    "reals_in_objects",
]


_MISSING = np.frompyfunc(lambda v: v is None or (isinstance(v, float) and v != v), 1, 1)
_REAL = np.frompyfunc(
    lambda v: isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)), 1, 1)


def missing_in_objects(X: np.ndarray) -> np.ndarray:
    """Mask of the missing entries (``None`` or a float NaN) of an object array, any shape.

    >>> missing_in_objects(np.array(["a", None, float("nan"), 1.0], dtype=object)).tolist()
    [False, True, True, False]
    """
    return _MISSING(X).astype(bool)


def reals_in_objects(X: np.ndarray) -> np.ndarray:
    """Mask of the entries of an object array that are real numbers (a bool is not).

    >>> reals_in_objects(np.array([1, 2.5, np.int64(3), True, "4", None], dtype=object)).tolist()
    [True, True, True, False, False, False]
    """
    return _REAL(X).astype(bool)


def _describe(x: Any) -> str:
    return type(x).__name__


def _is_sparse(X: Any) -> bool:
    """True for a SciPy sparse matrix or array (recognised without importing SciPy)."""
    return type(X).__module__.startswith("scipy.sparse")


def check_dense(X: Any, name: str = "X") -> None:
    """Refuse a SciPy sparse matrix with a message that says how to convert it."""
    if _is_sparse(X):
        raise TypeError(
            f"{name} is a sparse matrix ({type(X).__name__}); mlbook accepts dense arrays "
            f"only (sparse input is not supported). Convert it with {name}.toarray()."
        )


_ComplexWarning = getattr(np, "exceptions", np).ComplexWarning   # np.exceptions: NumPy >= 1.25


def _as_real_array(X: Any, name: str, dtype: Any) -> np.ndarray:
    """``np.asarray(X, dtype)`` that refuses complex numbers instead of dropping their imaginary part."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", _ComplexWarning)
        try:
            arr = np.asarray(X, dtype=dtype)
        except _ComplexWarning:
            arr = None
    if arr is None or arr.dtype.kind == "c":
        raise ValueError(
            f"{name} contains complex numbers. Complex data not supported: mlbook's "
            f"estimators need real numbers (pass {name}.real or abs({name}) if that is "
            "what you mean)"
        )
    return arr




def check_array(
    X: Any,
    name: str = "X",
    *,
    ensure_2d: bool = True,
    allow_nan: bool = False,
    dtype: Any = np.float64,
    min_samples: int = 1,
    min_features: int = 1,
) -> np.ndarray:
    """Convert ``X`` to a float64 array and check it.

    Parameters
    ----------
    X : array-like
        The input; lists, tuples and arrays are accepted.
    name : str
        The argument's name, used in error messages.
    ensure_2d : bool
        Require a 2-d array of shape (n_samples, n_features); otherwise 1-d.
    allow_nan : bool
        Accept NaN (missing values); infinities are never accepted.
    dtype : numpy dtype or None
        Convert to this dtype (``None`` or ``object`` keeps mixed columns, e.g.
        strings beside numbers, and then only the shape is checked).
    min_samples, min_features : int
        The smallest acceptable number of rows and columns.

    Returns
    -------
    ndarray
        The validated array (a copy only where conversion needed one).

    Examples
    --------
    >>> check_array([[1, 2], [3, 4]]).dtype
    dtype('float64')
    >>> check_array([1, 2, 3])
    Traceback (most recent call last):
    ...
    ValueError: X must be a 2-d array of shape (n_samples, n_features); got a 1-d array of shape (3,). Reshape your data: X.reshape(-1, 1) if it has a single feature, X.reshape(1, -1) if it is a single sample.
    """
    if X is None:
        raise TypeError(f"{name} must be an array-like, got None")
    if isinstance(X, str):
        raise TypeError(f"{name} must be an array-like of numbers, got a string")
    check_dense(X, name)
    keep_object = dtype is None or dtype is object
    try:
        arr = _as_real_array(X, name, None if keep_object else dtype)
    except ValueError as exc:
        if "complex" in str(exc):
            raise
        raise TypeError(
            f"{name} must contain numbers only; could not convert it to float ({exc})"
        ) from None
    except TypeError as exc:
        raise TypeError(
            f"{name} must contain numbers only; could not convert it to float ({exc})"
        ) from None
    if keep_object and arr.dtype.kind not in "biufOUS":
        raise TypeError(f"{name} has an unsupported dtype {arr.dtype}")
    if ensure_2d:
        if arr.ndim != 2:
            hint = (" Reshape your data: X.reshape(-1, 1) if it has a single feature, "
                    "X.reshape(1, -1) if it is a single sample.") if arr.ndim == 1 else ""
            raise ValueError(
                f"{name} must be a 2-d array of shape (n_samples, n_features); "
                f"got a {arr.ndim}-d array of shape {arr.shape}.{hint}"
            )
        if arr.shape[1] < min_features:
            raise ValueError(
                f"{name} has {arr.shape[1]} feature(s) (shape={arr.shape}) while a minimum "
                f"of {min_features} is required."
            )
    elif arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array; got shape {arr.shape}")
    if arr.shape[0] < min_samples:
        raise ValueError(
            f"{name} must have at least {min_samples} sample(s); got {arr.shape[0]}"
        )
    if arr.dtype.kind == "f":
        finite = np.isfinite(arr)
        if not finite.all():
            if np.isinf(arr).any():
                raise ValueError(f"{name} contains infinity; remove or clip those values")
            if not allow_nan:
                raise ValueError(
                    f"{name} contains NaN; this estimator does not accept missing values"
                )
    return arr


def column_or_1d(y: Any, name: str = "y", *, dtype: Any = None,
                 warn: bool = False) -> np.ndarray:
    """Return ``y`` as a 1-d array; a column vector (n, 1) is flattened.

    With ``warn=True`` (targets passed to ``fit``) flattening a column vector
    issues a :class:`DataConversionWarning`, as scikit-learn does: a column
    ``y`` is often a one-column table passed by mistake.

    >>> column_or_1d([[1], [2]])
    array([1, 2])
    """
    if y is None:
        raise ValueError(
            f"this estimator requires {name} to be passed, but the target {name} is None"
        )
    if isinstance(y, str):
        raise TypeError(f"{name} must be an array-like, got a string")
    check_dense(y, name)
    try:
        arr = _as_real_array(y, name, dtype)
    except (TypeError, ValueError) as exc:
        if "complex" in str(exc):
            raise
        raise ValueError(
            f"{name} must contain numbers (this estimator needs numeric targets); "
            f"could not convert it to float ({exc})"
        ) from None
    if arr.ndim == 2 and arr.shape[1] == 1:
        if warn:
            warnings.warn(
                f"A column-vector {name} was passed when a 1d array was expected. Please "
                f"change the shape of {name} to (n_samples, ), for example using ravel().",
                DataConversionWarning, stacklevel=3)
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array; got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty; it needs at least one sample")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity")
    return arr


def check_vector(a: Any, name: str, *, min_size: int = 1, what: str = "numbers",
                 allow_column: bool = False) -> np.ndarray:
    """A 1-d float64 array of finite values, for a function's vector argument.

    Parameters
    ----------
    a : array-like of shape (n,)
    name : str
        The argument's name, used in error messages.
    min_size : int
        The fewest entries accepted.
    what : str
        What the entries are ("scores", "error rates"), for the messages.
    allow_column : bool
        Flatten a column vector of shape (n, 1).

    >>> check_vector([0.2, 0.1], "errors_a", min_size=3)
    Traceback (most recent call last):
    ...
    ValueError: errors_a needs at least 3 values; got 2
    """
    if a is None:
        raise TypeError(f"{name} must be an array-like of {what}, got None")
    if isinstance(a, str):
        raise TypeError(f"{name} must be an array-like of {what}, got a string")
    try:
        arr = _as_real_array(a, name, np.float64)
    except (TypeError, ValueError) as exc:
        if "complex" in str(exc):
            raise
        raise TypeError(f"{name} must contain {what}") from None
    if allow_column and arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array of {what}; got shape {arr.shape}")
    if arr.shape[0] < min_size:
        raise ValueError(f"{name} needs at least {min_size} values; got {arr.shape[0]}")
    if np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN; every entry must be a number")
    if np.isinf(arr).any():
        raise ValueError(f"{name} contains infinity; every entry must be finite")
    return arr


def check_labels(y: Any, name: str = "y") -> np.ndarray:
    """A 1-d, non-empty array of class labels (numbers or strings, no NaN), for metrics and tests.

    >>> check_labels([0.5, 1.0], "y_pred")
    Traceback (most recent call last):
    ...
    ValueError: y_pred looks continuous (non-integer floats); class labels are needed
    """
    arr = column_or_1d(y, name)
    if arr.dtype.kind == "f" and not np.all(np.mod(arr, 1) == 0):
        raise ValueError(f"{name} looks continuous (non-integer floats); class labels are needed")
    if arr.dtype.kind == "O":
        kinds = {type(v) for v in arr}
        if any(issubclass(k, str) for k in kinds) and not all(issubclass(k, str) for k in kinds):
            raise TypeError(f"{name} mixes strings and numbers; use one type of label")
    return arr


def check_consistent_length(*arrays: Any, names: Sequence[str] | None = None) -> None:
    """Raise if the arrays do not all have the same number of samples.

    >>> check_consistent_length([1, 2], [1, 2, 3], names=["y_true", "y_pred"])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_pred have different lengths: 2 and 3
    """
    present = [(i, a) for i, a in enumerate(arrays) if a is not None]
    lengths = [len(a) for _, a in present]
    if len(set(lengths)) > 1:
        if names is None:
            names = [f"argument {i}" for i in range(len(arrays))]
        labels = [names[i] for i, _ in present]
        raise ValueError(
            f"{' and '.join(labels)} have different lengths: "
            f"{' and '.join(str(n) for n in lengths)}"
        )


def check_X_y(
    X: Any,
    y: Any,
    *,
    allow_nan: bool = False,
    dtype: Any = np.float64,
    y_numeric: bool = False,
    min_samples: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Validate a design matrix and its targets together (same length, no NaN in y)."""
    X = check_array(X, "X", allow_nan=allow_nan, dtype=dtype, min_samples=min_samples)
    y = column_or_1d(y, "y", dtype=np.float64 if y_numeric else None, warn=True)
    check_consistent_length(X, y, names=["X", "y"])
    return X, y


def check_is_fitted(estimator: Any, attributes: str | Sequence[str]) -> None:
    """Raise ``NotFittedError`` unless ``estimator`` has the fitted attributes."""
    if isinstance(attributes, str):
        attributes = [attributes]
    if not all(hasattr(estimator, a) for a in attributes):
        raise NotFittedError(
            f"this {type(estimator).__name__} is not fitted yet; call fit(X, y) first"
        )


def check_n_features(estimator: Any, X: np.ndarray, name: str = "X",
                     expected: int | None = None) -> None:
    """Raise if ``X`` has a different number of columns than the data ``fit`` saw
    (``expected``, by default the estimator's ``n_features_in_``)."""
    if expected is None:
        expected = getattr(estimator, "n_features_in_", None)
    if expected is not None and X.shape[1] != expected:
        raise ValueError(
            f"{name} has {X.shape[1]} features, but {type(estimator).__name__} is expecting "
            f"{expected} features as input (it was fitted with {expected})"
        )


def check_bool(value: Any, name: str) -> bool:
    """Check a yes/no parameter: ``True``/``False`` or NumPy's ``np.True_``/``np.False_``.

    Strings (``"no"`` is truthy), ints and ``None`` are refused rather than
    read by their truth value.

    >>> check_bool(np.True_, "shuffle")
    True
    >>> check_bool("no", "shuffle")
    Traceback (most recent call last):
    ...
    TypeError: shuffle must be True or False; got 'no' (str)
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False; got {value!r} ({_describe(value)})")
    return bool(value)


def check_predict_X(estimator: Any, X: Any, attributes: str | Sequence[str]) -> np.ndarray:
    """The checks before ``predict``: ``estimator`` is fitted, ``X`` is a valid 2-d array with
    the number of features ``fit`` saw. Returns ``X`` as a float64 array."""
    check_is_fitted(estimator, attributes)
    X = check_array(X, "X")
    check_n_features(estimator, X)
    return X


def check_scalar(
    value: Any,
    name: str,
    target_type: type | tuple[type, ...] = numbers.Real,
    *,
    min_val: float | None = None,
    max_val: float | None = None,
    include_min: bool = True,
    include_max: bool = True,
    allow_inf: bool = False,
) -> Any:
    """Check a scalar hyper-parameter's type, finiteness and range.

    Parameters
    ----------
    value : object
        The parameter as the caller passed it.
    name : str
        Its name, used in error messages.
    target_type : type or tuple of types, default numbers.Real
        ``bool`` checks a yes/no parameter with :func:`check_bool`. A bool is
        never accepted as a number.
    min_val, max_val : float or None
        Bounds, inclusive unless ``include_min``/``include_max`` is False.
    allow_inf : bool, default False
        Accept ``inf`` and ``-inf`` (NaN is never accepted). A learning rate,
        a penalty or a smoothing term of ``inf`` only turns the result into
        NaN, so infinities are refused unless a parameter means something at
        infinity.

    Returns
    -------
    The value, unchanged.

    >>> check_scalar(-1.0, "alpha", min_val=0.0)
    Traceback (most recent call last):
    ...
    ValueError: alpha must be >= 0.0; got -1.0
    >>> check_scalar(float("inf"), "eta", min_val=0.0)
    Traceback (most recent call last):
    ...
    ValueError: eta must be finite; got inf
    """
    if target_type is bool:
        return check_bool(value, name)
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a number, got a bool ({value})")
    if not isinstance(value, target_type):
        wanted = (
            " or ".join(t.__name__ for t in target_type)
            if isinstance(target_type, tuple)
            else target_type.__name__
        )
        raise TypeError(f"{name} must be of type {wanted}; got {_describe(value)} ({value!r})")
    if isinstance(value, numbers.Real):
        if np.isnan(value):
            raise ValueError(f"{name} must be a number; got NaN")
        if not allow_inf and np.isinf(value):
            raise ValueError(f"{name} must be finite; got {value}")
    if min_val is not None:
        bad = value < min_val if include_min else value <= min_val
        if bad:
            op = ">=" if include_min else ">"
            raise ValueError(f"{name} must be {op} {min_val}; got {value}")
    if max_val is not None:
        bad = value > max_val if include_max else value >= max_val
        if bad:
            op = "<=" if include_max else "<"
            raise ValueError(f"{name} must be {op} {max_val}; got {value}")
    return value


def check_random_state(seed: Any) -> np.random.Generator:
    """Turn ``None``, an int or a ``Generator`` into a ``np.random.Generator``.

    The global NumPy random state is never touched.

    >>> bool(check_random_state(0).integers(10) == check_random_state(0).integers(10))
    True
    """
    if isinstance(seed, (bool, np.bool_)):
        raise TypeError(f"random_state must be None, an int or a numpy Generator; got {seed!r}")
    if isinstance(seed, (numbers.Integral, np.integer)) and seed < 0:
        raise ValueError(f"random_state must be >= 0 (a seed); got {seed}")
    if seed is None or isinstance(seed, (numbers.Integral, np.integer)):
        return np.random.default_rng(seed)
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.RandomState):
        return np.random.default_rng(seed.randint(2**31 - 1))
    raise TypeError(
        f"random_state must be None, an int or a numpy Generator; got {_describe(seed)}"
    )


def check_sample_weight(sample_weight: Any, n_samples: int) -> np.ndarray:
    """Return sample weights as a float64 vector (ones when ``None``)."""
    if sample_weight is None:
        return np.ones(n_samples)
    w = column_or_1d(sample_weight, "sample_weight", dtype=np.float64)
    if w.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {w.shape[0]} entries, but there are {n_samples} samples"
        )
    if (w < 0).any():
        raise ValueError("sample_weight must be non-negative")
    if w.sum() <= 0:
        raise ValueError("sample_weight sums to zero (every weight is zero); at least one "
                         "sample needs a positive weight")
    return w


def check_classification_targets(y: np.ndarray, *, n_classes: int | None = None,
                                 name: str = "y") -> np.ndarray:
    """Return the sorted class labels of ``y`` and check there are enough of them.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
    n_classes : int or None
        If given, exactly this many classes are required (2 for a binary model).
    """
    if y.dtype.kind == "f" and not np.all(np.mod(y, 1) == 0):
        raise ValueError(
            f"{name} looks continuous (non-integer floats); a classifier needs class labels"
        )
    classes = np.unique(y)
    if classes.shape[0] < 2:
        raise ValueError(
            f"{name} contains a single class ({classes[0]!r}): with only one class there is "
            "nothing to tell apart; a classifier needs at least two"
        )
    if n_classes is not None and classes.shape[0] != n_classes:
        raise ValueError(
            f"{name} must have exactly {n_classes} classes; got {classes.shape[0]}: "
            f"{classes.tolist()}"
            + (". Only binary classification is supported." if n_classes == 2 else "")
        )
    return classes


def check_probabilities(p: Any, name: str = "y_score") -> np.ndarray:
    """Check that every entry lies in [0, 1] (and is not NaN)."""
    arr = np.asarray(p, dtype=np.float64)
    if np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN")
    if (arr < 0).any() or (arr > 1).any():
        raise ValueError(
            f"{name} must contain probabilities in [0, 1]; got values in "
            f"[{arr.min():g}, {arr.max():g}]"
        )
    return arr


def encode_labels(y: Any, classes: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0..k-1 of the labels in ``y``, in one documented order.

    The order is the one of ``classes_`` everywhere in ``mlbook`` (and in
    scikit-learn): **sorted**, as :func:`numpy.unique` sorts (numbers
    ascending, strings lexicographically). With ``classes`` given, the codes
    index ``classes`` in the order given, and a label not in ``classes`` gets
    the code -1.

    Class labels are always sorted. The one other order in the package is a
    decision tree's categories of a feature (``categories_`` of
    :class:`mlbook.tree.DecisionTreeClassifier`): there the categories keep their
    order of first appearance in the data, because the chapter's watermelon
    trees list a node's branches in the order the data set lists the values.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    classes : array-like of shape (n_classes,) or None

    Returns
    -------
    classes : ndarray of shape (n_classes,)
    codes : ndarray of shape (n_samples,), int64

    Examples
    --------
    >>> classes, codes = encode_labels(["b", "a", "b", "c"])
    >>> classes.tolist(), codes.tolist()
    (['a', 'b', 'c'], [1, 0, 1, 2])
    >>> encode_labels([3, 1, 7], classes=[3, 1])[1].tolist()
    [0, 1, -1]
    """
    y = np.asarray(y)
    if classes is None:
        classes, codes = np.unique(y, return_inverse=True)
        return classes, codes.reshape(-1).astype(np.int64)
    classes = np.asarray(classes)
    if classes.shape[0] == 0 or (classes.dtype.kind in "US") != (y.dtype.kind in "US"):
        return classes, np.full(y.shape[0], -1, dtype=np.int64)   # strings against numbers
    order = np.argsort(classes, kind="stable")
    sorted_classes = classes[order]
    pos = np.minimum(np.searchsorted(sorted_classes, y), classes.shape[0] - 1)
    return classes, np.where(sorted_classes[pos] == y, order[pos], -1).astype(np.int64, copy=False)
