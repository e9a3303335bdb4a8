"""LogisticRegression: stable formulas, derivatives, agreement with scikit-learn, bad input."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlbook._validation import NotFittedError
from mlbook.datasets import load_breast_cancer, load_iris, load_watermelon
from mlbook.linear_model import (
    ConvergenceWarning,
    LogisticRegression,
    QuasiSeparableDataWarning,
    SeparableDataWarning,
    expit,
    log_loss_terms,
    logistic_objective,
    logit,
)
from input_data import binary

sklm = pytest.importorskip("sklearn.linear_model")


def _overlapping(seed, n, d):
    """Gaussian features, labels drawn from a logistic model: the classes overlap."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) + rng.normal(size=d)
    w = rng.normal(size=d)
    y = (rng.random(n) < expit(X @ w - np.mean(X @ w))).astype(int)
    return X, y


def _breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


# --- stable formulas ----------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.floats(-1e6, 1e6))
def test_expit_is_a_probability_and_symmetric(z):
    # sigma(z) + sigma(-z) = 1 exactly in real arithmetic; 1e-15 is float64 rounding.
    s, t = float(expit(z)), float(expit(-z))
    assert 0.0 <= s <= 1.0
    assert abs(s + t - 1.0) <= 1e-15


def test_expit_matches_the_naive_formula_where_it_is_safe():
    z = np.linspace(-30, 30, 201)
    # 1e-15 relative: both are one exp, one add and one division in float64.
    np.testing.assert_allclose(expit(z), 1 / (1 + np.exp(-z)), rtol=1e-15, atol=0)


def test_expit_has_no_overflow_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = expit(np.array([-1e308, -800.0, 800.0, 1e308]))
    assert out.tolist() == [0.0, 0.0, 1.0, 1.0]


def test_logit_inverts_expit():
    z = np.linspace(-20, 20, 81)
    # 1e-6 absolute: logit loses digits where sigma(z) is close to 1. At z = 20,
    # 1 - sigma = 2e-9 is stored with an absolute error of ~1e-16, i.e. ~5e-8
    # relative, and that relative error is the absolute error of the logit.
    np.testing.assert_allclose(logit(expit(z)), z, rtol=0, atol=1e-6)
    # For |z| <= 10, 1 - sigma >= 4.5e-5: the error is below ~1e-16 / 4.5e-5 ~ 3e-12.
    mid = np.abs(z) <= 10
    np.testing.assert_allclose(logit(expit(z[mid])), z[mid], rtol=0, atol=1e-11)
    assert logit(np.array([0.0, 1.0])).tolist() == [-np.inf, np.inf]


def test_log_loss_terms_is_stable_and_equals_the_textbook_form():
    z = np.linspace(-30, 30, 61)
    y = (np.arange(61) % 2).astype(float)
    t = 2 * y - 1
    # log(1 + e^{-t z}) with log1p is accurate to a few ulps for |z| <= 30 (no
    # overflow, no cancellation), so it serves as the reference: 1e-14 relative.
    np.testing.assert_allclose(log_loss_terms(y, z), np.log1p(np.exp(-t * z)), rtol=1e-14)
    # The textbook form -[y log p + (1 - y) log(1 - p)], where p is not too close to 0 or 1.
    mid = np.abs(z) <= 10
    p = 1 / (1 + np.exp(-z[mid]))
    textbook = -(y[mid] * np.log(p) + (1 - y[mid]) * np.log(1 - p))
    # 1e-9 relative: log(1 - p) loses ~log10(e^10) = 4 digits near |z| = 10.
    np.testing.assert_allclose(log_loss_terms(y[mid], z[mid]), textbook, rtol=1e-9)
    big = log_loss_terms([1.0, 0.0], [1e4, 1e4])
    assert big[0] == 0.0 and big[1] == 1e4          # exact in float64: no overflow


# --- derivatives --------------------------------------------------------------

