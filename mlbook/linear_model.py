"""Linear models: least squares, least absolute deviations, ridge, LASSO, elastic net, logistic regression.

The regression half of this module follows the chapters "Linear regression"
and "Regularisation" (part II of the book); the classification half
(:class:`LogisticRegression` and its formulas) follows the chapter "Logistic
regression". Notation: ``X`` has shape (m, d) (m samples, d features),
``w`` has shape (d,), the intercept is ``b`` and the prediction is
:math:`\\hat y = Xw + b`.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from ._validation import (
    check_array,
    check_bool,
    check_predict_X,
    check_scalar,
    check_X_y,
)
from ._math import expit, pow2_scale
from .base import BaseEstimator, RegressorMixin
from .exceptions import (ConvergenceWarning, QuasiSeparableDataWarning, RankDeficientWarning,
                         SeparableDataWarning)

__all__ = [
    "ConvergenceWarning",
    "RankDeficientWarning",
    "soft_threshold",
    "squared_loss",
    "squared_loss_gradient",
    "simple_linear_regression",
    "lasso_path",
    "LinearRegression",
    "LeastAbsoluteDeviation",
    "Ridge",
    "Lasso",
    "ElasticNet",
]


# ---------------------------------------------------------------------------
# Pure functions of the chapters
# ---------------------------------------------------------------------------


def soft_threshold(z: Any, gamma: float) -> np.ndarray:
    r"""Soft-thresholding operator :math:`S_\gamma(z) = \operatorname{sign}(z)\max(|z| - \gamma, 0)`.

    It is the minimiser of :math:`\tfrac12 (w - z)^2 + \gamma |w|` over
    :math:`w`, the one-dimensional LASSO problem solved at every step of
    coordinate descent.

    Parameters
    ----------
    z : float or ndarray of any shape
    gamma : float, >= 0
        The threshold.

    Returns
    -------
    ndarray of the shape of ``z``

    Notes
    -----
    Entries with :math:`|z| \le \gamma` become exactly zero; the others move
    towards zero by :math:`\gamma`. See the chapter "Regularisation".

    Examples
    --------
    >>> soft_threshold([-3.0, -0.5, 0.0, 0.5, 3.0], 1.0)
    array([-2., -0.,  0.,  0.,  2.])
    """
    check_scalar(gamma, "gamma", min_val=0.0)
    z = np.asarray(z, dtype=np.float64)
    return np.sign(z) * np.maximum(np.abs(z) - gamma, 0.0)


def squared_loss(w: Any, b: float, X: Any, y: Any) -> float:
    r"""Half mean squared error :math:`J(w, b) = \frac{1}{2m}\|Xw + b - y\|^2`.

    Parameters
    ----------
    w : ndarray of shape (d,)
    b : float
    X : ndarray of shape (m, d)
    y : ndarray of shape (m,)

    Returns
    -------
    float

    Notes
    -----
    The factor :math:`1/(2m)` of the notes makes the gradient an average
    (it does not depend on m) without a stray factor 2.
    See the chapter "Linear regression".

    Examples
    --------
    >>> round(squared_loss([1.0], 0.0, [[1.0], [2.0]], [1.0, 4.0]), 6)
    1.0
    """
    X = np.asarray(X, dtype=np.float64)
    r = X @ np.asarray(w, dtype=np.float64) + b - np.asarray(y, dtype=np.float64)
    return float(r @ r) / (2 * X.shape[0])


def squared_loss_gradient(w: Any, b: float, X: Any, y: Any) -> tuple[np.ndarray, float]:
    r"""Gradient of :func:`squared_loss` with respect to ``w`` and ``b``.

    Parameters
    ----------
    w : ndarray of shape (d,)
    b : float
    X : ndarray of shape (m, d)
    y : ndarray of shape (m,)

    Returns
    -------
    grad_w : ndarray of shape (d,)
        :math:`\frac{1}{m} X^\top (Xw + b - y)`.
    grad_b : float
        :math:`\frac{1}{m} \sum_i (x_i^\top w + b - y_i)`.
    """
    X = np.asarray(X, dtype=np.float64)
    r = X @ np.asarray(w, dtype=np.float64) + b - np.asarray(y, dtype=np.float64)  # (m,)
    m = X.shape[0]
    return X.T @ r / m, float(r.sum()) / m


def simple_linear_regression(x: Any, y: Any) -> tuple[float, float]:
    r"""Least-squares line :math:`y \approx a x + b` through points in the plane.

    Parameters
    ----------
    x, y : array-like of shape (m,)

    Returns
    -------
    a, b : float
        Slope and intercept.

    Notes
    -----
    Setting both partial derivatives of :math:`\sum_i (y_i - a x_i - b)^2`
    to zero gives :math:`b = \bar y - a \bar x` and

    .. math:: a = \frac{\sum_i (x_i - \bar x)(y_i - \bar y)}{\sum_i (x_i - \bar x)^2},

    which equals the notes' :math:`(\sum x_i y_i - m\bar x\bar y)/(\sum x_i^2 - m\bar x^2)`
    but does not subtract two large, nearly equal numbers.
    See the chapter "Linear regression".

    Examples
    --------
    >>> a, b = simple_linear_regression([0, 1, 2], [1, 3, 5])
    >>> float(a), float(b)
    (2.0, 1.0)
    """
    x = check_array(x, "x", ensure_2d=False, min_samples=2)
    y = check_array(y, "y", ensure_2d=False)
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"x and y have different lengths: {x.shape[0]} and {y.shape[0]}")
    xc, yc = x - x.mean(), y - y.mean()
    sxx = float(xc @ xc)
    if sxx == 0.0:
        raise ValueError("x is constant; the slope of a least-squares line is undefined")
    a = float(xc @ yc) / sxx
    return a, float(y.mean() - a * x.mean())


# ---------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------


def _center(X: np.ndarray, y: np.ndarray, fit_intercept: bool):
    """Centre X and y when an intercept is fitted (the intercept is then unpenalised)."""
    if fit_intercept:
        X_mean, y_mean = X.mean(axis=0), float(y.mean())
        return X - X_mean, y - y_mean, X_mean, y_mean
    return X, y, np.zeros(X.shape[1]), 0.0


def _feature_spread(X: np.ndarray, centred: bool) -> np.ndarray:
    """Each feature's spread :math:`s_j`, shape (d,): its root mean square, about its mean
    when ``centred`` (an intercept is fitted)."""
    Xc = X - X.mean(axis=0) if centred else X
    return np.sqrt(np.mean(Xc**2, axis=0))


class _LinearPredictor(RegressorMixin, BaseEstimator):
    """``predict`` of every linear regressor: :math:`\\hat y = Xw + b`."""

    def _validate_fit(self, X: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
        check_bool(self.fit_intercept, "fit_intercept")
        X, y = check_X_y(X, y, y_numeric=True)
        self.n_features_in_ = X.shape[1]
        return X, y

    def _set_intercept(self, X_mean: np.ndarray, y_mean: float) -> None:
        self.intercept_ = float(y_mean - X_mean @ self.coef_) if self.fit_intercept else 0.0

    def predict(self, X: Any) -> np.ndarray:
        """Predict :math:`\\hat y = Xw + b`.

        Parameters
        ----------
        X : array-like of shape (m, d)

        Returns
        -------
        ndarray of shape (m,)
        """
        X = check_predict_X(self, X, "coef_")
        return X @ self.coef_ + self.intercept_


def _check_iter_params(max_iter: Any, tol: Any) -> None:
    check_scalar(max_iter, "max_iter", numbers.Integral, min_val=1)
    check_scalar(tol, "tol", min_val=0.0)


# ---------------------------------------------------------------------------
# Ordinary least squares
# ---------------------------------------------------------------------------


def _least_squares(A: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, int]:
    """Minimum-norm least-squares solution of ``A w = y`` by SVD, and the rank of ``A``."""
    w, _, rank, _ = np.linalg.lstsq(A, y, rcond=None)
    return w, int(rank)


class LinearRegression(_LinearPredictor):
    r"""Ordinary least squares, by the normal equations or by gradient descent.

    Parameters
    ----------
    solver : {"normal", "gd"}, default="normal"
        ``"normal"`` solves the normal equations :math:`X^\top X w = X^\top y`
        (through an SVD of X, never an explicit inverse); ``"gd"`` runs batch
        gradient descent on :math:`J(w, b) = \frac{1}{2m}\|Xw + b - y\|^2`.
    fit_intercept : bool, default=True
    learning_rate : float, default=0.1
        Step size :math:`\eta` of gradient descent (``solver="gd"`` only).
    max_iter : int, default=10000
        Most gradient-descent steps (``solver="gd"`` only).
    tol : float, default=1e-8
        Gradient descent (``solver="gd"`` only) stops when every entry of the gradient is at
        most ``tol``; the entry of a feature whose root-mean-square (centred when an intercept
        is fitted) is :math:`s_j < 1` must be at most ``tol`` times :math:`s_j`, because
        shrinking a feature by :math:`s_j` shrinks its gradient by :math:`s_j` (X on a scale
        of 1e-10 would otherwise stop the descent before it has moved).

    Attributes
    ----------
    coef_ : ndarray of shape (d,)
    intercept_ : float
    n_features_in_ : int
    rank_ : int
        Rank of the (centred) design matrix (``solver="normal"`` only).
    n_iter_ : int
        Gradient-descent steps taken (``solver="gd"`` only). The normal
        equations are solved directly, not iterated, so ``"normal"`` sets no
        ``n_iter_`` rather than report a count of 0 that would read as "stopped
        before the first step"; ``max_iter``, ``tol`` and ``learning_rate``
        are still validated.
    loss_history_ : ndarray of shape (T + 1,)
        :math:`J` before the first step and after each of the T = ``n_iter_``
        steps (``"gd"``).
    path_ : ndarray of shape (T + 1, d + 1)
        The iterates :math:`(w, b)` of gradient descent, for plots (``"gd"``).

    Notes
    -----
    Gradient descent updates both parameters at once (the notes' ``temp0``,
    ``temp1``):

    .. math:: w \leftarrow w - \frac{\eta}{m} X^\top r, \qquad
              b \leftarrow b - \frac{\eta}{m} \mathbf 1^\top r, \qquad r = Xw + b - y.

    When :math:`X^\top X` is singular (duplicated columns, d > m) the normal
    equations have infinitely many solutions; the one of smallest norm is
    returned with a :class:`RankDeficientWarning`.
    See the chapter "Linear regression".

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0]]
    >>> model = LinearRegression().fit(X, [1.0, 3.0, 5.0])
    >>> model.coef_.round(6).tolist(), round(model.intercept_, 6)
    ([2.0], 1.0)
    """

    def __init__(self, solver: str = "normal", fit_intercept: bool = True,
                 learning_rate: float = 0.1, max_iter: int = 10000, tol: float = 1e-8):
        self.solver = solver
        self.fit_intercept = fit_intercept
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol

    def fit(self, X: Any, y: Any) -> "LinearRegression":
        """Fit the model.

        Parameters
        ----------
        X : array-like of shape (m, d)
        y : array-like of shape (m,)

        Returns
        -------
        self
        """
        if self.solver not in ("normal", "gd"):
            raise ValueError(f"solver must be 'normal' or 'gd'; got {self.solver!r}")
        # every parameter is checked, also those the chosen solver does not use
        check_scalar(self.learning_rate, "learning_rate", min_val=0.0, include_min=False)
        _check_iter_params(self.max_iter, self.tol)
        X, y = self._validate_fit(X, y)
        for name in ("n_iter_", "loss_history_", "path_", "rank_"):   # from an earlier fit
            self.__dict__.pop(name, None)
        if self.solver == "normal":
            return self._fit_normal(X, y)
        return self._fit_gd(X, y)

    def _fit_normal(self, X: np.ndarray, y: np.ndarray) -> "LinearRegression":
        Xc, yc, X_mean, y_mean = _center(X, y, self.fit_intercept)
        self.coef_, self.rank_ = _least_squares(Xc, yc)
        if self.rank_ < X.shape[1]:
            warnings.warn(
                f"X^T X is singular (rank {self.rank_} < {X.shape[1]} features, after "
                "centring): the normal equations have many solutions; returning the "
                "one of minimum norm",
                RankDeficientWarning, stacklevel=3,
            )
        self._set_intercept(X_mean, y_mean)
        return self

    def _fit_gd(self, X: np.ndarray, y: np.ndarray) -> "LinearRegression":
        m, d = X.shape
        eta = float(self.learning_rate)
        w, b = np.zeros(d), 0.0
        r = -y                                       # residual Xw + b - y, shape (m,)
        losses = [float(r @ r) / (2 * m)]
        path = [np.append(w, b)]
        limit = 1e100 * (losses[0] + 1.0)            # far beyond any converging run
        converged = False
        n_iter = 0
        # a feature on a scale s < 1 has its gradient shrunk by s: compare it with tol * s
        scale = _feature_spread(X, self.fit_intercept)  # (d,)
        stop_w = self.tol * np.where(scale > 0, np.minimum(scale, 1.0), 1.0)
        for n_iter in range(1, self.max_iter + 1):
            grad_w = X.T @ r / m                     # (d,) = (d, m) @ (m,)
            grad_b = float(r.sum()) / m if self.fit_intercept else 0.0
            if (np.abs(grad_w) <= stop_w).all() and abs(grad_b) <= self.tol:
                n_iter -= 1
                converged = True
                break
            w = w - eta * grad_w                     # simultaneous update of (w, b)
            b = b - eta * grad_b
            r = X @ w + b - y
            loss = float(r @ r) / (2 * m)
            if not loss <= limit:                    # also catches inf and NaN
                raise ValueError(
                    f"gradient descent diverged (loss {loss:.3g} after {n_iter} steps); "
                    f"learning_rate={eta} is too large for this X (try a smaller one, or "
                    "standardise the features)"
                )
            losses.append(loss)
            path.append(np.append(w, b))
        if not converged:
            warnings.warn(
                f"gradient descent reached max_iter={self.max_iter} before the gradient "
                f"fell below tol={self.tol} (below tol * s_j for a feature j of spread "
                "s_j < 1); increase max_iter or learning_rate, or standardise the features",
                ConvergenceWarning, stacklevel=3,
            )
        self.coef_, self.intercept_ = w, float(b)
        self.n_iter_ = n_iter
        self.loss_history_ = np.array(losses)
        self.path_ = np.array(path)
        return self


# ---------------------------------------------------------------------------
# Least absolute deviations (Laplacian noise)
# ---------------------------------------------------------------------------


def _weighted_median_step(r: np.ndarray, u: np.ndarray) -> tuple[float, int]:
    """Minimise ``sum_i |r_i - t u_i|`` over t; return t and the point whose residual hits 0."""
    nz = np.flatnonzero(u)
    t_break = r[nz] / u[nz]                       # breakpoints of the piecewise-linear sum
    weight = np.abs(u[nz])
    order = np.argsort(t_break, kind="stable")
    cum = np.cumsum(weight[order])
    k = int(np.searchsorted(cum, 0.5 * cum[-1]))  # first breakpoint past half the weight
    return float(t_break[order[k]]), int(nz[order[k]])


def _lad_vertex_descent(A: np.ndarray, y: np.ndarray, beta: np.ndarray,
                        max_steps: int) -> tuple[np.ndarray, int]:
    """Exact least absolute deviations by moving from vertex to vertex (a simplex method).

    A vertex is fixed by p points fitted exactly (the basis B). Moving along the
    edge that frees basis point k changes the objective at the rate
    ``1 - s g_k`` (s = +-1 the direction), with ``g = sign(r_N)^T A_N A_B^{-1}``;
    so the vertex is optimal when every ``|g_k| <= 1``. Otherwise the exact line
    search along that edge is a weighted median, and the point it stops at
    enters the basis.
    """
    m, p = A.shape
    r = y - A @ beta
    basis = np.argsort(np.abs(r), kind="stable")[:p]
    steps = 0
    for steps in range(max_steps + 1):
        A_B = A[basis]                                        # (p, p)
        if np.linalg.matrix_rank(A_B) < p:
            break
        beta = np.linalg.solve(A_B, y[basis])                  # the vertex
        r = y - A @ beta
        r[basis] = 0.0
        D = np.linalg.solve(A_B, np.eye(p))                    # columns: edge directions
        g = (np.sign(r) @ A) @ D                               # (p,)
        k = int(np.argmax(np.abs(g)))
        if abs(g[k]) <= 1.0 + 1e-10 or steps == max_steps:
            break
        u = A @ (np.sign(g[k]) * D[:, k])                      # residual change per unit step
        _, entering = _weighted_median_step(r, u)
        if entering in basis:                                  # degenerate: cannot improve
            break
        basis = basis.copy()
        basis[k] = entering
    return beta, steps


class LeastAbsoluteDeviation(_LinearPredictor):
    r"""Least absolute deviations: minimise :math:`\sum_i |y_i - x_i^\top w - b|`.

    The maximum-likelihood fit when the noise is Laplacian (as least squares
    is for Gaussian noise). A few steps of iteratively reweighted least
    squares (IRLS) get close to the optimum; an exact vertex-exchange (simplex)
    search on the linear program then finishes it.

    Parameters
    ----------
    fit_intercept : bool, default=True
    max_iter : int, default=30
        Most IRLS iterations (the warm start).
    tol : float, default=1e-6
        IRLS stops when the objective decreases by at most ``tol`` times itself.

    Attributes
    ----------
    coef_ : ndarray of shape (d,)
    intercept_ : float
    n_iter_ : int
        IRLS iterations.
    n_vertex_steps_ : int
        Vertex exchanges of the exact finish.
    objective_ : float
        :math:`\sum_i |y_i - x_i^\top w - b|` at the solution.

    Notes
    -----
    With :math:`r_i` the current residuals, one IRLS step solves the weighted
    least-squares problem :math:`\min \sum_i (y_i - x_i^\top w - b)^2 / |r_i|`,
    whose objective equals the absolute loss at the current point (weights
    are capped where :math:`|r_i|` is tiny). IRLS slows down near the optimum,
    where some residuals tend to zero; but a solution of the linear program
    fits p = d + 1 points exactly (p = d without intercept), so the search
    then moves between such vertices, each move lowering the objective, until
    no edge descends: that point is optimal, exactly.
    Both run on centred (with an intercept) and unit-scaled columns, mapped back
    at the end: the fit is affine-equivariant, and without the rescaling a
    column of size 1e14 beside the column of ones (or of size 1e-16) would fall
    below the rank tolerance of the least-squares solver and be dropped.
    See the chapter "Linear regression".

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [3.0], [4.0]]
    >>> y = [0.0, 1.0, 2.0, 3.0, 40.0]        # one gross outlier
    >>> model = LeastAbsoluteDeviation().fit(X, y)
    >>> round(float(model.coef_[0]), 6), round(model.intercept_, 6)
    (1.0, 0.0)
    """

    def __init__(self, fit_intercept: bool = True, max_iter: int = 30, tol: float = 1e-6):
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol

    def fit(self, X: Any, y: Any) -> "LeastAbsoluteDeviation":
        """Fit the model to ``X`` of shape (m, d) and ``y`` of shape (m,); return ``self``."""
        _check_iter_params(self.max_iter, self.tol)
        X, y = self._validate_fit(X, y)
        # The least-absolute-deviation fit is affine-equivariant, so it is computed
        # on centred (with an intercept) and unit-scaled columns and mapped back.
        # Without this, a column of size 1e14 next to the column of ones (or one
        # of size 1e-16) falls below the rank tolerance of the SVD and is dropped.
        X_mean = X.mean(axis=0) if self.fit_intercept else np.zeros(X.shape[1])
        Xc = X - X_mean
        scale = _feature_spread(X, self.fit_intercept)  # (d,) std, or RMS without intercept
        scale = np.where(scale > 0, scale, 1.0)
        Xs = Xc / scale
        A = np.hstack([Xs, np.ones((X.shape[0], 1))]) if self.fit_intercept else Xs  # (m, p)
        beta, _ = _least_squares(A, y)
        r = y - A @ beta
        obj = float(np.abs(r).sum())
        eps = 1e-8 * max(float(np.abs(y).max()), 1.0)     # weight cap for zero residuals
        n_iter = 0
        for n_iter in range(1, self.max_iter + 1):
            sw = 1.0 / np.sqrt(np.maximum(np.abs(r), eps))   # sqrt of the weights 1/|r_i|
            beta_new, _ = _least_squares(A * sw[:, None], y * sw)
            r_new = y - A @ beta_new
            obj_new = float(np.abs(r_new).sum())
            if obj_new > obj:
                break
            done = obj - obj_new <= self.tol * obj
            beta, r, obj = beta_new, r_new, obj_new
            if done:
                break
        steps = 0
        if A.shape[0] >= A.shape[1]:
            vertex, steps = _lad_vertex_descent(A, y, beta, max_steps=10 * A.shape[0])
            obj_v = float(np.abs(y - A @ vertex).sum())
            if obj_v <= obj:
                beta, obj = vertex, obj_v
        if self.fit_intercept:
            self.coef_ = beta[:-1] / scale
            self.intercept_ = float(beta[-1] - X_mean @ self.coef_)
        else:
            self.coef_, self.intercept_ = beta / scale, 0.0
        self.n_iter_ = n_iter
        self.n_vertex_steps_ = steps
        self.objective_ = obj
        return self


# ---------------------------------------------------------------------------
# Ridge
# ---------------------------------------------------------------------------


class Ridge(_LinearPredictor):
    r"""Ridge (Tikhonov) regression: minimise :math:`\|y - Xw - b\|^2 + \alpha\|w\|^2`.

    Parameters
    ----------
    alpha : float, default=1.0
        Penalty strength, finite and >= 0. The intercept is not penalised.
    fit_intercept : bool, default=True

    Attributes
    ----------
    coef_ : ndarray of shape (d,)
    intercept_ : float
    n_features_in_ : int

    Notes
    -----
    After centring X and y, the solution is
    :math:`w = (X^\top X + \alpha I)^{-1} X^\top y`, and
    :math:`b = \bar y - \bar x^\top w`. It is computed as the ordinary least
    squares solution of the stacked system

    .. math:: \begin{bmatrix} X \\ \sqrt{\alpha} I \end{bmatrix} w \approx
              \begin{bmatrix} y \\ 0 \end{bmatrix},

    whose normal equations are exactly the ridge equations; solving it by SVD
    never squares the condition number of X. This is the objective of
    scikit-learn's ``Ridge``. See the chapter "Regularisation".

    Examples
    --------
    >>> model = Ridge(alpha=1.0).fit([[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0])
    >>> round(float(model.coef_[0]), 6)   # 2 / (2 + 1)
    0.666667
    """

    def __init__(self, alpha: float = 1.0, fit_intercept: bool = True):
        self.alpha = alpha
        self.fit_intercept = fit_intercept

    def fit(self, X: Any, y: Any) -> "Ridge":
        """Fit the model to ``X`` of shape (m, d) and ``y`` of shape (m,); return ``self``."""
        check_scalar(self.alpha, "alpha", min_val=0.0)
        X, y = self._validate_fit(X, y)
        Xc, yc, X_mean, y_mean = _center(X, y, self.fit_intercept)
        d = X.shape[1]
        A = np.vstack([Xc, np.sqrt(self.alpha) * np.eye(d)])   # (m + d, d)
        rhs = np.concatenate([yc, np.zeros(d)])               # (m + d,)
        self.coef_, rank = _least_squares(A, rhs)
        if rank < d:
            warnings.warn(
                "alpha = 0 and X^T X is singular: returning the minimum-norm solution",
                RankDeficientWarning, stacklevel=2,
            )
        self._set_intercept(X_mean, y_mean)
        return self


# ---------------------------------------------------------------------------
# LASSO and elastic net by coordinate descent
# ---------------------------------------------------------------------------


def _enet_duality_gap(w, q, c, yy, l1, l2):
    """Duality gap of the m-scaled elastic net, from Gram quantities only.

    ``q = G w`` and ``c = X^T y`` (centred), ``yy = y^T y``; the primal is
    ``0.5 ||y - Xw||^2 + l1 ||w||_1 + 0.5 l2 ||w||^2``. Same formula as
    scikit-learn's ``enet_coordinate_descent_gram``.
    """
    wc = float(w @ c)
    R_norm2 = yy - 2.0 * wc + float(w @ q)           # ||y - Xw||^2
    if l1 == 0.0:
        XtR2 = float((c - q) @ (c - q))              # ||X^T R||^2
        if l2 == 0.0:                                # least squares: no dual, use the gradient
            return XtR2
        # ridge: dual point R itself (scikit-learn's "formulation B")
        return R_norm2 + 0.5 * l2 * float(w @ w) - (yy - wc) + XtR2 / (2.0 * l2)
    XtA = c - q - l2 * w                             # X^T R - l2 w, shape (d,)
    dual_norm = float(np.abs(XtA).max()) if XtA.size else 0.0
    if dual_norm > l1:
        const = l1 / dual_norm
        gap = 0.5 * R_norm2 * (1.0 + const * const)
    else:
        const = 1.0
        gap = R_norm2
    w_norm2 = float(w @ w)
    gap += l1 * float(np.abs(w).sum()) - const * (yy - wc) + 0.5 * l2 * (1.0 + const * const) * w_norm2
    return gap


def _enet_cd_gram(G, c, yy, l1, l2, w, max_iter, tol):
    r"""Cyclic coordinate descent for the elastic net on the Gram matrix.

    Minimises :math:`\tfrac12 w^\top G w - c^\top w + l_1\|w\|_1 + \tfrac{l_2}{2}\|w\|^2`
    (which is :math:`\tfrac12\|y - Xw\|^2 + \dots` up to a constant) with
    :math:`G = X^\top X` of shape (d, d) and :math:`c = X^\top y` of shape (d,).
    ``q = G w`` is kept up to date, so one coordinate update costs O(d).
    Stops when the duality gap is at most ``tol * yy``. Returns (w, n_iter, gap).
    """
    d = G.shape[0]
    q = G @ w                                        # (d,), kept equal to G w
    g_diag = np.diag(G).tolist()
    denom = [g + l2 for g in g_diag]
    active = [j for j in range(d) if denom[j] > 0.0]  # a zero column never moves
    rows = list(G)                                   # row views; G symmetric: row j = column j
    c_list = c.tolist()
    w_list = w.tolist()                              # Python floats: cheap scalar arithmetic
    target = tol * yy
    gap = np.inf
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        for j in active:
            wj = w_list[j]
            # rho = c_j - sum_{k != j} G_jk w_k  (the partial residual correlation)
            rho = c_list[j] - q.item(j) + g_diag[j] * wj
            if rho > l1:
                new = (rho - l1) / denom[j]
            elif rho < -l1:
                new = (rho + l1) / denom[j]
            else:
                new = 0.0
            if new != wj:
                q += (new - wj) * rows[j]            # O(d) update of q = G w
                w_list[j] = new
        w = np.array(w_list)
        gap = _enet_duality_gap(w, q, c, yy, l1, l2)
        if gap <= target:
            break
    return w, n_iter, gap


class ElasticNet(_LinearPredictor):
    r"""Elastic net by coordinate descent with soft thresholding.

    Minimises scikit-learn's objective

    .. math:: \frac{1}{2m}\|y - Xw - b\|^2 + \alpha\rho\|w\|_1
              + \frac{\alpha(1 - \rho)}{2}\|w\|_2^2,

    with :math:`\rho` = ``l1_ratio``; the intercept is not penalised.

    Parameters
    ----------
    alpha : float, default=1.0
        Overall penalty strength, finite and >= 0.
    l1_ratio : float, default=0.5
        Share :math:`\rho \in [0, 1]` of the L1 term (1 gives the LASSO, 0 ridge).
    fit_intercept : bool, default=True
    max_iter : int, default=1000
        Most sweeps over the coordinates.
    tol : float, default=1e-4
        Stop when the duality gap of the m-scaled problem is at most
        ``tol * ||y - ybar||^2`` (scikit-learn's criterion).

    Attributes
    ----------
    coef_ : ndarray of shape (d,)
    intercept_ : float
    n_iter_ : int
        Sweeps over the coordinates.
    dual_gap_ : float
        Duality gap at the end, for the (1/(2m))-scaled objective.

    Notes
    -----
    Coordinate descent minimises over one :math:`w_j` at a time with the
    others fixed. For the centred problem with :math:`G = X^\top X`,
    :math:`c = X^\top y`, the minimiser is

    .. math:: w_j = \frac{S_{m\alpha\rho}\big(c_j - \sum_{k\ne j} G_{jk} w_k\big)}
                         {G_{jj} + m\alpha(1-\rho)},

    with :math:`S` the soft threshold (:func:`soft_threshold`). G and c are
    computed once, so each update costs O(d) instead of O(md).
    See the chapter "Regularisation".
    """

    def __init__(self, alpha: float = 1.0, l1_ratio: float = 0.5, fit_intercept: bool = True,
                 max_iter: int = 1000, tol: float = 1e-4):
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol

    def _get_l1_ratio(self) -> float:
        return self.l1_ratio

    def fit(self, X: Any, y: Any) -> "ElasticNet":
        """Fit the model to ``X`` of shape (m, d) and ``y`` of shape (m,); return ``self``."""
        check_scalar(self.alpha, "alpha", min_val=0.0)
        l1_ratio = check_scalar(self._get_l1_ratio(), "l1_ratio", min_val=0.0, max_val=1.0)
        _check_iter_params(self.max_iter, self.tol)
        X, y = self._validate_fit(X, y)
        # X near the float64 maximum: fit on X / s (a power of two, so exact) with the
        # penalties rescaled to match, w = w_s / s; s = 1 for all other data (a tiny X
        # needs no rescaling: X^T X underflows only where the penalty wins anyway)
        s = max(pow2_scale(X), 1.0)
        if s != 1.0:
            X = X / s
        Xc, yc, X_mean, y_mean = _center(X, y, self.fit_intercept)
        m = X.shape[0]
        G = Xc.T @ Xc                                  # (d, d)
        c = Xc.T @ yc                                  # (d,)
        l1 = self.alpha * l1_ratio * m / s             # alpha * l1 * |w| = (alpha * l1 / s) |w_s|
        l2 = self.alpha * (1.0 - l1_ratio) * m / s / s
        w, n_iter, gap = _enet_cd_gram(G, c, float(yc @ yc), l1, l2, np.zeros(X.shape[1]),
                                       self.max_iter, self.tol)
        if n_iter == self.max_iter and gap > self.tol * float(yc @ yc):
            warnings.warn(
                f"coordinate descent reached max_iter={self.max_iter} with duality gap "
                f"{gap / m:.3g} > tol; increase max_iter",
                ConvergenceWarning, stacklevel=2,
            )
        self.coef_ = w
        self.n_iter_ = n_iter
        self.dual_gap_ = gap / m
        self._set_intercept(X_mean, y_mean)
        if s != 1.0:
            self.coef_ = w / s
        return self


class Lasso(ElasticNet):
    r"""LASSO by coordinate descent: minimise :math:`\frac{1}{2m}\|y - Xw - b\|^2 + \alpha\|w\|_1`.

    Parameters
    ----------
    alpha : float, default=1.0
        Penalty strength, finite and >= 0. The intercept is not penalised.
    fit_intercept : bool, default=True
    max_iter : int, default=1000
    tol : float, default=1e-4
        See :class:`ElasticNet`.

    Attributes
    ----------
    coef_ : ndarray of shape (d,)
        Many entries are exactly zero when ``alpha`` is large enough.
    intercept_ : float
    n_iter_ : int
    dual_gap_ : float

    Notes
    -----
    The elastic net with ``l1_ratio=1``; the coordinate update is a soft
    threshold, :math:`w_j = S_{m\alpha}(c_j - \sum_{k\ne j}G_{jk}w_k)/G_{jj}`.
    See the chapter "Regularisation".

    Examples
    --------
    >>> X = [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]]
    >>> y = [2.0, 0.1, -2.0, -0.1]
    >>> Lasso(alpha=0.2).fit(X, y).coef_.round(6).tolist()   # the weak feature is cut
    [1.6, 0.0]
    """

    def __init__(self, alpha: float = 1.0, fit_intercept: bool = True,
                 max_iter: int = 1000, tol: float = 1e-4):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol

    def _get_l1_ratio(self) -> float:
        return 1.0


def lasso_path(X: Any, y: Any, alphas: Any, *, l1_ratio: float = 1.0,
               fit_intercept: bool = True, max_iter: int = 1000,
               tol: float = 1e-6) -> np.ndarray:
    r"""Coefficients of the LASSO (or elastic net) for each penalty in ``alphas``.

    Parameters
    ----------
    X : array-like of shape (m, d)
    y : array-like of shape (m,)
    alphas : array-like of shape (n_alphas,)
        Penalty strengths, >= 0, in any order.
    l1_ratio : float, default=1.0
        1 for the LASSO; see :class:`ElasticNet`.
    fit_intercept : bool, default=True
    max_iter, tol :
        As in :class:`ElasticNet`, per value of alpha.

    Returns
    -------
    coefs : ndarray of shape (n_alphas, d)
        Row k holds :math:`w(\alpha_k)`.

    Notes
    -----
    The Gram matrix is computed once, and the alphas are visited from the
    largest to the smallest, each run starting from the previous solution
    (a warm start), which is how coefficient-path plots are drawn cheaply.
    See the chapter "Regularisation".
    """
    X, y = check_X_y(X, y, y_numeric=True)
    alphas = check_array(alphas, "alphas", ensure_2d=False)
    if (alphas < 0).any():
        raise ValueError(f"alphas must be >= 0; got a minimum of {alphas.min():g}")
    check_scalar(l1_ratio, "l1_ratio", min_val=0.0, max_val=1.0)
    check_bool(fit_intercept, "fit_intercept")
    _check_iter_params(max_iter, tol)
    Xc, yc, _, _ = _center(X, y, fit_intercept)
    m, d = X.shape
    G, c, yy = Xc.T @ Xc, Xc.T @ yc, float(yc @ yc)
    coefs = np.empty((alphas.shape[0], d))
    w = np.zeros(d)
    for k in np.argsort(-alphas, kind="stable"):
        w, n_iter, gap = _enet_cd_gram(G, c, yy, alphas[k] * l1_ratio * m,
                                       alphas[k] * (1.0 - l1_ratio) * m, w, max_iter, tol)
        if n_iter == max_iter and gap > tol * yy:
            warnings.warn(f"coordinate descent did not converge for alpha={alphas[k]:g}",
                          ConvergenceWarning, stacklevel=2)
        coefs[k] = w
    return coefs


# ---------------------------------------------------------------------------
# Logistic regression (chapter "Logistic regression")
# ---------------------------------------------------------------------------

from ._validation import (  # noqa: E402  (the classification half of the module)
    check_classification_targets,
    check_probabilities,
    check_random_state,
)
from .base import ClassifierMixin  # noqa: E402

__all__ += [
    "SeparableDataWarning",
    "QuasiSeparableDataWarning",
    "expit",
    "logit",
    "log_loss_terms",
    "logistic_objective",
    "LogisticRegression",
]


def logit(p: Any) -> np.ndarray:
    r"""The log-odds :math:`\operatorname{logit}(p) = \log \dfrac{p}{1 - p}`, the inverse of :func:`expit`.

    ``logit(0) = -inf`` and ``logit(1) = +inf`` are returned without a warning.

    Examples
    --------
    >>> logit(np.array([0.5, 0.75])).round(4)
    array([0.    , 1.0986])
    """
    p = check_probabilities(p, "p")
    with np.errstate(divide="ignore"):          # the limits 0 and 1 are meant as +-inf
        return np.log(p) - np.log1p(-p)


def log_loss_terms(y: Any, z: Any) -> np.ndarray:
    r"""Per-sample negative log-likelihood of logistic regression, computed stably.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels in {0, 1}.
    z : array-like of shape (n_samples,)
        Linear scores :math:`z_i = w^\top x_i + b`.

    Returns
    -------
    ndarray of shape (n_samples,)
        :math:`\ell_i = \log(1 + e^{z_i}) - y_i z_i`.

    Notes
    -----
    :math:`-[y \log \sigma(z) + (1 - y) \log(1 - \sigma(z))] = \log(1 + e^{z}) - y z`.
    For :math:`y \in \{0, 1\}` this is :math:`\log(1 + e^{-t z})` with
    :math:`t = 2y - 1 \in \{-1, +1\}`, computed as ``np.logaddexp(0, -t * z)``:
    it never overflows (a naive ``np.log(1 + np.exp(z))`` returns ``inf`` for
    :math:`z > 709`) and, unlike :math:`\log(1 + e^{z}) - z`, it does not
    subtract two large numbers when a point is confidently right.

    Examples
    --------
    >>> log_loss_terms([1, 0], [1000.0, 1000.0])
    array([   0., 1000.])
    """
    y = np.asarray(y, dtype=np.float64)
    z = np.asarray(z, dtype=np.float64)
    return np.logaddexp(0.0, (1.0 - 2.0 * y) * z)


def logistic_objective(w: np.ndarray, X: np.ndarray, y: np.ndarray, alpha: float = 0.0,
                       fit_intercept: bool = True) -> tuple[float, np.ndarray, np.ndarray]:
    r"""Objective, gradient and Hessian of (regularised) logistic regression.

    Parameters
    ----------
    w : ndarray of shape (n_features + 1,) or (n_features,)
        Weights, followed by the intercept :math:`b` when ``fit_intercept``.
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        Labels in {0, 1}.
    alpha : float
        L2 strength :math:`\alpha = 1 / (C m)` (0 for no penalty).
    fit_intercept : bool
        Whether the last entry of ``w`` is an (unpenalised) intercept.

    Returns
    -------
    f : float
        :math:`f(w) = \frac1m \sum_i [\log(1 + e^{z_i}) - y_i z_i] + \frac{\alpha}{2}\|w\|^2`.
    grad : ndarray of shape (p,)
        :math:`\nabla f = \frac1m \tilde X^\top (\sigma(z) - y) + \alpha w`.
    hess : ndarray of shape (p, p)
        :math:`\nabla^2 f = \frac1m \tilde X^\top S \tilde X + \alpha I`, with
        :math:`S = \operatorname{diag}(\sigma(z_i)(1 - \sigma(z_i)))`.

    Notes
    -----
    :math:`\tilde X` is ``X`` with a column of ones appended when
    ``fit_intercept``; the penalty and the :math:`\alpha I` term skip the
    intercept; :math:`m` is the number of samples. Minimising :math:`f` with
    :math:`\alpha = 1/(Cm)` is the same as minimising scikit-learn's
    :math:`\frac12\|w\|^2 + C\sum_i \ell_i` (divide by :math:`Cm`).

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]]); y = np.array([0.0, 1.0, 0.0, 1.0])
    >>> f, g, H = logistic_objective(np.zeros(2), X, y)
    >>> round(f, 6), g.round(3).tolist(), H.round(4).tolist()
    (0.693147, [-0.25, 0.0], [[0.875, 0.375], [0.375, 0.25]])
    """
    check_bool(fit_intercept, "fit_intercept")
    coef, b = (w[:-1], w[-1]) if fit_intercept else (w, 0.0)
    n = X.shape[0]
    z = X @ coef + b                                                  # (n,)
    p = expit(z)                                                      # (n,)
    f = float(np.mean(log_loss_terms(y, z)) + 0.5 * alpha * (coef @ coef))
    r = (p - y) / n                                                   # (n,)
    s = p * (1.0 - p) / n                                             # (n,) diagonal of S / n
    g_coef = X.T @ r + alpha * coef                                   # (d,)
    Xs = X * s[:, None]                                               # (n, d)
    H_coef = X.T @ Xs                                                 # (d, d)
    H_coef[np.diag_indices_from(H_coef)] += alpha
    if not fit_intercept:
        return f, g_coef, H_coef
    h_cb = Xs.sum(axis=0)                                             # (d,)  d^2 f / dw db
    grad = np.append(g_coef, r.sum())
    hess = np.empty((coef.shape[0] + 1, coef.shape[0] + 1))
    hess[:-1, :-1] = H_coef
    hess[:-1, -1] = hess[-1, :-1] = h_cb
    hess[-1, -1] = s.sum()
    return f, grad, hess


def _newton_direction(H: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Solve H d = -g by Cholesky; if H is (numerically) singular, add a small ridge."""
    scale = max(np.trace(H) / H.shape[0], np.finfo(float).tiny)
    jitter = 0.0
    for _ in range(20):
        try:
            L = np.linalg.cholesky(H + jitter * np.eye(H.shape[0]))  # H = L L^T
        except np.linalg.LinAlgError:
            jitter = max(10.0 * jitter, 1e-12 * scale)
            continue
        v = np.linalg.solve(L, -g)                                    # L v = -g
        return np.linalg.solve(L.T, v)                                # L^T d = v
    return -g / scale                                                 # fall back to a gradient step


