"""Tests of mlbook.tree.DecisionTreeRegressor: the squared-error regression tree
against a brute-force split search and against scikit-learn's CART, the sort-once
grower shared with gradient boosting, randomised features, and bad input."""

from __future__ import annotations

import numpy as np

import pytest

from mlbook.exceptions import NotFittedError
from mlbook.tree import DecisionTreeClassifier, DecisionTreeRegressor, LevelwiseGrower

# Leaf values are weighted means summed in another order than scikit-learn's
# (bincount against its running sums): they agree to a few ulp of the targets,
# which lie within 10 here, so 1e-10 is far above rounding and far below any
# difference a wrong split or a wrong mean would make (>= 1e-3 on these data).
LEAF = 1e-10


def _data(rng, n, d):
    """Continuous features and targets: no two equal values, so no tied thresholds."""
    X = rng.normal(size=(n, d))
    y = X[:, 0] ** 2 + np.sin(3 * X[:, -1]) + 0.3 * rng.normal(size=n)
    return X, y


def _same_partition(ours_leaf, their_leaf):
    """Whether two leaf labellings of the same samples group them identically."""
    pairs = np.unique(np.column_stack([ours_leaf, their_leaf]), axis=0)
    return (pairs.shape[0] == np.unique(ours_leaf).shape[0]
            == np.unique(their_leaf).shape[0])


def _brute_force_root(X, y, w):
    """The best root split by rescanning every threshold (the definition)."""
    best = (np.inf, None, None)
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for t in (values[:-1] + values[1:]) / 2:
            left = X[:, j] <= t
            sse = sum(np.sum(w[m] * (y[m] - np.average(y[m], weights=w[m])) ** 2)
                      for m in (left, ~left))
            if sse < best[0] - 1e-12:
                best = (sse, j, t)
    return best


# --------------------------------------------------------------------------
# the split search and the tree's attributes
# --------------------------------------------------------------------------

@pytest.mark.parametrize("weighted", [False, True])
def test_root_split_is_the_brute_force_best(weighted):
    rng = np.random.default_rng(3)
    X, y = _data(rng, 60, 3)
    w = rng.uniform(0.2, 3.0, size=60) if weighted else np.ones(60)
    sse, j, t = _brute_force_root(X, y, w)
    tree = DecisionTreeRegressor(max_depth=1).fit(X, y, sample_weight=w if weighted else None)
    assert tree.tree_.feature == j
    assert tree.tree_.threshold == pytest.approx(t, rel=0, abs=1e-12)
    left, right = tree.tree_.children
    got = left.weight * left.impurity + right.weight * right.impurity
    assert got == pytest.approx(sse, rel=1e-10, abs=0)     # the children's weighted SSE


def test_leaves_predict_weighted_means_and_full_depth_interpolates():
    rng = np.random.default_rng(4)
    X, y = _data(rng, 80, 2)
    tree = DecisionTreeRegressor().fit(X, y)
    # distinct targets: a full tree puts every sample in a leaf of its own
    assert tree.get_n_leaves() == 80
    np.testing.assert_allclose(tree.predict(X), y, rtol=0, atol=LEAF)
    w = rng.uniform(0.5, 2.0, size=80)
    stump = DecisionTreeRegressor(max_depth=1).fit(X, y, sample_weight=w)
    leaf = stump.apply(X)
    for k in np.unique(leaf):
        m = leaf == k
        assert stump.predict(X[m])[0] == pytest.approx(np.average(y[m], weights=w[m]),
                                                       rel=0, abs=LEAF)
    assert stump.get_depth() == 1 and stump.get_n_leaves() == 2
    assert stump.n_features_in_ == 2 and stump.max_features_ == 2


@pytest.mark.parametrize("c", [2.5, 3.7, 1e6 + 0.1, -1e-9])
def test_constant_target_gives_a_single_leaf(c):
    # 3.7 and 1e6 + 0.1 have no exact binary mean: E[y^2] - E[y]^2 left rounding
    # dust there (308 leaves for 3.7), so purity is "all targets equal"
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1000, 3))
    tree = DecisionTreeRegressor().fit(X, np.full(1000, c))
    assert tree.get_n_leaves() == 1 and tree.get_depth() == 0
    # the mean of 1000 equal c, summed in float64: within n eps = 2e-13 (relative)
    np.testing.assert_allclose(tree.predict(X), c, rtol=2e-13, atol=0)
    np.testing.assert_array_equal(tree.feature_importances_, 0.0)


