"""Tests of mlbook.tree: the formulas against Zhou's published numbers, the split
search against a brute-force rescan, the estimator against scikit-learn's CART,
the fast level-wise path against the general recursive one, and bad input."""

from __future__ import annotations

import numpy as np

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from input_data import binary
from mlbook.datasets import load_breast_cancer, load_iris, load_watermelon, load_wine
from mlbook.tree import LevelwiseGrower
from mlbook.tree._classes import _Growing
from mlbook.tree._node import _flatten
from mlbook.tree import (
    DecisionTreeClassifier,
    ObliqueDecisionTreeClassifier,
    best_threshold,
    entropy,
    export_text,
    gain_ratio,
    gini,
    gini_index,
    information_gain,
    intrinsic_value,
)

# Zhou publishes his numbers to three decimals: a computed value must round to
# the printed one, i.e. lie within 5e-4 of it.
BOOK = 5e-4

# Zhou's train/validation split of table 4.2 (1-based melon numbers).
TRAIN = np.array([1, 2, 3, 6, 7, 10, 14, 15, 16, 17]) - 1
VALID = np.array([4, 5, 8, 9, 11, 12, 13]) - 1


@pytest.fixture(scope="module")
def wm2():
    return load_watermelon("2.0")


# --------------------------------------------------------------------------
# the formulas against the book
# --------------------------------------------------------------------------

def test_entropy_of_watermelon_2(wm2):
    # Zhou, section 4.2.1: Ent(D) = 0.998 (8 good, 9 bad melons)
    assert abs(entropy(wm2.target) - 0.998) < BOOK


def test_information_gains_of_watermelon_2(wm2):
    # Zhou, section 4.2.1: colour 0.109 (see below), root 0.143, knock 0.141,
    # texture 0.381, navel 0.289, touch 0.006
    gains = [information_gain(wm2.data[:, j], wm2.target) for j in range(6)]
    np.testing.assert_allclose(gains[1:], [0.143, 0.141, 0.381, 0.289, 0.006], rtol=0, atol=BOOK)
    # colour: the exact gain is 0.108; the book prints 0.109 because it subtracts
    # entropies that were already rounded to three decimals
    assert abs(gains[0] - 0.108) < BOOK
    x, y = wm2.data[:, 0], wm2.target
    parts = [round(entropy(y[x == v]), 3) * np.mean(x == v) for v in np.unique(x)]
    assert abs(round(entropy(y), 3) - sum(parts) - 0.109) < BOOK


def test_continuous_thresholds_of_watermelon_3():
    # Zhou, section 4.4.1: density t = 0.381, gain 0.262; sugar t = 0.126, gain 0.349
    wm = load_watermelon("3.0")
    t, g = best_threshold(wm.data[:, 6], wm.target)
    assert abs(t - 0.3815) < 1e-12      # the midpoint of 0.360 and 0.403; printed 0.381
    assert abs(g - 0.262) < BOOK
    t, g = best_threshold(wm.data[:, 7], wm.target)
    assert abs(t - 0.126) < 1e-12 and abs(g - 0.349) < BOOK


def test_gains_with_missing_values():
    # Zhou, section 4.4.2: 0.252, 0.171, 0.145, 0.424, 0.289, 0.006
    wm = load_watermelon("2.0alpha")
    gains = [information_gain(wm.data[:, j], wm.target) for j in range(6)]
    np.testing.assert_allclose(gains, [0.252, 0.171, 0.145, 0.424, 0.289, 0.006], rtol=0, atol=BOOK)
    # colour: rho = 14/17 and the gain on the 14 known melons is 0.306
    known = np.array([v is not None for v in wm.data[:, 0]])
    assert abs(information_gain(wm.data[known, 0], wm.target[known]) - 0.306) < BOOK
    assert abs(gains[0] - 14 / 17 * information_gain(wm.data[known, 0], wm.target[known])) < 1e-12


def test_gain_ratio_uses_the_intrinsic_value(wm2):
    # Gain_ratio = Gain / IV(a); note 001 divides by info(D) = Ent(D) instead.
    x, y = wm2.data[:, 3], wm2.target
    n = np.array([np.sum(x == v) for v in np.unique(x)]) / x.shape[0]
    iv = -np.sum(n * np.log2(n))
    assert abs(intrinsic_value(x) - iv) < 1e-12
    assert abs(gain_ratio(x, y) - information_gain(x, y) / iv) < 1e-12
    assert abs(gain_ratio(x, y) - information_gain(x, y) / entropy(y)) > 0.1


def test_gini_index_matches_definition(wm2):
    x, y = wm2.data[:, 4], wm2.target
    expected = sum(np.mean(x == v) * gini(y[x == v]) for v in np.unique(x))
    assert abs(gini_index(x, y) - expected) < 1e-12
    # Gini(D) = 1 - sum p^2 = 1 - (8/17)^2 - (9/17)^2
    assert abs(gini(y) - (1 - (8 / 17) ** 2 - (9 / 17) ** 2)) < 1e-15


# --------------------------------------------------------------------------
# properties of the formulas
# --------------------------------------------------------------------------

labels = st.lists(st.integers(0, 4), min_size=1, max_size=60)


@settings(max_examples=60, deadline=None)
@given(labels)
def test_entropy_and_gini_bounds(y):
    k = len(set(y))
    # 1e-12: the bounds are attained exactly only up to float rounding
    assert -1e-12 <= entropy(y) <= np.log2(k) + 1e-12
    assert -1e-12 <= gini(y) <= 1 - 1 / k + 1e-12


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=2, max_size=60))
def test_information_gain_between_zero_and_entropy(pairs):
    x, y = np.array(pairs).T
    g = information_gain(x, y)
    # a gain is a mutual information: 0 <= Gain <= Ent(D) (1e-12 for rounding)
    assert -1e-12 <= g <= entropy(y) + 1e-12
    # renaming the values of the attribute changes nothing
    assert abs(information_gain(np.array(["v%d" % (3 - v) for v in x]), y) - g) < 1e-12


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=2, max_size=60))
def test_gain_ratio_and_gini_index_bounds(pairs):
    x, y = np.array(pairs).T
    # Gain = I(a; y) <= H(a) = IV(a), so 0 <= Gain_ratio <= 1; a split never
    # raises the weighted Gini value (concavity), so 0 <= Gini_index <= Gini(D)
    # (1e-12 for rounding)
    assert -1e-12 <= gain_ratio(x, y) <= 1 + 1e-12
    assert -1e-12 <= gini_index(x, y) <= gini(y) + 1e-12


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 1), st.integers(1, 3)),
                min_size=2, max_size=40))
