"""Tests of the kernel Fisher discriminant (mlbook.discriminant_analysis)."""

import numpy as np
import pytest

from mlbook._validation import NotFittedError
from mlbook.discriminant_analysis import (
    KernelFisherDiscriminant,
    LinearDiscriminantAnalysis,
    kernel_fisher_matrices,
    rayleigh_quotient,
)
from mlbook.kernels import quadratic_feature_map, rbf_kernel


def circles(n_per_class, noise, seed):
    """Two concentric rings (radii 1 and 2.5) with Gaussian noise: not linearly separable."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0.0, 2.0 * np.pi, 2 * n_per_class)
    radius = np.repeat([1.0, 2.5], n_per_class)
    X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    X += noise * rng.standard_normal(X.shape)
    y = np.repeat([0, 1], n_per_class)
    return X, y


def blobs(n, d, seed):
    """Two Gaussian classes with a random shared covariance and shifted means."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((d, d))
    X = rng.standard_normal((n, d)) @ A
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]                                         # both classes present
    X[y == 1] += rng.standard_normal(d)
    return X, y


def fisher_closed_form(X, y):
    """S_w^{-1}(mu0 - mu1) by a linear solve (the textbook formula, written out here)."""
    mu0, mu1 = X[y == 0].mean(axis=0), X[y == 1].mean(axis=0)
    C0, C1 = X[y == 0] - mu0, X[y == 1] - mu1
    S_w = C0.T @ C0 + C1.T @ C1
    return np.linalg.solve(S_w, mu0 - mu1)


def cosine(u, v):
    return abs(u @ v) / (np.linalg.norm(u) * np.linalg.norm(v))


@pytest.mark.parametrize("seed, n, d", [(0, 40, 2), (1, 80, 3), (2, 150, 5), (3, 60, 8)])
def test_linear_kernel_gives_fisher_lda_direction(seed, n, d):
    X, y = blobs(n, d, seed)
    kfd = KernelFisherDiscriminant(kernel="linear", reg=1e-8).fit(X, y)
    w = X.T @ kfd.dual_coef_                               # w = sum_i alpha_i x_i
    # With reg = lambda, w is (S_w + lambda (X^T X)^{-1})^{-1} (mu0 - mu1): the
    # direction differs from Fisher's by O(lambda / (s_min(S_w) s_min(X^T X))),
    # here below 1e-9; rounding in the (m x m) solve adds about 1e-10. 1e-8 on
    # 1 - |cos| leaves room for both and still catches any other direction.
    assert 1.0 - cosine(w, fisher_closed_form(X, y)) < 1e-8
    lda = LinearDiscriminantAnalysis().fit(X, y)
    assert 1.0 - cosine(w, lda.scalings_[:, 0]) < 1e-8
    # classes_[1] projects to the higher side
    assert kfd.means_[1] > kfd.means_[0]


def test_linear_kernel_agrees_with_sklearn_lda_direction():
    lda_sk = pytest.importorskip("sklearn.discriminant_analysis")
    X, y = blobs(120, 4, seed=7)
    kfd = KernelFisherDiscriminant(kernel="linear", reg=1e-8).fit(X, y)
    sk = lda_sk.LinearDiscriminantAnalysis(solver="eigen").fit(X, y)
    # same tolerance as above: both are Fisher's direction up to rounding
    assert 1.0 - cosine(X.T @ kfd.dual_coef_, sk.coef_[0]) < 1e-8


def test_rbf_separates_circles_where_linear_lda_fails():
    X, y = circles(100, noise=0.15, seed=0)
    X_test, y_test = circles(100, noise=0.15, seed=1)
    kfd = KernelFisherDiscriminant(kernel="rbf", gamma=1.0, reg=1e-3).fit(X, y)
    lda = LinearDiscriminantAnalysis().fit(X, y)
    # Rings 1.5 apart with noise 0.15 (ten standard deviations): an RBF
    # discriminant should make at most a few mistakes on fresh data.
    assert kfd.score(X_test, y_test) >= 0.97
    # Both rings are centred at the origin: no line does much better than chance.
    assert lda.score(X_test, y_test) <= 0.70