@pytest.mark.parametrize("a", [1.0, 1e-100, 1e-8, 1e8, 1e153])
@pytest.mark.parametrize("b", [0.0, 1e6, 1e10])
@pytest.mark.parametrize("weighted", [False, True])
def test_the_tree_of_a_y_plus_b_has_the_partition_of_y(a, b, weighted):
    # the squared-error tree is invariant under y -> a (y + b): neither units
    # nor an offset may change it (variances by two passes, purity as all targets
    # equal, the scores scaled before they are squared)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1000, 3))
    y = X[:, 0] + 0.1 * rng.normal(size=1000)
    w = rng.uniform(0.2, 3.0, size=1000) if weighted else None
    ref = DecisionTreeRegressor().fit(X, y, sample_weight=w)
    tree = DecisionTreeRegressor().fit(X, a * (y + b), sample_weight=w)
    assert tree.get_n_leaves() == ref.get_n_leaves() == 1000
    assert _same_partition(tree.apply(X), ref.apply(X))
    assert min(node.impurity for node in tree._nodes()) >= 0.0       # a variance


def test_targets_whose_variance_overflows_are_refused():
    X = np.arange(6.0).reshape(-1, 1)
    with pytest.raises(ValueError, match="y .*overflow.*rescale"):
        DecisionTreeRegressor().fit(X, np.array([0.0, 1, 2, 3, 4, 5]) * 1e160)


def test_min_samples_leaf_is_honoured():
    rng = np.random.default_rng(5)
    X, y = _data(rng, 200, 3)
    tree = DecisionTreeRegressor(min_samples_leaf=7).fit(X, y)
    sizes = np.bincount(tree.apply(X))
    assert sizes[sizes > 0].min() == 7            # bound and reached
    # without the bound the same data give smaller leaves (the bound acts)
    free = np.bincount(DecisionTreeRegressor().fit(X, y).apply(X))
    assert free[free > 0].min() < 7


def test_zero_weights_are_the_same_as_dropping_the_rows():
    rng = np.random.default_rng(6)
    X, y = _data(rng, 150, 3)
    w = rng.uniform(0.5, 2.0, size=150)
    w[rng.random(150) < 0.3] = 0.0
    keep = w > 0
    a = DecisionTreeRegressor(max_depth=4).fit(X, y, sample_weight=w)
    b = DecisionTreeRegressor(max_depth=4).fit(X[keep], y[keep], sample_weight=w[keep])
    Xt = rng.normal(size=(300, 3))
    np.testing.assert_array_equal(a.predict(Xt), b.predict(Xt))


def test_feature_importances_are_the_normalised_variance_decrease():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, 4))
    y = 3 * X[:, 2] + 0.1 * rng.normal(size=300)          # feature 2 does nearly all
    tree = DecisionTreeRegressor(max_depth=3).fit(X, y)
    imp = tree.feature_importances_
    assert imp.sum() == pytest.approx(1.0, rel=0, abs=1e-12)
    assert np.argmax(imp) == 2 and imp[2] > 0.9
    stump = DecisionTreeRegressor(max_depth=1).fit(X, y)
    expected = np.zeros(4)
    expected[stump.tree_.feature] = 1.0
    np.testing.assert_array_equal(stump.feature_importances_, expected)


def test_max_features_is_deterministic_and_changes_the_tree():
    rng = np.random.default_rng(8)
    X, y = _data(rng, 300, 6)
    Xt = rng.normal(size=(200, 6))
    a = DecisionTreeRegressor(max_features=2, random_state=0).fit(X, y).predict(Xt)
    b = DecisionTreeRegressor(max_features=2, random_state=0).fit(X, y).predict(Xt)
    np.testing.assert_array_equal(a, b)
    full = DecisionTreeRegressor().fit(X, y).predict(Xt)
    assert not np.array_equal(a, full)
    others = [DecisionTreeRegressor(max_features=2, random_state=s).fit(X, y).predict(Xt)
              for s in (1, 2)]
    assert not all(np.array_equal(a, o) for o in others)
    assert DecisionTreeRegressor(max_features="sqrt").fit(X, y).max_features_ == 2