@pytest.mark.parametrize("seed,fit_intercept,alpha", [(0, True, 0.0), (1, True, 0.05),
                                                       (2, False, 0.0), (3, False, 0.3)])
def test_gradient_and_hessian_by_finite_differences(seed, fit_intercept, alpha):
    X, y = _overlapping(seed, 40, 4)
    rng = np.random.default_rng(seed)
    w = rng.normal(size=4 + int(fit_intercept))
    f, g, H = logistic_objective(w, X, y.astype(float), alpha, fit_intercept)
    h = 1e-6
    E = np.eye(w.size) * h
    g_fd = np.array([(logistic_objective(w + e, X, y, alpha, fit_intercept)[0]
                      - logistic_objective(w - e, X, y, alpha, fit_intercept)[0]) / (2 * h)
                     for e in E])
    H_fd = np.array([(logistic_objective(w + e, X, y, alpha, fit_intercept)[1]
                      - logistic_objective(w - e, X, y, alpha, fit_intercept)[1]) / (2 * h)
                     for e in E])
    # Central differences with h = 1e-6 have error O(h^2) + O(eps/h) ~ 1e-10 on
    # quantities of size O(1); 1e-7 leaves a margin.
    np.testing.assert_allclose(g, g_fd, rtol=0, atol=1e-7)
    np.testing.assert_allclose(H, H_fd, rtol=0, atol=1e-7)
    # X^T S X is symmetric in exact arithmetic; BLAS sums the two triangles in
    # different orders, so they agree to rounding: 10 ulps of the largest entry
    # (an atol of 0 used to pass only through the default rtol=1e-7).
    np.testing.assert_allclose(H, H.T, rtol=0, atol=10 * np.finfo(float).eps * np.abs(H).max())
    assert np.linalg.eigvalsh(H).min() > 0                       # convex (strictly, here)


# --- agreement with scikit-learn ----------------------------------------------

# The problems are smooth and strictly convex and both solvers are pushed to
# a gradient of 1e-10 (ours: Newton's method; scikit-learn: lbfgs, which stops
# a little earlier), so the coefficients agree to ~1e-6 relative; 1e-5 is the
# tolerance the brief states.
RTOL = 1e-5


def _assert_close_to_sklearn(ours, theirs):
    scale = max(np.abs(theirs.coef_).max(), np.abs(theirs.intercept_).max())
    err = max(np.abs(ours.coef_ - theirs.coef_).max(),
              np.abs(ours.intercept_ - theirs.intercept_).max()) / scale
    assert err < RTOL, f"coefficients differ from scikit-learn by {err:.2e} (relative)"


@pytest.mark.parametrize("seed,n,d", [(0, 50, 2), (1, 200, 5), (2, 500, 12)])
def test_unpenalised_agrees_with_sklearn_c_inf(seed, n, d):
    X, y = _overlapping(seed, n, d)
    ours = LogisticRegression(tol=1e-10).fit(X, y)
    theirs = sklm.LogisticRegression(C=np.inf, tol=1e-12, max_iter=100_000).fit(X, y)
    _assert_close_to_sklearn(ours, theirs)


@pytest.mark.parametrize("C", [0.01, 0.3, 1.0, 10.0])
def test_l2_agrees_with_sklearn_on_breast_cancer(C):
    X, y = _breast_cancer()
    ours = LogisticRegression(penalty="l2", C=C, tol=1e-10).fit(X, y)
    theirs = sklm.LogisticRegression(C=C, tol=1e-12, max_iter=100_000).fit(X, y)
    _assert_close_to_sklearn(ours, theirs)
    # 1e-5: the scores differ by at most ~3e-5 (coefficients to ~1e-6 relative,
    # summed over 30 standardised features), and sigma' <= 1/4 (and is far smaller
    # for the confidently classified points that carry the largest scores)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-5)
    assert np.array_equal(ours.predict(X), theirs.predict(X))


