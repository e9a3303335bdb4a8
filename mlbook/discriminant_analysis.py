"""Linear discriminant analysis (Fisher's LDA).

See the chapter "Linear discriminant analysis" (``book/linear/lda.ipynb``).

The module has three pure functions for the formulas of the chapter
(:func:`scatter_matrices`, :func:`rayleigh_quotient`, :func:`fisher_direction`),
a general solver for the symmetric-definite generalised eigenproblem
:math:`A v = \\lambda B v` (:func:`generalized_eigh`) and the estimator
:class:`LinearDiscriminantAnalysis`.

The kernel version, :func:`kernel_fisher_matrices` and
:class:`KernelFisherDiscriminant`, comes last; its one-dimensional problem
(a rank-one numerator) is solved by a linear solve rather than an
eigen-solver. See the chapter "Support vector regression and kernel methods"
(``book/svm/svr_kernel_methods.ipynb``).
"""

from __future__ import annotations

import inspect
import numbers
from typing import Any

import numpy as np

from ._validation import (
    check_array,
    check_classification_targets,
    check_predict_X,
    check_scalar,
    check_X_y,
    encode_labels,
)
from ._math import softmax
from .base import BaseEstimator, ClassifierMixin, TransformerMixin

__all__ = [
    "scatter_matrices",
    "rayleigh_quotient",
    "fisher_direction",
    "generalized_eigh",
    "LinearDiscriminantAnalysis",
    "kernel_fisher_matrices",
    "KernelFisherDiscriminant",
]