def test_one_sorted_x_grows_trees_for_many_targets():
    # gradient boosting's use: the columns are sorted once, the targets and 0/1
    # subsample masks change; each tree equals the one fit grows from scratch
    rng = np.random.default_rng(9)
    X, y = _data(rng, 200, 4)
    grower = LevelwiseGrower(X)
    Xt = rng.normal(size=(100, 4))
    for stage in range(3):
        target = y - 0.3 * stage * X[:, 1]
        rows = rng.random(200) < 0.6
        tree = grower.fit(DecisionTreeRegressor(max_depth=3), rows=rows, y=target)
        alone = DecisionTreeRegressor(max_depth=3).fit(X[rows], target[rows])
        np.testing.assert_array_equal(tree.predict(Xt), alone.predict(Xt))
    with pytest.raises(ValueError, match="pass y"):
        grower.fit(DecisionTreeRegressor())


def test_classifier_still_fits_through_the_shared_grower():
    rng = np.random.default_rng(10)
    X = rng.normal(size=(200, 3))
    yk = (X[:, 0] + X[:, 1] > 0).astype(np.intp)
    classes = np.array([0, 1])
    tree = LevelwiseGrower(X, yk, classes).fit(DecisionTreeClassifier(criterion="gini"))
    alone = DecisionTreeClassifier(criterion="gini").fit(X, yk)
    np.testing.assert_array_equal(tree.predict_proba(X), alone.predict_proba(X))


# --------------------------------------------------------------------------
# against scikit-learn
# --------------------------------------------------------------------------

@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("max_depth", [None, 1, 3])
@pytest.mark.parametrize("min_samples_leaf", [1, 5])
def test_same_tree_as_scikit_learn(weighted, max_depth, min_samples_leaf):
    sktree = pytest.importorskip("sklearn.tree")
    rng = np.random.default_rng(100 + 10 * (max_depth or 0) + min_samples_leaf + weighted)
    for _ in range(5):
        n, d = int(rng.integers(40, 300)), int(rng.integers(1, 6))
        X, y = _data(rng, n, d)
        w = rng.uniform(0.1, 3.0, size=n) if weighted else None
        if weighted:
            w[rng.random(n) < 0.2] = 0.0         # scikit-learn drops them when splitting
        ours = DecisionTreeRegressor(max_depth=max_depth, min_samples_leaf=min_samples_leaf)
        ours.fit(X, y, sample_weight=w)
        theirs = sktree.DecisionTreeRegressor(max_depth=max_depth,
                                              min_samples_leaf=min_samples_leaf,
                                              random_state=0).fit(X, y, sample_weight=w)
        assert ours.get_depth() == theirs.get_depth()
        assert ours.get_n_leaves() == theirs.get_n_leaves()
        # the same partition of the training samples, with the same leaf values
        # (a sample of weight zero takes no part: it falls where the thresholds send it)
        fit = slice(None) if w is None else w > 0
        assert _same_partition(ours.apply(X[fit]), theirs.apply(X[fit]))
        np.testing.assert_allclose(ours.predict(X[fit]), theirs.predict(X[fit]), rtol=0,
                                   atol=LEAF)
        if min_samples_leaf == 5 and max_depth is not None:
            # No two features give the same partition of a node here, so the same
            # splits too: the same predictions everywhere and the same importances.
            # (In a node of two samples every feature splits it alike: scikit-learn
            # then takes the first in a random order of the features, we the first.)
            Xt = rng.normal(size=(300, d))
            np.testing.assert_allclose(ours.predict(Xt), theirs.predict(Xt), rtol=0, atol=LEAF)
            np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_,
                                       rtol=0, atol=1e-10)


def test_friedman_criterion_is_the_squared_error_decrease():
    # Friedman's criterion w_L w_R (mean_L - mean_R)^2 / (w_L + w_R), scikit-learn's old
    # "friedman_mse" of gradient boosting, equals the decrease of the weighted SSE at
    # every threshold, so both pick the same split (scikit-learn 1.9 maps one to the other)
    rng = np.random.default_rng(12)
    x = rng.normal(size=80)
    y = np.sin(2 * x) + 0.3 * rng.normal(size=80)
    w = rng.uniform(0.2, 3.0, size=80)
    order = np.argsort(x)
    y, w = y[order], w[order]

    def sse(a, b):
        return np.sum(b * (a - np.average(a, weights=b)) ** 2)

    for k in range(1, 80):
        wl, wr = w[:k].sum(), w[k:].sum()
        ml, mr = np.average(y[:k], weights=w[:k]), np.average(y[k:], weights=w[k:])
        friedman = wl * wr * (ml - mr) ** 2 / (wl + wr)
        decrease = sse(y, w) - sse(y[:k], w[:k]) - sse(y[k:], w[k:])
        # the decrease is a difference of SSEs of order 10: its rounding is ~1e-14
        assert friedman == pytest.approx(decrease, rel=1e-9, abs=1e-12)


