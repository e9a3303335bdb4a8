r"""Kernel functions, their algebra, and a check of positive semi-definiteness.

A kernel (核函数) :math:`\kappa(\mathbf x, \mathbf z) = \phi(\mathbf x)^\top \phi(\mathbf z)`
computes an inner product in a feature space without building the feature map
:math:`\phi`. Every function here takes two design matrices, ``X`` of shape
(n_samples_X, n_features) and ``Y`` of shape (n_samples_Y, n_features)
(``Y=None`` means ``Y = X``), and returns the Gram matrix (Gram 矩阵)
``K`` of shape (n_samples_X, n_samples_Y) with ``K[i, j] = kappa(X[i], Y[j])``.
The names and signatures are scikit-learn's (``sklearn.metrics.pairwise``);
``gamma=None`` means ``1 / n_features`` as there.

Nothing is computed pair by pair: all kernels are built from the matrix of
inner products ``X @ Y.T`` and, for the distance-based kernels, from squared
distances obtained by the identity
:math:`\|\mathbf x - \mathbf z\|^2 = \|\mathbf x\|^2 + \|\mathbf z\|^2 - 2\mathbf x^\top\mathbf z`,
with the tiny negative values that rounding can produce clipped to zero.

See the chapter "Kernels" of the book (Part V).
"""

from __future__ import annotations

import numbers
from typing import Any, Callable

import numpy as np

from ._math import pow2_scale
from ._validation import check_array, check_scalar

__all__ = [
    "squared_euclidean_distances",
    "euclidean_distances",
    "linear_kernel",
    "polynomial_kernel",
    "rbf_kernel",
    "laplacian_kernel",
    "sigmoid_kernel",
    "quadratic_feature_map",
    "kernel_sum",
    "kernel_product",
    "kernel_scale",
    "is_positive_semidefinite",
    "pairwise_kernels",
    "KERNELS",
]

KernelFunction = Callable[..., np.ndarray]


# ----------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------
def _check_pair(X: Any, Y: Any) -> tuple[np.ndarray, np.ndarray, bool]:
    """Validate ``X`` and ``Y`` (``None`` -> ``X``); return them and whether Y is X."""
    X = check_array(X, "X")
    if Y is None:
        return X, X, True
    Y = check_array(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"X and Y must have the same number of features; got X with "
            f"{X.shape[1]} and Y with {Y.shape[1]}"
        )
    return X, Y, False


def _gamma(gamma: Any, n_features: int) -> float:
    """``None`` -> ``1 / n_features``; otherwise a positive real number."""
    if gamma is None:
        return 1.0 / n_features
    return float(check_scalar(gamma, "gamma", numbers.Real, min_val=0.0, include_min=False))


def _dot(X: np.ndarray, Y: np.ndarray, factor: float = 1.0) -> np.ndarray:
    r"""``factor * X @ Y.T`` of shape (n_X, n_Y), without an intermediate overflow.

    With entries near 1e200, ``X @ Y.T`` overflows inside the sum
    (:math:`10^{400} - 10^{400}` is ``inf - inf = nan``). The product is formed
    from :math:`X / s_x` and :math:`Y / s_y` (powers of two) and scaled back, so
    an entry is ``inf`` only when its true value exceeds the float64 range.
    """
    sx, sy = pow2_scale(X), pow2_scale(Y)
    if sx == 1.0 and sy == 1.0:
        P = X @ Y.T
        return P if factor == 1.0 else factor * P
    P = (X / sx) @ (Y / sy).T
    with np.errstate(over="ignore"):                     # a true value beyond 1.8e308 is inf
        P *= factor * sx
        P *= sy
    return P


def _real(value: Any, name: str) -> float:
    return float(check_scalar(value, name, numbers.Real))


