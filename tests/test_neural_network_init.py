"""Tests of mlbook.neural_network's initialisations: glorot_uniform, he_uniform, initial_weights
and the MLPs' ``init`` parameter."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from mlbook.datasets import load_iris
from mlbook.neural_network import (
    INITS,
    MLPClassifier,
    MLPRegressor,
    glorot_uniform,
    he_uniform,
    initial_weights,
)


def _standardised_iris():
    X, y = load_iris(return_X_y=True)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


def test_he_uniform_bounds_zero_biases_and_variance_two_over_fan_in():
    fan_in, fan_out = 500, 400
    W, b = he_uniform(fan_in, fan_out, random_state=0)
    bound = np.sqrt(6.0 / fan_in)
    assert W.shape == (fan_in, fan_out) and b.shape == (fan_out,)
    assert np.all(b == 0.0)
    assert np.abs(W).max() <= bound
    # the draws fill the interval: with n = 2e5 uniform draws the largest |w| falls short of
    # the bound by more than 1e-4 of it with probability (1 - 1e-4)^n = e^-20
    assert np.abs(W).max() >= bound * (1 - 1e-4)
    # the mean of w^2 estimates Var[w] = bound^2 / 3 = 2 / fan_in (the mean is 0 by symmetry);
    # its relative standard deviation is sqrt(Var[w^2]) / (E[w^2] sqrt(n)) = sqrt(4/5) / sqrt(n)
    # = 0.0020 for n = 2e5: 5 standard deviations is 1.0e-2
    n = W.size
    rel_sd = np.sqrt(4 / 5) / np.sqrt(n)
    assert abs(np.mean(W**2) / (2.0 / fan_in) - 1.0) < 5 * rel_sd
    # Glorot's variance, 2 / (fan_in + fan_out), is 45 % smaller here and must be told apart
    assert abs(np.mean(W**2) / (2.0 / (fan_in + fan_out)) - 1.0) > 0.5


def test_he_uniform_bound_is_torchs_kaiming_uniform_for_relu():
    torch = pytest.importorskip("torch", reason="the oracle test needs PyTorch")
    for fan_in, fan_out in [(300, 700), (1000, 200), (3, 400000)]:
        ours, _ = he_uniform(fan_in, fan_out, random_state=1)
        # torch's Linear weight has shape (fan_out, fan_in); its fan_in is the second axis
        theirs = torch.empty(fan_out, fan_in, dtype=torch.float64)
        torch.manual_seed(0)
        torch.nn.init.kaiming_uniform_(theirs, nonlinearity="relu")
        bound = np.sqrt(6.0 / fan_in)
        t_max = float(theirs.abs().max())
        o_max = float(np.abs(ours).max())
        # each draws U(-r, r) with its own r: r >= the largest |w|, and r <= that largest
        # |w| / (1 - 1e-4) except with probability e^-21 (2.1e5 draws or more); so torch's r
        # and ours agree to 1e-4
        assert t_max <= bound <= t_max / (1 - 1e-4), (fan_in, fan_out, t_max, bound)
        assert o_max <= bound <= o_max / (1 - 1e-4), (fan_in, fan_out, o_max, bound)
        assert t_max <= o_max / (1 - 1e-4) and o_max <= t_max / (1 - 1e-4)


def test_initial_weights_glorot_is_glorot_uniform_layer_by_layer():
    units = [4, 7, 5, 3]
    for activation in ("relu", "logistic", "tanh"):
        coefs, intercepts = initial_weights(units, activation, "glorot", random_state=3)
        rng = np.random.default_rng(3)
        for W, b, (a, c) in zip(coefs, intercepts, zip(units[:-1], units[1:])):
            W0, b0 = glorot_uniform(a, c, activation, rng)
            np.testing.assert_array_equal(W, W0)
            np.testing.assert_array_equal(b, b0)


def test_initial_weights_he_is_he_uniform_layer_by_layer():
    units = [4, 7, 5, 3]
    coefs, intercepts = initial_weights(units, "relu", "he", random_state=3)
    rng = np.random.default_rng(3)
    for W, b, (a, c) in zip(coefs, intercepts, zip(units[:-1], units[1:])):
        W0, b0 = he_uniform(a, c, rng)
        np.testing.assert_array_equal(W, W0)
        np.testing.assert_array_equal(b, b0)


@pytest.mark.parametrize("init", INITS)
def test_mlp_starts_from_initial_weights(init):
    # one epoch of full-batch SGD without momentum from initial_weights(...), by hand
    from mlbook.neural_network import backprop

    X, y = _standardised_iris()
    lr = 0.1
    clf = MLPClassifier((6, 5), activation="relu", solver="sgd", momentum=0.0, batch_size=150,
                        learning_rate_init=lr, max_iter=1, shuffle=False, random_state=4,
                        init=init, alpha=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(X, y)
    coefs, intercepts = initial_weights([4, 6, 5, 3], "relu", init, random_state=4)
    _, gW, gb = backprop(coefs, intercepts, X, np.eye(3)[y], "relu", "softmax")
    # equal up to the rounding of one update, lr * g, in float64
    for ours, start, g in zip(clf.coefs_ + clf.intercepts_, coefs + intercepts, gW + gb):
        np.testing.assert_allclose(ours, start - lr * g, rtol=0, atol=1e-15)


def test_default_init_is_glorot_and_he_differs():
    X, y = _standardised_iris()
    kw = dict(hidden_layer_sizes=(8,), max_iter=3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        default = MLPClassifier(**kw).fit(X, y)
        glorot = MLPClassifier(init="glorot", **kw).fit(X, y)
        he = MLPRegressor(init="he", **kw).fit(X, y)
    assert MLPClassifier().get_params()["init"] == "glorot"
    for a, b in zip(default.coefs_, glorot.coefs_):
        np.testing.assert_array_equal(a, b)
    assert not np.allclose(he.coefs_[0], glorot.coefs_[0], rtol=0, atol=1e-3)


@pytest.mark.parametrize("init", ["xavier", "He", None, 2])
@pytest.mark.parametrize("Est", [MLPClassifier, MLPRegressor])
def test_unknown_init_is_refused_naming_the_choices(Est, init):
    # guards against: an unknown init silently drawing Glorot's weights
    X, y = _standardised_iris()
    with pytest.raises(ValueError, match=r"init must be one of \['glorot', 'he'\]; got"):
        Est(init=init).fit(X, y)
    with pytest.raises(ValueError, match=r"init must be one of \['glorot', 'he'\]; got"):
        initial_weights([4, 3], init=init)


@pytest.mark.parametrize("args, error, match", [
    ((0, 3), ValueError, "fan_in must be >= 1"),
    ((3, 0), ValueError, "fan_out must be >= 1"),
    ((2.5, 3), TypeError, "fan_in must be of type Integral"),
])
def test_he_uniform_checks_its_arguments(args, error, match):
    with pytest.raises(error, match=match):
        he_uniform(*args, random_state=0)


def test_initial_weights_checks_layers_and_activation():
    with pytest.raises(ValueError, match="at least two layers"):
        initial_weights([4])
    with pytest.raises(ValueError, match="activation must be one of"):
        initial_weights([4, 3], activation="sigmoid")
