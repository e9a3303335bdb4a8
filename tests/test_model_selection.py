"""mlbook.model_selection: splits against scikit-learn, properties, cross_val_score, bad input."""

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlbook.base import BaseEstimator, ClassifierMixin, clone
from mlbook.model_selection import (
    Bootstrap,
    KFold,
    LeaveOneOut,
    StratifiedKFold,
    bias_variance_decomposition,
    bootstrap_sample,
    cross_val_score,
    train_test_split,
)
from input_data import binary
from mlbook.linear_model import LinearRegression

sk_ms = pytest.importorskip("sklearn.model_selection")

SEEDS = [0, 1, 2]


def folds(splitter, X, y=None):
    return [(tr.tolist(), te.tolist()) for tr, te in splitter.split(X, y)]


def random_classes(seed, n, n_classes):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    y[: 5 * n_classes] = np.repeat(np.arange(n_classes), 5)  # >= 5 of each class
    return rng.permutation(y)


# ---------------------------------------------------------------------------
# splitters
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n,k", [(2, 2), (7, 3), (10, 5), (23, 4), (100, 10), (9, 9)])
def test_kfold_equals_sklearn_without_shuffle(n, k):
    X = np.zeros((n, 2))
    assert folds(KFold(k), X) == folds(sk_ms.KFold(k), X)
    assert KFold(k).get_n_splits() == k


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 60), st.integers(2, 10), st.booleans(), st.integers(0, 1000))
def test_kfold_test_folds_partition_the_samples(n, k, shuffle, seed):
    k = min(k, n)
    splitter = KFold(k, shuffle=shuffle, random_state=seed if shuffle else None)
    tests = [te for _, te in splitter.split(np.zeros(n))]
    assert len(tests) == k
    assert np.array_equal(np.sort(np.concatenate(tests)), np.arange(n))
    sizes = [len(t) for t in tests]
    assert max(sizes) - min(sizes) <= 1
    for tr, te in splitter.split(np.zeros(n)):
        assert np.array_equal(np.sort(np.r_[tr, te]), np.arange(n))


def test_kfold_shuffle_is_reproducible_and_random():
    X = np.zeros(30)
    a = folds(KFold(3, shuffle=True, random_state=7), X)
    assert a == folds(KFold(3, shuffle=True, random_state=7), X)
    assert a != folds(KFold(3), X)


@pytest.mark.parametrize("seed,n,c,k", [(s, n, c, k) for s in SEEDS for n, c, k in
                                        [(30, 2, 3), (57, 3, 5), (101, 4, 5), (200, 5, 10)]])
def test_stratified_kfold_equals_sklearn_without_shuffle(seed, n, c, k):
    y = random_classes(seed, n, c)
    X = np.zeros((n, 1))
    assert folds(StratifiedKFold(k), X, y) == folds(sk_ms.StratifiedKFold(k), X, y)
    # string labels: the same folds (classes are ordered by first appearance)
    names = np.array(["x", "a", "m", "b", "z"])[y]
    assert folds(StratifiedKFold(k), X, names) == folds(sk_ms.StratifiedKFold(k), X, names)


@pytest.mark.parametrize("seed,n,c,k", [(s, n, c, k) for s in SEEDS for n, c, k in
                                        [(30, 2, 3), (57, 3, 5), (200, 5, 10)]])
def test_stratified_kfold_shuffled_keeps_class_proportions(seed, n, c, k):
    y = random_classes(seed, n, c)
    splitter = StratifiedKFold(k, shuffle=True, random_state=seed)
    tests = [te for _, te in splitter.split(np.zeros(n), y)]
    assert np.array_equal(np.sort(np.concatenate(tests)), np.arange(n))
    counts = np.bincount(y, minlength=c)
    for te in tests:
        per_class = np.bincount(y[te], minlength=c)
        # each fold holds floor or ceil of count/k samples of every class
        assert np.all(np.abs(per_class - counts / k) < 1)
    assert folds(splitter, np.zeros(n), y) == folds(
        StratifiedKFold(k, shuffle=True, random_state=seed), np.zeros(n), y)


