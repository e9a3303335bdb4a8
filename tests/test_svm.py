"""SMO, SVC, SVR and the primal solver: oracle tests against scikit-learn (libsvm),
KKT conditions at the solution, primal = dual, caching, bad input."""

import warnings

import numpy as np
import pytest

from mlbook.kernels import laplacian_kernel, pairwise_kernels, rbf_kernel
from mlbook.svm import (
    SVC,
    SVR,
    ConvergenceWarning,
    LinearSVMPrimal,
    _intercept,
    _KernelColumns,
    _pair_update,
    _platt,
    _platt_threshold,
    smo_solve,
    svc_dual_objective,
    svr_dual_objective,
)
from input_data import binary
from mlbook.metrics import r2_score

sksvm = pytest.importorskip("sklearn.svm")

# Both solvers are run to a KKT gap m(alpha) - M(alpha) < 1e-6. Two points that
# satisfy the KKT conditions to within 1e-6 differ in the dual objective by about
# 1e-6 times the size of the multipliers, and in f(x) by a modest multiple of
# 1e-6; the tolerances below leave a factor of about 100 to that.
TOL = 1e-6
F_ATOL = 1e-4       # decision values / predictions
OBJ_RTOL = 1e-6     # dual objective, relative


def _classification(seed, n, d):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    score = X[:, 0] + X[:, 1 % d] ** 2 - 1.0 + 0.5 * rng.normal(size=n)
    return X, (score > 0).astype(int)


def _regression(seed, n, d):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, X[:, 0] + np.sin(2 * X[:, -1]) + 0.1 * rng.normal(size=n)


CASES = [  # (seed, n, d, kernel, C, extra params)
    (0, 40, 2, "rbf", 1.0, {}),
    (1, 120, 5, "rbf", 10.0, {}),
    (2, 80, 3, "linear", 0.5, {}),
    (3, 60, 4, "poly", 1.0, {"degree": 2, "coef0": 1.0}),
    (4, 150, 2, "rbf", 0.3, {"gamma": 2.0}),
    (5, 70, 6, "sigmoid", 0.5, {"gamma": 0.05, "coef0": 0.0}),
]


def _kernel_params(kernel, X, extra):
    gamma = extra.get("gamma", 1.0 / (X.shape[1] * X.var()))
    return {
        "linear": {},
        "rbf": {"gamma": gamma},
        "poly": {"gamma": gamma, "degree": extra.get("degree", 3),
                 "coef0": extra.get("coef0", 0.0)},
        "sigmoid": {"gamma": gamma, "coef0": extra.get("coef0", 0.0)},
    }[kernel]


@pytest.mark.parametrize("selection", ["wss2", "platt"])
@pytest.mark.parametrize("case", CASES)
def test_svc_matches_libsvm(case, selection):
    seed, n, d, kernel, C, extra = case
    X, y = _classification(seed, n, d)
    sk = sksvm.SVC(C=C, kernel=kernel, tol=TOL, **extra).fit(X, y)
    ours = SVC(C=C, kernel=kernel, tol=TOL, selection=selection, **extra).fit(X, y)
    msg = f"case {case}, {selection}"
    np.testing.assert_array_equal(ours.support_, sk.support_, err_msg=msg)
    np.testing.assert_array_equal(ours.n_support_, sk.n_support_, err_msg=msg)
    np.testing.assert_allclose(ours.decision_function(X), sk.decision_function(X),
                               rtol=0, atol=F_ATOL, err_msg=msg)
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X), err_msg=msg)
    # scikit-learn's dual objective, computed from its dual_coef_ and the kernel
    K_sv = pairwise_kernels(sk.support_vectors_, kernel=kernel,
                            **_kernel_params(kernel, X, extra))
    theirs = svc_dual_objective(sk.dual_coef_[0], K_sv)
    assert ours.dual_objective_[0] == pytest.approx(theirs, rel=OBJ_RTOL), msg
    # the sum of alpha_i y_i is zero (the equality constraint); 1e-10: the
    # solver keeps it exactly up to rounding and the 1e-12 C snapping to bounds
    assert abs(ours.dual_coef_.sum()) < 1e-10 * max(1, n * C)
    # alpha in [0, C]
    assert np.all(np.abs(ours.dual_coef_) <= C * (1 + 1e-12))
    if kernel == "linear":
        np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=0, atol=F_ATOL, err_msg=msg)