# ----------------------------------------------------------------------------
# distances
# ----------------------------------------------------------------------------
def squared_euclidean_distances(X: Any, Y: Any = None) -> np.ndarray:
    r"""Matrix of squared Euclidean distances :math:`\|\mathbf x_i - \mathbf y_j\|^2`.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features) or None
        ``None`` means ``Y = X``.

    Returns
    -------
    D2 : ndarray of shape (n_samples_X, n_samples_Y)
        Non-negative; exactly zero on the diagonal when ``Y`` is ``None``.

    Notes
    -----
    Expanding the square gives
    :math:`\|\mathbf x - \mathbf y\|^2 = \mathbf x^\top\mathbf x + \mathbf y^\top\mathbf y
    - 2\,\mathbf x^\top\mathbf y`, so the whole matrix costs one matrix product
    :math:`X Y^\top` plus two vectors of squared norms. For two nearly equal
    points the subtraction cancels and rounding may leave a tiny negative
    number (of the order of machine epsilon times :math:`\|\mathbf x\|^2`);
    a squared distance cannot be negative, so those values are clipped to 0.
    Because that error grows with :math:`\|\mathbf x\|^2`, the points are first
    shifted to their common mean (distances are translation-invariant), which
    keeps the error at the scale of the data's spread, not of its offset.

    Examples
    --------
    >>> squared_euclidean_distances([[0.0, 0.0], [3.0, 4.0]])
    array([[ 0., 25.],
           [25.,  0.]])
    """
    X, Y, same = _check_pair(X, Y)
    # Distances do not change under a common shift, and the expansion below
    # cancels catastrophically when the points sit far from the origin (data
    # offset by 1e8: ||x||^2 ~ 1e16, rounding error ~ 1 in every entry). So the
    # points are first centred on the mean of X and Y together, then divided by
    # a power of two if their squares would overflow (entries near 1e200).
    centre = (X.sum(axis=0) + (0.0 if same else Y.sum(axis=0))) / (
        X.shape[0] + (0 if same else Y.shape[0]))
    Xc = X - centre                                       # (n_X, d)
    Yc = Xc if same else Y - centre                       # (n_Y, d)
    s = max(pow2_scale(Xc), pow2_scale(Yc))
    if s != 1.0:
        Xc = Xc / s
        Yc = Xc if same else Yc / s
    xx = np.einsum("ij,ij->i", Xc, Xc)                    # (n_X,)
    yy = xx if same else np.einsum("ij,ij->i", Yc, Yc)    # (n_Y,)
    D2 = xx[:, None] + yy[None, :] - 2.0 * (Xc @ Yc.T)    # (n_X, n_Y)
    np.maximum(D2, 0.0, out=D2)
    if s != 1.0:
        with np.errstate(over="ignore"):                  # beyond 1.8e308 a distance is inf
            D2 *= s
            D2 *= s                                       # 0 stays 0 (s * s might be inf)
    if same:
        np.fill_diagonal(D2, 0.0)
    return D2


def euclidean_distances(X: Any, Y: Any = None) -> np.ndarray:
    """Matrix of Euclidean distances, the square root of :func:`squared_euclidean_distances`.

    Returns an array of shape (n_samples_X, n_samples_Y).

    >>> euclidean_distances([[0.0, 0.0]], [[3.0, 4.0]])
    array([[5.]])
    """
    return np.sqrt(squared_euclidean_distances(X, Y))


# ----------------------------------------------------------------------------
# the kernels
# ----------------------------------------------------------------------------
def linear_kernel(X: Any, Y: Any = None) -> np.ndarray:
    r"""Linear kernel :math:`\kappa(\mathbf x, \mathbf y) = \mathbf x^\top \mathbf y`.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features) or None

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Notes
    -----
    The feature map is the identity, :math:`\phi(\mathbf x) = \mathbf x`: the
    kernel SVM with this kernel is the linear SVM. It is the polynomial kernel
    with degree 1, :math:`\gamma = 1` and :math:`c_0 = 0`.

    Examples
    --------
    >>> linear_kernel([[1.0, 2.0]], [[3.0, 4.0], [1.0, 0.0]])
    array([[11.,  1.]])
    """
    X, Y, _ = _check_pair(X, Y)
    return _dot(X, Y)


def polynomial_kernel(X: Any, Y: Any = None, degree: int = 3, gamma: float | None = None,
                      coef0: float = 1) -> np.ndarray:
    r"""Polynomial kernel :math:`\kappa(\mathbf x, \mathbf y) = (\gamma\,\mathbf x^\top\mathbf y + c_0)^d`.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features) or None
    degree : int, default 3
        The degree :math:`d \ge 1` (the notes' :math:`Q`).
    gamma : float or None, default None
        The scale :math:`\gamma > 0`; ``None`` means ``1 / n_features``.
    coef0 : float, default 1
        The offset :math:`c_0` (the notes' :math:`\zeta`); :math:`c_0 \ge 0`
        keeps the kernel positive semi-definite.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Notes
    -----
    For :math:`d = 2`, :math:`\gamma = 1`, :math:`c_0 = 1` the kernel is
    :math:`1 + 2\mathbf x^\top\mathbf y + (\mathbf x^\top\mathbf y)^2`, the inner
    product of the feature map
    :math:`(1, \sqrt2 x_1, \dots, \sqrt2 x_n, x_1 x_1, x_1 x_2, \dots, x_n x_n)`.
    For large degrees the values explode when :math:`|\gamma\mathbf x^\top\mathbf y + c_0| > 1`
    and vanish when it is below 1, which is why small degrees are used in practice.

    Examples
    --------
    >>> polynomial_kernel([[1.0, 2.0]], [[3.0, 4.0]], degree=2, gamma=1.0, coef0=1.0)
    array([[144.]])
    """
    X, Y, _ = _check_pair(X, Y)
    check_scalar(degree, "degree", numbers.Integral, min_val=1)
    g = _gamma(gamma, X.shape[1])
    c0 = _real(coef0, "coef0")
    with np.errstate(over="ignore"):                      # a true value beyond 1.8e308 is inf
        return (_dot(X, Y, g) + c0) ** int(degree)