def test_leave_one_out_equals_sklearn():
    X = np.zeros((6, 2))
    assert folds(LeaveOneOut(), X) == folds(sk_ms.LeaveOneOut(), X)
    assert LeaveOneOut().get_n_splits(X) == 6


@pytest.mark.parametrize("n", [2, 5, 50])
def test_bootstrap_in_bag_and_out_of_bag(n):
    splits = list(Bootstrap(20, random_state=3).split(np.zeros(n)))
    assert len(splits) == 20 == Bootstrap(20).get_n_splits()
    for in_bag, oob in splits:
        assert in_bag.shape == (n,) and in_bag.min() >= 0 and in_bag.max() < n
        # out of bag = exactly the samples never drawn
        assert np.array_equal(oob, np.setdiff1d(np.arange(n), in_bag))
    again = list(Bootstrap(20, random_state=3).split(np.zeros(n)))
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(splits, again))


def test_bootstrap_out_of_bag_fraction_is_about_one_over_e():
    n = 1000
    rng = np.random.default_rng(0)
    frac = np.mean([len(bootstrap_sample(n, random_state=rng)[1]) / n for _ in range(200)])
    # expected (1 - 1/n)^n = 0.3677; the per-draw sd is about 0.01, so the mean
    # of 200 draws has sd below 0.001: 0.005 is five standard deviations
    assert abs(frac - (1 - 1 / n) ** n) < 0.005


# ---------------------------------------------------------------------------
# train_test_split
# ---------------------------------------------------------------------------


SIZE_CASES = [(None, None), (0.3, None), (None, 0.6), (0.2, 0.5), (7, None), (None, 11),
              (5, 20), (0.33, None), (0.1, 0.9)]


@pytest.mark.parametrize("n", [10, 37, 100])
@pytest.mark.parametrize("test_size,train_size", SIZE_CASES)
def test_split_sizes_match_sklearn(n, test_size, train_size):
    if (isinstance(train_size, int) and train_size >= n) or \
            (isinstance(test_size, int) and test_size >= n):
        pytest.skip("size larger than the data")
    X = np.arange(2 * n).reshape(n, 2)
    try:
        expected = sk_ms.train_test_split(X, test_size=test_size, train_size=train_size,
                                          random_state=0)
    except ValueError:
        with pytest.raises(ValueError):
            train_test_split(X, test_size=test_size, train_size=train_size, random_state=0)
        return
    ours = train_test_split(X, test_size=test_size, train_size=train_size, random_state=0)
    assert [a.shape for a in ours] == [a.shape for a in expected]
    # without shuffling the split is deterministic and identical
    ours = train_test_split(X, test_size=test_size, train_size=train_size, shuffle=False)
    theirs = sk_ms.train_test_split(X, test_size=test_size, train_size=train_size, shuffle=False)
    assert all(np.array_equal(a, b) for a, b in zip(ours, theirs))


@pytest.mark.parametrize("seed", SEEDS)
def test_split_keeps_rows_aligned_and_disjoint(seed):
    n = 50
    X = np.arange(n * 3).reshape(n, 3)
    y = np.arange(n) * 10
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=seed)
    assert np.array_equal(X_tr[:, 0] // 3 * 10, y_tr) and np.array_equal(X_te[:, 0] // 3 * 10, y_te)
    assert np.array_equal(np.sort(np.r_[y_tr, y_te]), y)
    again = train_test_split(X, y, test_size=0.2, random_state=seed)
    assert np.array_equal(again[3], y_te)


@pytest.mark.parametrize("seed,n,c", [(s, n, c) for s in SEEDS for n, c in
                                      [(20, 2), (57, 3), (101, 4), (300, 5)]])
@pytest.mark.parametrize("test_size", [0.25, 0.4, 13])
def test_stratified_split_keeps_class_proportions(seed, n, c, test_size):
    y = random_classes(seed, n, c)
    X = np.arange(n)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=test_size, stratify=y,
                                              random_state=seed)
    assert np.array_equal(y[X_tr], y_tr) and np.array_equal(y[X_te], y_te)
    counts = np.bincount(y, minlength=c)
    for part in (y_tr, y_te):
        exact = len(part) * counts / n
        assert np.all(np.abs(np.bincount(part, minlength=c) - exact) < 1)
    assert len(y_te) == len(sk_ms.train_test_split(X, test_size=test_size, stratify=y)[1])


