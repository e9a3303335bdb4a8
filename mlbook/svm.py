r"""Support vector machines: the SMO solver, ``SVC``, ``SVR`` and a primal solver.

One solver serves every model. It minimises the quadratic programme in the form
libsvm uses,

.. math::

    \min_{\boldsymbol\alpha}\ \tfrac12 \boldsymbol\alpha^\top Q \boldsymbol\alpha
    + \mathbf p^\top \boldsymbol\alpha
    \quad\text{s.t.}\quad \mathbf y^\top\boldsymbol\alpha = 0,\quad
    0 \le \alpha_i \le C_i,

with :math:`y_i \in \{-1, +1\}` and :math:`Q_{ij} = y_i y_j \kappa(\mathbf x_i, \mathbf x_j)`,
by sequential minimal optimisation (SMO, 序列最小最优化): each step changes
exactly two multipliers, the fewest that can move while keeping
:math:`\mathbf y^\top\boldsymbol\alpha = 0`, and solves that two-variable problem
in closed form. The soft-margin SVM dual is the case :math:`\mathbf p = -\mathbf 1`,
:math:`C_i = C`; support vector regression is the same problem on :math:`2m`
variables (see :class:`SVR`).

See the chapters "Soft margin, hinge loss and SMO" and "SVR and kernel methods"
of the book (Part V).
"""

from __future__ import annotations

import numbers
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ._validation import (
    check_bool,
    check_classification_targets,
    check_predict_X,
    check_random_state,
    check_sample_weight,
    check_scalar,
    check_X_y,
)
from .base import BaseEstimator, ClassifierMixin, RegressorMixin
from .exceptions import ConvergenceWarning
from ._math import pow2_scale
from .kernels import KERNELS, pairwise_kernels

__all__ = [
    "ConvergenceWarning",
    "SMOResult",
    "smo_solve",
    "svc_dual_objective",
    "svr_dual_objective",
    "SVC",
    "SVR",
    "LinearSVMPrimal",
]


