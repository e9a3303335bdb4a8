"""Tests of mlbook.optim: each update rule against the rule written out here (as the
chapter writes it), against torch.optim when PyTorch is installed, the properties the
chapter states, the test functions, the driver and the bad-input errors."""

from __future__ import annotations

import math
from functools import partial

import numpy as np
import pytest

from mlbook.optim import (SGD, Adadelta, Adagrad, Adam, AdamW, NAdam, RMSprop, beale,
                          ill_conditioned_quadratic, minimize, rosenbrock)

N_STEPS = 60


# --------------------------------------------------------------------------------------
# A problem with a known gradient: two parameter arrays of different shapes, a convex
# quadratic loss 0.5 x'Ax - b'x in their concatenation (A random SPD, condition 20).
# Its minimiser lies ~20 away, out of reach in N_STEPS steps: near a minimum the
# adaptive methods' steps g / sqrt(v) are so sensitive to g that rounding errors grow
# by a factor of ~3 per step, and no two float64 implementations could then agree.
# --------------------------------------------------------------------------------------

def make_problem(seed: int):
    rng = np.random.default_rng(seed)
    shapes = [(3, 2), (4,)]
    n = sum(int(np.prod(s)) for s in shapes)
    Q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    A = Q @ np.diag(np.geomspace(1.0, 20.0, n)) @ Q.T
    b = A @ (20.0 + rng.normal(size=n))
    x0 = [rng.normal(size=s) for s in shapes]

    def grads(params):
        x = np.concatenate([p.ravel() for p in params])
        g = A @ x - b
        out, k = [], 0
        for p in params:
            out.append(g[k:k + p.size].reshape(p.shape))
            k += p.size
        return out

    return x0, grads


def run_ours(cls, kwargs, seed, n_steps=N_STEPS, lr_schedule=None):
    x0, grads = make_problem(seed)
    params = [x.copy() for x in x0]
    opt = cls(params, **kwargs)
    path = []
    for t in range(n_steps):
        if lr_schedule is not None:
            opt.lr = lr_schedule(t)
        opt.step(grads(params))
        path.append(np.concatenate([p.ravel() for p in params]))
    assert opt.step_count == n_steps
    return np.array(path)


# --------------------------------------------------------------------------------------
# The update rules written out independently (allocating, one formula per line), with
# the chapter's symbols: g_t the gradient at theta_{t-1}, t = 1, 2, ...
# --------------------------------------------------------------------------------------

def ref_sgd(theta, g, s, t, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False):
    g = g + weight_decay * theta
    if momentum != 0:
        s["b"] = g if t == 1 else momentum * s["b"] + (1 - dampening) * g
        g = g + momentum * s["b"] if nesterov else s["b"]
    return theta - lr * g


def ref_adagrad(theta, g, s, t, lr, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                eps=1e-10):
    g = g + weight_decay * theta
    s.setdefault("G", np.full_like(theta, initial_accumulator_value))
    s["G"] = s["G"] + g * g
    return theta - lr / (1 + (t - 1) * lr_decay) * g / (np.sqrt(s["G"]) + eps)


def ref_rmsprop(theta, g, s, t, lr, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                centered=False):
    g = g + weight_decay * theta
    s["v"] = alpha * s.get("v", 0) + (1 - alpha) * g * g
    if centered:
        s["gbar"] = alpha * s.get("gbar", 0) + (1 - alpha) * g
        denom = np.sqrt(s["v"] - s["gbar"] ** 2) + eps
    else:
        denom = np.sqrt(s["v"]) + eps
    if momentum > 0:
        s["b"] = momentum * s.get("b", 0) + g / denom
        return theta - lr * s["b"]
    return theta - lr * g / denom


def ref_adadelta(theta, g, s, t, lr, rho=0.9, eps=1e-6, weight_decay=0):
    g = g + weight_decay * theta
    s["v"] = rho * s.get("v", 0) + (1 - rho) * g * g
    delta = np.sqrt(s.get("u", 0) + eps) / np.sqrt(s["v"] + eps) * g
    s["u"] = rho * s.get("u", 0) + (1 - rho) * delta * delta
    return theta - lr * delta


def ref_adam(theta, g, s, t, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
             decoupled=False):
    b1, b2 = betas
    if decoupled:
        theta = theta - lr * weight_decay * theta
    else:
        g = g + weight_decay * theta
    s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
    s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
    m_hat = s["m"] / (1 - b1 ** t)
    if amsgrad:
        s["vmax"] = np.maximum(s.get("vmax", 0), s["v"])
        v_hat = s["vmax"] / (1 - b2 ** t)
    else:
        v_hat = s["v"] / (1 - b2 ** t)
    return theta - lr * m_hat / (np.sqrt(v_hat) + eps)


