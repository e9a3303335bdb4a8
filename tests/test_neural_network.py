"""Tests of mlbook.neural_network: gradients, scikit-learn oracles, Zhou's BP, bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from mlbook.base import clone
from mlbook.datasets import load_digits, load_iris, load_watermelon
from mlbook.model_selection import train_test_split
from mlbook.neural_network import (
    ACTIVATIONS,
    BPNetwork,
    ConvergenceWarning,
    MLPClassifier,
    MLPRegressor,
    Perceptron,
    activation_derivative,
    backprop,
    forward,
    glorot_uniform,
    logistic,
    n_parameters,
    softmax,
    step,
)
from mlbook._validation import NotFittedError
from input_data import noisy_threshold

OUTPUTS = ["softmax", "logistic", "identity"]


def random_network(rng, n_hidden_layers, d, k):
    units = [d] + [int(h) for h in rng.integers(2, 6, size=n_hidden_layers)] + [k]
    coefs = [rng.normal(scale=0.7, size=(a, b)) for a, b in zip(units[:-1], units[1:])]
    intercepts = [rng.normal(scale=0.3, size=b) for b in units[1:]]
    return coefs, intercepts


def random_targets(rng, out, n, k):
    if out == "softmax":
        return np.eye(k)[rng.integers(0, k, size=n)]
    if out == "logistic":
        return rng.integers(0, 2, size=(n, k)).astype(float)
    return rng.normal(size=(n, k))


# ---------------------------------------------------------------------------
# backprop against central finite differences
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("activation", sorted(ACTIVATIONS))
@pytest.mark.parametrize("out", OUTPUTS)
@pytest.mark.parametrize("n_hidden_layers", [1, 2, 3])
def test_backprop_matches_central_differences(activation, out, n_hidden_layers):
    rng = np.random.default_rng(100 * n_hidden_layers + OUTPUTS.index(out))
    d, k, n = 4, 3, 7
    coefs, intercepts = random_network(rng, n_hidden_layers, d, k)
    X = rng.normal(size=(n, d))
    Y = random_targets(rng, out, n, k)
    alpha = 0.3
    loss, gW, gb = backprop(coefs, intercepts, X, Y, activation, out, alpha)
    h = 1e-6
    params, grads = coefs + intercepts, gW + gb
    for p, g in zip(params, grads):
        fd = np.empty_like(p)
        for idx in np.ndindex(p.shape):
            old = p[idx]
            p[idx] = old + h
            up = backprop(coefs, intercepts, X, Y, activation, out, alpha)[0]
            p[idx] = old - h
            down = backprop(coefs, intercepts, X, Y, activation, out, alpha)[0]
            p[idx] = old
            fd[idx] = (up - down) / (2 * h)
        # 1e-6 relative (the check): the central difference's error is
        # O(h^2) + O(eps/h) ~ 1e-10 here, far below it; a ReLU kink within h of
        # a pre-activation would break it, which these seeds do not hit.
        err = np.linalg.norm(g - fd) / max(np.linalg.norm(fd), 1e-12)
        assert err < 1e-6, f"{activation}/{out}/{n_hidden_layers}: relative error {err:.2e}"
    # the loss is the data loss plus alpha/(2n) times the squared weights
    data_loss = backprop(coefs, intercepts, X, Y, activation, out, 0.0)[0]
    penalty = alpha / (2 * n) * sum(np.sum(W ** 2) for W in coefs)
    assert abs(loss - (data_loss + penalty)) <= 1e-12 * max(1.0, abs(loss))


@pytest.mark.parametrize("activation", sorted(ACTIVATIONS))
def test_activation_derivatives_match_central_differences(activation):
    z = np.linspace(-3, 3, 41) + 0.013        # avoid ReLU's kink at 0
    f = ACTIVATIONS[activation]
    h = 1e-6
    fd = (f(z + h) - f(z - h)) / (2 * h)
    # 1e-8 absolute: central differences of smooth functions with h = 1e-6
    assert np.max(np.abs(activation_derivative(f(z), activation) - fd)) < 1e-8


def test_stable_activations():
    z = np.array([-1000.0, -50.0, 0.0, 50.0, 1000.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = logistic(z)
        p = softmax(np.array([[1000.0, 0.0, -1000.0]]))
    assert s[0] == 0.0 and s[-1] == 1.0 and s[2] == 0.5
    # logistic(-50) = e^-50 / (1 + e^-50) to full relative precision
    assert abs(s[1] - np.exp(-50) / (1 + np.exp(-50))) <= 1e-15 * np.exp(-50)
    assert np.allclose(p, [[1.0, 0.0, 0.0]], rtol=0, atol=1e-300)
    assert step([-1e-9, 0.0]).tolist() == [0.0, 1.0]


def test_forward_shapes_and_bad_networks():
    rng = np.random.default_rng(0)
    coefs, intercepts = random_network(rng, 2, 3, 2)
    acts = forward(coefs, intercepts, rng.normal(size=(5, 3)), "tanh", "softmax")
    assert [a.shape[1] for a in acts] == [3] + [W.shape[1] for W in coefs]
    assert np.allclose(acts[-1].sum(axis=1), 1.0, rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match=r"coefs\[1\] must have shape"):
        forward([coefs[0], coefs[0]], intercepts[:2], np.ones((2, 3)), "tanh", "softmax")
    with pytest.raises(ValueError, match=r"intercepts\[0\]"):
        forward(coefs, [np.ones(7)] + intercepts[1:], np.ones((2, 3)), "tanh", "softmax")
    with pytest.raises(ValueError, match="activation must be one of"):
        forward(coefs, intercepts, np.ones((2, 3)), "sigmoid", "softmax")
    with pytest.raises(ValueError, match="out_activation"):
        forward(coefs, intercepts, np.ones((2, 3)), "relu", "tanh")
    with pytest.raises(ValueError, match="Y must have shape"):
        backprop(coefs, intercepts, np.ones((2, 3)), np.ones((3, 2)), "relu", "softmax")
    with pytest.raises(ValueError, match="alpha"):
        backprop(coefs, intercepts, np.ones((2, 3)), np.ones((2, 2)), "relu", "softmax", -1.0)


# ---------------------------------------------------------------------------
# scikit-learn as the oracle
# ---------------------------------------------------------------------------


def _sklearn_backprop(model, X, Y):
    """scikit-learn's private MLP._backprop on the model's current weights."""
    L = len(model.coefs_)
    activations = [X] + [None] * L
    deltas = [None] * L
    cg = [np.empty_like(W) for W in model.coefs_]
    ig = [np.empty_like(b) for b in model.intercepts_]
    return model._backprop(X, Y, None, activations, deltas, cg, ig)


@pytest.mark.parametrize("activation", sorted(ACTIVATIONS))
@pytest.mark.parametrize("out", OUTPUTS)
def test_backprop_and_forward_equal_scikit_learns(activation, out):
    nn = pytest.importorskip("sklearn.neural_network")
    rng = np.random.default_rng(7)
    n, d = 30, 4
    k = {"softmax": 3, "logistic": 1, "identity": 1}[out]
    X = rng.normal(size=(n, d))
    if out == "identity":
        y = rng.normal(size=n)
        model = nn.MLPRegressor(hidden_layer_sizes=(5, 4), activation=activation,
                                alpha=0.2, max_iter=1, random_state=0)
    else:
        y = rng.integers(0, 3 if k == 3 else 2, size=n)
        model = nn.MLPClassifier(hidden_layer_sizes=(5, 4), activation=activation,
                                 alpha=0.2, max_iter=1, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, y)
    assert model.out_activation_ == out
    Y = (np.eye(3)[y] if k == 3 else y.reshape(-1, 1)).astype(float)
    coefs = [W.copy() for W in model.coefs_]
    intercepts = [b.copy() for b in model.intercepts_]
    loss, gW, gb = backprop(coefs, intercepts, X, Y, activation, out, alpha=0.2)
    sk_loss, sk_gW, sk_gb = _sklearn_backprop(model, X, Y)
    # 1e-12 relative: the same float64 formulas, summed in another order
    assert abs(loss - sk_loss) <= 1e-12 * abs(sk_loss)
    for a, b in zip(gW + gb, sk_gW + sk_gb):
        assert np.allclose(a, b, rtol=0, atol=1e-12 * np.max(np.abs(b)))
    ours_out = forward(coefs, intercepts, X, activation, out)[-1]
    theirs = model.predict_proba(X)[:, 1:] if k == 1 and out == "logistic" else (
        model.predict_proba(X) if out == "softmax" else model.predict(X).reshape(-1, 1))
    assert np.allclose(ours_out, theirs, rtol=0, atol=1e-13)


def _train_both(solver, hidden, activation, X, y, n_epochs, seed=3, **params):
    """Train ours and scikit-learn's from the same initial weights, in the same order."""
    nn = pytest.importorskip("sklearn.neural_network")
    ours = MLPClassifier(hidden, activation=activation, solver=solver, shuffle=False,
                         max_iter=n_epochs, tol=0.0, n_iter_no_change=n_epochs,
                         random_state=seed, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours.fit(X, y)
        # our initial weights: the same Generator draws, layer by layer
        rng = np.random.default_rng(seed)
        units = [X.shape[1]] + list(hidden) + [ours.n_outputs_]
        init = [glorot_uniform(a, b, activation, rng) for a, b in zip(units[:-1], units[1:])]
        theirs = nn.MLPClassifier(hidden_layer_sizes=hidden, activation=activation,
                                  solver=solver, shuffle=False, warm_start=True, max_iter=1,
                                  tol=0.0, n_iter_no_change=n_epochs, random_state=0, **params)
        theirs.fit(X, y)
        for W, (W0, b0), b in zip(theirs.coefs_, init, theirs.intercepts_):
            W[...] = W0
            b[...] = b0
        theirs.loss_curve_ = []
        theirs.best_loss_ = np.inf
        theirs._no_improvement_count = 0
        theirs.set_params(max_iter=n_epochs)
        theirs.fit(X, y)        # warm start: a new optimiser, our initial weights
    return ours, theirs


def test_sgd_training_equals_scikit_learns_step_by_step():
    X, y = load_iris(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    for nesterov in (True, False):
        ours, theirs = _train_both("sgd", (6, 5), "tanh", X, y, 15, batch_size=32,
                                   learning_rate_init=0.05, momentum=0.9,
                                   nesterovs_momentum=nesterov, alpha=1e-3)
        # 1e-9 relative: both apply the same SGD rule (torch's buffer times -lr
        # is scikit-learn's velocity) in float64; only the rounding differs,
        # over 75 steps
        assert np.allclose(ours.loss_curve_, theirs.loss_curve_, rtol=1e-9, atol=0)
        for a, b in zip(ours.coefs_ + ours.intercepts_, theirs.coefs_ + theirs.intercepts_):
            assert np.allclose(a, b, rtol=0, atol=1e-9)


class _SklearnEpsAdam:
    """Adam with eps added to sqrt(v_t) before the bias correction (scikit-learn's placement)."""

    def __init__(self, params, lr):
        self.params, self.lr, self.t = params, lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, grads):
        self.t += 1
        lr_t = self.lr * np.sqrt(1 - 0.999 ** self.t) / (1 - 0.9 ** self.t)
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m[...] = 0.9 * m + 0.1 * g
            v[...] = 0.999 * v + 0.001 * g * g
            p -= lr_t * m / (np.sqrt(v) + 1e-8)


def test_adam_training_differs_from_scikit_learns_only_by_where_eps_sits(monkeypatch):
    X, y = load_iris(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    kw = dict(batch_size=50, learning_rate_init=0.01)
    ours, theirs = _train_both("adam", (6,), "relu", X, y, 15, **kw)
    # torch's Adam (mlbook.optim) adds eps to sqrt(v_t / (1 - beta2^t)),
    # scikit-learn to sqrt(v_t): an effective eps larger by 1/sqrt(1 - beta2^t)
    # (31.6 at t = 1), which changes the steps of coordinates whose gradient is
    # not much larger than 1e-7. Close, not equal: 1e-2 relative in the loss.
    rel = np.max(np.abs(np.subtract(ours.loss_curve_, theirs.loss_curve_))
                 / np.array(theirs.loss_curve_))
    assert 0 < rel < 1e-2
    # with scikit-learn's placement of eps the whole training loop agrees to
    # 1e-9 relative (the same float64 arithmetic up to rounding, 45 steps)
    monkeypatch.setattr(MLPClassifier, "_make_optimizer",
                        lambda self, params: _SklearnEpsAdam(params, self.learning_rate_init))
    ours, theirs = _train_both("adam", (6,), "relu", X, y, 15, **kw)
    assert np.allclose(ours.loss_curve_, theirs.loss_curve_, rtol=1e-9, atol=0)
    for a, b in zip(ours.coefs_ + ours.intercepts_, theirs.coefs_ + theirs.intercepts_):
        assert np.allclose(a, b, rtol=0, atol=1e-9)


def test_digits_accuracy_within_two_points_of_scikit_learn():
    nn = pytest.importorskip("sklearn.neural_network")
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    ours_acc, theirs_acc = [], []
    for seed in range(4):
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                  random_state=seed)
        settings = dict(hidden_layer_sizes=(32,), learning_rate_init=0.01, max_iter=40,
                        random_state=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", category=Warning)
            ours_acc.append(MLPClassifier(**settings).fit(X_tr, y_tr).score(X_te, y_te))
            theirs_acc.append(nn.MLPClassifier(**settings).fit(X_tr, y_tr).score(X_te, y_te))
    # the criterion, on the mean over four splits and initialisations
    assert abs(np.mean(ours_acc) - np.mean(theirs_acc)) <= 0.02, (ours_acc, theirs_acc)
    assert min(ours_acc) > 0.93


def test_perceptron_equals_scikit_learns_without_shuffling():
    lm = pytest.importorskip("sklearn.linear_model")
    X, y = load_iris(return_X_y=True)
    for classes in ([0, 1], [1, 2], [0, 1, 2]):
        mask = np.isin(y, classes)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = Perceptron(shuffle=False, max_iter=20).fit(X[mask], y[mask])
            theirs = lm.Perceptron(shuffle=False, max_iter=20, tol=None).fit(X[mask], y[mask])
        # 1e-12 absolute: the same additions of eta0 * y_i * x_i in the same order
        assert np.allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-12)
        assert np.allclose(ours.intercept_, theirs.intercept_, rtol=0, atol=1e-12)
        assert np.array_equal(ours.predict(X), theirs.predict(X))


# ---------------------------------------------------------------------------
# the perceptron
# ---------------------------------------------------------------------------


def test_novikoff_bound_on_separable_data():
    rng = np.random.default_rng(1)
    for _ in range(10):
        u = np.append(rng.normal(size=2), rng.uniform(-0.3, 0.3))
        u /= np.linalg.norm(u)               # a unit separator (w, b) in augmented space
        X = rng.uniform(-1, 1, size=(200, 2))
        margins = X @ u[:2] + u[2]
        keep = np.abs(margins) > 0.1
        X, y = X[keep], np.where(margins[keep] > 0, 1, -1)
        Xa = np.column_stack([X, np.ones(len(X))])
        R = np.max(np.linalg.norm(Xa, axis=1))
        gamma = np.min(y * (Xa @ u))
        clf = Perceptron(random_state=0).fit(X, y)
        assert clf.score(X, y) == 1.0
        assert clf.mistakes_[-1] == 0
        assert clf.mistakes_.sum() <= (R / gamma) ** 2


def test_zhou_and_or_not_by_one_neuron():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    # Zhou section 5.2: y = sgn(w1 x1 + w2 x2 - theta)
    def neuron(w, theta):
        return step(X @ np.asarray(w, dtype=float) - theta)
    assert neuron([1, 1], 2).tolist() == [0, 0, 0, 1]          # AND
    assert neuron([1, 1], 0.5).tolist() == [0, 1, 1, 1]        # OR
    assert neuron([-0.6, 0], -0.5).tolist() == [1, 1, 0, 0]    # NOT x1
    for target in ([0, 0, 0, 1], [0, 1, 1, 1], [1, 1, 0, 0]):
        clf = Perceptron(random_state=0).fit(X, target)
        assert clf.predict(X).tolist() == target


def test_perceptron_cannot_learn_xor():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    with pytest.warns(ConvergenceWarning, match="linearly separable"):
        clf = Perceptron(max_iter=50, random_state=0).fit(X, [0, 1, 1, 0])
    assert clf.score(X, [0, 1, 1, 0]) <= 0.75
    assert np.all(clf.mistakes_ > 0)


def test_perceptron_eta0_only_scales_the_weights():
    X, y = load_iris(return_X_y=True)
    a = Perceptron(eta0=1.0, shuffle=False).fit(X[:100], y[:100])
    b = Perceptron(eta0=0.1, shuffle=False).fit(X[:100], y[:100])
    assert np.allclose(b.coef_, 0.1 * a.coef_, rtol=1e-12, atol=0)
    assert np.array_equal(a.mistakes_, b.mistakes_)


# ---------------------------------------------------------------------------
# Zhou's BP network
# ---------------------------------------------------------------------------


def _zhou_error(net, x, t):
    return 0.5 * np.sum((net._outputs(x[None, :])[1][0] - t) ** 2)


def test_zhou_standard_bp_step_is_minus_eta_times_the_gradient():
    """One standard-BP step equals -eta times the numerical gradient of E_k (so g_j's sign is right)."""
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(1, 3))
    net = BPNetwork(n_hidden=4, eta=1e-7, max_iter=1, random_state=0).fit(X, np.array([[0.2, 0.9]]))
    before = BPNetwork(n_hidden=4, eta=1e-7, max_iter=1, random_state=0)
    r = np.random.default_rng(0)        # the same initial draws as fit
    before.v_, before.gamma_ = r.uniform(size=(3, 4)), r.uniform(size=4)
    before.w_, before.theta_ = r.uniform(size=(4, 2)), r.uniform(size=2)
    t = np.array([0.2, 0.9])
    h = 1e-6
    for name in ("v_", "gamma_", "w_", "theta_"):
        p = getattr(before, name)
        grad = np.empty_like(p)
        for idx in np.ndindex(p.shape):
            old = p[idx]
            p[idx] = old + h
            up = _zhou_error(before, X[0], t)
            p[idx] = old - h
            down = _zhou_error(before, X[0], t)
            p[idx] = old
            grad[idx] = (up - down) / (2 * h)
        step_taken = getattr(net, name) - p
        # 1e-6 relative: central differences (error ~1e-10) against the update
        # divided by eta = 1e-7 (rounding of the update ~1e-16 / 1e-7 = 1e-9)
        assert np.allclose(step_taken / 1e-7, -grad, rtol=0, atol=1e-6 * np.max(np.abs(grad)))


