"""Tests of mlbook.ensemble's gradient boosting (GradientBoostingRegressor,
GradientBoostingClassifier): stage by stage against scikit-learn, the line search
at the leaves, subsampling and its out-of-bag estimates, the API, and bad input."""

from __future__ import annotations

import inspect

import numpy as np

import pytest

from mlbook.ensemble import GradientBoostingClassifier, GradientBoostingRegressor
from mlbook.exceptions import NotFittedError

# Against scikit-learn, stage by stage: the same trees and line searches in
# another summation order. The values compared (losses, raw scores, probabilities)
# are at most ~10, and they agree to a few ulp: every comparison here passes at
# 1e-14. 1e-13 leaves a factor of ten for another summation order (another BLAS,
# another machine) and is still 1e11 below what a wrong formula changes (a
# dropped (K-1)/K or Newton denominator moves the scores by > 1e-2).
ORACLE = 1e-13
N_STAGES = 20
# Checks by hand: the same formula summed in another order; the values are of
# order 1, so they agree to a few ulp (1e-15), and 1e-12 leaves room for that only.
HAND = 1e-12


def _regression(rng, n=300, d=4):
    """Continuous features and targets: no two equal values anywhere."""
    X = rng.normal(size=(n, d))
    y = X[:, 0] ** 2 + np.sin(3 * X[:, min(1, d - 1)]) + 0.3 * rng.normal(size=n)
    return X, y


def _classification(rng, n_classes, n=300, d=4):
    X = rng.normal(size=(n, d))
    score = X[:, 0] + X[:, min(1, d - 1)] * X[:, min(2, d - 1)] + 0.5 * rng.normal(size=n)
    if n_classes == 2:
        return X, (score > 0).astype(int)
    return X, np.digitize(score, [-0.6, 0.6])


def _assert_close_stages(ours, theirs, what):
    for m, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=0, atol=ORACLE,
                                   err_msg=f"{what}, stage {m + 1}")


# --------------------------------------------------------------------------
# against scikit-learn, stage by stage
# --------------------------------------------------------------------------

@pytest.mark.parametrize("loss", ["squared_error", "absolute_error"])
def test_regressor_matches_scikit_learn_stage_by_stage(loss):
    skens = pytest.importorskip("sklearn.ensemble")
    rng = np.random.default_rng(0)
    # The absolute error fits trees to signs (+-1): splits of two features then tie
    # exactly in score, and scikit-learn breaks such ties by a random order of the
    # features, we by the first; with one feature there is no such tie.
    # An odd n for the absolute error: its median is then a training target, so some
    # residual y - F is exactly 0 and the sign convention there (+1) is compared.
    X, y = (_regression(rng, d=4) if loss == "squared_error" else _regression(rng, n=301, d=1))
    Xt = rng.normal(size=(200, X.shape[1]))
    ours = GradientBoostingRegressor(loss=loss, n_estimators=N_STAGES).fit(X, y)
    theirs = skens.GradientBoostingRegressor(loss=loss, n_estimators=N_STAGES,
                                             random_state=0).fit(X, y)
    np.testing.assert_allclose(ours.train_score_, theirs.train_score_, rtol=0, atol=ORACLE)
    np.testing.assert_allclose(ours.init_raw_prediction_, np.ravel(theirs.init_.constant_),
                               rtol=0, atol=ORACLE)
    _assert_close_stages(ours.staged_predict(X), theirs.staged_predict(X), "training data")
    if X.shape[1] == 1:
        _assert_close_stages(ours.staged_predict(Xt), theirs.staged_predict(Xt), "new data")


@pytest.mark.parametrize("loss, n_classes", [("log_loss", 2), ("log_loss", 3),
                                             ("exponential", 2)])
def test_classifier_matches_scikit_learn_stage_by_stage(loss, n_classes):
    skens = pytest.importorskip("sklearn.ensemble")
    # Continuous sample weights: unweighted, the first tree fits y - p, which takes
    # two values, and splits of different features can tie exactly in score;
    # scikit-learn then takes the first in a random order of the features, we the
    # first (unweighted, 2 of 20 binary and 5 of 20 three-class seeds of these data
    # differ; weighted, all 20 of each agree to 1e-15). Unweighted data with one
    # feature, where no such tie exists, are compared in the next test.
    rng = np.random.default_rng(1)
    X, y = _classification(rng, n_classes)
    w = rng.uniform(0.5, 2.0, size=X.shape[0])
    ours = GradientBoostingClassifier(loss=loss, n_estimators=N_STAGES).fit(X, y, sample_weight=w)
    theirs = skens.GradientBoostingClassifier(loss=loss, n_estimators=N_STAGES,
                                              random_state=0).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.train_score_, theirs.train_score_, rtol=0, atol=ORACLE)
    _assert_close_stages(ours.staged_decision_function(X),
                         theirs.staged_decision_function(X), "decision function")
    _assert_close_stages(ours.staged_predict_proba(X), theirs.staged_predict_proba(X),
                         "probabilities")
    for a, b in zip(ours.staged_predict(X), theirs.staged_predict(X)):
        np.testing.assert_array_equal(a, b)
    assert ours.estimators_.shape == theirs.estimators_.shape == (
        N_STAGES, 1 if n_classes == 2 else n_classes)


