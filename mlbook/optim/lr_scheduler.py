r"""Learning-rate schedules with the names, defaults and rules of ``torch.optim.lr_scheduler``.

A scheduler is attached to one optimiser of :mod:`mlbook.optim` and sets its
learning rate, ``optimizer.lr``, as PyTorch's sets ``param_group["lr"]`` (an
optimiser here has a single group, so every list below has one entry). Call
:meth:`LRScheduler.step` once per epoch (or per iteration), after the
optimiser's steps of that epoch::

    opt = SGD(params, lr=0.1, momentum=0.9)
    sched = CosineAnnealingLR(opt, T_max=100)
    for epoch in range(100):
        for batch in batches:
            opt.step(grads(batch))
        sched.step()

The schedules, with :math:`\eta_0` the optimiser's learning rate when the
first scheduler was attached (``base_lrs[0]``) and :math:`t` = ``last_epoch``,
the number of :meth:`~LRScheduler.step` calls so far:

===================== =================================================================================
``StepLR``            :math:`\eta_0\,\gamma^{\lfloor t / s \rfloor}`
``MultiStepLR``       :math:`\eta_0\,\gamma^{\#\{m \in \text{milestones}:\ m \le t\}}`
``ExponentialLR``     :math:`\eta_0\,\gamma^{t}`
``CosineAnnealingLR`` :math:`\eta_{\min} + \tfrac12(\eta_0 - \eta_{\min})(1 + \cos(\pi t / T_{\max}))`
``LinearLR``          :math:`\eta_0\,(f_s + (f_e - f_s)\min(t, T)/T)` (a warm-up for :math:`f_s < f_e`)
``LambdaLR``          :math:`\eta_0\,\lambda(t)`
``SequentialLR``      one schedule after another, switching at the milestones
===================== =================================================================================

Like PyTorch, most of them compute the new rate from the current one (a
recursive form: ``StepLR`` multiplies the rate by :math:`\gamma` at every
multiple of ``step_size``, ``CosineAnnealingLR`` by the ratio of two
consecutive cosine terms), not from the closed forms of the table; the two
agree up to round-off, and the recursive form is the one used, so that the
rates equal PyTorch's bit for bit. The recursive forms also keep a change
made to ``optimizer.lr`` from outside (or by another scheduler), as
PyTorch's do. ``CosineAnnealingLR`` goes on past :math:`T_{\max}` as PyTorch's
does: the rate climbs back along the cosine, a period of :math:`2T_{\max}`.

Differences from PyTorch: ``LinearLR`` refuses ``end_factor = 0`` (PyTorch
allows :math:`f_e \in [0, 1]`; a warm-up factor here lies in :math:`(0, 1]`
at both ends); ``MultiStepLR`` and ``SequentialLR`` need strictly increasing
milestones (PyTorch counts a repeated milestone twice, and sorts nothing);
``step`` takes no ``epoch`` argument (deprecated in PyTorch); no
``state_dict``; no warning when ``step`` comes before the optimiser's.

See the chapters "Gradient-descent optimisers" and "Convergence and
learning-rate schedules" (Part VII).
"""

from __future__ import annotations

import abc
import math
import numbers
from bisect import bisect_right
from collections import Counter
from typing import Any, Callable, Sequence

import numpy as np

from mlbook._validation import check_scalar

from ._optimizers import Optimizer

__all__ = [
    "LRScheduler",
    "StepLR",
    "MultiStepLR",
    "ExponentialLR",
    "CosineAnnealingLR",
    "LinearLR",
    "LambdaLR",
    "SequentialLR",
]


def _check_optimizer(optimizer: Any, owner: str) -> Optimizer:
    if not isinstance(optimizer, Optimizer):
        got = "None" if optimizer is None else f"a {type(optimizer).__name__}"
        raise TypeError(
            f"{owner}: optimizer must be an optimiser of mlbook.optim (SGD, Adam, ...), "
            f"whose lr the scheduler sets; got {got}"
        )
    return optimizer