def rbf_kernel(X: Any, Y: Any = None, gamma: float | None = None) -> np.ndarray:
    r"""Gaussian (RBF) kernel :math:`\kappa(\mathbf x, \mathbf y) = \exp(-\gamma\|\mathbf x - \mathbf y\|^2)`.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features) or None
    gamma : float or None, default None
        :math:`\gamma > 0`; ``None`` means ``1 / n_features``. Zhou's book writes
        the Gaussian kernel (高斯核) with a width :math:`\sigma`,
        :math:`\exp(-\|\mathbf x - \mathbf y\|^2 / (2\sigma^2))`, i.e.
        :math:`\gamma = 1/(2\sigma^2)`.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)
        Entries in (0, 1], equal to 1 on the diagonal when ``Y`` is ``None``.

    Notes
    -----
    In one dimension with :math:`\gamma = 1`, expanding
    :math:`e^{2xy}` in its Taylor series gives
    :math:`\kappa(x, y) = \sum_{k\ge0} \phi_k(x)\phi_k(y)` with
    :math:`\phi_k(x) = e^{-x^2}\sqrt{2^k/k!}\,x^k`: the feature space is
    infinite-dimensional. As :math:`\gamma \to \infty` the Gram matrix tends to
    the identity (every point is similar only to itself), which over-fits.

    Examples
    --------
    >>> rbf_kernel([[0.0, 0.0]], [[1.0, 1.0]], gamma=0.5)  # exp(-0.5 * 2)
    array([[0.36787944]])
    """
    X, Y, _ = _check_pair(X, Y)
    g = _gamma(gamma, X.shape[1])
    D2 = squared_euclidean_distances(X, None if Y is X else Y)
    return np.exp(-g * D2)


def laplacian_kernel(X: Any, Y: Any = None, gamma: float | None = None) -> np.ndarray:
    r"""Laplace kernel :math:`\kappa(\mathbf x, \mathbf y) = \exp(-\gamma\|\mathbf x - \mathbf y\|_2)`.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features) or None
    gamma : float or None, default None
        :math:`\gamma > 0`; ``None`` means ``1 / n_features``. Zhou's book writes
        :math:`\exp(-\|\mathbf x - \mathbf y\| / \sigma)`, i.e. :math:`\gamma = 1/\sigma`.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Notes
    -----
    The distance is the **Euclidean** norm, as in Zhou's book (the Laplace
    kernel (拉普拉斯核) of the notes). scikit-learn's
    ``sklearn.metrics.pairwise.laplacian_kernel`` uses the L1 (Manhattan)
    distance :math:`\sum_k |x_k - y_k|` instead; the two agree only for a
    single feature. Both are positive definite.

    Examples
    --------
    >>> laplacian_kernel([[0.0, 0.0]], [[3.0, 4.0]], gamma=0.2)  # exp(-0.2 * 5)
    array([[0.36787944]])
    """
    X, Y, _ = _check_pair(X, Y)
    g = _gamma(gamma, X.shape[1])
    return np.exp(-g * euclidean_distances(X, None if Y is X else Y))