def ref_nadam(theta, g, s, t, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
              momentum_decay=4e-3):
    b1, b2 = betas
    g = g + weight_decay * theta
    mu = lambda k: b1 * (1 - 0.5 * 0.96 ** (k * momentum_decay))  # noqa: E731
    s["Pi"] = s.get("Pi", 1.0) * mu(t)
    s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
    s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
    denom = np.sqrt(s["v"] / (1 - b2 ** t)) + eps
    return (theta - lr * (1 - mu(t)) / (1 - s["Pi"]) * g / denom
            - lr * mu(t + 1) / (1 - s["Pi"] * mu(t + 1)) * s["m"] / denom)


REF = {SGD: ref_sgd, Adagrad: ref_adagrad, RMSprop: ref_rmsprop, Adadelta: ref_adadelta,
       Adam: ref_adam, NAdam: ref_nadam, AdamW: partial(ref_adam, decoupled=True)}
DEFAULT_LR = {SGD: 1e-3, Adagrad: 1e-2, RMSprop: 1e-2, Adadelta: 1.0, Adam: 1e-3, NAdam: 2e-3,
              AdamW: 1e-3}
DEFAULT_WD = {AdamW: 1e-2}


def run_ref(cls, kwargs, seed, n_steps=N_STEPS, lr_schedule=None):
    x0, grads = make_problem(seed)
    params = [x.copy() for x in x0]
    states = [{} for _ in params]
    kw = dict(kwargs)
    kw.setdefault("lr", DEFAULT_LR[cls])
    if cls in DEFAULT_WD:
        kw.setdefault("weight_decay", DEFAULT_WD[cls])
    path = []
    for t in range(1, n_steps + 1):
        if lr_schedule is not None:
            kw["lr"] = lr_schedule(t - 1)
        gs = grads(params)
        params = [REF[cls](p, g, s, t, **kw) for p, g, s in zip(params, gs, states)]
        path.append(np.concatenate([p.ravel() for p in params]))
    return np.array(path)


# every option of every optimiser, alone and in combination
CASES = [
    (SGD, {}), (SGD, {"lr": 0.05}), (SGD, {"lr": 0.03, "momentum": 0.9}),
    (SGD, {"lr": 0.03, "momentum": 0.8, "dampening": 0.3}),
    (SGD, {"lr": 0.03, "momentum": 0.9, "nesterov": True}),
    (SGD, {"lr": 0.03, "momentum": 0.5, "weight_decay": 0.1, "nesterov": True}),
    (SGD, {"lr": 0.05, "weight_decay": 0.2}),
    (Adagrad, {}), (Adagrad, {"lr": 0.5}), (Adagrad, {"lr": 0.5, "lr_decay": 0.05}),
    (Adagrad, {"lr": 0.3, "initial_accumulator_value": 0.7, "weight_decay": 0.1}),
    (Adagrad, {"lr": 0.3, "eps": 1e-3}),
    (RMSprop, {}), (RMSprop, {"lr": 0.02, "alpha": 0.9}),
    (RMSprop, {"lr": 0.01, "centered": True}),
    (RMSprop, {"lr": 0.005, "momentum": 0.9}),
    (RMSprop, {"lr": 0.005, "momentum": 0.5, "centered": True, "weight_decay": 0.1,
               "eps": 1e-4}),
    (Adadelta, {}), (Adadelta, {"lr": 0.5, "rho": 0.95}),
    (Adadelta, {"eps": 1e-3, "weight_decay": 0.2}),
    (Adam, {}), (Adam, {"lr": 0.05}), (Adam, {"lr": 0.05, "betas": (0.5, 0.9)}),
    (Adam, {"lr": 0.05, "amsgrad": True}), (Adam, {"lr": 0.05, "weight_decay": 0.3}),
    (Adam, {"lr": 0.05, "eps": 1e-2, "amsgrad": True, "weight_decay": 0.1}),
    (NAdam, {}), (NAdam, {"lr": 0.05}), (NAdam, {"lr": 0.05, "momentum_decay": 0.1}),
    (NAdam, {"lr": 0.05, "betas": (0.8, 0.99), "weight_decay": 0.2, "eps": 1e-3}),
    (AdamW, {}), (AdamW, {"lr": 0.05, "weight_decay": 0.5}),
    (AdamW, {"lr": 0.05, "weight_decay": 0.3, "amsgrad": True, "betas": (0.7, 0.95)}),
]
IDS = [f"{c.__name__}-{'-'.join(f'{k}={v}' for k, v in kw.items()) or 'defaults'}"
       for c, kw in CASES]