@pytest.mark.parametrize("make", ["squared_error", "absolute_error", "log_loss-2",
                                  "log_loss-3", "exponential-2"])
def test_one_feature_same_predictions_on_new_data(make):
    # one feature: no split can tie with another feature's, so the trees are the same
    # everywhere and the staged predictions agree on new data too
    skens = pytest.importorskip("sklearn.ensemble")
    rng = np.random.default_rng(2)
    Xt = rng.normal(size=(200, 1))
    if make in ("squared_error", "absolute_error"):
        X, y = _regression(rng, d=1)
        ours = GradientBoostingRegressor(loss=make, n_estimators=N_STAGES).fit(X, y)
        theirs = skens.GradientBoostingRegressor(loss=make, n_estimators=N_STAGES,
                                                 random_state=0).fit(X, y)
        _assert_close_stages(ours.staged_predict(Xt), theirs.staged_predict(Xt), make)
    else:
        loss, k = make.split("-")
        X, y = _classification(rng, int(k), d=1)
        ours = GradientBoostingClassifier(loss=loss, n_estimators=N_STAGES).fit(X, y)
        theirs = skens.GradientBoostingClassifier(loss=loss, n_estimators=N_STAGES,
                                                  random_state=0).fit(X, y)
        _assert_close_stages(ours.staged_predict_proba(Xt), theirs.staged_predict_proba(Xt),
                             make)


@pytest.mark.parametrize("classifier", [False, True])
def test_feature_importances_and_weights_match_scikit_learn(classifier):
    skens = pytest.importorskip("sklearn.ensemble")
    # Depth 2 and bounded features and noise: no node is small, so no two features
    # split one alike. (A classifier's first tree fits y_k - p_k, which takes two
    # values: two features may then reach the same best score with different
    # partitions, a tie scikit-learn breaks by a random order of the features and
    # we by the first; these data have no such tie, as the equal train_score_ shows.)
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(300, 4))
    y = X[:, 0] + 0.5 * X[:, 1] * X[:, 2] + 0.2 * rng.uniform(-1, 1, size=300)
    if classifier:
        y = np.digitize(y, [-0.3, 0.3])
    w = rng.uniform(0.5, 2.0, size=X.shape[0])
    params = {"n_estimators": 15, "max_depth": 2}
    if classifier:
        ours = GradientBoostingClassifier(**params).fit(X, y, sample_weight=w)
        theirs = skens.GradientBoostingClassifier(random_state=0, **params)
        theirs.fit(X, y, sample_weight=w)
    else:
        ours = GradientBoostingRegressor(**params).fit(X, y, sample_weight=w)
        theirs = skens.GradientBoostingRegressor(random_state=0, **params)
        theirs.fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.train_score_, theirs.train_score_, rtol=0, atol=ORACLE)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_,
                               rtol=0, atol=1e-10)
    Xt = rng.normal(size=(100, X.shape[1]))
    if classifier:
        np.testing.assert_allclose(ours.predict_proba(Xt), theirs.predict_proba(Xt),
                                   rtol=0, atol=ORACLE)
    else:
        np.testing.assert_allclose(ours.predict(Xt), theirs.predict(Xt), rtol=0, atol=ORACLE)


# --------------------------------------------------------------------------
# the algorithm's pieces, checked by hand
# --------------------------------------------------------------------------