def test_thresholds_are_midpoints_like_scikit_learn():
    sktree = pytest.importorskip("sklearn.tree")
    rng = np.random.default_rng(11)
    X, y = _data(rng, 100, 2)
    ours = DecisionTreeRegressor(max_depth=1).fit(X, y)
    theirs = sktree.DecisionTreeRegressor(max_depth=1).fit(X, y)
    assert ours.tree_.feature == theirs.tree_.feature[0]
    # scikit-learn sorts float32 copies of X: its midpoint differs in the 8th digit
    assert ours.tree_.threshold == pytest.approx(theirs.tree_.threshold[0], rel=1e-6)
    column = np.sort(X[:, ours.tree_.feature])
    k = np.searchsorted(column, ours.tree_.threshold)
    assert ours.tree_.threshold == pytest.approx((column[k - 1] + column[k]) / 2, rel=0,
                                                 abs=1e-15)


# --------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------

@pytest.mark.parametrize("bad, what", [(np.nan, "NaN"), (np.inf, "infinity")])
def test_non_finite_target_is_refused(bad, what):
    X = np.arange(6.0).reshape(-1, 1)
    y = np.arange(6.0)
    y[2] = bad
    with pytest.raises(ValueError, match=f"y .*{what}"):
        DecisionTreeRegressor().fit(X, y)


def test_non_finite_features_are_refused():
    X = np.arange(6.0).reshape(-1, 1)
    X[1, 0] = np.nan
    with pytest.raises(ValueError, match="X"):
        DecisionTreeRegressor().fit(X, np.arange(6.0))
    X[1, 0] = np.inf
    with pytest.raises(ValueError, match="X"):
        DecisionTreeRegressor().fit(X, np.arange(6.0))


@pytest.mark.parametrize("params, name", [({"max_depth": 0}, "max_depth"),
                                          ({"min_samples_leaf": 0}, "min_samples_leaf"),
                                          ({"max_features": 7}, "max_features"),
                                          ({"max_features": "half"}, "max_features")])
def test_bad_parameters_are_named(params, name):
    with pytest.raises(ValueError, match=name):
        DecisionTreeRegressor(**params).fit(np.ones((5, 2)) * np.arange(5)[:, None],
                                            np.arange(5.0))


def test_lengths_weights_and_predict_before_fit():
    X = np.arange(10.0).reshape(-1, 2)
    with pytest.raises(ValueError, match="X.*y|y.*X"):
        DecisionTreeRegressor().fit(X, np.arange(4.0))
    with pytest.raises(ValueError, match="sample_weight"):
        DecisionTreeRegressor().fit(X, np.arange(5.0), sample_weight=-np.ones(5))
    with pytest.raises(NotFittedError):
        DecisionTreeRegressor().predict(X)
    tree = DecisionTreeRegressor().fit(X, np.arange(5.0))
    with pytest.raises(ValueError, match="feature"):
        tree.predict(np.ones((2, 3)))


def test_growing_a_regression_tree_calls_no_blas(monkeypatch):
    # A BLAS dot product of many entries wakes OpenBLAS's threads, which then spin
    # idle: gradient boosting (a tree per stage) took twice its CPU time, and on a
    # loaded machine twice its wall time. The grower sums instead.
    def refuse(*args, **kwargs):
        raise AssertionError("np.dot called while growing a regression tree")

    rng = np.random.default_rng(14)
    X, y = _data(rng, 300, 3)
    monkeypatch.setattr(np, "dot", refuse)
    DecisionTreeRegressor(max_depth=3).fit(X, y)
    DecisionTreeRegressor(max_depth=3).fit(X, y, sample_weight=rng.uniform(0.5, 2.0, 300))