def sigmoid_kernel(X: Any, Y: Any = None, gamma: float | None = None,
                   coef0: float = 1) -> np.ndarray:
    r"""Sigmoid kernel :math:`\kappa(\mathbf x, \mathbf y) = \tanh(\gamma\,\mathbf x^\top\mathbf y + c_0)`.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features) or None
    gamma : float or None, default None
        :math:`\gamma > 0` (Zhou's :math:`\beta`); ``None`` means ``1 / n_features``.
    coef0 : float, default 1
        :math:`c_0`. Zhou's book writes :math:`\tanh(\beta\,\mathbf x^\top\mathbf y + \theta)`
        with :math:`\theta < 0`, i.e. :math:`c_0 = \theta`; note 000 writes
        :math:`-\theta` with :math:`\theta > 0`. Either way Zhou's offset is
        negative; the default 1 is scikit-learn's.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Notes
    -----
    Unlike the other kernels here, the sigmoid kernel is **not** positive
    semi-definite for every choice of parameters and data, so it is not always
    a valid kernel in Mercer's sense; :func:`is_positive_semidefinite` can show
    this on a Gram matrix.

    Examples
    --------
    >>> sigmoid_kernel([[1.0, 0.0]], [[0.0, 1.0]], gamma=1.0, coef0=0.0)
    array([[0.]])
    """
    X, Y, _ = _check_pair(X, Y)
    g = _gamma(gamma, X.shape[1])
    c0 = _real(coef0, "coef0")
    return np.tanh(_dot(X, Y, g) + c0)


def quadratic_feature_map(X: Any) -> np.ndarray:
    r"""Explicit feature map :math:`\Phi_2` of the kernel :math:`1 + \mathbf x^\top\mathbf z + (\mathbf x^\top\mathbf z)^2`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)

    Returns
    -------
    Z : ndarray of shape (n_samples, 1 + n_features + n_features ** 2)
        The columns are :math:`1`, then :math:`x_1, \dots, x_n`, then all
        products :math:`x_i x_j` for :math:`i, j = 1, \dots, n` (both
        :math:`x_1 x_2` and :math:`x_2 x_1` are kept, as in the notes).

    Notes
    -----
    .. math::

        \Phi_2(\mathbf x)^\top \Phi_2(\mathbf z)
        = 1 + \sum_i x_i z_i + \sum_i\sum_j x_i x_j z_i z_j
        = 1 + \mathbf x^\top\mathbf z + (\mathbf x^\top\mathbf z)^2 .

    Building :math:`\Phi_2` costs :math:`O(n^2)` per sample, while the kernel
    on the right needs only :math:`O(n)`: that saving is the kernel trick (核技巧).

    Examples
    --------
    >>> Z = quadratic_feature_map([[1.0, 2.0], [3.0, -1.0]])
    >>> Z.shape
    (2, 7)
    >>> float(Z[0] @ Z[1])  # 1 + x.z + (x.z)^2 with x.z = 1
    3.0
    """
    X = check_array(X, "X")
    n = X.shape[0]
    outer = X[:, :, None] * X[:, None, :]            # (n_samples, n_features, n_features)
    return np.hstack([np.ones((n, 1)), X, outer.reshape(n, -1)])


# ----------------------------------------------------------------------------
# kernel algebra
# ----------------------------------------------------------------------------
def _check_callable(k: Any, name: str) -> None:
    if not callable(k):
        raise TypeError(f"{name} must be a kernel function k(X, Y=None); got {type(k).__name__}")


def kernel_sum(k1: KernelFunction, k2: KernelFunction) -> KernelFunction:
    r"""The kernel :math:`\kappa_1 + \kappa_2` (a sum of valid kernels is valid).

    Parameters
    ----------
    k1, k2 : callable ``k(X, Y=None) -> ndarray of shape (n_samples_X, n_samples_Y)``

    Returns
    -------
    callable
        A kernel function with the same signature.

    Notes
    -----
    If :math:`K_1` and :math:`K_2` are positive semi-definite Gram matrices, then
    :math:`\mathbf c^\top (K_1 + K_2)\mathbf c = \mathbf c^\top K_1 \mathbf c +
    \mathbf c^\top K_2\mathbf c \ge 0`. The feature map is the concatenation
    :math:`(\phi_1(\mathbf x), \phi_2(\mathbf x))`.

    Examples
    --------
    >>> k = kernel_sum(linear_kernel, linear_kernel)
    >>> k([[1.0, 2.0]], [[3.0, 4.0]])
    array([[22.]])
    """
    _check_callable(k1, "k1")
    _check_callable(k2, "k2")

    def k(X: Any, Y: Any = None) -> np.ndarray:
        return np.asarray(k1(X, Y)) + np.asarray(k2(X, Y))

    k.__name__ = f"sum({getattr(k1, '__name__', 'k1')}, {getattr(k2, '__name__', 'k2')})"
    return k