def test_integer_weights_equal_repetition(rows):
    x, y, w = np.array(rows).T
    rep = np.repeat(np.arange(x.shape[0]), w)
    # 1e-12: the same sums in a different order
    assert abs(information_gain(x, y, sample_weight=w) - information_gain(x[rep], y[rep])) < 1e-12
    assert abs(entropy(y, sample_weight=w) - entropy(y[rep])) < 1e-12


def _rescan_threshold(x, y, criterion):
    """Brute force: every midpoint, its partition scored from scratch."""
    v = np.unique(x)
    best = None
    for t in (v[:-1] + v[1:]) / 2:
        left, right = y[x <= t], y[x > t]
        f = entropy if criterion == "entropy" else gini
        child = (left.size * f(left) + right.size * f(right)) / y.size
        score = f(y) - child
        if best is None or score > best[1] + 1e-12:
            best = (t, score, child)
    return best


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("criterion", ["entropy", "gini"])
def test_best_threshold_matches_a_rescan(seed, criterion):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 80))
    x = np.round(rng.normal(size=n), 1)              # rounding creates repeated values
    y = rng.integers(0, 3, size=n)
    if np.unique(x).size < 2:
        x[0] += 1.0
    t, score = best_threshold(x, y, criterion=criterion)
    t_ref, gain_ref, child_ref = _rescan_threshold(x, y, criterion)
    # the thresholds agree up to the midpoint's rounding (0.5a + 0.5b vs (a + b)/2);
    # scores are the same sums in another order: 1e-12
    assert abs(t - t_ref) < 1e-12
    assert abs(score - (gain_ref if criterion == "entropy" else child_ref)) < 1e-12


def test_best_threshold_with_missing_values():
    rng = np.random.default_rng(3)
    x = rng.normal(size=40)
    y = (x > 0.2).astype(int)
    xm = x.astype(object)
    xm[:8] = None
    t, g = best_threshold(xm, y)
    t_known, g_known = best_threshold(x[8:], y[8:])
    # eq. 4.12: the gain on the known samples scaled by rho = 32/40
    assert t == t_known and abs(g - 32 / 40 * g_known) < 1e-12


def test_gain_ratio_and_intrinsic_value_with_missing_values():
    wm = load_watermelon("2.0alpha")
    y = wm.target
    for j in range(6):
        x = wm.data[:, j]
        known = np.array([v is not None for v in x])
        # IV over the fractions r_v of the known samples; the ratio's numerator
        # is the rho-scaled gain of eq. 4.12 (1e-12: the same sums)
        assert abs(intrinsic_value(x) - intrinsic_value(x[known])) < 1e-12
        assert abs(gain_ratio(x, y) - information_gain(x, y) / intrinsic_value(x)) < 1e-12
        assert abs(gain_ratio(x, y) - known.mean() * gain_ratio(x[known], y[known])) < 1e-12


def test_gini_index_with_missing_values():
    # Gini_index = Gini(D) - rho (Gini(D~) - sum_v r_v Gini(D~v)); with nothing
    # missing the bracket is Gini(D) - Gini_index(D~), so it can be checked
    # against the known samples alone (1e-12: the same sums in another order).
    wm = load_watermelon("2.0alpha")
    y = wm.target
    for j in range(6):
        x = wm.data[:, j]
        known = np.array([v is not None for v in x])
        rho = known.mean()
        expected = gini(y) - rho * (gini(y[known]) - gini_index(x[known], y[known]))
        assert abs(gini_index(x, y) - expected) < 1e-12
    # rho matters: A separates its 6 known samples perfectly (index 0 on them)
    # but is missing for 14 of 20; B splits all 20 with 2 errors per branch.
    y = np.array([0] * 10 + [1] * 10)
    a = np.array([None] * 7 + ["p"] * 3 + ["q"] * 3 + [None] * 7, dtype=object)
    b = np.array(["p"] * 8 + ["q"] * 2 + ["p"] * 2 + ["q"] * 8, dtype=object)
    assert abs(gini_index(a, y) - (0.5 - 0.3 * 0.5)) < 1e-12     # 0.35
    assert abs(gini_index(b, y) - 0.32) < 1e-12                   # 1 - 0.8^2 - 0.2^2
    tree = DecisionTreeClassifier(criterion="gini", max_depth=1).fit(np.column_stack([a, b]), y)
    assert tree.tree_.feature == 1                                # the smallest index


def test_missing_values_as_nan_in_a_float_column():
    x = np.array([0.0, 0.0, 1.0, np.nan, 1.0, np.nan])
    xo = np.array([0.0, 0.0, 1.0, None, 1.0, None], dtype=object)
    y = np.array([0, 0, 1, 1, 1, 0])
    for f in (information_gain, gain_ratio, gini_index):
        assert f(x, y) == f(xo, y)
    assert abs(information_gain(x, y) - 4 / 6 * entropy(y[[0, 1, 2, 4]])) < 1e-12


def test_best_threshold_gini_with_missing_values():
    rng = np.random.default_rng(4)
    x = rng.normal(size=40)
    y = (x > -0.3).astype(int)
    y[:5] = 1 - y[:5]
    xm = x.copy()
    xm[-10:] = np.nan
    t, score = best_threshold(xm, y, criterion="gini")
    t_known, index_known = best_threshold(x[:30], y[:30], criterion="gini")
    # the same threshold as on the 30 known samples; the index is Gini(D) minus
    # rho = 30/40 times the decrease on the known samples (1e-12: same sums)
    assert t == t_known
    assert abs(score - (gini(y) - 30 / 40 * (gini(y[:30]) - index_known))) < 1e-12


