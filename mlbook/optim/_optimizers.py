"""Gradient-descent optimisers with the names, defaults and update rules of ``torch.optim``.

A student who moves to PyTorch finds the same classes, hyper-parameters and
defaults here: ``SGD`` (with momentum and Nesterov's method), ``Adagrad``,
``RMSprop``, ``Adadelta``, ``Adam``, ``NAdam`` and ``AdamW``. Each optimiser
holds a list of float64 NumPy arrays, the parameters, and updates them in place
when ``step(grads)`` is given the gradients in the same order::

    w = np.zeros(3)
    opt = Adam([w], lr=0.1)
    for _ in range(100):
        opt.step([grad_of_loss(w)])

Every update rule is the one ``torch.optim`` applies (PyTorch 2.x, ``maximize=False``,
single-tensor code path); where the framework departs from the paper that
introduced a method, the chapter shows the paper's rule and measures the
difference. The module also holds the test functions of the chapter
(:func:`rosenbrock`, :func:`beale`, :func:`ill_conditioned_quadratic`) and a
driver, :func:`minimize`, that records the path. ``mlbook.optim`` re-exports
every public name; import them from there.

See the chapter "Gradient-descent optimisers" (Part VII).
"""

from __future__ import annotations

import abc
import math
import numbers
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from mlbook._validation import check_scalar

__all__ = [
    "Optimizer",
    "SGD",
    "Adagrad",
    "RMSprop",
    "Adadelta",
    "Adam",
    "NAdam",
    "AdamW",
    "rosenbrock",
    "beale",
    "ill_conditioned_quadratic",
    "minimize",
    "OptimizeResult",
]


# --------------------------------------------------------------------------------------
# The base class: parameters, gradients, checks and the step counter
# --------------------------------------------------------------------------------------

def _check_params(params: Any) -> list[np.ndarray]:
    if isinstance(params, np.ndarray) or not isinstance(params, (list, tuple)):
        raise TypeError(
            "params must be a list of float64 NumPy arrays (updated in place); "
            f"got {type(params).__name__}. Wrap a single array as [w]."
        )
    if len(params) == 0:
        raise ValueError("params is an empty list; the optimiser needs at least one array")
    for i, p in enumerate(params):
        if not isinstance(p, np.ndarray):
            raise TypeError(f"params[{i}] must be a NumPy array; got {type(p).__name__}")
        if p.dtype != np.float64:
            raise TypeError(
                f"params[{i}] must have dtype float64 (it is updated in place); got {p.dtype}"
            )
        if not p.flags.writeable:
            raise ValueError(f"params[{i}] is read-only; the optimiser updates it in place")
        if not np.all(np.isfinite(p)):
            raise ValueError(f"params[{i}] contains NaN or infinity")
    for i in range(len(params)):
        for j in range(i):
            if np.shares_memory(params[i], params[j]):
                raise ValueError(f"params[{i}] and params[{j}] share memory; pass each array once")
    return list(params)


def _check_betas(betas: Any) -> tuple[float, float]:
    if not isinstance(betas, (tuple, list)) or len(betas) != 2:
        raise TypeError(f"betas must be a pair (beta1, beta2); got {betas!r}")
    for k, b in enumerate(betas):
        check_scalar(b, f"betas[{k}]", numbers.Real, min_val=0.0, max_val=1.0, include_max=False)
    return (float(betas[0]), float(betas[1]))