def test_zhou_accumulated_equals_standard_on_one_sample_and_decreases_error():
    rng = np.random.default_rng(2)
    X1, y1 = rng.uniform(size=(1, 3)), np.array([[1.0]])
    a = BPNetwork(n_hidden=3, eta=0.5, max_iter=5, random_state=1).fit(X1, y1)
    b = BPNetwork(n_hidden=3, eta=0.5, max_iter=5, accumulated=True, random_state=1).fit(X1, y1)
    for name in ("v_", "gamma_", "w_", "theta_"):
        assert np.allclose(getattr(a, name), getattr(b, name), rtol=0, atol=1e-14)
    # on watermelon 3.0 (one-hot categorical attributes) both lower the error
    wm = load_watermelon("3.0")
    cols = []
    for j, kind in enumerate(wm.feature_types):
        col = wm.data[:, j]
        if kind == "categorical":
            cols.append((col[:, None] == np.unique(col)[None, :]).astype(float))
        else:
            cols.append(col.astype(float)[:, None])
    X = np.hstack(cols)
    std = BPNetwork(n_hidden=5, max_iter=200, random_state=0).fit(X, wm.target)
    acc = BPNetwork(n_hidden=5, max_iter=200, accumulated=True, random_state=0).fit(X, wm.target)
    for net in (std, acc):
        assert net.error_curve_[-1] < net.error_curve_[0]
    # per epoch, standard BP (17 updates) gets further than accumulated BP (1 update)
    assert std.error_curve_[-1] < acc.error_curve_[-1]


