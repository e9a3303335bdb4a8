"""Tests of least squares and least absolute deviations in mlbook.linear_model.

Oracles: scikit-learn's LinearRegression (closed form) and
QuantileRegressor(quantile=0.5, alpha=0) (a linear program solved by HiGHS).
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlbook._validation import NotFittedError
from mlbook.linear_model import (
    ConvergenceWarning,
    LeastAbsoluteDeviation,
    LinearRegression,
    RankDeficientWarning,
    simple_linear_regression,
    squared_loss,
    squared_loss_gradient,
)
from input_data import binary

sk_linear = pytest.importorskip("sklearn.linear_model")

SHAPES = [(30, 1), (50, 3), (200, 10), (80, 25)]


def make_regression(seed, m, d, noise="gauss"):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d)) * rng.uniform(0.5, 3.0, size=d) + rng.normal(size=d)
    w = rng.normal(size=d)
    e = rng.normal(size=m) if noise == "gauss" else rng.laplace(size=m)
    return X, X @ w + 1.5 + 0.5 * e


def rel_err(a, b):
    return np.abs(a - b).max() / max(np.abs(b).max(), 1.0)


# --------------------------------------------------------------------------- formulas


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), m=st.integers(2, 40), d=st.integers(1, 6))
def test_squared_loss_gradient_matches_finite_differences(seed, m, d):
    rng = np.random.default_rng(seed)
    X, y = rng.normal(size=(m, d)), rng.normal(size=m)
    w, b = rng.normal(size=d), float(rng.normal())
    gw, gb = squared_loss_gradient(w, b, X, y)
    h = 1e-6
    num_w = np.array([(squared_loss(w + h * e, b, X, y) - squared_loss(w - h * e, b, X, y)) / (2 * h)
                      for e in np.eye(d)])
    num_b = (squared_loss(w, b + h, X, y) - squared_loss(w, b - h, X, y)) / (2 * h)
    # central differences: truncation O(h^2) is 0 for a quadratic, rounding ~ eps*J/h ~ 1e-9
    np.testing.assert_allclose(gw, num_w, rtol=1e-6, atol=1e-7)
    assert abs(gb - num_b) <= 1e-7 + 1e-6 * abs(gb)


@pytest.mark.parametrize("seed", range(4))
def test_simple_linear_regression_matches_polyfit(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=40) * 3 + 100          # large mean: the centred formula stays accurate
    y = 2.0 * x - 7 + rng.normal(size=40)
    a, b = simple_linear_regression(x, y)
    a_ref, b_ref = np.polyfit(x, y, 1)
    # both are exact least squares in float64; the intercept loses digits to the mean 100
    assert abs(a - a_ref) <= 1e-9 * abs(a_ref)
    assert abs(b - b_ref) <= 1e-8 * abs(b_ref)


def test_simple_linear_regression_equals_notes_formula():
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=25), rng.normal(size=25)
    n = x.shape[0]
    a_notes = (x @ y - n * x.mean() * y.mean()) / (x @ x - n * x.mean() ** 2)
    a, b = simple_linear_regression(x, y)
    assert abs(a - a_notes) <= 1e-12 * max(1, abs(a))   # same number, well-conditioned data
    assert abs(b - (y.mean() - a_notes * x.mean())) <= 1e-12


def test_simple_linear_regression_constant_x():
    with pytest.raises(ValueError, match="x is constant"):
        simple_linear_regression([1.0, 1.0, 1.0], [1.0, 2.0, 3.0])


# --------------------------------------------------------------------------- normal equations


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("m,d", SHAPES)
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_normal_equations_match_sklearn(seed, m, d, fit_intercept):
    X, y = make_regression(seed, m, d)
    ours = LinearRegression(fit_intercept=fit_intercept).fit(X, y)
    ref = sk_linear.LinearRegression(fit_intercept=fit_intercept).fit(X, y)
    # 1e-8 relative: both are SVD/QR least-squares solutions of the same full-rank system
    assert rel_err(ours.coef_, ref.coef_) <= 1e-8, (m, d, ours.coef_ - ref.coef_)
    assert abs(ours.intercept_ - ref.intercept_) <= 1e-8 * max(1.0, abs(ref.intercept_))
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-8, atol=1e-8)
    assert ours.rank_ == d


def test_normal_equations_satisfied():
    X, y = make_regression(5, 60, 4)
    model = LinearRegression(fit_intercept=False).fit(X, y)
    lhs = X.T @ X @ model.coef_
    # the residual of X^T X w = X^T y, relative to its size: ~ cond(X^T X) * eps
    assert np.abs(lhs - X.T @ y).max() <= 1e-9 * np.abs(X.T @ y).max()


def test_duplicated_column_gives_minimum_norm_solution_with_warning():
    X, y = make_regression(0, 50, 3)
    Xdup = np.hstack([X, X[:, :1]])            # column 0 twice: X^T X is singular
    with pytest.warns(RankDeficientWarning, match="minimum norm"):
        model = LinearRegression().fit(Xdup, y)
    full = LinearRegression().fit(X, y)
    # minimum norm splits the duplicated weight equally between the two copies
    assert abs(model.coef_[0] - model.coef_[3]) <= 1e-10
    assert abs(model.coef_[0] + model.coef_[3] - full.coef_[0]) <= 1e-9
    np.testing.assert_allclose(model.predict(Xdup), full.predict(X), rtol=0, atol=1e-9)
    assert model.rank_ == 3


def test_more_features_than_samples_interpolates_with_minimum_norm():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(8, 20)), rng.normal(size=8)
    with pytest.warns(RankDeficientWarning):
        model = LinearRegression(fit_intercept=False).fit(X, y)
    np.testing.assert_allclose(model.predict(X), y, rtol=0, atol=1e-10)   # 8 equations, 20 unknowns
    # the minimum-norm solution is the pseudo-inverse one, X^+ y
    np.testing.assert_allclose(model.coef_, np.linalg.pinv(X) @ y, rtol=0, atol=1e-10)


# --------------------------------------------------------------------------- gradient descent


@pytest.mark.parametrize("seed", range(3))
def test_gradient_descent_converges_to_normal_equations(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(200, 4))               # standardised: well conditioned
    y = X @ rng.normal(size=4) - 2.0 + 0.3 * rng.normal(size=200)
    gd = LinearRegression(solver="gd", learning_rate=0.5, tol=1e-10).fit(X, y)
    exact = LinearRegression().fit(X, y)
    # at a gradient below 1e-10, the error is <= 1e-10 / lambda_min(X^T X / m) ~ 1e-9
    np.testing.assert_allclose(gd.coef_, exact.coef_, rtol=0, atol=1e-8)
    assert abs(gd.intercept_ - exact.intercept_) <= 1e-8
    assert np.all(np.diff(gd.loss_history_) <= 1e-15)   # monotone for eta < 2 / L
    assert gd.loss_history_.shape == (gd.n_iter_ + 1,)
    # the history is J = ||Xw + b - y||^2 / (2m) of the notes, from (0, 0) to the last iterate
    # (1e-12 relative: the same sum of squares computed in two places)
    assert gd.loss_history_[0] == pytest.approx(squared_loss(np.zeros(4), 0.0, X, y), rel=1e-12)
    assert gd.loss_history_[-1] == pytest.approx(
        squared_loss(gd.coef_, gd.intercept_, X, y), rel=1e-12)
    assert gd.path_.shape == (gd.n_iter_ + 1, 5)
    # the last row of the path is the fitted parameters themselves, stored twice
    np.testing.assert_array_equal(gd.path_[-1], np.append(gd.coef_, gd.intercept_))


def test_gradient_descent_warns_at_max_iter():
    X, y = make_regression(0, 50, 2)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        LinearRegression(solver="gd", learning_rate=0.01, max_iter=3).fit(X, y)


def test_gradient_descent_divergence_is_an_error():
    X, y = make_regression(0, 50, 2)
    with pytest.raises(ValueError, match="learning_rate=.* too large"):
        LinearRegression(solver="gd", learning_rate=10.0).fit(X * 10, y)


# --------------------------------------------------------------------------- least absolute deviations


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("m,d", [(40, 1), (100, 3), (300, 8)])
def test_lad_matches_quantile_regressor(seed, m, d):
    X, y = make_regression(seed, m, d, noise="laplace")
    ours = LeastAbsoluteDeviation().fit(X, y)
    ref = sk_linear.QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs").fit(X, y)
    ref_obj = float(np.abs(y - ref.predict(X)).sum())
    # both reach a vertex of the same linear program: objectives agree to rounding
    assert ours.objective_ <= ref_obj * (1 + 1e-9)
    assert abs(ours.objective_ - np.abs(y - ours.predict(X)).sum()) <= 1e-9 * ref_obj
    # continuous noise: the optimal vertex is unique, so the coefficients agree too
    # (1e-6: HiGHS's primal feasibility tolerance)
    assert rel_err(ours.coef_, ref.coef_) <= 1e-6
    assert abs(ours.intercept_ - ref.intercept_) <= 1e-6 * max(1.0, abs(ref.intercept_))


def test_lad_fits_d_plus_one_points_exactly():
    X, y = make_regression(7, 60, 3, noise="laplace")
    model = LeastAbsoluteDeviation().fit(X, y)
    r = np.abs(y - model.predict(X))
    assert np.sum(r <= 1e-9) >= 4                 # a vertex: p = d + 1 zero residuals


def test_lad_resists_an_outlier_that_moves_least_squares():
    rng = np.random.default_rng(0)
    x = np.linspace(0, 10, 30)
    y = 2 * x + 1 + 0.1 * rng.normal(size=30)
    y_out = y.copy()
    y_out[-1] += 100.0
    X = x[:, None]
    ls_shift = abs(LinearRegression().fit(X, y_out).coef_[0] - LinearRegression().fit(X, y).coef_[0])
    lad_shift = abs(LeastAbsoluteDeviation().fit(X, y_out).coef_[0]
                    - LeastAbsoluteDeviation().fit(X, y).coef_[0])
    assert ls_shift > 1.0                          # the outlier tilts the squared-loss line
    assert lad_shift < 0.1 * ls_shift              # and hardly the absolute-loss line


def test_lad_without_intercept():
    X, y = make_regression(2, 80, 2, noise="laplace")
    ours = LeastAbsoluteDeviation(fit_intercept=False).fit(X, y)
    ref = sk_linear.QuantileRegressor(quantile=0.5, alpha=0.0, fit_intercept=False,
                                      solver="highs").fit(X, y)
    assert ours.intercept_ == 0.0
    assert rel_err(ours.coef_, ref.coef_) <= 1e-6


# --------------------------------------------------------------------------- scikit-learn API


def test_clone_and_cross_val_score():
    from sklearn.base import clone
    from sklearn.model_selection import cross_val_score

    X, y = make_regression(0, 60, 3)
    model = LinearRegression(solver="gd", learning_rate=0.05)
    assert clone(model).get_params() == model.get_params()
    scores = cross_val_score(LinearRegression(), X, y, cv=3, scoring="neg_mean_squared_error")
    ref = cross_val_score(sk_linear.LinearRegression(), X, y, cv=3, scoring="neg_mean_squared_error")
    np.testing.assert_allclose(scores, ref, rtol=1e-8)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("Est", [LinearRegression, LeastAbsoluteDeviation])
def test_mismatched_lengths(Est):
    with pytest.raises(ValueError, match="X and y have different lengths"):
        Est().fit(np.ones((5, 2)), np.ones(4))


@pytest.mark.parametrize("Est", [LinearRegression, LeastAbsoluteDeviation])
@pytest.mark.parametrize("value, message", [(np.nan, "X contains NaN"),
                                            (np.inf, "X contains infinity")])
def test_non_finite_X(Est, value, message):
    X = np.ones((5, 2))
    X[1, 1] = value
    with pytest.raises(ValueError, match=message):
        Est().fit(X, np.arange(5.0))


def test_nan_in_y():
    y = np.arange(5.0)
    y[2] = np.nan
    with pytest.raises(ValueError, match="y contains NaN"):
        LinearRegression().fit(np.ones((5, 2)), y)


@pytest.mark.parametrize("Est", [LinearRegression, LeastAbsoluteDeviation])
def test_predict_before_fit(Est):
    with pytest.raises(NotFittedError, match="not fitted yet"):
        Est().predict(np.ones((2, 2)))


@pytest.mark.parametrize("Est", [LinearRegression, LeastAbsoluteDeviation])
def test_wrong_number_of_features_at_predict(Est):
    X, y = make_regression(0, 20, 3)
    model = Est().fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features, but .* was fitted with 3"):
        model.predict(X[:, :2])


def test_unknown_solver():
    with pytest.raises(ValueError, match="solver must be 'normal' or 'gd'"):
        LinearRegression(solver="newton").fit(np.ones((3, 1)), np.ones(3))


def test_nonpositive_learning_rate():
    with pytest.raises(ValueError, match="learning_rate must be > 0"):
        LinearRegression(solver="gd", learning_rate=0.0).fit(np.ones((3, 1)), np.ones(3))


def test_infinite_learning_rate():
    with pytest.raises(ValueError, match="learning_rate must be finite"):
        LinearRegression(solver="gd", learning_rate=np.inf).fit(np.ones((3, 1)), np.ones(3))


def test_bad_max_iter():
    with pytest.raises(ValueError, match="max_iter must be >= 1"):
        LinearRegression(solver="gd", max_iter=0).fit(np.ones((3, 1)), np.ones(3))
    with pytest.raises(TypeError, match="max_iter must be of type Integral"):
        LeastAbsoluteDeviation(max_iter=2.5).fit(np.ones((3, 1)), np.ones(3))


def test_negative_tol():
    with pytest.raises(ValueError, match="tol must be >= 0"):
        LinearRegression(solver="gd", tol=-1.0).fit(np.ones((3, 1)), np.ones(3))


def test_fit_intercept_must_be_bool():
    with pytest.raises(TypeError, match="fit_intercept must be True or False"):
        LinearRegression(fit_intercept="yes").fit(np.ones((3, 1)), np.ones(3))


def test_1d_X_is_rejected_with_a_hint():
    with pytest.raises(ValueError, match="reshape"):
        LinearRegression().fit(np.arange(5.0), np.arange(5.0))


def test_no_warning_on_full_rank():
    X, y = make_regression(0, 30, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        LinearRegression().fit(X, y)


@pytest.mark.parametrize("shift", [0.0, 1.0])
def test_gradient_descent_on_a_tiny_scale_does_not_stop_at_once(shift):
    # guards against: X * 1e-10 gave a gradient below tol=1e-8 after the intercept settled, and
    # "converged" after 176 steps with w about 4e-9, R^2 = 0 and no warning; a feature's
    # gradient is now compared with tol times the feature's spread, so the descent runs on and
    # says it did not converge. shift=1: the spread is measured about the mean (the columns
    # X * 1e-10 + 1 have a root mean square near 1, a spread near 1e-10)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    y = X @ np.array([1.0, 2.0, 3.0]) + 0.1 * rng.normal(size=30)
    with pytest.warns(ConvergenceWarning, match=r"reached max_iter=200 .*tol \* s_j"):
        LinearRegression(solver="gd", max_iter=200).fit(X * 1e-10 + shift, y)


def test_gradient_descent_stops_at_the_first_step_its_test_allows():
    # the test of step 3, with feature j's entry compared with tol * min(s_j, 1) (s_j its
    # standard deviation): met at the stop, and not yet one step earlier (path_[-2])
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3)) * np.array([0.5, 1.0, 3.0])
    y = X @ np.array([1.0, 2.0, 3.0]) + 0.1 * rng.normal(size=30)
    model = LinearRegression(solver="gd").fit(X, y)
    assert model.n_iter_ < model.max_iter
    stop_w = model.tol * np.minimum(X.std(axis=0), 1.0)

    def worst(wb):                     # the largest gradient entry over its threshold
        g_w, g_b = squared_loss_gradient(wb[:-1], wb[-1], X, y)
        return max((np.abs(g_w) / stop_w).max(), abs(g_b) / model.tol)

    assert worst(model.path_[-1]) <= 1.0 < worst(model.path_[-2])


# --- bad and extreme input ----------------------------------------------------

@pytest.mark.parametrize("scale", [1e14, 1e-16])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_lad_is_scale_equivariant(scale, fit_intercept):
    # guards against: R^2 = 0.98 at 1e14 and -0.004 at 1e-16 on noise-free data
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3))
    y = X @ np.array([1.0, 2.0, 3.0]) + (0.5 if fit_intercept else 0.0)
    model = LeastAbsoluteDeviation(fit_intercept=fit_intercept).fit(X * scale, y)
    # y is exactly linear in X: the fit is exact up to rounding (1e-9 relative).
    np.testing.assert_allclose(model.coef_ * scale, [1.0, 2.0, 3.0], rtol=1e-9, atol=0)
    assert model.score(X * scale, y) > 1 - 1e-12


def test_complex_y_is_rejected():
    X, y = binary(40, 2)
    with pytest.raises(ValueError, match="y contains complex numbers"):
        LinearRegression().fit(X, y + 0j)


@pytest.mark.filterwarnings("ignore::mlbook.linear_model.ConvergenceWarning")
def test_normal_equations_report_no_iteration_count():
    X, y = binary(40, 2)
    gd = LinearRegression(solver="gd", max_iter=50).fit(X, y.astype(float))
    assert 1 <= gd.n_iter_ <= 50
    # guards against: n_iter_ = 0, as if the solver had stopped before its first step
    normal = gd.set_params(solver="normal").fit(X, y)
    assert not hasattr(normal, "n_iter_") and not hasattr(normal, "loss_history_")
    assert normal.rank_ == 2


def test_missing_y_message():
    X, _ = binary(10, 2)
    with pytest.raises(ValueError, match="requires y to be passed, but the target y is None"):
        LinearRegression().fit(X, None)

