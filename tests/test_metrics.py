"""mlbook.metrics: oracle tests against scikit-learn, properties, bad input.

Tolerances: the counting metrics (accuracy, confusion matrix, precision,
recall, F-beta) and the curves are sums and ratios of the same numbers in the
same order as scikit-learn, so they agree to 1e-12 (in practice bit for bit);
1e-12 leaves room for a different summation order of float weights.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlbook import metrics as M

skm = pytest.importorskip("sklearn.metrics")

TOL = 1e-12  # see the module docstring
SEEDS = [0, 1, 2, 3]
NAMES = np.array(["ant", "bee", "cat", "dog", "eel"])


def random_labels(seed, n, n_classes, kind="int"):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, n)
    # predictions agree with the truth 60 % of the time, otherwise random
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, n_classes, n))
    w = rng.uniform(0, 2, n)
    if kind == "str":
        return NAMES[y_true], NAMES[y_pred], w
    return y_true, y_pred, w


CASES = [(seed, n, k, kind) for seed, (n, k), kind in itertools.product(
    SEEDS, [(10, 2), (37, 3), (100, 4), (250, 5)], ["int", "str"])]


# ---------------------------------------------------------------------------
# accuracy, error, confusion matrix
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed,n,k,kind", CASES)
def test_accuracy_and_zero_one_loss_match_sklearn(seed, n, k, kind):
    yt, yp, w = random_labels(seed, n, k, kind)
    for sw in (None, w):
        for normalize in (True, False):
            assert M.accuracy_score(yt, yp, normalize=normalize, sample_weight=sw) == \
                pytest.approx(skm.accuracy_score(yt, yp, normalize=normalize, sample_weight=sw),
                              abs=TOL, rel=TOL)
            assert M.zero_one_loss(yt, yp, normalize=normalize, sample_weight=sw) == \
                pytest.approx(skm.zero_one_loss(yt, yp, normalize=normalize, sample_weight=sw),
                              abs=TOL, rel=TOL)
        # the notes' E = a / m is one minus the accuracy
        assert M.error_rate(yt, yp, sample_weight=sw) == pytest.approx(
            1 - skm.accuracy_score(yt, yp, sample_weight=sw), abs=TOL)


@pytest.mark.parametrize("seed,n,k,kind", CASES)
def test_confusion_matrix_matches_sklearn(seed, n, k, kind):
    yt, yp, w = random_labels(seed, n, k, kind)
    ours = M.confusion_matrix(yt, yp)
    theirs = skm.confusion_matrix(yt, yp)
    assert ours.dtype == np.int64 and np.array_equal(ours, theirs)
    np.testing.assert_allclose(M.confusion_matrix(yt, yp, sample_weight=w),
                               skm.confusion_matrix(yt, yp, sample_weight=w), rtol=TOL, atol=TOL)
    # a subset of the labels, in a chosen order: the others are left out
    labels = np.unique(yt)[::-1][: max(2, k - 1)]
    assert np.array_equal(M.confusion_matrix(yt, yp, labels=labels),
                          skm.confusion_matrix(yt, yp, labels=labels))


def test_confusion_matrix_layout():
    # rows = true, columns = predicted: [[TN, FP], [FN, TP]] with 1 positive
    cm = M.confusion_matrix([0, 0, 0, 1, 1], [0, 1, 1, 1, 0])
    assert cm.tolist() == [[1, 2], [1, 1]]


# ---------------------------------------------------------------------------
# precision, recall, F-beta
# ---------------------------------------------------------------------------


def _compare_prfs(ours, theirs):
    for a, b in zip(ours, theirs):
        if b is None:
            assert a is None
        else:
            np.testing.assert_allclose(a, b, rtol=TOL, atol=TOL, equal_nan=True)


@pytest.mark.parametrize("seed,n,k,kind", CASES)
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
def test_prfs_multiclass_matches_sklearn(seed, n, k, kind, average):
    yt, yp, w = random_labels(seed, n, k, kind)
    for sw, beta, zd in [(None, 1.0, 0.0), (w, 0.5, 1.0), (None, 2.0, np.nan), (w, 1.0, 0.0)]:
        ours = M.precision_recall_fscore_support(yt, yp, beta=beta, average=average,
                                                 sample_weight=sw, zero_division=zd)
        theirs = skm.precision_recall_fscore_support(yt, yp, beta=beta, average=average,
                                                     sample_weight=sw, zero_division=zd)
        _compare_prfs(ours, theirs)


@pytest.mark.parametrize("seed", SEEDS)
def test_prfs_with_labels_including_an_absent_class(seed):
    yt, yp, _ = random_labels(seed, 40, 3)
    labels = [2, 0, 7]  # 7 never occurs: its precision and recall hit zero_division
    for average in (None, "micro", "macro", "weighted"):
        _compare_prfs(
            M.precision_recall_fscore_support(yt, yp, labels=labels, average=average,
                                              zero_division=1.0),
            skm.precision_recall_fscore_support(yt, yp, labels=labels, average=average,
                                                zero_division=1.0))


@pytest.mark.parametrize("seed,n", list(itertools.product(SEEDS, [8, 50, 300])))
def test_binary_scores_match_sklearn(seed, n):
    yt, yp, w = random_labels(seed, n, 2)
    ys, ps = NAMES[yt], NAMES[yp]
    for sw in (None, w):
        for f_ours, f_theirs in [(M.precision_score, skm.precision_score),
                                 (M.recall_score, skm.recall_score),
                                 (M.f1_score, skm.f1_score)]:
            assert f_ours(yt, yp, sample_weight=sw) == pytest.approx(
                f_theirs(yt, yp, sample_weight=sw), abs=TOL)
            # string labels with an explicit positive class
            assert f_ours(ys, ps, pos_label="ant", sample_weight=sw) == pytest.approx(
                f_theirs(ys, ps, pos_label="ant", sample_weight=sw), abs=TOL)
        for beta in (0.3, 1.0, 3.0):
            assert M.fbeta_score(yt, yp, beta=beta, sample_weight=sw) == pytest.approx(
                skm.fbeta_score(yt, yp, beta=beta, sample_weight=sw), abs=TOL)


@pytest.mark.parametrize("seed,n,k,kind", CASES)
@pytest.mark.parametrize("average", ["macro", "micro"])
def test_named_scores_with_average_match_sklearn(seed, n, k, kind, average):
    # the public functions of the issue, called by name (not only through
    # precision_recall_fscore_support), with the averages the notes define
    yt, yp, w = random_labels(seed, n, k, kind)
    for sw in (None, w):
        for name in ("precision_score", "recall_score", "f1_score"):
            assert getattr(M, name)(yt, yp, average=average, sample_weight=sw) == pytest.approx(
                getattr(skm, name)(yt, yp, average=average, sample_weight=sw,
                                   zero_division=0.0), abs=TOL)
        for beta in (0.5, 2.0):
            assert M.fbeta_score(yt, yp, beta=beta, average=average,
                                 sample_weight=sw) == pytest.approx(
                skm.fbeta_score(yt, yp, beta=beta, average=average, sample_weight=sw,
                                zero_division=0.0), abs=TOL)


@pytest.mark.parametrize("seed", SEEDS)
def test_named_binary_scores_with_pos_label_match_sklearn(seed):
    # integer labels {0, 1} with the *negative* class as pos_label, and {-1, 1}
    yt, yp, w = random_labels(seed, 60, 2)
    for pos_label, a, b in ((0, yt, yp), (-1, 2 * yt - 1, 2 * yp - 1)):
        for name in ("precision_score", "recall_score", "f1_score"):
            assert getattr(M, name)(a, b, pos_label=pos_label, sample_weight=w) == \
                pytest.approx(getattr(skm, name)(a, b, pos_label=pos_label, sample_weight=w),
                              abs=TOL)
        assert M.fbeta_score(a, b, beta=0.5, pos_label=pos_label) == pytest.approx(
            skm.fbeta_score(a, b, beta=0.5, pos_label=pos_label), abs=TOL)


def test_zero_division_without_warning():
    # no predicted positive: precision = zero_division, and no RuntimeWarning
    # (pytest turns RuntimeWarnings from mlbook into errors)
    assert M.precision_score([0, 1, 1], [0, 0, 0]) == 0.0
    assert M.precision_score([0, 1, 1], [0, 0, 0], zero_division=1.0) == 1.0
    assert np.isnan(M.precision_score([0, 1, 1], [0, 0, 0], zero_division=np.nan))
    assert M.f1_score([0, 0, 0], [0, 0, 0]) == 0.0


@pytest.mark.parametrize("seed,n,k", list(itertools.product(SEEDS, [20, 200], [2, 3, 5])))
def test_fbeta_of_macro_averages_against_sklearn_macro_p_and_r(seed, n, k):
    yt, yp, _ = random_labels(seed, n, k)
    for beta in (0.5, 1.0, 2.0):
        p = skm.precision_score(yt, yp, average="macro", zero_division=0.0)
        r = skm.recall_score(yt, yp, average="macro", zero_division=0.0)
        expected = (1 + beta**2) * p * r / (beta**2 * p + r)
        assert M.fbeta_of_macro_averages(yt, yp, beta=beta) == pytest.approx(expected, rel=1e-12)


def test_the_two_macro_f1_differ():
    # per-class (P, R) = (1, 1/2), (1/2, 1), (1, 1): harmonic means of averages
    # and averages of harmonic means are different numbers
    yt, yp = [0, 0, 1, 2], [0, 1, 1, 2]
    zhou = M.fbeta_of_macro_averages(yt, yp)
    sk = M.f1_score(yt, yp, average="macro")
    p, r = (1 + 0.5 + 1) / 3, (0.5 + 1 + 1) / 3
    assert zhou == pytest.approx(2 * p * r / (p + r), abs=TOL)
    assert sk == pytest.approx((2 / 3 + 2 / 3 + 1) / 3, abs=TOL)
    assert abs(zhou - sk) > 0.05


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60),
       st.floats(0.05, 20))
def test_fbeta_lies_between_p_and_r(pairs, beta):
    yt = np.array([a for a, _ in pairs], dtype=int)
    yp = np.array([b for _, b in pairs], dtype=int)
    p = M.precision_score(yt, yp)
    r = M.recall_score(yt, yp)
    f = M.fbeta_score(yt, yp, beta=beta)
    # 1e-12: F is a weighted harmonic mean of P and R, computed from the counts
    assert min(p, r) - 1e-12 <= f <= max(p, r) + 1e-12
    if p + r > 0:
        assert M.f1_score(yt, yp) == pytest.approx(2 * p * r / (p + r), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=80))
def test_accuracy_is_trace_over_n(pairs):
    yt = np.array([a for a, _ in pairs])
    yp = np.array([b for _, b in pairs])
    cm = M.confusion_matrix(yt, yp)
    assert M.accuracy_score(yt, yp) == pytest.approx(np.trace(cm) / len(yt), abs=1e-15)
    assert cm.sum() == len(yt)
    # micro-averaged precision of a multi-class problem is the accuracy
    assert M.precision_score(yt, yp, average="micro") == pytest.approx(
        M.accuracy_score(yt, yp), abs=1e-12)


# ---------------------------------------------------------------------------
# ROC, AUC, P-R, BEP
# ---------------------------------------------------------------------------


def random_scores(seed, n, ties=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]  # both classes present
    s = rng.normal(size=n) + y  # positives score higher on average
    if ties:
        s = np.round(s, 1)
    w = rng.uniform(0, 2, n)
    w[rng.random(n) < 0.1] = 0.0  # some zero weights: scikit-learn drops them
    return y, s, w


SCORE_CASES = list(itertools.product(SEEDS, [5, 30, 200], [False, True]))


@pytest.mark.parametrize("seed,n,ties", SCORE_CASES)
def test_roc_curve_matches_sklearn(seed, n, ties):
    y, s, w = random_scores(seed, n, ties)
    for sw in (None, w):
        for drop in (True, False):
            ours = M.roc_curve(y, s, sample_weight=sw, drop_intermediate=drop)
            theirs = skm.roc_curve(y, s, sample_weight=sw, drop_intermediate=drop)
            assert np.isinf(ours[2][0]) and np.isinf(theirs[2][0])
            for a, b in zip(ours, theirs):
                np.testing.assert_allclose(a, b, rtol=TOL, atol=TOL)
    # string labels with pos_label
    ours = M.roc_curve(NAMES[y], s, pos_label="ant")
    theirs = skm.roc_curve(NAMES[y], s, pos_label="ant")
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=TOL, atol=TOL)


@pytest.mark.parametrize("seed,n,ties", SCORE_CASES)
def test_auc_and_average_precision_match_sklearn(seed, n, ties):
    y, s, w = random_scores(seed, n, ties)
    for sw in (None, w):
        assert M.roc_auc_score(y, s, sample_weight=sw) == pytest.approx(
            skm.roc_auc_score(y, s, sample_weight=sw), abs=TOL)
        assert M.average_precision_score(y, s, sample_weight=sw) == pytest.approx(
            skm.average_precision_score(y, s, sample_weight=sw), abs=TOL)
    # strings: the larger label ("bee") is the positive class, as in scikit-learn
    assert M.roc_auc_score(NAMES[y], s) == pytest.approx(skm.roc_auc_score(NAMES[y], s), abs=TOL)
    x = np.sort(np.random.default_rng(seed).uniform(size=n))
    assert M.auc(x, s) == pytest.approx(skm.auc(x, s), abs=TOL)
    assert M.auc(x[::-1], s[::-1]) == pytest.approx(skm.auc(x[::-1], s[::-1]), abs=TOL)


@pytest.mark.parametrize("seed,n,ties", SCORE_CASES)
def test_precision_recall_curve_matches_sklearn(seed, n, ties):
    y, s, w = random_scores(seed, n, ties)
    for sw in (None, w):
        for drop in (False, True):
            ours = M.precision_recall_curve(y, s, sample_weight=sw, drop_intermediate=drop)
            theirs = skm.precision_recall_curve(y, s, sample_weight=sw, drop_intermediate=drop)
            for a, b in zip(ours, theirs):
                np.testing.assert_allclose(a, b, rtol=TOL, atol=TOL)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=2, max_size=40))
def test_auc_is_the_mann_whitney_probability(pairs):
    y = np.array([a for a, _ in pairs], dtype=int)
    s = np.array([b for _, b in pairs], dtype=float)  # few values: many ties
    if len(np.unique(y)) < 2:
        return
    pos, neg = s[y == 1], s[y == 0]
    diff = pos[:, None] - neg[None, :]
    mann_whitney = ((diff > 0) + 0.5 * (diff == 0)).mean()
    # 1e-12: trapezoids of the ROC curve vs. a mean over pairs, both exact
    # sums of multiples of 1/(2 m+ m-)
    assert M.roc_auc_score(y, s) == pytest.approx(mann_whitney, abs=1e-12)


def test_break_even_point_ties_and_definition():
    # top score positive; then a tie of one positive and one negative at
    # rank 2-3 while m+ = 2: TP at 2 predicted is 1.5 in expectation
    assert M.break_even_point([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1]) == pytest.approx(0.75, abs=TOL)


@pytest.mark.parametrize("seed,n", list(itertools.product(SEEDS, [6, 40, 300])))
def test_break_even_point_is_where_precision_equals_recall(seed, n):
    y, s, _ = random_scores(seed, n, ties=False)
    bep = M.break_even_point(y, s)
    n_pos = y.sum()
    # distinct scores: the m+ top-scored samples give P = R = BEP (R-precision)
    top = np.argsort(-s)[:n_pos]
    assert bep == pytest.approx(y[top].mean(), abs=TOL)
    p, r, _ = skm.precision_recall_curve(y, s)
    equal = np.isclose(p[:-1], r[:-1], rtol=0, atol=1e-12)
    assert equal.any() and np.allclose(p[:-1][equal], bep, rtol=0, atol=1e-12)


# ---------------------------------------------------------------------------
# losses and R^2
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed,n", list(itertools.product(SEEDS, [3, 50, 400])))
def test_regression_metrics_match_sklearn(seed, n):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=n)
    f = y + rng.normal(scale=0.5, size=n)
    w = rng.uniform(0, 2, n)
    for sw in (None, w):
        for ours, theirs in [(M.mean_squared_error, skm.mean_squared_error),
                             (M.mean_absolute_error, skm.mean_absolute_error),
                             (M.r2_score, skm.r2_score)]:
            assert ours(y, f, sample_weight=sw) == pytest.approx(
                theirs(y, f, sample_weight=sw), rel=TOL, abs=TOL)
    # constant truth: R^2 is 1 for a perfect fit, 0 otherwise (force_finite)
    assert M.r2_score([2.0, 2.0, 2.0], [2.0, 2.0, 2.0]) == skm.r2_score([2.0] * 3, [2.0] * 3)
    assert M.r2_score([2.0, 2.0, 2.0], [2.0, 1.0, 2.0]) == skm.r2_score([2.0] * 3, [2, 1, 2.0])


@pytest.mark.parametrize("seed,n,k", list(itertools.product(SEEDS, [10, 100], [2, 3, 5])))
def test_log_loss_matches_sklearn(seed, n, k):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    logits = rng.normal(scale=3, size=(n, k))
    prob = np.exp(logits - logits.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    w = rng.uniform(0, 2, n)
    for sw in (None, w):
        # 1e-12 relative: the same clip and logarithm, the same weighted mean
        assert M.log_loss(y, prob, sample_weight=sw) == pytest.approx(
            skm.log_loss(y, prob, sample_weight=sw), rel=1e-12)
        assert M.log_loss(NAMES[y], prob, sample_weight=sw) == pytest.approx(
            skm.log_loss(NAMES[y], prob, sample_weight=sw), rel=1e-12)
    if k == 2:  # 1-d probabilities of the larger class, with exact 0 and 1 (clipped)
        p1 = prob[:, 1].copy()
        p1[:3] = [0.0, 1.0, 1.0]
        assert M.log_loss(y, p1) == pytest.approx(skm.log_loss(y, p1), rel=1e-12)
    else:  # a class missing from y_true, supplied through labels
        keep = y != k - 1
        assert M.log_loss(y[keep], prob[keep], labels=np.arange(k)) == pytest.approx(
            skm.log_loss(y[keep], prob[keep], labels=np.arange(k)), rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_pointwise_losses_average_to_the_aggregate_ones(seed):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=30)
    f = rng.normal(size=30)
    assert M.pointwise_loss("squared", y, f).mean() == pytest.approx(
        M.mean_squared_error(y, f), rel=1e-12)
    assert M.pointwise_loss("absolute", y, f).mean() == pytest.approx(
        M.mean_absolute_error(y, f), rel=1e-12)
    yt, yp, _ = random_labels(seed, 30, 3, "str")
    assert M.pointwise_loss("0-1", yt, yp).mean() == pytest.approx(
        M.zero_one_loss(yt, yp), abs=1e-15)
    labels = rng.integers(0, 2, 30)
    labels[:2] = [0, 1]
    p = rng.uniform(0.01, 0.99, 30)
    assert M.pointwise_loss("log", labels, p).mean() == pytest.approx(
        M.log_loss(labels, p), rel=1e-12)


def test_pointwise_log_loss_edges():
    # 0 log 0 = 0: a certain and right prediction costs 0; a certain and wrong one +inf
    out = M.pointwise_loss("log", [1, 0, 1, 0], [1.0, 0.0, 0.0, 1.0])
    assert out.tolist() == [0.0, 0.0, np.inf, np.inf]
    # the 0-1 loss is 1 for a wrong prediction (the notes print the opposite)
    assert M.pointwise_loss("0-1", [1, 2], [1, 3]).tolist() == [0.0, 1.0]


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------


def test_lengths_differ():
    with pytest.raises(ValueError, match="y_true and y_pred have different lengths: 3 and 2"):
        M.accuracy_score([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="y_true and y_score have different lengths"):
        M.roc_curve([0, 1, 1], [0.2, 0.4])
    with pytest.raises(ValueError, match="y_true and y_prob have different lengths"):
        M.log_loss([0, 1, 1], [0.2, 0.4])
    with pytest.raises(ValueError, match="y_true and y_pred have different lengths"):
        M.mean_squared_error([0.0, 1.0], [1.0])
    with pytest.raises(ValueError, match="sample_weight has 2 entries, but there are 3"):
        M.confusion_matrix([0, 1, 1], [0, 1, 0], sample_weight=[1, 1])


def test_empty_arrays():
    with pytest.raises(ValueError, match="y_true is empty"):
        M.accuracy_score([], [])
    with pytest.raises(ValueError, match="y_true is empty"):
        M.roc_auc_score([], [])
    with pytest.raises(ValueError, match="y_true is empty"):
        M.r2_score([], [])


def test_single_class_for_roc_and_auc():
    with pytest.raises(ValueError, match="no negative sample"):
        M.roc_curve([1, 1, 1], [0.2, 0.3, 0.9])
    with pytest.raises(ValueError, match="no positive sample"):
        M.roc_curve([0, 0], [0.2, 0.3])
    with pytest.raises(ValueError, match="exactly two classes"):
        M.roc_auc_score([1, 1, 1], [0.2, 0.3, 0.9])
    with pytest.raises(ValueError, match="no positive sample"):
        M.precision_recall_curve([0, 0], [0.2, 0.3])


def test_probabilities_outside_unit_interval():
    with pytest.raises(ValueError, match=r"y_prob must contain probabilities in \[0, 1\]"):
        M.log_loss([0, 1], [0.2, 1.3])
    with pytest.raises(ValueError, match=r"y_prob must contain probabilities in \[0, 1\]"):
        M.log_loss([0, 1], [-0.1, 0.3])
    with pytest.raises(ValueError, match="f \\(the probability of y = 1\\) in \\[0, 1\\]"):
        M.pointwise_loss("log", [0, 1], [0.5, 2.0])


def test_unknown_average():
    with pytest.raises(ValueError, match="average must be one of .* got 'samples'"):
        M.f1_score([0, 1], [0, 1], average="samples")


def test_binary_average_on_multiclass_data():
    with pytest.raises(ValueError, match="average='binary' needs two classes"):
        M.precision_score([0, 1, 2], [0, 1, 2])


def test_pos_label_not_among_labels():
    with pytest.raises(ValueError, match="pos_label=1 is not among the labels"):
        M.recall_score(["a", "b"], ["a", "b"])
    with pytest.raises(ValueError, match="pos_label='z' is not among the labels of y_true"):
        M.roc_curve(["a", "b"], [0.1, 0.2], pos_label="z")
    with pytest.raises(ValueError, match="pass pos_label to say which one is the positive"):
        M.roc_curve(["a", "b"], [0.1, 0.2])


@pytest.mark.parametrize("beta,match", [(0.0, "beta must be > 0.0"), (-1.0, "beta must be > 0.0"),
                                        (np.inf, "beta must be finite")])
def test_beta_must_be_positive(beta, match):
    with pytest.raises(ValueError, match=match):
        M.fbeta_score([0, 1], [0, 1], beta=beta)
    with pytest.raises(ValueError, match=match):
        M.fbeta_of_macro_averages([0, 1], [0, 1], beta=beta)


def test_nan_in_y_score():
    with pytest.raises(ValueError, match="y_score contains NaN"):
        M.roc_curve([0, 1], [0.1, np.nan])
    with pytest.raises(ValueError, match="y_score contains NaN"):
        M.roc_auc_score([0, 1], [np.nan, 0.3])
    with pytest.raises(ValueError, match="y_score contains NaN"):
        M.break_even_point([0, 1], [np.nan, 0.3])


def test_other_bad_input():
    with pytest.raises(ValueError, match="y_pred looks continuous"):
        M.accuracy_score([0, 1], [0.5, 1.0])
    with pytest.raises(TypeError, match="mix strings and numbers"):
        M.accuracy_score(["a", "b"], [0, 1])
    with pytest.raises(ValueError, match="zero_division must be in"):
        M.precision_score([0, 1], [0, 1], zero_division=2.0)
    with pytest.raises(ValueError, match="x is neither increasing nor decreasing"):
        M.auc([0, 2, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="kind must be one of"):
        M.pointwise_loss("hinge", [1], [1])
    with pytest.raises(ValueError, match="labels: at least one of the given labels"):
        M.confusion_matrix([0, 1], [0, 1], labels=[5])
    with pytest.raises(ValueError, match="single class"):
        M.log_loss([1, 1], [0.3, 0.4])
    with pytest.raises(ValueError, match="y_true needs at least two samples"):
        M.r2_score([1.0], [1.0])


# ---------------------------------------------------------------------------
# small random inputs against scikit-learn (edge cases: absent classes, ties)
# ---------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.floats(0.1, 3.0)),
                min_size=1, max_size=25),
       st.sampled_from([None, "micro", "macro", "weighted", "binary"]),
       st.sampled_from([0.0, 1.0]), st.booleans())
def test_prfs_small_inputs_match_sklearn(rows, average, zero_division, weighted):
    import warnings

    yt = np.array([a for a, _, _ in rows])
    yp = np.array([b for _, b, _ in rows])
    sw = np.array([w for _, _, w in rows]) if weighted else None
    if average == "binary":  # binary targets only: fold the classes onto {0, 1}
        yt, yp = yt % 2, yp % 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn's UndefinedMetricWarning
        theirs = skm.precision_recall_fscore_support(yt, yp, average=average, sample_weight=sw,
                                                     zero_division=zero_division)
    ours = M.precision_recall_fscore_support(yt, yp, average=average, sample_weight=sw,
                                             zero_division=zero_division)
    _compare_prfs(ours, theirs)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 5), st.floats(0.1, 3.0)),
                min_size=2, max_size=25), st.booleans(), st.booleans())
def test_curves_small_inputs_match_sklearn(rows, weighted, drop):
    y = np.array([a for a, _, _ in rows], dtype=int)
    s = np.array([b for _, b, _ in rows], dtype=float)
    sw = np.array([w for _, _, w in rows]) if weighted else None
    if len(np.unique(y)) < 2:
        return
    for ours, theirs in [
        (M.roc_curve(y, s, sample_weight=sw, drop_intermediate=drop),
         skm.roc_curve(y, s, sample_weight=sw, drop_intermediate=drop)),
        (M.precision_recall_curve(y, s, sample_weight=sw, drop_intermediate=drop),
         skm.precision_recall_curve(y, s, sample_weight=sw, drop_intermediate=drop)),
    ]:
        for a, b in zip(ours, theirs):
            np.testing.assert_allclose(a, b, rtol=TOL, atol=TOL)
    assert M.average_precision_score(y, s, sample_weight=sw) == pytest.approx(
        skm.average_precision_score(y, s, sample_weight=sw), abs=TOL)


@pytest.mark.parametrize("yt,yp", [(["a", "a"], ["a", "a"]), ([0, 0], [0, 0]), ([1, 1], [1, 1])])
def test_binary_scores_with_a_single_label(yt, yp):
    # pos_label=1 absent (or the only label): scikit-learn's values, no error
    for name in ("precision_score", "recall_score", "f1_score"):
        assert getattr(M, name)(yt, yp) == getattr(skm, name)(yt, yp, zero_division=0.0)


@pytest.mark.parametrize("call,name", [
    (lambda v: M.accuracy_score([0, 1], [0, 0], normalize=v), "normalize"),
    (lambda v: M.zero_one_loss([0, 1], [0, 0], normalize=v), "normalize"),
    (lambda v: M.roc_curve([0, 1, 1], [0.1, 0.4, 0.8], drop_intermediate=v), "drop_intermediate"),
    (lambda v: M.precision_recall_curve([0, 1, 1], [0.1, 0.4, 0.8], drop_intermediate=v),
     "drop_intermediate"),
])
def test_bool_parameters_take_numpy_bools_and_refuse_strings(call, name):
    # guards against: normalize="no" normalised ("no" is truthy)
    call(np.False_)
    with pytest.raises(TypeError, match=f"{name} must be True or False"):
        call("no")


def test_cost_curve_corners_never_step_back():
    # guards against: nearly collinear hull edges gave P(+)cost corners 5.6e-17 out of
    # order, so auc(pc, cost) refused them as "neither increasing nor decreasing"
    # (hypothesis found n=100, seed=10**6 in test_cost_curve_lies_under_the_trivial_classifiers)
    rng = np.random.default_rng(10**6)
    y = rng.integers(0, 2, 100)
    y[:2] = [0, 1]
    s = np.round(rng.normal(size=100), 1)
    pc, cost = M.cost_curve(y, s)
    assert np.all(np.diff(pc) >= 0)
    assert 0.0 <= M.auc(pc, cost) <= 0.25