def test_no_intercept_agrees_with_sklearn():
    X, y = _overlapping(4, 300, 3)
    ours = LogisticRegression(penalty="l2", C=0.5, fit_intercept=False, tol=1e-10).fit(X, y)
    theirs = sklm.LogisticRegression(C=0.5, fit_intercept=False, tol=1e-12,
                                     max_iter=100_000).fit(X, y)
    _assert_close_to_sklearn(ours, theirs)
    assert ours.intercept_.tolist() == [0.0]


def test_watermelon_30alpha_agrees_with_sklearn():
    # Zhou's book fits logistic regression to watermelon 3.0alpha (exercise 3.3)
    # without printing the coefficients; scikit-learn is the oracle.
    X, y = load_watermelon("3.0alpha", return_X_y=True)
    ours = LogisticRegression(tol=1e-12).fit(X, y)
    theirs = sklm.LogisticRegression(C=np.inf, tol=1e-12, max_iter=100_000).fit(X, y)
    _assert_close_to_sklearn(ours, theirs)


@pytest.mark.parametrize("solver,tol,rtol", [("gd", 1e-7, 1e-3), ("sgd", 1e-9, 5e-2)])
def test_first_order_solvers_reach_the_newton_solution(solver, tol, rtol):
    X, y = _breast_cancer()
    newton = LogisticRegression(penalty="l2", C=0.1, tol=1e-10).fit(X, y)
    model = LogisticRegression(solver=solver, penalty="l2", C=0.1, tol=tol,
                               max_iter=5000, random_state=0).fit(X, y)
    # Gradient descent stops at a gradient of 1e-7: with the smallest Hessian
    # eigenvalue ~1e-3 the coefficients are within ~1e-4 (1e-3 relative).
    # SGD with a decaying step only gets near the optimum: 5% relative.
    err = np.abs(model.coef_ - newton.coef_).max() / np.abs(newton.coef_).max()
    assert err < rtol, f"{solver}: {err:.2e}"
    assert model.objective_path_[-1] >= newton.objective_path_[-1] - 1e-12
    assert model.objective_path_[-1] - newton.objective_path_[-1] < 1e-3


def test_newton_needs_far_fewer_iterations_than_gradient_descent():
    X, y = _breast_cancer()
    newton = LogisticRegression(penalty="l2", C=0.1, tol=1e-6).fit(X, y)
    gd = LogisticRegression(solver="gd", penalty="l2", C=0.1, tol=1e-6, max_iter=20_000).fit(X, y)
    assert newton.n_iter_ <= 15 < 10 * newton.n_iter_ < gd.n_iter_
    # The objective decreases monotonically for both (line search; step 1/L).
    assert np.all(np.diff(newton.objective_path_) <= 1e-15)
    assert np.all(np.diff(gd.objective_path_) <= 1e-15)


@pytest.mark.filterwarnings("ignore::mlbook.linear_model.ConvergenceWarning")
def test_sgd_is_reproducible_with_random_state():
    X, y = _breast_cancer()
    a = LogisticRegression(solver="sgd", penalty="l2", random_state=3, max_iter=20).fit(X, y)
    b = LogisticRegression(solver="sgd", penalty="l2", random_state=3, max_iter=20).fit(X, y)
    assert np.array_equal(a.coef_, b.coef_)


# --- labels, separable data, predictions --------------------------------------

def test_any_two_labels_are_mapped_through_classes():
    X, y = _overlapping(5, 100, 2)
    names = np.where(y == 1, "spam", "ham")
    a = LogisticRegression().fit(X, y)
    b = LogisticRegression().fit(X, names)
    assert b.classes_.tolist() == ["ham", "spam"]
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(b.predict(X), np.where(a.predict(X) == 1, "spam", "ham"))
    proba = b.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(b.predict(X), b.classes_[np.argmax(proba, axis=1)])
    np.testing.assert_allclose(logit(proba[:, 1]), b.decision_function(X), rtol=0, atol=1e-8)
    assert b.score(X, names) == np.mean(b.predict(X) == names)