# --------------------------------------------------------------------------
# the trees of Zhou's chapter 4
# --------------------------------------------------------------------------

def _structure(node, est, names):
    """(test, {branch: subtree}) or the leaf's class index."""
    if node.is_leaf:
        return int(node.label)
    if node.threshold is not None:
        return (names[node.feature], round(node.threshold, 4),
                [_structure(c, est, names) for c in node.children])
    return (names[node.feature],
            {str(v): _structure(c, est, names)
             for v, c in zip(est.categories_[node.feature], node.children)})


# Zhou, figure 4.4 (1 = good melon). Under texture = clear and root =
# slightly curled, colour and touch tie (gain 0.252); colour is listed first.
FIGURE_4_4 = ("texture", {
    "clear": ("root", {
        "curled": 1,
        "slightly curled": ("color", {"green": 1,
                                      "dark": ("touch", {"hard smooth": 1, "soft sticky": 0}),
                                      "light": 1}),
        "stiff": 0}),
    "slightly blurry": ("touch", {"hard smooth": 0, "soft sticky": 1}),
    "blurry": 0})


def test_figure_4_4(wm2):
    tree = DecisionTreeClassifier().fit(wm2.data, wm2.target)
    assert _structure(tree.tree_, tree, wm2.feature_names) == FIGURE_4_4
    assert tree.score(wm2.data, wm2.target) == 1.0


def test_gini_tree_of_watermelon_2_is_figure_4_4(wm2):
    # the chapter's exercise "Gini versus entropy": CART's criterion grows the same tree
    tree = DecisionTreeClassifier(criterion="gini").fit(wm2.data, wm2.target)
    assert _structure(tree.tree_, tree, wm2.feature_names) == FIGURE_4_4


def test_figure_4_8_continuous():
    wm = load_watermelon("3.0")
    tree = DecisionTreeClassifier().fit(wm.data, wm.target)
    s = _structure(tree.tree_, tree, wm.feature_names)
    # Zhou, figure 4.8: texture, then density <= 0.381 under texture = clear
    assert s == ("texture", {"clear": ("density", 0.3815, [0, 1]),
                             "slightly blurry": ("touch", {"hard smooth": 0, "soft sticky": 1}),
                             "blurry": 0})


def test_missing_value_tree_fits_and_predicts():
    wm = load_watermelon("2.0alpha")
    tree = DecisionTreeClassifier().fit(wm.data, wm.target)
    assert tree.feature_types_ == ["categorical"] * 6
    # Zhou, figure 4.9: texture is the root (gain 0.424, the largest)
    assert wm.feature_names[tree.tree_.feature] == "texture"
    proba = tree.predict_proba(wm.data)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert tree.score(wm.data, wm.target) == 1.0


def test_continuous_attribute_is_reused_below():
    # good melons in the middle of one numeric attribute need two thresholds on it;
    # all three builders (level-wise fast path, recursive on floats, recursive on
    # an object array) must test the same attribute twice on one path.
    x = np.linspace(0.0, 1.0, 21)
    y = ((x > 0.3) & (x <= 0.7)).astype(int)
    X = x[:, None]
    fits = [DecisionTreeClassifier().fit(X, y),
            DecisionTreeClassifier().fit(X, y, sample_weight=np.ones(21)),
            DecisionTreeClassifier().fit(X.astype(object), y)]
    for tree in fits:
        assert tree.feature_types_ == ["continuous"]
        assert (tree.get_depth(), tree.get_n_leaves()) == (2, 3)
        inner = [c for c in tree.tree_.children if not c.is_leaf]
        assert len(inner) == 1 and inner[0].feature == tree.tree_.feature == 0
        assert tree.score(X, y) == 1.0


def test_mixed_columns_with_missing_values():
    # watermelon 3.0 (categorical + numeric) with two numeric entries blanked
    wm = load_watermelon("3.0")
    X = wm.data.copy()
    X[0, 6] = None                  # density of melon 1 (texture = clear, good)
    X[11, 7] = np.nan               # sugar of melon 12: NaN marks a missing value too
    tree = DecisionTreeClassifier().fit(X, wm.target)
    assert tree.feature_types_ == ["categorical"] * 6 + ["continuous"] * 2
    np.testing.assert_allclose(tree.predict_proba(X).sum(axis=1), 1.0, rtol=0, atol=1e-12)
    root = tree.tree_
    assert wm.feature_names[root.feature] == "texture"
    # the node under texture = clear tests density (as in Zhou's figure 4.8), with
    # the gain of eq. 4.12 and branch weights r_v from the clear melons whose
    # density is known; the others went down both branches
    node = root.children[0]
    assert wm.feature_names[node.feature] == "density"
    clear = X[:, 3] == "clear"
    dens = X[clear, 6]
    known = np.array([v is not None and v == v for v in dens])
    t, g = best_threshold(dens, wm.target[clear])
    assert node.threshold == t and g < best_threshold(
        dens[known], wm.target[clear][known])[1]         # scaled down by rho < 1
    r_left = np.mean(dens[known].astype(float) <= t)
    np.testing.assert_allclose(node.branch_weights, [r_left, 1 - r_left], rtol=0, atol=1e-15)
    np.testing.assert_allclose(node.children[0].value.sum() + node.children[1].value.sum(),
                               clear.sum(), rtol=0, atol=1e-12)  # the missing ones are split, not lost
    # prediction follows the same rule: a clear, stiff-stalked melon with no
    # density gets the r_v-mixture of what the two density branches predict
    query = X[[0]].copy()
    query[0, 1] = "stiff"
    forced = np.repeat(query, 2, axis=0)
    forced[:, 6] = [t, t + 1.0]                          # left branch, right branch
    p_left, p_right = tree.predict_proba(forced)
    assert not np.allclose(p_left, p_right, rtol=0, atol=1e-3)   # so the mixture is a real one
    expected = r_left * p_left + (1 - r_left) * p_right
    np.testing.assert_allclose(tree.predict_proba(query)[0], expected, rtol=0, atol=1e-15)