class Optimizer(abc.ABC):
    """Base class: holds the parameters, checks the gradients, counts the steps.

    Parameters
    ----------
    params : list of ndarray
        The parameters, float64 arrays of any shapes, updated in place by
        :meth:`step`.

    Attributes
    ----------
    params : list of ndarray
        The same arrays that were passed in (not copies).
    state : list of dict
        Per parameter, the optimiser's buffers (``"momentum_buffer"``,
        ``"exp_avg"``, ``"exp_avg_sq"``, ... named as in ``torch.optim``), each
        of the parameter's shape.
    step_count : int
        The number of steps taken so far, :math:`t` in the chapter's formulas.

    Notes
    -----
    Hyper-parameters are plain attributes and may be changed between steps
    (``opt.lr = 0.01`` is a learning-rate schedule); they are checked again at
    every step.
    """

    def __init__(self, params: Sequence[np.ndarray]) -> None:
        self.params = _check_params(params)
        self.state: list[dict[str, np.ndarray]] = [{} for _ in self.params]
        self.step_count = 0
        # scratch arrays, one set per parameter, so that a step allocates nothing
        self._work: list[dict[str, np.ndarray]] = [{} for _ in self.params]

    # -- helpers used by the subclasses -----------------------------------------------

    def _buffer(self, i: int, name: str) -> np.ndarray:
        """A scratch array of ``params[i]``'s shape (reused between steps)."""
        buf = self._work[i].get(name)
        if buf is None:
            buf = self._work[i][name] = np.empty_like(self.params[i])
        return buf

    def _state(self, i: int, name: str, init: float = 0.0) -> np.ndarray:
        """The optimiser's buffer ``name`` for ``params[i]``, created filled with ``init``."""
        st = self.state[i]
        if name not in st:
            st[name] = np.full_like(self.params[i], init)
        return st[name]

    def _with_l2(self, i: int, g: np.ndarray, weight_decay: float) -> np.ndarray:
        """:math:`g + \\lambda\\theta`, the gradient of the L2-penalised loss (``weight_decay`` = λ)."""
        if weight_decay == 0:
            return g
        out = self._buffer(i, "g")
        np.multiply(self.params[i], weight_decay, out=out)
        out += g
        return out

    def _check_grads(self, grads: Any) -> list[np.ndarray]:
        if isinstance(grads, np.ndarray) or not isinstance(grads, (list, tuple)):
            raise TypeError(
                f"grads must be a list of arrays, one per parameter; got {type(grads).__name__}"
            )
        if len(grads) != len(self.params):
            raise ValueError(
                f"grads has {len(grads)} arrays but the optimiser holds {len(self.params)} parameters"
            )
        out = []
        for i, (g, p) in enumerate(zip(grads, self.params)):
            g = np.asarray(g)
            if g.dtype.kind not in "fiu":
                raise TypeError(f"grads[{i}] must be a real numeric array; got dtype {g.dtype}")
            if g.shape != p.shape:
                raise ValueError(
                    f"grads[{i}] has shape {g.shape} but params[{i}] has shape {p.shape}"
                )
            g = g.astype(np.float64, copy=False)
            if g.size <= 4096:
                finite = bool(np.isfinite(g).all())
            else:   # one reduction instead of a boolean array: NaN or inf makes the sum non-finite
                with np.errstate(over="ignore", invalid="ignore"):
                    finite = math.isfinite(g.sum()) or bool(np.isfinite(g).all())
            if not finite:
                raise ValueError(f"grads[{i}] contains NaN or infinity")
            out.append(g)
        return out

    def _check_hyper(self) -> None:  # overridden by every optimiser
        check_scalar(self.lr, "lr", numbers.Real, min_val=0.0)

    # -- the public interface -----------------------------------------------------------

    def step(self, grads: Sequence[np.ndarray]) -> None:
        """Take one step: update every parameter in place from its gradient.

        Parameters
        ----------
        grads : list of ndarray
            The gradients of the loss with respect to ``params``, in the same
            order and with the same shapes. They are read, never modified.
        """
        grads = self._check_grads(grads)
        self._recheck_hyper()
        self.step_count += 1
        for i, g in enumerate(grads):
            self._update(i, self.params[i], g)

    def _recheck_hyper(self) -> None:
        """Check the hyper-parameters again if any was changed since the last check."""
        names = [n for n in vars(self) if not n.startswith("_")
                 and n not in ("params", "state", "step_count", "mu_product")]
        snapshot = tuple((n, getattr(self, n)) for n in names)
        if snapshot != getattr(self, "_checked", None):
            self._check_hyper()
            self._checked = snapshot

    @abc.abstractmethod
    def _update(self, i: int, p: np.ndarray, g: np.ndarray) -> None:
        """Update parameter ``p`` (the ``i``-th) in place from its gradient ``g``."""

    def __repr__(self) -> str:
        names = [n for n in self.__init__.__code__.co_varnames[1:self.__init__.__code__.co_argcount]
                 if n != "params"]
        args = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{type(self).__name__}({args})"


# --------------------------------------------------------------------------------------
# SGD, with momentum and Nesterov's method
# --------------------------------------------------------------------------------------