def test_rayleigh_quotient_at_solution_beats_random_alphas():
    X, y = circles(30, noise=0.2, seed=3)
    reg = 1e-2
    kfd = KernelFisherDiscriminant(kernel="rbf", gamma=0.5, reg=reg).fit(X, y)
    M, N = kernel_fisher_matrices(rbf_kernel(X, gamma=0.5), y)
    N_reg = N + reg * np.eye(len(y))
    best = rayleigh_quotient(kfd.dual_coef_, M, N_reg)
    # the maximum of d d^T over N_reg is d^T N_reg^{-1} d (Cauchy-Schwarz in the
    # N_reg inner product); 1e-8 relative: one linear solve in float64 with
    # cond(N_reg) about 1e5 here.
    d = np.sqrt(np.diag(M)) * np.sign(M[0])                # d up to sign, from M = d d^T
    assert best == pytest.approx(d @ np.linalg.solve(N_reg, d), rel=1e-8)
    rng = np.random.default_rng(0)
    for alpha in rng.standard_normal((500, len(y))):
        assert rayleigh_quotient(alpha, M, N_reg) <= best * (1 + 1e-12)
    # perturbing the solution lowers the quotient
    for eps in rng.standard_normal((50, len(y))):
        assert rayleigh_quotient(kfd.dual_coef_ + 1e-3 * eps, M, N_reg) < best


def test_matrices_match_feature_space_scatter():
    """alpha^T M alpha and alpha^T N alpha are w^T S_b w and w^T S_w w for w = Phi^T alpha."""
    X, y = blobs(30, 3, seed=4)
    Phi = quadratic_feature_map(X)                          # (m, 1 + d + d^2)
    K = Phi @ Phi.T                                         # = 1 + x.z + (x.z)^2
    M, N = kernel_fisher_matrices(K, y)
    mu0, mu1 = Phi[y == 0].mean(axis=0), Phi[y == 1].mean(axis=0)
    C0, C1 = Phi[y == 0] - mu0, Phi[y == 1] - mu1
    S_w = C0.T @ C0 + C1.T @ C1
    rng = np.random.default_rng(1)
    for alpha in rng.standard_normal((5, len(y))):
        w = Phi.T @ alpha
        # 1e-9 relative: sums of a few thousand products of O(10^2) numbers
        assert alpha @ N @ alpha == pytest.approx(w @ S_w @ w, rel=1e-9)
        assert alpha @ M @ alpha == pytest.approx((w @ (mu0 - mu1)) ** 2, rel=1e-9)


def test_matrices_notes_form_and_rank():
    X, y = circles(20, noise=0.1, seed=5)
    K = rbf_kernel(X, gamma=1.0)
    M, N = kernel_fisher_matrices(K, y)
    # the brief form: sum_k K_k (I - 11^T/m_k) K_k^T
    N_sum = np.zeros_like(K)
    for k in (0, 1):
        Kk = K[:, y == k]
        mk = Kk.shape[1]
        N_sum += Kk @ (np.eye(mk) - np.full((mk, mk), 1.0 / mk)) @ Kk.T
    np.testing.assert_allclose(N, N_sum, rtol=0, atol=1e-12)       # entries O(10): rounding only
    assert np.linalg.matrix_rank(M) == 1
    # N is singular: K^{-1} 1_k (projections constant on each class) is in its
    # null space. gamma = 5 keeps K well conditioned (cond about 5e3), so the
    # residual is rounding only; 1e-10 relative to ||N|| ||v||.
    K5 = rbf_kernel(X, gamma=5.0)
    _, N5 = kernel_fisher_matrices(K5, y)
    for k in (0, 1):
        v = np.linalg.solve(K5, (y == k).astype(float))
        assert np.linalg.norm(N5 @ v) <= 1e-10 * np.linalg.norm(N5, 2) * np.linalg.norm(v)