def test_missing_value_weights_below_the_root():
    # Zhou, section 4.4.2: melons 8 and 10 (texture missing) enter every texture
    # branch with weight r_v. Below the root the choice must use those weights:
    # recompute each child's split with the pure function and the weights, and
    # compare with what the tree chose (and with its leaf counts).
    wm = load_watermelon("2.0alpha")
    X, y = wm.data, wm.target
    tree = DecisionTreeClassifier().fit(X, y)
    root = tree.tree_
    texture = X[:, 3]
    missing = np.array([v is None for v in texture])
    assert np.flatnonzero(missing).tolist() == [7, 9]          # melons 8 and 10
    for v, (value, child) in enumerate(zip(tree.categories_[3], root.children)):
        at = missing | (texture == value)
        w = np.where(missing, root.branch_weights[v], 1.0)[at]
        # the child's class counts are the weighted counts (1e-12: sums of thirds)
        np.testing.assert_allclose(child.value, np.bincount(y[at], weights=w, minlength=2),
                                   rtol=0, atol=1e-12)
        if child.is_leaf:
            continue
        others = [j for j in range(6) if j != 3]
        gains = [information_gain(X[at, j], y[at], sample_weight=w) for j in others]
        assert child.feature == others[int(np.argmax(gains))]


def test_missing_value_prediction_mixes_the_branches(wm2):
    tree = DecisionTreeClassifier(max_depth=1).fit(wm2.data, wm2.target)
    x = wm2.data[:1].copy()
    x[0, 3] = None                                    # texture unknown
    root = tree.tree_
    expected = sum(r * c.proba for r, c in zip(root.branch_weights, root.children))
    # the branch fractions r_v of the 17 melons: 9/17, 5/17, 3/17
    np.testing.assert_allclose(root.branch_weights, [9 / 17, 5 / 17, 3 / 17], rtol=0, atol=1e-15)
    np.testing.assert_allclose(tree.predict_proba(x)[0], expected, rtol=0, atol=1e-15)


def _pruning_data(wm2, navel_first):
    # good melons as class 0: Zhou breaks the 5:5 tie at the root, and the 2:2
    # tie under navel = slightly sunken, in favour of "good"; our rule gives a
    # tie to the parent's class and, at the root, to the first class.
    cols = [4, 0, 1, 2, 3, 5] if navel_first else list(range(6))
    y = 1 - wm2.target
    return wm2.data[:, cols], y


@pytest.mark.parametrize("pruning, accuracy, leaves", [
    (None, 3 / 7, 11),     # figure 4.5: 42.9 %
    ("pre", 5 / 7, 3),     # figure 4.6: 71.4 %
    ("post", 5 / 7, 7),    # figure 4.7: 71.4 %
])
def test_pruning_figures_4_5_to_4_7(wm2, pruning, accuracy, leaves):
    X, y = _pruning_data(wm2, navel_first=True)
    tree = DecisionTreeClassifier(pruning=pruning).fit(X[TRAIN], y[TRAIN], X[VALID], y[VALID])
    assert tree.score(X[VALID], y[VALID]) == pytest.approx(accuracy, abs=1e-12)
    assert tree.get_n_leaves() == leaves
    assert tree.tree_.feature == 0                       # navel at the root
    if pruning == "post":
        # Zhou's steps: texture pruned (42.9 -> 57.1 %), colour under slightly
        # sunken kept (57.1 either way), colour under sunken pruned (-> 71.4 %),
        # root kept (71.4 either way); 0 = good melon here
        names = ["navel", "color", "root", "knock", "texture", "touch"]
        assert _structure(tree.tree_, tree, names) == ("navel", {
            "sunken": 0,
            "slightly sunken": ("root", {
                "curled": 1,
                "slightly curled": ("color", {"green": 0, "dark": 0, "light": 0}),
                "stiff": 0}),
            "flat": 1})


def test_root_tie_between_colour_and_navel(wm2):
    # Zhou, figure 4.5: on the training set colour and navel both have gain 0.276;
    # listed first, colour wins here, and the validation accuracy is 28.6 %.
    x_tr, y_tr = wm2.data[TRAIN], wm2.target[TRAIN]
    g = [information_gain(x_tr[:, j], y_tr) for j in (0, 4)]
    # the exact gain is 0.27549 (rounds to 0.275); the book's 0.276 comes from
    # entropies rounded to three decimals before subtracting, as for colour in 4.2.1
    assert abs(g[0] - g[1]) < 1e-12 and abs(g[0] - 0.2755) < 5e-5
    for j in (0, 4):
        x = x_tr[:, j]
        rounded = round(entropy(y_tr), 3) - sum(
            np.mean(x == v) * round(entropy(y_tr[x == v]), 3) for v in np.unique(x))
        assert abs(rounded - 0.276) < BOOK
    X, y = _pruning_data(wm2, navel_first=False)
    tree = DecisionTreeClassifier().fit(X[TRAIN], y[TRAIN])
    assert tree.tree_.feature == 0
    assert tree.score(X[VALID], y[VALID]) == pytest.approx(2 / 7, abs=1e-12)


def test_gain_ratio_resists_an_id_column(wm2):
    # an ID column has the largest gain (it splits into 17 pure singletons), the
    # textbook failure of information gain; C4.5's heuristic picks texture.
    X = np.column_stack([np.arange(17).astype(str).astype(object), wm2.data])
    assert DecisionTreeClassifier().fit(X, wm2.target).tree_.feature == 0
    tree = DecisionTreeClassifier(criterion="gain_ratio").fit(X, wm2.target)
    assert tree.tree_.feature == 4                        # texture (column 3 + 1)


def test_empty_branch_gets_parent_majority(wm2):
    tree = DecisionTreeClassifier().fit(wm2.data, wm2.target)
    node = tree.tree_.children[0].children[1]             # clear -> slightly curled (colour)
    light = node.children[2]
    assert light.empty and light.label == node.label == 1


def test_unseen_category_uses_the_node_majority(wm2):
    tree = DecisionTreeClassifier().fit(wm2.data, wm2.target)
    x = wm2.data[:1].copy()
    x[0, 3] = "striped"                                   # a texture never seen
    np.testing.assert_allclose(tree.predict_proba(x)[0], tree.tree_.proba, rtol=0, atol=1e-15)
    assert tree.predict(x)[0] == tree.classes_[tree.tree_.label]


