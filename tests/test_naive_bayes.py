"""mlbook.naive_bayes: against scikit-learn, against Zhou's worked example, and bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlbook.datasets import load_iris, load_watermelon
from mlbook.naive_bayes import CategoricalNB, GaussianNB, MixedNB, logsumexp
from input_data import category_codes
from mlbook.exceptions import DataConversionWarning

NAIVE_BAYES = [CategoricalNB, GaussianNB, MixedNB]

sk_nb = pytest.importorskip("sklearn.naive_bayes")

# Both sides compute the same closed forms (counts, means, variances, logs)
# in float64, in a different order of summation: 1e-10 leaves room for that
# rounding (observed differences are ~1e-15 on these sizes) and nothing more.
TOL = 1e-10


def _random_categorical(seed, n=120, d=4, k=5, n_classes=3):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, k, (n, d))
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)        # every class present
    return X, y, rng.integers(0, k, (40, d))


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("alpha", [1.0, 0.3, 2.5])
def test_categorical_equals_sklearn(seed, alpha):
    X, y, Xt = _random_categorical(seed)
    ours = CategoricalNB(alpha=alpha).fit(X, y)
    ref = sk_nb.CategoricalNB(alpha=alpha).fit(X, y)
    np.testing.assert_allclose(ours.predict_joint_log_proba(Xt),
                               ref.predict_joint_log_proba(Xt), rtol=0, atol=TOL)
    np.testing.assert_allclose(ours.predict_proba(Xt), ref.predict_proba(Xt), rtol=0, atol=TOL)
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))
    np.testing.assert_array_equal(ours.n_categories_, ref.n_categories_)
    for a, b in zip(ours.feature_log_prob_, ref.feature_log_prob_):
        np.testing.assert_allclose(a, b, rtol=0, atol=TOL)


def test_categorical_codes_below_the_largest_count_as_categories():
    # scikit-learn's rule: column values 0 and 2 mean three categories (0, 1, 2).
    X = np.array([[0], [2], [0], [2]])
    nb = CategoricalNB(alpha=1.0).fit(X, [0, 0, 1, 1])
    assert nb.n_categories_.tolist() == [3]
    # P(x=0 | class 0) = (1 + 1) / (2 + 3)
    assert np.exp(nb.feature_log_prob_[0][0, 0]) == pytest.approx(2 / 5, rel=1e-15)


def test_categorical_strings_equal_their_integer_codes():
    wm = load_watermelon("2.0")
    X = wm.data
    codes = np.column_stack([np.unique(X[:, j].astype(str), return_inverse=True)[1]
                             for j in range(X.shape[1])])
    a = CategoricalNB(alpha=1.0).fit(X, wm.target)
    b = CategoricalNB(alpha=1.0).fit(codes, wm.target)
    np.testing.assert_allclose(a.predict_joint_log_proba(X), b.predict_joint_log_proba(codes),
                               rtol=0, atol=1e-14)


@pytest.mark.parametrize("seed", range(3))
def test_gaussian_equals_sklearn_on_random_data(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(90, 6)) * rng.uniform(0.1, 10, 6) + rng.normal(size=6) * 5
    y = rng.integers(0, 3, 90)
    Xt = rng.normal(size=(30, 6))
    ours = GaussianNB().fit(X, y)
    ref = sk_nb.GaussianNB().fit(X, y)
    np.testing.assert_allclose(ours.theta_, ref.theta_, rtol=0, atol=TOL)
    np.testing.assert_allclose(ours.var_, ref.var_, rtol=1e-12, atol=0)
    np.testing.assert_allclose(ours.predict_joint_log_proba(Xt),
                               ref.predict_joint_log_proba(Xt), rtol=1e-12, atol=TOL)
    np.testing.assert_allclose(ours.predict_proba(Xt), ref.predict_proba(Xt), rtol=0, atol=TOL)


def test_gaussian_equals_sklearn_on_iris():
    d = load_iris()
    ours = GaussianNB().fit(d.data, d.target)
    ref = sk_nb.GaussianNB().fit(d.data, d.target)
    np.testing.assert_allclose(ours.predict_joint_log_proba(d.data),
                               ref.predict_joint_log_proba(d.data), rtol=0, atol=TOL)
    np.testing.assert_allclose(ours.predict_proba(d.data), ref.predict_proba(d.data),
                               rtol=0, atol=TOL)
    assert ours.epsilon_ == pytest.approx(ref.epsilon_, rel=1e-14)


def test_gaussian_ddof1_is_the_sample_variance():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(20, 3))
    y = np.repeat([0, 1], 10)
    nb = GaussianNB(ddof=1, var_smoothing=0.0).fit(X, y)
    np.testing.assert_allclose(nb.var_[1], X[10:].var(axis=0, ddof=1), rtol=1e-14, atol=0)


def test_gaussian_is_exact_on_uncentred_data():
    # A two-pass variance keeps full precision when the mean is 1e8 times the spread.
    rng = np.random.default_rng(2)
    Z = rng.normal(size=(200, 2))
    y = rng.integers(0, 2, 200)
    a = GaussianNB().fit(Z, y)
    b = GaussianNB().fit(Z + 1e8, y)
    np.testing.assert_allclose(b.var_, a.var_, rtol=1e-6, atol=0)   # 1e8 offset: ~1e-8 rel. lost
    np.testing.assert_array_equal(a.predict(Z), b.predict(Z + 1e8))


def test_log_space_does_not_underflow():
    # 2000 features: the product of densities underflows to 0 in float64; the logs do not.
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2000)) + np.repeat([0, 1], 30)[:, None] * 0.3
    y = np.repeat([0, 1], 30)
    nb = GaussianNB().fit(X, y)
    jll = nb.predict_joint_log_proba(X)
    assert np.all(jll < -1000)                  # exp(jll) would be 0.0
    p = nb.predict_proba(X)
    assert np.isfinite(p).all()
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert nb.score(X, y) == 1.0


def test_logsumexp_matches_the_definition_and_is_stable():
    rng = np.random.default_rng(4)
    a = rng.normal(size=(5, 7))
    np.testing.assert_allclose(logsumexp(a, axis=1), np.log(np.exp(a).sum(axis=1)),
                               rtol=1e-14, atol=0)
    assert logsumexp(np.array([-1e4, -1e4])) == pytest.approx(-1e4 + np.log(2), rel=1e-15)
    assert logsumexp(np.array([-np.inf, -np.inf])) == -np.inf


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.05, 5.0))
def test_posteriors_are_distributions(seed, alpha):
    X, y, Xt = _random_categorical(seed, n=30, d=3, k=3, n_classes=2)
    p = CategoricalNB(alpha=alpha).fit(X, y).predict_proba(Xt)
    assert np.all(p >= 0) and np.all(p <= 1)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-12)


# --- MixedNB ---------------------------------------------------------------------

def test_mixed_with_only_categorical_columns_equals_categorical():
    X, y, Xt = _random_categorical(7)
    a = MixedNB(alpha=0.5).fit(X.astype(str), y)       # strings: "auto" finds them
    b = CategoricalNB(alpha=0.5).fit(X.astype(str), y)
    assert a.categorical_mask_.all()
    np.testing.assert_allclose(a.predict_joint_log_proba(Xt.astype(str)),
                               b.predict_joint_log_proba(Xt.astype(str)), rtol=0, atol=1e-14)
    c = MixedNB(categorical_features=[0, 1, 2, 3], alpha=0.5).fit(X, y)
    d = CategoricalNB(alpha=0.5).fit(X, y)
    np.testing.assert_allclose(c.predict_joint_log_proba(Xt), d.predict_joint_log_proba(Xt),
                               rtol=0, atol=1e-14)


def test_mixed_with_only_continuous_columns_equals_gaussian():
    d = load_iris()
    for ddof in (0, 1):
        a = MixedNB(ddof=ddof).fit(d.data, d.target)
        b = GaussianNB(ddof=ddof).fit(d.data, d.target)
        assert not a.categorical_mask_.any()
        np.testing.assert_allclose(a.predict_joint_log_proba(d.data),
                                   b.predict_joint_log_proba(d.data), rtol=0, atol=1e-13)


def test_mixed_is_the_sum_of_its_parts():
    wm = load_watermelon("3.0")
    X, y = wm.data, wm.target
    m = MixedNB(alpha=1.0).fit(X, y)
    assert m.categorical_mask_.tolist() == [True] * 6 + [False] * 2
    c = CategoricalNB(alpha=1.0).fit(X[:, :6], y)
    g = GaussianNB().fit(X[:, 6:].astype(float), y)
    expected = (c.predict_joint_log_proba(X[:, :6]) + g.predict_joint_log_proba(
        X[:, 6:].astype(float)) - np.log(c.class_prior_))
    np.testing.assert_allclose(m.predict_joint_log_proba(X), expected, rtol=0, atol=1e-13)


# --- Zhou's worked example (Machine Learning, section 7.3) -----------------------

def _zhou_model(alpha):
    wm = load_watermelon("3.0")
    m = MixedNB(alpha=alpha, ddof=1, var_smoothing=0.0, smooth_prior=alpha > 0)
    return wm, m.fit(wm.data, wm.target)


def test_zhou_test_melon_without_smoothing():
    wm, m = _zhou_model(alpha=0.0)
    yes = list(m.classes_).index(list(wm.target_names).index("yes"))
    no = 1 - yes
    # Zhou's printed values (section 7.3), three decimals: P(c), and the four
    # densities of density 0.697 and sugar 0.460 with sample standard deviations.
    assert m.class_prior_[yes] == pytest.approx(0.471, abs=5e-4)
    assert m.class_prior_[no] == pytest.approx(0.529, abs=5e-4)
    x = wm.data[0].astype(object)
    mu, sd = m.theta_, np.sqrt(m.var_)
    dens = np.exp(-(x[6:].astype(float) - mu) ** 2 / (2 * sd ** 2)) / (np.sqrt(2 * np.pi) * sd)
    assert dens[yes].tolist() == pytest.approx([1.959, 0.788], abs=5e-4)
    assert dens[no].tolist() == pytest.approx([1.203, 0.066], abs=5e-4)
    # The product for "no" agrees with his 6.80e-5 (he multiplies three-decimal
    # factors; the exact product is 6.86e-5). For "yes" he prints 0.038, which
    # his data do not give: the exact product is 0.0524 (see the chapter).
    joint = np.exp(m.predict_joint_log_proba(wm.data[:1]))[0]
    assert joint[no] == pytest.approx(6.80e-5, rel=0.01)
    assert joint[yes] == pytest.approx(0.0524, abs=5e-5)
    assert m.predict(wm.data[:1])[0] == list(wm.target_names).index("yes")


def test_zhou_printed_0038_is_the_product_with_root_3_8_and_navel_6_8():
    # Zhou, section 7.3, prints the good-class factors of test 1 as 0.471, 0.375,
    # 0.625, 0.750, 0.875, 0.750, 0.750, 1.959, 0.788 and their product as 0.038.
    wm, m = _zhou_model(alpha=0.0)
    yes = list(m.classes_).index(list(wm.target_names).index("yes"))
    cats = [np.exp(lp[yes, list(c).index(v)]) for lp, c, v in
            zip(m.feature_log_prob_, m._encoder_.categories, wm.data[0, :6])]
    # the data's categorical factors: colour, root, knock, texture, navel, touch
    np.testing.assert_allclose(cats, np.array([3, 5, 6, 7, 5, 6]) / 8, rtol=1e-15, atol=0)
    joint = float(np.exp(m.predict_joint_log_proba(wm.data[:1]))[0, yes])
    # Zhou prints navel = 6/8 (the data give 5/8): his factors multiply to 0.063, not 0.038
    assert round(joint * 6 / 5, 3) == 0.063
    # with the root factor 3/8 as well (before his 8th-printing correction): 0.038
    assert round(joint * 6 / 5 * 3 / 5, 3) == 0.038


def test_zhou_laplace_smoothed_estimates():
    wm, m = _zhou_model(alpha=1.0)
    yes = list(m.classes_).index(list(wm.target_names).index("yes"))
    no = 1 - yes
    # Zhou (7.19)-(7.20) and the numbers printed after them: 9/19, 10/19,
    # P(green | yes) = 4/11, P(green | no) = 4/12, P(crisp knock | yes) = 1/11.
    assert m.class_prior_[yes] == pytest.approx(0.474, abs=5e-4)
    assert m.class_prior_[no] == pytest.approx(0.526, abs=5e-4)
    m2 = CategoricalNB(alpha=1.0, smooth_prior=True).fit(wm.data[:, :6], wm.target)
    colour = dict(zip(m2.categories_[0], np.exp(m2.feature_log_prob_[0]).T))
    assert colour["green"][yes] == pytest.approx(0.364, abs=5e-4)
    assert colour["green"][no] == pytest.approx(0.333, abs=5e-4)
    knock = dict(zip(m2.categories_[2], np.exp(m2.feature_log_prob_[2]).T))
    assert knock["crisp"][yes] == pytest.approx(0.091, abs=5e-4)


def test_a_zero_count_vetoes_a_class_without_smoothing():
    wm = load_watermelon("2.0")
    X, y = wm.data, wm.target
    m = CategoricalNB(alpha=0.0).fit(X, y)
    good = list(m.classes_).index(list(wm.target_names).index("yes"))
    crisp = X[0].copy()
    crisp[2] = "crisp"                          # no good melon in the data knocks crisp
    jll = m.predict_joint_log_proba(crisp[None, :])[0]
    assert jll[good] == -np.inf and np.isfinite(jll[1 - good])
    assert np.isfinite(CategoricalNB(alpha=1.0).fit(X, y).predict_joint_log_proba(
        crisp[None, :])).all()


# --- unseen categories -----------------------------------------------------------

def test_unseen_category_follows_the_smoothing_rule():
    X = np.array([["a"], ["b"], ["a"], ["b"], ["b"]], dtype=object)
    y = np.array([0, 0, 1, 1, 1])
    m = CategoricalNB(alpha=1.0).fit(X, y)
    jll = m.predict_joint_log_proba(np.array([["z"]], dtype=object))[0]
    # alpha / (N_c + alpha * n_j) with n_j = 2 seen categories, times the prior
    expected = np.log(np.array([1 / (2 + 2), 1 / (3 + 2)])) + np.log([2 / 5, 3 / 5])
    np.testing.assert_allclose(jll, expected, rtol=1e-15, atol=0)
    # integer codes: a code above the largest seen in fit is unseen
    mi = CategoricalNB(alpha=1.0).fit(np.array([[0], [1], [0], [1], [1]]), y)
    np.testing.assert_allclose(mi.predict_joint_log_proba([[7]])[0], expected,
                               rtol=1e-15, atol=0)


def test_unseen_category_is_not_normalised_and_favours_the_smaller_class():
    X = np.array([["a"], ["b"], ["a"], ["b"], ["b"]], dtype=object)
    y = np.array([0, 0, 1, 1, 1])
    m = CategoricalNB(alpha=1.0).fit(X, y)
    seen = np.exp(m.feature_log_prob_[0]).sum(axis=1)
    unseen = np.exp(m.predict_joint_log_proba(np.array([["z"]], dtype=object))[0]
                    - np.log(m.class_prior_))
    # (N_c + alpha (n_j + 1)) / (N_c + alpha n_j): 5/4 for class 0, 6/5 for class 1
    np.testing.assert_allclose(seen + unseen, [5 / 4, 6 / 5], rtol=1e-14, atol=0)
    # the vote for the smaller class 0 is log((3 + 2) / (2 + 2))
    np.testing.assert_allclose(np.log(unseen[0] / unseen[1]), np.log(5 / 4), rtol=1e-14, atol=0)


def test_unseen_category_without_smoothing_is_an_error():
    X = np.array([["a"], ["b"], ["a"], ["b"]], dtype=object)
    m = CategoricalNB(alpha=0.0).fit(X, [0, 0, 1, 1])
    with pytest.raises(ValueError, match="probability zero under every class.*alpha > 0"):
        m.predict(np.array([["z"]], dtype=object))


# --- bad input -------------------------------------------------------------------

@pytest.mark.parametrize("est", [CategoricalNB(alpha=-1.0), MixedNB(alpha=-0.1)])
def test_negative_alpha(est):
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        est.fit([[0, 1], [1, 0]], [0, 1])


@pytest.mark.parametrize("est", [GaussianNB(var_smoothing=-1e-9), MixedNB(var_smoothing=-1.0)])
def test_negative_var_smoothing(est):
    with pytest.raises(ValueError, match="var_smoothing must be >= 0"):
        est.fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])


def test_negative_codes():
    with pytest.raises(ValueError, match="column 1 of X holds negative category codes"):
        CategoricalNB().fit([[0, 1], [1, -2]], [0, 1])
    m = CategoricalNB().fit([[0, 1], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match="column 0 of X holds negative category codes"):
        m.predict([[-1, 0]])


def test_non_integer_codes():
    with pytest.raises(ValueError, match="category codes"):
        CategoricalNB().fit([[0.5, 1], [1, 0]], [0, 1])


def test_one_sample_class_with_ddof1():
    with pytest.raises(ValueError, match="class 1 has a single sample.*ddof=1"):
        GaussianNB(ddof=1).fit([[0.0], [1.0], [2.0]], [0, 0, 1])


def test_bad_ddof():
    with pytest.raises(ValueError, match="ddof must be 0"):
        GaussianNB(ddof=2).fit([[0.0], [1.0]], [0, 1])


@pytest.mark.parametrize("est", [GaussianNB(), CategoricalNB(), MixedNB()])
def test_nan_in_X(est):
    X = np.array([[0.0, 1.0], [np.nan, 0.0], [1.0, 1.0]])
    with pytest.raises(ValueError, match="NaN"):
        est.fit(X, [0, 1, 1])


def test_missing_string_value():
    X = np.array([["a", 1.0], [None, 2.0], ["b", 3.0]], dtype=object)
    with pytest.raises(ValueError, match="missing value"):
        MixedNB().fit(X, [0, 1, 1])


def test_zero_variance_without_smoothing():
    with pytest.raises(ValueError, match="zero variance"):
        GaussianNB(var_smoothing=0.0).fit([[1.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])


@pytest.mark.parametrize("est", [GaussianNB(), CategoricalNB(), MixedNB()])
def test_single_class_and_predict_before_fit(est):
    with pytest.raises(ValueError, match="single class"):
        est.fit([[0, 1], [1, 0]], [1, 1])
    with pytest.raises(ValueError, match="not fitted"):
        type(est)().predict([[0, 1]])


def test_complex_X_and_wrong_feature_count():
    # a ValueError, as in mlbook._validation and scikit-learn (check_complex_data)
    for est in (GaussianNB(), CategoricalNB(), MixedNB()):
        with pytest.raises(ValueError, match="X contains complex numbers"):
            est.fit(np.array([[1 + 1j], [2]]), [0, 1])
    m = GaussianNB().fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])
    with pytest.raises(ValueError, match="X has 3 features"):
        m.predict([[0.0, 1.0, 2.0]])


def test_bad_categorical_features():
    X = np.array([[0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match="categorical_features"):
        MixedNB(categorical_features="yes").fit(X, [0, 1])
    with pytest.raises(ValueError, match="out of range"):
        MixedNB(categorical_features=[5]).fit(X, [0, 1])
    with pytest.raises(ValueError, match="boolean mask needs 2"):
        MixedNB(categorical_features=[True]).fit(X, [0, 1])
    with pytest.raises(TypeError, match="holds non-numbers"):
        MixedNB(categorical_features=[1]).fit(np.array([["a", 1], ["b", 2]], dtype=object),
                                              [0, 1])


def test_sklearn_clone_and_cross_val_score():
    from sklearn.base import clone
    from sklearn.model_selection import cross_val_score

    d = load_iris()
    est = clone(GaussianNB(ddof=1))
    assert est.get_params() == {"var_smoothing": 1e-9, "ddof": 1}
    scores = cross_val_score(est, d.data, d.target, cv=5)
    ref = cross_val_score(sk_nb.GaussianNB(), d.data, d.target, cv=5)
    assert abs(scores.mean() - ref.mean()) <= 0.02   # ddof=1 vs 0 moves a point or two


# --- calibration_curve (metrics) and its plot ------------------------------------

@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n_bins", [1, 5, 10])
def test_calibration_curve_equals_sklearn(seed, n_bins):
    from sklearn.calibration import calibration_curve as sk_curve

    from mlbook.metrics import calibration_curve

    rng = np.random.default_rng(seed)
    p = rng.uniform(size=300)
    p[:5] = [0.0, 1.0, 0.2, 0.4, 0.6]            # bin edges included
    y = (rng.uniform(size=300) < p).astype(int)
    ours = calibration_curve(y, p, n_bins=n_bins)
    ref = sk_curve(y, p, n_bins=n_bins)
    for a, b in zip(ours, ref):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-14)   # same counts, same means


def test_calibration_curve_bad_input():
    from mlbook.metrics import calibration_curve

    with pytest.raises(ValueError, match="y_prob must contain probabilities"):
        calibration_curve([0, 1], [0.5, 1.5])
    with pytest.raises(ValueError, match="n_bins must be >= 1"):
        calibration_curve([0, 1], [0.5, 0.5], n_bins=0)
    with pytest.raises(ValueError, match="different lengths"):
        calibration_curve([0, 1, 1], [0.5, 0.5])


def test_plot_reliability_diagram_labels():
    import matplotlib

    matplotlib.use("Agg")
    from mlbook.plotting import plot_reliability_diagram

    ax = plot_reliability_diagram([0.1, 0.9], [0.2, 0.8], label="model")
    plot_reliability_diagram([0.3, 0.7], [0.2, 0.8], ax=ax, label="other")
    assert ax.get_xlabel() == "mean predicted probability"
    assert ax.get_ylabel() == "fraction of positives"
    assert [l.get_gid() for l in ax.get_lines()].count("calibration-diagonal") == 1
    with pytest.raises(ValueError):
        plot_reliability_diagram([0.1], [0.2, 0.3])


# --- parameters and extreme input through the shared checks ------------------------

@pytest.mark.parametrize("make,name", [(lambda: CategoricalNB(alpha=np.inf), "alpha"),
                                       (lambda: GaussianNB(var_smoothing=np.inf), "var_smoothing"),
                                       (lambda: MixedNB(alpha=np.inf), "alpha")])
def test_an_infinite_smoothing_is_refused_at_fit(make, name):
    # guards against: fit accepted it, predict then failed with a message about alpha=0
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]])
    with pytest.raises(ValueError, match=f"{name} must be finite"):
        make().fit(X, [0, 0, 1, 1])


@pytest.mark.parametrize("make", [lambda v: CategoricalNB(smooth_prior=v),
                                  lambda v: MixedNB(smooth_prior=v)])
def test_smooth_prior_takes_numpy_bools_and_refuses_strings(make):
    X, y = np.array([[0, 1], [1, 0], [1, 1], [0, 0]]), [0, 0, 1, 1]
    make(np.True_).fit(X, y)
    with pytest.raises(TypeError, match="smooth_prior must be True or False"):
        make("no").fit(X, y)


def test_gaussian_nb_on_huge_values_says_they_overflow():
    # guards against: "... alpha=0 gives unseen values probability zero; use alpha > 0", the
    # CategoricalNB message, although GaussianNB has no alpha
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(20, 2)), np.arange(20) % 2
    with pytest.raises(ValueError, match="variance that overflows float64"), \
            np.errstate(over="ignore", invalid="ignore"):
        GaussianNB().fit(X * 1e154, y)
    nb = GaussianNB().fit(X, y)
    with pytest.raises(ValueError, match="overflows float64.*rescale X") as err, \
            np.errstate(over="ignore", invalid="ignore"):
        nb.predict(X * 1e200)
    assert "alpha" not in str(err.value)


@pytest.mark.parametrize("X", [np.array([[2**63], [0]], dtype=np.uint64),
                               np.array([[2.0**63], [0.0]]),
                               np.array([[2**62], [0]])])
def test_categorical_nb_refuses_huge_codes(X):
    # guards against: NumPy's "'list' argument must have no negative elements" from bincount
    with pytest.raises(ValueError, match="column 0 of X holds the category code .*re-encode"):
        CategoricalNB().fit(X, [0, 1])
    nb = CategoricalNB().fit([[0], [1]], [0, 1])
    with pytest.raises(ValueError, match="column 0 of X holds the category code"):
        nb.predict(X)


# --- bad and extreme input ----------------------------------------------------

@pytest.mark.parametrize("Est", NAIVE_BAYES, ids=lambda c: c.__name__)
def test_naive_bayes_predict_names_the_expected_feature_count(Est):
    X, y = category_codes()
    model = Est().fit(X, y)
    with pytest.raises(ValueError, match=f"X has 2 features, but {Est.__name__} is expecting "
                                         "3 features as input"):
        model.predict(X[:, :2])


@pytest.mark.parametrize("Est", NAIVE_BAYES, ids=lambda c: c.__name__)
def test_naive_bayes_column_vector_y_warns_and_fits_the_same(Est):
    X, y = category_codes()
    flat = Est().fit(X, y).predict_proba(X)
    with pytest.warns(DataConversionWarning, match="A column-vector y was passed"):
        column = Est().fit(X, y[:, None]).predict_proba(X)
    np.testing.assert_array_equal(column, flat)


@pytest.mark.parametrize("Est", NAIVE_BAYES, ids=lambda c: c.__name__)
def test_naive_bayes_empty_and_1d_X_messages(Est):
    # check_array's messages (scikit-learn's wording for the empty case)
    with pytest.raises(ValueError, match=r"X has 0 feature\(s\) \(shape=\(4, 0\)\) while a "
                                         "minimum of 1 is required"):
        Est().fit(np.empty((4, 0)), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="X must be a 2-d array.*Reshape your data"):
        Est().fit(np.array([0, 1, 0, 1]), [0, 1, 0, 1])
    model = Est().fit(*category_codes())
    with pytest.raises(ValueError, match="X must be a 2-d array.*Reshape your data"):
        model.predict(np.array([0, 1, 2]))


def test_categorical_nb_negative_codes_use_scikit_learns_words():
    # "Negative values in data" is what scikit-learn's positive_only check looks for
    with pytest.raises(ValueError, match="Negative values in data: column 0 of X holds"):
        CategoricalNB().fit([[-1, 0], [1, 0]], [0, 1])


def test_mixed_nb_string_columns_stay_categorical():
    # MixedNB declares the 'string' input tag: strings are its categorical attributes
    X = np.array([["a", 0.1], ["b", 0.3], ["a", 0.2], ["b", 0.9]], dtype=object)
    model = MixedNB().fit(X, [0, 1, 0, 1])
    np.testing.assert_array_equal(model.categorical_mask_, [True, False])


# --- event models: MultinomialNB and BernoulliNB ------------------------------------

import functools  # noqa: E402

from mlbook.naive_bayes import BernoulliNB, MultinomialNB  # noqa: E402


def _counts(seed, n=150, d=25, n_classes=3, rate=0.6):
    """Sparse-looking word counts: Poisson with a class-dependent rate per word."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    rates = rate * rng.gamma(0.5, 2.0, (n_classes, d))
    X = rng.poisson(rates[y]).astype(np.float64)
    yt = rng.integers(0, n_classes, 60)
    return X, y, rng.poisson(rates[yt]).astype(np.float64)