def test_unregularised_quotient_is_unbounded():
    """Without reg, alpha = K^{-1} 1_0 has zero within-class scatter but separates the classes."""
    X, y = circles(15, noise=0.1, seed=6)
    K = rbf_kernel(X, gamma=2.0)
    M, N = kernel_fisher_matrices(K, y)
    alpha = np.linalg.solve(K, (y == 0).astype(float))     # projections K alpha = 1[y = 0]
    # |alpha^T N alpha| is rounding noise, relative to alpha^T M alpha = 1
    assert alpha @ M @ alpha == pytest.approx(1.0, rel=1e-6)
    assert abs(alpha @ N @ alpha) < 1e-6


def test_callable_kernel_and_string_labels():
    X, y = circles(25, noise=0.1, seed=8)
    labels = np.where(y == 1, "outer", "inner")
    named = KernelFisherDiscriminant(kernel="rbf", gamma=0.7).fit(X, labels)
    func = KernelFisherDiscriminant(kernel=lambda A, B: rbf_kernel(A, B, gamma=0.7)).fit(X, labels)
    np.testing.assert_allclose(named.transform(X), func.transform(X), rtol=1e-10, atol=1e-10)
    assert set(named.predict(X)) <= {"inner", "outer"}
    assert list(named.classes_) == ["inner", "outer"]


def test_projection_scaling_and_threshold():
    X, y = circles(40, noise=0.2, seed=9)
    kfd = KernelFisherDiscriminant(kernel="rbf", gamma=1.0).fit(X, y)
    h = kfd.transform(X)[:, 0]
    within = ((h[y == 0] - h[y == 0].mean()) ** 2).sum() + ((h[y == 1] - h[y == 1].mean()) ** 2).sum()
    assert within / (len(y) - 2) == pytest.approx(1.0, rel=1e-8)
    np.testing.assert_allclose(kfd.means_, [h[y == 0].mean(), h[y == 1].mean()], rtol=1e-10)
    assert kfd.threshold_ == pytest.approx(kfd.means_.mean())
    np.testing.assert_array_equal(kfd.predict(X), (h > kfd.threshold_).astype(int))


def test_poly_kernel_parameters_are_used():
    X, y = blobs(40, 2, seed=10)
    a = KernelFisherDiscriminant(kernel="poly", degree=2, gamma=0.5, coef0=1.0).fit(X, y)
    b = KernelFisherDiscriminant(kernel="poly", degree=3, gamma=0.5, coef0=1.0).fit(X, y)
    # degree 2 and 3 give projections that differ in the first digits, far past rounding
    assert not np.allclose(a.transform(X), b.transform(X), rtol=1e-3, atol=0)


def test_sklearn_clone_and_cross_val_score():
    model_selection = pytest.importorskip("sklearn.model_selection")
    base = pytest.importorskip("sklearn.base")
    X, y = circles(40, noise=0.1, seed=11)
    kfd = KernelFisherDiscriminant(gamma=1.0, reg=1e-2)
    assert base.clone(kfd).get_params() == kfd.get_params()
    scores = model_selection.cross_val_score(kfd, X, y, cv=4)
    assert scores.min() >= 0.9


# ---------------------------------------------------------------- bad input
def test_three_classes_rejected():
    X, y = blobs(30, 2, seed=0)
    y[:3] = 2
    with pytest.raises(ValueError, match="exactly 2 classes"):
        KernelFisherDiscriminant().fit(X, y)


def test_one_class_rejected():
    X, _ = blobs(10, 2, seed=0)
    with pytest.raises(ValueError, match="single class"):
        KernelFisherDiscriminant().fit(X, np.zeros(10))


@pytest.mark.parametrize("reg", [-1.0, 0.0])
def test_non_positive_reg_rejected(reg):
    X, y = blobs(10, 2, seed=0)
    with pytest.raises(ValueError, match="reg must be > 0"):
        KernelFisherDiscriminant(reg=reg).fit(X, y)


def test_non_numeric_reg_rejected():
    X, y = blobs(10, 2, seed=0)
    with pytest.raises(TypeError, match="reg"):
        KernelFisherDiscriminant(reg="small").fit(X, y)


