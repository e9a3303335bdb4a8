"""mlbook.naive_bayes, semi-naive Bayes: AODE and TAN against brute-force loops of their formulas."""

import itertools

import numpy as np
import pytest

from mlbook.datasets import load_watermelon
from mlbook.naive_bayes import (AODE, TAN, CategoricalNB, conditional_mutual_information,
                                maximum_spanning_tree)

# Both sides evaluate the same closed forms in float64 (counts, then logs or products),
# summed in a different order: differences are a few ulps of numbers of order 1-10,
# so 1e-12 absolute (rtol=0) is rounding room and nothing more.
TOL = 1e-12


def _data(seed, n=60, d=4, k=(2, 3, 4, 3), n_classes=3):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, k[j], n) for j in range(d)])
    X[:, 1] = np.where(rng.random(n) < 0.6, X[:, 0], X[:, 1])     # dependent attributes
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    for j in range(d):                                            # every category present
        X[:k[j], j] = np.arange(k[j])
    return X, y


def _aode_brute(X, y, Xt, m_min, alpha):
    """Zhou (7.23)-(7.25) by explicit counting, one sample, class and attribute at a time.

    Returns the log of the average over qualifying super-parents of
    P(c, x_i) prod_j P(x_j | c, x_i), or naive Bayes with the smoothed prior when none
    qualifies.
    """
    classes = np.unique(y)
    n, d = X.shape
    N = len(classes)
    Ni = X.max(axis=0) + 1
    out = np.empty((len(Xt), N))
    for s, x in enumerate(Xt):
        parents = [i for i in range(d) if np.sum(X[:, i] == x[i]) >= m_min]
        for ci, c in enumerate(classes):
            if parents:
                total = 0.0
                for i in parents:
                    D_cxi = np.sum((y == c) & (X[:, i] == x[i]))
                    p = (D_cxi + alpha) / (n + alpha * N * Ni[i])
                    for j in range(d):
                        D_cxixj = np.sum((y == c) & (X[:, i] == x[i]) & (X[:, j] == x[j]))
                        p *= (D_cxixj + alpha) / (D_cxi + alpha * Ni[j])
                    total += p
                out[s, ci] = np.log(total / len(parents))
            else:
                Dc = np.sum(y == c)
                p = (Dc + alpha) / (n + alpha * N)
                for j in range(d):
                    p *= (np.sum((y == c) & (X[:, j] == x[j])) + alpha) / (Dc + alpha * Ni[j])
                out[s, ci] = np.log(p)
    return out


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("m_min,alpha", [(0, 1.0), (12, 0.5), (20, 2.0), (30, 1.0), (1000, 1.0)])
def test_aode_equals_brute_force(seed, m_min, alpha):
    X, y = _data(seed)
    Xt = _data(seed + 100)[0][:30]
    ours = AODE(m_min=m_min, alpha=alpha).fit(X, y)
    ref = _aode_brute(X, y, Xt, m_min, alpha)
    np.testing.assert_allclose(ours.predict_joint_log_proba(Xt), ref, rtol=0, atol=TOL)
    post = np.exp(ref - ref.max(axis=1, keepdims=True))
    np.testing.assert_allclose(ours.predict_proba(Xt), post / post.sum(axis=1, keepdims=True),
                               rtol=0, atol=TOL)


def test_aode_mixes_parents_and_fallback():
    # the brute-force test above covers samples with some but not all attributes as
    # super-parents (m_min=20) and a mix of fallback and AODE rows (m_min=30) only if
    # they occur on its data: check that they do
    X, y = _data(0)
    Xt = _data(100)[0][:30]
    n_par = AODE(m_min=20).fit(X, y).n_super_parents(Xt)
    assert ((n_par > 0) & (n_par < X.shape[1])).all() and np.unique(n_par).shape[0] > 1
    n_par = AODE(m_min=30).fit(X, y).n_super_parents(Xt)
    assert (n_par == 0).any() and (n_par > 0).any()