def test_first_stage_by_hand_squared_and_absolute():
    rng = np.random.default_rng(4)
    X, y = _regression(rng, n=120, d=2)
    lr = 0.3
    sq = GradientBoostingRegressor(n_estimators=1, learning_rate=lr).fit(X, y)
    assert sq.init_raw_prediction_[0] == pytest.approx(y.mean(), rel=0, abs=HAND)
    tree = sq.estimators_[0, 0]
    leaf = tree.apply(X)
    for j in np.unique(leaf):            # a leaf holds the mean residual y - F_0
        m = leaf == j
        assert tree.predict(X[m])[0] == pytest.approx((y[m] - y.mean()).mean(), rel=0,
                                                      abs=HAND)
    np.testing.assert_allclose(sq.predict(X), y.mean() + lr * tree.predict(X), rtol=0,
                               atol=HAND)
    assert sq.train_score_[0] == pytest.approx(np.mean((y - sq.predict(X)) ** 2), rel=0,
                                               abs=HAND)

    ab = GradientBoostingRegressor(loss="absolute_error", n_estimators=1).fit(X, y)
    F0 = np.median(y)
    assert ab.init_raw_prediction_[0] == F0
    tree = ab.estimators_[0, 0]
    leaf = tree.apply(X)
    for j in np.unique(leaf):            # a leaf holds the (lower) median residual
        m = leaf == j
        lower_median = np.quantile(y[m] - F0, 0.5, method="inverted_cdf")
        assert tree.predict(X[m])[0] == lower_median
    assert ab.train_score_[0] == pytest.approx(np.mean(np.abs(y - ab.predict(X))), rel=0,
                                               abs=HAND)


def test_newton_step_and_multinomial_factor_by_hand():
    rng = np.random.default_rng(5)
    X, y = _classification(rng, 3, n=150)
    gb = GradientBoostingClassifier(n_estimators=1, learning_rate=1.0).fit(X, y)
    prior = np.bincount(y) / y.shape[0]
    np.testing.assert_allclose(gb.init_raw_prediction_, np.log(prior) - np.log(prior).mean(),
                               rtol=0, atol=1e-12)
    p = prior                                    # softmax of the initial raw predictions
    for k in range(3):
        tree = gb.estimators_[0, k]
        leaf = tree.apply(X)
        g = (y == k) - p[k]                      # the pseudo-residual y_k - p_k
        for j in np.unique(leaf):
            m = leaf == j
            expected = (2 / 3) * g[m].sum() / (p[k] * (1 - p[k]) * m.sum())
            assert tree.predict(X[m])[0] == pytest.approx(expected, rel=1e-12)

    Xb, yb = _classification(rng, 2, n=150)
    gb = GradientBoostingClassifier(n_estimators=1, learning_rate=1.0).fit(Xb, yb)
    p1 = yb.mean()
    assert gb.init_raw_prediction_[0] == pytest.approx(np.log(p1 / (1 - p1)), rel=0, abs=HAND)
    tree = gb.estimators_[0, 0]
    leaf = tree.apply(Xb)
    for j in np.unique(leaf):
        m = leaf == j
        expected = (yb[m] - p1).sum() / (p1 * (1 - p1) * m.sum())
        assert tree.predict(Xb[m])[0] == pytest.approx(expected, rel=1e-12)
    # train_score_ is the binomial deviance: twice the mean log-loss
    q = gb.predict_proba(Xb)[:, 1]
    deviance = -2 * np.mean(yb * np.log(q) + (1 - yb) * np.log(1 - q))
    assert gb.train_score_[0] == pytest.approx(deviance, rel=1e-12)


def test_exponential_loss_probabilities_and_score():
    rng = np.random.default_rng(6)
    X, y = _classification(rng, 2, n=200)
    gb = GradientBoostingClassifier(loss="exponential", n_estimators=10).fit(X, y)
    F = gb.decision_function(X)
    # P(y = 1) = sigma(2F): F is half the log-odds, as for AdaBoost
    np.testing.assert_allclose(gb.predict_proba(X)[:, 1], 1 / (1 + np.exp(-2 * F)), rtol=0,
                               atol=1e-12)
    assert gb.train_score_[-1] == pytest.approx(np.mean(np.exp(-(2 * y - 1) * F)), rel=1e-12)
    np.testing.assert_array_equal(gb.predict(X), (F > 0).astype(int))


# --------------------------------------------------------------------------
# subsampling
# --------------------------------------------------------------------------

def test_subsample_is_deterministic_and_changes_the_model():
    rng = np.random.default_rng(7)
    X, y = _regression(rng, n=200)
    params = {"n_estimators": 15, "subsample": 0.5}
    a = GradientBoostingRegressor(random_state=0, **params).fit(X, y).predict(X)
    b = GradientBoostingRegressor(random_state=0, **params).fit(X, y).predict(X)
    np.testing.assert_array_equal(a, b)
    c = GradientBoostingRegressor(random_state=1, **params).fit(X, y).predict(X)
    full = GradientBoostingRegressor(n_estimators=15).fit(X, y).predict(X)
    assert not np.array_equal(a, c) and not np.array_equal(a, full)
    assert not hasattr(GradientBoostingRegressor(n_estimators=2).fit(X, y), "oob_improvement_")