@functools.lru_cache(maxsize=1)
def _spam_counts():
    from mlbook.datasets import load_spam
    from mlbook.feature_extraction import bag_of_words
    texts, y = load_spam(return_X_y=True)
    idx = np.random.default_rng(0).permutation(texts.shape[0])[:500]   # ham and spam mixed
    X, _ = bag_of_words(texts[idx], min_df=5)
    return X[:350], y[idx][:350], X[350:]


def _assert_equal_to_sklearn(ours, ref, Xt):
    np.testing.assert_allclose(ours.predict_joint_log_proba(Xt),
                               ref.predict_joint_log_proba(Xt), rtol=0, atol=TOL)
    np.testing.assert_allclose(ours.predict_proba(Xt), ref.predict_proba(Xt), rtol=0, atol=TOL)
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))
    for name in ("feature_count_", "class_count_", "feature_log_prob_", "class_log_prior_"):
        np.testing.assert_allclose(getattr(ours, name), getattr(ref, name), rtol=0, atol=TOL,
                                   err_msg=name)


@pytest.mark.parametrize("data", ["seed0", "seed1", "binary-classes", "spam"])
@pytest.mark.parametrize("alpha", [1.0, 0.3, 1e-3, 1e-10])
@pytest.mark.parametrize("fit_prior", [True, False])
def test_multinomial_equals_sklearn(data, alpha, fit_prior):
    X, y, Xt = (_spam_counts() if data == "spam" else
                _counts(2, n_classes=2) if data == "binary-classes" else _counts(int(data[-1])))
    ours = MultinomialNB(alpha=alpha, fit_prior=fit_prior).fit(X, y)
    # force_alpha=True: scikit-learn would otherwise raise alpha=1e-10 to 1e-10 (same) but
    # warn; the estimates are then the same closed form
    ref = sk_nb.MultinomialNB(alpha=alpha, fit_prior=fit_prior, force_alpha=True).fit(X, y)
    _assert_equal_to_sklearn(ours, ref, Xt)