def test_aode_without_super_parent_is_naive_bayes():
    # no value reaches m_min: every sample is classified by CategoricalNB with the
    # smoothed prior (Zhou 7.19-7.20), the fallback of Webb et al.
    X, y = _data(1)
    Xt = _data(7)[0]
    ours = AODE(m_min=X.shape[0] + 1, alpha=0.7).fit(X, y)
    ref = CategoricalNB(alpha=0.7, smooth_prior=True).fit(X, y)
    np.testing.assert_allclose(ours.predict_joint_log_proba(Xt), ref.predict_joint_log_proba(Xt),
                               rtol=0, atol=TOL)


def test_one_super_parent_is_naive_bayes_on_the_pair_class():
    # Only attribute 0 (two values, ~100 samples each) reaches m_min; the others have
    # 25 values (~8 samples each). AODE is then the SPODE with parent x_0, which is naive
    # Bayes whose "class" is the pair (c, x_0): its smoothed prior is Zhou's (7.24) with
    # N * N_0 pairs, its conditionals are (7.25), and the factor of column 0 itself is
    # (|D_{c,x_0}| + a) / (|D_{c,x_0}| + a N_0), the j = i term of (7.23).
    rng = np.random.default_rng(3)
    n = 200
    X = np.column_stack([rng.integers(0, 2, n)] + [rng.integers(0, 25, n) for _ in range(3)])
    X[:25, 1:] = np.arange(25)[:, None]
    y = (rng.random(n) < 0.3 + 0.4 * X[:, 0]).astype(int)
    Xt = np.column_stack([rng.integers(0, 2, 50)] + [rng.integers(0, 25, 50) for _ in range(3)])
    m_min = 40
    aode = AODE(m_min=m_min, alpha=1.0).fit(X, y)
    assert (aode.n_super_parents(Xt) == 1).all()
    pair = y * 2 + X[:, 0]                        # the classes (c, x_0), all 4 present
    assert np.unique(pair).shape[0] == 4
    nb = CategoricalNB(alpha=1.0, smooth_prior=True).fit(X, pair)
    jll = nb.predict_joint_log_proba(Xt)          # (50, 4): columns (c, v) = 2c + v
    expected = jll[np.arange(50)[:, None], 2 * np.arange(2)[None, :] + Xt[:, [0]]]
    np.testing.assert_allclose(aode.predict_joint_log_proba(Xt), expected, rtol=0, atol=TOL)


def test_aode_on_watermelon_strings_equals_codes():
    # the string columns of watermelon 2.0 and their integer codes give the same model;
    # and the posterior of every melon equals the brute force on the codes
    wm = load_watermelon("2.0")
    codes = np.column_stack([np.unique(c, return_inverse=True)[1] for c in wm.data.T])
    a = AODE(m_min=0).fit(wm.data, wm.target).predict_proba(wm.data)
    b = AODE(m_min=0).fit(codes, wm.target).predict_proba(codes)
    np.testing.assert_allclose(a, b, rtol=0, atol=TOL)
    ref = _aode_brute(codes, wm.target, codes, 0, 1.0)
    post = np.exp(ref - ref.max(axis=1, keepdims=True))
    np.testing.assert_allclose(a, post / post.sum(axis=1, keepdims=True), rtol=0, atol=TOL)


def test_aode_log_sum_exp_does_not_underflow():
    # 400 attributes: each SPODE's product is far below 1e-308, the posterior is not NaN
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, (80, 400))
    y = rng.integers(0, 2, 80)
    p = AODE(m_min=0).fit(X, y).predict_proba(X[:5])
    assert np.isfinite(p).all()
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-12)


def test_aode_unseen_category_follows_the_smoothing_rule():
    # a value never seen in fit is a category with count 0: never a super-parent while
    # m_min > 0, and alpha / (|D_{c,x_i}| + alpha N_j) as a child, N_j as in fit. The
    # brute force counts code 9 (0 times) with N_j from the training data: the same rule.
    X, y = _data(2)
    Xt = _data(3)[0][:10].copy()
    Xt[:, 2] = 9                                   # never seen in fit (codes 0..3)
    aode = AODE(m_min=5, alpha=1.0).fit(X, y)
    assert (aode.n_super_parents(Xt) < X.shape[1]).all()
    ref = _aode_brute(X, y, Xt, 5, 1.0)           # counts of code 9 are 0; N_j stays 4
    np.testing.assert_allclose(aode.predict_joint_log_proba(Xt), ref, rtol=0, atol=TOL)
    with pytest.raises(ValueError, match="probability zero under every class"):
        AODE(m_min=5, alpha=0.0).fit(X, y).predict(Xt)