@pytest.mark.parametrize("case", CASES[:4])
def test_svc_kkt_conditions(case):
    seed, n, d, kernel, C, extra = case
    X, y = _classification(seed, n, d)
    model = SVC(C=C, kernel=kernel, tol=TOL, **extra).fit(X, y)
    ypm = np.where(y == model.classes_[1], 1.0, -1.0)
    alpha = np.zeros(n)
    alpha[model.support_] = np.abs(model.dual_coef_[0])
    margin = ypm * model.decision_function(X)              # y_i f(x_i)
    # With a KKT gap below tol, every condition holds to within tol in units of
    # y f(x) (|E_i| <= tol for free multipliers); 1e-9 covers the rounding of f.
    slack = TOL + 1e-9
    zero, at_c = alpha == 0, alpha >= C
    free = ~zero & ~at_c
    assert np.all(margin[zero] >= 1 - slack), "alpha = 0 needs y f(x) >= 1"
    assert np.all(np.abs(margin[free] - 1) <= slack), "0 < alpha < C needs y f(x) = 1"
    assert np.all(margin[at_c] <= 1 + slack), "alpha = C needs y f(x) <= 1"
    assert free.any()


SVR_CASES = [
    (0, 40, 2, "rbf", 1.0, 0.1, {}),
    (1, 150, 4, "rbf", 10.0, 0.05, {}),
    (2, 60, 3, "linear", 1.0, 0.2, {}),
    (3, 90, 2, "poly", 0.5, 0.1, {"degree": 3, "coef0": 1.0}),
]


@pytest.mark.parametrize("selection", ["wss2", "platt"])
@pytest.mark.parametrize("case", SVR_CASES)
def test_svr_matches_libsvm(case, selection):
    seed, n, d, kernel, C, eps, extra = case
    X, y = _regression(seed, n, d)
    sk = sksvm.SVR(C=C, epsilon=eps, kernel=kernel, tol=TOL, **extra).fit(X, y)
    ours = SVR(C=C, epsilon=eps, kernel=kernel, tol=TOL, selection=selection,
               **extra).fit(X, y)
    msg = f"case {case}, {selection}"
    np.testing.assert_array_equal(ours.support_, sk.support_, err_msg=msg)
    np.testing.assert_allclose(ours.predict(X), sk.predict(X), rtol=0, atol=F_ATOL, err_msg=msg)
    # 1e-3: individual multipliers are less well determined than f (a KKT gap
    # of 1e-6 divided by the smallest curvature of the dual)
    np.testing.assert_allclose(ours.dual_coef_, sk.dual_coef_, rtol=0, atol=1e-3, err_msg=msg)
    K_sv = pairwise_kernels(sk.support_vectors_, kernel=kernel,
                            **_kernel_params(kernel, X, extra))
    theirs = svr_dual_objective(sk.dual_coef_[0], K_sv, y[sk.support_], eps)
    assert ours.dual_objective_ == pytest.approx(theirs, rel=OBJ_RTOL), msg


def test_svr_kkt_tube():
    X, y = _regression(7, 100, 3)
    eps, C = 0.1, 2.0
    model = SVR(C=C, epsilon=eps, tol=TOL).fit(X, y)
    coef = np.zeros(len(y))
    coef[model.support_] = model.dual_coef_[0]
    r = y - model.predict(X)                                # residuals
    slack = TOL + 1e-9                                      # as in the SVC KKT test
    inside = coef == 0
    free = (coef != 0) & (np.abs(coef) < C)
    bound = np.abs(coef) >= C
    assert np.all(np.abs(r[inside]) <= eps + slack), "alpha = 0: inside the tube"
    assert np.all(np.abs(np.abs(r[free]) - eps) <= slack), "free: on the tube's edge"
    assert np.all(np.abs(r[bound]) >= eps - slack), "alpha = C: on or outside the edge"
    # sign convention: alpha_hat - alpha > 0 for points above the tube
    assert np.all(np.sign(coef[free | bound]) == np.sign(r[free | bound]))


@pytest.mark.parametrize("shape", ["ovo", "ovr"])
def test_multiclass_iris_matches_libsvm(shape):
    from mlbook.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    sk = sksvm.SVC(tol=TOL, decision_function_shape=shape).fit(X, y)
    ours = SVC(tol=TOL, decision_function_shape=shape).fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))
    np.testing.assert_array_equal(ours.support_, sk.support_)
    np.testing.assert_array_equal(ours.n_support_, sk.n_support_)
    np.testing.assert_allclose(ours.decision_function(X), sk.decision_function(X),
                               rtol=0, atol=F_ATOL)
    np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=0, atol=F_ATOL)
    # 1e-3 for single multipliers, as in the SVR test
    np.testing.assert_allclose(ours.dual_coef_, sk.dual_coef_, rtol=0, atol=1e-3)
    assert ours.n_iter_.shape == (3,)


def test_multiclass_default_tol_predictions_match_on_iris():
    from mlbook.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    np.testing.assert_array_equal(SVC().fit(X, y).predict(X), sksvm.SVC().fit(X, y).predict(X))


def test_string_labels_and_classes():
    X, y = _classification(8, 50, 2)
    labels = np.array(["no", "yes"])[y]
    model = SVC().fit(X, labels)
    np.testing.assert_array_equal(model.classes_, ["no", "yes"])
    # the same problem with labels 0/1: the same predictions, mapped to the names
    np.testing.assert_array_equal(model.predict(X),
                                  np.array(["no", "yes"])[SVC().fit(X, y).predict(X)])


