"""mlbook.calibration and brier_score_loss: against scikit-learn and against brute force."""

import itertools

import numpy as np
import pytest

from mlbook.calibration import (CalibratedClassifier, IsotonicRegression, SigmoidCalibration,
                                isotonic_regression)
from mlbook.datasets import load_breast_cancer
from mlbook.metrics import brier_score_loss, log_loss, roc_auc_score
from mlbook.naive_bayes import GaussianNB

sk_iso = pytest.importorskip("sklearn.isotonic")
sk_cal = pytest.importorskip("sklearn.calibration")
sk_metrics = pytest.importorskip("sklearn.metrics")

# Isotonic regression: both sides compute the same weighted means of the same blocks, in a
# different order of summation; values are O(1-10), so 1e-12 absolute is rounding room only.
TOL = 1e-12
# Platt scaling: scikit-learn stops L-BFGS at a gradient of 1e-6 (gtol) while ours runs Newton
# to a gradient of 1e-12; the fitted probabilities then differ by up to ~1e-7 (observed), so
# 1e-6 absolute bounds scikit-learn's optimisation error, not ours (our optimality is checked
# separately, on the gradient).
PLATT_TOL = 1e-6


def _iso_data(rng, n):
    x = rng.integers(0, max(n // 3, 2), n).astype(float)       # many ties
    y = rng.normal(size=n) + 0.05 * x
    w = rng.uniform(0, 2, n)
    w[rng.random(n) < 0.1] = 0.0
    w[0] = 1.0
    return x, y, w


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("increasing", [True, False])
def test_isotonic_regression_equals_sklearn(seed, increasing):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    x, y, w = _iso_data(rng, n)
    ours = IsotonicRegression(increasing=increasing).fit(x, y, sample_weight=w)
    ref = sk_iso.IsotonicRegression(increasing=increasing, out_of_bounds="clip").fit(
        x, y, sample_weight=w)
    T = np.r_[rng.uniform(x.min() - 3, x.max() + 3, 200), x]
    np.testing.assert_allclose(ours.predict(T), ref.predict(T), rtol=0, atol=TOL)
    np.testing.assert_allclose(ours.transform(T[:, None]), ref.predict(T), rtol=0, atol=TOL)
    wp = rng.uniform(0.1, 2, n)
    np.testing.assert_allclose(isotonic_regression(y, wp, increasing=increasing),
                               sk_iso.isotonic_regression(y, sample_weight=wp,
                                                          increasing=increasing),
                               rtol=0, atol=TOL)


def test_isotonic_near_ties_as_sklearn():
    # scores 1 - k*1e-16 (naive Bayes probabilities) are ties for scikit-learn (within 1e-15)
    x = np.r_[1 - np.arange(6) * 1.1e-16, 0.5, 0.2, 1 - 2e-15]
    y = np.array([1, 0, 1, 0, 0, 1, 1, 0, 1.0])
    ref = sk_iso.IsotonicRegression(out_of_bounds="clip").fit(x, y)
    np.testing.assert_allclose(IsotonicRegression().fit(x, y).predict(x), ref.predict(x),
                               rtol=0, atol=TOL)


def _isotonic_brute(y, w):
    """The best monotone fit over all ways of cutting the sequence into blocks.

    A block's best constant is its weighted mean; among the partitions whose block means
    increase, the one with the smallest weighted squared error is the isotonic fit.
    """
    n = len(y)
    best, best_fit = np.inf, None
    for cuts in itertools.product([0, 1], repeat=n - 1):
        bounds = [0] + [i + 1 for i, c in enumerate(cuts) if c] + [n]
        fit = np.empty(n)
        for a, b in zip(bounds[:-1], bounds[1:]):
            fit[a:b] = np.average(y[a:b], weights=w[a:b])
        if np.all(np.diff(fit) >= -1e-15):
            err = np.sum(w * (y - fit) ** 2)
            if err < best:
                best, best_fit = err, fit
    return best_fit


@pytest.mark.parametrize("seed", range(10))
def test_pav_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=9)
    w = rng.uniform(0.2, 3, 9)
    np.testing.assert_allclose(isotonic_regression(y, w), _isotonic_brute(y, w),
                               rtol=0, atol=TOL)


def test_isotonic_regression_bad_input():
    with pytest.raises(ValueError, match="sample_weight"):
        isotonic_regression([1.0, 2.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="NaN"):
        isotonic_regression([1.0, np.nan])
    with pytest.raises(ValueError, match="out_of_bounds"):
        IsotonicRegression(out_of_bounds="extrapolate").fit([1, 2], [1, 2])
    iso = IsotonicRegression(out_of_bounds="raise").fit([1, 2], [1, 2])
    with pytest.raises(ValueError, match="outside"):
        iso.predict([3])
    np.testing.assert_array_equal(
        np.isnan(IsotonicRegression(out_of_bounds="nan").fit([1, 2], [1, 2]).predict([0, 1.5])),
        [True, False])


def _platt_data(seed, n=200):
    rng = np.random.default_rng(seed)
    f = rng.normal(size=n) * rng.uniform(0.5, 50)             # also scores beyond 30
    y = (rng.random(n) < 1 / (1 + np.exp(-f / 3))).astype(int)
    return f, y, rng.uniform(0.5, 2, n)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("weighted", [False, True])
def test_sigmoid_calibration_equals_sklearn(seed, weighted):
    f, y, w = _platt_data(seed)
    w = w if weighted else None
    ours = SigmoidCalibration().fit(f, y, sample_weight=w)
    ref = sk_cal._SigmoidCalibration().fit(f, y, sample_weight=w)
    T = np.linspace(f.min() - 5, f.max() + 5, 50)
    np.testing.assert_allclose(ours.predict(T), ref.predict(T), rtol=0, atol=PLATT_TOL)
    # ours is the optimum: the gradient of the cross-entropy against Platt's targets is ~0
    ww = np.ones_like(f) if w is None else w
    n_pos, n_neg = ww[y == 1].sum(), ww[y == 0].sum()
    t = np.where(y == 1, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))
    r = ww * (t - ours.predict(f))
    assert abs(r @ f) / ww.sum() < 1e-9 * max(1, np.abs(f).max())
    assert abs(r.sum()) / ww.sum() < 1e-9


def test_sigmoid_calibration_on_separable_scores_is_finite():
    # Platt's targets keep a, b finite where 0/1 targets would send a to infinity
    f = np.r_[np.linspace(-3, -1, 10), np.linspace(1, 3, 10)]
    y = (f > 0).astype(int)
    s = SigmoidCalibration().fit(f, y)
    assert np.isfinite([s.a_, s.b_]).all()
    p = s.predict([-3, 3])
    assert 0 < p[0] < 1 / 12 + 1e-3 and 11 / 12 - 1e-3 < p[1] < 1      # near t- and t+
    np.testing.assert_allclose(p, sk_cal._SigmoidCalibration().fit(f, y).predict([-3, 3]),
                               rtol=0, atol=PLATT_TOL)


@pytest.mark.parametrize("method", ["sigmoid", "isotonic"])
def test_calibrated_classifier_equals_sklearn_ensemble_false(method):
    X, y = load_breast_cancer(return_X_y=True)
    skb = pytest.importorskip("sklearn.naive_bayes")
    ours = CalibratedClassifier(skb.GaussianNB(), method=method, cv=5).fit(X, y)
    ref = sk_cal.CalibratedClassifierCV(skb.GaussianNB(), method=method, cv=5,
                                        ensemble=False).fit(X, y)
    tol = TOL if method == "isotonic" else PLATT_TOL
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), rtol=0, atol=tol)