# ---------------------------------------------------------------------------
# MLP behaviour
# ---------------------------------------------------------------------------


def test_mlp_attributes_and_parameter_count():
    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = MLPClassifier((7, 5), max_iter=5, random_state=0).fit(X, y)
    assert [W.shape for W in clf.coefs_] == [(4, 7), (7, 5), (5, 3)]
    assert len(clf.loss_curve_) == clf.n_iter_ == 5
    assert clf.best_validation_score_ is None and clf.out_activation_ == "softmax"
    count = sum(W.size for W in clf.coefs_) + sum(b.size for b in clf.intercepts_)
    assert count == n_parameters([4, 7, 5, 3]) == (4 + 1) * 7 + (7 + 1) * 5 + (5 + 1) * 3
    P = clf.predict_proba(X)
    assert P.shape == (150, 3) and np.allclose(P.sum(axis=1), 1, rtol=0, atol=1e-12)
    assert np.array_equal(clf.predict(X), clf.classes_[P.argmax(axis=1)])
    # labels of any type, mapped through classes_
    names = np.array(["a", "b", "c"])[y]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf2 = MLPClassifier((7, 5), max_iter=5, random_state=0).fit(X, names)
    assert np.array_equal(clf2.predict(X), np.array(["a", "b", "c"])[clf.predict(X)])
    # same random_state, same model
    assert np.array_equal(clf2.coefs_[0], clf.coefs_[0])
    assert clone(clf).get_params() == clf.get_params()