@pytest.mark.parametrize("cls,kwargs", CASES, ids=IDS)
def test_trajectory_matches_the_rule_as_written(cls, kwargs):
    # 1e-12 absolute on iterates of order 1: both sides compute the same formulas in
    # float64 and differ only in the order of rounding (the package works in place,
    # the reference allocates); over 60 steps of a convex problem that stays ~1e-15.
    for seed in (0, 1):
        ours = run_ours(cls, kwargs, seed)
        ref = run_ref(cls, kwargs, seed)
        err = np.max(np.abs(ours - ref))
        assert err <= 1e-12, f"{cls.__name__}{kwargs}, seed {seed}: max |ours - rule| = {err:.2e}"
        assert np.max(np.abs(ours[-1] - ours[0])) > 1e-4, "the run barely moved: a vacuous test"


@pytest.mark.parametrize("cls", [SGD, Adagrad, RMSprop, Adam, NAdam, AdamW, Adadelta])
def test_learning_rate_changed_between_steps_follows_the_rule(cls):
    # a schedule set through opt.lr is read at every step; same 1e-12 as above
    kw = {"momentum": 0.9} if cls is SGD else {}
    schedule = lambda t: 0.05 / (1 + 0.1 * t)  # noqa: E731
    ours = run_ours(cls, kw, 3, lr_schedule=schedule)
    ref = run_ref(cls, kw, 3, lr_schedule=schedule)
    assert np.max(np.abs(ours - ref)) <= 1e-12


# --------------------------------------------------------------------------------------
# torch.optim as the oracle (skipped when PyTorch is absent)
# --------------------------------------------------------------------------------------

TORCH_MISSING = ("PyTorch, the oracle of these tests, is not installed: it is in the extra "
                 "[oracles], which `make test-all` and CI install (README: the PyTorch comparisons)")

TORCH_NAMES = {SGD: "SGD", Adagrad: "Adagrad", RMSprop: "RMSprop", Adadelta: "Adadelta",
               Adam: "Adam", NAdam: "NAdam", AdamW: "AdamW"}


def run_torch(cls, kwargs, seed, n_steps=N_STEPS):
    torch = pytest.importorskip("torch", reason=TORCH_MISSING)
    x0, grads = make_problem(seed)
    # torch keeps scalar state (NAdam's product of momentum factors, the step) in the
    # default dtype, float32 unless set otherwise; float64 makes it a float64 oracle
    old_dtype = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        params = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in x0]
        opt = getattr(torch.optim, TORCH_NAMES[cls])(params, **kwargs)
        path = []
        for _ in range(n_steps):
            gs = grads([p.detach().numpy() for p in params])
            for p, g in zip(params, gs):
                p.grad = torch.from_numpy(np.ascontiguousarray(g))
            opt.step()
            path.append(np.concatenate([p.detach().numpy().ravel() for p in params]))
    finally:
        torch.set_default_dtype(old_dtype)
    return np.array(path)


@pytest.mark.parametrize("cls,kwargs", CASES, ids=IDS)
def test_trajectory_matches_torch_optim(cls, kwargs):
    # 1e-12 absolute: torch.optim applies the same rule in float64; the two differ only
    # in rounding order (torch uses lerp and addcdiv where we multiply and add).
    pytest.importorskip("torch", reason=TORCH_MISSING)
    ours = run_ours(cls, kwargs, 0)
    theirs = run_torch(cls, kwargs, 0)
    err = np.max(np.abs(ours - theirs))
    assert err <= 1e-12, f"{cls.__name__}{kwargs}: max |ours - torch| = {err:.2e}"


def test_defaults_match_torch():
    torch = pytest.importorskip("torch", reason=TORCH_MISSING)
    import inspect
    for cls, name in TORCH_NAMES.items():
        ours = inspect.signature(cls).parameters
        theirs = inspect.signature(getattr(torch.optim, name)).parameters
        for pname, par in ours.items():
            if pname == "params":
                continue
            assert pname in theirs, f"{cls.__name__}: torch has no parameter {pname}"
            assert par.default == theirs[pname].default, (
                f"{cls.__name__}.{pname}: ours {par.default!r}, torch {theirs[pname].default!r}")


# --------------------------------------------------------------------------------------
# The checks of the issue
# --------------------------------------------------------------------------------------