def kernel_product(k1: KernelFunction, k2: KernelFunction) -> KernelFunction:
    r"""The kernel :math:`\kappa_1 \kappa_2` (the element-wise product of Gram matrices).

    Parameters
    ----------
    k1, k2 : callable ``k(X, Y=None) -> ndarray of shape (n_samples_X, n_samples_Y)``

    Returns
    -------
    callable
        A kernel function with the same signature.

    Notes
    -----
    The Gram matrix is the Hadamard product :math:`K_1 \odot K_2`, positive
    semi-definite by the Schur product theorem; the feature map is the tensor
    product :math:`\phi_1(\mathbf x) \otimes \phi_2(\mathbf x)`.

    Examples
    --------
    >>> k = kernel_product(linear_kernel, linear_kernel)
    >>> k([[1.0, 2.0]], [[3.0, 4.0]])
    array([[121.]])
    """
    _check_callable(k1, "k1")
    _check_callable(k2, "k2")

    def k(X: Any, Y: Any = None) -> np.ndarray:
        return np.asarray(k1(X, Y)) * np.asarray(k2(X, Y))

    k.__name__ = f"product({getattr(k1, '__name__', 'k1')}, {getattr(k2, '__name__', 'k2')})"
    return k


def kernel_scale(k: KernelFunction, g: Callable[[np.ndarray], np.ndarray]) -> KernelFunction:
    r"""The kernel :math:`g(\mathbf x)\,\kappa(\mathbf x, \mathbf y)\,g(\mathbf y)` for any function g.

    Parameters
    ----------
    k : callable ``k(X, Y=None) -> ndarray of shape (n_samples_X, n_samples_Y)``
    g : callable ``g(X) -> ndarray of shape (n_samples,)``
        A real function applied to each row of a design matrix (vectorised).

    Returns
    -------
    callable
        A kernel function with the same signature as ``k``.

    Notes
    -----
    The Gram matrix is :math:`D_X K D_Y` with :math:`D = \operatorname{diag}(g)`;
    for ``Y = X`` it is congruent to :math:`K`, so
    :math:`\mathbf c^\top D K D\,\mathbf c = (D\mathbf c)^\top K (D\mathbf c) \ge 0`.
    With :math:`g(\mathbf x) = \kappa(\mathbf x, \mathbf x)^{-1/2}` it normalises a
    kernel to ones on the diagonal.

    Examples
    --------
    >>> k = kernel_scale(linear_kernel, lambda X: X.sum(axis=1))
    >>> k([[1.0, 2.0]], [[3.0, 4.0]])  # 3 * 11 * 7
    array([[231.]])
    """
    _check_callable(k, "k")
    _check_callable(g, "g")

    def scaled(X: Any, Y: Any = None) -> np.ndarray:
        X = check_array(X, "X")
        Yv = X if Y is None else check_array(Y, "Y")
        gx = np.asarray(g(X), dtype=np.float64).reshape(-1)
        gy = gx if Y is None else np.asarray(g(Yv), dtype=np.float64).reshape(-1)
        if gx.shape[0] != X.shape[0] or gy.shape[0] != Yv.shape[0]:
            raise ValueError("g must return one value per row of its input")
        return gx[:, None] * np.asarray(k(X, Y)) * gy[None, :]

    scaled.__name__ = f"scale({getattr(k, '__name__', 'k')})"
    return scaled