def scatter_matrices(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    r"""Within-class and between-class scatter matrices.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels (at least two classes).

    Returns
    -------
    S_w : ndarray of shape (n_features, n_features)
        Within-class scatter :math:`S_w = \sum_c \sum_{x \in D_c} (x - \mu_c)(x - \mu_c)^\top`.
    S_b : ndarray of shape (n_features, n_features)
        Between-class scatter :math:`S_b = \sum_c m_c (\mu_c - \mu)(\mu_c - \mu)^\top`.

    Notes
    -----
    With the total scatter :math:`S_t = \sum_i (x_i - \mu)(x_i - \mu)^\top`,
    :math:`S_t = S_w + S_b`. For two classes
    :math:`S_b = \frac{m_0 m_1}{m} (\mu_0 - \mu_1)(\mu_0 - \mu_1)^\top`, a
    multiple of the matrix the watermelon book calls :math:`S_b`.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [2.0, 2.0]])
    >>> S_w, S_b = scatter_matrices(X, [0, 0, 1, 1])
    >>> S_w
    array([[4., 0.],
           [0., 0.]])
    >>> S_b
    array([[0., 0.],
           [0., 4.]])
    """
    X, y = check_X_y(X, y)
    classes, codes = encode_labels(y)
    check_classification_targets(y)
    counts = np.bincount(codes)                                      # (k,)
    means = np.zeros((classes.shape[0], X.shape[1]))
    np.add.at(means, codes, X)
    means /= counts[:, None]                                         # (k, d)
    centred = X - means[codes]                                       # (n, d)
    S_w = centred.T @ centred                                        # (d, d)
    diff = means - X.mean(axis=0)                                    # (k, d)
    S_b = (diff * counts[:, None]).T @ diff                          # (d, d)
    return S_w, S_b


def rayleigh_quotient(w: Any, S_b: Any, S_w: Any) -> float:
    r"""Fisher's criterion :math:`J(w) = \dfrac{w^\top S_b w}{w^\top S_w w}`.

    Parameters
    ----------
    w : array-like of shape (n_features,)
        A projection direction (its length does not matter).
    S_b, S_w : array-like of shape (n_features, n_features)

    Examples
    --------
    >>> float(rayleigh_quotient([1.0, 1.0], np.eye(2), 2 * np.eye(2)))
    0.5
    """
    w = check_array(w, "w", ensure_2d=False)
    S_b = check_array(S_b, "S_b")
    S_w = check_array(S_w, "S_w")
    if S_b.shape != (w.shape[0], w.shape[0]) or S_w.shape != S_b.shape:
        raise ValueError(
            f"S_b and S_w must have shape ({w.shape[0]}, {w.shape[0]}) to match w; "
            f"got {S_b.shape} and {S_w.shape}"
        )
    denominator = w @ S_w @ w
    if denominator <= 0:
        raise ValueError("w^T S_w w must be positive; w lies in the null space of S_w")
    return float(w @ S_b @ w / denominator)


def fisher_direction(X: Any, y: Any) -> np.ndarray:
    r"""Fisher's two-class direction :math:`w \propto S_w^{-1}(\mu_0 - \mu_1)`, unit length.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Exactly two classes; :math:`\mu_0` is the mean of the first class in
        sorted order (``np.unique(y)[0]``).

    Returns
    -------
    w : ndarray of shape (n_features,)
        The maximiser of :func:`rayleigh_quotient`, scaled to :math:`\|w\| = 1`.

    Notes
    -----
    The linear system :math:`S_w w = \mu_0 - \mu_1` is solved, never
    :math:`S_w^{-1}` formed; ``S_w`` must be non-singular.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 1.0], [3.0, 3.0]])
    >>> fisher_direction(X, [0, 0, 1, 1]).round(4)
    array([-0.8779,  0.4789])
    """
    X, y = check_X_y(X, y)
    classes = check_classification_targets(y, n_classes=2)
    S_w, _ = scatter_matrices(X, y)
    mu0 = X[y == classes[0]].mean(axis=0)
    mu1 = X[y == classes[1]].mean(axis=0)
    s = np.linalg.eigvalsh(S_w)                     # ascending; S_w is symmetric PSD
    if s[0] <= 1e-12 * s[-1]:                       # (numerically) singular: no unique solution
        raise ValueError(
            "the within-class scatter S_w is singular (collinear features or too few "
            "samples); remove redundant features or use LinearDiscriminantAnalysis"
        )
    w = np.linalg.solve(S_w, mu0 - mu1)
    return w / np.linalg.norm(w)


def generalized_eigh(A: Any, B: Any, rtol: float = 1e-10) -> tuple[np.ndarray, np.ndarray]:
    r"""Solve :math:`A v = \lambda B v` for symmetric :math:`A` and positive semi-definite :math:`B`.

    Parameters
    ----------
    A : array-like of shape (d, d)
        Symmetric.
    B : array-like of shape (d, d)
        Symmetric positive semi-definite.
    rtol : float
        Eigenvalues of ``B`` below ``rtol * max eigenvalue`` count as zero; the
        problem is then solved on the range of ``B``.

    Returns
    -------
    eigenvalues : ndarray of shape (r,)
        In decreasing order; ``r`` is the rank of ``B``.
    V : ndarray of shape (d, r)
        Column ``j`` solves the problem for ``eigenvalues[j]``, normalised so
        that :math:`V^\top B V = I`.

    Notes
    -----
    With :math:`B = U \operatorname{diag}(s) U^\top` (symmetric eigensolver),
    the whitening :math:`T = U_r \operatorname{diag}(s_r^{-1/2})` turns the
    problem into the ordinary symmetric one
    :math:`(T^\top A T) u = \lambda u`, and :math:`v = T u`. Neither
    :math:`B^{-1}` nor the non-symmetric :math:`B^{-1} A` is formed.

    Examples
    --------
    >>> vals, V = generalized_eigh(np.diag([2.0, 3.0]), np.diag([1.0, 2.0]))
    >>> vals
    array([2. , 1.5])
    """
    A = check_array(A, "A")
    B = check_array(B, "B")
    if A.shape[0] != A.shape[1] or A.shape != B.shape:
        raise ValueError(f"A and B must be square of the same shape; got {A.shape} and {B.shape}")
    s, U = np.linalg.eigh((B + B.T) / 2)                      # B = U diag(s) U^T
    keep = s > rtol * max(s.max(), 0.0)
    if not keep.any():
        raise ValueError("B is zero (or negative definite); it must be positive semi-definite")
    T = U[:, keep] / np.sqrt(s[keep])                          # (d, r) whitening
    C = T.T @ ((A + A.T) / 2) @ T                              # (r, r) symmetric
    vals, W = np.linalg.eigh(C)
    order = np.argsort(vals)[::-1]
    return vals[order], T @ W[:, order]


class LinearDiscriminantAnalysis(ClassifierMixin, TransformerMixin, BaseEstimator):
    r"""Fisher's linear discriminant analysis: projection and classifier.

    Parameters
    ----------
    n_components : int or None
        Number of discriminant directions kept by :meth:`transform`; at most
        ``min(n_classes - 1, n_features)`` (the default).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    priors_ : ndarray of shape (n_classes,)
        Class proportions in the training data.
    means_ : ndarray of shape (n_classes, n_features)
        Class means :math:`\mu_c`.
    xbar_ : ndarray of shape (n_features,)
        Overall mean :math:`\mu`.
    covariance_ : ndarray of shape (n_features, n_features)
        Pooled within-class covariance :math:`\Sigma = S_w / m`, :math:`m` the number of
        samples (the maximum likelihood estimate of the shared covariance).
    scalings_ : ndarray of shape (n_features, rank)
        Discriminant directions as columns, best first, solving
        :math:`S_b w = \lambda S_w w` and scaled to unit within-class variance
        (:math:`W^\top \Sigma W = I`).
    explained_variance_ratio_ : ndarray of shape (n_components,)
        Share of the eigenvalues :math:`\lambda_j` taken by each kept direction.
    coef_ : ndarray of shape (n_classes, n_features), or (1, n_features) for two classes
    intercept_ : ndarray of shape (n_classes,), or (1,) for two classes
        The linear discriminant functions of the Gaussian rule (below).
    n_features_in_ : int

    Notes
    -----
    The projection maximises Fisher's criterion
    :math:`J(W) = \operatorname{tr}\big((W^\top S_w W)^{-1} W^\top S_b W\big)`,
    whose maximisers are the top eigenvectors of the generalised problem
    :math:`S_b w = \lambda S_w w` (solved by :func:`generalized_eigh`). Only
    ``n_classes - 1`` eigenvalues can be non-zero, because
    :math:`\operatorname{rank} S_b \le n_\text{classes} - 1`.

    :meth:`predict` uses the Gaussian shared-covariance rule: class :math:`c`
    maximises :math:`\delta_c(x) = x^\top \Sigma^{-1}\mu_c - \tfrac12
    \mu_c^\top \Sigma^{-1} \mu_c + \log \pi_c`. This is the same as assigning
    :math:`x` to the nearest class centroid in the space of all discriminant
    directions (where distances are Euclidean), corrected by :math:`\log \pi_c`,
    and it is scikit-learn's rule, so predictions can be compared one to one.
    See the chapter "Linear discriminant analysis".

    Examples
    --------
    >>> from mlbook.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> lda = LinearDiscriminantAnalysis(n_components=2).fit(X, y)
    >>> lda.transform(X).shape
    (150, 2)
    >>> float(np.mean(lda.predict(X) == y))
    0.98
    """

    def __init__(self, n_components: int | None = None):
        self.n_components = n_components

    def fit(self, X: Any, y: Any) -> "LinearDiscriminantAnalysis":
        """Compute the scatter matrices, the discriminant directions and the Gaussian rule.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels (at least two classes, more samples than classes).

        Returns
        -------
        self
        """
        X, y = check_X_y(X, y)
        self.classes_ = check_classification_targets(y)
        n, d = X.shape
        k = self.classes_.shape[0]
        max_components = min(k - 1, d)
        if self.n_components is None:
            n_components = max_components
        else:
            check_scalar(self.n_components, "n_components", numbers.Integral, min_val=1)
            if self.n_components > max_components:
                raise ValueError(
                    f"n_components must be <= min(n_classes - 1, n_features) = "
                    f"{max_components}; got {self.n_components}"
                )
            n_components = int(self.n_components)
        if n <= k:
            raise ValueError(
                f"X needs more samples ({n}) than classes ({k}) to estimate a within-class scatter"
            )
        codes = np.searchsorted(self.classes_, y)
        counts = np.bincount(codes, minlength=k)
        self.priors_ = counts / n
        self.means_ = np.zeros((k, d))
        np.add.at(self.means_, codes, X)
        self.means_ /= counts[:, None]                                # (k, d)
        self.xbar_ = self.priors_ @ self.means_                       # (d,)
        S_w, S_b = scatter_matrices(X, y)
        self.covariance_ = S_w / n                                    # (d, d)
        # S_b w = lambda Sigma w has the eigenvectors of S_b w = lambda S_w w
        # (eigenvalues times n), normalised so that W^T Sigma W = I.
        if not np.any(self.covariance_):
            constant = " (every feature of X is constant)" if not np.ptp(X, axis=0).any() else ""
            raise ValueError(
                "X has no within-class variance: every feature is constant within each "
                f"class{constant}, so the within-class scatter S_w is zero and Fisher's "
                "criterion J = (w^T S_b w) / (w^T S_w w) is undefined; remove the features "
                "that are constant within every class")
        eigenvalues, W = generalized_eigh(S_b, self.covariance_)      # (r,), (d, r)
        eigenvalues = np.maximum(eigenvalues / n, 0.0)
        # A fixed sign per direction (largest |entry| positive): same data, same output.
        pivot = W[np.argmax(np.abs(W), axis=0), np.arange(W.shape[1])]
        W = W * np.where(pivot < 0, -1.0, 1.0)
        self.scalings_ = W
        total = eigenvalues.sum()
        self.explained_variance_ratio_ = (
            eigenvalues[:n_components] / total if total > 0 else np.zeros(n_components)
        )
        self._n_components_ = n_components
        # Gaussian rule through the whitening: Sigma^+ = W W^T on the range of Sigma.
        M = (self.means_ - self.xbar_) @ W                            # (k, r)
        coef = M @ W.T                                                # (k, d) = M_c Sigma^-1
        intercept = -0.5 * np.sum(M**2, axis=1) + np.log(self.priors_) - coef @ self.xbar_
        if k == 2:
            coef = coef[1:] - coef[:1]
            intercept = intercept[1:] - intercept[:1]
        self.coef_, self.intercept_ = coef, intercept
        self.n_features_in_ = d
        return self

    def _validate(self, X: Any) -> np.ndarray:
        X = check_predict_X(self, X, "scalings_")
        return X

    def transform(self, X: Any) -> np.ndarray:
        """Project onto the first ``n_components`` discriminant directions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        Z : ndarray of shape (n_samples, n_components)
            :math:`z = W^\\top (x - \\mu)`.
        """
        X = self._validate(X)
        return (X - self.xbar_) @ self.scalings_[:, : self._n_components_]

    def decision_function(self, X: Any) -> np.ndarray:
        r"""Values of the discriminant functions :math:`\delta_c(x)`.

        Returns
        -------
        ndarray of shape (n_samples, n_classes), or (n_samples,) for two classes
            For two classes, :math:`\delta_1(x) - \delta_0(x)` (positive means ``classes_[1]``).
        """
        X = self._validate(X)
        scores = X @ self.coef_.T + self.intercept_
        return scores.ravel() if self.classes_.shape[0] == 2 else scores

    def predict_proba(self, X: Any) -> np.ndarray:
        """Posterior class probabilities under the shared-covariance Gaussian model.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            scores = np.column_stack([np.zeros_like(scores), scores])
        return softmax(scores)

    def predict(self, X: Any) -> np.ndarray:
        """Class with the largest discriminant function (the Gaussian shared-covariance rule).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]