def test_callable_kernel_equals_named():
    X, y = _classification(9, 60, 3)
    g = 0.7
    named = SVC(kernel="rbf", gamma=g, tol=TOL).fit(X, y)
    func = SVC(kernel=lambda A, B: rbf_kernel(A, B, gamma=g), tol=TOL).fit(X, y)
    np.testing.assert_array_equal(func.support_, named.support_)
    # the kernel values agree only to rounding (whole matrix vs one column at a
    # time), which can change SMO's path; both stop at a KKT gap of 1e-6: F_ATOL
    np.testing.assert_allclose(func.decision_function(X), named.decision_function(X),
                               rtol=0, atol=F_ATOL)


def test_platt_and_wss2_reach_the_same_optimum():
    X, y = _classification(10, 200, 4)
    a = SVC(tol=TOL, selection="wss2").fit(X, y)
    b = SVC(tol=TOL, selection="platt").fit(X, y)
    assert a.dual_objective_[0] == pytest.approx(b.dual_objective_[0], rel=OBJ_RTOL)
    np.testing.assert_array_equal(a.support_, b.support_)
    # the second-order choice needs fewer steps than Platt's heuristics here
    assert a.n_iter_[0] < b.n_iter_[0]



def test_random_state_reaches_platts_scans():
    """SVC's and SVR's random_state seeds Platt's scans, as smo_solve's does: the
    same seed gives the same path, and every seed the same optimum."""
    X, y = _classification(12, 150, 3)
    runs = [SVC(tol=TOL, selection="platt", random_state=r).fit(X, y) for r in range(4)]
    again = SVC(tol=TOL, selection="platt", random_state=2).fit(X, y)
    assert again.n_iter_[0] == runs[2].n_iter_[0]
    np.testing.assert_array_equal(again.dual_coef_, runs[2].dual_coef_)
    assert len({int(r.n_iter_[0]) for r in runs}) > 1      # the starts do change the path
    for r in runs[1:]:
        assert r.dual_objective_[0] == pytest.approx(runs[0].dual_objective_[0], rel=OBJ_RTOL)
    Xr = X[:, :2]
    yr = X[:, 0] - 2 * X[:, 1]
    a = SVR(selection="platt", random_state=5).fit(Xr, yr)
    b = SVR(selection="platt", random_state=5).fit(Xr, yr)
    assert a.n_iter_ == b.n_iter_
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)

def test_column_cache_eviction_gives_identical_solution():
    X, y = _classification(11, 300, 3)
    full = SVC(tol=TOL).fit(X, y)
    # 300 samples x 8 bytes = 2400 bytes per column; 0.01 MB holds 4 columns
    small = SVC(tol=TOL, cache_size=0.01).fit(X, y)
    np.testing.assert_array_equal(small.support_, full.support_)
    # the same arithmetic in the same order: identical up to the last bit
    np.testing.assert_array_equal(small.dual_coef_, full.dual_coef_)


def test_callable_kernel_with_small_cache_gives_identical_solution():
    X, y = _classification(22, 120, 3)

    def kernel(A, B):
        return rbf_kernel(A, B, gamma=0.4)

    full = SVC(kernel=kernel, tol=TOL).fit(X, y)                  # whole Gram matrix at once
    # 120 samples x 8 bytes: 0.005 MB holds 5 columns, so the diagonal is built
    # from 5 x 5 blocks and the columns one at a time
    small = SVC(kernel=kernel, tol=TOL, cache_size=0.005).fit(X, y)
    np.testing.assert_array_equal(small.support_, full.support_)
    # whole matrix vs one column at a time: the same values up to rounding,
    # which can change SMO's path slightly; F_ATOL as for the libsvm oracle
    np.testing.assert_allclose(small.decision_function(X), full.decision_function(X),
                               rtol=0, atol=F_ATOL)
    cache = _KernelColumns(X, kernel, {}, cache_size=0.005)
    assert cache.capacity == 5 and cache.full is None
    # 1e-14: each diagonal entry is exp(0) = 1 up to the rounding of a zero distance
    np.testing.assert_allclose(cache.diag, 1.0, rtol=0, atol=1e-14)
    # a kernel with a varying diagonal, and a last block shorter than the others
    poly = lambda A, B: (A @ B.T + 1.0) ** 2                      # noqa: E731
    blocks = _KernelColumns(X[:117], poly, {}, cache_size=0.005)
    # the same products in float64: 1e-12 relative
    np.testing.assert_allclose(blocks.diag, np.diag(poly(X[:117], X[:117])), rtol=1e-12)


