"""Evaluation methods (评估方法): hold-out, k-fold, leave-one-out, bootstrap, cross-validation.

The chapter *Model evaluation and selection* describes four ways of carving
a data set :math:`D` of :math:`m` samples into training and test sets:

* hold-out (留出法): one split into disjoint training and test sets,
  :func:`train_test_split`, stratified (分层采样) if asked;
* :math:`k`-fold cross-validation (k 折交叉验证): :math:`k` disjoint folds of
  about :math:`m/k` samples, each the test set once, :class:`KFold`,
  :class:`StratifiedKFold`, and :func:`cross_val_score` to average the
  :math:`k` scores;
* leave-one-out (留一法): :math:`k = m`, :class:`LeaveOneOut`;
* bootstrapping (自助法): draw :math:`m` samples with replacement for
  training and test on the ones never drawn (about :math:`1/e \\approx 36.8\\%`),
  :class:`Bootstrap`, :func:`bootstrap_sample`.

Names and semantics follow ``sklearn.model_selection``; every splitter has
``split(X, y=None, groups=None)`` and ``get_n_splits(...)``, so it can be
passed as ``cv=`` to scikit-learn's ``cross_val_score`` too. Randomness comes
only from ``random_state`` (a NumPy ``Generator``), so shuffled splits differ
from scikit-learn's, which uses the legacy ``RandomState``; unshuffled
:class:`KFold` and :class:`StratifiedKFold` folds are identical to
scikit-learn's.
"""

from __future__ import annotations

import abc

import math
import numbers
import warnings
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from ._validation import check_random_state, check_scalar, column_or_1d
from .base import clone

__all__ = [
    "train_test_split",
    "KFold",
    "StratifiedKFold",
    "LeaveOneOut",
    "Bootstrap",
    "bootstrap_sample",
    "cross_val_score",
]


def _num_samples(X: Any, name: str = "X") -> int:
    if X is None:
        raise TypeError(f"{name} must be an array-like (or an int number of samples), got None")
    if hasattr(X, "shape") and len(X.shape) > 0:
        return int(X.shape[0])
    try:
        return len(X)
    except TypeError:
        raise TypeError(f"{name} must be an array-like; got {type(X).__name__}") from None


def _take(a: Any, idx: np.ndarray) -> Any:
    """Rows ``idx`` of an array, a list or a pandas object."""
    if hasattr(a, "iloc"):
        return a.iloc[idx]
    return np.asarray(a)[idx]


# ---------------------------------------------------------------------------
# hold-out
# ---------------------------------------------------------------------------


def _check_size(value: Any, name: str, n_samples: int) -> str | None:
    """Return "f" for a fraction, "i" for a count, None when absent; raise when out of range."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, numbers.Real)):
        raise TypeError(f"{name} must be a float in (0, 1) or an int count; got {value!r}")
    if isinstance(value, numbers.Integral):
        if not 0 < value < n_samples:
            raise ValueError(
                f"{name}={value} must be a count in [1, {n_samples - 1}] "
                f"(there are {n_samples} samples) or a float in (0, 1)"
            )
        return "i"
    if not 0.0 < value < 1.0:
        raise ValueError(f"{name}={value} must be a float in (0, 1) or an int count")
    return "f"


def _split_sizes(n_samples: int, test_size: Any, train_size: Any) -> tuple[int, int]:
    """scikit-learn's size rules: test rounds up, train rounds down, default test 0.25."""
    if test_size is None and train_size is None:
        test_size = 0.25
    test_kind = _check_size(test_size, "test_size", n_samples)
    train_kind = _check_size(train_size, "train_size", n_samples)
    if test_kind == "f" and train_kind == "f" and test_size + train_size > 1:
        raise ValueError(
            f"test_size + train_size = {test_size + train_size} must be at most 1"
        )
    n_test = (math.ceil(test_size * n_samples) if test_kind == "f"
              else test_size if test_kind == "i" else None)
    n_train = (math.floor(train_size * n_samples) if train_kind == "f"
               else train_size if train_kind == "i" else None)
    if n_train is None:
        n_train = n_samples - n_test
    elif n_test is None:
        n_test = n_samples - n_train
    if n_train + n_test > n_samples:
        raise ValueError(
            f"train_size and test_size ask for {n_train} + {n_test} samples, more than "
            f"the {n_samples} available"
        )
    if n_train == 0:
        raise ValueError(
            f"with {n_samples} samples, test_size={test_size!r} and "
            f"train_size={train_size!r} the training set would be empty"
        )
    if n_test == 0:
        raise ValueError(
            f"with {n_samples} samples, test_size={test_size!r} and "
            f"train_size={train_size!r} the test set would be empty"
        )
    return int(n_train), int(n_test)


