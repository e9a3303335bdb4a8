"""mlbook.ensemble: AdaBoost against scikit-learn and Zhou's form, bagging and forests, bad input."""

import numpy as np
import pytest

from input_data import noisy_threshold
from mlbook.datasets import load_breast_cancer, load_iris
from mlbook.ensemble import (AdaBoostClassifier, BaggingClassifier, RandomForestClassifier,
                             tree_feature_importances)
from mlbook.exceptions import DataConversionWarning
from mlbook.linear_model import LinearRegression
from mlbook.tree import DecisionTreeClassifier

sk_ens = pytest.importorskip("sklearn.ensemble")


def _continuous(seed, n=300, d=5, K=2):
    """Continuous features without ties, labels from a noisy non-linear rule."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    score = X[:, 0] + X[:, 1] ** 2 - X[:, 2] * X[:, 3] + 0.7 * rng.normal(size=n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, K + 1)[1:-1]))
    return X, y


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("K", [2, 3])
def test_adaboost_equals_sklearn(seed, K):
    X, y = _continuous(seed, K=K)
    ours = AdaBoostClassifier(n_estimators=20).fit(X, y)
    ref = sk_ens.AdaBoostClassifier(n_estimators=20).fit(X, y)
    # Both fit the same weighted Gini stumps (no ties, so the same thresholds) and
    # apply the same closed forms: 1e-8 (the bound) is far above the
    # observed ~1e-15, which is rounding in sums of weights.
    np.testing.assert_allclose(ours.estimator_weights_, ref.estimator_weights_, rtol=0, atol=1e-8)
    np.testing.assert_allclose(ours.estimator_errors_, ref.estimator_errors_, rtol=0, atol=1e-8)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X),
                               rtol=0, atol=1e-8)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), rtol=0, atol=1e-8)
    for a, b in zip(ours.staged_predict(X), ref.staged_predict(X)):
        np.testing.assert_array_equal(a, b)


class _PlainTree(DecisionTreeClassifier):
    """A subclass, so that the ensembles call its fit instead of their presorted shortcut."""


@pytest.mark.parametrize("K", [2, 3])
def test_adaboost_shortcut_grows_the_trees_fit_grows(K):
    X, y = _continuous(11, K=K)
    X[:, 1] = np.round(X[:, 1], 1)                          # ties in one column
    fast = AdaBoostClassifier(n_estimators=25).fit(X, y)
    plain = AdaBoostClassifier(_PlainTree(criterion="gini", max_depth=1),
                               n_estimators=25).fit(X, y)
    # the same stumps, so the same arithmetic on the weights: exactly equal
    np.testing.assert_array_equal(fast.estimator_weights_, plain.estimator_weights_)
    for a, b in zip(fast.estimators_, plain.estimators_):
        assert (a.tree_.feature, a.tree_.threshold) == (b.tree_.feature, b.tree_.threshold)


def test_forest_shortcut_grows_the_trees_fit_grows():
    X, y = load_iris(return_X_y=True)                       # many ties
    forest = RandomForestClassifier(n_estimators=8, random_state=0).fit(X, y)
    for h, rows in zip(forest.estimators_, forest.estimators_samples_):
        distinct, mult = np.unique(rows, return_counts=True)
        plain = DecisionTreeClassifier(criterion="gini", max_features="sqrt",
                                       random_state=h.random_state).fit(
            X[distinct], y[distinct], sample_weight=mult.astype(float))
        np.testing.assert_array_equal(h.predict_proba(X), plain.predict_proba(X))
        assert h.get_n_leaves() == plain.get_n_leaves()


def test_binary_samme_is_zhou_adaboost_up_to_a_factor_two():
    """Zhou's figure 8.3 with labels in {-1, +1}: alpha = 1/2 ln((1 - eps) / eps)."""
    X, y01 = _continuous(7)
    y = 2 * y01 - 1
    T = 15
    D = np.full(len(y), 1 / len(y))
    alphas, H = [], np.zeros(len(y))
    for _ in range(T):
        h = DecisionTreeClassifier(criterion="gini", max_depth=1).fit(X, y, sample_weight=D)
        pred = h.predict(X)
        eps = D[pred != y].sum()
        alpha = 0.5 * np.log((1 - eps) / eps)
        alphas.append(alpha)
        H += alpha * pred
        D = D * np.exp(-alpha * y * pred)
        D /= D.sum()
    ours = AdaBoostClassifier(n_estimators=T).fit(X, y)
    np.testing.assert_allclose(ours.estimator_weights_, 2 * np.array(alphas), rtol=1e-12, atol=0)
    np.testing.assert_array_equal(ours.predict(X), np.sign(H))