def test_kernel_columns_lru():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3))
    cache = _KernelColumns(X, "rbf", {"gamma": 0.5}, cache_size=3 * 50 * 8 / 2**20)
    assert cache.capacity == 3 and not cache.dense
    K = rbf_kernel(X, gamma=0.5)
    for i in [0, 1, 2, 0, 3, 4, 0]:
        # 1e-14: the same formula, one column at a time
        np.testing.assert_allclose(cache.column(i), K[:, i], rtol=1e-14, atol=1e-14)
        assert len(cache.lru) <= 3
    # 0 was used most recently and survives; 1 and 2 were evicted
    assert 0 in cache.lru and 1 not in cache.lru
    assert cache.n_computed == 5
    # exp(-gamma * 0) = 1 exactly for the RBF kernel's diagonal (1e-15: one rounding)
    np.testing.assert_allclose(cache.diag, 1.0, rtol=0, atol=1e-15)


@pytest.mark.parametrize("seed, n, C", [(0, 40, 1.0), (1, 120, 10.0), (2, 80, 0.5),
                                         (3, 200, 3.0), (4, 60, 100.0)])
@pytest.mark.parametrize("tol", [1e-3, 1e-6])
def test_platt_threshold_update_agrees_with_kkt_bias(seed, n, C, tol):
    """Platt's running threshold ends within tol of the KKT bias reported by smo_solve.

    Platt stops when every free multiplier has |y_j E_j| <= tol with
    E_j = y_j grad_j + b, i.e. |-y_j grad_j - b| <= tol, and the KKT bias is the
    mean of -y_j grad_j over the free ones: the two differ by at most tol.
    (The update rule itself is tested in test_platt_threshold_update.)
    """
    X, y01 = _classification(seed, n, 3)
    y = np.where(y01 == 1, 1.0, -1.0)
    Cv = np.full(n, C)
    cache = _KernelColumns(X, "rbf", {"gamma": 0.5}, cache_size=200)
    alpha, G, _, converged, b_platt = _platt(cache.column, cache.diag, y, -np.ones(n), Cv,
                                             tol, 10**6, 1e-12, 0)
    assert converged
    free = (alpha > 0) & (alpha < Cv)
    assert free.any()
    assert abs(b_platt - _intercept(alpha, G, y, Cv)) <= tol


def test_platt_threshold_update():
    """b1 / b2 / midpoint against b computed afresh from the new multipliers.

    On random pairs of random problems: the b that puts point t exactly on its
    margin under the new multipliers is b_t = y_t - sum_s alpha_s y_s K_st. Platt's
    update must return b_i when alpha_i is free, else b_j when alpha_j is free, else
    their midpoint. 1e-10: sums of a few products of O(10) numbers in float64.
    """
    rng = np.random.default_rng(5)
    seen = {"i free": 0, "j free": 0, "both at a bound": 0}
    for _ in range(500):
        m = 6
        X = rng.normal(size=(m, 2))
        y = rng.choice([-1.0, 1.0], size=m)
        C = float(rng.uniform(0.5, 3.0))
        alpha = rng.uniform(0, C, size=m) * (rng.random(m) < 0.7)
        K = X @ X.T
        b = float(rng.normal())
        E = (alpha * y) @ K + b - y                                 # f(x_t) - y_t
        i, j = 0, 1
        a_i, a_j = _pair_update(float(alpha[i]), float(alpha[j]), y[i], y[j], E[i], E[j],
                                K[i, i], K[j, j], float(K[i, j]), C, C, 1e-12)
        new = alpha.copy()
        new[i], new[j] = a_i, a_j
        b_on_margin = y - (new * y) @ K                             # b putting each point on its margin
        b_new = _platt_threshold(b, E[i], E[j], y[i], y[j], a_i - alpha[i], a_j - alpha[j],
                                 K[i, i], float(K[i, j]), K[j, j], a_i, a_j, C, C)
        if 0 < a_i < C:
            expected, case = b_on_margin[i], "i free"
        elif 0 < a_j < C:
            expected, case = b_on_margin[j], "j free"
        else:
            expected, case = (b_on_margin[i] + b_on_margin[j]) / 2, "both at a bound"
        assert b_new == pytest.approx(expected, abs=1e-10), case
        seen[case] += 1
    assert min(seen.values()) > 20, seen                           # every branch exercised


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_laplacian_and_callable_kernels_match_libsvm_precomputed(seed):
    """Kernels libsvm does not have by name: compare with its precomputed-kernel mode.

    Our Laplace kernel uses the Euclidean norm (scikit-learn's the L1 norm), so
    libsvm gets our Gram matrix as kernel="precomputed"; same data, C and tol,
    so the tolerances of test_svc_matches_libsvm apply.
    """
    X, y = _classification(20 + seed, 90, 3)
    Xr, yr = _regression(20 + seed, 90, 3)
    K = laplacian_kernel(X, gamma=0.7)
    sk = sksvm.SVC(C=2.0, kernel="precomputed", tol=TOL).fit(K, y)
    for kernel in ("laplacian", lambda A, B: laplacian_kernel(A, B, gamma=0.7)):
        ours = SVC(C=2.0, kernel=kernel, gamma=0.7, tol=TOL).fit(X, y)
        np.testing.assert_array_equal(ours.support_, sk.support_)
        np.testing.assert_allclose(ours.decision_function(X), sk.decision_function(K),
                                   rtol=0, atol=F_ATOL)
        assert ours.dual_objective_[0] == pytest.approx(
            svc_dual_objective(sk.dual_coef_[0], K[np.ix_(sk.support_, sk.support_)]),
            rel=OBJ_RTOL)
    Kr = laplacian_kernel(Xr, gamma=0.7)
    skr = sksvm.SVR(C=2.0, epsilon=0.1, kernel="precomputed", tol=TOL).fit(Kr, yr)
    reg = SVR(C=2.0, epsilon=0.1, kernel="laplacian", gamma=0.7, tol=TOL).fit(Xr, yr)
    np.testing.assert_array_equal(reg.support_, skr.support_)
    np.testing.assert_allclose(reg.predict(Xr), skr.predict(Kr), rtol=0, atol=F_ATOL)