def test_mlp_binary_uses_one_logistic_unit():
    X, y = load_iris(return_X_y=True)
    X, y = X[y > 0], y[y > 0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = MLPClassifier((5,), max_iter=20, random_state=0).fit(X, y)
    assert clf.out_activation_ == "logistic" and clf.coefs_[-1].shape == (5, 1)
    P = clf.predict_proba(X)
    assert P.shape == (100, 2) and set(clf.predict(X)) <= {1, 2}


def test_mlp_early_stopping_keeps_the_best_epoch():
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    clf = MLPClassifier((16,), learning_rate_init=0.01, early_stopping=True,
                        n_iter_no_change=3, max_iter=200, random_state=0).fit(X[:600], y[:600])
    scores = clf.validation_scores_
    assert len(scores) == clf.n_iter_ < 200
    assert clf.best_validation_score_ == max(scores)
    # stopped: more than n_iter_no_change epochs without improving by tol
    best_epoch = int(np.argmax(scores))
    assert clf.n_iter_ - 1 - best_epoch >= 3
    assert clf.best_loss_ is None


def test_mlp_regressor_fits_a_smooth_function():
    rng = np.random.default_rng(0)
    X = rng.uniform(-2, 2, size=(300, 2))
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] ** 2
    reg = MLPRegressor((32,), activation="tanh", learning_rate_init=0.01, max_iter=500,
                       random_state=0).fit(X, y)
    assert reg.predict(X).shape == (300,)
    assert reg.score(X, y) > 0.95
    Y2 = np.column_stack([y, -y])
    reg2 = MLPRegressor((8,), max_iter=3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        assert reg2.fit(X, Y2).predict(X).shape == (300, 2)


def test_mlp_regressor_early_stopping_uses_r2():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 3))
    y = X @ np.array([1.0, -2.0, 0.5])
    reg = MLPRegressor((10,), learning_rate_init=0.01, early_stopping=True,
                       max_iter=300, random_state=0).fit(X, y)
    assert reg.best_validation_score_ == max(reg.validation_scores_) > 0.9