# ============================================================================
# kernel columns, computed on demand and cached
# ============================================================================
class _KernelColumns:
    """Columns ``K[:, i]`` of the Gram matrix of the training samples, with an LRU cache.

    When the whole matrix fits in ``cache_size`` megabytes every column is
    kept once computed (the full matrix, filled lazily); otherwise the least
    recently used column is evicted. Named kernels compute one column in
    O(n d) from the training matrix and its precomputed squared norms; a
    callable kernel is evaluated on the whole matrix when it fits, else column
    by column.
    """

    def __init__(self, X: np.ndarray, kernel: Any, params: dict, cache_size: float):
        self.X = X
        n = X.shape[0]
        self.n = n
        self.kernel = kernel
        self.params = params
        cols = int(cache_size * 2**20 // (8 * max(n, 1)))
        self.capacity = max(2, min(n, cols))
        self.dense = self.capacity >= n                # the whole matrix fits: no eviction
        # one array per computed column (separate small arrays reuse freed memory,
        # which is much cheaper than first-touching one huge preallocated block)
        self.cols: list[np.ndarray | None] = [None] * n
        self.lru: OrderedDict[int, np.ndarray] = OrderedDict()
        self.n_computed = 0
        self.full: np.ndarray | None = None
        if callable(kernel):
            if self.capacity >= n:
                self.full = pairwise_kernels(X, X, kernel=kernel)
                self.diag = np.diag(self.full).copy()
            else:
                # the diagonal from diagonal blocks of at most capacity x capacity
                # entries (within the cache budget), not from n whole columns
                self.diag = np.empty(n)
                for s in range(0, n, self.capacity):
                    B = X[s : s + self.capacity]
                    self.diag[s : s + B.shape[0]] = np.diag(pairwise_kernels(B, B, kernel=kernel))
        else:
            # As in kernels.squared_euclidean_distances: the distance kernels see X
            # centred (a shift changes no distance, and ||x||^2 + ||z||^2 - 2 x.z
            # cancels catastrophically on data far from the origin); a power of two
            # s rescales X whose squares would overflow (s = 1 for ordinary data).
            Xw = X - X.mean(axis=0) if kernel in ("rbf", "laplacian") else X
            self.s = pow2_scale(Xw)
            self.Xw = Xw / self.s if self.s != 1.0 else Xw      # (n, d)
            self.sq = np.einsum("ij,ij->i", self.Xw, self.Xw)    # (n,) squared norms
            self.diag = self._diag_named()

    # -- the kernels, one column at a time ----------------------------------
    def _unscale(self, v: np.ndarray) -> np.ndarray:
        """Undo the scaling of a product of two rows: v * s * s (0 stays 0, overflow is inf)."""
        if self.s == 1.0:
            return v
        with np.errstate(over="ignore"):
            return (v * self.s) * self.s

    def _diag_named(self) -> np.ndarray:
        k, p = self.kernel, self.params
        if k in ("rbf", "laplacian"):
            return np.ones(self.n)
        sq = self._unscale(self.sq)
        if k == "linear":
            return sq.copy()
        if k == "poly":
            return (p["gamma"] * sq + p["coef0"]) ** p["degree"]
        if k == "sigmoid":
            return np.tanh(p["gamma"] * sq + p["coef0"])
        raise ValueError(f"kernel {k!r} is unknown")  # pragma: no cover

    def _named_column(self, i: int) -> np.ndarray:
        k, p = self.kernel, self.params
        dot = self.Xw @ self.Xw[i]                             # (n,)
        if k in ("linear", "poly", "sigmoid"):
            dot = self._unscale(dot)
        if k == "linear":
            return dot
        if k == "poly":
            return (p["gamma"] * dot + p["coef0"]) ** p["degree"]
        if k == "sigmoid":
            return np.tanh(p["gamma"] * dot + p["coef0"])
        d2 = np.maximum(self.sq + self.sq[i] - 2.0 * dot, 0.0)  # squared distances
        d2[i] = 0.0
        d2 = self._unscale(d2)
        if k == "rbf":
            return np.exp(-p["gamma"] * d2)
        return np.exp(-p["gamma"] * np.sqrt(d2))               # laplacian

    def _callable_column(self, i: int) -> np.ndarray:
        return pairwise_kernels(self.X, self.X[i : i + 1], kernel=self.kernel)[:, 0]

    def column(self, i: int) -> np.ndarray:
        """Return ``K[:, i]`` of shape (n,) (the cached array itself: do not modify)."""
        if self.full is not None:
            return self.full[:, i]
        if self.dense:                                         # every column fits
            c = self.cols[i]
            if c is None:
                c = self.cols[i] = self._compute(i)
                self.n_computed += 1
            return c
        c = self.lru.get(i)
        if c is not None:
            self.lru.move_to_end(i)
            return c
        if len(self.lru) >= self.capacity:
            self.lru.popitem(last=False)                       # evict the LRU column
        c = self.lru[i] = self._compute(i)
        self.n_computed += 1
        return c

    def _compute(self, i: int) -> np.ndarray:
        if callable(self.kernel):
            return self._callable_column(i)
        return self._named_column(i)


# ============================================================================
# the SMO solver
# ============================================================================
@dataclass
class SMOResult:
    """What :func:`smo_solve` returns.

    Attributes
    ----------
    alpha : ndarray of shape (n_vars,)
        The multipliers, each in :math:`[0, C_i]`.
    gradient : ndarray of shape (n_vars,)
        :math:`\\nabla = Q\\boldsymbol\\alpha + \\mathbf p` at the solution.
    intercept : float
        The bias :math:`b` of :math:`f(\\mathbf x) = \\sum_i \\alpha_i y_i \\kappa(\\mathbf x_i, \\mathbf x) + b`
        (libsvm's :math:`-\\rho`).
    objective : float
        :math:`\\tfrac12\\boldsymbol\\alpha^\\top Q\\boldsymbol\\alpha + \\mathbf p^\\top\\boldsymbol\\alpha`
        (the minimised form).
    n_iter : int
        Number of two-variable updates.
    gap : float
        :math:`m(\\boldsymbol\\alpha) - M(\\boldsymbol\\alpha)`, the maximal KKT violation at the end.
    converged : bool
    n_kernel_columns : int
        How many kernel columns were computed (cache misses).
    """

    alpha: np.ndarray
    gradient: np.ndarray
    intercept: float
    objective: float
    n_iter: int
    gap: float
    converged: bool
    n_kernel_columns: int


def _clip_bounds(a_i, a_j, s, C_i, C_j):
    r"""Bounds :math:`[L, H]` of :math:`\alpha_j` on the segment through (a_i, a_j).

    ``s = y_i y_j``. If the labels differ, :math:`\alpha_i - \alpha_j` is
    fixed and :math:`L = \max(0, \alpha_j - \alpha_i)`,
    :math:`H = \min(C_j, C_i + \alpha_j - \alpha_i)`; if they agree,
    :math:`\alpha_i + \alpha_j` is fixed and :math:`L = \max(0, \alpha_i + \alpha_j - C_i)`,
    :math:`H = \min(C_j, \alpha_i + \alpha_j)`. Works element-wise on arrays.
    """
    diff = np.where(s < 0, a_j - a_i, a_i + a_j)
    L = np.where(s < 0, np.maximum(0.0, diff), np.maximum(0.0, diff - C_i))
    H = np.where(s < 0, np.minimum(C_j, C_i + diff), np.minimum(C_j, diff))
    return L, H


def _intercept(alpha: np.ndarray, G: np.ndarray, y: np.ndarray, C: np.ndarray) -> float:
    r"""The bias from the KKT conditions (libsvm's ``calculate_rho``, negated).

    For a free multiplier (:math:`0 < \alpha_i < C_i`) the KKT conditions force
    :math:`b = -y_i\nabla_i`; the average over the free ones is used for
    stability. Without free multipliers :math:`b` is only known to lie in an
    interval, and its midpoint is taken.
    """
    yG = y * G
    free = (alpha > 0) & (alpha < C)
    if free.any():
        return float(-yG[free].mean())
    at_upper = alpha >= C
    # -yG bounds b from above on {y=+1, a=0} u {y=-1, a=C}, from below otherwise
    upper_side = np.where(at_upper, y < 0, y > 0)
    ub = np.min(yG[upper_side]) if upper_side.any() else np.inf
    lb = np.max(yG[~upper_side]) if (~upper_side).any() else -np.inf
    if not np.isfinite(ub):
        ub = lb
    if not np.isfinite(lb):
        lb = ub
    return float(-(ub + lb) / 2.0)


def smo_solve(
    kernel_column: Callable[[int], np.ndarray],
    kernel_diag: np.ndarray,
    y: np.ndarray,
    p: np.ndarray,
    C: np.ndarray,
    *,
    index: np.ndarray | None = None,
    tol: float = 1e-3,
    max_iter: int | None = None,
    selection: str = "wss2",
    tau: float = 1e-12,
    random_state: Any = 0,
) -> SMOResult:
    r"""Solve :math:`\min \tfrac12\boldsymbol\alpha^\top Q\boldsymbol\alpha + \mathbf p^\top\boldsymbol\alpha`
    s.t. :math:`\mathbf y^\top\boldsymbol\alpha = 0`, :math:`0 \le \alpha_i \le C_i` by SMO.

    Parameters
    ----------
    kernel_column : callable ``i -> ndarray of shape (n_samples,)``
        Column :math:`i` of the Gram matrix of the samples (cached by the caller).
    kernel_diag : ndarray of shape (n_samples,)
        :math:`\kappa(\mathbf x_i, \mathbf x_i)`.
    y : ndarray of shape (n_vars,)
        Signs :math:`\pm 1` of the variables.
    p : ndarray of shape (n_vars,)
        The linear term.
    C : ndarray of shape (n_vars,)
        Upper bounds :math:`C_i \ge 0` (a zero bound pins :math:`\alpha_i` at 0).
    index : ndarray of int of shape (n_vars,) or None
        Sample of each variable, so that
        :math:`Q_{st} = y_s y_t \kappa(\mathbf x_{\text{index}[s]}, \mathbf x_{\text{index}[t]})`;
        ``None`` means the identity (``n_vars == n_samples``). SVR uses
        ``index = [0..m-1, 0..m-1]``.
    tol : float, default 1e-3
        Stopping tolerance. ``"wss2"`` stops when
        :math:`m(\boldsymbol\alpha) - M(\boldsymbol\alpha) < \text{tol}`;
        ``"platt"`` treats a KKT condition as violated when it fails by more
        than ``tol`` and stops after a full pass without any change.
    max_iter : int or None
        Largest number of two-variable updates; ``None`` means
        :math:`\max(10^7, 100\,n)`, as libsvm. Reaching it issues a
        :class:`ConvergenceWarning`.
    selection : {"wss2", "platt"}, default "wss2"
        How the pair is chosen: the second-order working-set selection of
        Fan, Chen and Lin (2005), used by libsvm, or Platt's (1998) heuristics.
    tau : float, default 1e-12
        Replaces a non-positive curvature :math:`\eta` (a kernel that is not
        positive semi-definite), as in libsvm.
    random_state : int, Generator or None, default 0
        Only for ``"platt"``: where its fallback scans start.

    Returns
    -------
    SMOResult

    Notes
    -----
    **The two-variable step.** Fix all multipliers except :math:`\alpha_i, \alpha_j`.
    The constraint :math:`y_i\alpha_i + y_j\alpha_j = \text{const}` leaves one degree
    of freedom; along it the objective is a parabola with curvature
    :math:`\eta = K_{ii} + K_{jj} - 2K_{ij}`, which equals
    :math:`\|\phi(\mathbf x_i) - \phi(\mathbf x_j)\|^2 \ge 0` for a valid kernel.
    With :math:`E_t = f(\mathbf x_t) - y_t` the unconstrained minimiser is

    .. math:: \alpha_j^{\text{new,unc}} = \alpha_j + \frac{y_j (E_i - E_j)}{\eta},

    which is clipped to :math:`[L, H]`, the part of the segment inside the box:
    for :math:`y_i \ne y_j`, :math:`L = \max(0, \alpha_j - \alpha_i)`,
    :math:`H = \min(C, C + \alpha_j - \alpha_i)`; for :math:`y_i = y_j`,
    :math:`L = \max(0, \alpha_i + \alpha_j - C)`, :math:`H = \min(C, \alpha_i + \alpha_j)`.
    Then :math:`\alpha_i^{\text{new}} = \alpha_i + y_i y_j(\alpha_j - \alpha_j^{\text{new}})`.
    In the general form :math:`E_i - E_j = y_i\nabla_i - y_j\nabla_j` with the
    gradient :math:`\nabla = Q\boldsymbol\alpha + \mathbf p`, which the solver keeps
    up to date from the two kernel columns of the pair:
    :math:`\nabla \leftarrow \nabla + Q_{:i}\Delta\alpha_i + Q_{:j}\Delta\alpha_j`,
    :math:`O(n)` work per step.

    **Second-order selection ("wss2").** Let
    :math:`I_{\text{up}} = \{t : y_t = +1, \alpha_t < C_t\} \cup \{t : y_t = -1, \alpha_t > 0\}`
    and :math:`I_{\text{low}} = \{t : y_t = +1, \alpha_t > 0\} \cup \{t : y_t = -1, \alpha_t < C_t\}`.
    The KKT conditions hold exactly when
    :math:`m(\boldsymbol\alpha) = \max_{t \in I_{\text{up}}} -y_t\nabla_t \le
    M(\boldsymbol\alpha) = \min_{t \in I_{\text{low}}} -y_t\nabla_t`.
    Choose :math:`i = \arg\max_{t\in I_{\text{up}}} -y_t\nabla_t` and then

    .. math:: j = \arg\min_{t\in I_{\text{low}},\ b_{it} > 0} -\frac{b_{it}^2}{a_{it}},\quad
              b_{it} = -y_i\nabla_i + y_t\nabla_t,\quad a_{it} = K_{ii} + K_{tt} - 2K_{it}

    (:math:`a_{it}` raised to at least :math:`\tau`, which matters only when the
    kernel is not positive semi-definite and :math:`a_{it} \le 0`): the pair whose
    unclipped step decreases the objective most. Stop when :math:`m - M < \text{tol}`.

    **Platt's heuristics ("platt").** An outer loop alternates a pass over
    all multipliers with passes over the non-bound ones (:math:`0 < \alpha < C`)
    until a non-bound pass changes nothing, then makes a full pass again; the
    algorithm ends when a full pass changes nothing. Each multiplier
    :math:`\alpha_j` that violates its KKT condition by more than tol
    (:math:`r_j = y_j E_j < -\text{tol}` with :math:`\alpha_j < C`, or
    :math:`r_j > \text{tol}` with :math:`\alpha_j > 0`) is paired with the non-bound
    :math:`\alpha_i` that maximises :math:`|E_i - E_j|`, an estimate of the step
    length; if that makes no progress, the non-bound multipliers and then all of
    them are tried, from a random start. The threshold is updated after every
    step: with :math:`\Delta_t = \alpha_t^{\text{new}} - \alpha_t`,

    .. math:: b_1 = b - E_i - y_i\Delta_i K_{ii} - y_j\Delta_j K_{ij},\qquad
              b_2 = b - E_j - y_i\Delta_i K_{ij} - y_j\Delta_j K_{jj},

    :math:`b_1` is exact if :math:`\alpha_i^{\text{new}}` is free, :math:`b_2` if
    :math:`\alpha_j^{\text{new}}` is free, and their midpoint is used when both are
    at a bound. At the end both methods report the bias from the KKT conditions
    (see ``_intercept``).

    References: J. Platt, *Sequential minimal optimization*, 1998;
    R.-E. Fan, P.-H. Chen, C.-J. Lin, *Working set selection using second order
    information for training SVM*, JMLR 6, 2005.
    """
    y = np.asarray(y, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    C = np.asarray(C, dtype=np.float64)
    n = y.shape[0]
    if selection not in ("wss2", "platt"):
        raise ValueError(f"selection must be 'wss2' or 'platt'; got {selection!r}")
    if y.ndim != 1 or not np.all(np.abs(y) == 1):
        raise ValueError("y must be a 1-d array of signs -1 and +1 (a binary problem); "
                         f"got values {np.unique(y)[:5].tolist()}")
    if p.shape != (n,) or C.shape != (n,):
        raise ValueError(f"p and C must have shape ({n},) like y; got {p.shape} and {C.shape}")
    if not (np.all(np.isfinite(p)) and np.all(np.isfinite(C))) or np.any(C < 0):
        raise ValueError("C must be finite and >= 0 and p finite")
    check_scalar(tol, "tol", numbers.Real, min_val=0.0, include_min=False)
    if index is None:
        Kd = np.asarray(kernel_diag, dtype=np.float64)
        col = kernel_column
    else:
        index = np.asarray(index)
        Kd = np.asarray(kernel_diag, dtype=np.float64)[index]
        m_samples = Kd.shape[0] if index.shape[0] == 0 else int(index.max()) + 1
        reps, rest = divmod(index.shape[0], max(m_samples, 1))
        if rest == 0 and np.array_equal(index, np.tile(np.arange(m_samples), reps)):
            # SVR's [0..m-1, 0..m-1]: repeating the column is ~3x cheaper than indexing
            def col(t: int) -> np.ndarray:
                return np.concatenate((kernel_column(int(index[t])),) * reps)
        else:
            def col(t: int) -> np.ndarray:
                return kernel_column(int(index[t]))[index]
    if max_iter is None:
        max_iter = max(10_000_000, 100 * n)
    if selection == "wss2":
        alpha, G, n_iter, converged = _wss2(col, Kd, y, p, C, tol, max_iter, tau)
    else:
        # Platt's running threshold (the 5th value) is not the KKT bias computed below
        alpha, G, n_iter, converged, _ = _platt(col, Kd, y, p, C, tol, max_iter, tau,
                                                random_state)
    up = np.where(y > 0, alpha < C, alpha > 0)
    low = np.where(y > 0, alpha > 0, alpha < C)
    mG = -y * G
    gap = float(mG[up].max(initial=-np.inf) - mG[low].min(initial=np.inf))
    gap = max(gap, 0.0) if np.isfinite(gap) else 0.0
    if not converged:
        warnings.warn(
            f"SMO ({selection}) stopped at max_iter={max_iter} before reaching tol={tol}; "
            f"the KKT gap is {gap:.3g}. Increase max_iter or tol.",
            ConvergenceWarning,
            stacklevel=3,
        )
    objective = float(0.5 * alpha @ (G + p))   # 1/2 a'Qa + p'a with Qa = G - p
    n_cols = getattr(getattr(kernel_column, "__self__", None), "n_computed", -1)
    return SMOResult(alpha=alpha, gradient=G, intercept=_intercept(alpha, G, y, C),
                     objective=objective, n_iter=n_iter, gap=gap, converged=converged,
                     n_kernel_columns=n_cols)


def _two_variable_step(a_i: float, a_j: float, y_i: float, y_j: float, F_i: float,
                       F_j: float, eta: float, C_i: float, C_j: float,
                       tau: float) -> tuple[float, float]:
    """The clipped two-variable step of SMO on Python floats; returns (new a_i, new a_j).

    ``F_t = y_t * grad_t`` (``= E_t - b``), ``eta = K_ii + K_jj - 2 K_ij``.
    """
    if eta <= 0.0:                                   # not PSD along the segment: libsvm's tau
        eta = tau
    s = y_i * y_j
    a_j_new = a_j + y_j * (F_i - F_j) / eta          # unconstrained minimiser on the line
    if s < 0:                                        # a_i - a_j is fixed
        L = max(0.0, a_j - a_i)
        H = min(C_j, C_i + a_j - a_i)
    else:                                            # a_i + a_j is fixed
        L = max(0.0, a_i + a_j - C_i)
        H = min(C_j, a_i + a_j)
    a_j_new = min(max(a_j_new, L), H)                # clip to the box
    a_i_new = a_i + s * (a_j - a_j_new)              # keep y_i a_i + y_j a_j constant
    # Rounding in the last line can leave a multiplier a few ulps away from a
    # bound (1e-17 instead of 0); such a value would keep it "free" forever and
    # stall the solver, so values within 1e-12 C of a bound are put on it (libsvm
    # assigns the bound exactly for the same reason).
    return _snap1(a_i_new, C_i), _snap1(a_j_new, C_j)


def _snap1(a: float, C: float) -> float:
    tiny = 1e-12 * C
    return 0.0 if a <= tiny else (C if a >= C - tiny else a)


def _pair_update(a_i, a_j, y_i, y_j, F_i, F_j, K_ii, K_jj, K_ij, C_i, C_j, tau):
    """The clipped two-variable step; returns (new a_i, new a_j).

    ``F_t = y_t * grad_t = E_t - b``. For one pair (floats) it runs on Python
    floats (:func:`_two_variable_step`, much faster than NumPy on scalars);
    with arrays it tries many pairs at once (Platt's fallback scans).
    """
    if isinstance(a_i, float) and isinstance(a_j, float) and isinstance(K_ij, float):
        return _two_variable_step(a_i, a_j, float(y_i), float(y_j), float(F_i), float(F_j),
                                  float(K_ii + K_jj - 2.0 * K_ij), float(C_i), float(C_j), tau)
    eta = K_ii + K_jj - 2.0 * K_ij                       # curvature along the segment
    eta = np.where(eta > 0, eta, tau)
    s = y_i * y_j
    a_j_unc = a_j + y_j * (F_i - F_j) / eta              # F = y * grad = E - b
    L, H = _clip_bounds(a_i, a_j, s, C_i, C_j)
    a_j_new = np.clip(a_j_unc, L, H)
    a_i_new = a_i + s * (a_j - a_j_new)
    return _snap(a_i_new, C_i), _snap(a_j_new, C_j)


def _snap(a, C):
    tiny = 1e-12 * C
    return np.where(a <= tiny, 0.0, np.where(a >= C - tiny, C, a))


def _platt_threshold(b: float, E_i: float, E_j: float, y_i: float, y_j: float, d_i: float,
                     d_j: float, K_ii: float, K_ij: float, K_jj: float, a_i_new: float,
                     a_j_new: float, C_i: float, C_j: float) -> float:
    r"""Platt's threshold update after a step on the pair (i, j); returns the new b.

    ``E_t = f(x_t) - y_t`` before the step (with the old ``b``),
    ``d_t = alpha_t^new - alpha_t^old``. The candidates

    .. math:: b_1 = b - E_i - y_i d_i K_{ii} - y_j d_j K_{ij},\qquad
              b_2 = b - E_j - y_i d_i K_{ij} - y_j d_j K_{jj}

    put point i, respectively j, exactly on its margin, :math:`f(\mathbf x) = y`,
    under the new multipliers. The KKT conditions require that for a free
    multiplier, so ``b1`` is taken if :math:`\alpha_i^{\text{new}}` is free, else
    ``b2`` if :math:`\alpha_j^{\text{new}}` is; with both at a bound any value between
    them is consistent and Platt takes the midpoint.
    """
    b1 = b - E_i - y_i * d_i * K_ii - y_j * d_j * K_ij
    b2 = b - E_j - y_i * d_i * K_ij - y_j * d_j * K_jj
    if 0 < a_i_new < C_i:
        return b1
    if 0 < a_j_new < C_j:
        return b2
    return (b1 + b2) / 2.0


def _wss2(col, Kd, y, p, C, tol, max_iter, tau):
    """SMO with libsvm's second-order working-set selection; O(n) NumPy work per step."""
    n = y.shape[0]
    alpha = np.zeros(n)
    G = p.copy()                                   # gradient Q alpha + p at alpha = 0
    F = y * G                                      # F_t = y_t grad_t; -F_t is m/M's quantity
    up = np.where(y > 0, alpha < C, alpha > 0)     # I_up: alpha_t may move in the +y_t direction
    low = np.where(y > 0, alpha > 0, alpha < C)    # I_low: ... in the -y_t direction
    # additive masks: 0 inside the set, +inf outside, so a masked argmin is one add
    up_mask = np.where(up, 0.0, np.inf)
    low_mask = np.where(low, 0.0, -np.inf)
    low_f = low.astype(np.float64)
    yl, Cl, Kdl = y.tolist(), C.tolist(), Kd.tolist()
    n_iter = 0
    converged = False
    while n_iter < max_iter:
        i = int(np.argmin(F + up_mask))            # i = argmax_{I_up} -y_t grad_t
        Fi = float(F[i])
        Fmax_low = float(np.max(F + low_mask))     # -M(alpha)
        if not np.isfinite(Fi) or -Fi + Fmax_low < tol:   # m(alpha) - M(alpha) < tol
            converged = True
            break
        K_i = col(i)                               # K(x_i, x_t) for all t, (n,)
        b = F - Fi                                 # b_it = -y_i grad_i + y_t grad_t
        np.maximum(b, 0.0, out=b)                  # only b_it > 0 ...
        b *= low_f                                 # ... with t in I_low are candidates
        a = Kd + (Kdl[i] - 2.0 * K_i)              # a_it = K_ii + K_tt - 2 K_it
        np.maximum(a, tau, out=a)                  # tau where a_it <= 0 (non-PSD kernels)
        gain = b * b / a                           # minus the objective's decrease bound
        j = int(np.argmax(gain))
        if gain[j] <= 0.0:                         # no descent direction left
            converged = True
            break
        K_j = col(j)
        a_i_old, a_j_old = alpha[i], alpha[j]
        a_i_new, a_j_new = _pair_update(float(a_i_old), float(a_j_old), yl[i], yl[j], Fi,
                                        float(F[j]), Kdl[i], Kdl[j], float(K_i[j]),
                                        Cl[i], Cl[j], tau)
        d_i, d_j = a_i_new - a_i_old, a_j_new - a_j_old
        alpha[i], alpha[j] = a_i_new, a_j_new
        # grad += Q[:, i] d_i + Q[:, j] d_j with Q[:, t] = y * y_t * K[:, t], so
        # F = y * grad changes by y_i d_i K[:, i] + y_j d_j K[:, j]
        F += (yl[i] * d_i) * K_i
        F += (yl[j] * d_j) * K_j
        for t in (i, j):
            is_up = alpha[t] < Cl[t] if yl[t] > 0 else alpha[t] > 0
            is_low = alpha[t] > 0 if yl[t] > 0 else alpha[t] < Cl[t]
            up_mask[t] = 0.0 if is_up else np.inf
            low_mask[t] = 0.0 if is_low else -np.inf
            low_f[t] = 1.0 if is_low else 0.0
        n_iter += 1
    return alpha, y * F, n_iter, converged


def _platt(col, Kd, y, p, C, tol, max_iter, tau, random_state):
    """SMO with Platt's pair heuristics and threshold update (the notes' algorithm)."""
    rng = check_random_state(random_state)
    n = y.shape[0]
    alpha = np.zeros(n)
    G = p.copy()
    b = 0.0
    eps = 1e-12                                    # smallest change that counts as progress
    state = {"n_iter": 0, "b": b}

    def errors() -> np.ndarray:                    # E_t = f(x_t) - y_t in the general form
        return y * G + state["b"]

    def take_step(i: int, j: int, K_j: np.ndarray) -> bool:
        """Optimise the pair (i, j); K_j is column j. Returns whether anything moved."""
        if i == j:
            return False
        E = errors()
        a_i_new, a_j_new = _pair_update(float(alpha[i]), float(alpha[j]), y[i], y[j], E[i],
                                        E[j], Kd[i], Kd[j], float(K_j[i]), C[i], C[j], tau)
        if abs(a_j_new - alpha[j]) < eps * (a_j_new + alpha[j] + eps):
            return False
        d_i, d_j = a_i_new - alpha[i], a_j_new - alpha[j]
        K_i = col(i)
        state["b"] = _platt_threshold(state["b"], E[i], E[j], y[i], y[j], d_i, d_j, Kd[i],
                                      float(K_j[i]), Kd[j], a_i_new, a_j_new, C[i], C[j])
        alpha[i], alpha[j] = a_i_new, a_j_new
        G[:] += y * ((y[i] * d_i) * K_i + (y[j] * d_j) * K_j)
        state["n_iter"] += 1
        return True

    def candidates_moving(j: int, cands: np.ndarray, K_j: np.ndarray) -> np.ndarray:
        """Vectorised trial of take_step(i, j) for every i in cands: those that move."""
        E = errors()
        a_i_new, a_j_new = _pair_update(alpha[cands], alpha[j], y[cands], y[j], E[cands],
                                        E[j], Kd[cands], Kd[j], K_j[cands], C[cands], C[j],
                                        tau)
        moves = np.abs(a_j_new - alpha[j]) >= eps * (a_j_new + alpha[j] + eps)
        return cands[moves & (cands != j)]

    def examine(j: int) -> int:
        E = errors()
        r = y[j] * E[j]
        if not ((r < -tol and alpha[j] < C[j]) or (r > tol and alpha[j] > 0)):
            return 0
        K_j = col(j)
        nonbound = np.flatnonzero((alpha > 0) & (alpha < C))
        if nonbound.size > 1:                      # second choice: max |E_i - E_j|
            i = int(nonbound[np.argmax(np.abs(E[nonbound] - E[j]))])
            if take_step(i, j, K_j):
                return 1
        for pool in (nonbound, np.arange(n)):      # fallbacks, from a random start
            if pool.size == 0:
                continue
            start = int(rng.integers(pool.size))
            ok = candidates_moving(j, np.roll(pool, -start), K_j)
            if ok.size and take_step(int(ok[0]), j, K_j):
                return 1
        return 0

    examine_all = True
    num_changed = 0
    converged = True
    while num_changed > 0 or examine_all:
        num_changed = 0
        if examine_all:
            pool = np.arange(n)
        else:
            pool = np.flatnonzero((alpha > 0) & (alpha < C))
        # only the current KKT violators can change; examine() re-checks each one
        E = errors()
        r = y * E
        viol = ((r < -tol) & (alpha < C)) | ((r > tol) & (alpha > 0))
        for j in pool[viol[pool]]:
            num_changed += examine(int(j))
            if state["n_iter"] >= max_iter:
                break
        if state["n_iter"] >= max_iter:
            converged = False
            break
        if examine_all:
            examine_all = False
        elif num_changed == 0:
            examine_all = True
    return alpha, G, state["n_iter"], converged, state["b"]


# ============================================================================
# dual objectives (the "max" form of the notes)
# ============================================================================
def svc_dual_objective(dual_coef: np.ndarray, K: np.ndarray) -> float:
    r"""SVM dual objective :math:`\sum_i\alpha_i - \tfrac12\sum_{ij}\alpha_i\alpha_j y_i y_j K_{ij}`.

    Parameters
    ----------
    dual_coef : ndarray of shape (n_SV,)
        :math:`\alpha_i y_i` of the support vectors (``SVC.dual_coef_[0]``).
    K : ndarray of shape (n_SV, n_SV)
        Gram matrix of the support vectors.

    Returns
    -------
    float
        Since :math:`\alpha_i = |\alpha_i y_i|`, the value is
        :math:`\|\mathbf c\|_1 - \tfrac12\mathbf c^\top K\mathbf c` with
        :math:`\mathbf c` = ``dual_coef``; it works for scikit-learn's
        ``dual_coef_`` as well.
    """
    c = np.asarray(dual_coef, dtype=np.float64).ravel()
    return float(np.abs(c).sum() - 0.5 * c @ np.asarray(K) @ c)


def svr_dual_objective(dual_coef: np.ndarray, K: np.ndarray, y: np.ndarray,
                       epsilon: float) -> float:
    r"""SVR dual objective :math:`\sum_i y_i c_i - \epsilon\sum_i |c_i| - \tfrac12\mathbf c^\top K\mathbf c`.

    Parameters
    ----------
    dual_coef : ndarray of shape (n_SV,)
        :math:`c_i = \hat\alpha_i - \alpha_i` of the support vectors.
    K : ndarray of shape (n_SV, n_SV)
    y : ndarray of shape (n_SV,)
        Targets of the support vectors.
    epsilon : float

    Notes
    -----
    At the optimum at most one of :math:`\hat\alpha_i, \alpha_i` is non-zero, so
    :math:`\hat\alpha_i + \alpha_i = |c_i|` and Zhou's objective
    :math:`\sum_i y_i(\hat\alpha_i - \alpha_i) - \epsilon(\hat\alpha_i + \alpha_i)
    - \tfrac12\sum_{ij}(\hat\alpha_i - \alpha_i)(\hat\alpha_j - \alpha_j)K_{ij}`
    depends on :math:`\mathbf c` only.
    """
    c = np.asarray(dual_coef, dtype=np.float64).ravel()
    return float(np.asarray(y) @ c - epsilon * np.abs(c).sum() - 0.5 * c @ np.asarray(K) @ c)


# ============================================================================
# shared estimator plumbing
# ============================================================================
def _resolve_kernel(est: Any, X: np.ndarray) -> tuple[Any, dict]:
    """Validate kernel, gamma, degree, coef0; return (kernel, params for the kernel)."""
    kernel = est.kernel
    if callable(kernel):
        _check_kernel_params(est, X, uses_gamma=False)   # unused, but still validated
        return kernel, {}
    if not isinstance(kernel, str):
        raise TypeError(f"kernel must be a string or a callable; got {type(kernel).__name__}")
    if kernel not in KERNELS:
        raise ValueError(f"kernel {kernel!r} is unknown; use one of {sorted(KERNELS)} "
                         "or a callable k(X, Y)")
    kernel = "poly" if kernel == "polynomial" else kernel    # one kernel, two names
    gamma = _check_kernel_params(est, X, uses_gamma=kernel != "linear")
    params = {
        "linear": {},
        "poly": {"degree": int(est.degree), "gamma": gamma, "coef0": float(est.coef0)},
        "rbf": {"gamma": gamma},
        "laplacian": {"gamma": gamma},
        "sigmoid": {"gamma": gamma, "coef0": float(est.coef0)},
    }[kernel]
    return kernel, params


def _check_kernel_params(est: Any, X: np.ndarray, uses_gamma: bool = True) -> float:
    """Validate gamma, coef0 and degree (whatever the kernel); return gamma as a number.

    ``gamma="scale"`` is computed from X only when the kernel uses it.
    """
    gamma = est.gamma
    n_features = X.shape[1]
    if isinstance(gamma, str):
        if gamma == "scale" and not uses_gamma:
            gamma = 1.0                                 # a valid value nobody reads
        elif gamma == "scale":
            with np.errstate(over="ignore"):            # reported below, with the data's range
                var = float(X.var())
            if var == 0.0 and np.ptp(X) == 0.0:
                gamma = 1.0                     # every entry equal: scikit-learn's choice
            else:
                with np.errstate(divide="ignore", over="ignore"):
                    gamma = 1.0 / (n_features * var) if var > 0 else np.inf
                if not (np.isfinite(gamma) and gamma > 0):
                    raise ValueError(
                        f"gamma='scale' means 1 / (n_features * X.var()), but X.var() = "
                        f"{var:.3g} {'underflows' if gamma == np.inf else 'overflows'} "
                        f"(X's entries range over [{X.min():.3g}, {X.max():.3g}]), so that "
                        f"gamma would be {gamma:.3g}; rescale X (e.g. standardise it) or "
                        "pass a numeric gamma")
        elif gamma == "auto":
            gamma = 1.0 / n_features
        else:
            raise ValueError(f"gamma must be 'scale', 'auto' or a positive number; got {gamma!r}")
    else:
        check_scalar(gamma, "gamma", numbers.Real, min_val=0.0, include_min=False)
        gamma = float(gamma)
    check_scalar(est.coef0, "coef0", numbers.Real)
    check_scalar(est.degree, "degree", numbers.Integral, min_val=1)
    return gamma


def _check_solver_params(est: Any) -> None:
    check_scalar(est.C, "C", numbers.Real, min_val=0.0, include_min=False)
    # C = inf (the hard margin) would make the box unbounded; a large finite C
    # gives the hard-margin solution on separable data (chapter "The maximum-margin
    # classifier and duality")
    check_scalar(est.tol, "tol", numbers.Real, min_val=0.0, include_min=False)
    if est.max_iter is not None:
        check_scalar(est.max_iter, "max_iter", numbers.Integral, min_val=1)
    check_scalar(est.cache_size, "cache_size", numbers.Real, min_val=0.0, include_min=False)
    check_random_state(est.random_state)               # read by selection="platt" only
    if est.selection not in ("wss2", "platt"):
        raise ValueError(f"selection must be 'wss2' or 'platt'; got {est.selection!r}")


class _KernelModel:
    """Prediction from support vectors: ``K(X, SV) @ dual_coef_.T + intercept_``."""

    def _kernel_matrix(self, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        if Y.shape[0] == 0:                     # no support vector: f(x) = b
            return np.zeros((X.shape[0], 0))
        return pairwise_kernels(X, Y, kernel=self._kernel_, **self._kernel_params_)

    def _validate_for_predict(self, X: Any) -> np.ndarray:
        X = check_predict_X(self, X, "support_vectors_")
        return X


# ============================================================================
# classification
# ============================================================================
class SVC(ClassifierMixin, _KernelModel, BaseEstimator):
    r"""Soft-margin kernel support vector classifier solved by SMO.

    Parameters
    ----------
    C : float, default 1.0
        Penalty :math:`C > 0` on the slacks (the box :math:`0 \le \alpha_i \le C`).
    kernel : {"linear", "poly", "rbf", "laplacian", "sigmoid"} or callable, default "rbf"
        A callable ``k(X, Y)`` must return the Gram matrix of shape
        (n_samples_X, n_samples_Y).
    degree : int, default 3
        Degree of the polynomial kernel.
    gamma : "scale", "auto" or float, default "scale"
        Kernel scale: ``"scale"`` is ``1 / (n_features * X.var())``, ``"auto"``
        is ``1 / n_features`` (scikit-learn's conventions).
    coef0 : float, default 0.0
        Offset of the polynomial and sigmoid kernels.
    tol : float, default 1e-3
        Stopping tolerance of SMO (see :func:`smo_solve`).
    max_iter : int or None, default None
        Largest number of SMO steps per binary problem (``None``: libsvm's
        :math:`\max(10^7, 100 n)`).
    selection : {"wss2", "platt"}, default "wss2"
        Working-set selection: second-order (libsvm) or Platt's heuristics.
    cache_size : float, default 200
        Megabytes for cached kernel columns; the full Gram matrix is kept when it fits.
    decision_function_shape : {"ovr", "ovo"}, default "ovr"
        Shape of ``decision_function`` with more than two classes, as in scikit-learn.
    random_state : int, Generator or None, default 0
        Seeds where Platt's heuristics start their scans (``selection="platt"``);
        the second-order selection does not use it. See :func:`smo_solve`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    support_ : ndarray of int of shape (n_SV,)
        Indices of the support vectors (:math:`\alpha_i > 0`), grouped by class
        in the order of ``classes_``, ascending within a class.
    support_vectors_ : ndarray of shape (n_SV, n_features)
    n_support_ : ndarray of int of shape (n_classes,)
    dual_coef_ : ndarray of shape (n_classes - 1, n_SV)
        :math:`\alpha_i y_i`, with :math:`y_i = +1` for ``classes_[1]`` in the
        binary case. With more classes, scikit-learn's layout: for the pair
        :math:`(k, l)`, :math:`k < l`, the coefficients of class-:math:`k` support
        vectors are in row :math:`l - 1` and those of class :math:`l` in row :math:`k`.
    intercept_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        The bias :math:`b` of each pairwise classifier.
    dual_objective_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        :math:`\sum_i\alpha_i - \tfrac12\sum_{ij}\alpha_i\alpha_j y_i y_j\kappa(\mathbf x_i, \mathbf x_j)`
        at the solution of each pairwise problem.
    n_iter_ : ndarray of int of shape (n_classes * (n_classes - 1) / 2,)
        SMO steps of each pairwise problem.
    coef_ : ndarray of shape (n_classes * (n_classes - 1) / 2, n_features)
        :math:`\mathbf w = \sum_i\alpha_i y_i\mathbf x_i`, only for the linear kernel.
    n_features_in_ : int

    Notes
    -----
    The dual of the soft-margin SVM (软间隔) is

    .. math::

        \max_{\boldsymbol\alpha}\ \sum_i\alpha_i - \tfrac12\sum_{i,j}\alpha_i\alpha_j y_i y_j
        \kappa(\mathbf x_i, \mathbf x_j)
        \quad\text{s.t.}\quad \sum_i\alpha_i y_i = 0,\ 0 \le \alpha_i \le C,

    i.e. :func:`smo_solve` with :math:`\mathbf p = -\mathbf 1`. The decision function is
    :math:`f(\mathbf x) = \sum_{i \in SV}\alpha_i y_i\kappa(\mathbf x_i, \mathbf x) + b`.
    The KKT conditions say :math:`\alpha_i = 0 \Rightarrow y_i f(\mathbf x_i) \ge 1`,
    :math:`0 < \alpha_i < C \Rightarrow y_i f(\mathbf x_i) = 1`,
    :math:`\alpha_i = C \Rightarrow y_i f(\mathbf x_i) \le 1`; the bias is read
    off the free multipliers, :math:`b = y_s - \sum_i \alpha_i y_i\kappa(\mathbf x_i, \mathbf x_s)`.
    More than two classes are handled one-vs-one, as libsvm does: one
    classifier per pair of classes, and ``predict`` returns the class with
    most votes (ties go to the class listed first).

    See the chapters "Soft margin, hinge loss and SMO" and "Kernels" (Part V).

    Examples
    --------
    >>> X = [[0.0, 0.0], [0.0, 1.0], [2.0, 0.0], [2.0, 1.0]]
    >>> clf = SVC(kernel="linear", C=10.0).fit(X, [0, 0, 1, 1])
    >>> clf.predict([[0.2, 0.5], [1.8, 0.5]]).tolist()
    [0, 1]
    >>> [round(float(w), 6) for w in clf.coef_[0]]  # margin 1 / |w| = 1
    [1.0, 0.0]
    """

    def __init__(self, C: float = 1.0, kernel: str | Callable = "rbf", degree: int = 3,
                 gamma: str | float = "scale", coef0: float = 0.0, tol: float = 1e-3,
                 max_iter: int | None = None, selection: str = "wss2",
                 cache_size: float = 200, decision_function_shape: str = "ovr",
                 random_state: Any = 0):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.selection = selection
        self.cache_size = cache_size
        self.decision_function_shape = decision_function_shape
        self.random_state = random_state

    def _fit_binary(self, X: np.ndarray, ypm: np.ndarray, C: np.ndarray) -> SMOResult:
        cache = _KernelColumns(X, self._kernel_, self._kernel_params_, self.cache_size)
        return smo_solve(cache.column, cache.diag, ypm, -np.ones(X.shape[0]), C,
                         tol=self.tol, max_iter=self.max_iter, selection=self.selection,
                         random_state=self.random_state)

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "SVC":
        """Fit one SVM per pair of classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,) or None
            Sample :math:`i` gets the box :math:`0 \\le \\alpha_i \\le C w_i`.

        Returns
        -------
        self
        """
        _check_solver_params(self)
        if self.decision_function_shape not in ("ovr", "ovo"):
            raise ValueError("decision_function_shape must be 'ovr' or 'ovo'; "
                             f"got {self.decision_function_shape!r}")
        X, y = check_X_y(X, y)
        classes = check_classification_targets(y)
        w = check_sample_weight(sample_weight, X.shape[0])
        y_idx = np.searchsorted(classes, y)
        weightless = np.bincount(y_idx, weights=w, minlength=classes.shape[0]) <= 0
        if weightless.any():
            # every multiplier of that class is boxed to 0, and sum_i alpha_i y_i = 0
            # then forces the other class's to 0 too: no support vector, no model
            raise ValueError(
                f"sample_weight is zero for every sample of class "
                f"{classes[np.flatnonzero(weightless)[0]].tolist()!r}; an SVM needs at least one "
                "sample of positive weight in every class (drop the class from y instead)")
        self._kernel_, self._kernel_params_ = _resolve_kernel(self, X)
        n_classes = classes.shape[0]
        pairs = [(k, l) for k in range(n_classes) for l in range(k + 1, n_classes)]
        # coefficient of each sample in each pairwise problem (0 outside the pair)
        coef = np.zeros((len(pairs), X.shape[0]))
        intercept = np.empty(len(pairs))
        objective = np.empty(len(pairs))
        n_iter = np.empty(len(pairs), dtype=int)
        for q, (k, l) in enumerate(pairs):
            rows = np.flatnonzero((y_idx == k) | (y_idx == l))
            # binary: +1 is classes_[1] (positive decision -> classes_[1], as
            # scikit-learn); pairs: +1 is the first class k (libsvm's one-vs-one)
            if n_classes == 2:
                ypm = np.where(y_idx[rows] == 1, 1.0, -1.0)
            else:
                ypm = np.where(y_idx[rows] == k, 1.0, -1.0)
            wr = w[rows]
            res = self._fit_binary(X[rows], ypm, self.C * wr)
            coef[q, rows] = res.alpha * ypm
            intercept[q] = res.intercept
            objective[q] = -res.objective
            n_iter[q] = res.n_iter
        is_sv = (coef != 0).any(axis=0)
        # support vectors grouped by class, ascending index within a class
        order = np.lexsort((np.arange(X.shape[0]), y_idx))
        support = order[is_sv[order]]
        self.classes_ = classes
        self.support_ = support.astype(np.intp)
        self.support_vectors_ = X[support]
        self.n_support_ = np.bincount(y_idx[support], minlength=n_classes).astype(np.int32)
        self._pair_coef_ = coef[:, support]                     # (n_pairs, n_SV)
        self._pairs_ = pairs
        self._sv_class_ = y_idx[support]
        self.dual_coef_ = self._sklearn_dual_coef(n_classes)
        self.intercept_ = intercept
        self.dual_objective_ = objective
        self.n_iter_ = n_iter
        self.n_features_in_ = X.shape[1]
        if self._kernel_ == "linear":
            self.coef_ = self._pair_coef_ @ self.support_vectors_
        return self

    def _sklearn_dual_coef(self, n_classes: int) -> np.ndarray:
        if n_classes == 2:
            return self._pair_coef_.copy()
        out = np.zeros((n_classes - 1, self._pair_coef_.shape[1]))
        for q, (k, l) in enumerate(self._pairs_):
            in_k = self._sv_class_ == k
            in_l = self._sv_class_ == l
            out[l - 1, in_k] = self._pair_coef_[q, in_k]
            out[k, in_l] = self._pair_coef_[q, in_l]
        return out

    def _ovo_decision(self, X: np.ndarray) -> np.ndarray:
        K = self._kernel_matrix(X, self.support_vectors_)       # (n, n_SV)
        return K @ self._pair_coef_.T + self.intercept_          # (n, n_pairs)

    def decision_function(self, X: Any) -> np.ndarray:
        """Signed distance-like score :math:`f(\\mathbf x)`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) for two classes (positive means
        ``classes_[1]``), else (n_samples, n_pairs) for ``"ovo"`` (positive means
        the first class of the pair) or (n_samples, n_classes) for ``"ovr"``
        (votes plus a confidence term in (-1/3, 1/3), scikit-learn's formula).
        """
        X = self._validate_for_predict(X)
        D = self._ovo_decision(X)
        if len(self.classes_) == 2:
            return D[:, 0]
        if self.decision_function_shape == "ovo":
            return D
        votes, conf = self._votes(D)
        # scikit-learn's transformation keeps the vote order and breaks ties by confidence
        return votes + conf / (3.0 * (np.abs(conf) + 1.0))

    def _votes(self, D: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n_classes = len(self.classes_)
        votes = np.zeros((D.shape[0], n_classes))
        conf = np.zeros((D.shape[0], n_classes))
        for q, (k, l) in enumerate(self._pairs_):
            pos = D[:, q] > 0
            votes[:, k] += pos
            votes[:, l] += ~pos
            conf[:, k] += D[:, q]
            conf[:, l] -= D[:, q]
        return votes, conf

    def predict(self, X: Any) -> np.ndarray:
        """Predicted class labels, shape (n_samples,) (majority vote over the pairs)."""
        X = self._validate_for_predict(X)
        D = self._ovo_decision(X)
        if len(self.classes_) == 2:
            return self.classes_[(D[:, 0] > 0).astype(int)]
        votes, _ = self._votes(D)
        return self.classes_[np.argmax(votes, axis=1)]


# ============================================================================
# regression
# ============================================================================
class SVR(RegressorMixin, _KernelModel, BaseEstimator):
    r"""Epsilon-insensitive support vector regression (支持向量回归) solved by SMO.

    Parameters
    ----------
    C : float, default 1.0
    epsilon : float, default 0.1
        Half-width :math:`\epsilon \ge 0` of the tube inside which errors cost nothing.
    kernel, degree, gamma, coef0, tol, max_iter, selection, cache_size, random_state
        As in :class:`SVC`.

    Attributes
    ----------
    support_ : ndarray of int of shape (n_SV,)
        Samples with :math:`\hat\alpha_i - \alpha_i \ne 0`, ascending.
    support_vectors_ : ndarray of shape (n_SV, n_features)
    dual_coef_ : ndarray of shape (1, n_SV)
        :math:`\hat\alpha_i - \alpha_i` (scikit-learn's sign convention).
    intercept_ : ndarray of shape (1,)
    dual_objective_ : float
        The maximised dual objective (see :func:`svr_dual_objective`).
    n_iter_ : int
    coef_ : ndarray of shape (1, n_features)
        Only for the linear kernel.
    n_features_in_ : int

    Notes
    -----
    The dual in Zhou's notation, with :math:`\hat\alpha_i` for the upper edge of the
    tube and :math:`\alpha_i` for the lower one, is

    .. math::

        \max_{\boldsymbol\alpha,\hat{\boldsymbol\alpha}}\ &\sum_i \big[y_i(\hat\alpha_i - \alpha_i)
        - \epsilon(\hat\alpha_i + \alpha_i)\big]
        - \tfrac12\sum_{i,j}(\hat\alpha_i - \alpha_i)(\hat\alpha_j - \alpha_j)\kappa(\mathbf x_i, \mathbf x_j)\\
        \text{s.t.}\ &\sum_i(\hat\alpha_i - \alpha_i) = 0,\quad 0 \le \alpha_i, \hat\alpha_i \le C.

    Stacking :math:`\mathbf z = (\hat{\boldsymbol\alpha}, \boldsymbol\alpha)` with signs
    :math:`\mathbf s = (+\mathbf 1, -\mathbf 1)` gives exactly the form of
    :func:`smo_solve` on :math:`2m` variables: :math:`Q_{st} = s_s s_t \kappa(\mathbf x_{s \bmod m},
    \mathbf x_{t \bmod m})` and :math:`\mathbf p = (\epsilon - \mathbf y, \epsilon + \mathbf y)`.
    The prediction is the kernel expansion
    :math:`f(\mathbf x) = \sum_i(\hat\alpha_i - \alpha_i)\kappa(\mathbf x_i, \mathbf x) + b`;
    by the representer theorem the weight vector is
    :math:`\mathbf w = \sum_i(\hat\alpha_i - \alpha_i)\phi(\mathbf x_i)`.

    See the chapter "SVR and kernel methods" (Part V).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.linspace(0, 1, 20)[:, None]
    >>> y = 2 * X[:, 0] + 1
    >>> reg = SVR(kernel="linear", C=100.0, epsilon=0.01).fit(X, y)
    >>> bool(np.all(np.abs(reg.predict(X) - y) <= 0.01 + 1e-3))  # inside the tube (+ tol)
    True
    >>> round(float(reg.coef_[0, 0]), 1)
    2.0
    """

    def __init__(self, C: float = 1.0, epsilon: float = 0.1, kernel: str | Callable = "rbf",
                 degree: int = 3, gamma: str | float = "scale", coef0: float = 0.0,
                 tol: float = 1e-3, max_iter: int | None = None, selection: str = "wss2",
                 cache_size: float = 200, random_state: Any = 0):
        self.C = C
        self.epsilon = epsilon
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.selection = selection
        self.cache_size = cache_size
        self.random_state = random_state

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "SVR":
        """Fit the regression by SMO on the doubled dual.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,) or None
            Scales :math:`C` per sample.

        Returns
        -------
        self
        """
        _check_solver_params(self)
        check_scalar(self.epsilon, "epsilon", numbers.Real, min_val=0.0)
        X, y = check_X_y(X, y, y_numeric=True)
        w = check_sample_weight(sample_weight, X.shape[0])
        self._kernel_, self._kernel_params_ = _resolve_kernel(self, X)
        m = X.shape[0]
        cache = _KernelColumns(X, self._kernel_, self._kernel_params_, self.cache_size)
        signs = np.concatenate([np.ones(m), -np.ones(m)])
        p = np.concatenate([self.epsilon - y, self.epsilon + y])
        Cv = np.tile(self.C * w, 2)
        res = smo_solve(cache.column, cache.diag, signs, p, Cv,
                        index=np.tile(np.arange(m), 2), tol=self.tol,
                        max_iter=self.max_iter, selection=self.selection,
                        random_state=self.random_state)
        coef = res.alpha[:m] - res.alpha[m:]                  # alpha_hat - alpha
        support = np.flatnonzero(coef != 0)
        self.support_ = support.astype(np.intp)
        self.support_vectors_ = X[support]
        self.dual_coef_ = coef[support][None, :]
        self.intercept_ = np.array([res.intercept])
        self.dual_objective_ = -res.objective
        self.n_iter_ = res.n_iter
        self.n_support_ = np.array([support.shape[0]], dtype=np.int32)
        self.n_features_in_ = X.shape[1]
        if self._kernel_ == "linear":
            self.coef_ = self.dual_coef_ @ self.support_vectors_
        return self

    def predict(self, X: Any) -> np.ndarray:
        """:math:`f(\\mathbf x) = \\sum_i(\\hat\\alpha_i - \\alpha_i)\\kappa(\\mathbf x_i, \\mathbf x) + b`, shape (n_samples,)."""
        X = self._validate_for_predict(X)
        K = self._kernel_matrix(X, self.support_vectors_)       # (n, n_SV)
        return K @ self.dual_coef_[0] + self.intercept_[0]


# ============================================================================
# the primal problem
# ============================================================================
class LinearSVMPrimal(ClassifierMixin, BaseEstimator):
    r"""Linear soft-margin SVM trained on the primal hinge-loss objective (Pegasos).

    Minimises

    .. math::

        F(\mathbf w, b) = \tfrac12\|\mathbf w\|^2 + C\sum_{i=1}^m
        \max\bigl(0,\ 1 - y_i(\mathbf w^\top\mathbf x_i + b)\bigr),

    the same problem whose dual :class:`SVC` solves with the linear kernel, by
    the sub-gradient method of Pegasos (Shalev-Shwartz et al., 2007).

    Parameters
    ----------
    C : float, default 1.0
    max_iter : int, default 20000
        Number of sub-gradient steps.
    batch_size : int or None, default None
        Samples per step; ``None`` uses all of them (a deterministic method).
    average : bool, default True
        Return the average of the iterates of the second half of the run,
        which converges much more smoothly than the last iterate.
    random_state : int, Generator or None, default None
        Draws the mini-batches.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    classes_ : ndarray of shape (2,)
    objective_ : float
        :math:`F(\mathbf w, b)` at the returned point.
    n_iter_ : int
        Sub-gradient steps taken: always ``max_iter`` (Pegasos has no stopping
        test; its guarantee is a bound after a given number of steps).
    n_features_in_ : int

    Notes
    -----
    Dividing :math:`F` by :math:`Cm` gives Pegasos' form
    :math:`\tfrac\lambda2\|\mathbf w\|^2 + \tfrac1m\sum_i \ell_i` with
    :math:`\lambda = 1/(Cm)`. With the step :math:`\eta_t = 1/(\lambda t)`, a
    sub-gradient step is

    .. math::

        \mathbf w \leftarrow (1 - \eta_t\lambda)\mathbf w + \frac{\eta_t}{|B|}
        \sum_{i\in B,\ y_i f(\mathbf x_i) < 1} y_i\mathbf x_i,
        \qquad b \leftarrow b + \frac{\eta_t}{|B|}\sum_{i\in B,\ y_i f(\mathbf x_i) < 1} y_i,

    followed by the projection of :math:`\mathbf w` on the ball of radius
    :math:`1/\sqrt\lambda`, which contains the optimum. The bias is not
    regularised, exactly as in the dual's constraint :math:`\sum_i\alpha_i y_i = 0`.
    By strong duality the optimal :math:`F` equals the dual optimum of :class:`SVC`.

    See the chapter "Soft margin, hinge loss and SMO" (Part V).
    """

    _binary_only = True          # two classes only (scikit-learn tag multi_class=False)

    def __init__(self, C: float = 1.0, max_iter: int = 20000, batch_size: int | None = None,
                 average: bool = True, random_state: Any = None):
        self.C = C
        self.max_iter = max_iter
        self.batch_size = batch_size
        self.average = average
        self.random_state = random_state

    @staticmethod
    def primal_objective(w: np.ndarray, b: float, X: np.ndarray, ypm: np.ndarray,
                         C: float) -> float:
        """:math:`\\tfrac12\\|\\mathbf w\\|^2 + C\\sum_i\\max(0, 1 - y_i(\\mathbf w^\\top\\mathbf x_i + b))` with ``ypm`` in {-1, +1}."""
        margins = ypm * (X @ w + b)
        return float(0.5 * w @ w + C * np.maximum(0.0, 1.0 - margins).sum())

    def fit(self, X: Any, y: Any) -> "LinearSVMPrimal":
        """Run Pegasos on (X, y); y must have exactly two classes. Returns self."""
        check_scalar(self.C, "C", numbers.Real, min_val=0.0, include_min=False)
        check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=1)
        check_bool(self.average, "average")
        X, y = check_X_y(X, y)
        classes = check_classification_targets(y, n_classes=2)
        ypm = np.where(y == classes[1], 1.0, -1.0)
        m, d = X.shape
        if self.batch_size is not None:
            check_scalar(self.batch_size, "batch_size", numbers.Integral, min_val=1, max_val=m)
        rng = check_random_state(self.random_state)
        lam = 1.0 / (self.C * m)
        radius = 1.0 / np.sqrt(lam)
        w = np.zeros(d)
        b = 0.0
        w_sum = np.zeros(d)
        b_sum = 0.0
        n_avg = 0
        start_avg = self.max_iter // 2
        for t in range(1, self.max_iter + 1):
            if self.batch_size is None:
                Xb, yb = X, ypm
            else:
                idx = rng.integers(m, size=self.batch_size)
                Xb, yb = X[idx], ypm[idx]
            eta = 1.0 / (lam * t)
            active = yb * (Xb @ w + b) < 1.0                 # samples with positive hinge
            k = yb.shape[0]
            w = (1.0 - eta * lam) * w + (eta / k) * (yb[active] @ Xb[active])
            b = b + (eta / k) * yb[active].sum()
            norm = np.sqrt(w @ w)
            if norm > radius:
                w *= radius / norm
            if self.average and t > start_avg:
                w_sum += w
                b_sum += b
                n_avg += 1
        if self.average and n_avg:
            w, b = w_sum / n_avg, b_sum / n_avg
        self.classes_ = classes
        self.coef_ = w[None, :]
        self.intercept_ = np.array([b])
        self.objective_ = self.primal_objective(w, b, X, ypm, float(self.C))
        self.n_iter_ = self.max_iter             # Pegasos runs a fixed number of steps
        self.n_features_in_ = d
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """:math:`\\mathbf w^\\top\\mathbf x + b`, shape (n_samples,); positive means ``classes_[1]``."""
        X = check_predict_X(self, X, "coef_")
        return X @ self.coef_[0] + self.intercept_[0]

    def predict(self, X: Any) -> np.ndarray:
        """Class labels, shape (n_samples,)."""
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(int)]