def test_smo_solve_small_qp_by_enumeration():
    # a 3-variable problem whose optimum is found by brute force on a fine grid
    rng = np.random.default_rng(12)
    X = rng.normal(size=(3, 2))
    y = np.array([1.0, 1.0, -1.0])
    K = X @ X.T
    C = np.array([1.0, 1.0, 1.0])
    res = smo_solve(lambda i: K[:, i], np.diag(K).copy(), y, -np.ones(3), C, tol=1e-10)
    Q = y[:, None] * y[None, :] * K
    # parametrise a1, a2 in [0, 1]; a3 = a1 + a2 must be <= 1
    g = np.linspace(0, 1, 1001)
    a1, a2 = np.meshgrid(g, g)
    ok = a1 + a2 <= 1
    A = np.stack([a1[ok], a2[ok], (a1 + a2)[ok]], axis=1)
    obj = 0.5 * np.einsum("ni,ij,nj->n", A, Q, A) - A.sum(axis=1)
    # the grid step 1e-3 bounds the grid's error in the objective by ~ 1e-3 * |grad|
    assert res.objective <= obj.min() + 1e-12
    assert res.objective >= obj.min() - 1e-2
    assert abs(res.alpha @ y) < 1e-12


def test_primal_pegasos_matches_dual():
    X, y = _classification(13, 60, 3)
    C = 0.5
    dual = SVC(kernel="linear", C=C, tol=1e-8).fit(X, y)
    primal = LinearSVMPrimal(C=C, max_iter=10000).fit(X, y)
    # strong duality: min primal = max dual. Pegasos' averaged iterate after
    # 10^4 full steps is within ~1e-6 relative here; 1e-4 is the stated bound.
    assert primal.objective_ == pytest.approx(dual.dual_objective_[0], rel=1e-4)
    assert primal.objective_ >= dual.dual_objective_[0] * (1 - 1e-9)  # weak duality
    # w is unique (strongly convex part): 1e-2 absolute on O(1) weights
    np.testing.assert_allclose(primal.coef_, dual.coef_, rtol=0, atol=1e-2)
    assert primal.intercept_[0] == pytest.approx(dual.intercept_[0], abs=1e-2)
    # the primal objective at the dual's w, b equals the dual optimum (1e-6:
    # the dual solution's KKT gap is 1e-8)
    ypm = np.where(y == dual.classes_[1], 1.0, -1.0)
    at_dual = LinearSVMPrimal.primal_objective(dual.coef_[0], dual.intercept_[0], X, ypm, C)
    assert at_dual == pytest.approx(dual.dual_objective_[0], rel=1e-6)


def test_primal_minibatch_runs_and_predicts():
    X, y = _classification(14, 80, 2)
    m = LinearSVMPrimal(C=1.0, max_iter=3000, batch_size=10, random_state=0).fit(X, y)
    m2 = LinearSVMPrimal(C=1.0, max_iter=3000, batch_size=10, random_state=0).fit(X, y)
    np.testing.assert_array_equal(m.coef_, m2.coef_)                # reproducible
    ref = SVC(kernel="linear").fit(X, y)
    # stochastic steps: only agreement of most predictions is expected
    assert np.mean(m.predict(X) == ref.predict(X)) >= 0.9


def test_sklearn_clone_and_cross_val_score():
    from sklearn.base import clone
    from sklearn.model_selection import cross_val_score

    X, y = _classification(15, 90, 2)
    model = SVC(C=2.0, kernel="poly", degree=2)
    assert clone(model).get_params() == model.get_params()
    scores = cross_val_score(model, X, y, cv=3)
    theirs = cross_val_score(sksvm.SVC(C=2.0, kernel="poly", degree=2), X, y, cv=3)
    # accuracies on the same folds: the same predictions give the same fractions
    np.testing.assert_array_equal(scores, theirs)