def test_separable_data_warn_and_stop_with_finite_coefficients():
    X, y = _breast_cancer()                     # standardised breast cancer is separable
    with pytest.warns(SeparableDataWarning, match="linearly separable"):
        model = LogisticRegression(max_iter=200).fit(X, y)
    assert np.all(np.isfinite(model.coef_))
    assert np.array_equal(model.predict(X), y)
    assert model.n_iter_ < 200
    # With a penalty the same data give a unique, much smaller solution and no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reg = LogisticRegression(penalty="l2", C=1.0).fit(X, y)
    assert np.linalg.norm(reg.coef_) < np.linalg.norm(model.coef_) / 10


def test_separable_two_points_with_gd():
    X = np.array([[-1.0], [1.0]])
    with pytest.warns(SeparableDataWarning):
        model = LogisticRegression(solver="gd", learning_rate=10.0, max_iter=100_000,
                                   tol=0.0).fit(X, [0, 1])
    assert model.coef_[0, 0] > 0 and np.isfinite(model.coef_[0, 0])


def test_convergence_warning_at_max_iter():
    X, y = _breast_cancer()
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        LogisticRegression(solver="gd", penalty="l2", max_iter=3).fit(X, y)


def test_works_with_sklearn_clone_and_one_vs_rest():
    from sklearn.base import clone
    from sklearn.multiclass import OneVsRestClassifier

    X, y = load_iris(return_X_y=True)
    model = OneVsRestClassifier(LogisticRegression(penalty="l2", C=1.0)).fit(X, y)
    theirs = OneVsRestClassifier(sklm.LogisticRegression(C=1.0, tol=1e-10)).fit(X, y)
    # One binary problem per class, each solved to a gradient of 1e-6: the
    # predictions on the training data coincide.
    assert np.array_equal(model.predict(X), theirs.predict(X))
    assert clone(LogisticRegression(C=2.0)).C == 2.0


# --- bad input ----------------------------------------------------------------

def _xy():
    return _overlapping(0, 20, 2)


def test_mismatched_lengths():
    X, y = _xy()
    with pytest.raises(ValueError, match="X and y have different lengths"):
        LogisticRegression().fit(X, y[:-1])


@pytest.mark.parametrize("bad,match", [(np.nan, "X contains NaN"), (np.inf, "X contains infinity")])
def test_nan_and_inf_in_X(bad, match):
    X, y = _xy()
    X[3, 1] = bad
    with pytest.raises(ValueError, match=match):
        LogisticRegression().fit(X, y)


def test_nan_in_y():
    X, y = _xy()
    y = y.astype(float)
    y[0] = np.nan
    with pytest.raises(ValueError, match="y contains NaN"):
        LogisticRegression().fit(X, y)


def test_more_than_two_classes_points_to_one_vs_rest():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="3 classes.*OneVsRestClassifier"):
        LogisticRegression().fit(X, y)


def test_continuous_y_is_not_taken_for_many_classes():
    X, _ = _xy()
    with pytest.raises(ValueError, match="y looks continuous"):
        LogisticRegression().fit(X, np.linspace(0.0, 1.0, len(X)))


def test_single_class():
    X, _ = _xy()
    with pytest.raises(ValueError, match="single class"):
        LogisticRegression().fit(X, np.ones(len(X)))


@pytest.mark.parametrize("C", [0.0, -1.0])
def test_C_must_be_positive(C):
    X, y = _xy()
    with pytest.raises(ValueError, match="C must be > 0"):
        LogisticRegression(penalty="l2", C=C).fit(X, y)


def test_unknown_solver():
    X, y = _xy()
    with pytest.raises(ValueError, match="solver must be one of"):
        LogisticRegression(solver="lbfgs").fit(X, y)


def test_unknown_penalty():
    X, y = _xy()
    with pytest.raises(ValueError, match="penalty must be None or 'l2'"):
        LogisticRegression(penalty="l1").fit(X, y)