class SGD(Optimizer):
    """Stochastic gradient descent, optionally with momentum or Nesterov's momentum.

    Parameters
    ----------
    params : list of ndarray
        float64 arrays, updated in place.
    lr : float, default=1e-3
        The learning rate (学习率) :math:`\\eta \\ge 0`.
    momentum : float, default=0
        The momentum factor :math:`\\mu \\ge 0`.
    dampening : float, default=0
        Dampening :math:`\\tau` of the gradient's share in the momentum buffer.
    weight_decay : float, default=0
        L2 penalty :math:`\\lambda \\ge 0`, added to the gradient as :math:`\\lambda\\theta`.
    nesterov : bool, default=False
        Nesterov's momentum; needs ``momentum > 0`` and ``dampening == 0``.

    Notes
    -----
    With :math:`g_t = \\nabla L(\\theta_{t-1}) + \\lambda\\theta_{t-1}`, PyTorch's rule is

    .. math::

        b_1 = g_1,\\qquad b_t = \\mu b_{t-1} + (1-\\tau) g_t \\ (t>1),\\qquad
        \\theta_t = \\theta_{t-1} - \\eta\\,(g_t + \\mu b_t \\text{ if Nesterov, else } b_t).

    The learning rate multiplies the buffer when it is applied, not when the
    gradient enters it (Sutskever et al. put :math:`\\eta` inside); the two forms
    agree while :math:`\\eta` is constant and differ when it changes.
    """

    def __init__(self, params: Sequence[np.ndarray], lr: float = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float = 0, nesterov: bool = False) -> None:
        super().__init__(params)
        self.lr = lr
        self.momentum = momentum
        self.dampening = dampening
        self.weight_decay = weight_decay
        self.nesterov = nesterov
        self._check_hyper()

    def _check_hyper(self) -> None:
        check_scalar(self.lr, "lr", numbers.Real, min_val=0.0)
        check_scalar(self.momentum, "momentum", numbers.Real, min_val=0.0)
        check_scalar(self.dampening, "dampening", numbers.Real)
        check_scalar(self.weight_decay, "weight_decay", numbers.Real, min_val=0.0)
        check_scalar(self.nesterov, "nesterov", bool)
        if self.nesterov and (self.momentum <= 0 or self.dampening != 0):
            raise ValueError(
                "nesterov=True requires momentum > 0 and dampening = 0; got "
                f"momentum={self.momentum}, dampening={self.dampening}"
            )

    def _update(self, i: int, p: np.ndarray, g: np.ndarray) -> None:
        g = self._with_l2(i, g, self.weight_decay)              # g_t
        w = self._buffer(i, "w")
        if self.momentum != 0:
            if "momentum_buffer" not in self.state[i]:
                buf = self.state[i]["momentum_buffer"] = g.copy()     # b_1 = g_1
            else:
                buf = self.state[i]["momentum_buffer"]
                buf *= self.momentum                                    # b_t = mu b_{t-1}
                if self.dampening == 0:
                    buf += g                                            #       + g_t
                else:
                    np.multiply(g, 1 - self.dampening, out=w)
                    buf += w                                            #       + (1 - tau) g_t
            if self.nesterov:
                np.multiply(buf, self.momentum, out=w)                  # g_t + mu b_t
                w += g
                g = w
            else:
                g = buf
        np.multiply(g, self.lr, out=w)
        p -= w                                                          # theta -= lr * (...)


# --------------------------------------------------------------------------------------
# AdaGrad, RMSprop, Adadelta
# --------------------------------------------------------------------------------------

class Adagrad(Optimizer):
    """AdaGrad: a learning rate per coordinate, shrunk by the sum of squared gradients.

    Parameters
    ----------
    params : list of ndarray
        float64 arrays, updated in place.
    lr : float, default=1e-2
        The learning rate :math:`\\eta \\ge 0`.
    lr_decay : float, default=0
        PyTorch's extra decay of the learning rate, :math:`\\eta_t = \\eta / (1 + (t-1)\\,\\text{lr\\_decay})`.
    weight_decay : float, default=0
        L2 penalty :math:`\\lambda \\ge 0`.
    initial_accumulator_value : float, default=0
        The starting value :math:`G_0 \\ge 0` of the sum of squares.
    eps : float, default=1e-10
        :math:`\\epsilon > 0`, added to :math:`\\sqrt{G_t}` (outside the root).

    Notes
    -----
    .. math::

        G_t = G_{t-1} + g_t \\odot g_t,\\qquad
        \\theta_t = \\theta_{t-1} - \\frac{\\eta_t}{\\sqrt{G_t} + \\epsilon} \\odot g_t .
    """

    def __init__(self, params: Sequence[np.ndarray], lr: float = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10) -> None:
        super().__init__(params)
        self.lr = lr
        self.lr_decay = lr_decay
        self.weight_decay = weight_decay
        self.initial_accumulator_value = initial_accumulator_value
        self.eps = eps
        self._check_hyper()
        for i in range(len(self.params)):   # the sum starts at G_0, as in PyTorch
            self._state(i, "sum", float(initial_accumulator_value))

    def _check_hyper(self) -> None:
        check_scalar(self.lr, "lr", numbers.Real, min_val=0.0)
        check_scalar(self.lr_decay, "lr_decay", numbers.Real, min_val=0.0)
        check_scalar(self.weight_decay, "weight_decay", numbers.Real, min_val=0.0)
        check_scalar(self.initial_accumulator_value, "initial_accumulator_value", numbers.Real,
                     min_val=0.0)
        check_scalar(self.eps, "eps", numbers.Real, min_val=0.0, include_min=False)

    def _update(self, i: int, p: np.ndarray, g: np.ndarray) -> None:
        g = self._with_l2(i, g, self.weight_decay)
        w = self._buffer(i, "w")
        clr = self.lr / (1 + (self.step_count - 1) * self.lr_decay)   # eta_t
        G = self.state[i]["sum"]
        np.multiply(g, g, out=w)
        G += w                                                          # G_t = G_{t-1} + g^2
        np.sqrt(G, out=w)
        w += self.eps                                                   # sqrt(G_t) + eps
        np.divide(g, w, out=w)
        w *= clr
        p -= w