@pytest.mark.parametrize("data", ["seed0", "seed1", "binary-classes", "spam"])
@pytest.mark.parametrize("alpha", [1.0, 0.3, 1e-3])
@pytest.mark.parametrize("fit_prior", [True, False])
@pytest.mark.parametrize("binarize", [0.0, 1.5, None])
def test_bernoulli_equals_sklearn(data, alpha, fit_prior, binarize):
    X, y, Xt = (_spam_counts() if data == "spam" else
                _counts(2, n_classes=2) if data == "binary-classes" else _counts(int(data[-1])))
    if binarize is None:                     # "already binary"
        X, Xt = (X > 0).astype(float), (Xt > 0).astype(float)
    ours = BernoulliNB(alpha=alpha, binarize=binarize, fit_prior=fit_prior).fit(X, y)
    ref = sk_nb.BernoulliNB(alpha=alpha, binarize=binarize, fit_prior=fit_prior,
                            force_alpha=True).fit(X, y)
    _assert_equal_to_sklearn(ours, ref, Xt)


def test_bernoulli_log_one_minus_theta_is_exact_for_tiny_alpha():
    # A feature present in all 3 samples of class 0 with alpha=1e-12: 1 - theta = 1e-12/3.02..
    # log(1 - exp(log theta)) (scikit-learn's route) is off by ~1e-4 there; from the counts
    # it is exact to rounding
    X = np.array([[1.0, 0], [1, 1], [1, 0], [0, 1], [1, 1]])
    y = np.array([0, 0, 0, 1, 1])
    alpha = 1e-12
    nb = BernoulliNB(alpha=alpha).fit(X, y)
    x = np.array([[0.0, 0.0]])                   # feature 0 absent: factor 1 - theta_00
    exact = (np.log(3 / 5) + np.log(alpha / (3 + 2 * alpha))        # 1 - theta_00
             + np.log((2 + alpha) / (3 + 2 * alpha)))               # 1 - theta_01 (1 of 3)
    assert nb.predict_joint_log_proba(x)[0, 0] == pytest.approx(exact, rel=1e-13, abs=0)