@pytest.mark.parametrize("kw,match", [({"learning_rate": 0.0}, "learning_rate must be > 0"),
                                      ({"learning_rate": np.inf}, "learning_rate must be finite"),
                                      ({"max_iter": 0}, "max_iter must be >= 1"),
                                      ({"tol": -1.0}, "tol must be >= 0"),
                                      ({"batch_size": 0}, "batch_size must be >= 1"),
                                      ({"fit_intercept": 1}, "fit_intercept must be True or False")])
def test_bad_hyper_parameters(kw, match):
    X, y = _xy()
    with pytest.raises((ValueError, TypeError), match=match):
        LogisticRegression(solver="gd", **kw).fit(X, y)


@pytest.mark.parametrize("method", ["predict", "predict_proba", "decision_function"])
def test_predict_before_fit(method):
    X, _ = _xy()
    with pytest.raises(NotFittedError, match="not fitted yet"):
        getattr(LogisticRegression(), method)(X)


def test_wrong_number_of_features_at_predict():
    X, y = _xy()
    model = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features"):
        model.predict(np.ones((2, 3)))


# --- quasi-complete separation (Albert and Anderson, 1984) ---------------------

# Albert and Anderson's quasi-complete separation in one feature: x <= 0 -> 0 and
# x >= 0 -> 1 except at x = 0, where both labels occur. No finite MLE exists; before
# the check, Newton stopped after 13 iterations at w = 12.8 with no warning.
_X_QUASI = np.array([[-2.0], [-1.0], [0.0], [0.0], [1.0], [2.0]])
_Y_QUASI = np.array([0, 0, 0, 1, 1, 1])


@pytest.mark.parametrize("solver", ["newton", "gd", "sgd"])
def test_quasi_complete_separation_warns(solver):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)      # gd/sgd creep towards infinity
        with pytest.warns(QuasiSeparableDataWarning, match="at least quasi-completely.*2 points on it"):
            LogisticRegression(solver=solver, random_state=0).fit(_X_QUASI, _Y_QUASI)


def test_quasi_separation_warning_is_a_separable_data_warning():
    # Code that filters SeparableDataWarning also catches the quasi-complete case.
    assert issubclass(QuasiSeparableDataWarning, SeparableDataWarning)
    with pytest.warns(SeparableDataWarning):
        LogisticRegression().fit(_X_QUASI, _Y_QUASI)


def test_quasi_separation_certificate_is_real():
    # The direction the check returns is zero on the tied points and strictly on the
    # right side elsewhere, so the loss decreases along it without end.
    with pytest.warns(QuasiSeparableDataWarning):
        model = LogisticRegression().fit(_X_QUASI, _Y_QUASI)
    w = np.append(model.coef_[0], model.intercept_)
    d, tied = model._quasi_separation_direction(w, _X_QUASI, _Y_QUASI.astype(float))
    Xh = np.column_stack([_X_QUASI, np.ones(6)])
    t = 2.0 * _Y_QUASI - 1
    np.testing.assert_array_equal(tied, _X_QUASI[:, 0] == 0)
    # 1e-12: the projection onto the null space of the tied rows, in float64
    assert np.all(np.abs(Xh[tied] @ d) <= 1e-12 * np.linalg.norm(d))
    assert np.all(t[~tied] * (Xh[~tied] @ d) > 0)
    losses = [logistic_objective(w + c * d, _X_QUASI, _Y_QUASI)[0] for c in (0.0, 1.0, 2.0, 4.0)]
    assert np.all(np.diff(losses) < 0)


@pytest.mark.parametrize("seed", range(5))
def test_quasi_separation_in_two_dimensions(seed):
    # Separable by x_1 = 0 except four points on that line whose labels no line
    # through them can split (an XOR pattern): quasi-complete, not complete.
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] > 0).astype(int)
    X[:4] = [[0.0, 0.0], [0.0, 0.0], [0.0, 1.0], [0.0, 1.0]]
    y[:4] = [0, 1, 0, 1]
    with pytest.warns(QuasiSeparableDataWarning, match="4 points on it"):
        LogisticRegression().fit(X, y)