# --------------------------------------------------------------------------
# the fast path and scikit-learn
# --------------------------------------------------------------------------

def _same_tree(a, b, rtol=0.0):
    """Same splits and leaf class counts; ``rtol`` > 0 allows the rounding of weights
    summed in a different order (the counts are then float sums, not integers)."""
    if a.is_leaf or b.is_leaf:
        return a.is_leaf and b.is_leaf and np.allclose(a.value, b.value, rtol=rtol, atol=0)
    return (a.feature == b.feature and a.threshold == b.threshold
            and all(_same_tree(c, d, rtol) for c, d in zip(a.children, b.children)))


def _recursive(X, y, sample_weight=None, **params):
    """A tree grown on numeric ``X`` by the recursive grower, called directly (``fit``
    would grow it level-wise): the grower of categorical data and of pruning."""
    tree = DecisionTreeClassifier(**params)
    classes, yk = np.unique(y, return_inverse=True)
    n, d = X.shape
    settings = tree._growth_settings(d)              # a fresh generator from random_state
    data = _Growing(Z=np.asarray(X, dtype=np.float64), yk=yk, n_classes=classes.shape[0],
                    categorical=np.zeros(d, dtype=bool), n_values=np.zeros(d, dtype=np.intp),
                    n_draw=settings["n_draw"], rng=settings["rng"])
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    return tree._set_fitted(classes, [None] * d, tree._grow_recursive(data, w))


def _levelwise(X, y, sample_weight=None, **params):
    """A tree grown by the level-wise grower, called directly."""
    classes, yk = np.unique(y, return_inverse=True)
    return LevelwiseGrower(X, yk, classes).fit(DecisionTreeClassifier(**params), sample_weight)


def test_the_growers_return_a_root_and_fit_sets_the_attributes():
    # a grower leaves the tree alone; _set_fitted is the one place learned attributes are set
    X, y = load_iris(return_X_y=True)
    classes, yk = np.unique(y, return_inverse=True)
    tree = DecisionTreeClassifier(criterion="gini", max_depth=3)
    root = LevelwiseGrower(X, yk, classes).grow(tree)
    assert not [a for a in vars(tree) if a.endswith("_")]
    fitted = DecisionTreeClassifier(criterion="gini", max_depth=3).fit(X, y)
    assert _same_tree(root, fitted.tree_, rtol=0)
    assert sorted(a for a in vars(fitted) if a.endswith("_")) == [
        "categories_", "classes_", "feature_types_", "n_features_in_", "tree_"]


def test_fit_grows_level_wise_on_numeric_data_only():
    # fit hands numeric data without pruning to the level-wise grower and keeps
    # the recursive one for what it alone handles
    X, y = load_iris(return_X_y=True)
    assert LevelwiseGrower.applies(DecisionTreeClassifier(criterion="gini"))
    assert LevelwiseGrower.applies(DecisionTreeClassifier(criterion="entropy"))
    assert not LevelwiseGrower.applies(DecisionTreeClassifier(criterion="gain_ratio"))
    assert not LevelwiseGrower.applies(DecisionTreeClassifier(pruning="post"))
    with pytest.raises(ValueError, match="unpruned gini or entropy"):
        LevelwiseGrower(X, np.searchsorted(np.unique(y), y), np.unique(y)).fit(
            DecisionTreeClassifier(criterion="gain_ratio"))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_levelwise_path_grows_the_same_tree(seed, criterion):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(20, 300)), int(rng.integers(1, 6))
    X = np.round(rng.normal(size=(n, d)), 1)              # with ties in the values
    y = rng.integers(0, int(rng.integers(2, 4)), size=n)
    fast = _levelwise(X, y, criterion=criterion, max_depth=6)
    slow = _recursive(X, y, criterion=criterion, max_depth=6)
    assert _same_tree(fast.tree_, slow.tree_)
    assert _same_tree(DecisionTreeClassifier(criterion=criterion, max_depth=6).fit(X, y).tree_,
                      fast.tree_, rtol=0)          # what fit grows


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_levelwise_path_with_weights_grows_the_same_tree(seed, criterion):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(20, 300)), int(rng.integers(1, 6))
    X = rng.normal(size=(n, d))                            # no ties: no near-tie in a score
    y = rng.integers(0, int(rng.integers(2, 4)), size=n)
    w = rng.uniform(0.01, 1.0, n)
    w[rng.uniform(size=n) < 0.2] = 0.0                     # weightless rows must not matter
    fast = DecisionTreeClassifier(criterion=criterion, max_depth=5).fit(X, y, sample_weight=w)
    keep = w > 0
    slow = _recursive(X[keep], y[keep], w[keep], criterion=criterion, max_depth=5)
    assert _same_tree(fast.tree_, slow.tree_, rtol=1e-12)
    drop = DecisionTreeClassifier(criterion=criterion, max_depth=5).fit(
        X[w > 0], y[w > 0], sample_weight=w[w > 0])
    np.testing.assert_array_equal(fast.predict(X), drop.predict(X))


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_levelwise_path_with_weights_far_apart_still_splits(criterion):
    """Weights spanning 30 orders of magnitude (as AdaBoost's do after many rounds):
    the level-wise grower's cumulative sums run across features, so the left weight
    of a split whose left rows weigh 1e-30 rounds to exactly 0. That side must add
    nothing to the score (0 / 0 used to be NaN, a RuntimeWarning, and a node kept
    from splitting), and the tree must be the one the recursive builder grows."""
    rng = np.random.default_rng(0)
    m = 40
    X = rng.normal(size=(m, 3))
    y = (X[:, 0] > 0).astype(int)
    w = np.ones(m)
    w[np.argsort(X[:, 1])[:6]] = 1e-30       # the six smallest of feature 1 weigh almost nothing
    fast = _levelwise(X, y, w, criterion=criterion)
    slow = _recursive(X, y, w, criterion=criterion)
    assert _same_tree(fast.tree_, slow.tree_, rtol=1e-12)
    assert fast.get_n_leaves() > 1