def test_gamma_auto_and_number():
    X, y = _classification(16, 50, 4)
    a = SVC(gamma="auto", tol=TOL).fit(X, y)
    b = SVC(gamma=0.25, tol=TOL).fit(X, y)
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), rtol=0, atol=1e-12)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("C", [0.0, -1.0])
def test_bad_C(C):
    with pytest.raises(ValueError, match="C must be > 0"):
        SVC(C=C).fit([[0.0], [1.0]], [0, 1])
    with pytest.raises(ValueError, match="C must be > 0"):
        SVR(C=C).fit([[0.0], [1.0]], [0.0, 1.0])


@pytest.mark.parametrize("make, name", [
    (lambda: SVC(C=np.inf), "C"),
    (lambda: SVR(C=np.inf), "C"),
    (lambda: SVR(epsilon=np.inf), "epsilon"),
    (lambda: SVC(gamma=np.inf), "gamma"),
    (lambda: SVC(kernel="poly", coef0=-np.inf), "coef0"),
])
def test_infinite_hyperparameters(make, name):
    X, y = [[0.0], [1.0]], [0, 1]
    if isinstance(make(), SVR):
        y = [0.0, 1.0]
    with pytest.raises(ValueError, match=f"{name} must be finite"):
        make().fit(X, y)


def test_primal_infinite_C():
    with pytest.raises(ValueError, match="C must be finite"):
        LinearSVMPrimal(C=np.inf).fit([[0.0], [1.0]], [0, 1])


def test_bad_epsilon():
    with pytest.raises(ValueError, match="epsilon must be >= 0"):
        SVR(epsilon=-0.1).fit([[0.0], [1.0]], [0.0, 1.0])


def test_unknown_kernel():
    with pytest.raises(ValueError, match="kernel 'gaussian' is unknown"):
        SVC(kernel="gaussian").fit([[0.0], [1.0]], [0, 1])


def test_kernel_wrong_type():
    with pytest.raises(TypeError, match="kernel must be a string or a callable"):
        SVC(kernel=3).fit([[0.0], [1.0]], [0, 1])


def test_callable_kernel_wrong_shape():
    with pytest.raises(ValueError, match="expected the Gram matrix of shape"):
        SVC(kernel=lambda A, B: A @ A.T).fit(np.ones((4, 2)) * np.arange(4)[:, None],
                                              [0, 0, 1, 1]).predict(np.ones((5, 2)))
    with pytest.raises(ValueError, match="expected the Gram matrix of shape"):
        SVC(kernel=lambda A, B: np.ones((2, 2))).fit(np.eye(4), [0, 0, 1, 1])


@pytest.mark.parametrize("bad, match", [(np.nan, "X contains NaN"),
                                        (np.inf, "X contains infinity")])
def test_nonfinite_X(bad, match):
    X = np.array([[0.0], [1.0], [bad]])
    with pytest.raises(ValueError, match=match):
        SVC().fit(X, [0, 1, 1])
    with pytest.raises(ValueError, match=match):
        SVR().fit(X, [0.0, 1.0, 1.0])


def test_single_class():
    with pytest.raises(ValueError, match="single class"):
        SVC().fit([[0.0], [1.0]], [1, 1])


def test_primal_needs_two_classes():
    with pytest.raises(ValueError, match="exactly 2 classes"):
        LinearSVMPrimal().fit([[0.0], [1.0], [2.0]], [0, 1, 2])


def test_predict_before_fit():
    from mlbook._validation import NotFittedError

    for model in (SVC(), SVR(), LinearSVMPrimal()):
        with pytest.raises(NotFittedError, match="not fitted yet"):
            model.predict([[0.0]])


def test_wrong_number_of_features_at_predict():
    model = SVC().fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])
    with pytest.raises(ValueError, match="X has 3 features"):
        model.predict([[0.0, 1.0, 2.0]])


@pytest.mark.parametrize("gamma, err, match", [
    ("big", ValueError, "gamma must be 'scale', 'auto'"),
    (-1.0, ValueError, "gamma must be > 0"),
])
def test_bad_gamma(gamma, err, match):
    with pytest.raises(err, match=match):
        SVC(gamma=gamma).fit([[0.0], [1.0]], [0, 1])


def test_bad_selection():
    with pytest.raises(ValueError, match="selection must be 'wss2' or 'platt'"):
        SVC(selection="random").fit([[0.0], [1.0]], [0, 1])


def test_max_iter_warns_and_stops():
    X, y = _classification(17, 100, 2)
    for sel in ("wss2", "platt"):
        with pytest.warns(ConvergenceWarning, match="stopped at max_iter=5"):
            model = SVC(max_iter=5, selection=sel).fit(X, y)
        assert model.n_iter_[0] == 5
    with pytest.warns(ConvergenceWarning):
        SVR(max_iter=3).fit(*_regression(17, 50, 2))
    assert issubclass(ConvergenceWarning, UserWarning)