@pytest.mark.parametrize("kw,match", [({"m_min": -1}, "m_min"), ({"alpha": -0.5}, "alpha"),
                                      ({"m_min": "30"}, "m_min")])
def test_aode_bad_parameters(kw, match):
    X, y = _data(0)
    with pytest.raises((ValueError, TypeError), match=match):
        AODE(**kw).fit(X, y)


def test_aode_refuses_a_continuous_column():
    wm = load_watermelon("3.0")                    # density and sugar are floats
    with pytest.raises(ValueError, match=r"column 6 of X .*non-integer"):
        AODE().fit(wm.data, wm.target)
    X, y = _data(0)
    aode = AODE().fit(X, y)
    with pytest.raises(ValueError, match=r"column 1 of X .*non-integer"):
        aode.predict(np.column_stack([X[:, :1], X[:, 1:2] + 0.5, X[:, 2:]]))


# --- TAN ---------------------------------------------------------------------------------

def _cmi_brute(X, y):
    n, d = X.shape
    out = np.zeros((d, d))
    for i in range(d):
        for j in range(d):
            for c in np.unique(y):
                for v in np.unique(X[:, i]):
                    for w in np.unique(X[:, j]):
                        nvwc = np.sum((X[:, i] == v) & (X[:, j] == w) & (y == c))
                        if nvwc == 0:
                            continue
                        nc = np.sum(y == c)
                        p_vw_c = nvwc / nc
                        p_v_c = np.sum((X[:, i] == v) & (y == c)) / nc
                        p_w_c = np.sum((X[:, j] == w) & (y == c)) / nc
                        out[i, j] += nvwc / n * np.log(p_vw_c / (p_v_c * p_w_c))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_cmi_equals_brute_force(seed):
    X, y = _data(seed)
    np.testing.assert_allclose(conditional_mutual_information(X, y), _cmi_brute(X, y),
                               rtol=0, atol=TOL)


def test_cmi_on_watermelon_strings():
    wm = load_watermelon("2.0")
    codes = np.column_stack([np.unique(c, return_inverse=True)[1] for c in wm.data.T])
    np.testing.assert_allclose(conditional_mutual_information(wm.data, wm.target),
                               _cmi_brute(codes, wm.target), rtol=0, atol=TOL)


def _all_spanning_trees(d):
    """Every spanning tree of the complete graph on d vertices, from Pruefer sequences."""
    for seq in itertools.product(range(d), repeat=d - 2):
        degree = np.ones(d, dtype=int)
        for v in seq:
            degree[v] += 1
        edges = []
        for v in seq:
            leaf = int(np.flatnonzero(degree == 1)[0])
            edges.append(frozenset((leaf, v)))
            degree[leaf] -= 1
            degree[v] -= 1
        u, w = np.flatnonzero(degree == 1)
        edges.append(frozenset((int(u), int(w))))
        yield frozenset(edges)


def _edges(parent):
    return frozenset(frozenset((j, int(p))) for j, p in enumerate(parent) if p >= 0)


@pytest.mark.parametrize("d", [4, 5])
@pytest.mark.parametrize("seed", range(5))
def test_maximum_spanning_tree_against_all_trees(d, seed):
    trees = list(_all_spanning_trees(d))
    assert len(trees) == len(set(trees)) == d ** (d - 2)          # Cayley's formula
    rng = np.random.default_rng(seed)
    W = rng.random((d, d))
    W = W + W.T
    weight = {t: sum(W[tuple(e)] for e in t) for t in trees}
    best = max(trees, key=weight.get)
    for root in range(d):
        parent = maximum_spanning_tree(W, root=root)
        assert parent[root] == -1 and _edges(parent) == best
        for j in range(d):            # rooted: following parents from j reaches the root
            k, steps = j, 0
            while parent[k] >= 0 and steps <= d:
                k, steps = parent[k], steps + 1
            assert k == root