def _approximate_mode(class_counts: np.ndarray, n_draws: int,
                      rng: np.random.Generator) -> np.ndarray:
    r"""Per-class counts summing to ``n_draws``, each within 1 of the exact share.

    Each class gets :math:`\lfloor n c_k / m \rfloor`; the samples still
    missing go to the classes with the largest fractional parts (ties broken
    at random), so every count is the floor or the ceiling of
    :math:`n c_k / m`.
    """
    exact = class_counts / class_counts.sum() * n_draws
    counts = np.floor(exact)
    missing = int(round(n_draws - counts.sum()))
    if missing > 0:
        order = np.lexsort((rng.random(exact.shape[0]), -(exact - counts)))
        counts[order[:missing]] += 1
    return counts.astype(np.int64)


def _stratified_split(y: np.ndarray, n_train: int, n_test: int,
                      rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    classes, y_idx = np.unique(y, return_inverse=True)
    counts = np.bincount(y_idx)
    if counts.min() < 2:
        lonely = classes[np.argmin(counts)].tolist()
        raise ValueError(
            f"stratify: class {lonely!r} has a single sample; stratified splitting needs "
            "at least two samples of every class"
        )
    for n, which in ((n_train, "training"), (n_test, "test")):
        if n < classes.shape[0]:
            raise ValueError(
                f"stratify: the {which} set has {n} samples, fewer than the "
                f"{classes.shape[0]} classes"
            )
    # The test set gets the proportional share (within 1 of exact), the training
    # set a proportional share of what is left.
    t_k = _approximate_mode(counts, n_test, rng)
    n_k = _approximate_mode(counts - t_k, n_train, rng)
    # Random order inside each class: shuffle, then a stable sort by class.
    perm = rng.permutation(y.shape[0])
    by_class = perm[np.argsort(y_idx[perm], kind="stable")]
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    cls = y_idx[by_class]
    rank = np.arange(y.shape[0]) - starts[cls]  # position inside its class
    test = by_class[rank < t_k[cls]]
    train = by_class[(rank >= t_k[cls]) & (rank < t_k[cls] + n_k[cls])]
    return rng.permutation(train), rng.permutation(test)


def train_test_split(*arrays: Any, test_size: float | int | None = None,
                     train_size: float | int | None = None, random_state: Any = None,
                     shuffle: bool = True, stratify: Any = None) -> list:
    r"""Hold-out (留出法): split arrays into random training and test subsets.

    Parameters
    ----------
    *arrays : array-likes with the same first dimension n_samples
        For example ``X`` of shape (n_samples, n_features) and ``y`` of shape
        (n_samples,).
    test_size : float in (0, 1) or int, optional
        Fraction (rounded up) or number of test samples. Default 0.25 when
        ``train_size`` is also None, otherwise the complement of ``train_size``.
    train_size : float in (0, 1) or int, optional
        Fraction (rounded down) or number of training samples; default the
        complement of the test set.
    random_state : None, int or numpy Generator
    shuffle : bool, default=True
        If False, the first samples train and the next ones test.
    stratify : array-like of shape (n_samples,), optional
        Class labels to stratify on (分层采样): each class's share of the test
        set is the floor or the ceiling of its exact share, so its count
        differs from the proportional one by less than 1. Every class needs
        at least two samples.

    Returns
    -------
    list of length 2 * len(arrays)
        ``[a_train, a_test, b_train, b_test, ...]``, as NumPy arrays (pandas
        objects stay pandas).

    Notes
    -----
    Sizes follow scikit-learn: :math:`n_{test} = \lceil t m\rceil` for a
    fraction :math:`t` and :math:`n_{train} = \lfloor s m \rfloor`. The notes
    recommend hold-out (or cross-validation) when data are plentiful, and
    stratified sampling so that the class proportions of training and test
    sets match. See the chapter *Model evaluation and selection*.

    Examples
    --------
    >>> X, y = np.arange(20).reshape(10, 2), np.arange(10)
    >>> X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=0)
    >>> X_tr.shape, X_te.shape
    ((7, 2), (3, 2))
    >>> train_test_split(y, shuffle=False, test_size=2)
    [array([0, 1, 2, 3, 4, 5, 6, 7]), array([8, 9])]
    """
    if not arrays:
        raise ValueError("train_test_split needs at least one array to split")
    lengths = [_num_samples(a, f"arrays[{i}]") for i, a in enumerate(arrays)]
    if len(set(lengths)) > 1:
        raise ValueError(f"the arrays have different lengths: {lengths}")
    n_samples = lengths[0]
    if n_samples == 0:
        raise ValueError("the arrays are empty (0 samples); there is nothing to split")
    if not isinstance(shuffle, (bool, np.bool_)):
        raise TypeError(f"shuffle must be True or False; got {shuffle!r}")
    n_train, n_test = _split_sizes(n_samples, test_size, train_size)
    if not shuffle:
        if stratify is not None:
            raise ValueError("stratify needs shuffle=True (a stratified split is random)")
        train = np.arange(n_train)
        test = np.arange(n_train, n_train + n_test)
    else:
        rng = check_random_state(random_state)
        if stratify is not None:
            y = column_or_1d(stratify, "stratify")
            if y.shape[0] != n_samples:
                raise ValueError(
                    f"stratify has {y.shape[0]} entries, but the arrays have {n_samples} samples"
                )
            train, test = _stratified_split(y, n_train, n_test, rng)
        else:
            perm = rng.permutation(n_samples)
            test, train = perm[:n_test], perm[n_test:n_test + n_train]
    out = []
    for a in arrays:
        out.extend([_take(a, train), _take(a, test)])
    return out


# ---------------------------------------------------------------------------
# splitters
# ---------------------------------------------------------------------------


class _BaseSplitter:
    """What every splitter shares: a ``repr`` and the check of ``X`` against ``y``."""

    @staticmethod
    def _n_samples(X: Any, y: Any) -> int:
        n_samples = _num_samples(X)
        if n_samples == 0:
            raise ValueError("X is empty (0 samples); there is nothing to split")
        if y is not None and _num_samples(y, "y") != n_samples:
            raise ValueError(
                f"X and y have different lengths: {n_samples} and {_num_samples(y, 'y')}"
            )
        return n_samples

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({params})"


class _Splitter(_BaseSplitter, abc.ABC):
    """Shared ``split`` of the partitioning splitters: subclasses give the test indices."""

    @abc.abstractmethod
    def _iter_test_indices(self, n_samples: int, y: Any) -> Iterator[np.ndarray]:
        """Yield the test indices of each split in turn (each subclass's own rule)."""

    def split(self, X: Any, y: Any = None, groups: Any = None
              ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield ``(train_index, test_index)`` pairs, each sorted increasingly.

        Parameters
        ----------
        X : array-like of shape (n_samples, ...)
            Only its length is used.
        y : array-like of shape (n_samples,), optional
            Class labels (needed by :class:`StratifiedKFold`).
        groups : ignored
            Accepted for compatibility with scikit-learn.
        """
        n_samples = self._n_samples(X, y)
        all_idx = np.arange(n_samples)
        for test in self._iter_test_indices(n_samples, y):
            mask = np.zeros(n_samples, dtype=bool)
            mask[test] = True
            yield all_idx[~mask], all_idx[mask]


def _check_n_splits(n_splits: Any) -> int:
    check_scalar(n_splits, "n_splits", numbers.Integral, min_val=2)
    return int(n_splits)


def _check_shuffle(shuffle: Any, random_state: Any) -> None:
    if not isinstance(shuffle, (bool, np.bool_)):
        raise TypeError(f"shuffle must be True or False; got {shuffle!r}")
    if not shuffle and random_state is not None:
        raise ValueError(
            "random_state has no effect when shuffle=False; leave it None or set shuffle=True"
        )


class _BaseKFold(_Splitter):
    """``n_splits``, ``shuffle`` and ``random_state``, shared by the k-fold splitters."""

    def __init__(self, n_splits: int = 5, *, shuffle: bool = False, random_state: Any = None):
        self.n_splits = _check_n_splits(n_splits)
        _check_shuffle(shuffle, random_state)
        self.shuffle = shuffle
        self.random_state = random_state

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        """The number of splits, ``n_splits``."""
        return self.n_splits


class KFold(_BaseKFold):
    r""":math:`k`-fold cross-validation (k 折交叉验证): :math:`k` disjoint test folds.

    Parameters
    ----------
    n_splits : int, default=5
        The number of folds :math:`k \ge 2`.
    shuffle : bool, default=False
        Shuffle the samples before cutting them into folds.
    random_state : None, int or numpy Generator
        Only with ``shuffle=True``.

    Notes
    -----
    The samples (in their order, or shuffled) are cut into :math:`k`
    consecutive folds; the first :math:`m \bmod k` folds have
    :math:`\lfloor m/k\rfloor + 1` samples, the others :math:`\lfloor m/k\rfloor`.
    Fold :math:`i` is the test set of split :math:`i` and the other folds
    train. Without shuffling the folds are exactly scikit-learn's. With
    :math:`k = m` this is leave-one-out.

    Examples
    --------
    >>> [test.tolist() for _, test in KFold(3).split(np.zeros(7))]
    [[0, 1, 2], [3, 4], [5, 6]]
    """


    def _iter_test_indices(self, n_samples, y):
        if self.n_splits > n_samples:
            raise ValueError(
                f"n_splits={self.n_splits} is greater than the number of samples "
                f"n_samples={n_samples}"
            )
        indices = np.arange(n_samples)
        if self.shuffle:
            check_random_state(self.random_state).shuffle(indices)
        fold_sizes = np.full(self.n_splits, n_samples // self.n_splits)
        fold_sizes[: n_samples % self.n_splits] += 1
        stops = np.cumsum(fold_sizes)
        for start, stop in zip(stops - fold_sizes, stops):
            yield indices[start:stop]


class StratifiedKFold(_BaseKFold):
    r"""Stratified :math:`k`-fold: every fold keeps the class proportions of ``y``.

    Parameters
    ----------
    n_splits : int, default=5
    shuffle : bool, default=False
        Shuffle the fold assignment inside each class.
    random_state : None, int or numpy Generator
        Only with ``shuffle=True``.

    Notes
    -----
    scikit-learn's allocation, reproduced exactly: the labels, sorted by
    class (classes in order of first appearance), are dealt round-robin to
    the :math:`k` folds, which fixes how many samples of each class every
    fold receives (within 1 of :math:`c_j/k`); then the samples of each class,
    in their order, fill the folds in blocks. Without shuffling the folds
    are identical to scikit-learn's.

    Bad input: ``n_splits`` greater than the size of *every* class is a
    ``ValueError``. ``n_splits`` greater than the smallest class only is
    allowed with a ``UserWarning`` (as in scikit-learn): some folds then
    lack that class.

    Examples
    --------
    >>> y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
    >>> [y[test].tolist() for _, test in StratifiedKFold(2).split(np.zeros(10), y)]
    [[0, 0, 1, 1, 1], [0, 0, 1, 1, 1]]
    """


    def _test_folds(self, y: np.ndarray) -> np.ndarray:
        """Fold number of every sample."""
        _, first, inverse = np.unique(y, return_index=True, return_inverse=True)
        # encode the classes in order of first appearance, as scikit-learn
        _, appearance = np.unique(first, return_inverse=True)
        y_enc = appearance[inverse]
        n_classes = first.shape[0]
        counts = np.bincount(y_enc, minlength=n_classes)
        if np.all(self.n_splits > counts):
            raise ValueError(
                f"n_splits={self.n_splits} is greater than the number of samples of every "
                f"class (largest class: {counts.max()})"
            )
        if self.n_splits > counts.min():
            warnings.warn(
                f"the smallest class in y has only {counts.min()} samples, fewer than "
                f"n_splits={self.n_splits}; some folds will not contain it",
                UserWarning,
                stacklevel=3,
            )
        y_sorted = np.sort(y_enc)
        # allocation[i, k]: samples of class k in fold i (round-robin over sorted y)
        allocation = np.stack([np.bincount(y_sorted[i::self.n_splits], minlength=n_classes)
                               for i in range(self.n_splits)])
        rng = check_random_state(self.random_state) if self.shuffle else None
        test_folds = np.empty(y.shape[0], dtype=np.int64)
        for k in range(n_classes):
            folds_for_class = np.repeat(np.arange(self.n_splits), allocation[:, k])
            if rng is not None:
                rng.shuffle(folds_for_class)
            test_folds[y_enc == k] = folds_for_class
        return test_folds

    def _iter_test_indices(self, n_samples, y):
        if y is None:
            raise TypeError("StratifiedKFold.split needs the class labels y")
        y = column_or_1d(y, "y")
        if self.n_splits > n_samples:
            raise ValueError(
                f"n_splits={self.n_splits} is greater than the number of samples "
                f"n_samples={n_samples}"
            )
        folds = self._test_folds(y)
        for i in range(self.n_splits):
            yield np.flatnonzero(folds == i)


class LeaveOneOut(_Splitter):
    r"""Leave-one-out (留一法): :math:`m` splits, each testing on one sample.

    Notes
    -----
    :math:`k`-fold cross-validation with :math:`k = m`. Its training sets
    differ from the full data by one sample only, so its estimate is close to
    that of the model trained on all of :math:`D`, at the cost of :math:`m`
    fits (and a high variance of each single-sample score).

    Examples
    --------
    >>> [test.tolist() for _, test in LeaveOneOut().split(np.zeros(3))]
    [[0], [1], [2]]
    """

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        """The number of samples of ``X``."""
        if X is None:
            raise TypeError("LeaveOneOut.get_n_splits needs X (one split per sample)")
        return _num_samples(X)

    def _iter_test_indices(self, n_samples, y):
        if n_samples < 2:
            raise ValueError(f"leave-one-out needs at least 2 samples; got {n_samples}")
        for i in range(n_samples):
            yield np.array([i])


def bootstrap_sample(n_samples: int, *, random_state: Any = None
                     ) -> tuple[np.ndarray, np.ndarray]:
    r"""One bootstrap draw (自助采样): in-bag indices with repeats, and the out-of-bag ones.

    Parameters
    ----------
    n_samples : int
        :math:`m`, the size of the data set (at least 2).
    random_state : None, int or numpy Generator

    Returns
    -------
    in_bag : ndarray of shape (n_samples,)
        :math:`m` indices drawn uniformly with replacement (the training set
        :math:`D'`), in the order drawn.
    out_of_bag : ndarray of shape (n_oob,)
        The sorted indices never drawn (the test set :math:`D \setminus D'`).

    Notes
    -----
    A given sample is missed by all :math:`m` draws with probability
    :math:`(1 - 1/m)^m \to 1/e \approx 0.368`, so about a third of the data
    is out of bag. The training set follows a different distribution from
    :math:`D` (some samples repeat), which biases the estimate; the notes
    recommend the bootstrap for small data sets. For very small
    :math:`m` the out-of-bag set can be empty.

    Examples
    --------
    >>> in_bag, oob = bootstrap_sample(10, random_state=0)
    >>> in_bag.shape, bool(np.isin(oob, in_bag).any())
    ((10,), False)
    """
    check_scalar(n_samples, "n_samples", numbers.Integral, min_val=2)
    rng = check_random_state(random_state)
    in_bag = rng.integers(0, n_samples, size=n_samples)
    out_of_bag = np.flatnonzero(np.bincount(in_bag, minlength=n_samples) == 0)
    return in_bag, out_of_bag


class Bootstrap(_BaseSplitter):
    r"""Bootstrap (自助法) splits: train on a bootstrap sample, test out of bag.

    Parameters
    ----------
    n_splits : int, default=10
        The number of bootstrap draws.
    random_state : None, int or numpy Generator
        With an int, every call to ``split`` yields the same draws.

    Notes
    -----
    Each split is :func:`bootstrap_sample`: the training indices contain
    repeats (so they are *not* sorted and *not* a set), the test indices are
    the out-of-bag samples. scikit-learn's ``cross_val_score`` accepts it as
    ``cv=``.

    Examples
    --------
    >>> train, test = next(Bootstrap(3, random_state=0).split(np.zeros(8)))
    >>> len(train), bool(np.isin(test, train).any())
    (8, False)
    """

    def __init__(self, n_splits: int = 10, *, random_state: Any = None):
        check_scalar(n_splits, "n_splits", numbers.Integral, min_val=1)
        self.n_splits = int(n_splits)
        self.random_state = random_state

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        """The number of draws, ``n_splits``."""
        return self.n_splits

    def split(self, X: Any, y: Any = None, groups: Any = None
              ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield ``(in_bag, out_of_bag)`` index pairs, ``n_splits`` of them."""
        n_samples = self._n_samples(X, y)
        if n_samples < 2:
            raise ValueError(f"the bootstrap needs at least 2 samples; got {n_samples}")
        rng = check_random_state(self.random_state)
        for _ in range(self.n_splits):
            yield bootstrap_sample(n_samples, random_state=rng)


# ---------------------------------------------------------------------------
# cross-validation
# ---------------------------------------------------------------------------


def _is_classifier(estimator: Any) -> bool:
    kind = getattr(estimator, "_estimator_type", None)
    if kind is None and hasattr(estimator, "__sklearn_tags__"):
        try:
            kind = estimator.__sklearn_tags__().estimator_type
        except Exception:  # pragma: no cover - scikit-learn missing or exotic tags
            kind = None
    return kind == "classifier"


def _is_class_labels(y: Any) -> bool:
    if y is None:
        return False
    y = np.asarray(y)
    if y.ndim != 1:
        return False
    if y.dtype.kind == "f":
        return bool(np.all(np.isfinite(y)) and np.all(np.mod(y, 1) == 0))
    return True


def _score_roc_auc(estimator, X, y):
    from .metrics import roc_auc_score

    if hasattr(estimator, "decision_function"):
        score = estimator.decision_function(X)
    else:
        score = estimator.predict_proba(X)[:, 1]
    return roc_auc_score(y, score)


def _make_scorer(scoring: Any) -> Callable:
    from . import metrics

    if scoring is None:
        return lambda est, X, y: est.score(X, y)
    if callable(scoring):
        return scoring
    scorers = {
        "accuracy": lambda est, X, y: metrics.accuracy_score(y, est.predict(X)),
        "neg_mean_squared_error":
            lambda est, X, y: -metrics.mean_squared_error(y, est.predict(X)),
        "r2": lambda est, X, y: metrics.r2_score(y, est.predict(X)),
        "f1": lambda est, X, y: metrics.f1_score(y, est.predict(X)),
        "roc_auc": _score_roc_auc,
    }
    if isinstance(scoring, str) and scoring in scorers:
        return scorers[scoring]
    raise ValueError(
        f"scoring must be None, a callable scorer(estimator, X, y) or one of "
        f"{sorted(scorers)}; got {scoring!r}"
    )


def cross_val_score(estimator: Any, X: Any, y: Any = None, *,
                    cv: int | Any | Iterable = 5, scoring: str | Callable | None = None,
                    random_state: Any = None) -> np.ndarray:
    r"""Cross-validated scores: fit a fresh copy on each training set, score it on the test set.

    Parameters
    ----------
    estimator : estimator with ``fit`` and ``get_params``
        Cloned for every split (:func:`mlbook.base.clone`), so it is never
        fitted itself; scikit-learn estimators work too.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), optional
    cv : int, splitter or iterable of (train, test) pairs, default=5
        An int :math:`k` means :class:`StratifiedKFold` for a classifier with
        class labels and :class:`KFold` otherwise (scikit-learn's rule); any
        object with ``split(X, y, groups)`` (ours or scikit-learn's), or a
        list of index pairs.
    scoring : None, str or callable
        None uses ``estimator.score``; a callable ``scorer(estimator, X, y)``
        returning a float; or one of "accuracy", "neg_mean_squared_error",
        "r2", "f1", "roc_auc" (the AUC of ``decision_function``, or of
        ``predict_proba[:, 1]`` when there is none).
    random_state : None, int or numpy Generator
        Only with an int ``cv``: if given, the folds are shuffled with it;
        if None they are not (and equal scikit-learn's).

    Returns
    -------
    scores : ndarray of shape (n_splits,)

    Notes
    -----
    :math:`k`-fold cross-validation reports the mean of the :math:`k` test
    scores, ``scores.mean()``; their spread shows how much the estimate
    depends on the split. See the chapter *Model evaluation and selection*.

    Examples
    --------
    >>> from mlbook.base import BaseEstimator, RegressorMixin
    >>> class Mean(RegressorMixin, BaseEstimator):
    ...     def fit(self, X, y):
    ...         self.mean_ = np.mean(y)
    ...         return self
    ...     def predict(self, X):
    ...         return np.full(len(X), self.mean_)
    >>> X, y = np.zeros((6, 1)), np.array([1.0, 1, 1, 3, 3, 3])
    >>> cross_val_score(Mean(), X, y, cv=2, scoring="neg_mean_squared_error").tolist()
    [-4.0, -4.0]
    """
    n_samples = _num_samples(X)
    if n_samples == 0:
        raise ValueError("X is empty (0 samples); cross-validation needs samples")
    if y is not None and _num_samples(y, "y") != n_samples:
        raise ValueError(f"X and y have different lengths: {n_samples} and {_num_samples(y, 'y')}")
    if not hasattr(estimator, "fit") or not hasattr(estimator, "get_params"):
        raise TypeError(
            f"estimator must have fit and get_params; got {type(estimator).__name__}"
        )
    scorer = _make_scorer(scoring)
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        shuffle = random_state is not None
        if _is_classifier(estimator) and _is_class_labels(y):
            splitter = StratifiedKFold(int(cv), shuffle=shuffle, random_state=random_state)
        else:
            splitter = KFold(int(cv), shuffle=shuffle, random_state=random_state)
        splits = splitter.split(X, y)
    elif hasattr(cv, "split") and not isinstance(cv, (str, bytes)):
        splits = cv.split(X, y, None)
    elif isinstance(cv, Iterable) and not isinstance(cv, (str, bytes)):
        splits = iter(cv)
    else:
        raise TypeError(
            f"cv must be an int, a splitter with split() or an iterable of (train, test) "
            f"index pairs; got {cv!r}"
        )
    scores = []
    for train, test in splits:
        model = clone(estimator)
        y_train = None if y is None else _take(y, train)
        model.fit(_take(X, train), y_train)
        y_test = None if y is None else _take(y, test)
        scores.append(float(scorer(model, _take(X, test), y_test)))
    if not scores:
        raise ValueError("cv produced no split")
    return np.asarray(scores)