def test_adaboost_stops_on_a_perfect_learner():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    ada = AdaBoostClassifier(n_estimators=10).fit(X, y)
    assert len(ada.estimators_) == 1
    # alpha = ln((1 - 0) / 0) = inf: the perfect learner is kept and decides
    assert ada.estimator_weights_.tolist() == [np.inf] + [0.0] * 9
    assert ada.estimator_errors_[0] == 0.0
    np.testing.assert_array_equal(ada.predict(X), y)
    # alone in the ensemble it gives scikit-learn's decision function and probabilities
    # (scikit-learn's weight 1 for a lone learner normalises to the same vote); 1e-12:
    # both are the learner's +-1 vote and one logistic of it
    ref = sk_ens.AdaBoostClassifier(n_estimators=10).fit(X, y)
    np.testing.assert_allclose(ada.decision_function(X), ref.decision_function(X),
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(ada.predict_proba(X), ref.predict_proba(X), rtol=0, atol=1e-12)


def _xor(seed, n=30):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (n, 2))
    return X, ((X[:, 0] > 0.2) ^ (X[:, 1] > -0.3)).astype(int)


@pytest.mark.parametrize("seed", [14, 103, 151, 173])
def test_a_perfect_round_after_the_first_decides_alone(seed):
    # XOR with depth-2 trees: the greedy first tree errs, a later one is perfect. With the
    # perfect learner kept at weight 1 (scikit-learn's rule) the earlier rounds outvote it
    # on these draws and the training error is positive although prod Z_t = 0; its weight
    # is infinite, so it decides alone and the training-error bound holds.
    X, y = _xor(seed)
    ada = AdaBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=20).fit(X, y)
    n = len(ada.estimators_)
    assert n >= 2 and ada.estimator_errors_[n - 1] == 0.0     # the case of the test
    assert ada.estimator_weights_[n - 1] == np.inf
    assert np.isfinite(ada.estimator_weights_[:n - 1]).all()
    # the weight-1 rule on the same learners: outvoted on at least one training sample
    votes = sum(w * (h.predict(X)[:, None] == ada.classes_[None, :])
                for h, w in zip(ada.estimators_, [*ada.estimator_weights_[:n - 1], 1.0]))
    assert np.mean(ada.classes_[np.argmax(votes, axis=1)] != y) > 0
    assert np.mean(ada.predict(X) != y) == 0.0               # prod Z_t = 0 >= training error
    grid = np.random.default_rng(seed + 1).uniform(-1, 1, (500, 2))
    last = ada.estimators_[-1]
    np.testing.assert_array_equal(ada.predict(grid), last.predict(grid))
    # its vote alone: decision +-2, probability of class 1 the logistic of it; 1e-12: one
    # exponential in float64
    f_last = np.where(last.predict(grid) == 1, 2.0, -2.0)
    np.testing.assert_array_equal(ada.decision_function(grid), f_last)
    np.testing.assert_allclose(ada.predict_proba(grid)[:, 1], 1 / (1 + np.exp(-f_last)),
                               rtol=0, atol=1e-12)
    # the stages before the perfect round are the finite normalised votes, as before
    stages = list(ada.staged_decision_function(X))
    assert len(stages) == n
    w = ada.estimator_weights_[:n - 1]
    f = sum(a * np.where(h.predict(X) == 1, 1.0, -1.0) for h, a in zip(ada.estimators_, w))
    # 1e-12: the same sums of at most 19 weights, in the same order
    np.testing.assert_allclose(stages[n - 2], 2 * f / w.sum(), rtol=0, atol=1e-12)