class RMSprop(Optimizer):
    """RMSProp: AdaGrad's sum of squares replaced by an exponential moving average.

    Parameters
    ----------
    params : list of ndarray
        float64 arrays, updated in place.
    lr : float, default=1e-2
        The learning rate :math:`\\eta \\ge 0`.
    alpha : float, default=0.99
        The smoothing constant :math:`\\alpha \\in [0, 1]` of the average of squares.
    eps : float, default=1e-8
        :math:`\\epsilon > 0`, added to the root (outside it).
    weight_decay : float, default=0
        L2 penalty :math:`\\lambda \\ge 0`.
    momentum : float, default=0
        Momentum :math:`\\mu \\ge 0` applied to the scaled step.
    centered : bool, default=False
        Divide by an estimate of the standard deviation of the gradient
        (:math:`\\sqrt{v_t - \\bar g_t^2}`) instead of its root mean square.

    Notes
    -----
    .. math::

        v_t = \\alpha v_{t-1} + (1-\\alpha) g_t^2,\\qquad
        \\theta_t = \\theta_{t-1} - \\eta\\, \\frac{g_t}{\\sqrt{v_t} + \\epsilon},

    with :math:`v_0 = 0`. With momentum the scaled gradient goes through a buffer,
    :math:`b_t = \\mu b_{t-1} + g_t / (\\sqrt{v_t}+\\epsilon)` (:math:`b_0 = 0`),
    and :math:`\\theta_t = \\theta_{t-1} - \\eta b_t`. When centred,
    :math:`\\bar g_t = \\alpha \\bar g_{t-1} + (1-\\alpha) g_t` and the root is of
    :math:`v_t - \\bar g_t^2`, clipped at 0 against rounding (PyTorch would
    return NaN there).
    """

    def __init__(self, params: Sequence[np.ndarray], lr: float = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0,
                 centered: bool = False) -> None:
        super().__init__(params)
        self.lr = lr
        self.alpha = alpha
        self.eps = eps
        self.weight_decay = weight_decay
        self.momentum = momentum
        self.centered = centered
        self._check_hyper()

    def _check_hyper(self) -> None:
        check_scalar(self.lr, "lr", numbers.Real, min_val=0.0)
        check_scalar(self.alpha, "alpha", numbers.Real, min_val=0.0, max_val=1.0)
        check_scalar(self.eps, "eps", numbers.Real, min_val=0.0, include_min=False)
        check_scalar(self.weight_decay, "weight_decay", numbers.Real, min_val=0.0)
        check_scalar(self.momentum, "momentum", numbers.Real, min_val=0.0)
        check_scalar(self.centered, "centered", bool)

    def _update(self, i: int, p: np.ndarray, g: np.ndarray) -> None:
        g = self._with_l2(i, g, self.weight_decay)
        w = self._buffer(i, "w")
        v = self._state(i, "square_avg")
        v *= self.alpha
        np.multiply(g, g, out=w)
        w *= 1 - self.alpha
        v += w                                                   # v_t = a v + (1-a) g^2
        if self.centered:
            gbar = self._state(i, "grad_avg")
            gbar *= self.alpha
            np.multiply(g, 1 - self.alpha, out=w)
            gbar += w                                            # gbar_t
            np.multiply(gbar, gbar, out=w)
            np.subtract(v, w, out=w)
            np.maximum(w, 0.0, out=w)
            np.sqrt(w, out=w)                                    # sqrt(v_t - gbar_t^2)
        else:
            np.sqrt(v, out=w)                                    # sqrt(v_t)
        w += self.eps
        np.divide(g, w, out=w)                                   # g_t / (sqrt(.) + eps)
        if self.momentum > 0:
            buf = self._state(i, "momentum_buffer")
            buf *= self.momentum
            buf += w                                             # b_t = mu b + g/(...)
            np.multiply(buf, self.lr, out=w)
        else:
            w *= self.lr
        p -= w