def test_diverging_fit_names_the_learning_rate():
    X, y = load_iris(return_X_y=True)
    reg = MLPRegressor((20,), activation="identity", solver="sgd", learning_rate_init=0.1,
                       random_state=0)
    with pytest.raises(ValueError, match=r"diverged.*learning_rate_init \(it is 0.1\)"):
        reg.fit(X, y)


@pytest.mark.parametrize("params, match", [
    (dict(hidden_layer_sizes=(10, 0)), "hidden_layer_sizes must hold positive"),
    (dict(hidden_layer_sizes=(-3,)), "hidden_layer_sizes must hold positive"),
    (dict(hidden_layer_sizes=(2.5,)), "hidden_layer_sizes must hold ints"),
    (dict(activation="sigmoid"), "activation must be one of"),
    (dict(solver="lbfgs"), "solver must be 'adam' or 'sgd'"),
    (dict(solver="newton"), "solver must be 'adam' or 'sgd'"),
    (dict(alpha=-1.0), "alpha must be >= 0"),
    (dict(batch_size=0), "batch_size must be >= 1"),
    (dict(batch_size="all"), "batch_size must be 'auto'"),
    (dict(learning_rate_init=0.0), "learning_rate_init must be > 0"),
    (dict(max_iter=0), "max_iter must be >= 1"),
    (dict(momentum=1.5), "momentum must be <= 1"),
    (dict(validation_fraction=1.0), "validation_fraction must be < 1"),
    (dict(n_iter_no_change=0), "n_iter_no_change must be >= 1"),
])
def test_mlp_bad_parameters(params, match):
    X, y = load_iris(return_X_y=True)
    for cls in (MLPClassifier, MLPRegressor):
        with pytest.raises((ValueError, TypeError), match=match):
            cls(**params).fit(X, y)


