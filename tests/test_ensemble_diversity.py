"""mlbook.ensemble's diversity measures (Zhou 8.5): the pairwise measures from the contingency
table counted by hand, kappa against scikit-learn, the degenerate cases, the
error-ambiguity identity, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlbook.ensemble import (ErrorAmbiguityResult, correlation_coefficient,
                             disagreement_measure, error_ambiguity, kappa_statistic, q_statistic)


def _table_by_loop(h_i, h_j, pos):
    """Zhou's a, b, c, d counted one sample at a time (h_i's label first)."""
    a = b = c = d = 0
    for u, v in zip(h_i, h_j):
        if u == pos and v == pos:
            a += 1
        elif u == pos:
            b += 1
        elif v == pos:
            c += 1
        else:
            d += 1
    return a, b, c, d


def _two_predictors(seed, m=50, labels=(-1, 1), agree=0.7):
    rng = np.random.default_rng(seed)
    h_i = rng.choice(labels, size=m)
    h_j = np.where(rng.random(m) < agree, h_i, rng.choice(labels, size=m))
    h_i[:2], h_j[:2] = labels[0], labels[1]      # neither is constant
    return h_i, h_j


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("labels", [(-1, 1), (0, 1), ("no", "yes")])
def test_two_class_measures_from_the_table(seed, labels):
    h_i, h_j = _two_predictors(seed, labels=labels)
    a, b, c, d = _table_by_loop(h_i, h_j, labels[1])        # the larger label plays +1
    m = a + b + c + d
    p1, p2 = (a + d) / m, ((a + b) * (a + c) + (c + d) * (b + d)) / m ** 2
    # 1e-12: the same closed forms of the same integer counts, in float64
    expected = {disagreement_measure: (b + c) / m,
                correlation_coefficient: ((a * d - b * c)
                                          / np.sqrt((a + b) * (a + c) * (c + d) * (b + d))),
                q_statistic: (a * d - b * c) / (a * d + b * c),
                kappa_statistic: (p1 - p2) / (1 - p2)}
    for measure, value in expected.items():
        np.testing.assert_allclose(measure(h_i, h_j), value, rtol=0, atol=1e-12,
                                   err_msg=measure.__name__)


@pytest.mark.parametrize("seed", range(3))
def test_correlation_is_pearsons(seed):
    h_i, h_j = _two_predictors(seed, labels=(0, 1))
    # 1e-12: Pearson's correlation of the 0/1 vectors is the table's rho exactly
    np.testing.assert_allclose(correlation_coefficient(h_i, h_j), np.corrcoef(h_i, h_j)[0, 1],
                               rtol=0, atol=1e-12)


def test_labels_other_than_plus_minus_one_give_the_same_measures():
    h_i, h_j = _two_predictors(9)
    for mapped in ([0, 1], ["a", "b"], [3.0, 7.0]):
        m_i, m_j = (np.where(h == 1, mapped[1], mapped[0]) for h in (h_i, h_j))
        for measure in (disagreement_measure, correlation_coefficient, q_statistic,
                        kappa_statistic):
            assert measure(m_i, m_j) == measure(h_i, h_j), (measure.__name__, mapped)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("K", [2, 3, 5])
def test_kappa_is_cohens_kappa(seed, K):
    metrics = pytest.importorskip("sklearn.metrics")
    h_i, h_j = _two_predictors(seed, m=60, labels=tuple(f"c{k}" for k in range(K)), agree=0.5)
    # 1e-12: two evaluations of the same ratio of counts
    np.testing.assert_allclose(kappa_statistic(h_i, h_j), metrics.cohen_kappa_score(h_i, h_j),
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(disagreement_measure(h_i, h_j), np.mean(h_i != h_j),
                               rtol=0, atol=1e-15)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=4, max_size=40))
def test_q_dominates_rho_and_shares_its_sign(pairs):
    h_i = np.array([1 if u else -1 for u, _ in pairs] + [1, -1])
    h_j = np.array([1 if v else -1 for _, v in pairs] + [-1, 1])
    rho, q = correlation_coefficient(h_i, h_j), q_statistic(h_i, h_j)
    # 1e-12: rounding in two float divisions
    assert abs(q) >= abs(rho) - 1e-12
    assert np.sign(q) == np.sign(rho) or abs(rho) < 1e-12
    assert -1 <= kappa_statistic(h_i, h_j) <= 1
    assert kappa_statistic(h_i, h_i) == 1.0 and disagreement_measure(h_i, h_i) == 0.0


# --- the degenerate cases -------------------------------------------------------------------

def test_identical_constant_predictors():
    h = np.ones(6)
    assert kappa_statistic(h, h) == 1.0          # p2 = 1: defined as complete agreement
    assert disagreement_measure(h, h) == 0.0
    for measure in (correlation_coefficient, q_statistic):
        with pytest.raises(ValueError, match="undefined when a predictor is constant: h_i"):
            measure(h, h)


def test_one_constant_predictor():
    h_i, h_j = np.array([1, 1, 1, 1]), np.array([1, -1, 1, -1])
    for measure in (correlation_coefficient, q_statistic):
        with pytest.raises(ValueError, match="constant: h_i predicts only 1"):
            measure(h_i, h_j)
        with pytest.raises(ValueError, match="constant: h_j predicts only 1"):
            measure(h_j, h_i)
    assert kappa_statistic(h_i, h_j) == 0.0      # agreement exactly at chance level


def test_q_is_plus_minus_one_when_one_product_vanishes():
    # a = 2, b = 0, c = 1, d = 1: bc = 0, so Q = 1 although rho < 1
    h_i, h_j = np.array([1, 1, -1, -1]), np.array([1, 1, 1, -1])
    assert q_statistic(h_i, h_j) == 1.0 and correlation_coefficient(h_i, h_j) < 1.0


def test_two_class_measures_refuse_more_classes():
    h_i, h_j = np.array([0, 1, 2, 0]), np.array([0, 1, 1, 2])
    for measure in (correlation_coefficient, q_statistic):
        with pytest.raises(ValueError, match=f"{measure.__name__} needs two classes; h_i and h_j "
                                             r"hold 3 labels: \[0, 1, 2\]"):
            measure(h_i, h_j)


@pytest.mark.parametrize("measure", [disagreement_measure, correlation_coefficient,
                                     q_statistic, kappa_statistic])
def test_bad_input(measure):
    with pytest.raises(ValueError, match="h_i and h_j have different lengths: 3 and 2"):
        measure([1, -1, 1], [1, -1])
    with pytest.raises(ValueError, match="h_i is empty"):
        measure([], [])
    with pytest.raises(ValueError, match="h_j looks continuous"):
        measure([1, -1], [0.5, 1.0])
    with pytest.raises(TypeError, match="mix strings and numbers"):
        measure(["a", "b"], [1, 0])


# --- the error-ambiguity decomposition --------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
def test_error_ambiguity_identity(seed, weighted):
    rng = np.random.default_rng(seed)
    T, m = rng.integers(2, 12), rng.integers(5, 200)
    y = rng.normal(size=m)
    P = y + rng.normal(scale=rng.uniform(0.1, 2.0), size=(T, m)) + rng.normal(size=(T, 1))
    w = rng.uniform(0.0, 3.0, size=T) if weighted else None
    r = error_ambiguity(P, y, weights=w)
    assert isinstance(r, ErrorAmbiguityResult)
    # 1e-12: an algebraic identity; the three terms are means of squares of size ~1-10
    np.testing.assert_allclose(r.error, r.mean_error - r.mean_ambiguity, rtol=0, atol=1e-12)
    wn = np.full(T, 1 / T) if w is None else w / w.sum()
    H = wn @ P
    np.testing.assert_allclose(r.error, np.mean((H - y) ** 2), rtol=0, atol=1e-12)
    by_member = [np.mean((p - y) ** 2) for p in P]
    np.testing.assert_allclose(r.mean_error, wn @ by_member, rtol=0, atol=1e-12)
    assert r.mean_ambiguity > 0 and r.error <= r.mean_error


def test_error_ambiguity_weights_are_normalised_and_agreeing_members_have_no_ambiguity():
    rng = np.random.default_rng(0)
    P, y = rng.normal(size=(4, 30)), rng.normal(size=30)
    w = np.array([1.0, 0.0, 2.0, 3.0])
    assert error_ambiguity(P, y, w) == error_ambiguity(P, y, 10 * w)
    same = error_ambiguity(np.tile(P[0], (3, 1)), y)
    # 1e-28 and 1e-15: H is the mean of three equal numbers, exact up to one rounding (~1e-16)
    # whose square is ~1e-32
    np.testing.assert_allclose(same.mean_ambiguity, 0.0, rtol=0, atol=1e-28)
    np.testing.assert_allclose(same.error, same.mean_error, rtol=0, atol=1e-15)


@pytest.mark.parametrize("args, error, match", [
    (([[1.0, 2.0]], [1.0, 2.0, 3.0]), ValueError, "predictions has 2 samples per member"),
    (([1.0, 2.0], [1.0, 2.0]), ValueError,
     r"predictions must be a 2-d array of shape \(T, m\).*got a 1-d.*reshape\(1, -1\)"),
    (([[1.0, np.nan]], [1.0, 2.0]), ValueError, "predictions"),
    (([[1.0, 2.0]], [1.0, np.nan]), ValueError, "y contains NaN"),
    (([[1.0, 2.0], [2.0, 1.0]], [1.0, 2.0], [1.0]), ValueError, "weights has 1 entries, but"),
    (([[1.0, 2.0], [2.0, 1.0]], [1.0, 2.0], [1.0, -1.0]), ValueError, "non-negative"),
    (([[1.0, 2.0], [2.0, 1.0]], [1.0, 2.0], [0.0, 0.0]), ValueError, "weights are all zero"),
])
def test_error_ambiguity_bad_input(args, error, match):
    with pytest.raises(error, match=match):
        error_ambiguity(*args)