def test_converged_fit_does_not_warn():
    X, y = _classification(18, 60, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SVC().fit(X, y)


@pytest.mark.parametrize("seed", range(24))
def test_random_problems_match_libsvm(seed):
    """Random sizes, dimensions, C, epsilon and kernels, for SVC and SVR together."""
    rng = np.random.default_rng(1000 + seed)
    n, d = int(rng.integers(10, 200)), int(rng.integers(1, 8))
    C = float(10 ** rng.uniform(-1, 1.5))
    kernel = ["rbf", "linear", "poly"][seed % 3]
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + 0.7 * rng.normal(size=n) > 0).astype(int)
    y[:2] = [0, 1]                                          # both classes present
    yr = X[:, 0] + 0.3 * rng.normal(size=n)
    eps = float(rng.uniform(0, 0.5))
    msg = f"seed {seed}: n={n}, d={d}, C={C:.3g}, {kernel}"
    params = _kernel_params(kernel, X, {})
    sk = sksvm.SVC(C=C, kernel=kernel, tol=TOL).fit(X, y)
    ours = SVC(C=C, kernel=kernel, tol=TOL).fit(X, y)
    np.testing.assert_array_equal(ours.support_, sk.support_, err_msg=msg)
    # 1e-3 here (not F_ATOL): with a cubic kernel and C up to 30 the dual is
    # badly conditioned, and a KKT gap of 1e-6 allows f to move by up to ~1e-3
    np.testing.assert_allclose(ours.decision_function(X), sk.decision_function(X),
                               rtol=0, atol=1e-3, err_msg=msg)
    K_sv = pairwise_kernels(sk.support_vectors_, kernel=kernel, **params)
    assert ours.dual_objective_[0] == pytest.approx(
        svc_dual_objective(sk.dual_coef_[0], K_sv), rel=OBJ_RTOL), msg
    skr = sksvm.SVR(C=C, epsilon=eps, kernel=kernel, tol=TOL).fit(X, yr)
    reg = SVR(C=C, epsilon=eps, kernel=kernel, tol=TOL).fit(X, yr)
    np.testing.assert_array_equal(reg.support_, skr.support_, err_msg=msg)
    np.testing.assert_allclose(reg.predict(X), skr.predict(X), rtol=0, atol=1e-3, err_msg=msg)
    K_sv = pairwise_kernels(skr.support_vectors_, kernel=kernel, **params)
    assert reg.dual_objective_ == pytest.approx(
        svr_dual_objective(skr.dual_coef_[0], K_sv, yr[skr.support_], eps), rel=OBJ_RTOL), msg


def test_sample_weight_matches_libsvm():
    X, y = _classification(19, 80, 3)
    w = np.random.default_rng(19).uniform(0.2, 3.0, size=80)
    sk = sksvm.SVC(tol=TOL).fit(X, y, sample_weight=w)
    ours = SVC(tol=TOL).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(ours.support_, sk.support_)
    np.testing.assert_allclose(ours.decision_function(X), sk.decision_function(X), rtol=0, atol=F_ATOL)
    # the box is 0 <= alpha_i <= C w_i
    assert np.all(np.abs(ours.dual_coef_[0]) <= w[ours.support_] * (1 + 1e-12))


def test_multiclass_linear_coef_matches_libsvm():
    from mlbook.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    sk = sksvm.SVC(kernel="linear", tol=TOL).fit(X, y)
    ours = SVC(kernel="linear", tol=TOL).fit(X, y)
    # one w per pair of classes, in scikit-learn's pair order; F_ATOL as above
    assert ours.coef_.shape == (3, 4)
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=0, atol=F_ATOL)
    np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=0, atol=F_ATOL)


@pytest.mark.parametrize("index", [np.tile(np.arange(6), 2),            # SVR's doubling
                                   np.array([0, 2, 4, 1, 3, 5, 0, 2])])   # any other map
def test_smo_solve_index_equals_expanded_problem(index):
    """Variables that share samples (``index``) give the problem on the expanded Gram matrix."""
    rng = np.random.default_rng(21)
    X = rng.normal(size=(6, 2))
    K = rbf_kernel(X, gamma=0.5)
    n = index.shape[0]
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    p = rng.normal(size=n) - 1.0
    C = np.full(n, 2.0)
    shared = smo_solve(lambda i: K[:, i], np.diag(K).copy(), y, p, C, index=index, tol=1e-10)
    K_full = K[np.ix_(index, index)]
    full = smo_solve(lambda t: K_full[:, t], np.diag(K_full).copy(), y, p, C, tol=1e-10)
    # the same steps on the same numbers: equal up to the last bits
    np.testing.assert_allclose(shared.alpha, full.alpha, rtol=0, atol=1e-12)
    assert shared.objective == pytest.approx(full.objective, rel=1e-12)