def _check_milestones(milestones: Any, min_val: int) -> list[int]:
    if isinstance(milestones, (str, bytes)) or not isinstance(milestones, (Sequence, np.ndarray)):
        raise TypeError(f"milestones must be a list of ints; got {milestones!r}")
    values = [int(check_scalar(m, f"milestones[{i}]", numbers.Integral, min_val=min_val))
              for i, m in enumerate(milestones)]
    for a, b in zip(values[:-1], values[1:]):
        if b <= a:
            raise ValueError(f"milestones must be strictly increasing; got {values}")
    return values


class LRScheduler(abc.ABC):
    r"""Base class of the schedules: holds the optimiser, counts the steps, sets ``optimizer.lr``.

    Parameters
    ----------
    optimizer : mlbook.optim.Optimizer
        The optimiser whose ``lr`` the schedule sets.
    last_epoch : int, default=-1
        The index of the last epoch; -1 starts a new schedule. A value
        :math:`\ge 0` resumes one and needs ``optimizer.initial_lr``, which
        the first scheduler attached to the optimiser records (PyTorch's
        ``param_group["initial_lr"]``).

    Attributes
    ----------
    optimizer : Optimizer
    base_lrs : list of float
        ``[optimizer.initial_lr]``: the learning rate when the first scheduler
        was attached to the optimiser, :math:`\eta_0`.
    last_epoch : int
        The number of :meth:`step` calls since the schedule started, :math:`t`:
        the construction performs the first step, from -1 to 0, and sets
        ``optimizer.lr`` to the rate of epoch 0, as PyTorch does.

    Notes
    -----
    A subclass implements :meth:`get_lr`, the rate of epoch ``last_epoch``
    (after the counter has moved), and may implement
    ``_get_closed_form_lr``, which :class:`SequentialLR` uses when it hands
    over to a schedule (PyTorch's ``_update_lr(0)``).
    """

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        _check_optimizer(optimizer, type(self).__name__)
        check_scalar(last_epoch, "last_epoch", numbers.Integral, min_val=-1)
        self.optimizer = optimizer
        if last_epoch == -1:
            if not hasattr(optimizer, "initial_lr"):
                optimizer.initial_lr = optimizer.lr
        elif not hasattr(optimizer, "initial_lr"):
            raise ValueError(
                f"last_epoch={last_epoch} resumes a schedule, which needs optimizer.initial_lr "
                "(set when a scheduler is first attached with last_epoch=-1); start with "
                "last_epoch=-1"
            )
        self.base_lrs: list[float] = [optimizer.initial_lr]
        self.last_epoch = int(last_epoch)
        self._is_initial = False
        self._initial_step()

    def _initial_step(self) -> None:
        """Reset the step count and take the first step (epoch -1 -> 0), as PyTorch does."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    @abc.abstractmethod
    def get_lr(self) -> list[float]:
        """The learning rate of epoch ``last_epoch``, for :meth:`LRScheduler.step` to set.

        Each schedule computes its own; to read the current rate, call
        :meth:`LRScheduler.get_last_lr`.
        """

    def get_last_lr(self) -> list[float]:
        """The learning rates the last :meth:`step` set (one: the optimiser's ``lr``)."""
        return list(self._last_lr)

    def step(self) -> None:
        """Move to the next epoch and set the optimiser's learning rate."""
        self._step_count += 1
        self._update_lr()

    def _update_lr(self, epoch: int | None = None) -> None:
        if epoch is None:
            self.last_epoch += 1
            values = self.get_lr()
        else:
            self.last_epoch = epoch
            closed = getattr(self, "_get_closed_form_lr", None)
            values = closed() if closed is not None else self.get_lr()
        (self.optimizer.lr,) = values
        self._last_lr = [self.optimizer.lr]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(last_epoch={self.last_epoch}, lr={self.optimizer.lr!r})"


class StepLR(LRScheduler):
    r"""Multiply the learning rate by ``gamma`` every ``step_size`` epochs.

    :math:`\eta_t = \eta_0\,\gamma^{\lfloor t/s \rfloor}`, computed as PyTorch
    does: the current rate times :math:`\gamma` at :math:`t = s, 2s, \dots`.

    Parameters
    ----------
    optimizer : mlbook.optim.Optimizer
    step_size : int
        The period :math:`s \ge 1`.
    gamma : float, default=0.1
        The factor :math:`\gamma > 0`.
    last_epoch : int, default=-1

    Examples
    --------
    >>> from mlbook.optim import SGD
    >>> opt = SGD([np.zeros(1)], lr=1.0)
    >>> sched = StepLR(opt, step_size=2, gamma=0.5)
    >>> rates = []
    >>> for _ in range(5):
    ...     rates.append(sched.get_last_lr()[0])
    ...     sched.step()
    >>> rates
    [1.0, 1.0, 0.5, 0.5, 0.25]
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        check_scalar(step_size, "step_size", numbers.Integral, min_val=1)
        check_scalar(gamma, "gamma", numbers.Real, min_val=0.0, include_min=False)
        self.step_size = int(step_size)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return [self.optimizer.lr]
        return [self.optimizer.lr * self.gamma]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size)
                for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    r"""Multiply the learning rate by ``gamma`` at each of the ``milestones``.

    :math:`\eta_t = \eta_0\,\gamma^{k(t)}` with :math:`k(t)` the number of
    milestones :math:`\le t`.

    Parameters
    ----------
    optimizer : mlbook.optim.Optimizer
    milestones : list of int
        Epoch indices, strictly increasing, :math:`\ge 0`.
    gamma : float, default=0.1
        The factor :math:`\gamma > 0`.
    last_epoch : int, default=-1
    """

    def __init__(self, optimizer: Optimizer, milestones: Sequence[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.milestones = Counter(_check_milestones(milestones, min_val=0))
        check_scalar(gamma, "gamma", numbers.Real, min_val=0.0, include_min=False)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch not in self.milestones:
            return [self.optimizer.lr]
        return [self.optimizer.lr * self.gamma ** self.milestones[self.last_epoch]]

    def _get_closed_form_lr(self) -> list[float]:
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch)
                for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    r"""Multiply the learning rate by ``gamma`` every epoch: :math:`\eta_t = \eta_0\,\gamma^t`.

    Parameters
    ----------
    optimizer : mlbook.optim.Optimizer
    gamma : float
        The factor :math:`\gamma > 0` (no default, as in PyTorch).
    last_epoch : int, default=-1
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        check_scalar(gamma, "gamma", numbers.Real, min_val=0.0, include_min=False)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self._is_initial:
            return [self.optimizer.lr]
        return [self.optimizer.lr * self.gamma]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    r"""Anneal the learning rate along a half cosine from :math:`\eta_0` to ``eta_min`` in ``T_max`` epochs.

    .. math::

        \eta_t = \eta_{\min} + \tfrac12(\eta_0 - \eta_{\min})
                 \Big(1 + \cos\frac{\pi t}{T_{\max}}\Big)

    (Loshchilov and Hutter's SGDR without the restarts), computed as PyTorch
    does, recursively:

    .. math::

        \eta_t = \eta_{\min} + (\eta_{t-1} - \eta_{\min})
                 \frac{1 + \cos(\pi t / T_{\max})}{1 + \cos(\pi (t-1) / T_{\max})},

    with the step :math:`\eta_{t-1} + \tfrac12(\eta_0 - \eta_{\min})(1 - \cos(\pi/T_{\max}))`
    where the denominator vanishes (:math:`t - 1 = T_{\max}`, and every
    :math:`2T_{\max}` after). The recursion differs from the closed form by
    round-off (a few units in the last place after hundreds of steps); it is
    PyTorch's, and the rates equal PyTorch's bit for bit. Past ``T_max`` the
    rate climbs back along the cosine, as PyTorch's does.

    Parameters
    ----------
    optimizer : mlbook.optim.Optimizer
    T_max : int
        Half the period, :math:`T_{\max} \ge 1` epochs.
    eta_min : float, default=0.0
        The smallest rate, :math:`\eta_{\min} \ge 0`.
    last_epoch : int, default=-1
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0,
                 last_epoch: int = -1) -> None:
        check_scalar(T_max, "T_max", numbers.Integral, min_val=1)
        check_scalar(eta_min, "eta_min", numbers.Real, min_val=0.0)
        self.T_max = int(T_max)
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        lr, base_lr = self.optimizer.lr, self.base_lrs[0]
        if self._is_initial:
            return [lr]
        if self._step_count == 1 and self.last_epoch > 0:
            # the first step of a resumed schedule: the closed form
            return [self.eta_min + (base_lr - self.eta_min)
                    * (1 + math.cos(self.last_epoch * math.pi / self.T_max)) / 2]
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            # from the trough: 1 + cos(pi (t-1) / T_max) = 0, add the closed form's increment
            return [lr + (base_lr - self.eta_min) * (1 - math.cos(math.pi / self.T_max)) / 2]
        return [(1 + math.cos(math.pi * self.last_epoch / self.T_max))
                / (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max))
                * (lr - self.eta_min) + self.eta_min]

    def _get_closed_form_lr(self) -> list[float]:
        return [self.eta_min + (base_lr - self.eta_min)
                * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    r"""Scale the learning rate by a factor that moves linearly from ``start_factor`` to ``end_factor``.

    :math:`\eta_t = \eta_0\,\big(f_s + (f_e - f_s)\min(t, T)/T\big)`, with
    :math:`T` = ``total_iters``: with :math:`f_s < f_e = 1`, a linear warm-up
    (线性预热) from :math:`f_s\eta_0` to :math:`\eta_0` in :math:`T` epochs.
    Computed as PyTorch does, recursively: epoch 0 multiplies the rate by
    :math:`f_s`, epoch :math:`t \le T` by
    :math:`1 + (f_e - f_s)/(T f_s + (t-1)(f_e - f_s))`, the ratio of two
    consecutive factors.

    Parameters
    ----------
    optimizer : mlbook.optim.Optimizer
    start_factor : float, default=1/3
        :math:`f_s \in (0, 1]`.
    end_factor : float, default=1.0
        :math:`f_e \in (0, 1]` (PyTorch also allows 0).
    total_iters : int, default=5
        :math:`T \ge 1`, the epochs the factor takes to reach ``end_factor``.
    last_epoch : int, default=-1
    """

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3,
                 end_factor: float = 1.0, total_iters: int = 5, last_epoch: int = -1) -> None:
        for name, value in (("start_factor", start_factor), ("end_factor", end_factor)):
            check_scalar(value, name, numbers.Real, min_val=0.0, max_val=1.0, include_min=False)
        check_scalar(total_iters, "total_iters", numbers.Integral, min_val=1)
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = int(total_iters)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        lr = self.optimizer.lr
        if self.last_epoch == 0:
            return [lr * self.start_factor]
        if self._is_initial or self.last_epoch > self.total_iters:
            return [lr]
        return [lr * (1.0 + (self.end_factor - self.start_factor)
                      / (self.total_iters * self.start_factor
                         + (self.last_epoch - 1) * (self.end_factor - self.start_factor)))]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * (self.start_factor + (self.end_factor - self.start_factor)
                           * min(self.total_iters, self.last_epoch) / self.total_iters)
                for base_lr in self.base_lrs]


class LambdaLR(LRScheduler):
    r"""The learning rate :math:`\eta_0\,\lambda(t)`, for a function ``lr_lambda`` of the epoch.

    Parameters
    ----------
    optimizer : mlbook.optim.Optimizer
    lr_lambda : callable
        ``lr_lambda(t)`` for the integer epoch ``t`` returns the factor, a
        finite number :math:`\ge 0`.
    last_epoch : int, default=-1

    Examples
    --------
    >>> from mlbook.optim import SGD
    >>> opt = SGD([np.zeros(1)], lr=0.5)
    >>> sched = LambdaLR(opt, lambda t: 1 / (t + 1))
    >>> sched.step(); sched.step()
    >>> round(opt.lr, 12)
    0.166666666667
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable[[int], float],
                 last_epoch: int = -1) -> None:
        if not callable(lr_lambda):
            raise TypeError(f"lr_lambda must be a function of the epoch; got {lr_lambda!r}")
        self.lr_lambda = lr_lambda
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        factor = self.lr_lambda(self.last_epoch)
        if (isinstance(factor, bool) or not isinstance(factor, numbers.Real)
                or not math.isfinite(factor) or factor < 0):
            raise ValueError(
                f"lr_lambda({self.last_epoch}) returned {factor!r}; it must return a finite "
                "number >= 0"
            )
        return [base_lr * factor for base_lr in self.base_lrs]