def test_calibrated_classifier_is_out_of_fold():
    # the map is fitted on scores of models that did not see the sample: refitting the
    # estimator on all the data and scoring the training set in-sample gives other scores
    X, y = load_breast_cancer(return_X_y=True)
    cal = CalibratedClassifier(GaussianNB(), method="isotonic", cv=5,
                               response="log_odds").fit(X, y)
    lp = cal.estimator_.predict_log_proba(X)
    # a fold's model and the full-data model give log-odds that differ by 0.78 nats at the
    # median sample (62 at most); equal scores would differ by round-off, ~1e-12
    # (the threshold 0.1 sits far between the two)
    assert np.max(np.abs(cal.oof_scores_ - (lp[:, 1] - lp[:, 0]))) > 0.1
    p = cal.predict_proba(X)[:, 1]
    assert log_loss(y, p) < log_loss(y, cal.estimator_.predict_proba(X)[:, 1])
    assert roc_auc_score(y, p) > 0.95


def test_calibrated_classifier_bad_input():
    X, y = load_breast_cancer(return_X_y=True)
    with pytest.raises(ValueError, match="method"):
        CalibratedClassifier(GaussianNB(), method="beta").fit(X, y)
    with pytest.raises(ValueError, match="cv"):
        CalibratedClassifier(GaussianNB(), cv=1).fit(X, y)
    with pytest.raises(ValueError, match="response"):
        CalibratedClassifier(GaussianNB(), response="score").fit(X, y)
    with pytest.raises(ValueError, match="exactly 2 classes"):
        CalibratedClassifier(GaussianNB()).fit(X[:30], np.arange(30) % 3)


