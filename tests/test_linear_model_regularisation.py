"""Tests of ridge, LASSO and elastic net in mlbook.linear_model (oracle: scikit-learn)."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlbook._validation import NotFittedError
from mlbook.linear_model import (
    ConvergenceWarning,
    ElasticNet,
    Lasso,
    RankDeficientWarning,
    Ridge,
    lasso_path,
    soft_threshold,
)

sk_linear = pytest.importorskip("sklearn.linear_model")

SHAPES = [(40, 3), (100, 10), (60, 30), (30, 50)]


def make_sparse_regression(seed, m, d):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d)) * rng.uniform(0.5, 2.0, size=d) + rng.normal(size=d)
    w = rng.normal(size=d) * (rng.random(d) < 0.4)
    return X, X @ w + 0.7 + 0.5 * rng.normal(size=m)


def rel_err(a, b):
    return np.abs(a - b).max() / max(np.abs(b).max(), 1.0)


# --------------------------------------------------------------------------- soft threshold


@settings(max_examples=50, deadline=None)
@given(z=st.floats(-1e3, 1e3), gamma=st.floats(0, 1e3))
def test_soft_threshold_is_the_proximal_operator(z, gamma):
    s = float(soft_threshold(z, gamma))
    # optimality of min_w 0.5 (w - z)^2 + gamma |w|: z - s in gamma * subgradient of |s|
    if s == 0.0:
        assert abs(z) <= gamma
    else:
        assert abs((z - s) - gamma * np.sign(s)) <= 1e-9 * max(1.0, abs(z))
        assert np.sign(s) == np.sign(z)
    # and it is the minimiser: no nearby point does better
    f = lambda w: 0.5 * (w - z) ** 2 + gamma * abs(w)  # noqa: E731
    for w in (s - 1e-3, s + 1e-3, 0.0, z):
        assert f(s) <= f(w) + 1e-9 * max(1.0, z * z)


def test_soft_threshold_negative_gamma():
    with pytest.raises(ValueError, match="gamma must be >= 0"):
        soft_threshold(1.0, -0.1)


# --------------------------------------------------------------------------- ridge


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("m,d", SHAPES)
@pytest.mark.parametrize("alpha", [0.01, 1.0, 100.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_ridge_matches_sklearn(seed, m, d, alpha, fit_intercept):
    X, y = make_sparse_regression(seed, m, d)
    ours = Ridge(alpha=alpha, fit_intercept=fit_intercept).fit(X, y)
    ref = sk_linear.Ridge(alpha=alpha, fit_intercept=fit_intercept, solver="svd").fit(X, y)
    # 1e-8 relative: both are closed forms of the same well-posed (alpha > 0) system
    assert rel_err(ours.coef_, ref.coef_) <= 1e-8, ours.coef_ - ref.coef_
    assert abs(ours.intercept_ - ref.intercept_) <= 1e-8 * max(1.0, abs(ref.intercept_))


def test_ridge_solves_the_tikhonov_equations():
    X, y = make_sparse_regression(1, 50, 6)
    alpha = 3.0
    model = Ridge(alpha=alpha, fit_intercept=False).fit(X, y)
    w = np.linalg.solve(X.T @ X + alpha * np.eye(6), X.T @ y)
    np.testing.assert_allclose(model.coef_, w, rtol=1e-9)   # two direct solves, cond ~ 1e2


def test_ridge_shrinks_monotonically():
    X, y = make_sparse_regression(2, 60, 5)
    norms = [np.linalg.norm(Ridge(alpha=a).fit(X, y).coef_) for a in (0.0, 0.1, 1, 10, 100, 1e4)]
    assert np.all(np.diff(norms) < 0)


def test_ridge_alpha_zero_singular_warns():
    X, y = make_sparse_regression(0, 20, 3)
    with pytest.warns(RankDeficientWarning):
        Ridge(alpha=0.0).fit(np.hstack([X, X]), y)


# --------------------------------------------------------------------------- LASSO / elastic net

# Coordinate descent: both implementations stop when the duality gap is below
# tol * ||y - ybar||^2 (the same criterion); with tol = 1e-12 the objective is
# within ~1e-12 relative of the optimum, and the coefficients, which move like
# the square root of the objective's sub-optimality, within ~1e-6. Hence 1e-5.
CD_TOL, CD_AGREE = 1e-12, 1e-5


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("m,d", SHAPES)
@pytest.mark.parametrize("alpha", [0.01, 0.1, 0.5])
def test_lasso_matches_sklearn(seed, m, d, alpha):
    X, y = make_sparse_regression(seed, m, d)
    ours = Lasso(alpha=alpha, tol=CD_TOL, max_iter=100_000).fit(X, y)
    ref = sk_linear.Lasso(alpha=alpha, tol=CD_TOL, max_iter=100_000).fit(X, y)
    assert rel_err(ours.coef_, ref.coef_) <= CD_AGREE, ours.coef_ - ref.coef_
    assert abs(ours.intercept_ - ref.intercept_) <= CD_AGREE * max(1.0, abs(ref.intercept_))
    # exact zeros in the same places (a zero is a soft threshold, not a small number)
    assert np.array_equal(ours.coef_ == 0, np.abs(ref.coef_) <= 1e-12)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("m,d", SHAPES)
@pytest.mark.parametrize("l1_ratio", [0.0, 0.2, 0.7, 1.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_elastic_net_matches_sklearn(seed, m, d, l1_ratio, fit_intercept):
    X, y = make_sparse_regression(seed, m, d)
    kw = dict(alpha=0.1, l1_ratio=l1_ratio, fit_intercept=fit_intercept, tol=CD_TOL,
              max_iter=100_000)
    ours = ElasticNet(**kw).fit(X, y)
    ref = sk_linear.ElasticNet(**kw).fit(X, y)
    assert rel_err(ours.coef_, ref.coef_) <= CD_AGREE, ours.coef_ - ref.coef_
    assert abs(ours.intercept_ - ref.intercept_) <= CD_AGREE * max(1.0, abs(ref.intercept_))


def test_elastic_net_with_l1_ratio_zero_is_ridge():
    X, y = make_sparse_regression(4, 80, 6)
    m, alpha = 80, 0.3
    enet = ElasticNet(alpha=alpha, l1_ratio=0.0, tol=1e-14, max_iter=100_000).fit(X, y)
    # (1/2m)||r||^2 + (alpha/2)||w||^2  is ridge with penalty m * alpha on ||r||^2 + ...
    ridge = Ridge(alpha=m * alpha).fit(X, y)
    # 1e-6: a closed form against coordinate descent stopped at a duality gap of
    # 1e-14 ||y_c||^2, whose coefficient error is of the order of its square root
    np.testing.assert_allclose(enet.coef_, ridge.coef_, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("seed", range(3))
def test_lasso_kkt_conditions(seed):
    X, y = make_sparse_regression(seed, 100, 15)
    alpha = 0.1
    model = Lasso(alpha=alpha, tol=1e-14, max_iter=100_000).fit(X, y)
    r = y - model.predict(X)
    corr = X.T @ r / X.shape[0]                    # minus the gradient of the smooth part
    active = model.coef_ != 0
    # 1e-6: the KKT residual at a duality gap of 1e-14 * ||y||^2
    np.testing.assert_allclose(corr[active], alpha * np.sign(model.coef_[active]), rtol=0, atol=1e-6)
    assert np.all(np.abs(corr[~active]) <= alpha + 1e-6)
    assert abs(r.sum()) <= 1e-8 * np.abs(y).sum()  # the unpenalised intercept: residuals sum to 0


def test_lasso_large_alpha_gives_all_zeros():
    X, y = make_sparse_regression(0, 50, 5)
    yc = y - y.mean()
    alpha_max = np.abs((X - X.mean(0)).T @ yc).max() / 50   # smallest alpha with w = 0
    model = Lasso(alpha=alpha_max * 1.0001).fit(X, y)
    assert np.all(model.coef_ == 0)
    assert model.intercept_ == pytest.approx(y.mean(), rel=1e-12)
    assert np.any(Lasso(alpha=alpha_max * 0.99).fit(X, y).coef_ != 0)


def test_lasso_path_matches_sklearn():
    X, y = make_sparse_regression(3, 80, 12)
    alphas = np.array([0.001, 0.01, 0.1, 0.5, 1.0])
    ours = lasso_path(X, y, alphas, tol=1e-12, max_iter=100_000)
    for k, a in enumerate(alphas):
        ref = sk_linear.Lasso(alpha=a, tol=1e-12, max_iter=100_000).fit(X, y)
        assert rel_err(ours[k], ref.coef_) <= CD_AGREE
    assert ours.shape == (5, 12)
    # fewer non-zeros for larger alpha on this problem
    assert np.all(np.diff(np.count_nonzero(ours, axis=1)) <= 0)


def test_elastic_net_path_matches_estimator():
    X, y = make_sparse_regression(5, 60, 8)
    alphas = [0.5, 0.05]
    path = lasso_path(X, y, alphas, l1_ratio=0.5, tol=1e-12, max_iter=100_000)
    for k, a in enumerate(alphas):
        est = ElasticNet(alpha=a, l1_ratio=0.5, tol=1e-12, max_iter=100_000).fit(X, y)
        # 1e-6: the same problem from two starts (warm and cold), each stopped at a
        # duality gap of 1e-12 ||y_c||^2 (coefficient error ~ its square root)
        np.testing.assert_allclose(path[k], est.coef_, rtol=0, atol=1e-6)


def test_convergence_warning_at_max_iter():
    X, y = make_sparse_regression(0, 50, 10)
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        model = Lasso(alpha=0.01, max_iter=1, tol=1e-14).fit(X, y)
    assert model.n_iter_ == 1
    assert issubclass(ConvergenceWarning, UserWarning)


def test_n_iter_and_dual_gap():
    X, y = make_sparse_regression(0, 50, 10)
    model = ElasticNet(alpha=0.1, tol=1e-8).fit(X, y)
    assert 1 <= model.n_iter_ < 1000
    assert model.dual_gap_ <= 1e-8 * np.sum((y - y.mean()) ** 2) / 50


def test_constant_column_is_ignored():
    X, y = make_sparse_regression(0, 40, 3)
    X[:, 1] = 5.0                                  # centred, it is all zero
    model = Lasso(alpha=0.0, tol=1e-12, max_iter=10_000).fit(X, y)
    assert model.coef_[1] == 0.0
    ref = sk_linear.LinearRegression().fit(X[:, [0, 2]], y)
    # CD_AGREE: coordinate descent at alpha = 0 against the closed form
    np.testing.assert_allclose(model.coef_[[0, 2]], ref.coef_, rtol=CD_AGREE)


def test_clone_keeps_params():
    from sklearn.base import clone

    model = ElasticNet(alpha=0.3, l1_ratio=0.9)
    assert clone(model).get_params() == model.get_params()
    assert "l1_ratio" not in Lasso().get_params()


# --------------------------------------------------------------------------- bad input

ESTIMATORS = [Ridge, Lasso, ElasticNet]


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_negative_alpha(Est):
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        Est(alpha=-1.0).fit(np.ones((3, 1)), np.arange(3.0))


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_infinite_alpha(Est):
    # alpha = inf would put inf * 0 = NaN into the stacked ridge system
    with pytest.raises(ValueError, match="alpha must be finite"):
        Est(alpha=np.inf).fit(np.ones((3, 1)), np.arange(3.0))


@pytest.mark.parametrize("l1_ratio,msg", [(-0.1, "l1_ratio must be >= 0"),
                                          (1.5, "l1_ratio must be <= 1")])
def test_l1_ratio_outside_unit_interval(l1_ratio, msg):
    with pytest.raises(ValueError, match=msg):
        ElasticNet(l1_ratio=l1_ratio).fit(np.ones((3, 1)), np.arange(3.0))


def test_alpha_wrong_type():
    with pytest.raises(TypeError, match="alpha must be of type Real"):
        Lasso(alpha="big").fit(np.ones((3, 1)), np.arange(3.0))


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_mismatched_lengths(Est):
    with pytest.raises(ValueError, match="X and y have different lengths"):
        Est().fit(np.ones((5, 2)), np.ones(6))


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_nan_or_inf(Est):
    X = np.ones((5, 2))
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        Est().fit(X, np.arange(5.0))
    X[0, 0] = -np.inf
    with pytest.raises(ValueError, match="X contains infinity"):
        Est().fit(X, np.arange(5.0))


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_predict_before_fit(Est):
    with pytest.raises(NotFittedError, match="not fitted yet"):
        Est().predict(np.ones((2, 2)))


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_wrong_number_of_features_at_predict(Est):
    X, y = make_sparse_regression(0, 30, 4)
    model = Est(alpha=0.1).fit(X, y)
    with pytest.raises(ValueError, match="X has 5 features, but .* was fitted with 4"):
        model.predict(np.ones((2, 5)))


def test_bad_max_iter_and_tol():
    with pytest.raises(ValueError, match="max_iter must be >= 1"):
        Lasso(max_iter=0).fit(np.ones((3, 1)), np.arange(3.0))
    with pytest.raises(ValueError, match="tol must be >= 0"):
        ElasticNet(tol=-1e-3).fit(np.ones((3, 1)), np.arange(3.0))


def test_lasso_path_negative_alphas():
    with pytest.raises(ValueError, match="alphas must be >= 0"):
        lasso_path(np.ones((3, 1)), np.arange(3.0), [0.1, -1.0])


def test_lasso_path_bad_l1_ratio():
    with pytest.raises(ValueError, match="l1_ratio must be <= 1"):
        lasso_path(np.ones((3, 1)), np.arange(3.0), [0.1], l1_ratio=2.0)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), shift=st.floats(-1e3, 1e3),
       Est=st.sampled_from([Ridge, Lasso, ElasticNet]))
def test_unpenalised_intercept_is_translation_equivariant(seed, shift, Est):
    # adding a constant to y moves only the intercept (the intercept is not penalised)
    X, y = make_sparse_regression(seed, 40, 5)
    kw = {} if Est is Ridge else dict(tol=1e-12, max_iter=100_000)
    a = Est(alpha=0.1, **kw).fit(X, y)
    b = Est(alpha=0.1, **kw).fit(X, y + shift)
    # centring removes the shift up to rounding of |shift| * eps; CD then agrees to its tol
    np.testing.assert_allclose(b.coef_, a.coef_, rtol=0, atol=1e-7)
    assert abs(b.intercept_ - a.intercept_ - shift) <= 1e-7 * max(1.0, abs(shift))


def test_elastic_net_near_the_float64_maximum():
    # guards against: X^T X overflowed: a NaN intercept and zero coefficients, NumPy warnings only.
    # X * s (s = 2**600) is fitted as X with the penalties divided by s (l1) and s**2 (l2):
    # with alpha = 0.1 * s that is l1 = 0.05 * m and l2 = 0.05 * m / s, which adds 3.6e-181
    # to a diagonal of about 30 and so changes nothing: the LASSO with alpha = 0.05 on X,
    # bit for bit (every rescaling is by a power of two, exact)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    y = X @ np.array([1.0, 2.0, 3.0]) + 0.1 * rng.normal(size=30)
    s = 2.0**600
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        big = ElasticNet(alpha=0.1 * s).fit(X * s, y)
        small = Lasso(alpha=0.05).fit(X, y)
    assert np.array_equal(big.coef_ * s, small.coef_)
    assert big.intercept_ == small.intercept_
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        huge = ElasticNet(alpha=0.1).fit(X * 1e307, y)     # the case found: finite now
    assert np.isfinite(huge.intercept_) and np.isfinite(huge.coef_).all()
