"""Kernels: agreement with scikit-learn, the feature map, kernel algebra, PSD, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlbook.kernels import (
    KERNELS,
    euclidean_distances,
    is_positive_semidefinite,
    kernel_product,
    kernel_scale,
    kernel_sum,
    laplacian_kernel,
    linear_kernel,
    pairwise_kernels,
    polynomial_kernel,
    quadratic_feature_map,
    rbf_kernel,
    sigmoid_kernel,
    squared_euclidean_distances,
)
import warnings

skp = pytest.importorskip("sklearn.metrics.pairwise")

SHAPES = [(1, 1, 1), (5, 3, 2), (20, 7, 4), (40, 30, 10)]


def _data(seed, n_x, n_y, d):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n_x, d)), rng.normal(size=(n_y, d))


# 1e-12: both sides evaluate the same closed form in float64 (products of a few
# terms of size O(1)); only the order of the additions may differ.
TOL = 1e-12


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("shape", SHAPES)
def test_kernels_match_sklearn(seed, shape):
    X, Y = _data(seed, *shape)
    rng = np.random.default_rng(100 + seed)
    gamma = float(rng.uniform(0.05, 2.0))
    coef0 = float(rng.uniform(-1.0, 2.0))
    degree = int(rng.integers(1, 5))
    pairs = [
        (linear_kernel(X, Y), skp.linear_kernel(X, Y)),
        (polynomial_kernel(X, Y, degree=degree, gamma=gamma, coef0=coef0),
         skp.polynomial_kernel(X, Y, degree=degree, gamma=gamma, coef0=coef0)),
        (polynomial_kernel(X, Y), skp.polynomial_kernel(X, Y)),
        (rbf_kernel(X, Y, gamma=gamma), skp.rbf_kernel(X, Y, gamma=gamma)),
        (rbf_kernel(X), skp.rbf_kernel(X)),
        (sigmoid_kernel(X, Y, gamma=gamma, coef0=coef0),
         skp.sigmoid_kernel(X, Y, gamma=gamma, coef0=coef0)),
        (sigmoid_kernel(X, Y), skp.sigmoid_kernel(X, Y)),
        # our Laplace kernel uses the Euclidean norm, scikit-learn's the L1
        # distance: compare with exp(-gamma * euclidean distance) instead ...
        (laplacian_kernel(X, Y, gamma=gamma),
         np.exp(-gamma * skp.euclidean_distances(X, Y))),
    ]
    for i, (ours, theirs) in enumerate(pairs):
        assert ours.shape == theirs.shape
        np.testing.assert_allclose(ours, theirs, rtol=TOL, atol=TOL,
                                   err_msg=f"kernel #{i}, shape {shape}, seed {seed}")
    # ... and where the definitions agree (one feature), with scikit-learn's own
    np.testing.assert_allclose(laplacian_kernel(X[:, :1], Y[:, :1], gamma=gamma),
                               skp.laplacian_kernel(X[:, :1], Y[:, :1], gamma=gamma),
                               rtol=TOL, atol=TOL)


def test_laplacian_differs_from_sklearn_l1_in_2d():
    X = np.array([[0.0, 0.0]])
    Y = np.array([[3.0, 4.0]])
    # Euclidean distance 5, L1 distance 7: the two definitions must differ.
    assert laplacian_kernel(X, Y, gamma=1.0)[0, 0] == pytest.approx(np.exp(-5.0), rel=1e-15)
    assert skp.laplacian_kernel(X, Y, gamma=1.0)[0, 0] == pytest.approx(np.exp(-7.0), rel=1e-15)


def test_squared_distances_nonnegative_and_zero_diagonal():
    # Points far from the origin and very close together: the expanded formula
    # cancels catastrophically and would give small negatives without clipping.
    rng = np.random.default_rng(0)
    X = 1e6 + rng.normal(scale=1e-6, size=(50, 3))
    X = np.vstack([X, X[:5]])  # exact duplicates
    D2 = squared_euclidean_distances(X)
    assert (D2 >= 0).all()
    np.testing.assert_array_equal(np.diag(D2), 0.0)
    D2xy = squared_euclidean_distances(X, X.copy())
    assert (D2xy >= 0).all()
    # the RBF kernel therefore never exceeds 1
    assert rbf_kernel(X, X.copy(), gamma=1.0).max() <= 1.0


def test_distances_match_sklearn():
    X, Y = _data(3, 30, 20, 6)
    # 1e-12 relative: same expansion of the square in float64.
    np.testing.assert_allclose(euclidean_distances(X, Y), skp.euclidean_distances(X, Y),
                               rtol=1e-12, atol=1e-12)


@given(st.integers(1, 6), st.integers(1, 8), st.integers(0, 10_000))
@settings(max_examples=30, deadline=None)
def test_quadratic_feature_map_inner_product(d, n, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    Z = quadratic_feature_map(X)
    assert Z.shape == (n, 1 + d + d * d)
    G = X @ X.T
    # 1e-10 relative: sums of d^2 products against a closed form of the same terms
    np.testing.assert_allclose(Z @ Z.T, 1 + G + G**2, rtol=1e-10, atol=1e-10)


def test_polynomial_degree2_feature_map():
    # (1 + x.z)^2 = 1 + 2 x.z + (x.z)^2: the notes' K_2' differs from Phi_2's kernel
    X, _ = _data(4, 6, 1, 3)
    G = X @ X.T
    np.testing.assert_allclose(polynomial_kernel(X, degree=2, gamma=1.0, coef0=1.0),
                               1 + 2 * G + G**2, rtol=1e-12, atol=1e-12)


def test_kernel_algebra():
    X, Y = _data(5, 8, 6, 3)
    k_sum = kernel_sum(linear_kernel, rbf_kernel)
    k_prod = kernel_product(polynomial_kernel, rbf_kernel)

    def g(Z):
        return np.exp(-np.sum(Z**2, axis=1))

    k_sc = kernel_scale(linear_kernel, g)
    np.testing.assert_allclose(k_sum(X, Y), linear_kernel(X, Y) + rbf_kernel(X, Y), rtol=1e-14)
    np.testing.assert_allclose(k_prod(X, Y), polynomial_kernel(X, Y) * rbf_kernel(X, Y),
                               rtol=1e-14)
    np.testing.assert_allclose(k_sc(X, Y), g(X)[:, None] * (X @ Y.T) * g(Y)[None, :],
                               rtol=1e-14)
    # Y=None means Y = X for the combined kernels too
    np.testing.assert_allclose(k_sc(X), k_sc(X, X), rtol=1e-14)
    # and the results stay PSD (closure properties)
    for k in (k_sum, k_prod, k_sc):
        assert is_positive_semidefinite(k(X))
    # they plug into the dispatcher
    np.testing.assert_allclose(pairwise_kernels(X, Y, kernel=k_sum), k_sum(X, Y), rtol=1e-14)


def test_kernel_scale_normalises():
    X, _ = _data(6, 10, 1, 4)

    def inv_sqrt_diag(Z):
        return 1.0 / np.sqrt(np.einsum("ij,ij->i", Z, Z) + 1.0)

    k = kernel_scale(polynomial_kernel, inv_sqrt_diag)  # degree 3: not normalised by this g
    g = inv_sqrt_diag(X)
    # D K D with D = diag(g): the same products in another order, 1e-14 relative
    np.testing.assert_allclose(k(X), g[:, None] * polynomial_kernel(X) * g[None, :], rtol=1e-14)
    kn = kernel_scale(lambda A, B=None: polynomial_kernel(A, B, degree=1, gamma=1.0),
                      inv_sqrt_diag)
    # with degree 1, gamma 1, coef0 1 the diagonal is |x|^2 + 1, normalised to 1
    np.testing.assert_allclose(np.diag(kn(X)), 1.0, rtol=1e-14)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_psd_of_valid_kernels(seed):
    X, _ = _data(seed, 60, 1, 3)  # n > d: the linear Gram matrix is singular
    for name in ("linear", "poly", "rbf", "laplacian"):
        assert is_positive_semidefinite(pairwise_kernels(X, kernel=name)), name


def test_sigmoid_kernel_not_psd():
    # tanh(x.z - 1) on points with small norm: the diagonal entries are negative,
    # so the Gram matrix cannot be PSD.
    X = np.array([[0.1, 0.0], [0.0, 0.1], [0.1, 0.1]])
    K = sigmoid_kernel(X, gamma=1.0, coef0=-1.0)
    assert (np.diag(K) < 0).all()
    assert not is_positive_semidefinite(K)


def test_psd_tolerance_and_symmetry():
    assert not is_positive_semidefinite([[1.0, 0.5], [0.0, 1.0]])  # not symmetric
    # a smallest eigenvalue of -1e-14 relative is rounding: accepted
    Q = np.linalg.qr(np.random.default_rng(0).normal(size=(4, 4)))[0]
    K = Q @ np.diag([1.0, 0.5, 0.0, -1e-14]) @ Q.T
    K = (K + K.T) / 2
    assert is_positive_semidefinite(K)
    # -1e-6 relative is not rounding: rejected (and accepted with a looser tol)
    K2 = Q @ np.diag([1.0, 0.5, 0.0, -1e-6]) @ Q.T
    K2 = (K2 + K2.T) / 2
    assert not is_positive_semidefinite(K2)
    assert is_positive_semidefinite(K2, tol=1e-5)


def test_gamma_none_is_one_over_n_features():
    X, Y = _data(7, 4, 5, 8)
    np.testing.assert_allclose(rbf_kernel(X, Y), rbf_kernel(X, Y, gamma=1 / 8), rtol=1e-15)


# ---------------------------------------------------------------- bad input
def test_unknown_kernel_name():
    with pytest.raises(ValueError, match="kernel 'gauss' is unknown"):
        pairwise_kernels([[1.0]], kernel="gauss")


def test_kernel_not_callable():
    with pytest.raises(TypeError, match="kernel must be a string or a callable"):
        pairwise_kernels([[1.0]], kernel=3)


def test_callable_wrong_shape():
    with pytest.raises(ValueError, match=r"expected the Gram matrix of shape \(3, 2\)"):
        pairwise_kernels(np.ones((3, 2)), np.ones((2, 2)), kernel=lambda X, Y: X @ X.T)


def test_callable_nonfinite():
    with pytest.raises(ValueError, match="NaN or infinite"):
        pairwise_kernels(np.ones((2, 2)), kernel=lambda X, Y: np.full((2, 2), np.nan))


def test_unexpected_parameter():
    with pytest.raises(ValueError, match="takes the parameters"):
        pairwise_kernels([[1.0]], kernel="linear", gamma=1.0)


def test_feature_mismatch():
    with pytest.raises(ValueError, match="same number of features"):
        rbf_kernel(np.ones((2, 3)), np.ones((2, 2)))


@pytest.mark.parametrize("gamma, err", [(0.0, ValueError), (-1.0, ValueError),
                                        ("a", TypeError), (np.inf, ValueError)])
def test_bad_gamma(gamma, err):
    with pytest.raises(err, match="gamma must be"):
        rbf_kernel([[1.0]], gamma=gamma)


@pytest.mark.parametrize("degree,error,match", [
    (0, ValueError, "degree must be >= 1"),
    (1.5, TypeError, "degree must be of type Integral"),
    (True, TypeError, "degree must be a number, got a bool"),
])
def test_bad_degree(degree, error, match):
    with pytest.raises(error, match=match):
        polynomial_kernel([[1.0]], degree=degree)


def test_nan_input():
    with pytest.raises(ValueError, match="X contains NaN"):
        linear_kernel([[np.nan]])
    with pytest.raises(ValueError, match="Y contains infinity"):
        linear_kernel([[1.0]], [[np.inf]])


def test_psd_not_square():
    with pytest.raises(ValueError, match="K must be a square matrix"):
        is_positive_semidefinite(np.ones((2, 3)))


def test_algebra_needs_callables():
    with pytest.raises(TypeError, match="k2 must be a kernel function"):
        kernel_sum(linear_kernel, 2.0)


def test_kernels_registry():
    assert set(KERNELS) >= {"linear", "poly", "rbf", "laplacian", "sigmoid"}


# --- bad and extreme input ----------------------------------------------------

def test_squared_distances_do_not_cancel_on_offset_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    exact = squared_euclidean_distances(X)
    # guards against: errors of order eps * ||x||^2 = 1e16 * 2.2e-16 ~ 2 in every entry
    shifted = squared_euclidean_distances(X + 1e8)
    # X + 1e8 rounds each entry to a multiple of 2^-26 ~ 1.5e-8: distances of order
    # 1 then carry errors of order 1e-7, not of order 1.
    np.testing.assert_allclose(shifted, exact, rtol=0, atol=1e-6)
    Y = rng.normal(size=(5, 3))
    np.testing.assert_allclose(squared_euclidean_distances(X + 1e8, Y + 1e8),
                               squared_euclidean_distances(X, Y), rtol=0, atol=1e-6)


@pytest.mark.parametrize("kernel", [rbf_kernel, laplacian_kernel, linear_kernel,
                                    polynomial_kernel, sigmoid_kernel])
def test_kernels_never_return_nan_on_huge_entries(kernel):
    # guards against: rbf and laplacian returned NaN off the diagonal (inf - inf)
    B = np.array([[1e200, -1e200], [1e200, 1e200], [3e199, 1e200]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")                    # no overflow RuntimeWarning
        K = kernel(B)
    assert not np.isnan(K).any()


def test_distance_kernels_are_exact_on_huge_entries():
    B = np.array([[1e200, -1e200], [1e200, 1e200]])
    # distance 2e200: exp(-gamma * 4e400) = 0 exactly; the diagonal is 1
    np.testing.assert_array_equal(rbf_kernel(B), np.eye(2))
    np.testing.assert_array_equal(laplacian_kernel(B), np.eye(2))
    # tanh of a huge positive number is 1 (the entries x.x are ~2e400 on the diagonal)
    assert sigmoid_kernel(B, coef0=0.0)[0, 0] == 1.0
    # distances that fit in float64 are computed, not lost: 1e150-sized points
    C = np.array([[1e150, 0.0], [0.0, 1e150]])
    D2 = squared_euclidean_distances(C)
    np.testing.assert_allclose(D2, [[0.0, 2e300], [2e300, 0.0]], rtol=1e-15, atol=0)