@pytest.mark.parametrize("seed", range(5))
def test_brier_score_equals_sklearn(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 100)
    p = rng.random(100)
    w = rng.uniform(0, 2, 100)
    assert brier_score_loss(y, p) == pytest.approx(sk_metrics.brier_score_loss(y, p),
                                                   rel=0, abs=TOL)
    assert brier_score_loss(y, p, sample_weight=w) == pytest.approx(
        sk_metrics.brier_score_loss(y, p, sample_weight=w), rel=0, abs=TOL)
    labels = np.array(["ham", "spam"])[y]
    assert brier_score_loss(labels, p, pos_label="spam") == pytest.approx(
        sk_metrics.brier_score_loss(labels, p, pos_label="spam"), rel=0, abs=TOL)


def test_brier_score_bad_input():
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        brier_score_loss([0, 1], [0.5, 1.5])
    with pytest.raises(ValueError, match="pos_label"):
        brier_score_loss(["a", "b"], [0.5, 0.5])
    with pytest.raises(ValueError, match="lengths"):
        brier_score_loss([0, 1, 1], [0.5, 0.5])


def test_sigmoid_calibration_refuses_other_labels():
    # y > 0 would make every sample of labels {1, 2} positive and fit a = 0 silently
    with pytest.raises(ValueError, match="labels 0 and 1"):
        SigmoidCalibration().fit([1.0, 2.0, 3.0, 4.0], [1, 2, 1, 2])
    with pytest.raises(ValueError, match="labels 0 and 1"):
        SigmoidCalibration().fit([1.0, 2.0, 3.0, 4.0], ["a", "b", "a", "b"])
    a = SigmoidCalibration().fit([1.0, 2.0, 3.0, 4.0], [-1, 1, -1, 1]).a_
    b = SigmoidCalibration().fit([1.0, 2.0, 3.0, 4.0], [0, 1, 0, 1]).a_
    assert a == b < 0


def test_calibrated_classifier_passes_string_categories_through():
    # a categorical estimator (AODE on watermelon 2.0's strings) is calibrated on its own
    # input; the out-of-fold scores equal those of AODE fitted by hand on the same folds
    from mlbook.datasets import load_watermelon
    from mlbook.model_selection import StratifiedKFold
    from mlbook.naive_bayes import AODE
    wm = load_watermelon("2.0")
    cal = CalibratedClassifier(AODE(m_min=0), cv=2, response="log_odds").fit(wm.data, wm.target)
    oof = np.empty(wm.target.shape[0])
    for train, test in StratifiedKFold(n_splits=2).split(wm.data, wm.target):
        lp = AODE(m_min=0).fit(wm.data[train], wm.target[train]).predict_log_proba(wm.data[test])
        oof[test] = lp[:, 1] - lp[:, 0]
    # the same logarithms: identical up to rounding
    np.testing.assert_allclose(cal.oof_scores_, oof, rtol=0, atol=1e-12)
    p = cal.predict_proba(wm.data)
    assert p.shape == (17, 2) and np.isfinite(p).all()