def test_smo_solve_bad_input():
    K = np.eye(3)
    args = (lambda i: K[:, i], np.ones(3))
    with pytest.raises(ValueError, match="y must be a 1-d array of signs -1 and \\+1"):
        smo_solve(*args, np.array([0.0, 1.0, 2.0]), -np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="p and C must have shape"):
        smo_solve(*args, np.array([1.0, -1.0, 1.0]), -np.ones(2), np.ones(3))
    with pytest.raises(ValueError, match="C must be finite and >= 0"):
        smo_solve(*args, np.array([1.0, -1.0, 1.0]), -np.ones(3), -np.ones(3))
    with pytest.raises(ValueError, match="tol must be > 0"):
        smo_solve(*args, np.array([1.0, -1.0, 1.0]), -np.ones(3), np.ones(3), tol=0.0)


# --- bad and extreme input ----------------------------------------------------

def test_svc_with_a_weightless_class_says_so():
    # guards against: fit passed, predict raised "Y must have at least 1 sample(s); got 0"
    X, y = binary()
    w = np.where(y == 1, 0.0, 1.0)
    with pytest.raises(ValueError, match="sample_weight is zero for every sample of class 1"):
        SVC().fit(X, y, sample_weight=w)


def test_kernel_model_without_support_vectors_predicts_the_intercept():
    X = np.arange(10.0).reshape(-1, 1)
    y = np.sin(X[:, 0])
    model = SVR(epsilon=10.0).fit(X, y)          # the tube holds every point
    assert model.support_.shape == (0,)
    np.testing.assert_array_equal(model.predict(X[:3]), np.full(3, model.intercept_[0]))


def test_svc_and_svr_are_translation_invariant_with_the_rbf_kernel():
    sklearn_svm = pytest.importorskip("sklearn.svm")
    X, y = binary()
    rng = np.random.default_rng(1)
    # guards against: SVC training accuracy 0.61 on X + 1e8 against 0.96 on X
    ours = SVC(tol=1e-6).fit(X + 1e8, y)
    ref = sklearn_svm.SVC(tol=1e-6).fit(X, y)            # libsvm on the centred data
    np.testing.assert_array_equal(ours.predict(X + 1e8), ref.predict(X))
    # decision values: both solve the dual to tol 1e-6 (and X + 1e8 is X rounded to
    # 1.5e-8): 1e-4 absolute on values of order 1
    np.testing.assert_allclose(ours.decision_function(X + 1e8), ref.decision_function(X),
                               rtol=0, atol=1e-4)
    # guards against: SVR R^2 on X + 1e8 far below the one on X (the issue's case: -8.7 vs 0.40)
    Xr = rng.normal(size=(120, 3))
    yr = np.sin(Xr[:, 0]) + 0.5 * Xr[:, 1] + 0.1 * rng.normal(size=120)
    svr = SVR(C=10.0, tol=1e-6).fit(Xr + 1e8, yr)
    svr_ref = sklearn_svm.SVR(C=10.0, tol=1e-6).fit(Xr, yr)
    np.testing.assert_allclose(svr.predict(Xr + 1e8), svr_ref.predict(Xr), rtol=0, atol=1e-4)
    assert r2_score(yr, svr.predict(Xr + 1e8)) > 0.9


def test_svc_on_huge_features_with_a_numeric_gamma():
    X, y = binary(60, 2)
    small = SVC(gamma=0.5).fit(X, y)
    big = SVC(gamma=0.5e-300).fit(X * 1e150, y)
    # gamma * ||x - z||^2 is the same number: the same classifier
    np.testing.assert_array_equal(big.predict(X * 1e150), small.predict(X))


def test_linear_svm_primal_reports_its_steps():
    X, y = binary(40, 2)
    assert LinearSVMPrimal(max_iter=123).fit(X, y).n_iter_ == 123


@pytest.mark.parametrize("factor, word", [(1e-170, "underflows"), (1e160, "overflows")])
def test_gamma_scale_names_the_variance(factor, word):
    # guards against: 1e-170 silently used gamma = 1 (as for constant X); 1e160 overflowed to NaN
    X, y = binary(40, 2)
    for model in (SVC(), SVR()):
        with pytest.raises(ValueError, match=rf"gamma='scale'.*X.var\(\) = .* {word}"):
            model.fit(X * factor, y.astype(float))


def test_gamma_scale_is_not_computed_for_a_kernel_without_gamma():
    X, y = binary(40, 2)
    # the linear kernel does not read gamma: tiny data are no reason to fail
    small = SVC(kernel="linear", C=1e3).fit(X * 1e-170, y)
    assert small._kernel_params_ == {}


def test_gamma_scale_on_constant_X_is_still_one():
    model = SVC().fit(np.ones((6, 2)), [0, 1, 0, 1, 0, 1])
    assert model._kernel_params_["gamma"] == 1.0



def test_polynomial_is_another_name_of_poly():
    X, y = binary(60, 2)
    poly = SVC(kernel="poly", degree=2, coef0=1.0).fit(X, y)
    other = SVC(kernel="polynomial", degree=2, coef0=1.0).fit(X, y)
    # one kernel under two names: the same computation, bit for bit
    np.testing.assert_array_equal(other.decision_function(X), poly.decision_function(X))
    assert other._kernel_ == "poly"
