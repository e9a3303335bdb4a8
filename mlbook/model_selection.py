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
from typing import Any, Callable, Iterable, Iterator, NamedTuple

import numpy as np

from . import _distributions as _dist
from ._validation import (check_bool, check_labels, check_random_state, check_scalar,
                          check_vector, column_or_1d, encode_labels)
from .base import clone

__all__ = [
    "train_test_split",
    "KFold",
    "StratifiedKFold",
    "LeaveOneOut",
    "Bootstrap",
    "bootstrap_sample",
    "cross_val_score",
    # hypothesis tests for comparing learners and the bias-variance decomposition
    "binomial_test",
    "ttest_1samp",
    "paired_ttest_kfold",
    "paired_ttest_5x2cv",
    "corrected_resampled_ttest",
    "wilcoxon_signed_rank_test",
    "mcnemar_test",
    "friedman_test",
    "nemenyi_critical_difference",
    "bias_variance_decomposition",
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
    classes, y_idx = encode_labels(y)
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
    check_bool(shuffle, "shuffle")
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
    check_bool(shuffle, "shuffle")
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


# ---------------------------------------------------------------------------
# hypothesis tests for comparing learners (比较检验), Zhou section 2.4
# ---------------------------------------------------------------------------


class BinomialTestResult(NamedTuple):
    """Result of :func:`binomial_test`."""

    statistic: float        #: the test error rate :math:`\hat\epsilon = k/m`
    pvalue: float           #: :math:`P(X \ge k)` for :math:`X \sim \mathrm{Binomial}(m, \epsilon_0)`
    critical_value: float   #: :math:`\bar\epsilon`: reject at level alpha iff :math:`\hat\epsilon \ge \bar\epsilon`


class TTestResult(NamedTuple):
    """Result of the :math:`t`-tests (:func:`ttest_1samp`, :func:`paired_ttest_kfold`,
    :func:`paired_ttest_5x2cv`, :func:`corrected_resampled_ttest`)."""

    statistic: float        #: :math:`\tau_t`
    pvalue: float
    df: int                 #: degrees of freedom of the :math:`t` distribution


class WilcoxonResult(NamedTuple):
    """Result of :func:`wilcoxon_signed_rank_test`."""

    statistic: float        #: :math:`T = \min(T^+, T^-)`, the smaller of the two signed-rank sums
    pvalue: float           #: two-sided
    n: int                  #: the number of non-zero differences that were ranked
    method: str             #: ``"exact"`` or ``"approx"`` (normal approximation)


class McNemarResult(NamedTuple):
    """Result of :func:`mcnemar_test`."""

    statistic: float        #: :math:`\tau_{\chi^2}` (or, when ``exact``, the smaller of the two counts)
    pvalue: float
    a_wrong_b_right: int    #: samples learner A gets wrong and learner B right
    a_right_b_wrong: int    #: samples learner A gets right and learner B wrong


class FriedmanResult(NamedTuple):
    """Result of :func:`friedman_test`."""

    statistic: float        #: :math:`\tau_{\chi^2}`, approximately :math:`\chi^2_{k-1}`
    pvalue: float           #: from the :math:`\chi^2_{k-1}` distribution
    f_statistic: float      #: :math:`\tau_F`, approximately :math:`F(k-1, (k-1)(N-1))`
    f_pvalue: float         #: from the :math:`F` distribution
    average_ranks: np.ndarray  #: :math:`r_i`, shape (k,), rank 1 the best


class BiasVarianceResult(NamedTuple):
    """Result of :func:`bias_variance_decomposition` (each averaged over the test points)."""

    expected_error: float   #: :math:`E(f; D)`, the mean squared error against the observed labels
    bias2: float            #: :math:`\mathrm{bias}^2(\boldsymbol{x}) = (\bar f(\boldsymbol{x}) - y)^2`
    variance: float         #: :math:`\mathrm{var}(\boldsymbol{x}) = \mathbb{E}_D[(f(\boldsymbol{x}; D) - \bar f(\boldsymbol{x}))^2]`
    noise: float            #: :math:`\varepsilon^2 = \mathbb{E}_D[(y_D - y)^2]`


_ALTERNATIVES = ("two-sided", "less", "greater")


def _check_alternative(alternative: Any) -> str:
    if alternative not in _ALTERNATIVES:
        raise ValueError(f"alternative must be one of {_ALTERNATIVES}; got {alternative!r}")
    return alternative


def _check_alpha(alpha: Any) -> float:
    check_scalar(alpha, "alpha", numbers.Real, min_val=0.0, max_val=1.0,
                 include_min=False, include_max=False)
    return float(alpha)


def _t_pvalue(t: float, df: int, alternative: str) -> float:
    if alternative == "greater":
        return _dist.t_sf(t, df)
    if alternative == "less":
        return _dist.t_sf(-t, df)
    return min(1.0, 2.0 * _dist.t_sf(abs(t), df))


def binomial_test(n_errors: int, n_samples: int, epsilon0: float, *,
                  alpha: float = 0.05) -> BinomialTestResult:
    r"""Binomial test (二项检验) of one learner's error rate from a single test set.

    Tests :math:`H_0: \epsilon \le \epsilon_0` against :math:`H_1: \epsilon > \epsilon_0`,
    where :math:`\epsilon` is the generalisation error and the learner made
    ``n_errors`` mistakes on ``n_samples`` independent test samples.

    Parameters
    ----------
    n_errors : int
        :math:`k`, the number of misclassified test samples, ``0 <= k <= m``.
    n_samples : int
        :math:`m`, the size of the test set, ``m >= 1``.
    epsilon0 : float in [0, 1]
        The error rate of the null hypothesis.
    alpha : float in (0, 1), default=0.05
        The significance level (显著度), used for the critical value.

    Returns
    -------
    BinomialTestResult
        ``statistic`` the test error rate :math:`\hat\epsilon = k/m`;
        ``pvalue`` :math:`P(X \ge k)` for :math:`X \sim \mathrm{Binomial}(m, \epsilon_0)`;
        ``critical_value`` :math:`\bar\epsilon = c/m` for the smallest count
        :math:`c` with :math:`P(X \ge c) \le \alpha`. :math:`H_0` is rejected at
        level :math:`\alpha` exactly when :math:`\hat\epsilon \ge \bar\epsilon`,
        which is exactly when ``pvalue <= alpha``.

    Notes
    -----
    Under :math:`\epsilon = \epsilon_0` the number of mistakes is binomial,
    :math:`P(X = k) = \binom{m}{k}\epsilon_0^k (1-\epsilon_0)^{m-k}`, and a larger
    :math:`\epsilon` only makes many mistakes more likely, so the tail
    :math:`P(X \ge k)` at :math:`\epsilon_0` is the p-value of the composite
    :math:`H_0`. See the chapter *Comparing learners*; ``scipy.stats.binomtest``
    with ``alternative="greater"`` gives the same p-value.

    Examples
    --------
    >>> res = binomial_test(12, 50, 0.15)
    >>> round(res.statistic, 2), round(res.pvalue, 4), res.critical_value
    (0.24, 0.0628, 0.26)
    """
    for value, name in ((n_errors, "n_errors"), (n_samples, "n_samples")):
        check_scalar(value, name, numbers.Integral, min_val=0)
    if n_samples < 1:
        raise ValueError(f"n_samples must be >= 1; got {n_samples}")
    if n_errors > n_samples:
        raise ValueError(f"n_errors must be <= n_samples = {n_samples}; got {n_errors}")
    check_scalar(epsilon0, "epsilon0", numbers.Real, min_val=0.0, max_val=1.0)
    alpha = _check_alpha(alpha)
    k, m, e0 = int(n_errors), int(n_samples), float(epsilon0)
    pvalue = _dist.binom_sf(k - 1, m, e0)
    # smallest c with P(X >= c) <= alpha; P(X >= c) decreases in c, so bisect on c
    lo, hi = 0, m + 1                          # P(X >= m + 1) = 0 <= alpha
    while lo < hi:
        mid = (lo + hi) // 2
        if _dist.binom_sf(mid - 1, m, e0) <= alpha:
            hi = mid
        else:
            lo = mid + 1
    return BinomialTestResult(k / m, float(pvalue), lo / m)


def _no_spread(sd: float, *values: np.ndarray) -> bool:
    r"""True when a standard deviation is zero up to rounding.

    Equal values rarely give exactly 0: ``np.std([0.1] * 3)`` is about
    1.7e-17, and the differences ``[.3, .2, .1] - [.2, .1, 0]`` are not all
    equal in float64. A sum of :math:`k` numbers of size at most :math:`s`
    carries a rounding error of about :math:`k\,\epsilon\,s`
    (:math:`\epsilon` = 2.2e-16), so a spread below that is no spread: the
    t statistic would be rounding noise divided by rounding noise.
    """
    scale = max(float(np.max(np.abs(v))) for v in values)
    k = max(np.size(v) for v in values)
    return not sd > k * np.finfo(np.float64).eps * scale


def ttest_1samp(a: Any, popmean: float, *, alternative: str = "two-sided") -> TTestResult:
    r"""One-sample :math:`t`-test (t 检验) of the mean of :math:`k` error rates.

    With the error rates :math:`\hat\epsilon_1, \dots, \hat\epsilon_k` of one
    learner from :math:`k` repeated hold-out runs (or any :math:`k` roughly
    normal measurements), tests :math:`H_0: \mu = \epsilon_0`.

    Parameters
    ----------
    a : array-like of shape (k,)
        The measurements, :math:`k \ge 2`, not all equal.
    popmean : float
        :math:`\epsilon_0`, the mean under the null hypothesis.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The alternative hypothesis :math:`\mu \ne \epsilon_0`, :math:`\mu < \epsilon_0`
        or :math:`\mu > \epsilon_0`.

    Returns
    -------
    TTestResult
        ``statistic`` :math:`\tau_t`, ``pvalue``, ``df`` :math:`= k - 1`.

    Notes
    -----
    With :math:`\mu = \frac1k\sum_i \hat\epsilon_i` and
    :math:`\sigma^2 = \frac{1}{k-1}\sum_i (\hat\epsilon_i - \mu)^2`,

    .. math::
        \tau_t = \frac{\sqrt{k}\,(\mu - \epsilon_0)}{\sigma} \sim t_{k-1}

    under :math:`H_0` when the :math:`\hat\epsilon_i` are independent and normal.
    Same statistic and p-value as ``scipy.stats.ttest_1samp``. See the chapter
    *Comparing learners*.

    Examples
    --------
    >>> res = ttest_1samp([0.1, 0.12, 0.14, 0.11, 0.13], 0.1)
    >>> round(res.statistic, 4), round(res.pvalue, 4), res.df
    (2.8284, 0.0474, 4)
    """
    x = check_vector(a, "a", min_size=2)
    check_scalar(popmean, "popmean", numbers.Real)
    alternative = _check_alternative(alternative)
    k = x.shape[0]
    sd = x.std(ddof=1)
    if _no_spread(sd, x):
        raise ValueError("a has zero variance (all values equal); the t statistic is undefined")
    t = float(math.sqrt(k) * (x.mean() - float(popmean)) / sd)
    return TTestResult(t, float(_t_pvalue(t, k - 1, alternative)), k - 1)


def paired_ttest_kfold(errors_a: Any, errors_b: Any, *,
                       alternative: str = "two-sided") -> TTestResult:
    r"""Paired :math:`t`-test (成对 t 检验) of two learners over the same :math:`k` folds.

    Parameters
    ----------
    errors_a, errors_b : array-like of shape (k,)
        :math:`\epsilon^A_i` and :math:`\epsilon^B_i`, the test error rates of
        learners A and B on fold :math:`i` of one :math:`k`-fold
        cross-validation, **the same folds for both**.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The alternative for the mean difference :math:`\mu` of
        :math:`\Delta_i = \epsilon^A_i - \epsilon^B_i`.

    Returns
    -------
    TTestResult
        ``statistic`` :math:`\tau_t = \sqrt{k}\,\mu/\sigma`, ``pvalue``, ``df`` :math:`= k - 1`.

    Notes
    -----
    The one-sample :math:`t`-test of :func:`ttest_1samp` on the differences
    :math:`\Delta_i` with :math:`\epsilon_0 = 0`; the same as
    ``scipy.stats.ttest_rel(errors_a, errors_b)``. The training sets of the
    folds overlap, so the :math:`\Delta_i` are not independent and the test
    rejects :math:`H_0` too often (Dietterich 1998); :func:`paired_ttest_5x2cv`
    reduces the overlap. See the chapter *Comparing learners*.
    """
    a = check_vector(errors_a, "errors_a", min_size=2)
    b = check_vector(errors_b, "errors_b", min_size=2)
    if a.shape != b.shape:
        raise ValueError(f"errors_a and errors_b must have the same length (one error per fold); "
                         f"got {a.shape[0]} and {b.shape[0]}")
    d = a - b
    if _no_spread(d.std(ddof=1), a, b):
        raise ValueError("errors_a - errors_b has zero variance (the same difference on every "
                         "fold); the t statistic is undefined")
    return ttest_1samp(d, 0.0, alternative=alternative)


def paired_ttest_5x2cv(errors_a: Any, errors_b: Any, *, numerator: str = "first") -> TTestResult:
    r"""Dietterich's :math:`5 \times 2` cross-validated paired :math:`t`-test (two-sided).

    Parameters
    ----------
    errors_a, errors_b : array-like of shape (5, 2)
        Test error rates of learners A and B: row :math:`i` is the :math:`i`-th
        of five random 2-fold cross-validations, column :math:`j` its fold
        used for testing; both learners on the same folds.
    numerator : {"first", "mean", "scaled_mean"}, default="first"
        ``"first"``: the numerator is :math:`\Delta_1^1`, the difference on the
        first fold of the first replication, as in Dietterich (1998); under the
        test's idealised model (ten independent normal differences with a
        common variance) the statistic is not exactly :math:`t_5`, because
        :math:`\Delta_1^1` is not independent of :math:`\sigma_1^2`, and the
        test is conservative.
        ``"mean"``: the mean :math:`\bar\Delta_1 = \frac12(\Delta_1^1 + \Delta_1^2)` of the
        first replication, as written in Zhou's (2.32); under the same model
        this statistic is exactly :math:`t_5/\sqrt2`, so comparing it with
        :math:`t_5` is very conservative.
        ``"scaled_mean"``: :math:`\sqrt2\,\bar\Delta_1`; under the same model
        :math:`\bar\Delta_1` is independent of every :math:`\sigma_i^2` and the
        statistic is exactly :math:`t_5` (see the chapter).

    Returns
    -------
    TTestResult
        ``statistic`` :math:`\tau_t`, two-sided ``pvalue`` from :math:`t_5`, ``df`` = 5.

    Notes
    -----
    With :math:`\Delta_i^j = \epsilon^{A,j}_i - \epsilon^{B,j}_i`,
    :math:`\bar\Delta_i = \frac12(\Delta_i^1 + \Delta_i^2)` and
    :math:`\sigma_i^2 = (\Delta_i^1 - \bar\Delta_i)^2 + (\Delta_i^2 - \bar\Delta_i)^2`,

    .. math::
        \tau_t = \frac{\Delta_1^1}{\sqrt{\frac15 \sum_{i=1}^5 \sigma_i^2}} \;\approx\; t_5 .

    Each 2-fold split trains on disjoint halves, so the two differences of one
    replication share no training data. See the chapter *Comparing learners*.
    """
    if numerator not in ("first", "mean", "scaled_mean"):
        raise ValueError(f"numerator must be 'first', 'mean' or 'scaled_mean'; got {numerator!r}")
    arrays = []
    for value, name in ((errors_a, "errors_a"), (errors_b, "errors_b")):
        try:
            arr = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must contain numbers") from None
        if arr.shape != (5, 2):
            raise ValueError(f"{name} must have shape (5, 2) (five replications of 2-fold CV); "
                             f"got shape {arr.shape}")
        if not np.isfinite(arr).all():
            raise ValueError(f"{name} contains NaN or infinity")
        arrays.append(arr)
    d = arrays[0] - arrays[1]                              # Delta_i^j, shape (5, 2)
    var = np.sum((d - d.mean(axis=1, keepdims=True)) ** 2, axis=1)   # sigma_i^2, shape (5,)
    if _no_spread(math.sqrt(var.sum()), *arrays):
        raise ValueError("the differences errors_a - errors_b do not vary within any "
                         "replication; the 5x2cv t statistic is undefined")
    top = {"first": d[0, 0], "mean": d[0].mean(), "scaled_mean": math.sqrt(2.0) * d[0].mean()}[numerator]
    t = float(top / math.sqrt(var.mean()))
    return TTestResult(t, float(_t_pvalue(t, 5, "two-sided")), 5)


def corrected_resampled_ttest(scores_a: Any, scores_b: Any, n_train: int,
                              n_test: int) -> TTestResult:
    r"""Nadeau and Bengio's corrected resampled :math:`t`-test (two-sided).

    Compares two learners scored on the **same** :math:`J` train/test splits of
    one data set (repeated hold-out, or :math:`r` repetitions of :math:`k`-fold
    cross-validation, :math:`J = rk`).

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (J,)
        The score (or error) of learners A and B on split :math:`j`, the same
        splits for both, :math:`J \ge 2`.
    n_train, n_test : int >= 1
        :math:`n_1` and :math:`n_2`, the number of training and of test samples
        in one split (for :math:`k`-fold CV of :math:`m` samples,
        :math:`n_1 \approx m(k-1)/k` and :math:`n_2 \approx m/k`).

    Returns
    -------
    TTestResult
        ``statistic`` :math:`t`, two-sided ``pvalue`` from :math:`t_{J-1}`,
        ``df`` :math:`= J - 1`. A positive statistic means A scored higher.

    Notes
    -----
    With :math:`d_j = a_j - b_j`, :math:`\bar d = \frac1J\sum_j d_j` and
    :math:`\hat\sigma^2 = \frac1{J-1}\sum_j (d_j - \bar d)^2`,

    .. math::
        t = \frac{\bar d}{\sqrt{\left(\frac1J + \frac{n_2}{n_1}\right)\hat\sigma^2}}
        \;\approx\; t_{J-1}.

    The plain paired :math:`t`-test divides by :math:`\hat\sigma^2/J` as if the
    :math:`d_j` were independent. They are not: the splits share training and
    test samples, which correlates the :math:`d_j` (correlation
    :math:`\rho`), and then :math:`\operatorname{Var}\bar d =
    \mathbb{E}\,\hat\sigma^2\,\big(\frac1J + \frac{\rho}{1-\rho}\big)`. Nadeau and Bengio
    (2003) estimate :math:`\frac{\rho}{1-\rho}` by :math:`\frac{n_2}{n_1}`,
    which keeps the test's size near its nominal level where the plain test
    rejects a true :math:`H_0` far too often. The correction is a heuristic:
    it does not make the test exact. See the chapter *Comparing learners*.

    Examples
    --------
    >>> res = corrected_resampled_ttest([0.91, 0.93, 0.90, 0.94], [0.89, 0.92, 0.90, 0.91],
    ...                                 n_train=90, n_test=10)
    >>> round(res.statistic, 4), round(res.pvalue, 4), res.df
    (1.9335, 0.1487, 3)
    """
    a = check_vector(scores_a, "scores_a", min_size=2)
    b = check_vector(scores_b, "scores_b", min_size=2)
    if a.shape != b.shape:
        raise ValueError(f"scores_a and scores_b must have the same length (one score per split); "
                         f"got {a.shape[0]} and {b.shape[0]}")
    for value, name in ((n_train, "n_train"), (n_test, "n_test")):
        check_scalar(value, name, numbers.Integral, min_val=1)
    d = a - b
    var = d.var(ddof=1)
    if _no_spread(math.sqrt(var), a, b):
        raise ValueError("scores_a - scores_b has zero variance (the same difference on every "
                         "split); the t statistic is undefined")
    j = d.shape[0]
    t = float(d.mean() / math.sqrt((1.0 / j + int(n_test) / int(n_train)) * var))
    return TTestResult(t, float(_t_pvalue(t, j - 1, "two-sided")), j - 1)


def _signed_rank_counts(n: int) -> np.ndarray:
    """Number of subsets of {1, ..., n} with each sum 0..n(n+1)/2: the exact null of T+ times 2^n."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for r in range(1, n + 1):               # add rank r with a plus sign or a minus sign
        counts[r:] = counts[r:] + counts[:-r].copy()
    return counts


def wilcoxon_signed_rank_test(scores_a: Any, scores_b: Any, *,
                              method: str = "auto") -> WilcoxonResult:
    r"""Wilcoxon signed-rank test (Wilcoxon 符号秩检验) of two learners over :math:`N` data sets.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (N,)
        The score (or error) of learners A and B on data set :math:`i`, one
        number per data set, :math:`N \ge 1`.
    method : {"auto", "exact", "approx"}, default="auto"
        ``"exact"``: the exact null distribution of the signed-rank sum (valid
        only without ties among the :math:`|d_i|` and without zero
        differences: it raises a ``ValueError`` otherwise). ``"approx"``: the
        normal approximation with the tie correction. ``"auto"``: exact when
        there are no ties and no zeros and at most 50 non-zero differences,
        the approximation otherwise (as ``scipy.stats.wilcoxon`` with more
        than 13 differences; with ties or zeros among at most 13, SciPy's
        default enumerates the sign patterns instead).

    Returns
    -------
    WilcoxonResult
        ``statistic`` :math:`T = \min(T^+, T^-)`, two-sided ``pvalue``, ``n``
        the number of non-zero differences, and the ``method`` used.

    Notes
    -----
    With :math:`d_i = a_i - b_i`, the zero differences are dropped (Wilcoxon's
    rule, SciPy's default ``zero_method="wilcox"``), and the :math:`n`
    remaining :math:`|d_i|` are ranked 1 to :math:`n`, ties sharing their
    average rank. :math:`T^+` is the sum of the ranks of the positive
    differences and :math:`T^- = n(n+1)/2 - T^+`. Under :math:`H_0` (the
    differences are symmetric about zero) each rank carries a plus or a
    minus sign with probability :math:`\frac12`, independently, so without
    ties :math:`2^n P(T^+ = w)` is the number of subsets of
    :math:`\{1, \dots, n\}` with sum :math:`w`, counted by a recursion over the
    ranks; the two-sided p-value is :math:`\min(1, 2P(T^+ \le T))`. Otherwise

    .. math::
        z = \frac{T^+ - n(n+1)/4}{\sqrt{\frac{n(n+1)(2n+1)}{24} - \frac{\sum_g (t_g^3 - t_g)}{48}}},

    summed over the groups of :math:`t_g` tied :math:`|d_i|`, is compared with
    the standard normal (no continuity correction). Unlike the paired
    :math:`t`-test it needs neither normal differences nor commensurable
    scores across data sets (Demšar 2006). When every difference is zero
    there is no evidence either way: the statistic is 0 and the p-value 1.
    See the chapter *Comparing learners*.

    Examples
    --------
    Five differences 0.1, 0.2, -0.3, 0.4, 0.5 have ranks 1..5; the negative one
    has rank 3, so :math:`T = 3`, and 5 of the 32 sign patterns have
    :math:`T^+ \le 3`:

    >>> res = wilcoxon_signed_rank_test([1.1, 1.2, 0.7, 1.4, 1.5], [1, 1, 1, 1, 1])
    >>> res.statistic, res.pvalue, res.n, res.method
    (3.0, 0.3125, 5, 'exact')
    """
    a = check_vector(scores_a, "scores_a")
    b = check_vector(scores_b, "scores_b")
    if a.shape != b.shape:
        raise ValueError(f"scores_a and scores_b must have the same length (one score per data "
                         f"set); got {a.shape[0]} and {b.shape[0]}")
    if method not in ("auto", "exact", "approx"):
        raise ValueError(f"method must be 'auto', 'exact' or 'approx'; got {method!r}")
    d = a - b
    d = d[d != 0.0]                                  # Wilcoxon's rule: zero differences dropped
    n = d.shape[0]
    had_zeros = n < a.shape[0]
    if n == 0:
        if method == "exact":
            raise ValueError("every difference is zero; the exact test is undefined")
        return WilcoxonResult(0.0, 1.0, 0, "approx" if method == "approx" else "exact")
    ranks = _average_ranks(np.abs(d)[None, :])[0]    # 1..n, ties sharing their average rank
    t_plus = float(ranks[d > 0].sum())
    total = n * (n + 1) / 2.0
    stat = min(t_plus, total - t_plus)
    _, tie_sizes = np.unique(np.abs(d), return_counts=True)
    has_ties = bool(np.any(tie_sizes > 1))
    if method == "exact" and (has_ties or had_zeros):
        raise ValueError("the exact null distribution needs distinct, non-zero differences; "
                         "use method='approx' (or 'auto')")
    if method == "exact" or (method == "auto" and not has_ties and not had_zeros and n <= 50):
        counts = _signed_rank_counts(n)
        cdf = np.cumsum(counts) / 2.0**n             # P(T+ <= w), w = 0..n(n+1)/2
        pvalue = min(1.0, 2.0 * float(cdf[int(round(stat))]))
        return WilcoxonResult(stat, pvalue, n, "exact")
    var = n * (n + 1) * (2 * n + 1) / 24.0 - np.sum(tie_sizes**3 - tie_sizes) / 48.0
    if var <= 0.0:
        return WilcoxonResult(stat, 1.0, n, "approx")
    z = (t_plus - total / 2.0) / math.sqrt(var)
    pvalue = min(1.0, 2.0 * float(_dist.norm_cdf(-abs(z))))
    return WilcoxonResult(stat, pvalue, n, "approx")


def mcnemar_test(y_true: Any, y_pred_a: Any, y_pred_b: Any, *, correction: bool = True,
                 exact: bool = False) -> McNemarResult:
    r"""McNemar's test (McNemar 检验) of two classifiers on one test set.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        True labels of the test set.
    y_pred_a, y_pred_b : array-like of shape (m,)
        Predictions of learners A and B on the same samples.
    correction : bool, default=True
        Use the continuity correction :math:`|e_{01} - e_{10}| - 1` (as Zhou's
        (2.33)); ignored when ``exact``.
    exact : bool, default=False
        Use the exact binomial test instead of the :math:`\chi^2_1` approximation.

    Returns
    -------
    McNemarResult
        ``statistic``, two-sided ``pvalue``, and the two off-diagonal counts of
        the contingency table (列联表).

    Notes
    -----
    Only the samples on which the two learners disagree carry information.
    Let :math:`e_{01}` count the samples A gets wrong and B right, and
    :math:`e_{10}` the reverse. If the two learners are equally good, each
    disagreement goes either way with probability 1/2, so
    :math:`e_{01} \sim \mathrm{Binomial}(e_{01} + e_{10}, 1/2)` (the exact test),
    and approximately

    .. math::
        \tau_{\chi^2} = \frac{(|e_{01} - e_{10}| - 1)^2}{e_{01} + e_{10}} \sim \chi^2_1 .

    When the learners never disagree (:math:`e_{01} + e_{10} = 0`) there is no
    evidence either way: the statistic is 0 and the p-value 1. See the chapter
    *Comparing learners*.
    """
    check_bool(correction, "correction")
    check_bool(exact, "exact")

    t = check_labels(y_true, "y_true")
    pa = check_labels(y_pred_a, "y_pred_a")
    pb = check_labels(y_pred_b, "y_pred_b")
    if not (t.shape == pa.shape == pb.shape):
        raise ValueError(f"y_true, y_pred_a and y_pred_b must have the same length; "
                         f"got {t.shape[0]}, {pa.shape[0]} and {pb.shape[0]}")
    ok_a, ok_b = pa == t, pb == t
    e01 = int(np.sum(~ok_a & ok_b))
    e10 = int(np.sum(ok_a & ~ok_b))
    n = e01 + e10
    if n == 0:
        return McNemarResult(0.0, 1.0, e01, e10)
    if exact:
        small = min(e01, e10)
        pvalue = min(1.0, 2.0 * _dist.binom_cdf(small, n, 0.5))
        return McNemarResult(float(small), float(pvalue), e01, e10)
    diff = abs(e01 - e10) - (1.0 if correction else 0.0)
    stat = diff * diff / n
    return McNemarResult(float(stat), float(_dist.chi2_sf(stat, 1)), e01, e10)


def _average_ranks(scores: np.ndarray) -> np.ndarray:
    """Ranks 1..k within each row (smallest value rank 1), ties sharing their average rank."""
    less = (scores[:, None, :] < scores[:, :, None]).sum(axis=2)     # (N, k): how many are smaller
    equal = (scores[:, None, :] == scores[:, :, None]).sum(axis=2)   # including itself
    return less + (equal + 1) / 2.0


def friedman_test(scores: Any, *, greater_is_better: bool = False,
                  tie_correction: bool = False) -> FriedmanResult:
    r"""Friedman test (Friedman 检验) of :math:`k` learners on :math:`N` data sets.

    Parameters
    ----------
    scores : array-like of shape (N, k)
        The performance of learner :math:`j` on data set :math:`i` (error rates
        by default), or ranks directly; :math:`N \ge 2`, :math:`k \ge 2`.
    greater_is_better : bool, default=False
        False for errors (the smallest gets rank 1), True for accuracies.
    tie_correction : bool, default=False
        Divide :math:`\tau_{\chi^2}` by :math:`1 - \sum (t^3 - t)/(N k (k^2 - 1))`,
        summed over the groups of :math:`t` tied values, as
        ``scipy.stats.friedmanchisquare`` does. Zhou's (2.34) and Demšar (2006)
        use no correction.

    Returns
    -------
    FriedmanResult
        :math:`\tau_{\chi^2}` and its :math:`\chi^2_{k-1}` p-value,
        :math:`\tau_F` and its :math:`F(k-1, (k-1)(N-1))` p-value, and the
        average ranks :math:`r_i`.

    Notes
    -----
    On each data set the learners are ranked 1 (best) to :math:`k`, ties
    sharing the average of their ranks. Under the null hypothesis that all
    learners perform alike, the average rank :math:`r_i` of a learner has mean
    :math:`(k+1)/2` and variance :math:`(k^2-1)/(12N)`, and

    .. math::
        \tau_{\chi^2} &= \frac{12N}{k(k+1)}\left(\sum_{i=1}^k r_i^2 - \frac{k(k+1)^2}{4}\right)
        \;\approx\; \chi^2_{k-1},\\
        \tau_F &= \frac{(N-1)\,\tau_{\chi^2}}{N(k-1) - \tau_{\chi^2}} \;\approx\; F\big(k-1, (k-1)(N-1)\big).

    :math:`\tau_F` (Iman and Davenport) is less conservative than :math:`\tau_{\chi^2}`.
    When every learner has the same rank on every data set,
    :math:`\tau_{\chi^2} = N(k-1)` and :math:`\tau_F` is infinite (p-value 0).
    See the chapter *Comparing learners*.

    Examples
    --------
    Zhou's table 2.5 (ranks of three algorithms on four data sets):

    >>> res = friedman_test([[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]])
    >>> res.average_ranks.tolist(), round(res.statistic, 3), round(res.f_statistic, 3)
    ([1.0, 2.125, 2.875], 7.125, 24.429)
    """
    check_bool(greater_is_better, "greater_is_better")
    check_bool(tie_correction, "tie_correction")
    try:
        s = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("scores must contain numbers") from None
    if s.ndim != 2:
        raise ValueError(f"scores must be a 2-d array of shape (n_datasets, n_learners); "
                         f"got shape {s.shape}")
    n, k = s.shape
    if n < 2 or k < 2:
        raise ValueError(f"scores needs at least 2 data sets (rows) and 2 learners (columns); "
                         f"got shape {s.shape}")
    if not np.isfinite(s).all():
        raise ValueError("scores contains NaN or infinity")
    ranks = _average_ranks(-s if greater_is_better else s)
    r = ranks.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(float(chi2), 0.0)
    if tie_correction:
        # a group of t tied values in a row contributes t^3 - t; each member sees `equal` = t
        equal = (s[:, None, :] == s[:, :, None]).sum(axis=2)
        ties = np.sum(equal**2 - 1.0)          # sum over members of t^2 - 1 = sum over groups of t^3 - t
        c = 1.0 - ties / (n * k * (k * k - 1))
        if c <= 0:
            raise ValueError("scores: every row is one tie; the tie-corrected statistic is undefined")
        chi2 /= c
    pvalue = _dist.chi2_sf(chi2, k - 1)
    den = n * (k - 1) - chi2
    if den <= 1e-12 * n * (k - 1):
        f_stat, f_p = math.inf, 0.0
    else:
        f_stat = (n - 1) * chi2 / den
        f_p = _dist.f_sf(f_stat, k - 1, (k - 1) * (n - 1))
    return FriedmanResult(float(chi2), float(pvalue), float(f_stat), float(f_p), r)


def nemenyi_critical_difference(n_learners: int, n_datasets: int, *, alpha: float = 0.05) -> float:
    r"""Critical difference (临界值域) of the Nemenyi post-hoc test (Nemenyi 后续检验).

    Two learners differ significantly at level ``alpha`` when their average
    ranks (from :func:`friedman_test`) differ by more than

    .. math::
        \mathrm{CD} = q_\alpha \sqrt{\frac{k(k+1)}{6N}},

    where :math:`q_\alpha` is the upper-:math:`\alpha` quantile of the range of
    :math:`k` independent standard normal variables divided by :math:`\sqrt2`
    (Demšar 2006, table 5(a); Zhou's table 2.7).

    Parameters
    ----------
    n_learners : int
        :math:`k \ge 2`.
    n_datasets : int
        :math:`N \ge 1`.
    alpha : float in (0, 1), default=0.05

    Returns
    -------
    cd : float

    Notes
    -----
    :math:`q_\alpha` is computed, not read from a table:
    ``mlbook._distributions.studentized_range_ppf`` integrates the range
    distribution numerically. See the chapter *Comparing learners*.

    Examples
    --------
    >>> round(nemenyi_critical_difference(3, 4), 3)     # Zhou's example: CD = 1.657
    1.657
    """
    check_scalar(n_learners, "n_learners", numbers.Integral, min_val=2)
    check_scalar(n_datasets, "n_datasets", numbers.Integral, min_val=1)
    alpha = _check_alpha(alpha)
    k, n = int(n_learners), int(n_datasets)
    q_alpha = _dist.studentized_range_ppf(1.0 - alpha, k) / math.sqrt(2.0)
    return q_alpha * math.sqrt(k * (k + 1) / (6.0 * n))


# ---------------------------------------------------------------------------
# bias-variance decomposition (偏差-方差分解), Zhou section 2.5
# ---------------------------------------------------------------------------


def bias_variance_decomposition(y_pred: Any, y_true: Any, *, y_observed: Any = None,
                                unbiased: bool = False) -> BiasVarianceResult:
    r"""Bias-variance decomposition of the squared error, from repeated training sets.

    Parameters
    ----------
    y_pred : array-like of shape (n_rounds, n_points)
        :math:`f(\boldsymbol{x}_j; D_r)`: the predictions at ``n_points`` fixed
        test inputs of models trained on ``n_rounds`` independent training
        sets :math:`D_r` drawn from the same distribution (``n_rounds >= 2``).
    y_true : array-like of shape (n_points,)
        :math:`y`, the true (noise-free) target at each test input.
    y_observed : array-like of shape (n_rounds, n_points) or (n_points,), optional
        :math:`y_D`, the observed (noisy) labels of the test inputs: one per
        round, or the same for all rounds. When absent, the noise is 0 and the
        expected error is measured against ``y_true``.
    unbiased : bool, default=False
        False: the plug-in estimates, :math:`(\hat f - y)^2` with
        :math:`\hat f` the mean of the :math:`R` = ``n_rounds`` predictions, and
        the variance with divisor :math:`R`. True: estimates whose expectations
        are bias² and var exactly, :math:`s^2` with divisor :math:`R - 1` and
        :math:`(\hat f - y)^2 - s^2/R` (which can be negative when the true
        bias² is small).

    Returns
    -------
    BiasVarianceResult
        ``expected_error`` :math:`\frac{1}{n}\sum_j \mathbb{E}_D[(f(\boldsymbol{x}_j; D) - y_D)^2]`,
        ``bias2``, ``variance`` and ``noise``, each averaged over the test inputs
        and, for the expectations over :math:`D`, over the rounds.

    Notes
    -----
    With :math:`\bar f(\boldsymbol{x}) = \mathbb{E}_D[f(\boldsymbol{x}; D)]`,

    .. math::
        \mathbb{E}_D\big[(f(\boldsymbol{x}; D) - y_D)^2\big]
        = \underbrace{(\bar f(\boldsymbol{x}) - y)^2}_{\mathrm{bias}^2}
        + \underbrace{\mathbb{E}_D\big[(f(\boldsymbol{x}; D) - \bar f(\boldsymbol{x}))^2\big]}_{\mathrm{var}}
        + \underbrace{\mathbb{E}_D\big[(y_D - y)^2\big]}_{\varepsilon^2}

    when the noise :math:`y_D - y` has mean zero and is independent of the
    training set. Estimated from :math:`R` = ``n_rounds`` samples, the plug-in
    :math:`(\hat f - y)^2` has expectation :math:`\mathrm{bias}^2 + \mathrm{var}/R`,
    not :math:`\mathrm{bias}^2`: for a flexible learner (small bias, large
    variance) it is mostly :math:`\mathrm{var}/R`. ``unbiased=True`` subtracts
    :math:`s^2/R`. Either way bias² and variance add up to the error against
    ``y_true`` exactly (the two corrections cancel); with ``y_observed`` the
    identity holds up to the two sample cross terms, which vanish in
    expectation. See the chapter *Comparing learners*.

    Examples
    --------
    >>> res = bias_variance_decomposition([[1.0, 2.0], [3.0, 2.0]], [1.0, 1.0])
    >>> res.bias2, res.variance, res.expected_error
    (1.0, 0.5, 1.5)
    """
    check_bool(unbiased, "unbiased")
    try:
        f = np.asarray(y_pred, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("y_pred must contain numbers") from None
    if f.ndim != 2 or f.shape[0] < 2 or f.shape[1] < 1:
        raise ValueError(f"y_pred must have shape (n_rounds, n_points) with n_rounds >= 2; "
                         f"got shape {f.shape}")
    y = check_vector(y_true, "y_true")
    if y.shape[0] != f.shape[1]:
        raise ValueError(f"y_true must have one value per test point (y_pred.shape[1] = "
                         f"{f.shape[1]}); got {y.shape[0]}")
    if not np.isfinite(f).all():
        raise ValueError("y_pred contains NaN or infinity")
    f_bar = f.mean(axis=0)
    bias2 = float(np.mean((f_bar - y) ** 2))
    variance = float(np.mean((f - f_bar) ** 2))
    if unbiased:
        r = f.shape[0]
        variance *= r / (r - 1.0)                    # s^2, divisor R - 1
        bias2 -= variance / r                        # E[(f_bar - y)^2] = bias^2 + var / R
    if y_observed is None:
        return BiasVarianceResult(float(np.mean((f - y) ** 2)), bias2, variance, 0.0)
    try:
        y_d = np.asarray(y_observed, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("y_observed must contain numbers") from None
    if y_d.shape not in (f.shape, y.shape):
        raise ValueError(f"y_observed must have shape {f.shape} or {y.shape}; got {y_d.shape}")
    if not np.isfinite(y_d).all():
        raise ValueError("y_observed contains NaN or infinity")
    y_d = np.broadcast_to(y_d, f.shape)
    noise = float(np.mean((y_d - y) ** 2))
    return BiasVarianceResult(float(np.mean((f - y_d) ** 2)), bias2, variance, noise)