class Adadelta(Optimizer):
    """AdaDelta: RMSProp with the learning rate replaced by the RMS of past steps.

    Parameters
    ----------
    params : list of ndarray
        float64 arrays, updated in place.
    lr : float, default=1.0
        A factor :math:`\\eta` on the step (Zeiler's method has none: :math:`\\eta = 1`).
    rho : float, default=0.9
        The decay :math:`\\rho \\in [0, 1]` of both moving averages.
    eps : float, default=1e-6
        :math:`\\epsilon > 0`, added inside both roots.
    weight_decay : float, default=0
        L2 penalty :math:`\\lambda \\ge 0`.

    Notes
    -----
    .. math::

        v_t = \\rho v_{t-1} + (1-\\rho) g_t^2,\\quad
        \\Delta_t = \\frac{\\sqrt{u_{t-1} + \\epsilon}}{\\sqrt{v_t + \\epsilon}}\\, g_t,\\quad
        u_t = \\rho u_{t-1} + (1-\\rho) \\Delta_t^2,\\quad
        \\theta_t = \\theta_{t-1} - \\eta \\Delta_t,

    with :math:`v_0 = u_0 = 0`. The ratio of two RMS values gives
    :math:`\\Delta_t` the units of :math:`\\theta`.
    """

    def __init__(self, params: Sequence[np.ndarray], lr: float = 1.0, rho: float = 0.9,
                 eps: float = 1e-6, weight_decay: float = 0) -> None:
        super().__init__(params)
        self.lr = lr
        self.rho = rho
        self.eps = eps
        self.weight_decay = weight_decay
        self._check_hyper()

    def _check_hyper(self) -> None:
        check_scalar(self.lr, "lr", numbers.Real, min_val=0.0)
        check_scalar(self.rho, "rho", numbers.Real, min_val=0.0, max_val=1.0)
        check_scalar(self.eps, "eps", numbers.Real, min_val=0.0, include_min=False)
        check_scalar(self.weight_decay, "weight_decay", numbers.Real, min_val=0.0)

    def _update(self, i: int, p: np.ndarray, g: np.ndarray) -> None:
        g = self._with_l2(i, g, self.weight_decay)
        w, d = self._buffer(i, "w"), self._buffer(i, "d")
        v = self._state(i, "square_avg")
        u = self._state(i, "acc_delta")
        v *= self.rho
        np.multiply(g, g, out=w)
        w *= 1 - self.rho
        v += w                                                   # v_t
        np.add(v, self.eps, out=d)
        np.sqrt(d, out=d)                                        # sqrt(v_t + eps)
        np.add(u, self.eps, out=w)
        np.sqrt(w, out=w)                                        # sqrt(u_{t-1} + eps)
        w /= d
        w *= g                                                   # Delta_t
        u *= self.rho
        np.multiply(w, w, out=d)
        d *= 1 - self.rho
        u += d                                                   # u_t
        w *= self.lr
        p -= w


# --------------------------------------------------------------------------------------
# Adam, AdamW, NAdam
# --------------------------------------------------------------------------------------

class Adam(Optimizer):
    """Adam: momentum (first moment) over RMSProp (second moment), both bias-corrected.

    Parameters
    ----------
    params : list of ndarray
        float64 arrays, updated in place.
    lr : float, default=1e-3
        The learning rate :math:`\\eta \\ge 0`.
    betas : (float, float), default=(0.9, 0.999)
        :math:`(\\beta_1, \\beta_2)`, each in :math:`[0, 1)`.
    eps : float, default=1e-8
        :math:`\\epsilon > 0`, added to :math:`\\sqrt{\\hat v_t}` (outside the root).
    weight_decay : float, default=0
        L2 penalty :math:`\\lambda \\ge 0`, added to the gradient (coupled; see
        :class:`AdamW` for the decoupled form).
    amsgrad : bool, default=False
        Divide by the running maximum of :math:`v_t` (AMSGrad).

    Notes
    -----
    .. math::

        m_t = \\beta_1 m_{t-1} + (1-\\beta_1) g_t,\\quad
        v_t = \\beta_2 v_{t-1} + (1-\\beta_2) g_t^2,\\quad
        \\theta_t = \\theta_{t-1} - \\frac{\\eta}{1-\\beta_1^t}\\,
            \\frac{m_t}{\\sqrt{v_t}/\\sqrt{1-\\beta_2^t} + \\epsilon},

    with :math:`m_0 = v_0 = 0`: the step is
    :math:`\\eta\\,\\hat m_t / (\\sqrt{\\hat v_t} + \\epsilon)` with the bias-corrected
    moments :math:`\\hat m_t = m_t/(1-\\beta_1^t)`, :math:`\\hat v_t = v_t/(1-\\beta_2^t)`.
    With ``amsgrad`` the running maximum :math:`\\max_{s\\le t} v_s` of the raw
    :math:`v_s` replaces :math:`v_t` in the denominator, which is still divided by
    the current :math:`\\sqrt{1-\\beta_2^t}` (PyTorch's rule). The effective rate
    :math:`\\eta/(\\sqrt{\\max_s v_s}/\\sqrt{1-\\beta_2^t} + \\epsilon)` can therefore
    still grow, by at most a factor :math:`1/\\sqrt{1-\\beta_2}` over its first
    value; only Reddi et al.'s AMSGrad, without the bias correction, has a rate
    that never grows.
    """

    def __init__(self, params: Sequence[np.ndarray], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False) -> None:
        super().__init__(params)
        self.lr = lr
        self.betas = betas
        self.eps = eps
        self.weight_decay = weight_decay
        self.amsgrad = amsgrad
        self._check_hyper()

    def _check_hyper(self) -> None:
        check_scalar(self.lr, "lr", numbers.Real, min_val=0.0)
        _check_betas(self.betas)
        check_scalar(self.eps, "eps", numbers.Real, min_val=0.0, include_min=False)
        check_scalar(self.weight_decay, "weight_decay", numbers.Real, min_val=0.0)
        check_scalar(self.amsgrad, "amsgrad", bool)

    def _decay(self, p: np.ndarray) -> None:
        """Decoupled weight decay; Adam has none (AdamW overrides this)."""

    def _update(self, i: int, p: np.ndarray, g: np.ndarray) -> None:
        beta1, beta2 = self.betas
        t = self.step_count
        self._decay(p)                                           # AdamW: theta *= 1 - lr*lambda
        g = self._with_l2(i, g, self.weight_decay)               # Adam: g + lambda*theta
        w = self._buffer(i, "w")
        m = self._state(i, "exp_avg")
        v = self._state(i, "exp_avg_sq")
        m *= beta1
        np.multiply(g, 1 - beta1, out=w)
        m += w                                                   # m_t
        v *= beta2
        np.multiply(g, g, out=w)
        w *= 1 - beta2
        v += w                                                   # v_t
        if self.amsgrad:
            vmax = self._state(i, "max_exp_avg_sq")
            np.maximum(vmax, v, out=vmax)
            np.sqrt(vmax, out=w)
        else:
            np.sqrt(v, out=w)
        w /= math.sqrt(1 - beta2 ** t)
        w += self.eps                                            # sqrt(v_hat_t) + eps
        np.divide(m, w, out=w)
        w *= self.lr / (1 - beta1 ** t)                          # lr * m_hat_t / (...)
        p -= w