@pytest.mark.parametrize("seed", range(12))
def test_presorted_rows_grow_the_tree_fit_grows(seed):
    """The ensembles' shortcut: sort X once, then grow on a subset of its rows with
    weights indexed by the full X. It must be exactly the tree fit grows on that
    subset (same splits, same counts), with and without ties, weights and
    per-node feature draws."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(30, 300)), int(rng.integers(2, 7))
    X = rng.normal(size=(n, d))
    if seed % 2:
        X = np.round(X, 1)                                 # ties in the values
    K = int(rng.integers(2, 4))
    y = rng.integers(0, K, size=n)
    keep = rng.uniform(size=n) < 0.6
    keep[:K] = True
    y[:K] = np.arange(K)                                   # every class among the kept rows
    w = rng.integers(1, 4, size=n).astype(float) if seed % 3 else None
    kw = dict(criterion=["gini", "entropy"][seed % 2], max_depth=[None, 1, 4][seed % 3],
              max_features=[None, "sqrt"][(seed // 2) % 2], random_state=seed,
              min_samples_leaf=[1, 2][(seed // 4) % 2])
    fast = LevelwiseGrower(X, y, np.arange(K)).fit(DecisionTreeClassifier(**kw), w, rows=keep)
    plain = DecisionTreeClassifier(**kw).fit(X[keep], y[keep],
                                             sample_weight=None if w is None else w[keep])
    assert _same_tree(fast.tree_, plain.tree_)
    np.testing.assert_array_equal(fast.predict(X), plain.predict(X))
    assert fast.get_n_leaves() == plain.get_n_leaves() > 1


@pytest.mark.parametrize("seed", range(8))
def test_flat_prediction_equals_the_recursive_walk(seed):
    """predict_proba descends all rows together through arrays made from the
    nodes; it must give exactly what the node-by-node walk gives, for level-wise
    trees and for trees of the general builder (gain ratio, pruning)."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(40, 400)), int(rng.integers(1, 6))
    X = rng.normal(size=(n, d))
    if seed % 2:
        X = np.round(X, 1)
    y = rng.integers(0, int(rng.integers(2, 4)), size=n)
    half = n // 2
    trees = [DecisionTreeClassifier(criterion="gini").fit(X, y),
             DecisionTreeClassifier(criterion="entropy", max_features=1,
                                    random_state=seed).fit(X, y),
             DecisionTreeClassifier(criterion="gain_ratio").fit(X, y),
             DecisionTreeClassifier(criterion="gini", pruning="post").fit(
                 X[:half], y[:half], X_val=X[half:], y_val=y[half:])]
    for t in trees:
        # test rows whose values are the tree's thresholds themselves (x <= t goes
        # left), the training values and fresh ones
        cuts = [nd.threshold for nd in t._nodes() if not nd.is_leaf]
        pool = np.concatenate([cuts, X.ravel(), rng.normal(size=50)])
        Xt = rng.choice(pool, size=(300, d))
        walk = np.zeros((300, t.classes_.shape[0]))
        t._accumulate(t.tree_, Xt, np.arange(300), np.ones(300), walk)
        assert _flatten(t.tree_) is not None
        np.testing.assert_array_equal(t.predict_proba(Xt), walk)


def test_prediction_follows_a_node_changed_by_hand():
    # the arrays are made afresh at every prediction, never cached: a tree
    # pruned by hand predicts as pruned
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] > 0).astype(int)
    t = DecisionTreeClassifier(criterion="gini").fit(X, y)
    assert t.score(X, y) == 1.0
    t.tree_.make_leaf()
    np.testing.assert_array_equal(t.predict_proba(X), np.tile(t.tree_.proba, (200, 1)))


@pytest.mark.parametrize("seed", range(3))
def test_integer_weights_equal_repeated_rows(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(80, 3))
    y = rng.integers(0, 2, 80)
    counts = rng.integers(0, 4, 80)
    a = DecisionTreeClassifier(criterion="gini").fit(X, y, sample_weight=counts.astype(float))
    b = DecisionTreeClassifier(criterion="gini").fit(np.repeat(X, counts, axis=0),
                                                     np.repeat(y, counts))
    assert _same_tree(a.tree_, b.tree_, rtol=1e-12)


@pytest.mark.parametrize("grow", [_levelwise, _recursive])
def test_max_features_draws_per_node(grow):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(200, 6))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    full = grow(X, y, criterion="gini", max_depth=1)
    assert full.tree_.feature == 0
    roots = {grow(X, y, criterion="gini", max_depth=1, max_features=1,
                  random_state=s).tree_.feature for s in range(30)}
    assert len(roots) >= 4                  # one random attribute per node: many different roots
    a = grow(X, y, criterion="gini", max_features="sqrt", random_state=3)
    b = grow(X, y, criterion="gini", max_features="sqrt", random_state=3)
    assert _same_tree(a.tree_, b.tree_)     # same seed, same tree


def test_max_features_falls_back_to_a_feature_that_can_split():
    # five constant columns and one informative: with max_features=1 every node
    # must still find the informative column, as scikit-learn's search does
    rng = np.random.default_rng(0)
    X = np.column_stack([np.ones((50, 5)), rng.normal(size=50)])
    y = (X[:, 5] > 0).astype(int)
    for grow in (_levelwise, _recursive):
        t = grow(X, y, criterion="gini", max_features=1, random_state=0)
        assert t.tree_.feature == 5 and t.score(X, y) == 1.0


@pytest.mark.parametrize("grow", [_levelwise, _recursive])
def test_min_samples_leaf(grow):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(150, 3))
    y = rng.integers(0, 2, 150)
    t = grow(X, y, criterion="gini", min_samples_leaf=7)
    leaves = [nd for nd in t._nodes() if nd.is_leaf]
    assert min(nd.n_samples for nd in leaves) >= 7
    assert t.get_n_leaves() > 3


@pytest.mark.parametrize("value, match", [(0, r"\[1, n_features=3\]"), (1.5, r"\(0, 1\]"),
                                          ("half", "max_features must be"),
                                          (True, "max_features must be")])