# ---------------------------------------------------------------------------
# cross_val_score
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def iris_like():
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=120, n_features=5, n_informative=3, n_classes=2,
                               random_state=0)
    return X, y


@pytest.mark.parametrize("scoring", [None, "accuracy", "f1", "roc_auc",
                                     "neg_mean_squared_error"])
def test_cross_val_score_equals_sklearn_for_a_classifier(iris_like, scoring):
    from sklearn.linear_model import LogisticRegression

    X, y = iris_like
    est = LogisticRegression(C=0.5)
    for cv in (5, KFold(4), [(np.arange(60), np.arange(60, 120))]):
        theirs = sk_ms.cross_val_score(est, X, y, cv=cv, scoring=scoring)
        ours = cross_val_score(est, X, y, cv=cv, scoring=scoring)
        # 1e-12: the same splits and the same fits; the metrics are identical arithmetic
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    assert not hasattr(est, "coef_")  # the estimator itself is never fitted


def test_cross_val_score_roc_auc_with_predict_proba(iris_like):
    from sklearn.tree import DecisionTreeClassifier

    X, y = iris_like
    est = DecisionTreeClassifier(max_depth=2, random_state=0)  # no decision_function
    np.testing.assert_allclose(cross_val_score(est, X, y, cv=3, scoring="roc_auc"),
                               sk_ms.cross_val_score(est, X, y, cv=3, scoring="roc_auc"),
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("scoring", [None, "r2", "neg_mean_squared_error"])
def test_cross_val_score_equals_sklearn_for_a_regressor(scoring):
    from sklearn.linear_model import Ridge

    rng = np.random.default_rng(0)
    X = rng.normal(size=(53, 4))
    y = X @ rng.normal(size=4) + rng.normal(size=53)
    # leave-one-out only with the MSE: R^2 is undefined on a single test sample
    for cv in (3, 6, LeaveOneOut() if scoring == "neg_mean_squared_error" else KFold(5)):
        np.testing.assert_allclose(cross_val_score(Ridge(alpha=1.0), X, y, cv=cv, scoring=scoring),
                                   sk_ms.cross_val_score(Ridge(alpha=1.0), X, y, cv=cv,
                                                         scoring=scoring),
                                   rtol=0, atol=1e-12)


def test_our_splitters_work_in_sklearn_cross_val_score(iris_like):
    from sklearn.linear_model import LogisticRegression

    X, y = iris_like
    est = LogisticRegression()
    for cv in (KFold(4, shuffle=True, random_state=0), StratifiedKFold(3),
               Bootstrap(5, random_state=0)):
        np.testing.assert_allclose(cross_val_score(est, X, y, cv=cv),
                                   sk_ms.cross_val_score(est, X, y, cv=cv), rtol=0, atol=1e-12)
    assert len(sk_ms.cross_val_score(est, X[:30], y[:30], cv=LeaveOneOut())) == 30


class Majority(ClassifierMixin, BaseEstimator):
    def __init__(self, offset=0):
        self.offset = offset

    def fit(self, X, y):
        values, counts = np.unique(y, return_counts=True)
        self.majority_ = values[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


def test_cross_val_score_int_cv_stratifies_for_classifiers():
    X = np.zeros((20, 1))
    y = np.array([0] * 12 + [1] * 8)
    # stratified: every test fold has 3 zeros and 2 ones, majority 0 -> 3/5
    np.testing.assert_allclose(cross_val_score(Majority(), X, y, cv=4), 0.6, rtol=0, atol=1e-12)
    # a callable scorer and a shuffled int cv
    scores = cross_val_score(Majority(), X, y, cv=4, random_state=0,
                             scoring=lambda est, X, y: float(len(y)))
    assert scores.tolist() == [5.0] * 4


def test_clone_gives_unfitted_copy():
    est = Majority(offset=[1, 2]).fit(np.zeros((3, 1)), [0, 0, 1])
    twin = clone(est)
    assert twin.get_params() == est.get_params() and not hasattr(twin, "majority_")
    assert twin.offset is not est.offset  # deep-copied parameter
    with pytest.raises(TypeError, match="not an estimator"):
        clone(42)


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [KFold, StratifiedKFold])
def test_n_splits_below_two(cls):
    with pytest.raises(ValueError, match="n_splits must be >= 2; got 1"):
        cls(1)
    with pytest.raises(TypeError, match="n_splits must be of type Integral"):
        cls(2.5)


def test_n_splits_larger_than_n_samples():
    with pytest.raises(ValueError, match="n_splits=5 is greater than the number of samples"):
        list(KFold(5).split(np.zeros(3)))
    with pytest.raises(ValueError, match="n_splits=5 is greater than the number of samples"):
        list(StratifiedKFold(5).split(np.zeros(3), [0, 1, 0]))
    with pytest.raises(ValueError, match="leave-one-out needs at least 2 samples"):
        list(LeaveOneOut().split(np.zeros(1)))


def test_empty_arrays():
    with pytest.raises(ValueError, match=r"the arrays are empty \(0 samples\)"):
        train_test_split(np.zeros((0, 2)), np.zeros(0))
    for splitter in (KFold(2), LeaveOneOut(), Bootstrap(3)):
        with pytest.raises(ValueError, match=r"X is empty \(0 samples\)"):
            list(splitter.split(np.zeros((0, 2))))
    with pytest.raises(ValueError, match=r"X is empty \(0 samples\)"):
        list(StratifiedKFold(2).split(np.zeros((0, 2)), np.zeros(0)))
    with pytest.raises(ValueError, match=r"X is empty \(0 samples\)"):
        cross_val_score(Majority(), np.zeros((0, 1)), np.zeros(0), cv=2)
    with pytest.raises(ValueError, match="n_samples must be >= 2; got 0"):
        bootstrap_sample(0)


def test_stratified_kfold_and_small_classes():
    y = np.array([0] * 3 + [1] * 10)
    with pytest.warns(UserWarning, match="smallest class in y has only 3 samples"):
        tests = [te for _, te in StratifiedKFold(4).split(np.zeros(13), y)]
    assert sum(len(t) for t in tests) == 13
    with pytest.raises(ValueError, match="greater than the number of samples of every class"):
        list(StratifiedKFold(6).split(np.zeros(10), [0] * 5 + [1] * 5))
    with pytest.raises(TypeError, match="needs the class labels y"):
        list(StratifiedKFold(2).split(np.zeros(10)))


@pytest.mark.parametrize("kwargs,match", [
    ({"test_size": 0.0}, r"test_size=0.0 must be a float in \(0, 1\)"),
    ({"test_size": 1.5}, r"test_size=1.5 must be a float in \(0, 1\)"),
    ({"test_size": 0}, r"test_size=0 must be a count in \[1, 9\]"),
    ({"test_size": 10}, r"test_size=10 must be a count in \[1, 9\]"),
    ({"train_size": -0.2}, r"train_size=-0.2 must be a float in \(0, 1\)"),
    ({"test_size": 0.6, "train_size": 0.6}, "must be at most 1"),
    ({"test_size": 6, "train_size": 6}, "more than the 10 available"),
    ({"test_size": 0.01}, None),  # ceil(0.1) = 1 test sample: fine
])
def test_test_size_out_of_range(kwargs, match):
    X = np.zeros((10, 2))
    if match is None:
        assert len(train_test_split(X, **kwargs)[1]) == 1
        return
    with pytest.raises(ValueError, match=match):
        train_test_split(X, **kwargs)


def test_size_of_wrong_type():
    with pytest.raises(TypeError, match="test_size must be a float in"):
        train_test_split(np.zeros(10), test_size="half")


def test_stratify_with_a_class_of_one_sample():
    y = np.array([0, 0, 0, 1, 1, 1, 2])
    with pytest.raises(ValueError, match="stratify: class 2 has a single sample"):
        train_test_split(np.zeros(7), stratify=y, test_size=3)
    with pytest.raises(ValueError, match="stratify needs shuffle=True"):
        train_test_split(np.zeros(7), stratify=y, shuffle=False)
    with pytest.raises(ValueError, match="test set has 2 samples, fewer than the 3 classes"):
        train_test_split(np.zeros(12), stratify=np.repeat([0, 1, 2], 4), test_size=2)


def test_lengths_differ():
    with pytest.raises(ValueError, match=r"the arrays have different lengths: \[4, 3\]"):
        train_test_split(np.zeros(4), np.zeros(3))
    with pytest.raises(ValueError, match="stratify has 3 entries, but the arrays have 4"):
        train_test_split(np.zeros(4), stratify=[0, 1, 0])
    with pytest.raises(ValueError, match="X and y have different lengths: 4 and 3"):
        list(KFold(2).split(np.zeros(4), np.zeros(3)))
    with pytest.raises(ValueError, match="X and y have different lengths: 4 and 3"):
        cross_val_score(Majority(), np.zeros((4, 1)), [0, 1, 0], cv=2)


def test_other_bad_input():
    with pytest.raises(ValueError, match="random_state has no effect when shuffle=False"):
        KFold(3, random_state=0)
    with pytest.raises(ValueError, match="scoring must be None, a callable"):
        cross_val_score(Majority(), np.zeros((4, 1)), [0, 1, 0, 1], cv=2, scoring="auc")
    with pytest.raises(TypeError, match="cv must be an int, a splitter"):
        cross_val_score(Majority(), np.zeros((4, 1)), [0, 1, 0, 1], cv=2.5)
    with pytest.raises(TypeError, match="estimator must have fit and get_params"):
        cross_val_score(object(), np.zeros((4, 1)), [0, 1, 0, 1], cv=2)
    with pytest.raises(ValueError, match="n_samples must be >= 2"):
        bootstrap_sample(1)


def test_splitters_need_no_warnings_for_ordinary_input():
    y = random_classes(0, 60, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        list(StratifiedKFold(5).split(np.zeros(60), y))
        train_test_split(np.zeros(60), stratify=y, random_state=0)


def test_iterables_of_splits_and_product_check():
    cv = [(np.array([0, 1, 2]), np.array([3])), (np.array([1, 2, 3]), np.array([0]))]
    scores = cross_val_score(Majority(), np.zeros((4, 1)), np.array([0, 0, 0, 1]), cv=cv)
    assert scores.tolist() == [0.0, 1.0]
    assert list(itertools.islice(KFold(2).split(np.zeros(4)), 1))


@pytest.mark.parametrize("call", [
    lambda v: train_test_split(np.arange(10), shuffle=v, random_state=0 if v else None),
    lambda v: KFold(3, shuffle=v, random_state=0 if v else None).split(np.zeros((6, 1))),
    lambda v: bias_variance_decomposition([[1.0, 2.0], [3.0, 2.0]], [1.0, 1.0], unbiased=v),
])
def test_bool_parameters_take_numpy_bools_and_refuse_strings(call):
    call(np.True_)
    call(np.False_)
    with pytest.raises(TypeError, match="must be True or False"):
        list(call("no"))


# --- bad and extreme input ----------------------------------------------------

def test_cross_val_score_rejects_a_string_cv():
    # guards against: "split() takes at most 2 arguments (3 given)"
    X, y = binary(20, 2)
    with pytest.raises(TypeError, match="cv must be an int, a splitter .* got 'foo'"):
        cross_val_score(LinearRegression(), X, y, cv="foo")