def test_adaboost_refuses_a_learner_no_better_than_chance():
    X = np.zeros((6, 1))                   # a stump cannot split: error 1/2 = 1 - 1/K
    y = np.array([0, 1, 0, 1, 0, 1])
    with pytest.raises(ValueError, match="no better than chance"):
        AdaBoostClassifier().fit(X, y)


def test_adaboost_training_error_bound():
    X, y = _continuous(3, n=400)
    ada = AdaBoostClassifier(n_estimators=40).fit(X, y)
    eps = ada.estimator_errors_[:len(ada.estimators_)]
    bound = np.cumprod(2 * np.sqrt(eps * (1 - eps)))
    gamma = 0.5 - eps
    loose = np.exp(-2 * np.cumsum(gamma ** 2))
    train_err = np.array([np.mean(p != y) for p in ada.staged_predict(X)])
    assert np.all(train_err <= bound + 1e-12)
    assert np.all(bound <= loose + 1e-12)


def test_staged_score_and_proba_rows():
    X, y = _continuous(4, K=3)
    ada = AdaBoostClassifier(n_estimators=12, learning_rate=0.5).fit(X, y)
    scores = list(ada.staged_score(X, y))
    assert len(scores) == len(ada.estimators_)
    assert scores[-1] == ada.score(X, y)
    np.testing.assert_allclose(ada.predict_proba(X).sum(axis=1), 1.0, rtol=0, atol=1e-12)


def test_bagging_oob_and_samples():
    X, y = load_breast_cancer(return_X_y=True)
    bag = BaggingClassifier(n_estimators=25, oob_score=True, random_state=0).fit(X, y)
    m = X.shape[0]
    assert all(s.shape == (m,) for s in bag.estimators_samples_)
    out = np.mean([1 - np.unique(s).shape[0] / m for s in bag.estimators_samples_])
    # (1 - 1/m)^m = 0.3675 for m = 569; 25 samples of 569 indicators: s.e. ~0.004
    assert abs(out - (1 - 1 / m) ** m) < 0.02
    np.testing.assert_allclose(bag.oob_decision_function_.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert bag.oob_score_ == np.mean(bag.classes_[bag.oob_decision_function_.argmax(1)] == y)
    np.testing.assert_allclose(
        bag.predict_proba(X),
        np.mean([h.predict_proba(X) for h in bag.estimators_], axis=0), rtol=0, atol=1e-15)


def test_bagging_and_forest_are_comparable_to_sklearn_over_seeds():
    # Identical randomness is not expected (different generators and draw
    # orders), so compare the distributions of the out-of-bag accuracy over
    # seeds: the means must agree within 0.015, about 3 standard errors of the
    # difference of two means of 8 values whose spread is ~0.01.
    X, y = load_breast_cancer(return_X_y=True)
    ours_b, ref_b, ours_f, ref_f = [], [], [], []
    for seed in range(8):
        ours_b.append(BaggingClassifier(n_estimators=15, oob_score=True,
                                        random_state=seed).fit(X, y).oob_score_)
        ref_b.append(sk_ens.BaggingClassifier(n_estimators=15, oob_score=True,
                                              random_state=seed).fit(X, y).oob_score_)
        ours_f.append(RandomForestClassifier(n_estimators=30, oob_score=True,
                                             random_state=seed).fit(X, y).oob_score_)
        ref_f.append(sk_ens.RandomForestClassifier(n_estimators=30, oob_score=True,
                                                   random_state=seed).fit(X, y).oob_score_)
    assert abs(np.mean(ours_b) - np.mean(ref_b)) < 0.015
    assert abs(np.mean(ours_f) - np.mean(ref_f)) < 0.015


def test_forest_importances_find_the_informative_features():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 6))
    y = (X[:, 0] + X[:, 3] > 0).astype(int)
    rf = RandomForestClassifier(n_estimators=30, random_state=0).fit(X, y)
    assert rf.feature_importances_.sum() == pytest.approx(1.0, abs=1e-12)
    assert set(np.argsort(rf.feature_importances_)[-2:]) == {0, 3}
    one = tree_feature_importances(rf.estimators_[0])
    assert one.shape == (6,) and one.sum() == pytest.approx(1.0, abs=1e-12)