# ----------------------------------------------------------------------------
# positive semi-definiteness
# ----------------------------------------------------------------------------
def is_positive_semidefinite(K: Any, tol: float = 1e-10) -> bool:
    r"""Whether a Gram matrix is symmetric and positive semi-definite (半正定), up to rounding.

    Parameters
    ----------
    K : array-like of shape (n, n)
    tol : float, default 1e-10
        Relative tolerance. ``K`` passes if
        :math:`\max_{ij}|K_{ij} - K_{ji}| \le \text{tol}\cdot s` and its smallest
        eigenvalue is :math:`\ge -\text{tol}\cdot s`, where
        :math:`s = \max(\|K\|_2, \text{tiny})` is the largest absolute eigenvalue.

    Returns
    -------
    bool

    Notes
    -----
    A function is a valid kernel (Mercer's condition) exactly when every Gram
    matrix it builds is symmetric and positive semi-definite:
    :math:`\mathbf c^\top K \mathbf c \ge 0` for all :math:`\mathbf c`, i.e. all
    eigenvalues are :math:`\ge 0`.

    Why a tolerance, and why this one: the entries of ``K`` are computed in
    float64, each with a relative error of a few machine epsilons
    (:math:`\varepsilon \approx 2.2\times10^{-16}`), and the symmetric eigen-solver
    adds a backward error of order :math:`n\varepsilon\|K\|_2`. An exactly
    singular PSD matrix (for example a linear kernel with more samples than
    features) therefore shows eigenvalues like :math:`-10^{-14}\|K\|_2`.
    Measuring the tolerance relative to :math:`\|K\|_2` makes the test
    independent of the kernel's scale, and :math:`10^{-10}` leaves a margin of
    about a hundred times :math:`n\varepsilon` for :math:`n` up to a few thousand
    while still catching genuinely negative eigenvalues, which for
    non-PSD kernels such as the sigmoid kernel are of the order of the matrix itself.

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0]]
    >>> is_positive_semidefinite(rbf_kernel(X, gamma=1.0))
    True
    >>> is_positive_semidefinite([[0.0, 1.0], [1.0, 0.0]])  # eigenvalues -1 and 1
    False
    """
    K = check_array(K, "K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"K must be a square matrix; got shape {K.shape}")
    check_scalar(tol, "tol", numbers.Real, min_val=0.0)
    asym = np.max(np.abs(K - K.T))
    eig = np.linalg.eigvalsh((K + K.T) / 2.0)
    scale = max(float(np.max(np.abs(eig))), np.finfo(np.float64).tiny)
    return bool(asym <= tol * scale and eig[0] >= -tol * scale)


# ----------------------------------------------------------------------------
# dispatcher
# ----------------------------------------------------------------------------
KERNELS: dict[str, KernelFunction] = {
    "linear": linear_kernel,
    "poly": polynomial_kernel,
    "polynomial": polynomial_kernel,
    "rbf": rbf_kernel,
    "laplacian": laplacian_kernel,
    "sigmoid": sigmoid_kernel,
}
"""The kernels known by name to :func:`pairwise_kernels` (and to ``SVC``/``SVR``)."""

_KERNEL_PARAMS = {
    linear_kernel: (),
    polynomial_kernel: ("degree", "gamma", "coef0"),
    rbf_kernel: ("gamma",),
    laplacian_kernel: ("gamma",),
    sigmoid_kernel: ("gamma", "coef0"),
}


def pairwise_kernels(X: Any, Y: Any = None, kernel: str | KernelFunction = "rbf",
                     **params: Any) -> np.ndarray:
    """Gram matrix of a kernel given by name or as a callable.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features) or None
    kernel : str or callable, default "rbf"
        One of ``"linear"``, ``"poly"`` (or ``"polynomial"``), ``"rbf"``,
        ``"laplacian"``, ``"sigmoid"``; or a function ``k(X, Y, **params)``
        returning the Gram matrix of shape (n_samples_X, n_samples_Y), as the
        functions of :func:`kernel_sum` and friends do.
    **params
        Keyword arguments of the kernel (``gamma``, ``degree``, ``coef0``).
        For a named kernel, parameters it does not take are rejected.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Raises
    ------
    ValueError
        For an unknown kernel name, a parameter the kernel does not take, or a
        callable whose output does not have shape (n_samples_X, n_samples_Y)
        or is not finite.

    Examples
    --------
    >>> pairwise_kernels([[0.0], [1.0]], kernel="linear")
    array([[0., 0.],
           [0., 1.]])
    """
    X, Yv, same = _check_pair(X, Y)
    if isinstance(kernel, str):
        if kernel not in KERNELS:
            raise ValueError(
                f"kernel {kernel!r} is unknown; use one of {sorted(KERNELS)} or a callable"
            )
        func = KERNELS[kernel]
        allowed = _KERNEL_PARAMS[func]
        extra = sorted(set(params) - set(allowed))
        if extra:
            raise ValueError(
                f"kernel {kernel!r} takes the parameters {list(allowed)}; got unexpected {extra}"
            )
        return func(X, None if same else Yv, **params)
    if not callable(kernel):
        raise TypeError(f"kernel must be a string or a callable; got {type(kernel).__name__}")
    K = np.asarray(kernel(X, Yv, **params), dtype=np.float64)
    expected = (X.shape[0], Yv.shape[0])
    if K.shape != expected:
        raise ValueError(
            f"the kernel callable {getattr(kernel, '__name__', kernel)!r} returned an array "
            f"of shape {K.shape}; expected the Gram matrix of shape {expected}"
        )
    if not np.isfinite(K).all():
        raise ValueError("the kernel callable returned NaN or infinite values")
    return K