def test_adam_bias_corrected_moments_equal_a_constant_gradient():
    # with g_t = c for all t, m_t = (1 - b1^t) c and v_t = (1 - b2^t) c^2, so the
    # corrected moments are exactly c and c^2 (1e-13 relative: a few roundings per step)
    c = np.array([0.3, -2.0, 5.0])
    w = np.zeros(3)
    opt = Adam([w], lr=1e-3)
    for t in range(1, 201):
        opt.step([c])
        m_hat = opt.state[0]["exp_avg"] / (1 - 0.9 ** t)
        v_hat = opt.state[0]["exp_avg_sq"] / (1 - 0.999 ** t)
        np.testing.assert_allclose(m_hat, c, rtol=1e-13, atol=0)
        np.testing.assert_allclose(v_hat, c * c, rtol=1e-13, atol=0)
    # while the raw moments are biased towards 0 by the factors 1 - beta^t
    assert np.all(np.abs(opt.state[0]["exp_avg_sq"]) < 0.19 * c * c)


def test_adam_bias_corrected_moments_unbiased_for_noisy_stationary_gradient():
    # g_t = mu + noise, 20 000 independent runs held as one parameter vector: at
    # t = 5 the mean of m_hat is mu within 5 standard errors, while the mean of the
    # raw m_t is off by the bias (1 - 0.9^5) mu = 0.41 mu, far more than 5 SE.
    rng = np.random.default_rng(0)
    R, mu, sd, t_end = 20_000, 1.5, 1.0, 5
    w = np.zeros(R)
    opt = Adam([w], lr=0.0)
    for _ in range(t_end):
        opt.step([mu + sd * rng.normal(size=R)])
    m = opt.state[0]["exp_avg"]
    m_hat = m / (1 - 0.9 ** t_end)
    se = m_hat.std() / math.sqrt(R)
    assert abs(m_hat.mean() - mu) < 5 * se
    assert abs(m.mean() - mu) > 50 * se
    v_hat = opt.state[0]["exp_avg_sq"] / (1 - 0.999 ** t_end)
    se2 = v_hat.std() / math.sqrt(R)
    assert abs(v_hat.mean() - (mu ** 2 + sd ** 2)) < 5 * se2


def test_adamw_with_zero_weight_decay_is_adam_exactly():
    for seed in (0, 1, 2):
        a = run_ours(Adam, {"lr": 0.05, "amsgrad": seed == 2}, seed)
        b = run_ours(AdamW, {"lr": 0.05, "weight_decay": 0, "amsgrad": seed == 2}, seed)
        assert np.array_equal(a, b)


def test_adamw_differs_from_adam_with_l2():
    a = run_ours(Adam, {"lr": 0.05, "weight_decay": 0.5}, 0)
    b = run_ours(AdamW, {"lr": 0.05, "weight_decay": 0.5}, 0)
    assert np.max(np.abs(a - b)) > 1e-3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_amsgrad_rate_can_grow_only_through_the_bias_correction(seed):
    # PyTorch's AMSGrad keeps max_s v_s of the raw v and divides it by the current
    # sqrt(1 - beta2^t): the rate lr / (sqrt(vmax) / sqrt(1 - beta2^t) + eps) can grow,
    # by at most sqrt((1 - beta2^t) / (1 - beta2^s)) after step s, and never exceeds
    # plain Adam's; Reddi et al.'s rate lr / (sqrt(vmax) + eps) never grows.
    rng = np.random.default_rng(seed)
    beta2, T = 0.999, 1500
    g_seq = np.r_[10.0 * (1 + rng.random()), 0.01 * (1 + rng.random(T - 1))]
    ts = np.arange(1, T + 1)
    second = {}
    for amsgrad in (False, True):
        w = np.zeros(1)
        opt = Adam([w], lr=1.0, amsgrad=amsgrad)
        buf = []
        for g in g_seq:
            opt.step([np.array([g])])
            buf.append(opt.state[0]["max_exp_avg_sq" if amsgrad else "exp_avg_sq"][0])
        second[amsgrad] = np.array(buf)
    vmax = second[True]
    ams = 1 / (np.sqrt(vmax / (1 - beta2 ** ts)) + 1e-8)
    adam = 1 / (np.sqrt(second[False] / (1 - beta2 ** ts)) + 1e-8)
    reddi = 1 / (np.sqrt(vmax) + 1e-8)
    assert np.all(np.diff(vmax) >= 0)
    assert np.all(np.diff(reddi) <= 0)
    assert ams[-1] > 10 * ams[0], "the bias-corrected AMSGrad rate did not grow"
    # (1 + 1e-12): rounding in the comparisons of exact inequalities
    for s in (0, 10, 100):
        bound = ams[s] * np.sqrt((1 - beta2 ** ts[s:]) / (1 - beta2 ** ts[s]))
        assert np.all(ams[s:] <= bound * (1 + 1e-12)), f"growth bound broken after step {s + 1}"
    assert np.all(ams <= adam * (1 + 1e-12))


