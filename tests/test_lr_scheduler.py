"""Tests of mlbook.optim.lr_scheduler: against torch.optim.lr_scheduler when PyTorch is installed,
the closed forms of the schedules, and bad input."""

from __future__ import annotations

import inspect
import math
import warnings

import numpy as np
import pytest

from mlbook.optim import SGD, Adam
from mlbook.optim import lr_scheduler as ours_module
from mlbook.optim.lr_scheduler import (
    CosineAnnealingLR,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    LRScheduler,
    MultiStepLR,
    SequentialLR,
    StepLR,
)

TORCH_MISSING = ("PyTorch, the oracle of these tests, is not installed: it is in the extra "
                 "[oracles], which `make test-all` and CI install (README: the PyTorch comparisons)")
N_STEPS = 500


def _opt(lr=0.1):
    return SGD([np.zeros(2)], lr=lr, momentum=0.9)


def _rates(sched, n=N_STEPS):
    """The rate of epochs 0, ..., n-1: get_last_lr() before each step; it is the optimiser's lr."""
    out = []
    for _ in range(n):
        (lr,) = sched.get_last_lr()
        assert lr == sched.optimizer.lr
        out.append(lr)
        sched.step()
    return np.array(out)


# --------------------------------------------------------------------------------------
# torch.optim.lr_scheduler as the oracle
# --------------------------------------------------------------------------------------

def _sequential(M, opt, warm, cos):
    return M.SequentialLR(opt, [M.LinearLR(opt, **warm), M.CosineAnnealingLR(opt, **cos)],
                          milestones=[warm["total_iters"]])