@pytest.mark.parametrize("seed", range(5))
def test_no_quasi_separation_warning_on_overlapping_classes(seed):
    X, y = _overlapping(seed, 200, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SeparableDataWarning)
        LogisticRegression().fit(X, y)
    X, y = load_watermelon("3.0alpha", return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SeparableDataWarning)
        LogisticRegression().fit(X, y)


def test_penalty_silences_quasi_separation():
    # With an l2 penalty the minimiser exists whatever the data: no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        LogisticRegression(penalty="l2", C=1.0).fit(_X_QUASI, _Y_QUASI)


# --- bad and extreme input ----------------------------------------------------

@pytest.mark.parametrize("solver, transform", [
    ("sgd", lambda X: X + 100.0),      # guards against: accuracy 0.5 (one class), "converged", no warning
    ("gd", lambda X: X * 1e-6),        # guards against: stopped after 1 step with coef ~ 1e-6, no warning
    ("gd", lambda X: X + 100.0),
    ("sgd", lambda X: X * 1e-6),
])
def test_logistic_first_order_solvers_converge_on_badly_scaled_features(solver, transform):
    X, y = binary()
    newton = LogisticRegression(tol=1e-12).fit(transform(X), y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no ConvergenceWarning either
        model = LogisticRegression(solver=solver, max_iter=5000, tol=1e-9,
                                   random_state=0).fit(transform(X), y)
    f_star = newton.objective_path_[-1]
    gap = (model.objective_path_[-1] - f_star) / f_star
    if solver == "gd":
        # gradient entries <= 1e-9 on a strongly convex problem: a relative gap of
        # the order of their square, far below 1e-10
        assert 0 <= gap < 1e-10, gap
    else:
        # SGD with steps eta0 / sqrt(t) stops on a plateau; the chapter asks 1e-2 of it
        # (absolute; f* is about 0.4 here); and the run is the one it makes on X itself
        assert 0 <= model.objective_path_[-1] - f_star < 1e-2
        plain = LogisticRegression(solver=solver, max_iter=5000, tol=1e-9,
                                   random_state=0).fit(X, y)
        np.testing.assert_allclose(model.objective_path_, plain.objective_path_,
                                   rtol=1e-9, atol=0)
    assert model.score(transform(X), y) >= newton.score(transform(X), y) - 0.02


def test_logistic_gd_result_does_not_depend_on_feature_units():
    X, y = binary()
    a = LogisticRegression(solver="gd", max_iter=5000, tol=1e-10).fit(X, y)
    b = LogisticRegression(solver="gd", max_iter=5000, tol=1e-10).fit(X * 1e-6 + 3.0, y)
    # Same standardised problem, same iterates up to rounding: 1e-9 relative.
    np.testing.assert_allclose(b.coef_ * 1e-6, a.coef_, rtol=1e-9, atol=0)
    np.testing.assert_allclose(b.decision_function(X * 1e-6 + 3.0), a.decision_function(X),
                               rtol=0, atol=1e-8)


def test_logistic_gd_penalty_is_on_the_original_weights():
    X, y = binary()
    X = X * np.array([1e-3, 1.0, 10.0, 1e2])
    newton = LogisticRegression(penalty="l2", C=0.5, tol=1e-12).fit(X, y)
    gd = LogisticRegression(solver="gd", penalty="l2", C=0.5, max_iter=20000,
                            tol=1e-11).fit(X, y)
    # The penalised problem has one minimiser; both solvers reach it (1e-6 relative:
    # the gradient test tol = 1e-11 bounds the distance by tol / smallest curvature).
    np.testing.assert_allclose(gd.coef_, newton.coef_, rtol=1e-6, atol=0)
    assert abs(gd.objective_path_[-1] - newton.objective_path_[-1]) <= 1e-12