def test_mlp_bad_data():
    X, y = load_iris(return_X_y=True)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        MLPClassifier().fit(Xn, y)
    Xi = X.copy()
    Xi[0, 0] = np.inf
    with pytest.raises(ValueError, match="X contains infinity"):
        MLPRegressor().fit(Xi, y)
    with pytest.raises(ValueError, match="single class"):
        MLPClassifier().fit(X, np.zeros(150))
    with pytest.raises(ValueError, match="y contains NaN"):
        MLPRegressor().fit(X, np.full(150, np.nan))
    with pytest.raises(ValueError, match="different lengths"):
        MLPClassifier().fit(X, y[:-1])
    for model in (MLPClassifier(), MLPRegressor(), Perceptron(), BPNetwork()):
        with pytest.raises(NotFittedError, match="not fitted"):
            model.predict(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = MLPClassifier((3,), max_iter=1).fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features"):
        clf.predict(X[:, :3])


def test_perceptron_and_bp_bad_input():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="eta0 must be > 0"):
        Perceptron(eta0=0).fit(X, y)
    with pytest.raises(ValueError, match="single class"):
        Perceptron().fit(X, np.ones(150))
    with pytest.raises(ValueError, match="X contains NaN"):
        Perceptron().fit(np.full((3, 2), np.nan), [0, 1, 0])
    with pytest.raises(ValueError, match="exactly 2 classes"):
        BPNetwork().fit(X, y)
    with pytest.raises(ValueError, match="eta must be > 0"):
        BPNetwork(eta=-0.1).fit(X[:100], y[:100])
    with pytest.raises(ValueError, match="init_range must be finite with low < high"):
        BPNetwork(init_range=(1.0, 1.0)).fit(X[:100], y[:100])
    with pytest.raises(ValueError, match="init_range must be finite with low < high"):
        BPNetwork(init_range=(0.0, np.inf)).fit(X[:100], y[:100])
    with pytest.raises(TypeError, match="init_range must be a pair of real numbers"):
        BPNetwork(init_range=0.5).fit(X[:100], y[:100])
    with pytest.raises(TypeError, match="init_range must be a pair of real numbers"):
        BPNetwork(init_range=(0.0, "1")).fit(X[:100], y[:100])


def test_bp_init_range_draws_from_the_interval_and_defaults_to_zhou():
    rng = np.random.default_rng(4)
    X, y = rng.uniform(size=(12, 3)), np.tile([0, 1], 6)
    zhou = BPNetwork(n_hidden=4, max_iter=1, random_state=3).fit(X, y)
    r = np.random.default_rng(3)                 # the draws fit makes, in its order
    first = r.uniform(0, 1, size=(3, 4))
    start = BPNetwork(n_hidden=4, max_iter=1, random_state=3)
    assert start.init_range == (0.0, 1.0)
    # the default range is Zhou's (0, 1): the first epoch starts from these draws,
    # so the error before training is that of the network built from them
    start.v_, start.gamma_ = first, r.uniform(0, 1, size=4)
    start.w_, start.theta_ = r.uniform(0, 1, size=(4, 1)), r.uniform(0, 1, size=1)
    e0 = 0.5 * np.mean((start._outputs(X)[1].ravel() - y) ** 2)
    # 1e-15 relative: the same float64 operations on the same numbers
    assert np.isclose(zhou.error_curve_[0], e0, rtol=1e-15, atol=0)
    for low, high in [(-1.0, 1.0), (0.0, 0.1), (-0.3, 0.3)]:
        net = BPNetwork(n_hidden=50, max_iter=1, eta=1e-12, init_range=(low, high),
                        random_state=5).fit(X, y)
        # eta = 1e-12: one epoch moves no weight by more than 1e-11, so the weights
        # are the initial draws; they lie in the interval and fill it
        w = np.concatenate([net.v_.ravel(), net.gamma_, net.w_.ravel(), net.theta_])
        assert w.min() >= low - 1e-11 and w.max() <= high + 1e-11
        assert w.min() < low + 0.1 * (high - low) and w.max() > high - 0.1 * (high - low)