CASES = [
    ("StepLR", lambda M, o: M.StepLR(o, step_size=30)),
    ("StepLR", lambda M, o: M.StepLR(o, step_size=7, gamma=0.5)),
    ("StepLR", lambda M, o: M.StepLR(o, step_size=1, gamma=0.99)),
    ("StepLR", lambda M, o: M.StepLR(o, step_size=100, gamma=3.0)),
    ("MultiStepLR", lambda M, o: M.MultiStepLR(o, milestones=[30, 80])),
    ("MultiStepLR", lambda M, o: M.MultiStepLR(o, milestones=[1, 2, 50, 250, 499], gamma=0.7)),
    ("MultiStepLR", lambda M, o: M.MultiStepLR(o, milestones=[0, 10], gamma=0.5)),
    ("ExponentialLR", lambda M, o: M.ExponentialLR(o, gamma=0.99)),
    ("ExponentialLR", lambda M, o: M.ExponentialLR(o, gamma=0.9)),
    ("ExponentialLR", lambda M, o: M.ExponentialLR(o, gamma=1.001)),
    ("CosineAnnealingLR", lambda M, o: M.CosineAnnealingLR(o, T_max=500)),
    ("CosineAnnealingLR", lambda M, o: M.CosineAnnealingLR(o, T_max=100, eta_min=1e-3)),
    ("CosineAnnealingLR", lambda M, o: M.CosineAnnealingLR(o, T_max=37, eta_min=0.05)),
    ("CosineAnnealingLR", lambda M, o: M.CosineAnnealingLR(o, T_max=1)),
    ("LinearLR", lambda M, o: M.LinearLR(o)),
    ("LinearLR", lambda M, o: M.LinearLR(o, start_factor=0.01, total_iters=100)),
    ("LinearLR", lambda M, o: M.LinearLR(o, start_factor=1.0, end_factor=0.05, total_iters=250)),
    ("LinearLR", lambda M, o: M.LinearLR(o, start_factor=0.5, end_factor=0.5, total_iters=3)),
    ("LambdaLR", lambda M, o: M.LambdaLR(o, lambda t: 0.95 ** t)),
    ("LambdaLR", lambda M, o: M.LambdaLR(o, lambda t: 1 / math.sqrt(t + 1))),
    ("LambdaLR", lambda M, o: M.LambdaLR(o, lambda t: min(1.0, (t + 1) / 10) * 0.5 ** (t // 100))),
    ("SequentialLR", lambda M, o: _sequential(M, o, dict(start_factor=0.1, total_iters=20),
                                              dict(T_max=480))),
    ("SequentialLR", lambda M, o: _sequential(M, o, dict(start_factor=0.01, total_iters=50),
                                              dict(T_max=100, eta_min=1e-4))),
    ("SequentialLR", lambda M, o: M.SequentialLR(
        o, [M.ConstantLR(o) if hasattr(M, "ConstantLR") else M.LambdaLR(o, lambda t: 1 / 3),
            M.ExponentialLR(o, gamma=0.98), M.StepLR(o, step_size=50, gamma=0.5)],
        milestones=[5, 200])),
]


def _torch_rates(make, lr, n=N_STEPS):
    torch = pytest.importorskip("torch", reason=TORCH_MISSING)
    import torch.optim.lr_scheduler as T

    opt = torch.optim.SGD([torch.zeros(2, requires_grad=True)], lr=lr, momentum=0.9)
    sched = make(T, opt)
    out = []
    for _ in range(n):
        (rate,) = sched.get_last_lr()
        out.append(float(rate))
        opt.step()                       # no gradients: nothing moves, but torch sees the order
        sched.step()
    return np.array(out), sched.last_epoch


@pytest.mark.parametrize("lr", [0.1, 3e-4])
@pytest.mark.parametrize("name, make", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rates_equal_torchs_over_500_steps(name, make, lr):
    # ConstantLR is not in mlbook: the third SequentialLR case uses LambdaLR(1/3) on our side,
    # which gives the same rates as torch's ConstantLR(factor=1/3, total_iters=5) before its
    # milestone at 5
    theirs, their_epoch = _torch_rates(make, lr)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                   # ours warns about nothing
        opt = _opt(lr)
        sched = make(ours_module, opt)
        assert type(sched).__name__ == name
        ours = _rates(sched)
    # rtol=0, atol=0: each rate is computed from the previous one (or the closed form) by the
    # same Python float operations in the same order as torch's (its recursive forms: StepLR
    # multiplies by gamma, CosineAnnealingLR by a ratio of cosines, LinearLR by a ratio of
    # factors), with the same libm cosine, so the rates are the same doubles; a reordered
    # formula, or the closed form where torch recurses, shows as a difference of some ulps
    np.testing.assert_array_equal(ours, theirs)
    assert sched.last_epoch == their_epoch


def test_a_resumed_cosine_schedule_equals_torchs():
    # last_epoch >= 0: the first step uses the closed form (torch's _step_count == 1 branch)
    torch = pytest.importorskip("torch", reason=TORCH_MISSING)
    import torch.optim.lr_scheduler as T

    topt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.2)
    T.CosineAnnealingLR(topt, T_max=50)                  # records initial_lr
    tsched = T.CosineAnnealingLR(topt, T_max=50, eta_min=0.01, last_epoch=10)
    theirs = []
    for _ in range(200):
        theirs.append(tsched.get_last_lr()[0])
        topt.step()
        tsched.step()
    opt = SGD([np.zeros(1)], lr=0.2)
    CosineAnnealingLR(opt, T_max=50)
    sched = CosineAnnealingLR(opt, T_max=50, eta_min=0.01, last_epoch=10)
    # rtol=0, atol=0: the same operations, as in test_rates_equal_torchs_over_500_steps
    np.testing.assert_array_equal(_rates(sched, 200), theirs)


def test_sgd_with_a_schedule_follows_torchs_trajectory():
    # the scheduler sets the lr that the next optimiser steps use, as torch's does
    torch = pytest.importorskip("torch", reason=TORCH_MISSING)
    import torch.optim.lr_scheduler as T

    A = np.diag([1.0, 10.0])
    x0 = np.array([1.0, 1.0])
    w = x0.copy()
    opt = SGD([w], lr=0.05, momentum=0.9)
    sched = SequentialLR(opt, [LinearLR(opt, 0.1, total_iters=10),
                               CosineAnnealingLR(opt, T_max=90)], milestones=[10])
    tw = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
    topt = torch.optim.SGD([tw], lr=0.05, momentum=0.9)
    tsched = T.SequentialLR(topt, [T.LinearLR(topt, 0.1, total_iters=10),
                                   T.CosineAnnealingLR(topt, T_max=90)], milestones=[10])
    At = torch.from_numpy(A)
    for _ in range(100):
        opt.step([A @ w])
        tw.grad = At @ tw.detach()
        topt.step()
        sched.step()
        tsched.step()
    # 1e-14 absolute: the same rates (equal above) and the same SGD rule in float64; torch
    # adds in another order (see tests/test_optim.py); |w| <= 1 throughout
    np.testing.assert_allclose(w, tw.detach().numpy(), rtol=0, atol=1e-14)
    assert np.abs(w).max() < 0.1                          # it moved towards the minimum at 0


def test_names_and_defaults_are_torchs():
    torch = pytest.importorskip("torch", reason=TORCH_MISSING)
    import torch.optim.lr_scheduler as T

    for name in ours_module.__all__:
        ours = inspect.signature(getattr(ours_module, name)).parameters
        theirs = inspect.signature(getattr(T, name)).parameters
        assert list(ours) == [p for p in theirs if p != "verbose"], name
        for pname, par in ours.items():
            assert par.default == theirs[pname].default, (name, pname)


# --------------------------------------------------------------------------------------
# Closed forms (no PyTorch needed)
# --------------------------------------------------------------------------------------

def test_step_lr_halves_at_every_multiple_of_step_size():
    rates = _rates(StepLR(_opt(0.8), step_size=10, gamma=0.5), 45)
    # powers of 1/2 times 0.8 are exact in binary floating point: == is right here
    expected = 0.8 * 0.5 ** (np.arange(45) // 10)
    np.testing.assert_array_equal(rates, expected)
    assert rates[9] == 0.8 and rates[10] == 0.4 and rates[40] == 0.05


def test_multistep_lr_multiplies_at_the_milestones_only():
    rates = _rates(MultiStepLR(_opt(1.0), milestones=[3, 5, 9], gamma=0.25), 12)
    np.testing.assert_array_equal(rates, [1, 1, 1, 0.25, 0.25, 0.0625, 0.0625, 0.0625,
                                          0.0625, 0.015625, 0.015625, 0.015625])


@pytest.mark.parametrize("make, closed", [
    (lambda o: ExponentialLR(o, gamma=0.99), lambda t: 0.3 * 0.99 ** t),
    (lambda o: StepLR(o, step_size=3, gamma=0.9), lambda t: 0.3 * 0.9 ** (t // 3)),
    (lambda o: LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=100),
     lambda t: 0.3 * (0.2 + 0.7 * min(t, 100) / 100)),
    (lambda o: LambdaLR(o, lambda t: 1 / (1 + t)), lambda t: 0.3 / (1 + t)),
], ids=["ExponentialLR", "StepLR", "LinearLR", "LambdaLR"])
def test_recursive_rates_equal_the_closed_forms_to_round_off(make, closed):
    rates = _rates(make(_opt(0.3)))
    expected = np.array([closed(t) for t in range(N_STEPS)])
    # each recursive step rounds once (relative error <= 2^-53 = 1.1e-16), so after 500 steps
    # the relative error is below 500 * 1.1e-16 = 5.6e-14 (LinearLR's ratio: two roundings
    # per step, still below 1e-13)
    np.testing.assert_allclose(rates, expected, rtol=1e-13, atol=0)


def test_cosine_recursion_differs_from_the_closed_form_by_round_off_only():
    eta0, eta_min, T_max = 0.1, 1e-3, 100
    rates = _rates(CosineAnnealingLR(_opt(eta0), T_max=T_max, eta_min=eta_min))
    t = np.arange(N_STEPS)
    closed = eta_min + (eta0 - eta_min) * (1 + np.cos(np.pi * t / T_max)) / 2
    # torch's recursion multiplies eta_{t-1} - eta_min by a ratio of cosines: one to three
    # roundings a step, relative to eta0 at most 500 * 3 * 1.1e-16 = 1.7e-13 after 500 steps
    # (across the troughs the additive branch restarts it from the closed form's increment)
    err = np.abs(rates - closed) / eta0
    assert err.max() < 2e-13
    assert err.max() > 0                   # it is the recursion, not the closed form
    # it reaches eta_min at T_max and climbs back: period 2 T_max
    assert abs(rates[T_max] - eta_min) < 1e-15 and abs(rates[2 * T_max] - eta0) < 1e-14


def test_warm_up_then_cosine_follows_each_closed_form():
    eta0, warm, T_max = 0.2, 20, 80
    opt = _opt(eta0)
    sched = SequentialLR(opt, [LinearLR(opt, start_factor=0.05, total_iters=warm),
                               CosineAnnealingLR(opt, T_max=T_max)], milestones=[warm])
    rates = _rates(sched, warm + T_max + 1)
    t = np.arange(warm)
    # 1e-15 absolute (rates of order 0.2): a few roundings per step over 100 steps
    np.testing.assert_allclose(rates[:warm], eta0 * (0.05 + 0.95 * t / warm), rtol=0, atol=1e-15)
    s = np.arange(T_max + 1)
    np.testing.assert_allclose(rates[warm:], eta0 * (1 + np.cos(np.pi * s / T_max)) / 2,
                               rtol=0, atol=1e-15)
    assert rates[warm] == eta0                            # the switch starts the cosine at eta0
    # get_lr is the rate of the schedule in charge: after the run, the cosine's last rate
    assert sched.get_lr() == sched.get_last_lr() == [opt.lr]
    assert sched.get_lr() == sched._schedulers[1].get_last_lr()


def test_construction_takes_the_first_step_and_records_the_initial_lr():
    opt = Adam([np.zeros(1)], lr=0.01)
    sched = LinearLR(opt, start_factor=0.5)
    assert sched.last_epoch == 0 and sched.base_lrs == [0.01]
    assert opt.lr == 0.005 and sched.get_last_lr() == [0.005]
    assert opt.initial_lr == 0.01
    sched.step()
    assert sched.last_epoch == 1 and opt.lr == sched.get_last_lr()[0] > 0.005
    # a second scheduler on the same optimiser keeps the first one's base rate, as torch's
    assert ExponentialLR(opt, gamma=0.5).base_lrs == [0.01]


def test_the_optimiser_steps_with_the_scheduled_rate():
    w = np.zeros(1)
    opt = SGD([w], lr=1.0)
    sched = StepLR(opt, step_size=1, gamma=0.5)
    for _ in range(4):
        opt.step([np.ones(1)])
        sched.step()
    # steps of 1, 1/2, 1/4, 1/8 on a gradient of 1: exact in binary
    assert w[0] == -(1 + 0.5 + 0.25 + 0.125)


def test_a_scheduler_changes_what_sgd_does():
    # guards against: a scheduler that reports rates but never sets the optimiser's lr
    w1, w2 = np.ones(1), np.ones(1)
    plain, scheduled = SGD([w1], lr=0.1), SGD([w2], lr=0.1)
    sched = ExponentialLR(scheduled, gamma=0.5)
    for _ in range(5):
        plain.step([w1.copy()])
        scheduled.step([w2.copy()])
        sched.step()
    assert w2[0] > w1[0] + 1e-3


# --------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("optimizer, got", [
    (None, "got None"), ([np.zeros(1)], "got a list"), (0.1, "got a float"),
])
@pytest.mark.parametrize("make", [
    lambda o: StepLR(o, step_size=1), lambda o: MultiStepLR(o, [1]),
    lambda o: ExponentialLR(o, 0.9), lambda o: CosineAnnealingLR(o, 10), lambda o: LinearLR(o),
    lambda o: LambdaLR(o, lambda t: 1.0), lambda o: SequentialLR(o, [], []),
], ids=["StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "LinearLR", "LambdaLR",
        "SequentialLR"])
def test_a_scheduler_needs_an_optimiser(make, optimizer, got):
    # guards against: AttributeError "'NoneType' object has no attribute 'lr'"
    with pytest.raises(TypeError, match=rf"optimizer must be an optimiser of mlbook.optim .*{got}"):
        make(optimizer)


def test_a_torch_optimiser_is_refused():
    torch = pytest.importorskip("torch", reason=TORCH_MISSING)
    topt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    with pytest.raises(TypeError, match="optimizer must be an optimiser of mlbook.optim.*got a SGD"):
        StepLR(topt, step_size=1)


@pytest.mark.parametrize("make, error, match", [
    (lambda o: StepLR(o, step_size=0), ValueError, "step_size must be >= 1"),
    (lambda o: StepLR(o, step_size=-3), ValueError, "step_size must be >= 1"),
    (lambda o: StepLR(o, step_size=2.5), TypeError, "step_size must be of type Integral"),
    (lambda o: StepLR(o, step_size=5, gamma=0.0), ValueError, "gamma must be > 0"),
    (lambda o: StepLR(o, step_size=5, gamma=-0.5), ValueError, "gamma must be > 0"),
    (lambda o: MultiStepLR(o, [5], gamma=0.0), ValueError, "gamma must be > 0"),
    (lambda o: ExponentialLR(o, gamma=0.0), ValueError, "gamma must be > 0"),
    (lambda o: ExponentialLR(o, gamma=np.nan), ValueError, "gamma must"),
    (lambda o: CosineAnnealingLR(o, T_max=0), ValueError, "T_max must be >= 1"),
    (lambda o: CosineAnnealingLR(o, T_max=10, eta_min=-1e-3), ValueError, "eta_min must be >= 0"),
    (lambda o: LinearLR(o, start_factor=0.0), ValueError, "start_factor must be > 0"),
    (lambda o: LinearLR(o, start_factor=1.5), ValueError, "start_factor must be <= 1"),
    (lambda o: LinearLR(o, end_factor=0.0), ValueError, "end_factor must be > 0"),
    (lambda o: LinearLR(o, end_factor=-0.2), ValueError, "end_factor must be > 0"),
    (lambda o: LinearLR(o, end_factor=1.01), ValueError, "end_factor must be <= 1"),
    (lambda o: LinearLR(o, total_iters=0), ValueError, "total_iters must be >= 1"),
    (lambda o: MultiStepLR(o, [10, 5]), ValueError, r"milestones must be strictly increasing; got \[10, 5\]"),
    (lambda o: MultiStepLR(o, [5, 5]), ValueError, "milestones must be strictly increasing"),
    (lambda o: MultiStepLR(o, [-1, 5]), ValueError, r"milestones\[0\] must be >= 0"),
    (lambda o: MultiStepLR(o, 5), TypeError, "milestones must be a list of ints"),
    (lambda o: MultiStepLR(o, [2.5]), TypeError, r"milestones\[0\] must be of type Integral"),
    (lambda o: LambdaLR(o, 0.5), TypeError, "lr_lambda must be a function of the epoch"),
    (lambda o: LambdaLR(o, lambda t: -1.0), ValueError, r"lr_lambda\(0\) returned -1.0"),
    (lambda o: LambdaLR(o, lambda t: 1.0 if t < 3 else math.nan), ValueError,
     r"lr_lambda\(3\) returned nan"),
    (lambda o: StepLR(o, step_size=1, last_epoch=-2), ValueError, "last_epoch must be >= -1"),
    (lambda o: StepLR(o, step_size=1, last_epoch=4), ValueError,
     "last_epoch=4 resumes a schedule, which needs optimizer.initial_lr"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_bad_arguments_are_named(make, error, match):
    opt = _opt()
    with pytest.raises(error, match=match):
        sched = make(opt)
        for _ in range(5):
            sched.step()


def _two():
    opt = _opt()
    return opt, LinearLR(opt, total_iters=5), CosineAnnealingLR(opt, T_max=10)


def test_sequential_lr_needs_one_milestone_per_switch():
    opt, a, b = _two()
    with pytest.raises(ValueError, match=r"milestones must hold len\(schedulers\) - 1 = 1 epochs.*got 2"):
        SequentialLR(opt, [a, b], milestones=[5, 8])
    with pytest.raises(ValueError, match=r"milestones must hold len\(schedulers\) - 1 = 1 epochs.*got 0"):
        SequentialLR(opt, [a, b], milestones=[])


def test_sequential_lr_milestones_increase():
    opt = _opt()
    scheds = [LinearLR(opt), ExponentialLR(opt, 0.9), StepLR(opt, 5)]
    with pytest.raises(ValueError, match="milestones must be strictly increasing"):
        SequentialLR(opt, scheds, milestones=[10, 4])
    with pytest.raises(ValueError, match=r"milestones\[0\] must be >= 1"):
        SequentialLR(opt, scheds, milestones=[0, 4])


def test_sequential_lr_refuses_schedulers_of_another_optimiser():
    opt, a, _ = _two()
    other = CosineAnnealingLR(_opt(), T_max=10)
    with pytest.raises(ValueError, match=r"schedulers\[1\] \(CosineAnnealingLR\) is attached to "
                                         "another optimiser"):
        SequentialLR(opt, [a, other], milestones=[5])


def test_sequential_lr_needs_schedulers():
    opt, a, _ = _two()
    with pytest.raises(ValueError, match="schedulers is empty"):
        SequentialLR(opt, [], milestones=[])
    with pytest.raises(TypeError, match="schedulers must be a list of schedulers"):
        SequentialLR(opt, a, milestones=[])
    with pytest.raises(TypeError, match=r"schedulers\[1\] must be a scheduler"):
        SequentialLR(opt, [a, "cosine"], milestones=[5])


def test_the_base_class_is_abstract():
    with pytest.raises(TypeError, match="abstract"):
        LRScheduler(_opt())