@pytest.mark.parametrize("classifier", [False, True])
def test_out_of_bag_scores_are_computed_on_the_left_out_rows(classifier):
    rng = np.random.default_rng(8)
    n, M, frac = 151, 8, 0.7             # 0.7 * 151 = 105.7: the count truncates to 105
    if classifier:
        X, y = _classification(rng, 2, n=n)
        gb = GradientBoostingClassifier(n_estimators=M, subsample=frac, random_state=3)
        staged = gb.fit(X, y).staged_predict_proba

        def loss(rows, proba):           # the binomial deviance
            return -2 * np.mean(np.log(proba[rows, y[rows]]))
        initial = np.tile([1 - y.mean(), y.mean()], (n, 1))
    else:
        X, y = _regression(rng, n=n)
        gb = GradientBoostingRegressor(n_estimators=M, subsample=frac, random_state=3)
        staged = gb.fit(X, y).staged_predict

        def loss(rows, pred):
            return np.mean((y[rows] - pred[rows]) ** 2)
        initial = np.full(n, y.mean())
    # the draws: one Generator seeded by random_state, int(frac * n) rows per stage
    draw = np.random.default_rng(3)
    masks = []
    for _ in range(M):
        mask = np.zeros(n, dtype=bool)
        mask[draw.choice(n, size=int(frac * n), replace=False)] = True
        masks.append(mask)
    previous = loss(~masks[0], initial)
    for m, pred in enumerate(staged(X)):
        assert gb.train_score_[m] == pytest.approx(loss(masks[m], pred), rel=1e-10)
        assert gb.oob_scores_[m] == pytest.approx(loss(~masks[m], pred), rel=1e-10)
        assert gb.oob_improvement_[m] == pytest.approx(previous - gb.oob_scores_[m], rel=1e-9,
                                                       abs=1e-12)
        previous = gb.oob_scores_[m]
    assert gb.oob_score_ == gb.oob_scores_[-1]


# --------------------------------------------------------------------------
# the API
# --------------------------------------------------------------------------

def test_api_of_the_fitted_estimators():
    rng = np.random.default_rng(9)
    X, y = _classification(rng, 3, n=120)
    y = np.array(["a", "b", "c"])[y]
    gb = GradientBoostingClassifier(n_estimators=5).fit(X, y)
    np.testing.assert_array_equal(gb.classes_, ["a", "b", "c"])
    assert gb.n_estimators_ == 5 and gb.n_features_in_ == 4
    assert inspect.isgenerator(gb.staged_predict(X))
    assert inspect.isgenerator(gb.staged_predict_proba(X))
    assert inspect.isgenerator(gb.staged_decision_function(X))
    proba = gb.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(list(gb.staged_predict(X))[-1], gb.predict(X))
    np.testing.assert_array_equal(list(gb.staged_decision_function(X))[-1],
                                  gb.decision_function(X))
    Xb, yb = _classification(rng, 2, n=120)
    binary = GradientBoostingClassifier(n_estimators=3).fit(Xb, yb)
    assert binary.decision_function(Xb).shape == (120,)               # as scikit-learn
    assert next(binary.staged_decision_function(Xb)).shape == (120, 1)
    assert gb.score(X, y) == np.mean(gb.predict(X) == y)
    assert gb.feature_importances_.sum() == pytest.approx(1.0, rel=0, abs=HAND)

    Xr, yr = _regression(rng, n=120)
    reg = GradientBoostingRegressor(n_estimators=5).fit(Xr, yr)
    assert reg.estimators_.shape == (5, 1)
    np.testing.assert_array_equal(list(reg.staged_predict(Xr))[-1], reg.predict(Xr))
    assert 0 < reg.score(Xr, yr) < 1
    assert reg.get_params()["loss"] == "squared_error"
    assert GradientBoostingClassifier().get_params()["loss"] == "log_loss"


# --------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------

@pytest.mark.parametrize("params, name", [
    ({"learning_rate": 0.0}, "learning_rate"), ({"learning_rate": -0.1}, "learning_rate"),
    ({"subsample": 0.0}, "subsample"), ({"subsample": 1.5}, "subsample"),
    ({"loss": "huberish"}, "loss"), ({"n_estimators": 0}, "n_estimators"),
    ({"max_depth": 0}, "max_depth")])