class AdamW(Adam):
    """AdamW: Adam with decoupled weight decay (Loshchilov and Hutter).

    Parameters
    ----------
    params : list of ndarray
        float64 arrays, updated in place.
    lr : float, default=1e-3
        The learning rate :math:`\\eta \\ge 0`.
    betas : (float, float), default=(0.9, 0.999)
        :math:`(\\beta_1, \\beta_2)`, each in :math:`[0, 1)`.
    eps : float, default=1e-8
        :math:`\\epsilon > 0`.
    weight_decay : float, default=1e-2
        The decoupled decay :math:`\\lambda \\ge 0` (权重衰减).
    amsgrad : bool, default=False
        As in :class:`Adam`.

    Notes
    -----
    Before Adam's step (run on the loss's gradient alone), the parameters shrink:
    :math:`\\theta \\leftarrow (1 - \\eta\\lambda)\\,\\theta`. The learning rate
    multiplies the decay, as in PyTorch; the paper writes
    :math:`\\theta \\leftarrow \\theta - \\eta_t \\lambda\\theta` with a schedule
    multiplier :math:`\\eta_t` and a separate :math:`\\alpha` for Adam's step.
    With ``weight_decay=0`` AdamW is Adam exactly.
    """

    def __init__(self, params: Sequence[np.ndarray], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False) -> None:
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                         amsgrad=amsgrad)

    def _decay(self, p: np.ndarray) -> None:
        if self.weight_decay != 0:
            p *= 1 - self.lr * self.weight_decay

    def _with_l2(self, i: int, g: np.ndarray, weight_decay: float) -> np.ndarray:
        return g                                                 # no L2 term in the gradient