# ----------------------------------------------------------------------------
# Kernel Fisher discriminant (chapter "Support vector regression and kernel methods")
# ----------------------------------------------------------------------------
def kernel_fisher_matrices(K: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    r"""The matrices :math:`M` and :math:`N` of the kernel Fisher discriminant.

    Parameters
    ----------
    K : array-like of shape (m, m)
        Gram matrix of the training data, :math:`K_{ij} = \kappa(x_i, x_j)`.
    y : array-like of shape (m,)
        Exactly two classes; class 0 is ``np.unique(y)[0]``.

    Returns
    -------
    M : ndarray of shape (m, m)
        Between-class matrix :math:`M = (\hat\mu_0 - \hat\mu_1)(\hat\mu_0 - \hat\mu_1)^\top`,
        rank one.
    N : ndarray of shape (m, m)
        Within-class matrix
        :math:`N = \sum_{k} K_k (I - \tfrac{1}{m_k}\mathbf 1\mathbf 1^\top) K_k^\top`.

    Notes
    -----
    :math:`K_k` (shape (m, m_k)) holds the columns of :math:`K` that belong to
    class :math:`k`, and :math:`\hat\mu_k = K_k \mathbf 1 / m_k` is the mean of
    those columns. For :math:`w = \sum_i \alpha_i \phi(x_i)` the projected class
    mean is :math:`w^\top\mu_k = \alpha^\top\hat\mu_k`, so
    :math:`w^\top S_b w = \alpha^\top M \alpha` and
    :math:`w^\top S_w w = \alpha^\top N \alpha`. Equivalently
    :math:`N = K K^\top - \sum_k m_k \hat\mu_k \hat\mu_k^\top`, the form of the
    notes. Since :math:`I - \mathbf 1\mathbf 1^\top/m_k` has rank
    :math:`m_k - 1`, the rank of :math:`N` is at most :math:`m - 2`: it is
    always singular. See the chapter "Support vector regression and kernel methods".

    Examples
    --------
    >>> K = np.eye(4)
    >>> M, N = kernel_fisher_matrices(K, [0, 0, 1, 1])
    >>> np.linalg.matrix_rank(M), np.linalg.matrix_rank(N)
    (np.int64(1), np.int64(2))
    """
    K = check_array(K, "K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"K must be a square Gram matrix; got shape {K.shape}")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != K.shape[0]:
        raise ValueError(
            f"y must be a 1-d array with one label per row of K ({K.shape[0]}); got shape {y.shape}"
        )
    classes = check_classification_targets(y, n_classes=2)
    in1 = y == classes[1]                                              # (m,) bool
    counts = np.array([np.count_nonzero(~in1), np.count_nonzero(in1)])
    means = np.column_stack([K[:, ~in1].mean(axis=1), K[:, in1].mean(axis=1)])  # (m, 2)
    diff = means[:, 0] - means[:, 1]                                   # (m,)
    M = np.outer(diff, diff)                                           # (m, m)
    N = K @ K.T - (means * counts) @ means.T                           # (m, m)
    return M, (N + N.T) / 2.0


class KernelFisherDiscriminant(ClassifierMixin, TransformerMixin, BaseEstimator):
    r"""Kernel Fisher discriminant (kernel LDA, 核线性判别分析) for two classes.

    Parameters
    ----------
    kernel : str or callable, default "rbf"
        ``"linear"``, ``"poly"``, ``"rbf"``, ``"laplacian"``, ``"sigmoid"``
        (the functions of :mod:`mlbook.kernels`), or a callable
        ``k(X, Y) -> ndarray of shape (n_samples_X, n_samples_Y)``.
    gamma : float or None, default None
        Kernel scale of ``"poly"``, ``"rbf"``, ``"laplacian"``, ``"sigmoid"``;
        ``None`` means ``1 / n_features``.
    degree : int, default 3
        Degree of ``"poly"``.
    coef0 : float, default 1
        Offset of ``"poly"`` and ``"sigmoid"``.
    reg : float, default 1e-3
        Ridge :math:`\lambda > 0` added to the within-class matrix,
        :math:`N + \lambda I`. It is needed, not optional: :math:`N` is singular
        (rank at most :math:`m - 2`), so without it Fisher's ratio is unbounded.
        It is absolute, so it should be compared with the scale of :math:`N`
        (entries up to about :math:`m` for the Gaussian kernel).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    X_fit_ : ndarray of shape (m, n_features)
        The training inputs, needed to evaluate :math:`\kappa(x_i, x)`.
    dual_coef_ : ndarray of shape (m,)
        The expansion coefficients :math:`\alpha`, so that
        :math:`w = \sum_i \alpha_i \phi(x_i)`; oriented so that ``classes_[1]``
        projects higher, and scaled so that the pooled within-class standard
        deviation of the training projections is 1. All zero when the two
        classes have the same kernel mean (:math:`\hat\mu_0 = \hat\mu_1`),
        in which case every point is assigned to ``classes_[0]``.
    means_ : ndarray of shape (2,)
        The projected class means :math:`\alpha^\top \hat\mu_k` (training data).
    threshold_ : float
        Their midpoint, the decision threshold.
    n_features_in_ : int

    Notes
    -----
    With :math:`M` and :math:`N` from :func:`kernel_fisher_matrices`, the
    regularised criterion
    :math:`J(\alpha) = \alpha^\top M \alpha / \alpha^\top (N + \lambda I)\alpha`
    has a rank-one numerator :math:`M = \mathbf d\mathbf d^\top` with
    :math:`\mathbf d = \hat\mu_0 - \hat\mu_1`, and its maximiser is
    :math:`\alpha \propto (N + \lambda I)^{-1}\mathbf d`, found here by a linear
    solve (:math:`N + \lambda I` is symmetric positive definite). The
    projection of a point is :math:`h(x) = \sum_i \alpha_i \kappa(x_i, x)`
    (:meth:`transform`). :meth:`predict` thresholds it at the midpoint of the
    two projected class means, the Bayes rule for two one-dimensional Gaussians
    with equal variances and equal priors. With the linear kernel and a small
    :math:`\lambda`, :math:`w = X^\top\alpha` is Fisher's LDA direction
    :math:`S_w^{-1}(\mu_0 - \mu_1)` up to scale. See the chapter
    "Support vector regression and kernel methods".

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> angle = rng.uniform(0, 2 * np.pi, 80)
    >>> radius = np.repeat([1.0, 3.0], 40)           # two concentric circles
    >>> X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    >>> y = np.repeat([0, 1], 40)
    >>> kfd = KernelFisherDiscriminant(kernel="rbf", gamma=0.5).fit(X, y)
    >>> kfd.score(X, y)
    1.0
    >>> kfd.transform(X).shape
    (80, 1)
    """

    _binary_only = True          # two classes only (scikit-learn tag multi_class=False)

    def __init__(self, kernel: Any = "rbf", gamma: float | None = None, degree: int = 3,
                 coef0: float = 1, reg: float = 1e-3):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.reg = reg

    def _gram(self, X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
        """Gram matrix of the chosen kernel, shape (n_samples_X, n_samples_Y)."""
        from .kernels import KERNELS, pairwise_kernels

        if isinstance(self.kernel, str):
            if self.kernel not in KERNELS:
                raise ValueError(
                    f"kernel {self.kernel!r} is unknown; use one of {sorted(KERNELS)} "
                    "or a callable"
                )
            # pass only the parameters this kernel takes (read from its signature)
            takes = inspect.signature(KERNELS[self.kernel]).parameters
            every = {"gamma": self.gamma, "degree": self.degree, "coef0": self.coef0}
            params = {p: v for p, v in every.items() if p in takes}
            return pairwise_kernels(X, Y, kernel=self.kernel, **params)
        if not callable(self.kernel):
            raise TypeError(
                f"kernel must be a string or a callable; got {type(self.kernel).__name__}"
            )
        return pairwise_kernels(X, Y, kernel=self.kernel)

    def fit(self, X: Any, y: Any) -> "KernelFisherDiscriminant":
        """Solve :math:`(N + \\lambda I)\\alpha = \\hat\\mu_0 - \\hat\\mu_1` and set the threshold.

        Parameters
        ----------
        X : array-like of shape (m, n_features)
        y : array-like of shape (m,)
            Exactly two classes.

        Returns
        -------
        self
        """
        # every parameter is checked, also those the chosen kernel does not take
        check_scalar(self.reg, "reg", numbers.Real, min_val=0.0, include_min=False)
        if self.gamma is not None:
            check_scalar(self.gamma, "gamma", numbers.Real, min_val=0.0, include_min=False)
        check_scalar(self.degree, "degree", numbers.Integral, min_val=1)
        check_scalar(self.coef0, "coef0", numbers.Real)
        X, y = check_X_y(X, y)
        classes = check_classification_targets(y, n_classes=2)
        K = self._gram(X)                                             # (m, m)
        M, N = kernel_fisher_matrices(K, y)
        in1 = y == classes[1]
        d = K[:, ~in1].mean(axis=1) - K[:, in1].mean(axis=1)          # (m,) mu0_hat - mu1_hat
        m = X.shape[0]
        alpha = np.linalg.solve(N + self.reg * np.eye(m), d)          # (m,)
        # alpha^T d > 0 for the SPD system, so -alpha puts classes_[1] on the high side.
        alpha = -alpha
        within = alpha @ N @ alpha                                    # within-class scatter
        norm = np.linalg.norm(alpha)
        if within > 0 and np.isfinite(within):
            alpha = alpha / np.sqrt(within / max(m - 2, 1))
        elif norm > 0:                                                # no within scatter: unit norm
            alpha = alpha / norm
        # else d = 0: the classes have the same kernel mean and alpha stays 0
        h = K @ alpha                                                 # (m,) training projections
        self.classes_ = classes
        self.X_fit_ = X
        self.dual_coef_ = alpha
        self.means_ = np.array([h[~in1].mean(), h[in1].mean()])
        self.threshold_ = float(self.means_.mean())
        self.n_features_in_ = X.shape[1]
        return self

    def _validate(self, X: Any) -> np.ndarray:
        X = check_predict_X(self, X, "dual_coef_")
        return X

    def transform(self, X: Any) -> np.ndarray:
        r"""Project onto the discriminant: :math:`h(x) = \sum_i \alpha_i \kappa(x_i, x)`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, 1)
        """
        X = self._validate(X)
        return (self._gram(X, self.X_fit_) @ self.dual_coef_)[:, None]

    def decision_function(self, X: Any) -> np.ndarray:
        """Projection minus the threshold; positive means ``classes_[1]``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self.transform(X)[:, 0] - self.threshold_

    def predict(self, X: Any) -> np.ndarray:
        """The class whose projected mean is nearer (threshold at the midpoint).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(int)]