def test_tree_importances_by_hand():
    # one split of a 2-class set: the whole Gini decrease goes to the split's feature
    X = np.array([[0.0, 5.0], [1.0, 4.0], [2.0, 3.0], [3.0, 3.5]])
    t = DecisionTreeClassifier(criterion="gini", max_depth=1).fit(X, [0, 0, 1, 1])
    np.testing.assert_array_equal(tree_feature_importances(t), [1.0, 0.0])


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_tree_importances_equal_sklearn(criterion):
    # The same tree in both libraries gives the same importances. Leaves of at
    # least 50 samples keep two attributes from splitting a node equally well
    # (in tiny nodes many do, and the libraries break such ties differently);
    # the walk below checks that the trees are the same. Thresholds agree to
    # 1e-6 only, because scikit-learn stores X as float32 (midpoints of values
    # rounded to ~6e-8 relative, |x| < 5 here). The importances are then the
    # same sums of the same impurities: 1e-12 allows for the order of summation.
    sk_tree = pytest.importorskip("sklearn.tree")
    X, y = _continuous(0, n=3000, d=6, K=3)
    kw = dict(criterion=criterion, max_depth=6, min_samples_leaf=50)
    ours = DecisionTreeClassifier(**kw).fit(X, y)
    ref = sk_tree.DecisionTreeClassifier(**kw, random_state=0).fit(X, y).tree_

    def same(node, i):
        if node.is_leaf or ref.children_left[i] < 0:
            return node.is_leaf and ref.children_left[i] < 0
        return (node.feature == ref.feature[i]
                and abs(node.threshold - ref.threshold[i]) <= 1e-6
                and same(node.children[0], ref.children_left[i])
                and same(node.children[1], ref.children_right[i]))

    assert same(ours.tree_, 0) and ours.get_n_leaves() > 15
    np.testing.assert_allclose(tree_feature_importances(ours),
                               ref.compute_feature_importances(), rtol=1e-12, atol=0)


def test_forest_is_reproducible_and_seed_dependent():
    X, y = load_iris(return_X_y=True)
    a = RandomForestClassifier(n_estimators=10, random_state=1).fit(X, y).predict_proba(X)
    b = RandomForestClassifier(n_estimators=10, random_state=1).fit(X, y).predict_proba(X)
    c = RandomForestClassifier(n_estimators=10, random_state=2).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


# --- bad input -------------------------------------------------------------------

X_OK, Y_OK = _continuous(0, n=40)


@pytest.mark.parametrize("est", [AdaBoostClassifier(n_estimators=0),
                                 BaggingClassifier(n_estimators=0),
                                 RandomForestClassifier(n_estimators=-1)])
def test_n_estimators(est):
    with pytest.raises(ValueError, match="n_estimators must be >= 1"):
        est.fit(X_OK, Y_OK)


@pytest.mark.parametrize("rate", [0.0, -1.0])
def test_learning_rate(rate):
    with pytest.raises(ValueError, match="learning_rate must be > 0"):
        AdaBoostClassifier(learning_rate=rate).fit(X_OK, Y_OK)


@pytest.mark.parametrize("kw, match", [
    ({"max_samples": 0}, r"max_samples must lie in \[1, .*\] as an int"),
    ({"max_samples": 1.5}, r"max_samples must lie in \(0, 1\] as a float"),
    ({"max_features": 99}, r"max_features must lie in \[1, .*\] as an int"),
    ({"max_features": 0.0}, r"max_features must lie in \(0, 1\] as a float"),
])
def test_bagging_ranges(kw, match):
    with pytest.raises(ValueError, match=match):
        BaggingClassifier(**kw).fit(X_OK, Y_OK)


def test_forest_max_features():
    with pytest.raises(ValueError, match="max_features"):
        RandomForestClassifier(max_features="most").fit(X_OK, Y_OK)