class SequentialLR(LRScheduler):
    r"""Run ``schedulers`` one after another, switching at the ``milestones``.

    Epochs :math:`0, \dots, m_1 - 1` follow ``schedulers[0]``, epochs
    :math:`m_1, \dots, m_2 - 1` ``schedulers[1]``, and so on. At a milestone
    the next schedule starts from its own epoch 0 (its closed form there, as
    PyTorch's ``_update_lr(0)``). The usual use: ``LinearLR`` warm-up, then
    ``CosineAnnealingLR``.

    Parameters
    ----------
    optimizer : mlbook.optim.Optimizer
    schedulers : list of LRScheduler
        At least one, all attached to ``optimizer`` (they are built first, and
        their initial steps undone here, as PyTorch does).
    milestones : list of int
        ``len(schedulers) - 1`` epochs, strictly increasing, :math:`\ge 1`.
    last_epoch : int, default=-1

    Examples
    --------
    >>> from mlbook.optim import SGD
    >>> opt = SGD([np.zeros(1)], lr=1.0)
    >>> warm = LinearLR(opt, start_factor=0.25, total_iters=3)
    >>> cos = CosineAnnealingLR(opt, T_max=4)
    >>> sched = SequentialLR(opt, [warm, cos], milestones=[3])
    >>> rates = []
    >>> for _ in range(8):
    ...     rates.append(round(sched.get_last_lr()[0], 4))
    ...     sched.step()
    >>> rates
    [0.25, 0.5, 0.75, 1.0, 0.8536, 0.5, 0.1464, 0.0]
    """

    def __init__(self, optimizer: Optimizer, schedulers: Sequence[LRScheduler],
                 milestones: Sequence[int], last_epoch: int = -1) -> None:
        _check_optimizer(optimizer, type(self).__name__)
        check_scalar(last_epoch, "last_epoch", numbers.Integral, min_val=-1)
        if isinstance(schedulers, LRScheduler) or not isinstance(schedulers, Sequence):
            raise TypeError(f"schedulers must be a list of schedulers; got {schedulers!r}")
        if len(schedulers) < 1:
            raise ValueError("schedulers is empty; SequentialLR needs at least one scheduler")
        for i, sched in enumerate(schedulers):
            if not isinstance(sched, LRScheduler):
                raise TypeError(f"schedulers[{i}] must be a scheduler of "
                                f"mlbook.optim.lr_scheduler; got {type(sched).__name__}")
            if sched.optimizer is not optimizer:
                raise ValueError(
                    f"schedulers[{i}] ({type(sched).__name__}) is attached to another optimiser; "
                    "every scheduler of a SequentialLR must set the same optimiser's lr"
                )
        milestones = _check_milestones(milestones, min_val=1)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                f"milestones must hold len(schedulers) - 1 = {len(schedulers) - 1} epochs, one "
                f"per switch; got {len(milestones)}"
            )
        self._schedulers = list(schedulers)
        self._milestones = milestones
        self.last_epoch = int(last_epoch) + 1
        self.optimizer = optimizer
        # back to the initial rate, and undo the initial step each scheduler took when built
        optimizer.lr = optimizer.initial_lr
        self._undo(self)
        # the initial step of the scheduler that runs at epoch 0 only
        idx = bisect_right(self._milestones, 0)
        self._schedulers[idx]._initial_step()
        self._last_lr = self._schedulers[idx].get_last_lr()

    def _undo(self, sched: LRScheduler) -> None:
        if isinstance(sched, SequentialLR):
            for s in sched._schedulers:
                self._undo(s)
        elif sched is not self:
            sched.last_epoch -= 1

    def get_lr(self) -> list[float]:
        """The rate of the schedule in charge at ``last_epoch`` (the one :meth:`step` moved)."""
        return self._schedulers[bisect_right(self._milestones, self.last_epoch)].get_last_lr()

    def step(self) -> None:
        """Move to the next epoch: step the schedule of this epoch, or start the next one."""
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()