def test_unknown_kernel_rejected():
    X, y = blobs(10, 2, seed=0)
    with pytest.raises(ValueError, match="kernel 'gauss' is unknown"):
        KernelFisherDiscriminant(kernel="gauss").fit(X, y)


def test_non_callable_kernel_rejected():
    X, y = blobs(10, 2, seed=0)
    with pytest.raises(TypeError, match="kernel must be a string or a callable"):
        KernelFisherDiscriminant(kernel=3).fit(X, y)


def test_predict_before_fit():
    with pytest.raises(NotFittedError, match="not fitted"):
        KernelFisherDiscriminant().predict([[0.0, 1.0]])


def test_wrong_number_of_features_at_predict():
    X, y = blobs(10, 2, seed=0)
    kfd = KernelFisherDiscriminant().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features"):
        kfd.predict(np.zeros((2, 3)))


def test_lengths_differ():
    X, y = blobs(10, 2, seed=0)
    with pytest.raises(ValueError, match="different lengths"):
        KernelFisherDiscriminant().fit(X, y[:-1])


def test_matrices_reject_non_square_gram():
    with pytest.raises(ValueError, match="square"):
        kernel_fisher_matrices(np.ones((3, 4)), [0, 1, 1])


# ---------------------------------------------------------------- properties
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import assume, given, settings, strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402


@st.composite
def labelled_points(draw):
    m = draw(st.integers(min_value=4, max_value=14))
    d = draw(st.integers(min_value=1, max_value=3))
    X = draw(arrays(np.float64, (m, d), elements=st.floats(-3, 3, allow_subnormal=False)))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=m, max_size=m)))
    y[:2] = [0, 1]                                      # both classes present
    gamma = draw(st.floats(0.1, 5.0))
    return X, y, gamma


@settings(max_examples=60, deadline=None)
@given(labelled_points())
def test_properties_of_M_N_and_the_solution(data):
    X, y, gamma = data
    K = rbf_kernel(X, gamma=gamma)
    M, N = kernel_fisher_matrices(K, y)
    scale = max(np.linalg.norm(N, 2), 1.0)
    # N is a sum of K_k C_k K_k^T with C_k a projection: symmetric PSD. 1e-10 of
    # its norm covers the eigen-solver's rounding for m <= 14.
    assert np.allclose(N, N.T, rtol=0, atol=1e-12 * scale)
    assert np.linalg.eigvalsh(N)[0] >= -1e-10 * scale
    # M = d d^T with d the difference of the class means of K's columns
    d = K[:, y == 0].mean(axis=1) - K[:, y == 1].mean(axis=1)
    np.testing.assert_allclose(M, np.outer(d, d), rtol=0, atol=1e-12)
    # the solution maximises the regularised quotient: no worse than d itself
    assume(np.linalg.norm(d) > 1e-6)                    # the classes differ in feature space
    # or random directions (1e-9 relative: rounding of the quotients)
    reg = 1e-2
    kfd = KernelFisherDiscriminant(gamma=gamma, reg=reg).fit(X, y)
    N_reg = N + reg * np.eye(len(y))
    best = rayleigh_quotient(kfd.dual_coef_, M, N_reg)
    rng = np.random.default_rng(0)
    for alpha in [d, *rng.standard_normal((20, len(y)))]:
        assert rayleigh_quotient(alpha, M, N_reg) <= best * (1 + 1e-9) + 1e-12
    # classes_[1] projects on the high side (or both projected means coincide)
    assert kfd.means_[1] >= kfd.means_[0] - 1e-12


def test_identical_kernel_means_give_a_zero_discriminant():
    """Both classes at the same point: d = 0, alpha = 0, no warning, a constant prediction."""
    X = np.zeros((6, 2))
    y = np.array([0, 1, 0, 1, 0, 1])
    kfd = KernelFisherDiscriminant().fit(X, y)
    np.testing.assert_array_equal(kfd.dual_coef_, 0.0)
    np.testing.assert_array_equal(kfd.predict(X), 0)