def test_batch_size_larger_than_data_warns_and_clips():
    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        with pytest.warns(UserWarning, match="batch_size=500 exceeds"):
            MLPClassifier((3,), batch_size=500, max_iter=2).fit(X, y)


def test_unscaled_data_warn_and_a_fit_worse_than_a_constant_warns():
    X, y = load_iris(return_X_y=True)
    with pytest.warns(UserWarning, match="standardise X"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            MLPClassifier((5,), max_iter=5, random_state=0).fit(X + 1e4, y)
    # shifted far from 0, the ReLU units start dead or saturated and the fit is worse
    # than predicting the class frequencies (training accuracy 1/3): a warning says so
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clf = MLPClassifier((20,), max_iter=300, random_state=0).fit(X + 1e4, y)
    messages = [str(w.message) for w in caught]
    assert any("worse than a constant prediction" in m for m in messages), messages
    assert clf.score(X + 1e4, y) < 0.5
    # standardised, neither warning
    Xs = (X - X.mean(axis=0)) / X.std(axis=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        MLPClassifier((20,), max_iter=300, random_state=0).fit(Xs, y)
    assert not [w for w in caught if "standardise" in str(w.message)
                or "constant" in str(w.message)]


def test_regressor_sgd_training_equals_scikit_learns():
    nn = pytest.importorskip("sklearn.neural_network")
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 3))
    y = np.sin(X[:, 0]) + X[:, 1] * X[:, 2]
    params = dict(hidden_layer_sizes=(7,), activation="tanh", solver="sgd", shuffle=False,
                  batch_size=16, learning_rate_init=0.02, momentum=0.9, alpha=1e-3,
                  tol=0.0, n_iter_no_change=10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = MLPRegressor(max_iter=10, random_state=2, **params).fit(X, y)
        rng2 = np.random.default_rng(2)
        init = [glorot_uniform(a, b, "tanh", rng2) for a, b in [(3, 7), (7, 1)]]
        theirs = nn.MLPRegressor(warm_start=True, max_iter=1, random_state=0, **params).fit(X, y)
        for W, b, (W0, b0) in zip(theirs.coefs_, theirs.intercepts_, init):
            W[...] = W0
            b[...] = b0
        theirs.loss_curve_, theirs.best_loss_, theirs._no_improvement_count = [], np.inf, 0
        theirs.set_params(max_iter=10).fit(X, y)
    # 1e-9: the same SGD rule in float64 (see the classifier's test); one output, so
    # scikit-learn's squared loss (mean over outputs) equals ours (sum over outputs)
    assert np.allclose(ours.loss_curve_, theirs.loss_curve_, rtol=1e-9, atol=0)
    assert np.allclose(ours.predict(X), theirs.predict(X), rtol=0, atol=1e-9)


def test_confusion_matrix_and_image_plots():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mlbook.plotting import plot_confusion_matrix, plot_images

    cm = np.array([[5, 1, 0], [0, 4, 2], [0, 0, 6]])
    ax = plot_confusion_matrix(cm, labels=["a", "b", "c"])
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == sorted(str(v) for v in cm.ravel() if v)       # zero cells left blank
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    with pytest.raises(ValueError, match="square"):
        plot_confusion_matrix(np.ones((2, 3)))
    with pytest.raises(ValueError, match="labels must have 3"):
        plot_confusion_matrix(cm, labels=["a"])
    fig = plot_images(load_digits().images[:10], titles=list(range(10)), n_cols=4)
    shown = [a for a in fig.axes if a.images]
    assert len(fig.axes) == 12 and len(shown) == 10              # 3 rows of 4, 10 images
    assert shown[3].get_title() == "3"
    with pytest.raises(ValueError, match="images must have shape"):
        plot_images(np.zeros((8, 8)))
    plt.close("all")


# --- parameters through the shared checks ----------------------------------------

_XOR = (np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]), np.array([0, 1, 1, 0]))


@pytest.mark.parametrize("make", [
    lambda v: BPNetwork(accumulated=v, max_iter=2),
    lambda v: Perceptron(shuffle=v, max_iter=2),
    lambda v: MLPClassifier(shuffle=v, max_iter=2),
    lambda v: MLPClassifier(early_stopping=v, max_iter=2),
    lambda v: MLPClassifier(solver="sgd", nesterovs_momentum=v, max_iter=2),
    lambda v: MLPRegressor(shuffle=v, max_iter=2),
], ids=["BPNetwork.accumulated", "Perceptron.shuffle", "MLP.shuffle", "MLP.early_stopping",
        "MLP.nesterovs_momentum", "MLPRegressor.shuffle"])
def test_bool_parameters_are_checked(make):
    # guards against: BPNetwork(accumulated="no") ran accumulated BP ("no" is truthy)
    X, y = _XOR
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        make(np.False_).fit(X, y)                             # NumPy's bools are bools
        for bad in ("no", 1, None):
            with pytest.raises(TypeError, match="must be True or False"):
                make(bad).fit(X, y)


