"""Hypothesis tests for comparing learners, cost curves, the bias-variance decomposition.

Oracles: ``scipy.stats`` (a test-time dependency only) for every distribution
function and every test SciPy also has; Zhou's and Demšar's published numbers
(cited next to each assertion); hand computations of the formulas.

Tolerances:
* 1e-10 relative for tail probabilities and quantiles: our continued fractions
  and series stop at a relative change of 1e-16, and SciPy's Cephes/Boost
  routines are accurate to a few ulp; the worst observed disagreement over the
  random arguments below is about 1e-13 (quantiles found by bisection on the
  tail, about 2e-11 for t quantiles with tails near 1e-3, hence 1e-9 for those).
* 1e-12 for statistics: the same arithmetic on the same numbers.
* 1e-3 for the tables of q_alpha: they print three decimals of the
  studentized range divided by sqrt(2), each rounded, so a printed value can be
  off by up to about 5e-4 / sqrt(2) + 5e-4 < 1e-3 from the exact one.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlbook import _distributions as D
from mlbook import metrics as M
from mlbook import model_selection as MS

stats = pytest.importorskip("scipy.stats")
special = pytest.importorskip("scipy.special")

RTOL_P = 1e-10       # tail probabilities (see the module docstring)
RTOL_Q = 1e-9        # quantiles found by bisection
TOL_STAT = 1e-12     # statistics


def close(a, b, rtol, atol=0.0):
    return abs(a - b) <= atol + rtol * abs(b)


# ---------------------------------------------------------------------------
# distribution functions against scipy
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_special_functions_match_scipy(seed):
    rng = np.random.default_rng(seed)
    for _ in range(50):
        a, b = rng.uniform(0.05, 80, 2)
        x, xx = rng.uniform(), rng.uniform(0, 120)
        assert close(D.betainc(a, b, x), special.betainc(a, b, x), RTOL_P, 1e-300), (a, b, x)
        assert close(D.gammainc(a, xx), special.gammainc(a, xx), RTOL_P, 1e-300), (a, xx)
        assert close(D.gammaincc(a, xx), special.gammaincc(a, xx), RTOL_P, 1e-300), (a, xx)


@pytest.mark.parametrize("seed", range(4))
def test_tails_and_quantiles_match_scipy(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(40):
        df, d2 = int(rng.integers(1, 80)), int(rng.integers(1, 80))
        t, x, f = rng.normal() * 4, rng.uniform(0, 100), rng.uniform(0, 20)
        p = rng.uniform(0.001, 0.999)
        assert close(D.t_sf(t, df), stats.t.sf(t, df), RTOL_P), (t, df)
        assert close(D.chi2_sf(x, df), stats.chi2.sf(x, df), RTOL_P, 1e-300), (x, df)
        assert close(D.f_sf(f, df, d2), stats.f.sf(f, df, d2), RTOL_P, 1e-300), (f, df, d2)
        assert close(D.t_ppf(p, df), stats.t.ppf(p, df), RTOL_Q), (p, df)
        assert close(D.chi2_ppf(p, df), stats.chi2.ppf(p, df), RTOL_Q), (p, df)
        assert close(D.f_ppf(p, df, d2), stats.f.ppf(p, df, d2), RTOL_Q), (p, df, d2)
        n = int(rng.integers(1, 200))
        k, q = int(rng.integers(-1, n + 2)), rng.uniform()
        # 1e-280 absolute: both underflow differently below that
        assert close(D.binom_sf(k, n, q), stats.binom.sf(k, n, q), RTOL_P, 1e-280), (k, n, q)
        assert close(D.binom_cdf(k, n, q), stats.binom.cdf(k, n, q), RTOL_P, 1e-280), (k, n, q)
    z = rng.normal(size=50) * 5
    np.testing.assert_allclose(D.norm_cdf(z), stats.norm.cdf(z), rtol=RTOL_P, atol=0)


@pytest.mark.parametrize("k", [2, 3, 5, 10, 25])
def test_studentized_range_matches_scipy(k):
    # scipy.stats.studentized_range with df = inf: the same integral, computed
    # by scipy's own quadrature; 1e-10 relative (200-point Gauss-Legendre
    # integrates this smooth integrand to about 1e-14), plus 1e-15 absolute for
    # the far lower tail (k = 25, q = 1: P = 4.6e-10, the two quadratures differ
    # by 2e-18); the Nemenyi test only uses the upper tail.
    for q in (0.3, 1.0, 2.5, 4.0, 6.0):
        assert close(D.studentized_range_cdf(q, k), stats.studentized_range.cdf(q, k, np.inf),
                     RTOL_P, 1e-15), (q, k)
    for alpha in (0.01, 0.05, 0.1):
        assert close(D.studentized_range_ppf(1 - alpha, k),
                     stats.studentized_range.ppf(1 - alpha, k, np.inf), RTOL_Q), (alpha, k)


# Demšar (2006), "Statistical comparisons of classifiers over multiple data sets",
# JMLR 7, table 5(a): two-tailed Nemenyi q_alpha for k = 2..10.
DEMSAR_Q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
DEMSAR_Q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]


def test_nemenyi_q_against_demsar_table():
    for k, q05, q10 in zip(range(2, 11), DEMSAR_Q05, DEMSAR_Q10):
        # CD with N chosen so that sqrt(k(k+1)/(6N)) = 1 is not an integer N in
        # general, so recover q_alpha from the CD at N = 1
        scale = math.sqrt(k * (k + 1) / 6.0)
        assert abs(MS.nemenyi_critical_difference(k, 1, alpha=0.05) / scale - q05) < 1e-3, k
        assert abs(MS.nemenyi_critical_difference(k, 1, alpha=0.10) / scale - q10) < 1e-3, k


def test_zhou_friedman_nemenyi_example():
    # Zhou, Machine Learning, table 2.5 (ranks of A, B, C on four data sets) and
    # the text after it: tau_F = 24.429, F(2, 6) critical value 5.143 (table 2.6),
    # q_0.05 = 2.344 (table 2.7) and CD = 1.657.
    ranks = [[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]]
    res = MS.friedman_test(ranks)
    np.testing.assert_allclose(res.average_ranks, [1.0, 2.125, 2.875], rtol=0, atol=TOL_STAT)
    assert round(res.f_statistic, 3) == 24.429
    assert round(D.f_ppf(0.95, 2, 6), 3) == 5.143
    cd = MS.nemenyi_critical_difference(3, 4)
    assert round(cd, 3) == 1.657
    assert abs(cd / math.sqrt(3 * 4 / 24) - 2.344) < 1e-3
    # Zhou's conclusions: A and C differ; A and B, B and C do not
    r = res.average_ranks
    assert r[2] - r[0] > cd and r[1] - r[0] < cd and r[2] - r[1] < cd


# ---------------------------------------------------------------------------
# the tests against scipy
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_binomial_test_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    for _ in range(20):
        m = int(rng.integers(1, 400))
        k = int(rng.integers(0, m + 1))
        e0 = float(rng.uniform(0.01, 0.99))
        alpha = float(rng.choice([0.01, 0.05, 0.1]))
        res = MS.binomial_test(k, m, e0, alpha=alpha)
        ref = stats.binomtest(k, m, e0, alternative="greater").pvalue
        assert close(res.pvalue, ref, RTOL_P, 1e-280), (k, m, e0)
        assert res.statistic == k / m
        # the critical value: rejection iff error >= critical value iff p <= alpha
        c = round(res.critical_value * m)
        assert stats.binom.sf(c - 1, m, e0) <= alpha * (1 + 1e-12)
        assert c == 0 or stats.binom.sf(c - 2, m, e0) > alpha * (1 - 1e-12)
        assert (res.statistic >= res.critical_value) == (res.pvalue <= alpha)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("seed", range(4))
def test_ttests_match_scipy(seed, alternative):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 30))
    a = rng.normal(0.2, 0.05, k)
    b = a + rng.normal(0.01, 0.02, k)
    ours = MS.ttest_1samp(a, 0.19, alternative=alternative)
    ref = stats.ttest_1samp(a, 0.19, alternative=alternative)
    assert close(ours.statistic, ref.statistic, 1e-12) and ours.df == ref.df == k - 1
    assert close(ours.pvalue, ref.pvalue, RTOL_P)
    ours = MS.paired_ttest_kfold(a, b, alternative=alternative)
    ref = stats.ttest_rel(a, b, alternative=alternative)
    assert close(ours.statistic, ref.statistic, 1e-12) and ours.df == k - 1
    assert close(ours.pvalue, ref.pvalue, RTOL_P)


def test_5x2cv_by_hand():
    rng = np.random.default_rng(0)
    ea, eb = rng.uniform(0.1, 0.3, (5, 2)), rng.uniform(0.1, 0.3, (5, 2))
    d = ea - eb
    s2 = [(d[i, 0] - d[i].mean()) ** 2 + (d[i, 1] - d[i].mean()) ** 2 for i in range(5)]
    t_first = d[0, 0] / math.sqrt(sum(s2) / 5)          # Dietterich (1998), eq. (the 5x2cv t)
    t_mean = d[0].mean() / math.sqrt(sum(s2) / 5)       # Zhou (2.32)
    res = MS.paired_ttest_5x2cv(ea, eb)
    assert close(res.statistic, t_first, TOL_STAT) and res.df == 5
    assert close(res.pvalue, 2 * stats.t.sf(abs(t_first), 5), RTOL_P)
    res = MS.paired_ttest_5x2cv(ea, eb, numerator="mean")
    assert close(res.statistic, t_mean, TOL_STAT)
    res = MS.paired_ttest_5x2cv(ea, eb, numerator="scaled_mean")
    assert close(res.statistic, math.sqrt(2) * t_mean, TOL_STAT)
    assert close(res.pvalue, 2 * stats.t.sf(math.sqrt(2) * abs(t_mean), 5), RTOL_P)


def test_5x2cv_scaled_mean_is_t5_under_the_idealised_model():
    """sqrt(2) x Zhou's statistic is exactly t_5 when the ten differences are i.i.d. normal.

    The mean of a replication's two differences is independent of its
    sigma_i^2 (a function of their difference only), so the statistic is a
    normal over an independent sqrt(chi^2_5 / 5). 4,000 draws; the
    Kolmogorov-Smirnov test against t_5 would reject a wrong distribution (for
    Zhou's unscaled statistic, t_5 / sqrt 2, its p-value is below 1e-100), and
    1e-3 leaves room for a fixed seed's chance deviation of a true one.
    """
    rng = np.random.default_rng(5)
    d = rng.normal(size=(4000, 5, 2))
    zero = np.zeros((5, 2))
    scaled = np.array([MS.paired_ttest_5x2cv(x, zero, numerator="scaled_mean").statistic for x in d])
    assert stats.kstest(scaled, stats.t(5).cdf).pvalue > 1e-3
    assert stats.kstest(scaled / math.sqrt(2), stats.t(5).cdf).pvalue < 1e-10


# ---------------------------------------------------------------------------
# Wilcoxon signed-rank test
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 5, 9, 17, 30, 50])
@pytest.mark.parametrize("seed", range(3))
def test_wilcoxon_exact_matches_scipy(seed, n):
    # continuous differences: no ties, no zeros, so both compute the exact null
    # distribution; 1e-12 relative: both sum exact integer counts divided by 2^n
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n)
    b = a + rng.normal(rng.uniform(-1, 1), 1.0, n)
    ours = MS.wilcoxon_signed_rank_test(a, b)
    ref = stats.wilcoxon(a, b, method="exact")
    assert ours.method == "exact" and ours.n == n
    assert ours.statistic == ref.statistic
    assert close(ours.pvalue, ref.pvalue, 1e-12), (ours.pvalue, ref.pvalue)


@pytest.mark.parametrize("n", [8, 20, 60, 200])
@pytest.mark.parametrize("seed", range(3))
def test_wilcoxon_normal_approximation_matches_scipy(seed, n):
    # rounded scores: ties among the |d_i| and zero differences; SciPy's
    # asymptotic method with its defaults (zeros dropped, tie-corrected variance,
    # no continuity correction). 1e-10 relative: the same z, and two
    # implementations of the normal tail (erfc here, ndtr there) to a few ulp.
    rng = np.random.default_rng(10 + seed)
    a = np.round(rng.normal(size=n), 1)
    b = np.round(a + rng.normal(0.15, 0.5, n), 1)
    b[:2] = a[:2]                                             # two zero differences
    b[2:4] = a[2:4] + 0.5                                     # a tie among the |d_i|
    ours = MS.wilcoxon_signed_rank_test(a, b)
    ref = stats.wilcoxon(a, b, method="asymptotic")
    assert ours.method == "approx" and ours.n == int(np.sum(a != b))
    assert ours.statistic == ref.statistic
    assert close(ours.pvalue, ref.pvalue, RTOL_P), (ours.pvalue, ref.pvalue)
    # without ties, n > 50: "auto" uses the approximation, as SciPy's "auto"
    c = rng.normal(size=n)
    e = c + rng.normal(0.1, 1.0, n)
    ours, ref = MS.wilcoxon_signed_rank_test(c, e), stats.wilcoxon(c, e)
    assert ours.method == ("exact" if n <= 50 else "approx")
    assert close(ours.pvalue, ref.pvalue, RTOL_P), (ours.pvalue, ref.pvalue)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(0, 10**6))
def test_wilcoxon_is_symmetric_and_its_exact_p_is_a_probability(n, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    ab, ba = MS.wilcoxon_signed_rank_test(a, b), MS.wilcoxon_signed_rank_test(b, a)
    assert ab.statistic == ba.statistic and ab.pvalue == ba.pvalue
    assert 0.0 < ab.pvalue <= 1.0
    assert 0 <= ab.statistic <= n * (n + 1) / 4          # the smaller of two sums adding to n(n+1)/2


def test_wilcoxon_all_zero_differences():
    res = MS.wilcoxon_signed_rank_test([0.1, 0.2], [0.1, 0.2])
    assert res.statistic == 0.0 and res.pvalue == 1.0 and res.n == 0


@pytest.mark.parametrize("seed", range(4))
def test_corrected_resampled_ttest_matches_the_formula_and_scipy(seed):
    rng = np.random.default_rng(seed)
    J = int(rng.integers(2, 60))
    n_train, n_test = int(rng.integers(10, 500)), int(rng.integers(5, 200))
    a = rng.normal(0.8, 0.05, J)
    b = a + rng.normal(-0.01, 0.02, J)
    res = MS.corrected_resampled_ttest(a, b, n_train, n_test)
    d = a - b
    # Nadeau and Bengio (2003): the variance of the mean difference inflated by n_test/n_train
    t = d.mean() / math.sqrt((1 / J + n_test / n_train) * d.var(ddof=1))
    assert close(res.statistic, t, TOL_STAT) and res.df == J - 1
    assert close(res.pvalue, 2 * stats.t.sf(abs(t), J - 1), RTOL_P)
    # with n_test/n_train -> 0 it is the plain paired t-test (scipy's ttest_rel)
    plain = MS.corrected_resampled_ttest(a, b, 10**12, 1)
    assert close(plain.statistic, stats.ttest_rel(a, b).statistic, 1e-9)
    # antisymmetric in the two learners
    swapped = MS.corrected_resampled_ttest(b, a, n_train, n_test)
    assert swapped.statistic == -res.statistic and swapped.pvalue == res.pvalue


def _resampled_scores(rng, m, J, n_test):
    """Test MSE of two equally good learners (least squares on x1, on x2) on J random splits."""
    X = rng.normal(size=(m, 2))
    y = X.sum(axis=1) + rng.normal(size=m)
    scores = np.empty((2, J))
    for j in range(J):
        perm = rng.permutation(m)
        tr, te = perm[n_test:], perm[:n_test]
        for f in range(2):
            slope, icpt = np.polyfit(X[tr, f], y[tr], 1)
            scores[f, j] = np.mean((slope * X[te, f] + icpt - y[te]) ** 2)
    return scores


def test_corrected_resampled_ttest_keeps_its_size_where_the_plain_test_does_not():
    """Simulated size at alpha = 0.05 when H0 holds exactly (by the symmetry of x1 and x2).

    1,000 data sets of 100 samples, each scored on 15 random 80/20 splits. The
    splits overlap, so the plain paired t-test rejects far too often (about 0.35
    here); the corrected test stays near 0.05. Bounds: 0.05 +- 0.035 is five
    binomial standard errors (sqrt(0.05 * 0.95 / 1000) = 0.0069), and the
    correction is a heuristic, not an exact test, so a size a little off 0.05 is
    expected; the plain test's size must exceed 0.2.
    """
    rng = np.random.default_rng(2003)
    R, m, J, n_test = 1000, 100, 15, 20
    corrected = plain = 0
    for _ in range(R):
        sa, sb = _resampled_scores(rng, m, J, n_test)
        corrected += MS.corrected_resampled_ttest(sa, sb, m - n_test, n_test).pvalue < 0.05
        plain += MS.paired_ttest_kfold(sa, sb).pvalue < 0.05
    assert 0.015 <= corrected / R <= 0.085, corrected / R
    assert plain / R > 0.2, plain / R


@pytest.mark.parametrize("seed", range(6))
def test_mcnemar_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(20, 300))
    y = rng.integers(0, 3, m)
    pa = np.where(rng.random(m) < 0.7, y, rng.integers(0, 3, m))
    pb = np.where(rng.random(m) < 0.6, y, rng.integers(0, 3, m))
    e01 = int(np.sum((pa != y) & (pb == y)))
    e10 = int(np.sum((pa == y) & (pb != y)))
    res = MS.mcnemar_test(y, pa, pb)
    assert (res.a_wrong_b_right, res.a_right_b_wrong) == (e01, e10)
    stat = (abs(e01 - e10) - 1) ** 2 / (e01 + e10)            # Zhou (2.33)
    assert close(res.statistic, stat, TOL_STAT)
    assert close(res.pvalue, stats.chi2.sf(stat, 1), RTOL_P)
    res = MS.mcnemar_test(y, pa, pb, correction=False)
    assert close(res.pvalue, stats.chi2.sf((e01 - e10) ** 2 / (e01 + e10), 1), RTOL_P)
    res = MS.mcnemar_test(y, pa, pb, exact=True)
    assert close(res.pvalue, stats.binomtest(e01, e01 + e10, 0.5).pvalue, RTOL_P)


def test_mcnemar_without_disagreement():
    res = MS.mcnemar_test([0, 1, 1], [0, 1, 0], [0, 1, 0])
    assert res.statistic == 0.0 and res.pvalue == 1.0


@pytest.mark.parametrize("seed", range(5))
def test_friedman_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(3, 20)), int(rng.integers(3, 8))
    errors = rng.uniform(size=(n, k)) + np.linspace(0, 0.3, k)   # continuous: no ties
    res = MS.friedman_test(errors)
    ref = stats.friedmanchisquare(*errors.T)
    assert close(res.statistic, ref.statistic, 1e-12)
    assert close(res.pvalue, ref.pvalue, RTOL_P)
    # Zhou (2.35) by hand
    f = (n - 1) * res.statistic / (n * (k - 1) - res.statistic)
    assert close(res.f_statistic, f, TOL_STAT)
    assert close(res.f_pvalue, stats.f.sf(f, k - 1, (k - 1) * (n - 1)), RTOL_P)
    # accuracies with greater_is_better give the same test
    res2 = MS.friedman_test(1 - errors, greater_is_better=True)
    assert close(res2.statistic, res.statistic, TOL_STAT)
    # with ties, scipy divides by the tie correction
    tied = np.round(errors * 3) / 3
    ref = stats.friedmanchisquare(*tied.T)
    res3 = MS.friedman_test(tied, tie_correction=True)
    assert close(res3.statistic, ref.statistic, 1e-12)
    assert close(res3.pvalue, ref.pvalue, RTOL_P)


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 12), st.integers(2, 7), st.integers(0, 10**6))
def test_average_ranks_properties(n, k, seed):
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 4, (n, k)).astype(float)          # many ties
    res = MS.friedman_test(scores)
    # every row of ranks sums to k(k+1)/2, so the average ranks do too
    assert abs(res.average_ranks.sum() - k * (k + 1) / 2) < 1e-12
    assert res.statistic >= 0 and 0 <= res.pvalue <= 1
    # ranks agree with scipy.stats.rankdata (average method), row by row
    ranks = MS._average_ranks(scores)
    np.testing.assert_array_equal(ranks, stats.rankdata(scores, axis=1))


def test_friedman_perfect_agreement():
    res = MS.friedman_test([[1, 2, 3]] * 5)
    assert close(res.statistic, 5 * 2, TOL_STAT)             # N(k - 1)
    assert res.f_statistic == math.inf and res.f_pvalue == 0.0


# ---------------------------------------------------------------------------
# cost-sensitive error and cost curves
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_cost_sensitive_error_rate_by_hand(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, 100)
    p = rng.integers(0, 3, 100)
    cost = rng.uniform(0, 5, (3, 3))
    expected = np.mean(cost[y, p])
    assert close(M.cost_sensitive_error_rate(y, p, cost_matrix=cost), expected, 1e-12)
    unit = 1 - np.eye(3)
    assert close(M.cost_sensitive_error_rate(y, p, cost_matrix=unit), np.mean(y != p), 1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_cost_matrix_in_zhous_convention(seed):
    """Zhou numbers the positive class 0: cost_01 (row 0, column 1) is the cost of a false negative.

    With the positive class 1, ``labels=[1, 0]`` puts it in row and column 0, and
    then ``cost_matrix[0][1] = cost_01`` is charged for every false negative and
    ``cost_matrix[1][0] = cost_10`` for every false positive. With the default
    (sorted) labels the same matrix charges them the other way round.
    """
    rng = np.random.default_rng(seed)
    y, p = rng.integers(0, 2, 200), rng.integers(0, 2, 200)
    cost01, cost10 = rng.uniform(1, 10, 2)
    fn, fp = np.sum((y == 1) & (p == 0)), np.sum((y == 0) & (p == 1))
    zhou = [[0.0, cost01], [cost10, 0.0]]
    e = M.cost_sensitive_error_rate(y, p, cost_matrix=zhou, labels=[1, 0])
    assert close(e, (fn * cost01 + fp * cost10) / y.size, 1e-12)       # Zhou's (2.23)
    e_sorted = M.cost_sensitive_error_rate(y, p, cost_matrix=zhou)
    assert close(e_sorted, (fn * cost10 + fp * cost01) / y.size, 1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_cost_curve_is_the_lower_envelope(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 200))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(rng.normal(y * rng.uniform(0, 2), 1.0), 1)   # ties
    pc, cost = M.cost_curve(y, s)
    assert pc[0] == 0 and pc[-1] == 1 and np.all(np.diff(pc) >= 0)
    fpr, tpr, _ = M.roc_curve(y, s, drop_intermediate=False)
    grid = np.linspace(0, 1, 1001)
    lines = (1 - tpr)[:, None] * grid + fpr[:, None] * (1 - grid)   # one line per ROC point
    brute = lines.min(axis=0)
    # 1e-12: the same linear functions evaluated at the same points
    np.testing.assert_allclose(np.interp(grid, pc, cost), brute, rtol=0, atol=1e-12)
    # the area is the expected normalised cost over a uniform P(+)cost, and no
    # single threshold does better than choosing the best one for each P(+)cost
    area = M.auc(pc, cost)
    assert area <= min(0.5 * (f + (1 - t)) for f, t in zip(fpr, tpr)) + 1e-12
    # the normalised cost is the cost-sensitive error divided by its maximum
    # (Zhou 2.25), at every threshold, for costs and a prior taken from the data
    c01, c10 = 3.0, 1.0
    p = y.mean()
    pcost = p * c01 / (p * c01 + (1 - p) * c10)
    for thr in np.unique(s)[::5]:
        pred = (s >= thr).astype(int)
        e = M.cost_sensitive_error_rate(y, pred, cost_matrix=[[0, c10], [c01, 0]], labels=[0, 1])
        fnr = np.mean(pred[y == 1] == 0)
        fp = np.mean(pred[y == 0] == 1)
        norm = e / (p * c01 + (1 - p) * c10)
        assert close(norm, fnr * pcost + fp * (1 - pcost), 1e-12, 1e-15)


def test_cost_curve_of_a_perfect_and_a_random_score():
    pc, cost = M.cost_curve([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    assert M.auc(pc, cost) == 0.0                              # perfect: no cost anywhere
    pc, cost = M.cost_curve([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5])
    assert close(M.auc(pc, cost), 0.25, 1e-15)                 # the trivial classifiers' triangle


# ---------------------------------------------------------------------------
# bias-variance decomposition
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_bias_variance_identity(seed):
    rng = np.random.default_rng(seed)
    r, n = 50, 30
    y = rng.normal(size=n)
    f = y + 0.3 + rng.normal(size=(r, n)) * 0.5
    res = MS.bias_variance_decomposition(f, y)
    # bias^2 + variance = error against y exactly (the sample version of the identity)
    assert close(res.bias2 + res.variance, res.expected_error, 1e-12)
    assert close(res.bias2, np.mean((f.mean(0) - y) ** 2), 1e-12)
    assert close(res.variance, np.mean(f.var(axis=0)), 1e-12)
    y_d = y + rng.normal(size=(r, n)) * 0.2
    res = MS.bias_variance_decomposition(f, y, y_observed=y_d)
    cross = 2 * np.mean((f - f.mean(0)) * (y - y_d)) + 2 * np.mean((f.mean(0) - y) * (y - y_d))
    assert close(res.bias2 + res.variance + res.noise + cross, res.expected_error, 1e-12)
    # the unbiased estimates: s^2 with divisor r - 1, bias^2 minus s^2 / r; their sum is unchanged
    unb = MS.bias_variance_decomposition(f, y, y_observed=y_d, unbiased=True)
    s2 = f.var(axis=0, ddof=1)
    assert close(unb.variance, np.mean(s2), 1e-12)
    assert close(unb.bias2, np.mean((f.mean(0) - y) ** 2 - s2 / r), 1e-12)
    assert close(unb.bias2 + unb.variance, res.bias2 + res.variance, 1e-12)


def test_plug_in_bias2_is_biased_by_var_over_r():
    """With no bias at all, the plug-in bias^2 averages var / R; the unbiased one averages 0.

    2,000 replications of R = 10 rounds at 5 points, predictions N(y, 1): the
    plug-in's mean is 1/10 with standard error sqrt(2/9 / 10^4) ~ 0.0047 (the
    mean of 10^4 scaled chi^2_1 / 10 values); 0.02 is four of them. The unbiased
    estimate has mean 0 with about the same standard error.
    """
    rng = np.random.default_rng(7)
    y = rng.normal(size=5)
    plug, unb = [], []
    for _ in range(2000):
        f = y + rng.normal(size=(10, 5))
        plug.append(MS.bias_variance_decomposition(f, y).bias2)
        unb.append(MS.bias_variance_decomposition(f, y, unbiased=True).bias2)
    assert abs(np.mean(plug) - 0.1) < 0.02 and abs(np.mean(unb)) < 0.02


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------


def test_bad_input():
    with pytest.raises(ValueError, match="n_errors must be <= n_samples"):
        MS.binomial_test(5, 3, 0.1)
    with pytest.raises(ValueError, match="epsilon0 must be <= 1"):
        MS.binomial_test(1, 3, 1.5)
    with pytest.raises(ValueError, match="alpha must be"):
        MS.binomial_test(1, 3, 0.2, alpha=0)
    with pytest.raises(TypeError, match="n_samples must be of type"):
        MS.binomial_test(1, 3.5, 0.2)
    with pytest.raises(ValueError, match="a needs at least 2 values"):
        MS.ttest_1samp([0.1], 0.1)
    with pytest.raises(ValueError, match="a has zero variance"):
        MS.ttest_1samp([0.1, 0.1], 0.1)
    with pytest.raises(ValueError, match="alternative must be one of"):
        MS.ttest_1samp([0.1, 0.2], 0.1, alternative="bigger")
    with pytest.raises(ValueError, match="a contains NaN"):
        MS.ttest_1samp([0.1, np.nan], 0.1)
    with pytest.raises(ValueError, match="errors_a and errors_b must have the same length"):
        MS.paired_ttest_kfold([0.1, 0.2, 0.3], [0.1, 0.2])
    with pytest.raises(ValueError, match="zero variance"):
        MS.paired_ttest_kfold([0.5, 0.75, 1.0], [0.25, 0.5, 0.75])
    with pytest.raises(ValueError, match=r"errors_b must have shape \(5, 2\)"):
        MS.paired_ttest_5x2cv(np.zeros((5, 2)), np.zeros((10,)))
    with pytest.raises(ValueError, match="numerator must be"):
        MS.paired_ttest_5x2cv(np.zeros((5, 2)), np.zeros((5, 2)), numerator="last")
    with pytest.raises(ValueError, match="scores_a and scores_b must have the same length"):
        MS.corrected_resampled_ttest([0.1, 0.2, 0.3], [0.1, 0.2], 90, 10)
    with pytest.raises(ValueError, match="zero variance"):
        MS.corrected_resampled_ttest([0.5, 0.75, 1.0], [0.25, 0.5, 0.75], 90, 10)
    with pytest.raises(ValueError, match="n_test must be >= 1"):
        MS.corrected_resampled_ttest([0.5, 0.7], [0.2, 0.6], 90, 0)
    with pytest.raises(TypeError, match="n_train must be of type"):
        MS.corrected_resampled_ttest([0.5, 0.7], [0.2, 0.6], 0.9, 10)
    with pytest.raises(ValueError, match="scores_b contains NaN"):
        MS.corrected_resampled_ttest([0.5, 0.7], [0.2, np.nan], 90, 10)
    with pytest.raises(ValueError, match="scores_a and scores_b must have the same length"):
        MS.wilcoxon_signed_rank_test([0.1, 0.2, 0.3], [0.1, 0.2])
    with pytest.raises(ValueError, match="method must be"):
        MS.wilcoxon_signed_rank_test([0.1, 0.2], [0.3, 0.5], method="permutation")
    with pytest.raises(ValueError, match="distinct, non-zero differences"):
        MS.wilcoxon_signed_rank_test([1, 2, 3], [2, 3, 5], method="exact")   # a tie
    with pytest.raises(ValueError, match="distinct, non-zero differences"):
        MS.wilcoxon_signed_rank_test([1, 2, 3], [1, 3, 5], method="exact")   # a zero
    with pytest.raises(ValueError, match="every difference is zero"):
        MS.wilcoxon_signed_rank_test([0.1, 0.2], [0.1, 0.2], method="exact")
    with pytest.raises(ValueError, match="scores_b contains NaN"):
        MS.wilcoxon_signed_rank_test([0.1, 0.2], [0.1, np.nan])
    with pytest.raises(ValueError, match="scores_a must be a 1-d array"):
        MS.wilcoxon_signed_rank_test([[0.1, 0.2]], [0.1, 0.2])
    with pytest.raises(ValueError, match="scores_a needs at least 1 values"):
        MS.wilcoxon_signed_rank_test([], [])
    with pytest.raises(TypeError, match="scores_a must be an array-like"):
        MS.wilcoxon_signed_rank_test(None, [0.1])
    with pytest.raises(ValueError, match="y_pred_b"):
        MS.mcnemar_test([0, 1, 1], [0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="scores must be a 2-d array"):
        MS.friedman_test([1, 2, 3])
    with pytest.raises(ValueError, match="at least 2 data sets"):
        MS.friedman_test([[1, 2, 3]])
    with pytest.raises(ValueError, match="scores contains NaN"):
        MS.friedman_test([[1, 2], [np.nan, 1]])
    with pytest.raises(ValueError, match="n_learners must be >= 2"):
        MS.nemenyi_critical_difference(1, 5)
    with pytest.raises(ValueError, match="y_true must have one value per test point"):
        MS.bias_variance_decomposition(np.zeros((3, 4)), np.zeros(5))
    with pytest.raises(ValueError, match="y_pred must have shape"):
        MS.bias_variance_decomposition(np.zeros((1, 4)), np.zeros(4))
    with pytest.raises(ValueError, match="y_observed must have shape"):
        MS.bias_variance_decomposition(np.zeros((3, 4)), np.zeros(4), y_observed=np.zeros(3))
    with pytest.raises(ValueError, match=r"cost_matrix must have shape \(2, 2\)"):
        M.cost_sensitive_error_rate([0, 1], [1, 1], cost_matrix=np.zeros((3, 3)))
    with pytest.raises(ValueError, match="non-negative"):
        M.cost_sensitive_error_rate([0, 1], [1, 1], cost_matrix=[[0, -1], [1, 0]])
    with pytest.raises(ValueError, match="y_true contains no positive"):
        M.cost_curve([0, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match="p must be in"):
        D.t_ppf(1.0, 3)


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 300), st.floats(0.01, 0.99), st.integers(0, 10**6))
def test_binomial_pvalue_decreases_with_the_number_of_errors(m, e0, seed):
    ks = np.sort(np.random.default_rng(seed).integers(0, m + 1, 5))
    p = [MS.binomial_test(int(k), m, e0).pvalue for k in ks]
    assert all(a >= b - 1e-15 for a, b in zip(p, p[1:]))
    assert MS.binomial_test(0, m, e0).pvalue == 1.0


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 200), st.integers(0, 10**6))
def test_mcnemar_is_symmetric_in_the_two_learners(m, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, m)
    pa, pb = rng.integers(0, 2, m), rng.integers(0, 2, m)
    for exact in (False, True):
        ab, ba = MS.mcnemar_test(y, pa, pb, exact=exact), MS.mcnemar_test(y, pb, pa, exact=exact)
        assert ab.statistic == ba.statistic and ab.pvalue == ba.pvalue
        assert (ab.a_wrong_b_right, ab.a_right_b_wrong) == (ba.a_right_b_wrong, ba.a_wrong_b_right)


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 120), st.integers(0, 10**6))
def test_cost_curve_lies_under_the_trivial_classifiers(n, seed):
    # The all-negative and all-positive classifiers are ROC points (0, 0) and
    # (1, 1), with cost lines P and 1 - P: the envelope is never above
    # min(P, 1 - P), so its area is at most 1/4 (and at least 0).
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(rng.normal(size=n), 1)
    pc, cost = M.cost_curve(y, s)
    assert np.all(cost <= np.minimum(pc, 1 - pc) + 1e-12) and np.all(cost >= -1e-15)
    assert -1e-15 <= M.auc(pc, cost) <= 0.25 + 1e-12
    # a strictly increasing map of the scores changes nothing
    pc2, cost2 = M.cost_curve(y, np.exp(s))
    np.testing.assert_array_equal(pc, pc2)
    np.testing.assert_array_equal(cost, cost2)


# --- zero spread up to rounding; bool parameters ---------------------------------

_A5x2 = [[.3, .2], [.2, .1], [.3, .1], [.2, .3], [.1, .3]]
_B5x2 = [[.2, .1], [.1, 0], [.2, 0], [.1, .2], [0, .2]]   # _A5x2 - 0.1, written out


@pytest.mark.parametrize("call,match", [
    (lambda: MS.ttest_1samp([0.1] * 3, 0), "a has zero variance"),   # guards against: t = 1e16, p = 1e-32
    # the same rounding spread on values of size 1e5 is 1.8e-11: the tolerance is relative
    (lambda: MS.ttest_1samp(np.array([0.1] * 3) * 2.0**20, 0), "a has zero variance"),
    (lambda: MS.paired_ttest_kfold([.3, .2, .1], [.2, .1, 0]), "zero variance"),
    (lambda: MS.corrected_resampled_ttest([.3, .2, .1], [.2, .1, 0], 8, 2), "zero variance"),
    (lambda: MS.paired_ttest_5x2cv(_A5x2, _B5x2), "do not vary"),
], ids=["ttest_1samp", "ttest_1samp_large", "paired_ttest_kfold", "corrected_resampled_ttest",
        "paired_ttest_5x2cv"])
def test_a_spread_of_rounding_errors_is_zero_variance(call, match):
    # [.3, .2, .1] - [.2, .1, 0] is not exactly constant in float64 (variance 2.9e-34)
    with pytest.raises(ValueError, match=match):
        call()


def test_a_small_real_spread_is_not_taken_for_rounding():
    # a spread of 1e-12 on values of size 1 is 4,500 ulps: a real (if small) spread
    stats = pytest.importorskip("scipy.stats", reason="SciPy is the oracle")
    x = [1.0, 1.0 + 1e-12, 1.0 + 3e-12]
    ours, theirs = MS.ttest_1samp(x, 1.0), stats.ttest_1samp(x, 1.0)
    # 1e-9: the same formula, summed in another order (the spread is 1e-12, its rounding 1e-16)
    assert np.isclose(ours.statistic, theirs.statistic, rtol=1e-9, atol=0)


@pytest.mark.parametrize("call,name", [
    (lambda v: MS.mcnemar_test([0, 1, 1, 0], [0, 1, 0, 0], [1, 1, 1, 0], correction=v), "correction"),
    (lambda v: MS.mcnemar_test([0, 1, 1, 0], [0, 1, 0, 0], [1, 1, 1, 0], exact=v), "exact"),
    (lambda v: MS.friedman_test([[1, 2, 3], [1, 3, 2], [2, 1, 3]], greater_is_better=v),
     "greater_is_better"),
    (lambda v: MS.friedman_test([[1, 2, 3], [1, 3, 2], [2, 1, 3]], tie_correction=v),
     "tie_correction"),
])
def test_bool_parameters_of_the_tests_are_checked(call, name):
    # guards against: friedman_test(greater_is_better="no") ranked as if True
    call(np.True_)
    with pytest.raises(TypeError, match=f"{name} must be True or False"):
        call("no")