def test_sgd_nesterov_follows_both_forms_of_nesterovs_method():
    # Form 1 (look-ahead, Sutskever et al.): v_t = mu v_{t-1} + lr grad(theta_{t-1} - mu v_{t-1}),
    #   theta_t = theta_{t-1} - v_t.
    # Form 2 (the equivalent one): phi_t = phi_{t-1} - (mu v_t + lr grad(phi_{t-1})).
    # SGD(nesterov=True)'s iterates are form 2's phi, which are form 1's look-ahead
    # points theta_t - mu v_t. 1e-12: the same arithmetic up to rounding order.
    x0, grads = make_problem(4)
    grad = lambda x: np.concatenate([g.ravel() for g in grads(split(x))])  # noqa: E731
    shapes = [x.shape for x in x0]

    def split(x):
        out, k = [], 0
        for s in shapes:
            n = int(np.prod(s))
            out.append(x[k:k + n].reshape(s))
            k += n
        return out

    lr, mu = 0.03, 0.9
    theta = np.concatenate([x.ravel() for x in x0])
    v1 = np.zeros_like(theta)
    phi, v2 = theta.copy(), np.zeros_like(theta)
    params = [x.copy() for x in x0]
    opt = SGD(params, lr=lr, momentum=mu, nesterov=True)
    for _ in range(N_STEPS):
        v1 = mu * v1 + lr * grad(theta - mu * v1)
        theta = theta - v1
        g = grad(phi)
        v2 = mu * v2 + lr * g
        phi = phi - (mu * v2 + lr * g)
        opt.step(grads(params))
        ours = np.concatenate([p.ravel() for p in params])
        np.testing.assert_allclose(ours, phi, rtol=0, atol=1e-12)
        np.testing.assert_allclose(ours, theta - mu * v1, rtol=0, atol=1e-12)
    assert np.max(np.abs(theta - phi)) > 1e-6   # the two forms' iterates differ


def test_momentum_is_a_decaying_sum_not_an_average():
    # constant gradient: the step tends to lr * g / (1 - momentum); with dampening = momentum
    # (an average) it tends to lr * g
    for damp, factor in ((0.0, 10.0), (0.9, 1.0)):
        w = np.zeros(1)
        opt = SGD([w], lr=0.1, momentum=0.9, dampening=damp)
        for _ in range(400):
            before = w.copy()
            opt.step([np.ones(1)])
        np.testing.assert_allclose(before - w, 0.1 * factor, rtol=1e-12, atol=0)


def test_optimisers_reach_the_minimum_of_a_quadratic():
    # (RMSprop and NAdam at a constant lr hover around the minimum at this budget)
    for cls, kw in [(SGD, {"lr": 0.04, "momentum": 0.9}), (Adam, {"lr": 0.05}),
                    (AdamW, {"lr": 0.05}), (Adagrad, {"lr": 0.5})]:
        res = minimize(ill_conditioned_quadratic, [2.0, 1.5], partial(cls, **kw), 500)
        assert res.values[-1] < 1e-8, f"{cls.__name__}: f = {res.values[-1]:.2e}"


def test_params_are_updated_in_place_and_grads_untouched():
    w = np.ones((2, 3))
    g = np.full((2, 3), 0.5)
    g_copy = g.copy()
    opt = AdamW([w], lr=0.1, weight_decay=0.1)
    same = w
    opt.step([g])
    assert same is opt.params[0] and not np.array_equal(w, np.ones((2, 3)))
    assert np.array_equal(g, g_copy)


def test_integer_and_list_gradients_are_accepted():
    w1, w2 = np.zeros(2), np.zeros(2)
    SGD([w1], lr=0.1).step([[1, 2]])
    SGD([w2], lr=0.1).step([np.array([1.0, 2.0])])
    assert np.array_equal(w1, w2)


# --------------------------------------------------------------------------------------
# Test functions and the driver
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("fun", [rosenbrock, beale, ill_conditioned_quadratic])
def test_gradients_match_finite_differences(fun):
    # central differences with h = 1e-6: truncation O(h^2) ~ 1e-12 times the third
    # derivative (up to ~1e3 here) plus rounding ~ f/h ~ 1e-10; 1e-6 relative covers both
    rng = np.random.default_rng(0)
    for x in rng.uniform(-1.5, 1.5, size=(5, 2)):
        _, g = fun(x)
        h = 1e-6
        fd = np.array([(fun(x + h * e)[0] - fun(x - h * e)[0]) / (2 * h) for e in np.eye(2)])
        np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-6)