@pytest.mark.parametrize("make,name", [(lambda: Perceptron(eta0=np.inf), "eta0"),
                                       (lambda: BPNetwork(eta=np.inf), "eta"),
                                       (lambda: MLPClassifier(learning_rate_init=np.inf),
                                        "learning_rate_init"),
                                       (lambda: MLPClassifier(alpha=np.inf), "alpha")])
def test_infinite_parameters_are_refused(make, name):
    # guards against: Perceptron(eta0=inf) and BPNetwork(eta=inf) gave inf/NaN weights silently
    with pytest.raises(ValueError, match=f"{name} must be finite"):
        make().fit(*_XOR)


@pytest.mark.parametrize("args,error,match", [
    ((0, 0), ValueError, "fan_in must be >= 1"),              # guards against: ZeroDivisionError
    ((3, 0), ValueError, "fan_out must be >= 1"),
    ((2.5, 3), TypeError, "fan_in must be of type Integral"),
    ((3, 2, "foo"), ValueError, "activation must be one of"),  # guards against: accepted
])
def test_glorot_uniform_checks_its_arguments(args, error, match):
    with pytest.raises(error, match=match):
        glorot_uniform(*args, random_state=0)


@pytest.mark.parametrize("units,error,match", [
    ([2.5, 3], TypeError, r"layer_units\[0\] must be of type Integral"),   # guards against: 9
    ([4, 0, 2], ValueError, r"layer_units\[1\] must be >= 1"),
    ([4], ValueError, "at least two layers"),
    ("43", TypeError, "layer_units must be a list"),
])
def test_n_parameters_checks_the_layer_sizes(units, error, match):
    with pytest.raises(error, match=match):
        n_parameters(units)


def test_forward_refuses_an_unknown_activation():
    X, _ = _XOR
    coefs, intercepts = [np.zeros((2, 1))], [np.zeros(1)]
    with pytest.raises(ValueError, match="activation must be one of"):
        forward(coefs, intercepts, X, activation="foo", out_activation="identity")


# --- bad and extreme input ----------------------------------------------------

def test_bp_network_decision_function_is_the_logit_of_the_output():
    # scikit-learn's convention: decision_function > 0 exactly where predict gives classes_[1]
    X, y = noisy_threshold(60, 2)
    labels = np.where(y == 1, "yes", "no")
    net = BPNetwork(n_hidden=3, eta=0.5, max_iter=50, random_state=0).fit(X, labels)
    z = net.decision_function(X)
    assert z.shape == (60,)
    np.testing.assert_array_equal(net.predict(X), net.classes_[(z > 0).astype(int)])
    # the sigmoid of the net input is the network's output y_hat (Zhou's f(beta_j - theta_j))
    B = 1.0 / (1.0 + np.exp(-(X @ net.v_ - net.gamma_)))
    y_hat = 1.0 / (1.0 + np.exp(-(B @ net.w_ - net.theta_)))
    # rtol: one logistic evaluation each way, a few ulps apart at most
    np.testing.assert_allclose(1.0 / (1.0 + np.exp(-z)), y_hat[:, 0], rtol=1e-12, atol=0)


def test_bp_network_two_d_targets_predict_zero_one_per_output():
    X, y = noisy_threshold(30, 2)
    Y = np.column_stack([y, 1 - y, y])
    net = BPNetwork(n_hidden=3, eta=0.5, max_iter=20, random_state=0).fit(X, Y)
    np.testing.assert_array_equal(net.classes_, [0, 1])
    assert net.predict(X).shape == (30, 3) and net.decision_function(X).shape == (30, 3)


@pytest.mark.parametrize("Est", [Perceptron, BPNetwork, MLPClassifier, MLPRegressor],
                         ids=lambda c: c.__name__)
def test_networks_say_y_is_required(Est):
    X, _ = noisy_threshold()
    with pytest.raises(ValueError, match="requires y to be passed, but the target y is None"):
        Est().fit(X, None)


@pytest.mark.parametrize("Est", [BPNetwork, MLPRegressor], ids=lambda c: c.__name__)
def test_networks_refuse_complex_y(Est):
    # guards against: MLPRegressor dropped the imaginary part with a ComplexWarning at most
    X, y = noisy_threshold()
    with pytest.raises(ValueError, match="y contains complex numbers"):
        Est().fit(X, y + 1j)


def test_mlp_regressor_multi_output_and_column_y():
    X, y = noisy_threshold()
    reg = MLPRegressor((4,), max_iter=30, random_state=0)
    with pytest.warns(Warning):                  # ConvergenceWarning after 30 epochs
        flat = clone(reg).fit(X, y.astype(float)).predict(X)
    with pytest.warns(Warning):
        column = clone(reg).fit(X, y[:, None].astype(float)).predict(X)
    assert column.shape == (40, 1)               # a 2-d y is multi-output: no conversion
    np.testing.assert_array_equal(column[:, 0], flat)
