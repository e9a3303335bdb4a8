"""Tests of mlbook.neural_network's learning-rate schedules (``learning_rate``, ``power_t``)
against scikit-learn's MLPClassifier and MLPRegressor with solver="sgd"."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from mlbook.datasets import load_iris
from mlbook.neural_network import MLPClassifier, MLPRegressor, initial_weights

SCHEDULES = ["constant", "invscaling", "adaptive"]


def _iris():
    X, y = load_iris(return_X_y=True)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


def _regression():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 3))
    return X, np.sin(X[:, 0]) + X[:, 1] * X[:, 2]


def _fit_both(Ours, name, X, y, seed, **params):
    """Fit ours and scikit-learn's from our initial weights, in the same order (no shuffling).

    scikit-learn draws its weights in ``_init_coef``, once per layer from the input up; it is
    replaced on the instance by one that hands out ours."""
    nn = pytest.importorskip("sklearn.neural_network")
    params = dict(solver="sgd", shuffle=False, **params)
    ours = Ours(random_state=seed, **params)
    theirs = getattr(nn, name)(random_state=0, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours.fit(X, y)
        units = [X.shape[1], *ours.hidden_layer_sizes, ours.n_outputs_]
        coefs, intercepts = initial_weights(units, ours.activation, random_state=seed)
        start = iter(zip(coefs, intercepts))
        theirs._init_coef = lambda fan_in, fan_out, dtype: next(start)
        theirs.fit(X, y)
    return ours, theirs


def _assert_same_training(ours, theirs):
    # the same float64 arithmetic up to the order of operations: scikit-learn forms
    # mu v - lr g, we lr (mu b + g) (and rescale b by lr_old / lr_new when the rate changes),
    # which differ by an ulp or so per step; over the 50-240 steps of these tests the largest
    # differences measured are 1.3e-14 relative in the loss and 2.4e-15 absolute in the
    # weights (of order 1). 1e-11 leaves a factor of 800 for other builds and is 1e8 times
    # below what a wrong schedule does (test_the_schedule_changes_the_trajectory: > 1e-3)
    assert ours.n_iter_ == theirs.n_iter_
    np.testing.assert_allclose(ours.loss_curve_, theirs.loss_curve_, rtol=1e-11, atol=0)
    for a, b in zip(ours.coefs_ + ours.intercepts_, theirs.coefs_ + theirs.intercepts_):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-11)


@pytest.mark.parametrize("nesterov", [True, False])
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_classifier_schedules_equal_scikit_learns(schedule, nesterov):
    X, y = _iris()
    # tol=1e-2 with n_iter_no_change=2 makes "adaptive" divide the rate several times in
    # 40 epochs (checked below on scikit-learn's optimiser)
    ours, theirs = _fit_both(MLPClassifier, "MLPClassifier", X, y, seed=3,
                             hidden_layer_sizes=(6, 5), activation="tanh", batch_size=32,
                             learning_rate_init=0.2, momentum=0.9, alpha=1e-3,
                             nesterovs_momentum=nesterov, learning_rate=schedule, power_t=0.3,
                             max_iter=40, tol=1e-2, n_iter_no_change=2)
    _assert_same_training(ours, theirs)
    final = theirs._optimizer.learning_rate
    if schedule == "constant":
        assert final == 0.2
    elif schedule == "invscaling":
        assert final == 0.2 / (150 * theirs.n_iter_ + 1) ** 0.3
    else:
        assert final <= 0.2 / 25                  # divided by 5 at least twice


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_regressor_schedules_equal_scikit_learns(schedule):
    X, y = _regression()
    ours, theirs = _fit_both(MLPRegressor, "MLPRegressor", X, y, seed=2,
                             hidden_layer_sizes=(7,), activation="relu", batch_size=16,
                             learning_rate_init=0.05, momentum=0.8, alpha=1e-3,
                             learning_rate=schedule, power_t=0.6, max_iter=60,
                             tol=1e-3, n_iter_no_change=3)
    _assert_same_training(ours, theirs)
    if schedule == "adaptive":
        assert theirs._optimizer.learning_rate < 0.05


def test_adaptive_stops_when_the_rate_falls_to_1e_6_as_scikit_learns():
    # from 1e-5 the rate becomes 2e-6, then 4e-7 <= 1e-6: the next stall stops training
    X, y = _iris()
    ours, theirs = _fit_both(MLPClassifier, "MLPClassifier", X, y, seed=1,
                             hidden_layer_sizes=(5,), batch_size=50, learning_rate_init=1e-5,
                             learning_rate="adaptive", max_iter=200, tol=1e-3,
                             n_iter_no_change=2)
    _assert_same_training(ours, theirs)
    # at lr 1e-5 the loss moves by less than tol: the first epoch improves on +inf, then come
    # three stalls of n_iter_no_change + 1 = 3 epochs (divide, divide, stop)
    assert ours.n_iter_ == 1 + 3 * 3 < 200


def test_adaptive_with_early_stopping_divides_on_validation_stalls():
    # scikit-learn's rule counts stalls of the validation score when early_stopping is on (its
    # split draws other rows, so this is not compared with it): where "constant" stops at its
    # first stall, "adaptive" divides the rate by 5 and goes on, n_iter_no_change + 1 epochs a
    # stall, until a stall finds the rate <= 1e-6
    X, y = _iris()
    kw = dict(hidden_layer_sizes=(6,), solver="sgd", early_stopping=True, learning_rate_init=0.1,
              max_iter=200, n_iter_no_change=3, tol=1e-3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        constant = MLPClassifier(learning_rate="constant", **kw).fit(X, y)
        adaptive = MLPClassifier(learning_rate="adaptive", **kw).fit(X, y)
    divisions, lr = 0, 0.1
    while lr > 1e-6:
        lr /= 5.0
        divisions += 1
    assert adaptive.n_iter_ == constant.n_iter_ + divisions * (kw["n_iter_no_change"] + 1) < 200
    assert adaptive.validation_scores_[:constant.n_iter_] == constant.validation_scores_


def test_adam_ignores_the_schedule_as_scikit_learns():
    X, y = _iris()
    kw = dict(hidden_layer_sizes=(5,), solver="adam", learning_rate_init=0.01, max_iter=30,
              tol=1e-2, n_iter_no_change=2, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fits = [MLPClassifier(learning_rate=s, **kw).fit(X, y) for s in SCHEDULES]
    for other in fits[1:]:
        assert other.loss_curve_ == fits[0].loss_curve_


def test_the_schedule_changes_the_trajectory():
    # guards against: an equality test that passes with learning_rate ignored
    X, y = _iris()
    kw = dict(hidden_layer_sizes=(6, 5), activation="tanh", solver="sgd", batch_size=32,
              learning_rate_init=0.2, momentum=0.9, max_iter=40, tol=1e-2,
              n_iter_no_change=2, random_state=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        curves = {s: MLPClassifier(learning_rate=s, **kw).fit(X, y).loss_curve_
                  for s in SCHEDULES}
        # the constant rate stops at its first stall, where "adaptive" divides the rate; run it
        # on to compare the same epochs
        kw_on = dict(kw, tol=0.0, n_iter_no_change=kw["max_iter"])
        curves["constant"] = MLPClassifier(learning_rate="constant", **kw_on).fit(X, y).loss_curve_
        assert len(curves["constant"]) == kw["max_iter"]
        steeper = MLPClassifier(learning_rate="invscaling", power_t=0.6, **kw).fit(X, y)
    curves["steeper"] = steeper.loss_curve_

    def rel_difference(a, b):
        n = min(len(curves[a]), len(curves[b]))
        return np.max(np.abs(np.subtract(curves[a][:n], curves[b][:n])) / np.array(curves[a][:n]))

    for a, b in [("constant", "invscaling"), ("constant", "adaptive"),
                 ("invscaling", "adaptive"), ("invscaling", "steeper")]:
        assert rel_difference(a, b) > 1e-3, (a, b, rel_difference(a, b))


@pytest.mark.parametrize("params, error, match", [
    (dict(learning_rate="optimal"),
     ValueError, r"learning_rate must be one of \['constant', 'invscaling', 'adaptive'\]; got 'optimal'"),
    (dict(learning_rate=0.1), ValueError, r"learning_rate must be one of .*; got 0.1"),
    (dict(power_t=-0.5), ValueError, "power_t must be >= 0"),
    (dict(power_t=np.inf), ValueError, "power_t must be finite"),
    (dict(power_t=np.nan), ValueError, "power_t must not be NaN|power_t must be"),
    (dict(power_t="0.5"), TypeError, "power_t must be of type Real"),
])
@pytest.mark.parametrize("Est", [MLPClassifier, MLPRegressor])
def test_bad_schedule_parameters(Est, params, error, match):
    # guards against: an unknown schedule read as "constant", a negative power_t that makes
    # the rate grow without bound
    X, y = _iris()
    with pytest.raises(error, match=match):
        Est(solver="sgd", **params).fit(X, y)