class LogisticRegression(ClassifierMixin, BaseEstimator):
    r"""Binary logistic regression fitted by gradient descent, SGD or Newton's method.

    Parameters
    ----------
    solver : {"newton", "gd", "sgd"}, default="newton"
        ``"newton"``: Newton's method (IRLS) with a backtracking line search;
        ``"gd"``: full-batch gradient descent; ``"sgd"``: mini-batch stochastic
        gradient descent over shuffled epochs.
    penalty : {None, "l2"}, default=None
        ``"l2"`` adds :math:`\frac12\|w\|^2` to :math:`C` times the summed log-loss
        (scikit-learn's objective); the intercept is never penalised.
    C : float > 0, default=1.0
        Inverse regularisation strength (``np.inf`` is the same as ``penalty=None``).
    fit_intercept : bool, default=True
        Fit an intercept :math:`b`.
    learning_rate : float or "auto", default="auto"
        Step size of ``"gd"`` and initial step of ``"sgd"`` (divided by
        :math:`\sqrt{t}` in epoch :math:`t`). ``"auto"`` uses :math:`1/L`, with
        :math:`L = \|\tilde Z\|_2^2 / (4m) + \max_j \alpha_j` the Lipschitz constant of
        the gradient (:math:`Z` the standardised features, see Notes). Validated,
        but not used, by ``"newton"``.
    max_iter : int, default=100
        Iterations (``"newton"``, ``"gd"``) or epochs (``"sgd"``).
    tol : float, default=1e-6
        Stop when the largest absolute entry of the gradient of the mean
        objective (``"newton"``; for ``"gd"`` the gradient with respect to the
        standardised weights) is at most ``tol`` (scikit-learn's
        lbfgs uses the same test); for ``"sgd"``, when an epoch improves the
        objective by less than ``tol`` five times in a row.
    batch_size : int, default=32
        Mini-batch size of ``"sgd"`` (1 is the per-sample SGD of the notes).
    random_state : None, int or numpy Generator, default=None
        Shuffling of ``"sgd"``.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[1]`` is the positive class (:math:`y = 1`).
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    n_iter_ : int
        Iterations (epochs for ``"sgd"``) actually run.
    objective_path_ : list of float
        The mean objective after each iteration (starting at :math:`w = 0`).
    n_features_in_ : int

    Notes
    -----
    The model is :math:`P(y = 1 \mid x) = \sigma(w^\top x + b)`; ``fit``
    minimises

    .. math:: f(w, b) = \frac1m \sum_{i=1}^m \big[\log(1 + e^{z_i}) - y_i z_i\big]
              + \frac{1}{2Cm}\|w\|^2, \qquad z_i = w^\top x_i + b,

    (see :func:`logistic_objective`), which has the same minimiser as
    scikit-learn's :math:`\frac12\|w\|^2 + C \sum_i \ell_i`.

    ``"gd"`` and ``"sgd"`` run on standardised features
    :math:`z_j = (x_j - \mu_j) / s_j` (mean :math:`\mu_j` only with an intercept;
    :math:`s_j^2 = v_j + 4\alpha` with :math:`v_j` the mean square of the centred
    column and :math:`\alpha = 1/(Cm)` the penalty, so every coordinate has a
    curvature of about 1/4) and map the weights
    back, :math:`w_j = w_{z,j} / s_j`, :math:`b = b_z - \mu^\top w`. The objective
    is the same function (the penalty reads :math:`\sum_j w_{z,j}^2 / s_j^2`), but
    first-order steps no longer stall on un-centred (``X + 100``) or tiny
    (``X * 1e-6``) features, where the largest gradient entry would fall below
    ``tol`` long before the weights are found. Newton's method is invariant
    under this change of variables and runs on ``X`` itself.

    Without a penalty, when the classes are linearly separable no finite
    minimiser exists; the fit then stops once every training point is
    classified correctly with a mean log-loss below ``1e-8``, and warns
    (:class:`SeparableDataWarning`). Under quasi-complete separation (a
    hyperplane with every point on its own side *or on it*, points of both
    classes on it) the minimiser does not exist either; the fit then warns with
    :class:`QuasiSeparableDataWarning` when the fitted weights yield a
    certificate (a direction along which the loss never increases). Use
    ``penalty="l2"``.

    Only two classes are supported; for more, wrap the estimator in
    ``sklearn.multiclass.OneVsRestClassifier``. See the chapter "Logistic regression".

    Examples
    --------
    >>> from mlbook.datasets import load_watermelon
    >>> X, y = load_watermelon("3.0alpha", return_X_y=True)
    >>> clf = LogisticRegression().fit(X, y)
    >>> clf.coef_.shape, clf.intercept_.shape, clf.n_iter_ < 10
    ((1, 2), (1,), True)
    """

    _binary_only = True          # two classes only (scikit-learn tag multi_class=False)

    _SOLVERS = ("newton", "gd", "sgd")
    _SEPARABLE_LOSS = 1e-8

    def __init__(self, solver: str = "newton", penalty: str | None = None, C: float = 1.0,
                 fit_intercept: bool = True, learning_rate: float | str = "auto",
                 max_iter: int = 100, tol: float = 1e-6, batch_size: int = 32,
                 random_state: Any = None):
        self.solver = solver
        self.penalty = penalty
        self.C = C
        self.fit_intercept = fit_intercept
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.batch_size = batch_size
        self.random_state = random_state

    def _check_params(self, n: int) -> float:
        if self.solver not in self._SOLVERS:
            raise ValueError(f"solver must be one of {self._SOLVERS}; got {self.solver!r}")
        if self.penalty not in (None, "l2"):
            raise ValueError(f"penalty must be None or 'l2'; got {self.penalty!r}")
        check_scalar(self.C, "C", min_val=0.0, include_min=False, allow_inf=True)   # inf: no penalty
        check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=1)
        check_scalar(self.tol, "tol", min_val=0.0)
        check_scalar(self.batch_size, "batch_size", numbers.Integral, min_val=1)
        check_random_state(self.random_state)            # validated for every solver
        check_bool(self.fit_intercept, "fit_intercept")
        if not (isinstance(self.learning_rate, str) and self.learning_rate == "auto"):
            check_scalar(self.learning_rate, "learning_rate", min_val=0.0, include_min=False)
        if self.penalty is None or np.isinf(self.C):
            return 0.0
        return 1.0 / (self.C * n)

    def fit(self, X: Any, y: Any) -> "LogisticRegression":
        """Fit the weights by maximum (penalised) likelihood.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Exactly two distinct labels (any values; mapped through ``classes_``).

        Returns
        -------
        self

        Raises
        ------
        ValueError
            If ``y`` has one class, more than two, or looks continuous; if ``X``
            or ``y`` contain NaN or infinity, or their lengths differ.

        Warns
        -----
        SeparableDataWarning
            Without a penalty, when the fitted weights separate the training data.
        QuasiSeparableDataWarning
            Without a penalty, when the fitted weights reveal a quasi-complete
            separation (some points of both classes on the separating hyperplane).
        ConvergenceWarning
            When ``max_iter`` is reached before ``tol``.
        """
        X, y = check_X_y(X, y)
        alpha = self._check_params(X.shape[0])
        classes = check_classification_targets(y)        # not continuous, not a single class
        if classes.shape[0] > 2:
            raise ValueError(
                f"y has {classes.shape[0]} classes, but LogisticRegression is binary: Only "
                "binary classification is supported. For more "
                "classes use one-vs-rest: sklearn.multiclass.OneVsRestClassifier(LogisticRegression())"
            )
        self.classes_ = classes
        y01 = (y == self.classes_[1]).astype(np.float64)                # (n,)
        p = X.shape[1] + int(self.fit_intercept)
        w = np.zeros(p)
        if self.solver == "newton":                  # affine-invariant: runs on X itself
            w, self.n_iter_, path, converged = self._fit_newton(w, X, y01, alpha)
        else:
            # First-order methods stall on un-centred or badly scaled features (X + 100,
            # X * 1e-6): they run on rescaled columns Z = (X - mu) / sd, and the
            # weights are mapped back, w = w_z / sd, b = b_z - mu^T w. The objective is
            # the same function (the penalty ||w||^2 becomes sum_j (w_z,j / sd_j)^2).
            # sd_j^2 = var_j + 4 alpha makes the curvature of every coordinate, at most
            # var_j / 4 + alpha, about 1/4 (Jacobi preconditioning); without a penalty
            # it is the standard deviation.
            mu = X.mean(axis=0) if self.fit_intercept else np.zeros(X.shape[1])
            sd = np.sqrt(np.mean((X - mu) ** 2, axis=0) + 4.0 * alpha)   # (d,)
            sd = np.where(sd > 0, sd, 1.0)
            pen = 1.0 / sd**2                                             # penalty per w_z,j
            run = self._fit_gd if self.solver == "gd" else self._fit_sgd
            w, self.n_iter_, path, converged = run(w, (X - mu) / sd, y01, alpha, pen)
            w[: X.shape[1]] /= sd
            if self.fit_intercept:
                w[-1] -= mu @ w[: X.shape[1]]
        self.objective_path_ = path
        self.coef_ = w[: X.shape[1]].reshape(1, -1).copy()
        self.intercept_ = np.array([w[-1] if self.fit_intercept else 0.0])
        self.n_features_in_ = X.shape[1]
        if alpha == 0.0 and not self._separates(w, X, y01):
            self._warn_quasi_separation(w, X, y01)
        if alpha == 0.0 and self._separates(w, X, y01):
            warnings.warn(
                "the training data are linearly separable: the unpenalised likelihood has "
                "no maximum (the weights grow without bound). Returning the finite weights "
                f"reached after {self.n_iter_} iterations; use penalty='l2' for a unique "
                "solution.", SeparableDataWarning, stacklevel=2)
        elif not converged:
            warnings.warn(
                f"{self.solver} did not converge in max_iter={self.max_iter} iterations "
                f"(tol={self.tol}); increase max_iter or the learning rate",
                ConvergenceWarning, stacklevel=2)
        return self

    def _scores(self, w: np.ndarray, X: np.ndarray) -> np.ndarray:
        return X @ w[:-1] + w[-1] if self.fit_intercept else X @ w

    def _separates(self, w: np.ndarray, X: np.ndarray, y01: np.ndarray) -> bool:
        """True when w classifies every point strictly correctly: a certificate of separability."""
        return bool(np.all((2.0 * y01 - 1.0) * self._scores(w, X) > 0))

    def _quasi_separation_direction(self, w: np.ndarray, X: np.ndarray,
                                    y01: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        r"""A certificate of quasi-complete separation found from the fitted weights, or None.

        Returns ``(d, tied)``: a direction :math:`d` with :math:`d^\top \hat x_i = 0`
        on the tied points (boolean mask ``tied``, not empty) and
        :math:`t_i d^\top \hat x_i > 0` on all the others (:math:`t_i = 2y_i - 1`,
        at least one). Along :math:`w + c\,d` the loss of every untied point falls
        and that of every tied point stays put, so the unpenalised loss has no
        minimiser: the certificate is checked, not guessed.

        The candidate :math:`d` is a Newton step from the fitted weights (up to
        ten of them, with the Armijo line search). Where a finite minimiser
        exists the steps shrink to nothing and the search stops; under
        quasi-complete separation each step moves the separated points about one
        unit of score further out and leaves the tied ones nearly fixed. The
        tied set is read off the step (scores it changes by a relative
        ``eps``), and :math:`d` is the step projected onto the null space of the
        tied rows, which makes it exactly zero there.
        """
        t = 2.0 * y01 - 1.0
        Xh = np.column_stack([X, np.ones(X.shape[0])]) if self.fit_intercept else X
        row_norms = np.linalg.norm(Xh, axis=1)
        f, g, H = logistic_objective(w, X, y01, 0.0, self.fit_intercept)
        for _ in range(10):
            d = _newton_direction(H, g)
            moves = Xh @ d                                        # change of each score, (n,)
            if np.max(np.abs(moves)) < 1e-3:                      # converging to a finite minimiser
                return None
            a = t * moves / (np.linalg.norm(d) * np.maximum(row_norms, np.finfo(float).tiny))
            for eps in (1e-10, 1e-8, 1e-6, 1e-4, 1e-3, 1e-2):
                tied = np.abs(a) <= eps
                if tied.all() or not tied.any() or np.any(a[~tied] <= 0):
                    continue
                _, sv, Vt = np.linalg.svd(Xh[tied], full_matrices=False)
                V = Vt[sv > max(Xh.shape) * np.finfo(float).eps * sv[0]]
                dp = d - V.T @ (V @ d)                            # zero on the tied rows
                if np.linalg.norm(dp) <= 1e-8 * np.linalg.norm(d):
                    continue
                margin = t[~tied] * (Xh[~tied] @ dp)
                if np.all(margin > 1e-9 * np.linalg.norm(dp) * row_norms[~tied]):
                    return dp, tied
            step = 1.0                                            # Armijo, as in the Newton fit
            while True:
                w_new = w + step * d
                f_new = float(np.mean(log_loss_terms(y01, self._scores(w_new, X))))
                if f_new <= f + 1e-4 * step * (g @ d) or step < 1e-10:
                    break
                step *= 0.5
            w = w_new
            f, g, H = logistic_objective(w, X, y01, 0.0, self.fit_intercept)
        return None

    def _warn_quasi_separation(self, w: np.ndarray, X: np.ndarray, y01: np.ndarray) -> None:
        found = self._quasi_separation_direction(w, X, y01)
        if found is None:
            return
        _, tied = found
        warnings.warn(
            "the training data are separated, at least quasi-completely: a hyperplane puts "
            "every point on its own class's side or on the hyperplane itself, with "
            f"{int(tied.sum())} points on it (the others get probabilities tending to 0 or 1). "
            "The unpenalised likelihood has no maximum: the weights reached after "
            f"{self.n_iter_} iterations are not an estimate; use penalty='l2' for a unique "
            "solution.", QuasiSeparableDataWarning, stacklevel=3)

    def _stop_separable(self, w, X, y01, f) -> bool:
        return f < self._SEPARABLE_LOSS and self._separates(w, X, y01)

    def _fit_newton(self, w, X, y01, alpha):
        f, g, H = logistic_objective(w, X, y01, alpha, self.fit_intercept)
        path = [f]
        for it in range(1, self.max_iter + 1):
            d = _newton_direction(H, g)                     # solves H d = -g, no inverse
            slope = g @ d
            step = 1.0
            while True:                                     # backtracking (Armijo) line search
                w_new = w + step * d
                f_new = float(np.mean(log_loss_terms(y01, self._scores(w_new, X)))
                              + 0.5 * alpha * np.sum(w_new[: X.shape[1]] ** 2))
                if f_new <= f + 1e-4 * step * slope or step < 1e-10:
                    break
                step *= 0.5
            w = w_new
            f, g, H = logistic_objective(w, X, y01, alpha, self.fit_intercept)
            path.append(f)
            if np.max(np.abs(g)) <= self.tol or (alpha == 0.0 and self._stop_separable(w, X, y01, f)):
                return w, it, path, True
        return w, self.max_iter, path, False

    def _step_size(self, X: np.ndarray, alpha: float) -> float:
        if not (isinstance(self.learning_rate, str) and self.learning_rate == "auto"):
            return float(self.learning_rate)
        Xt = np.column_stack([X, np.ones(X.shape[0])]) if self.fit_intercept else X
        L = np.linalg.norm(Xt, 2) ** 2 / (4.0 * X.shape[0]) + np.max(alpha)  # Lipschitz const. of grad f
        return 1.0 / L

    def _gradient(self, w, X, y01, alpha):
        z = self._scores(w, X)
        r = (expit(z) - y01) / X.shape[0]                                  # (n,)
        g = X.T @ r + alpha * w[: X.shape[1]]
        f = float(np.mean(log_loss_terms(y01, z)) + 0.5 * np.sum(alpha * w[: X.shape[1]] ** 2))
        return f, (np.append(g, r.sum()) if self.fit_intercept else g)

    def _fit_gd(self, w, X, y01, alpha, pen):
        alpha_w = alpha * pen                  # (d,) penalty of each (standardised) weight
        eta = self._step_size(X, alpha_w)
        f, g = self._gradient(w, X, y01, alpha_w)
        path = [f]
        for it in range(1, self.max_iter + 1):
            w = w - eta * g
            f, g = self._gradient(w, X, y01, alpha_w)
            path.append(f)
            if np.max(np.abs(g)) <= self.tol or (alpha == 0.0 and self._stop_separable(w, X, y01, f)):
                return w, it, path, True
        return w, self.max_iter, path, False

    def _fit_sgd(self, w, X, y01, alpha, pen):
        rng = check_random_state(self.random_state)
        n, d = X.shape
        alpha_w = alpha * pen                  # (d,) penalty of each (standardised) weight
        eta0 = self._step_size(X, alpha_w)
        f, _ = self._gradient(w, X, y01, alpha_w)
        path, best, stall = [f], f, 0
        for epoch in range(1, self.max_iter + 1):
            eta = eta0 / np.sqrt(epoch)
            order = rng.permutation(n)
            for start in range(0, n, self.batch_size):           # a loop over mini-batches
                idx = order[start:start + self.batch_size]
                Xb = X[idx]                                       # (m, d)
                r = (expit(self._scores(w, Xb)) - y01[idx]) / idx.shape[0]   # (m,)
                g = Xb.T @ r + alpha_w * w[:d]
                w = w - eta * (np.append(g, r.sum()) if self.fit_intercept else g)
            f, _ = self._gradient(w, X, y01, alpha_w)
            path.append(f)
            if alpha == 0.0 and self._stop_separable(w, X, y01, f):
                return w, epoch, path, True
            stall = stall + 1 if f > best - self.tol else 0
            best = min(best, f)
            if stall >= 5:
                return w, epoch, path, True
        return w, self.max_iter, path, False

    def _validate(self, X: Any) -> np.ndarray:
        X = check_predict_X(self, X, "coef_")
        return X

    def decision_function(self, X: Any) -> np.ndarray:
        r"""Linear scores :math:`z = w^\top x + b` (the log-odds of ``classes_[1]``).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = self._validate(X)
        return X @ self.coef_[0] + self.intercept_[0]

    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities: column 1 is :math:`\\sigma(z)`, column 0 is :math:`1 - \\sigma(z)`.

        Returns
        -------
        ndarray of shape (n_samples, 2)
        """
        z = self.decision_function(X)
        return np.column_stack([expit(-z), expit(z)])

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where :math:`z > 0` (probability above 1/2), else ``classes_[0]``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        z = self.decision_function(X)
        return self.classes_[(z > 0).astype(int)]