def test_bad_max_features(value, match):
    X = np.random.default_rng(0).normal(size=(10, 3))
    with pytest.raises((ValueError, TypeError), match=match):
        DecisionTreeClassifier(max_features=value).fit(X, np.arange(10) % 2)


def test_bad_min_samples_leaf():
    with pytest.raises(ValueError, match="min_samples_leaf must be >= 1"):
        DecisionTreeClassifier(min_samples_leaf=0).fit([[0.0], [1.0]], [0, 1])


@pytest.mark.parametrize("loader", [load_iris, load_wine, load_breast_cancer])
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_against_sklearn_cart(loader, criterion):
    sklearn = pytest.importorskip("sklearn")
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.tree import DecisionTreeClassifier as SkTree

    X, y = loader(return_X_y=True)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    ours = cross_val_score(DecisionTreeClassifier(criterion=criterion), X, y, cv=cv)
    theirs = cross_val_score(SkTree(criterion=criterion, random_state=0), X, y, cv=cv)
    # Both grow full trees with the same greedy rule; they differ only where two
    # splits tie (scikit-learn visits features in random order), which moves a
    # few test predictions: 0.03 is about 1 sample in 30 (one fold of iris has 30).
    assert abs(ours.mean() - theirs.mean()) < 0.03, (ours.mean(), theirs.mean())
    # the root splits the data the same way (on iris petal length and petal
    # width tie, both isolating setosa; so compare the partitions, not the features)
    a = DecisionTreeClassifier(criterion=criterion).fit(X, y).tree_
    b = SkTree(criterion=criterion, random_state=0).fit(X, y).tree_
    ours_left = X[:, a.feature] <= a.threshold
    theirs_left = X[:, b.feature[0]].astype(np.float32) <= b.threshold[0]
    assert np.array_equal(ours_left, theirs_left)


def test_sklearn_clone_and_params():
    pytest.importorskip("sklearn")
    from sklearn.base import clone

    tree = DecisionTreeClassifier(criterion="gini", max_depth=3)
    assert clone(tree).get_params() == tree.get_params()


def test_max_depth_and_min_samples_split():
    X, y = load_breast_cancer(return_X_y=True)
    assert DecisionTreeClassifier(max_depth=2).fit(X, y).get_depth() == 2
    big = DecisionTreeClassifier(min_samples_split=100).fit(X, y)
    # no internal node has fewer than 100 samples
    stack = [big.tree_]
    while stack:
        node = stack.pop()
        if not node.is_leaf:
            assert node.n_samples >= 100
            stack.extend(node.children)


def test_oblique_tree_needs_one_split_for_a_slanted_boundary():
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(200, 2))
    y = (X[:, 0] + X[:, 1] > 1).astype(int)
    oblique = ObliqueDecisionTreeClassifier().fit(X, y)
    axis = DecisionTreeClassifier().fit(X, y)
    assert oblique.get_n_leaves() == 2 and oblique.score(X, y) == 1.0
    # the staircase of an axis-parallel tree needs many leaves for the diagonal
    assert axis.get_n_leaves() > 4
    # the direction is the diagonal up to the estimate from 200 samples (and the
    # L2 penalty): 0.01 on a unit vector, about 0.6 degrees
    np.testing.assert_allclose(np.abs(oblique.tree_.coef), np.sqrt(0.5), rtol=0, atol=0.01)


def test_export_text_and_plot(wm2):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mlbook.plotting import plot_tree

    tree = DecisionTreeClassifier().fit(wm2.data, wm2.target)
    text = export_text(tree, wm2.feature_names, wm2.target_names)
    assert text.splitlines()[0] == "texture = clear"
    assert text.count(": yes") + text.count(": no") == tree.get_n_leaves()
    ax = plot_tree(tree, wm2.feature_names, wm2.target_names)
    n_nodes = sum(1 for _ in tree._nodes())
    # one box per node and one label per edge
    assert len(ax.texts) == n_nodes + (n_nodes - 1)
    plt.close(ax.figure)


# --------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------

def test_y_with_one_sample():
    with pytest.raises(ValueError, match="y has 1 sample"):
        DecisionTreeClassifier().fit([[1.0]], [0])


def test_lengths_differ():
    with pytest.raises(ValueError, match="X and y have different lengths"):
        DecisionTreeClassifier().fit(np.zeros((5, 2)), [0, 1, 0, 1])


@pytest.mark.parametrize("pruning", ["pre", "post"])
def test_pruning_without_validation_data(wm2, pruning):
    with pytest.raises(ValueError, match="needs a validation set"):
        DecisionTreeClassifier(pruning=pruning).fit(wm2.data, wm2.target)


def test_unknown_pruning(wm2):
    with pytest.raises(ValueError, match="pruning must be"):
        DecisionTreeClassifier(pruning="both").fit(wm2.data, wm2.target)


def test_unknown_criterion(wm2):
    with pytest.raises(ValueError, match="criterion must be one of"):
        DecisionTreeClassifier(criterion="mse").fit(wm2.data, wm2.target)
    with pytest.raises(ValueError, match="criterion must be one of"):
        best_threshold([0.1, 0.2], [0, 1], criterion="chi2")


def test_all_missing_column(wm2):
    X = wm2.data.copy()
    X[:, 2] = None
    with pytest.raises(ValueError, match="column 2 of X has no observed value"):
        DecisionTreeClassifier().fit(X, wm2.target)
    Xf = np.ones((4, 2))
    Xf[:, 1] = np.nan
    with pytest.raises(ValueError, match="column 1 of X has no observed value"):
        DecisionTreeClassifier().fit(Xf, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="no observed value"):
        information_gain([None, None], [0, 1])


def test_missing_labels(wm2):
    y = wm2.target.astype(object)
    y[3] = None
    with pytest.raises(ValueError, match="y contains missing labels"):
        DecisionTreeClassifier().fit(wm2.data, y)


def test_single_class(wm2):
    with pytest.raises(ValueError, match="single class"):
        DecisionTreeClassifier().fit(wm2.data, np.zeros(17))