@pytest.mark.parametrize("cls", [GradientBoostingRegressor, GradientBoostingClassifier])
def test_bad_parameters_are_named(cls, params, name):
    X = np.arange(20.0).reshape(10, 2)
    y = np.arange(10) % 2
    with pytest.raises(ValueError, match=name):
        cls(**params).fit(X, y)


def test_bad_data_is_refused():
    X = np.arange(30.0).reshape(10, 3)
    with pytest.raises(ValueError, match="exponential.*two classes"):
        GradientBoostingClassifier(loss="exponential").fit(X, np.arange(10) % 3)
    y = np.arange(10.0)
    y[4] = np.nan
    with pytest.raises(ValueError, match="y .*NaN"):
        GradientBoostingRegressor().fit(X, y)
    with pytest.raises(ValueError, match="one class"):
        GradientBoostingClassifier().fit(X, np.zeros(10))
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="X"):
        GradientBoostingRegressor().fit(Xn, np.arange(10.0))
    for est in (GradientBoostingRegressor(), GradientBoostingClassifier()):
        with pytest.raises(NotFittedError):
            est.predict(X)
    with pytest.raises(NotFittedError):
        GradientBoostingClassifier().predict_proba(X)
    with pytest.raises(NotFittedError):
        next(GradientBoostingRegressor().staged_predict(X))


def test_a_stage_without_weight_in_bag_is_refused_by_name():
    rng = np.random.default_rng(11)
    X, y = _regression(rng, n=40)
    w = np.r_[np.zeros(30), np.ones(10)]
    # 4 rows in bag per stage: some stage draws only rows of weight zero
    with pytest.raises(ValueError, match="subsample.*sample_weight"):
        GradientBoostingRegressor(n_estimators=100, subsample=0.1, random_state=0).fit(
            X, y, sample_weight=w)
    with pytest.raises(ValueError, match="sample_weight"):
        GradientBoostingRegressor().fit(X, y, sample_weight=np.zeros(40))


def test_out_of_bag_scores_are_nan_where_the_left_out_rows_have_no_weight():
    rng = np.random.default_rng(12)
    n, M = 40, 30
    X, y = _regression(rng, n=n)
    w = np.r_[np.zeros(30), np.ones(10)]
    gb = GradientBoostingRegressor(n_estimators=M, subsample=0.9, random_state=0).fit(
        X, y, sample_weight=w)
    draw = np.random.default_rng(0)              # the draws, as in the test above
    empty = []
    for _ in range(M):
        mask = np.zeros(n, dtype=bool)
        mask[draw.choice(n, size=int(0.9 * n), replace=False)] = True
        empty.append(w[~mask].sum() == 0)
    empty = np.array(empty)
    assert empty.any() and not empty.all()       # both cases occur on these data
    np.testing.assert_array_equal(np.isnan(gb.oob_scores_), empty)
    assert np.isfinite(gb.train_score_).all()


def test_a_class_without_weight_is_refused_and_a_tiny_prior_is_clipped():
    rng = np.random.default_rng(13)
    X, y = _classification(rng, 3, n=60)
    w = np.where(y == 1, 0.0, 1.0)
    with pytest.raises(ValueError, match="sample_weight.*class 1"):
        GradientBoostingClassifier(n_estimators=2).fit(X, y, sample_weight=w)
    # a prior below the machine epsilon is clipped to it (as scikit-learn): the
    # log-odds stay near log(eps) = -36 instead of log(1e-300) = -690
    yb = (y == 1).astype(int)
    wb = np.where(yb == 1, 1e-300, 1.0)
    gb = GradientBoostingClassifier(n_estimators=1).fit(X, yb, sample_weight=wb)
    eps = np.finfo(np.float64).eps
    assert gb.init_raw_prediction_[0] == pytest.approx(np.log(eps / (1 - eps)), rel=1e-12)


def test_the_columns_are_sorted_once_for_all_stages(monkeypatch):
    from mlbook.tree import _levelwise

    calls = []
    original = _levelwise.SortedColumns.of.__func__

    def counting(cls, X):
        calls.append(X.shape)
        return original(cls, X)

    monkeypatch.setattr(_levelwise.SortedColumns, "of", classmethod(counting))
    rng = np.random.default_rng(10)
    X, y = _classification(rng, 3, n=100)
    GradientBoostingClassifier(n_estimators=4, subsample=0.8, random_state=0).fit(X, y)
    assert calls == [(100, 4)]          # 4 stages x 3 classes = 12 trees, one sort