def test_maximum_spanning_tree_against_scipy():
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    rng = np.random.default_rng(0)
    for _ in range(10):
        W = rng.random((12, 12))
        W = W + W.T
        ref = csgraph.minimum_spanning_tree(-np.triu(W, 1)).toarray()
        ref_edges = frozenset(frozenset(map(int, e)) for e in np.argwhere(ref != 0))
        assert _edges(maximum_spanning_tree(W)) == ref_edges


def test_maximum_spanning_tree_bad_input():
    with pytest.raises(ValueError, match="symmetric"):
        maximum_spanning_tree(np.array([[0, 1], [2, 0]]))
    with pytest.raises(ValueError, match="square"):
        maximum_spanning_tree(np.ones((2, 3)))
    with pytest.raises(ValueError, match="root"):
        maximum_spanning_tree(np.ones((3, 3)), root=3)


def _tan_brute(X, y, Xt, parent, alpha):
    classes = np.unique(y)
    n, d = X.shape
    Ni = X.max(axis=0) + 1
    out = np.empty((len(Xt), len(classes)))
    for s, x in enumerate(Xt):
        for ci, c in enumerate(classes):
            Dc = np.sum(y == c)
            lp = np.log((Dc + alpha) / (n + alpha * len(classes)))
            for j in range(d):
                p = parent[j]
                if p < 0:
                    lp += np.log((np.sum((y == c) & (X[:, j] == x[j])) + alpha)
                                 / (Dc + alpha * Ni[j]))
                else:
                    D_cp = np.sum((y == c) & (X[:, p] == x[p]))
                    lp += np.log((np.sum((y == c) & (X[:, p] == x[p]) & (X[:, j] == x[j]))
                                  + alpha) / (D_cp + alpha * Ni[j]))
            out[s, ci] = lp
    return out


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("root", [0, 2])
def test_tan_equals_brute_force(seed, root):
    X, y = _data(seed)
    Xt = _data(seed + 50)[0][:20]
    tan = TAN(alpha=0.8, root=root).fit(X, y)
    np.testing.assert_array_equal(
        tan.parent_, maximum_spanning_tree(conditional_mutual_information(X, y), root=root))
    np.testing.assert_allclose(tan.predict_joint_log_proba(Xt),
                               _tan_brute(X, y, Xt, tan.parent_, 0.8), rtol=0, atol=TOL)


def test_tan_on_watermelon_tree():
    wm = load_watermelon("2.0")
    tan = TAN().fit(wm.data, wm.target)
    assert (tan.parent_ < 0).sum() == 1 and tan.parent_[0] == -1
    assert _edges(tan.parent_) == _edges(maximum_spanning_tree(tan.cmi_, root=3))


def test_tan_bad_input():
    X, y = _data(0)
    with pytest.raises(ValueError, match="alpha"):
        TAN(alpha=-1).fit(X, y)
    with pytest.raises(ValueError, match="root"):
        TAN(root=4).fit(X, y)


def test_tan_root_matters_only_through_the_smoothing():
    # unsmoothed, every direction of the tree gives the same product of factors
    # (P(a | b) P(b | c) = P(a, b | c)); with alpha = 1 the probabilities move a little
    wm = load_watermelon("2.0")
    j0 = TAN(alpha=0.0, root=0).fit(wm.data, wm.target).predict_joint_log_proba(wm.data)
    j3 = TAN(alpha=0.0, root=3).fit(wm.data, wm.target).predict_joint_log_proba(wm.data)
    finite = np.isfinite(j0)
    np.testing.assert_array_equal(finite, np.isfinite(j3))
    # the same counts multiplied in another grouping: rounding only
    np.testing.assert_allclose(j0[finite], j3[finite], rtol=0, atol=TOL)
    p0 = TAN(root=0).fit(wm.data, wm.target).predict_proba(wm.data)
    p3 = TAN(root=3).fit(wm.data, wm.target).predict_proba(wm.data)
    assert np.abs(p0 - p3).max() > 0.01