def test_bad_hyper_parameters(wm2):
    with pytest.raises(ValueError, match="max_depth must be >= 1"):
        DecisionTreeClassifier(max_depth=0).fit(wm2.data, wm2.target)
    with pytest.raises(ValueError, match="min_samples_split must be >= 2"):
        DecisionTreeClassifier(min_samples_split=1).fit(wm2.data, wm2.target)


def test_validation_set_of_the_wrong_width(wm2):
    with pytest.raises(ValueError, match="X_val has 5 features"):
        DecisionTreeClassifier(pruning="post").fit(wm2.data, wm2.target,
                                                   wm2.data[:, :5], wm2.target)


def test_predict_before_fit_and_wrong_width(wm2):
    from mlbook._validation import NotFittedError

    with pytest.raises(NotFittedError):
        DecisionTreeClassifier().predict(wm2.data)
    tree = DecisionTreeClassifier().fit(wm2.data, wm2.target)
    with pytest.raises(ValueError, match="X has 5 features"):
        tree.predict(wm2.data[:, :5])


def test_string_in_a_continuous_column():
    wm = load_watermelon("3.0")
    tree = DecisionTreeClassifier().fit(wm.data, wm.target)
    X = wm.data.copy()
    X[0, 6] = "heavy"
    with pytest.raises(TypeError, match="column 6 of X must hold numbers"):
        tree.predict(X)


def test_single_valued_threshold():
    with pytest.raises(ValueError, match="single value"):
        best_threshold([1.0, 1.0, 1.0], [0, 1, 0])


def test_c45_heuristic_skips_below_average_gain():
    # A isolates one sample: tiny gain, tiny IV, so the largest gain ratio; B is
    # a noisy but useful split. C4.5 only considers attributes with at least the
    # average gain, so it takes B although A has the larger ratio.
    y = np.array([0] * 10 + [1] * 10)
    a = np.array(["u"] + ["v"] * 19, dtype=object)
    b = np.array(["p"] * 7 + ["q"] * 3 + ["p"] * 3 + ["q"] * 7, dtype=object)
    assert gain_ratio(a, y) > gain_ratio(b, y)
    assert information_gain(a, y) < information_gain(b, y)
    tree = DecisionTreeClassifier(criterion="gain_ratio", max_depth=1).fit(
        np.column_stack([a, b]), y)
    assert tree.tree_.feature == 1


def test_oblique_bad_input_and_probabilities():
    X, y = load_iris(return_X_y=True)
    proba = ObliqueDecisionTreeClassifier(max_depth=2).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="criterion must be 'entropy' or 'gini'"):
        ObliqueDecisionTreeClassifier(criterion="gain_ratio").fit(X, y)
    with pytest.raises(ValueError, match="alpha must be > 0"):
        ObliqueDecisionTreeClassifier(alpha=0.0).fit(X, y)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        ObliqueDecisionTreeClassifier().fit(Xn, y)


def test_best_threshold_gain_ratio_score():
    wm = load_watermelon("3.0alpha")
    x, y = wm.data[:, 1], wm.target
    t, ratio = best_threshold(x, y, criterion="gain_ratio")
    t_gain, gain = best_threshold(x, y, criterion="entropy")
    # C4.5 picks the threshold by gain and reports its ratio: IV of the two-way split
    r = np.mean(x <= t)
    assert t == t_gain
    assert abs(ratio - gain / (-r * np.log2(r) - (1 - r) * np.log2(1 - r))) < 1e-12


# --- bad and extreme input: rows of zero weight, export_text's names ----------

def test_tree_rows_of_zero_weight_do_not_move_thresholds():
    X = np.array([[0.0], [1.0], [5.0], [9.0]])
    y = np.array([0, 0, 1, 1])
    weighted = DecisionTreeClassifier().fit(X, y, sample_weight=[1, 1, 0, 1])
    dropped = DecisionTreeClassifier().fit(X[[0, 1, 3]], y[[0, 1, 3]])
    # guards against: threshold 3 (midpoint of 1 and the weightless 5) instead of 5
    assert export_text(weighted) == export_text(dropped) == "x0 <= 5: 0\nx0 > 5: 1"
    grid = np.linspace(-1, 10, 45)[:, None]
    np.testing.assert_array_equal(weighted.predict(grid), dropped.predict(grid))


def test_best_threshold_ignores_weightless_values():
    x = np.array([0.0, 1.0, 5.0, 9.0])
    y = np.array([0, 0, 1, 1])
    t, gain = best_threshold(x, y, sample_weight=[1, 1, 0, 1])
    t_ref, gain_ref = best_threshold(x[[0, 1, 3]], y[[0, 1, 3]])
    assert (t, gain) == (t_ref, gain_ref) == (5.0, gain_ref)


def test_tree_zero_weights_equal_dropping_rows_on_random_data():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=80) > 0).astype(int)
    w = rng.integers(0, 3, size=80).astype(float)          # a third of the rows weigh 0
    keep = w > 0
    a = DecisionTreeClassifier(max_depth=4).fit(X, y, sample_weight=w)
    b = DecisionTreeClassifier(max_depth=4).fit(X[keep], y[keep], sample_weight=w[keep])
    Xt = rng.normal(size=(300, 3))
    np.testing.assert_array_equal(a.predict_proba(Xt), b.predict_proba(Xt))


def test_tree_all_weight_on_one_class_is_an_error():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    with pytest.raises(ValueError, match="two classes with positive weight"):
        DecisionTreeClassifier().fit(X, [0, 0, 1, 1], sample_weight=[1, 1, 0, 0])
    with pytest.raises(ValueError, match="weight.*zero"):
        DecisionTreeClassifier().fit(X, [0, 0, 1, 1], sample_weight=[0, 0, 0, 0])


def test_export_text_checks_the_names():
    # guards against: IndexError: list index out of range
    X, y = binary(40, 3)
    tree = DecisionTreeClassifier(max_depth=2).fit(X, y)
    with pytest.raises(ValueError, match="feature_names has 1 name.*fitted with 3 features"):
        export_text(tree, feature_names=["a"])
    with pytest.raises(ValueError, match="class_names has 3 name.*2 classes"):
        export_text(tree, class_names=["a", "b", "c"])