def test_minima_of_the_test_functions():
    assert rosenbrock([1.0, 1.0])[0] == 0.0 and rosenbrock([2.0, 4.0], a=2.0)[0] == 0.0
    assert beale([3.0, 0.5])[0] == 0.0
    f, g = ill_conditioned_quadratic([1.0, 0.0], condition_number=10, angle=0.0)
    assert f == 0.5 and np.array_equal(g, [1.0, 0.0])
    # the curvatures along the rotated axes are 1 and kappa
    c, s = np.cos(np.pi / 6), np.sin(np.pi / 6)
    assert ill_conditioned_quadratic([-s, c], condition_number=50)[0] == pytest.approx(25.0,
                                                                                          rel=1e-14)


def test_minimize_records_the_path():
    x0 = np.array([-1.0, 1.0])
    res = minimize(rosenbrock, x0, partial(SGD, lr=1e-3), 5)
    assert res.path.shape == (6, 2) and res.values.shape == (6,) and res.grad_norms.shape == (6,)
    assert np.array_equal(res.path[0], x0) and np.array_equal(x0, [-1.0, 1.0])
    # the recorded path is SGD's: x_{k+1} = x_k - lr grad f(x_k)
    for k in range(5):
        np.testing.assert_allclose(res.path[k + 1], res.path[k] - 1e-3 * rosenbrock(res.path[k])[1],
                                   rtol=0, atol=1e-15)
    assert np.array_equal(res.x, res.path[-1])
    assert res.values[0] == rosenbrock(x0)[0]


def test_minimize_reports_divergence():
    with pytest.raises(ValueError, match="diverged"):
        minimize(rosenbrock, [-1.0, 1.0], partial(SGD, lr=0.1), 100)


@pytest.mark.parametrize("bad,match", [
    (dict(fun=3), "fun must be callable"),
    (dict(optimizer="adam"), "optimizer must be callable"),
    (dict(n_steps=-1), "n_steps"),
    (dict(n_steps=2.5), "n_steps"),
    (dict(x0=[np.nan, 1.0]), "x0"),
    (dict(x0=[[1.0, 2.0]]), "x0"),
    (dict(optimizer=lambda p: p), "must return an mlbook.optim optimiser"),
])
def test_minimize_bad_input(bad, match):
    kw = dict(fun=rosenbrock, x0=[0.0, 0.0], optimizer=partial(SGD, lr=1e-3), n_steps=3)
    kw.update(bad)
    with pytest.raises((ValueError, TypeError), match=match):
        minimize(**kw)