def test_multinomial_ignores_absent_words_bernoulli_counts_them():
    # The same two documents of class 0 and 1; a test document with word 0 only. Adding
    # a column that is 0 in the test document (an absent word) leaves the multinomial
    # score of a class changed only through theta's normaliser, but for Bernoulli it adds
    # the factor log(1 - theta_cj) per class.
    X = np.array([[2.0, 0, 1], [0, 3, 1]])
    y = np.array([0, 1])
    x = np.array([[1.0, 0, 0]])
    m = MultinomialNB(alpha=1.0).fit(X, y)
    theta = (X + 1) / (X + 1).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(m.predict_joint_log_proba(x),
                               [np.log(0.5) + np.log(theta[:, 0])], rtol=0, atol=1e-14)
    b = BernoulliNB(alpha=1.0).fit(X, y)
    p = ((X > 0) + 1) / 3.0                        # (N_cj + 1) / (N_c + 2), N_c = 1
    expected = np.log(0.5) + np.log(p[:, 0]) + np.log(1 - p[:, 1]) + np.log(1 - p[:, 2])
    np.testing.assert_allclose(b.predict_joint_log_proba(x)[0], expected, rtol=0, atol=1e-14)


@pytest.mark.parametrize("Est", [MultinomialNB, BernoulliNB])
def test_event_models_without_smoothing_veto_and_stay_finite(Est):
    # alpha=0: a zero count gives -inf for that class only; no NaN from 0 * log 0
    X = np.array([[2.0, 0, 1], [1, 0, 1], [0, 3, 1], [0, 1, 2]])
    y = np.array([0, 0, 1, 1])
    nb = Est(alpha=0.0).fit(X, y)
    jll = nb.predict_joint_log_proba([[1.0, 0, 1], [0, 2, 1]])
    assert not np.isnan(jll).any()
    assert np.isneginf(jll[0, 1]) and np.isfinite(jll[0, 0])
    assert np.isneginf(jll[1, 0]) and np.isfinite(jll[1, 1])
    np.testing.assert_array_equal(nb.predict([[1.0, 0, 1], [0, 2, 1]]), [0, 1])
    with pytest.raises(ValueError, match="probability zero under every class.*alpha > 0"):
        nb.predict([[1.0, 1, 1]])