class NAdam(Optimizer):
    """NAdam: Adam with Nesterov's look-ahead in the first moment (Dozat), PyTorch's form.

    Parameters
    ----------
    params : list of ndarray
        float64 arrays, updated in place.
    lr : float, default=2e-3
        The learning rate :math:`\\eta \\ge 0`.
    betas : (float, float), default=(0.9, 0.999)
        :math:`(\\beta_1, \\beta_2)`, each in :math:`[0, 1)`.
    eps : float, default=1e-8
        :math:`\\epsilon > 0`, added outside the root.
    weight_decay : float, default=0
        L2 penalty :math:`\\lambda \\ge 0`.
    momentum_decay : float, default=4e-3
        :math:`\\psi \\ge 0` in the momentum schedule below.

    Notes
    -----
    The momentum factor warms up with the step:
    :math:`\\mu_t = \\beta_1 (1 - \\tfrac12\\, 0.96^{t\\psi})`, and
    :math:`\\Pi_t = \\prod_{s\\le t} \\mu_s`. With :math:`m_t`, :math:`v_t` as in Adam
    and :math:`\\hat v_t = v_t/(1-\\beta_2^t)`,

    .. math::

        \\theta_t = \\theta_{t-1}
          - \\eta\\,\\frac{1-\\mu_t}{1-\\Pi_t}\\,\\frac{g_t}{\\sqrt{\\hat v_t}+\\epsilon}
          - \\eta\\,\\frac{\\mu_{t+1}}{1-\\Pi_{t+1}}\\,\\frac{m_t}{\\sqrt{\\hat v_t}+\\epsilon}.

    With a constant :math:`\\mu_t = \\beta_1` (so :math:`\\Pi_t = \\beta_1^t`, Adam's bias
    correction) this is the rule of the notes; the chapter measures the difference.
    """

    def __init__(self, params: Sequence[np.ndarray], lr: float = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, momentum_decay: float = 4e-3) -> None:
        super().__init__(params)
        self.lr = lr
        self.betas = betas
        self.eps = eps
        self.weight_decay = weight_decay
        self.momentum_decay = momentum_decay
        self._check_hyper()
        self.mu_product = 1.0        # Pi_t, the product of the momentum factors so far

    def _check_hyper(self) -> None:
        check_scalar(self.lr, "lr", numbers.Real, min_val=0.0)
        _check_betas(self.betas)
        check_scalar(self.eps, "eps", numbers.Real, min_val=0.0, include_min=False)
        check_scalar(self.weight_decay, "weight_decay", numbers.Real, min_val=0.0)
        check_scalar(self.momentum_decay, "momentum_decay", numbers.Real, min_val=0.0)

    def step(self, grads: Sequence[np.ndarray]) -> None:
        grads = self._check_grads(grads)
        self._recheck_hyper()
        self.step_count += 1
        t, beta1 = self.step_count, self.betas[0]
        self._mu = beta1 * (1 - 0.5 * 0.96 ** (t * self.momentum_decay))             # mu_t
        self._mu_next = beta1 * (1 - 0.5 * 0.96 ** ((t + 1) * self.momentum_decay))  # mu_{t+1}
        self.mu_product *= self._mu                                                  # Pi_t
        for i, g in enumerate(grads):
            self._update(i, self.params[i], g)

    step.__doc__ = Optimizer.step.__doc__

    def _update(self, i: int, p: np.ndarray, g: np.ndarray) -> None:
        beta1, beta2 = self.betas
        t, mu, mu_next = self.step_count, self._mu, self._mu_next
        g = self._with_l2(i, g, self.weight_decay)
        w = self._buffer(i, "w")
        m = self._state(i, "exp_avg")
        v = self._state(i, "exp_avg_sq")
        m *= beta1
        np.multiply(g, 1 - beta1, out=w)
        m += w                                                   # m_t
        v *= beta2
        np.multiply(g, g, out=w)
        w *= 1 - beta2
        v += w                                                   # v_t
        np.divide(v, 1 - beta2 ** t, out=w)
        np.sqrt(w, out=w)
        w += self.eps                                            # sqrt(v_hat_t) + eps
        d = self._buffer(i, "d")
        np.divide(g, w, out=d)
        d *= self.lr * (1 - mu) / (1 - self.mu_product)
        p -= d                                                   # the gradient's share
        np.divide(m, w, out=d)
        d *= self.lr * mu_next / (1 - self.mu_product * mu_next)
        p -= d                                                   # the momentum's share


# --------------------------------------------------------------------------------------
# Test functions and a driver
# --------------------------------------------------------------------------------------

def _point(x: Any, name: str = "x") -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.shape != (2,):
        raise ValueError(f"{name} must be a point of shape (2,); got shape {x.shape}")
    if not (math.isfinite(x[0]) and math.isfinite(x[1])):
        raise ValueError(f"{name} contains NaN or infinity")
    return x


def rosenbrock(x: Any, a: float = 1.0, b: float = 100.0) -> tuple[float, np.ndarray]:
    """Rosenbrock's banana function and its gradient.

    .. math:: f(x, y) = (a - x)^2 + b\\,(y - x^2)^2,

    minimised at :math:`(a, a^2)` with value 0: a long curved valley whose floor
    is nearly flat.

    Parameters
    ----------
    x : array-like of shape (2,)
    a, b : float

    Returns
    -------
    value : float
    grad : ndarray of shape (2,)

    >>> f, g = rosenbrock([1.0, 1.0])
    >>> float(f), g.tolist()
    (0.0, [0.0, 0.0])
    """
    x0, x1 = _point(x)
    check_scalar(a, "a", numbers.Real)
    check_scalar(b, "b", numbers.Real)
    r = x1 - x0 * x0
    value = (a - x0) ** 2 + b * r * r
    grad = np.array([2 * (x0 - a) - 4 * b * x0 * r, 2 * b * r])
    return float(value), grad


def beale(x: Any) -> tuple[float, np.ndarray]:
    """Beale's function and its gradient.

    .. math:: f(x, y) = (1.5 - x + xy)^2 + (2.25 - x + xy^2)^2 + (2.625 - x + xy^3)^2,

    minimised at :math:`(3, 0.5)` with value 0; flat plateaus and steep walls.

    Parameters
    ----------
    x : array-like of shape (2,)

    Returns
    -------
    value : float
    grad : ndarray of shape (2,)

    >>> f, g = beale([3.0, 0.5])
    >>> float(f), g.tolist()
    (0.0, [0.0, 0.0])
    """
    x0, x1 = _point(x)
    c = np.array([1.5, 2.25, 2.625])
    k = np.arange(1, 4)
    r = c - x0 + x0 * x1 ** k                       # the three residuals
    value = float(r @ r)
    dx = 2 * r @ (x1 ** k - 1)
    dy = 2 * r @ (x0 * k * x1 ** (k - 1))
    return value, np.array([dx, dy])


