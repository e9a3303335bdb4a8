"""LinearDiscriminantAnalysis and the Fisher formulas: theory checks, scikit-learn oracle, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlbook._validation import NotFittedError
from mlbook.datasets import load_iris, load_watermelon, load_wine
from mlbook.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    fisher_direction,
    generalized_eigh,
    rayleigh_quotient,
    scatter_matrices,
)

skda = pytest.importorskip("sklearn.discriminant_analysis")


def _blobs(seed, n, d, k):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    A = rng.normal(size=(d, d))
    X = rng.normal(size=(n, d)) @ A + 2.0 * rng.normal(size=(k, d))[y]
    return X, y


def _datasets():
    yield "watermelon 3.0alpha", load_watermelon("3.0alpha", return_X_y=True)
    yield "iris", load_iris(return_X_y=True)
    yield "wine", load_wine(return_X_y=True)
    for seed, (n, d, k) in enumerate([(60, 3, 2), (90, 5, 3), (200, 8, 5)]):
        yield f"blobs {seed}", _blobs(seed, n, d, k)


DATA = list(_datasets())
IDS = [name for name, _ in DATA]


def _unit_columns(W):
    return W / np.linalg.norm(W, axis=0)


# --- the formulas ---------------------------------------------------------------

@pytest.mark.parametrize("name,data", DATA, ids=IDS)
def test_total_scatter_is_within_plus_between(name, data):
    X, y = data
    S_w, S_b = scatter_matrices(X, y)
    Xc = X - X.mean(axis=0)
    S_t = Xc.T @ Xc
    # 1e-12 relative to the size of S_t: three sums of the same n products.
    np.testing.assert_allclose(S_w + S_b, S_t, rtol=0, atol=1e-12 * np.abs(S_t).max())
    k = np.unique(y).size
    assert np.linalg.matrix_rank(S_b, tol=1e-9 * np.abs(S_b).max()) <= k - 1


@pytest.mark.parametrize("seed", range(5))
def test_fisher_direction_maximises_the_rayleigh_quotient(seed):
    X, y = _blobs(seed, 80, 4, 2)
    S_w, S_b = scatter_matrices(X, y)
    w = fisher_direction(X, y)
    J = rayleigh_quotient(w, S_b, S_w)
    rng = np.random.default_rng(seed)
    others = [rayleigh_quotient(v, S_b, S_w) for v in rng.normal(size=(500, 4))]
    assert J >= max(others)
    # And it is the largest generalised eigenvalue (1e-10 relative: two float64
    # computations of the same number).
    vals, _ = generalized_eigh(S_b, S_w)
    assert abs(J - vals[0]) <= 1e-10 * vals[0]


def test_fisher_direction_two_class_closed_form_matches_eigenproblem():
    X, y = load_watermelon("3.0alpha", return_X_y=True)
    w = fisher_direction(X, y)
    lda = LinearDiscriminantAnalysis().fit(X, y)
    v = lda.scalings_[:, 0] / np.linalg.norm(lda.scalings_[:, 0])
    # 1e-12: a linear solve and an eigensolver on a 2 x 2 problem.
    assert abs(abs(w @ v) - 1.0) < 1e-12


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6))
def test_generalized_eigh_solves_the_problem(seed, d):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(d, d))
    A = A + A.T
    R = rng.normal(size=(d, d))
    B = R @ R.T + 0.5 * np.eye(d)                  # positive definite
    vals, V = generalized_eigh(A, B)
    # Residual and B-orthonormality to 1e-8 relative to the sizes involved
    # (B's condition number is at most a few thousand here).
    scale = np.abs(A).max() + np.abs(B).max() * np.abs(vals).max()
    np.testing.assert_allclose(A @ V, B @ V * vals, rtol=0, atol=1e-8 * scale)
    np.testing.assert_allclose(V.T @ B @ V, np.eye(d), rtol=0, atol=1e-8)
    assert np.all(np.diff(vals) <= 0)


def test_generalized_eigh_on_a_singular_B_works_on_its_range():
    A = np.diag([1.0, 2.0, 3.0])
    B = np.diag([1.0, 1.0, 0.0])
    vals, V = generalized_eigh(A, B)
    assert vals.shape == (2,) and V.shape == (3, 2)
    np.testing.assert_allclose(vals, [2.0, 1.0], rtol=0, atol=1e-14)


# --- against scikit-learn ----------------------------------------------------------

@pytest.mark.parametrize("name,data", DATA, ids=IDS)
def test_projection_subspace_agrees_with_sklearn(name, data):
    X, y = data
    ours = LinearDiscriminantAnalysis().fit(X, y)
    theirs = skda.LinearDiscriminantAnalysis(solver="eigen").fit(X, y)
    m = ours.transform(X).shape[1]
    assert m == min(np.unique(y).size - 1, X.shape[1])
    # Directions up to sign and scale: the first one alone, then the whole
    # subspace through its principal angles (all cosines 1). 1e-8: two
    # symmetric eigensolvers; the eigenvalues are well separated on these data.
    a = _unit_columns(ours.scalings_[:, :m])
    b = _unit_columns(theirs.scalings_[:, :m])
    assert abs(abs(a[:, 0] @ b[:, 0]) - 1) < 1e-8, name
    cosines = np.linalg.svd(np.linalg.qr(a)[0].T @ np.linalg.qr(b)[0], compute_uv=False)
    np.testing.assert_allclose(cosines, 1.0, rtol=0, atol=1e-8)
    # explained_variance_ratio_: ratios of the same eigenvalues.
    np.testing.assert_allclose(ours.explained_variance_ratio_,
                               theirs.explained_variance_ratio_[:m], rtol=0, atol=1e-10)


@pytest.mark.parametrize("name,data", DATA, ids=IDS)
def test_predictions_agree_with_sklearn(name, data):
    X, y = data
    ours = LinearDiscriminantAnalysis().fit(X, y)
    theirs = skda.LinearDiscriminantAnalysis(solver="svd").fit(X, y)
    # Same Gaussian shared-covariance rule with Sigma = S_w / n: the same
    # classes, and posteriors equal to 1e-8 (different but exact linear algebra).
    assert np.array_equal(ours.predict(X), theirs.predict(X)), name
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-8)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-8,
                               atol=1e-8 * np.abs(theirs.coef_).max())
    assert ours.score(X, y) == theirs.score(X, y)


def test_projected_data_have_unit_within_class_covariance():
    X, y = load_wine(return_X_y=True)
    lda = LinearDiscriminantAnalysis().fit(X, y)
    Z = lda.transform(X)
    Zc = Z - np.array([Z[y == c].mean(axis=0) for c in lda.classes_])[np.searchsorted(lda.classes_, y)]
    # Scaled so that W^T Sigma W = I with Sigma = S_w / n: 1e-10.
    np.testing.assert_allclose(Zc.T @ Zc / len(y), np.eye(Z.shape[1]), rtol=0, atol=1e-10)


def test_gaussian_rule_is_nearest_centroid_in_the_discriminant_space():
    X, y = load_iris(return_X_y=True)
    lda = LinearDiscriminantAnalysis().fit(X, y)
    Z = lda.transform(X)
    centroids = lda.transform(lda.means_)
    d2 = ((Z[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    score = -0.5 * d2 + np.log(lda.priors_)
    assert np.array_equal(lda.classes_[np.argmax(score, axis=1)], lda.predict(X))


def test_n_components_and_labels():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    lda = LinearDiscriminantAnalysis(n_components=1).fit(X, names)
    assert lda.transform(X).shape == (150, 1)
    assert lda.classes_.tolist() == names[[0, 50, 100]].tolist()
    assert lda.fit_transform(X, names).shape == (150, 1)
    full = LinearDiscriminantAnalysis().fit(X, y)
    np.testing.assert_allclose(lda.transform(X)[:, 0], full.transform(X)[:, 0], rtol=0, atol=1e-12)


# --- bad input --------------------------------------------------------------------

def test_mismatched_lengths():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="X and y have different lengths"):
        LinearDiscriminantAnalysis().fit(X, y[:-1])


@pytest.mark.parametrize("bad,match", [(np.nan, "X contains NaN"), (np.inf, "X contains infinity")])
def test_nan_and_inf(bad, match):
    X, y = load_iris(return_X_y=True)
    X = X.copy()
    X[0, 0] = bad
    with pytest.raises(ValueError, match=match):
        LinearDiscriminantAnalysis().fit(X, y)


def test_single_class():
    X, _ = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="single class"):
        LinearDiscriminantAnalysis().fit(X, np.zeros(len(X)))


@pytest.mark.parametrize("n_components,err,match", [(3, ValueError, r"n_components must be <= min\(n_classes - 1, n_features\) = 2"),
                                                    (0, ValueError, "n_components must be >= 1"),
                                                    (1.5, TypeError, "n_components must be of type")])
def test_bad_n_components(n_components, err, match):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(err, match=match):
        LinearDiscriminantAnalysis(n_components=n_components).fit(X, y)


@pytest.mark.parametrize("method", ["transform", "predict", "predict_proba", "decision_function"])
def test_use_before_fit(method):
    X, _ = load_iris(return_X_y=True)
    with pytest.raises(NotFittedError, match="not fitted yet"):
        getattr(LinearDiscriminantAnalysis(), method)(X)


def test_wrong_number_of_features():
    X, y = load_iris(return_X_y=True)
    lda = LinearDiscriminantAnalysis().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features"):
        lda.transform(X[:, :3])


def test_fisher_direction_needs_two_classes_and_a_regular_S_w():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="exactly 2 classes"):
        fisher_direction(X, y)
    # A feature that is the sum of two others: S_w singular up to rounding.
    X2 = np.column_stack([X[:100, 0], X[:100, 1], X[:100, 0] + X[:100, 1]])
    with pytest.raises(ValueError, match="S_w is singular"):
        fisher_direction(X2, y[:100])


def test_collinear_feature_gives_the_same_projection_and_predictions():
    # A fifth feature equal to the sum of the first two makes S_w singular: no
    # crash, generalized_eigh works on the range of S_w, where the classes live.
    X, y = load_iris(return_X_y=True)
    X5 = np.column_stack([X, X[:, 0] + X[:, 1]])
    a = LinearDiscriminantAnalysis().fit(X, y)
    b = LinearDiscriminantAnalysis().fit(X5, y)
    assert np.array_equal(a.predict(X), b.predict(X5))
    # 1e-10 relative: the same eigenproblem, once with a (numerically) zero
    # direction of S_w dropped; observed differences are ~1e-14.
    np.testing.assert_allclose(np.abs(b.transform(X5)), np.abs(a.transform(X)),
                               rtol=0, atol=1e-10 * np.abs(a.transform(X)).max())
    np.testing.assert_allclose(b.predict_proba(X5), a.predict_proba(X), rtol=0, atol=1e-10)


def test_rayleigh_quotient_bad_shapes_and_null_direction():
    with pytest.raises(ValueError, match="S_b and S_w must have shape"):
        rayleigh_quotient([1.0, 0.0], np.eye(3), np.eye(3))
    with pytest.raises(ValueError, match="null space of S_w"):
        rayleigh_quotient([0.0, 1.0], np.eye(2), np.diag([1.0, 0.0]))


def test_generalized_eigh_bad_input():
    with pytest.raises(ValueError, match="square of the same shape"):
        generalized_eigh(np.eye(2), np.eye(3))
    with pytest.raises(ValueError, match="positive semi-definite"):
        generalized_eigh(np.eye(2), np.zeros((2, 2)))


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_lda_is_invariant_to_invertible_affine_maps(seed):
    # Replacing x by A x + c maps S_w, S_b to A S_w A^T, A S_b A^T, so the
    # projected data (up to the sign of each direction) and the predictions
    # are unchanged.
    X, y = _blobs(seed % 3, 90, 4, 3)
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(4, 4)) + 3 * np.eye(4)
    if np.linalg.cond(A) > 1e3:                      # keep the map well conditioned
        A = A + 5 * np.eye(4)
    c = rng.normal(size=4)
    a = LinearDiscriminantAnalysis().fit(X, y)
    b = LinearDiscriminantAnalysis().fit(X @ A.T + c, y)
    assert np.array_equal(a.predict(X), b.predict(X @ A.T + c))
    Za, Zb = a.transform(X), b.transform(X @ A.T + c)
    # 1e-8 relative: the condition number of A (<= ~1e3) times float64 rounding.
    np.testing.assert_allclose(np.abs(Za), np.abs(Zb), rtol=0, atol=1e-8 * np.abs(Za).max())


# --- bad and extreme input ----------------------------------------------------

def test_lda_constant_features_message():
    # guards against: "B is zero (or negative definite)"
    with pytest.raises(ValueError, match="no within-class variance.*every feature of X is constant"):
        LinearDiscriminantAnalysis().fit(np.ones((10, 2)), [0] * 5 + [1] * 5)