def test_bernoulli_veto_message_names_absent_features():
    # alpha=0: an empty document is vetoed by the words every training document of each
    # class contains (absent here), not by a word it contains; the message must say so
    nb = BernoulliNB(alpha=0.0).fit([[1.0, 0], [0, 1]], [0, 1])
    with pytest.raises(ValueError, match="probability zero under every class.*absent where "
                                         "they always had it.*alpha > 0"):
        nb.predict([[0.0, 0]])
    with pytest.raises(ValueError, match="a word it contains has count zero"):
        MultinomialNB(alpha=0.0).fit([[1.0, 0], [0, 1]], [0, 1]).predict([[1.0, 1]])


def test_event_models_fit_is_one_product_with_the_class_indicator():
    X, y, _ = _counts(3)
    nb = MultinomialNB().fit(X, y)
    for k in range(3):
        np.testing.assert_allclose(nb.feature_count_[k], X[y == k].sum(axis=0), rtol=0,
                                   atol=1e-9)


@pytest.mark.parametrize("Est", [MultinomialNB, BernoulliNB])
def test_event_models_posteriors_are_distributions(Est):
    X, y, Xt = _counts(4)
    p = Est().fit(X, y).predict_proba(Xt)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert (p >= 0).all()


def test_multinomial_refuses_negative_counts():
    with pytest.raises(ValueError, match=r"Negative values in data.*column 1 of X holds -1"):
        MultinomialNB().fit([[0.0, -1], [1, 0]], [0, 1])
    nb = MultinomialNB().fit([[0.0, 1], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match=r"column 0 of X holds -2"):
        nb.predict([[-2.0, 0]])


@pytest.mark.parametrize("Est", [MultinomialNB, BernoulliNB])
@pytest.mark.parametrize("alpha, error, match", [(-0.5, ValueError, "alpha must be >= 0"),
                                                  (np.nan, ValueError, "alpha must be"),
                                                  ("1", TypeError, "alpha must be")])
def test_event_models_bad_alpha(Est, alpha, error, match):
    with pytest.raises(error, match=match):
        Est(alpha=alpha).fit([[0.0, 1], [1, 0]], [0, 1])


@pytest.mark.parametrize("binarize, error", [(np.nan, ValueError), (np.inf, ValueError),
                                             ("0", TypeError), (True, TypeError)])
def test_bernoulli_bad_binarize(binarize, error):
    with pytest.raises(error, match="^binarize must"):
        BernoulliNB(binarize=binarize).fit([[0.0, 1], [1, 0]], [0, 1])


@pytest.mark.parametrize("Est", [MultinomialNB, BernoulliNB])
@pytest.mark.parametrize("bad, match", [(np.nan, "X contains NaN"), (np.inf, "X contains infinity")])
def test_event_models_refuse_nan_and_inf(Est, bad, match):
    with pytest.raises(ValueError, match=match):
        Est().fit([[0.0, bad], [1, 0]], [0, 1])
    nb = Est().fit([[0.0, 1], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match=match):
        nb.predict_proba([[bad, 0.0]])


@pytest.mark.parametrize("Est", [MultinomialNB, BernoulliNB])
def test_event_models_bad_fit_prior_feature_count_and_unfitted(Est):
    with pytest.raises(TypeError, match="fit_prior must be"):
        Est(fit_prior="yes").fit([[0.0, 1], [1, 0]], [0, 1])
    from mlbook.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        Est().predict([[0.0, 1]])
    nb = Est().fit([[0.0, 1], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match="features"):
        nb.predict([[0.0, 1, 2]])


def test_event_models_with_sklearn_cross_val_score():
    from sklearn.base import clone
    from sklearn.model_selection import cross_val_score
    X, y, _ = _counts(5)
    for est in (MultinomialNB(alpha=0.5), BernoulliNB(binarize=None, fit_prior=False)):
        c = clone(est)
        assert c.get_params() == est.get_params()
        assert cross_val_score(est, X > 0 if isinstance(est, BernoulliNB) else X, y,
                               cv=3).mean() > 0.4