def ill_conditioned_quadratic(x: Any, condition_number: float = 50.0,
                              angle: float = np.pi / 6) -> tuple[float, np.ndarray]:
    """A convex quadratic :math:`\\tfrac12 x^\\top A x` with condition number :math:`\\kappa`.

    :math:`A = R\\,\\mathrm{diag}(1, \\kappa)\\,R^\\top` with :math:`R` the rotation by
    ``angle``, so the valley is not aligned with the axes (which matters for
    the per-coordinate methods). Minimised at 0 with value 0.

    Parameters
    ----------
    x : array-like of shape (2,)
    condition_number : float, default=50
        :math:`\\kappa \\ge 1`, the ratio of the largest to the smallest curvature.
    angle : float, default=pi/6
        The rotation of the principal axes, in radians.

    Returns
    -------
    value : float
    grad : ndarray of shape (2,)
        :math:`A x`.

    >>> f, g = ill_conditioned_quadratic([0.0, 0.0])
    >>> float(f), g.tolist()
    (0.0, [0.0, 0.0])
    """
    x = _point(x)
    check_scalar(condition_number, "condition_number", numbers.Real, min_val=1.0)
    check_scalar(angle, "angle", numbers.Real)
    c, s = np.cos(angle), np.sin(angle)
    R = np.array([[c, -s], [s, c]])
    A = R @ np.diag([1.0, float(condition_number)]) @ R.T
    grad = A @ x
    return float(0.5 * x @ grad), grad


@dataclass
class OptimizeResult:
    """The result of :func:`minimize`.

    Attributes
    ----------
    x : ndarray of shape (d,)
        The last point.
    path : ndarray of shape (n_steps + 1, d)
        Every point visited, the start included.
    values : ndarray of shape (n_steps + 1,)
        The function along the path.
    grad_norms : ndarray of shape (n_steps + 1,)
        The Euclidean norm of the gradient along the path.
    """

    x: np.ndarray
    path: np.ndarray
    values: np.ndarray
    grad_norms: np.ndarray


def minimize(fun: Callable[[np.ndarray], tuple[float, np.ndarray]], x0: Any,
             optimizer: Callable[..., Optimizer], n_steps: int) -> OptimizeResult:
    """Run an optimiser on ``fun`` from ``x0`` for ``n_steps`` steps, recording the path.

    Parameters
    ----------
    fun : callable
        ``fun(x) -> (value, grad)`` with ``grad`` of ``x``'s shape.
    x0 : array-like of shape (d,)
        The starting point (copied; never modified).
    optimizer : callable
        ``optimizer(params) -> Optimizer``, for example
        ``lambda p: Adam(p, lr=0.1)`` or ``functools.partial(Adam, lr=0.1)``.
    n_steps : int
        The number of steps, at least 0.

    Returns
    -------
    OptimizeResult
        With ``x``, ``path`` (n_steps + 1, d), ``values`` (n_steps + 1,) and
        ``grad_norms`` (n_steps + 1,). A run that leaves the finite numbers
        stops with a ValueError that says at which step.

    >>> from functools import partial
    >>> res = minimize(rosenbrock, [-1.0, 1.0], partial(SGD, lr=1e-3), 3)
    >>> res.path.shape
    (4, 2)
    """
    if not callable(fun):
        raise TypeError(f"fun must be callable, returning (value, grad); got {type(fun).__name__}")
    if not callable(optimizer):
        raise TypeError("optimizer must be callable as optimizer(params), e.g. "
                        "functools.partial(Adam, lr=0.1); got "
                        f"{type(optimizer).__name__}")
    check_scalar(n_steps, "n_steps", numbers.Integral, min_val=0)
    x = np.array(x0, dtype=np.float64)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x0 must be a non-empty 1-d array; got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError("x0 contains NaN or infinity")
    opt = optimizer([x])
    if not isinstance(opt, Optimizer):
        raise TypeError(f"optimizer(params) must return an mlbook.optim optimiser; got "
                        f"{type(opt).__name__}")
    path = np.empty((n_steps + 1, x.size))
    values = np.empty(n_steps + 1)
    grad_norms = np.empty(n_steps + 1)
    with np.errstate(over="ignore", invalid="ignore"):   # divergence is reported below
        for k in range(n_steps + 1):
            value, grad = fun(x)
            grad = np.asarray(grad, dtype=np.float64)
            if grad.shape != x.shape:
                raise ValueError(f"fun returned a gradient of shape {grad.shape} for x0 of "
                                 f"shape {x.shape}")
            if not (math.isfinite(value) and math.isfinite(grad.sum())):
                raise ValueError(f"the run diverged: fun returned a non-finite value or "
                                 f"gradient at step {k}; lower the learning rate")
            path[k], values[k], grad_norms[k] = x, value, math.sqrt(float(grad @ grad))
            if k < n_steps:
                opt.step([grad])
                if not math.isfinite(x.sum()):
                    raise ValueError(f"the run diverged: the iterate left the finite numbers "
                                     f"at step {k + 1}; lower the learning rate")
    return OptimizeResult(x=x.copy(), path=path, values=values, grad_norms=grad_norms)