@pytest.mark.parametrize("fun", [rosenbrock, beale, ill_conditioned_quadratic])
def test_test_functions_bad_input(fun):
    with pytest.raises(ValueError, match="x must be a point of shape"):
        fun([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="x contains NaN"):
        fun([np.nan, 2.0])


# --------------------------------------------------------------------------------------
# Bad input: each gets a clear error naming the argument
# --------------------------------------------------------------------------------------

ALL = [SGD, Adagrad, RMSprop, Adadelta, Adam, NAdam, AdamW]


@pytest.mark.parametrize("cls", ALL)
def test_negative_lr(cls):
    with pytest.raises(ValueError, match="lr must be >= 0"):
        cls([np.zeros(2)], lr=-0.1)


@pytest.mark.parametrize("cls", ALL)
def test_negative_lr_set_between_steps(cls):
    opt = cls([np.zeros(2)])
    opt.lr = -1.0
    with pytest.raises(ValueError, match="lr must be >= 0"):
        opt.step([np.ones(2)])


@pytest.mark.parametrize("cls", [Adam, NAdam, AdamW])
@pytest.mark.parametrize("betas,match", [
    ((1.0, 0.999), r"betas\[0\] must be < 1"), ((-0.1, 0.999), r"betas\[0\] must be >= 0"),
    ((0.9, 1.0), r"betas\[1\] must be < 1"), ((0.9, 1.5), r"betas\[1\] must be < 1"),
    ((0.9,), "betas must be a pair"), (0.9, "betas must be a pair"),
])
def test_betas_outside_unit_interval(cls, betas, match):
    with pytest.raises((ValueError, TypeError), match=match):
        cls([np.zeros(2)], betas=betas)


@pytest.mark.parametrize("cls", [Adagrad, RMSprop, Adadelta, Adam, NAdam, AdamW])
@pytest.mark.parametrize("eps", [0.0, -1e-8])
def test_eps_not_positive(cls, eps):
    with pytest.raises(ValueError, match="eps must be > 0"):
        cls([np.zeros(2)], eps=eps)


@pytest.mark.parametrize("kw", [{"momentum": 0}, {"momentum": 0.9, "dampening": 0.1}])
def test_nesterov_needs_momentum_and_no_dampening(kw):
    with pytest.raises(ValueError, match="nesterov=True requires momentum > 0 and dampening = 0"):
        SGD([np.zeros(2)], lr=0.1, nesterov=True, **kw)


@pytest.mark.parametrize("cls,kw,match", [
    (SGD, {"momentum": -0.5}, "momentum must be >= 0"),
    (SGD, {"weight_decay": -1}, "weight_decay must be >= 0"),
    (SGD, {"nesterov": 1}, "nesterov must be True or False"),
    (Adagrad, {"lr_decay": -1}, "lr_decay must be >= 0"),
    (Adagrad, {"initial_accumulator_value": -1}, "initial_accumulator_value must be >= 0"),
    (RMSprop, {"alpha": 1.5}, "alpha must be <= 1"),
    (RMSprop, {"momentum": -1}, "momentum must be >= 0"),
    (Adadelta, {"rho": -0.1}, "rho must be >= 0"),
    (Adam, {"weight_decay": -1}, "weight_decay must be >= 0"),
    (Adam, {"amsgrad": "yes"}, "amsgrad must be True or False"),
    (NAdam, {"momentum_decay": -1}, "momentum_decay must be >= 0"),
    (AdamW, {"weight_decay": -0.01}, "weight_decay must be >= 0"),
    (Adam, {"lr": float("nan")}, "lr must be a number"),
    (Adam, {"lr": "0.1"}, "lr must be of type"),
])
def test_other_hyper_parameters(cls, kw, match):
    with pytest.raises((ValueError, TypeError), match=match):
        cls([np.zeros(2)], **kw)


@pytest.mark.parametrize("params,exc,match", [
    (np.zeros(3), TypeError, "params must be a list"),
    ([], ValueError, "params is an empty list"),
    ([[0.0, 1.0]], TypeError, r"params\[0\] must be a NumPy array"),
    ([np.zeros(2, dtype=np.float32)], TypeError, r"params\[0\] must have dtype float64"),
    ([np.zeros(2, dtype=int)], TypeError, r"params\[0\] must have dtype float64"),
    ([np.array([0.0, np.nan])], ValueError, r"params\[0\] contains NaN"),
])
def test_bad_params(params, exc, match):
    with pytest.raises(exc, match=match):
        Adam(params)


def test_shared_params_rejected():
    w = np.zeros(4)
    with pytest.raises(ValueError, match="share memory"):
        SGD([w, w[:2]])


@pytest.mark.parametrize("cls", ALL)
def test_grads_wrong_number(cls):
    opt = cls([np.zeros(2), np.zeros(3)])
    with pytest.raises(ValueError, match="grads has 1 arrays but the optimiser holds 2"):
        opt.step([np.zeros(2)])
    with pytest.raises(TypeError, match="grads must be a list"):
        opt.step(np.zeros(2))


@pytest.mark.parametrize("cls", ALL)
def test_grads_wrong_shape(cls):
    opt = cls([np.zeros(2), np.zeros((3, 1))])
    with pytest.raises(ValueError, match=r"grads\[1\] has shape \(3,\) but params\[1\] has shape \(3, 1\)"):
        opt.step([np.zeros(2), np.zeros(3)])


@pytest.mark.parametrize("cls", ALL)
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("n", [3, 10_000])      # both branches of the check
def test_non_finite_gradient(cls, bad, n):
    w = np.zeros(n)
    opt = cls([w])
    g = np.ones(n)
    g[n // 2] = bad
    with pytest.raises(ValueError, match=r"grads\[0\] contains NaN or infinity"):
        opt.step([g])
    assert np.array_equal(w, np.zeros(n)) and opt.step_count == 0   # nothing was changed


def test_huge_but_finite_gradient_is_not_called_non_finite():
    # the sum overflows, the entries are finite: the cheap check used on large arrays
    # (more than 4096 entries) must not misfire
    w = np.zeros(5000)
    SGD([w], lr=1e-310).step([np.full(5000, 1e308)])
    assert np.all(np.isfinite(w))


def test_string_gradient():
    with pytest.raises(TypeError, match=r"grads\[0\] must be a real numeric array"):
        SGD([np.zeros(2)]).step([np.array(["a", "b"])])


def test_hyper_parameters_checked_again_only_when_changed():
    opt = Adam([np.zeros(2)], lr=0.1)
    opt.step([np.ones(2)])
    opt.betas = (0.9, 1.0)
    with pytest.raises(ValueError, match=r"betas\[1\] must be < 1"):
        opt.step([np.ones(2)])
    opt.betas = (0.9, 0.999)
    opt.eps = float("nan")
    with pytest.raises(ValueError, match="eps must be a number"):
        opt.step([np.ones(2)])


def test_minimize_gradient_of_wrong_shape():
    with pytest.raises(ValueError, match="fun returned a gradient of shape"):
        minimize(lambda x: (0.0, np.zeros(3)), [0.0, 0.0], partial(SGD, lr=0.1), 2)


def test_repr_shows_hyper_parameters():
    assert repr(SGD([np.zeros(1)], lr=0.1, momentum=0.9)) == (
        "SGD(lr=0.1, momentum=0.9, dampening=0, weight_decay=0, nesterov=False)")


# --------------------------------------------------------------------------------------
# The plots of the chapter (mlbook.plotting)
# --------------------------------------------------------------------------------------

def test_plot_optimizer_paths_and_convergence():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mlbook.plotting import plot_convergence, plot_optimizer_paths

    runs = {name: minimize(rosenbrock, [-1.2, 1.0], partial(cls, lr=lr), 20)
            for name, cls, lr in [("SGD", SGD, 1e-3), ("Adam", Adam, 0.05)]}
    ax = plot_optimizer_paths(rosenbrock, runs, xlim=(-1.5, 1.5), ylim=(-0.5, 1.5),
                              minimum=(1, 1), resolution=20)
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels[:2] == ["SGD", "Adam"] and "minimum" in labels
    np.testing.assert_array_equal(ax.get_lines()[1].get_xydata(), runs["Adam"].path)
    ax2 = plot_convergence({k: r.values for k, r in runs.items()})
    np.testing.assert_array_equal(ax2.get_lines()[0].get_ydata(), runs["SGD"].values)
    plt.close("all")


@pytest.mark.parametrize("bad,match", [
    ({}, "non-empty dict"), ([np.zeros((3, 2))], "non-empty dict"),
    ({"a": np.zeros((3, 3))}, r"paths\['a'\] must have shape \(n_points, 2\)"),
])
def test_plot_optimizer_paths_bad_input(bad, match):
    from mlbook.plotting import plot_optimizer_paths
    with pytest.raises((TypeError, ValueError), match=match):
        plot_optimizer_paths(rosenbrock, bad, xlim=(0, 1), ylim=(0, 1))


def test_plot_convergence_bad_input():
    from mlbook.plotting import plot_convergence
    with pytest.raises(ValueError, match=r"histories\['a'\] must have shape \(n_points,\)"):
        plot_convergence({"a": np.zeros((3, 2))})


# --- parameters through the shared checks ----------------------------------------

@pytest.mark.parametrize("cls", [SGD, Adagrad, RMSprop, Adadelta, Adam, NAdam, AdamW])
@pytest.mark.parametrize("lr", [math.inf, -math.inf])
def test_an_infinite_learning_rate_is_refused(cls, lr):
    # guards against: lr=inf was accepted and every step gave inf/NaN parameters
    with pytest.raises(ValueError, match="lr must be"):
        cls([np.zeros(2)], lr=lr)


@pytest.mark.parametrize("cls,name", [(SGD, "nesterov"), (RMSprop, "centered"), (Adam, "amsgrad")])
def test_bool_parameters_take_numpy_bools_and_refuse_strings(cls, name):
    kw = {"momentum": 0.9} if cls is SGD else {}
    cls([np.zeros(2)], **kw, **{name: np.True_})        # guards against: np.True_ refused
    with pytest.raises(TypeError, match=f"{name} must be True or False"):
        cls([np.zeros(2)], **kw, **{name: "no"})


@pytest.mark.parametrize("call,name", [(lambda v: rosenbrock([0.0, 0.0], a=v), "a"),
                                       (lambda v: rosenbrock([0.0, 0.0], b=v), "b"),
                                       (lambda v: ill_conditioned_quadratic([0.0, 0.0], angle=v),
                                        "angle")])
@pytest.mark.parametrize("bad", [math.inf, math.nan, True])
def test_test_functions_check_their_parameters(call, name, bad):
    # guards against: a=inf or angle=nan giving an inf/NaN value without a word
    with pytest.raises((TypeError, ValueError), match=f"{name} must be"):
        call(bad)