def test_estimator_without_sample_weight():
    class NoWeights:
        def fit(self, X, y):
            return self

        def predict(self, X):
            return np.zeros(len(X))

    with pytest.raises(ValueError, match="cannot take sample weights"):
        AdaBoostClassifier(estimator=NoWeights()).fit(X_OK, Y_OK)
    with pytest.raises(TypeError, match="must be a classifier"):
        AdaBoostClassifier(estimator=LinearRegression.__name__).fit(X_OK, Y_OK)


@pytest.mark.parametrize("est", [BaggingClassifier(bootstrap=False, oob_score=True),
                                 RandomForestClassifier(bootstrap=False, oob_score=True)])
def test_oob_needs_bootstrap(est):
    with pytest.raises(ValueError, match="oob_score=True needs bootstrap=True"):
        est.fit(X_OK, Y_OK)


@pytest.mark.parametrize("est", [AdaBoostClassifier(), BaggingClassifier(),
                                 RandomForestClassifier(n_estimators=3)])
def test_single_class_and_predict_before_fit(est):
    with pytest.raises(ValueError, match="single class"):
        est.fit(X_OK, np.ones(len(X_OK)))
    with pytest.raises(ValueError, match="not fitted"):
        type(est)().predict(X_OK)


def test_nan_in_X():
    X = X_OK.copy()
    X[0, 0] = np.nan
    for est in (AdaBoostClassifier(), BaggingClassifier(), RandomForestClassifier(n_estimators=2)):
        with pytest.raises(ValueError, match="NaN"):
            est.fit(X, Y_OK)


def test_nested_random_states_are_seeded_by_the_ensemble():
    """A member's randomness follows the ensemble's random_state, also when it sits
    inside a pipeline (scikit-learn's _set_random_states): before, the random
    projection of every member drew fresh entropy, so two fits with
    random_state=0 differed by up to 0.18 in predict_proba."""
    from sklearn.linear_model import LogisticRegression as SkLogistic
    from sklearn.pipeline import make_pipeline
    from sklearn.random_projection import GaussianRandomProjection

    X, y = load_breast_cancer(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)

    def bagging():
        base = make_pipeline(GaussianRandomProjection(2), SkLogistic())
        return BaggingClassifier(base, n_estimators=5, random_state=0).fit(X, y)

    a, b = bagging(), bagging()
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    seeds = [h.get_params()["gaussianrandomprojection__random_state"] for h in a.estimators_]
    assert all(isinstance(s, int) for s in seeds) and len(set(seeds)) == len(seeds)

    # AdaBoost seeds its rounds the same way (a tree with max_features draws)
    def ada():
        return AdaBoostClassifier(DecisionTreeClassifier(criterion="gini", max_depth=2,
                                                         max_features=1),
                                  n_estimators=10, random_state=0).fit(X, y)

    np.testing.assert_array_equal(ada().predict_proba(X), ada().predict_proba(X))


# --- bad input, as scikit-learn's estimator checks want it ---------------------

ENSEMBLES = [AdaBoostClassifier, BaggingClassifier, RandomForestClassifier]


@pytest.mark.parametrize("Est", ENSEMBLES, ids=lambda c: c.__name__)
def test_ensemble_predict_names_the_expected_feature_count(Est):
    X, y = noisy_threshold()
    model = Est(random_state=0).fit(X, y)
    with pytest.raises(ValueError, match=f"X has 2 features, but {Est.__name__} is expecting "
                                         "3 features as input"):
        model.predict(X[:, :2])


@pytest.mark.parametrize("Est", ENSEMBLES, ids=lambda c: c.__name__)
def test_ensemble_column_vector_y_warns_and_fits_the_same(Est):
    X, y = noisy_threshold()
    flat = Est(random_state=0).fit(X, y).predict_proba(X)
    with pytest.warns(DataConversionWarning, match="A column-vector y was passed"):
        column = Est(random_state=0).fit(X, y[:, None]).predict_proba(X)
    np.testing.assert_array_equal(column, flat)


def test_adaboost_all_zero_sample_weights_is_an_error():
    X, y = noisy_threshold()
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        AdaBoostClassifier().fit(X, y, sample_weight=np.zeros(len(y)))
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        AdaBoostClassifier().fit(X, y, sample_weight=-np.ones(len(y)))
