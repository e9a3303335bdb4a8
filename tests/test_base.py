"""BaseEstimator: parameters, repr, and scikit-learn's clone / cross_val_score."""

import numpy as np
import pytest

from mlbook.base import BaseEstimator, ClassifierMixin, RegressorMixin


class MajorityClassifier(ClassifierMixin, BaseEstimator):
    def __init__(self, tie="first", weight=1.0):
        self.tie = tie
        self.weight = weight

    def fit(self, X, y):
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


class MeanRegressor(RegressorMixin, BaseEstimator):
    def __init__(self, shift=0.0):
        self.shift = shift

    def fit(self, X, y):
        self.mean_ = np.mean(y) + self.shift
        return self

    def predict(self, X):
        return np.full(len(X), self.mean_)


def test_get_set_params_roundtrip():
    est = MajorityClassifier(tie="last")
    assert est.get_params() == {"tie": "last", "weight": 1.0}
    assert est.set_params(weight=2.0) is est
    assert est.weight == 2.0


def test_set_params_rejects_unknown_name():
    with pytest.raises(ValueError, match="invalid parameter 'alpha' for MajorityClassifier"):
        MajorityClassifier().set_params(alpha=1)


def test_repr_shows_only_non_defaults():
    assert repr(MajorityClassifier()) == "MajorityClassifier()"
    assert repr(MajorityClassifier(weight=3)) == "MajorityClassifier(weight=3)"


def test_varargs_init_is_refused():
    class Bad(BaseEstimator):
        def __init__(self, *args):
            self.args = args

    with pytest.raises(TypeError, match="must name every parameter"):
        Bad().get_params()


def test_scores():
    X = np.zeros((4, 1))
    assert MajorityClassifier().fit(X, [0, 0, 0, 1]).score(X, [0, 0, 0, 1]) == 0.75
    r2 = MeanRegressor().fit(X, [1.0, 2.0, 3.0, 4.0]).score(X, [1.0, 2.0, 3.0, 4.0])
    assert r2 == pytest.approx(0.0, abs=1e-12)


def test_sklearn_clone_and_cross_val_score_accept_our_estimators():
    sklearn = pytest.importorskip("sklearn")
    from sklearn.base import clone, is_classifier, is_regressor
    from sklearn.model_selection import cross_val_score

    est = MajorityClassifier(tie="last", weight=2.0)
    twin = clone(est)
    assert twin is not est and twin.get_params() == est.get_params()
    assert is_classifier(est) and is_regressor(MeanRegressor())
    X = np.arange(20.0).reshape(-1, 1)
    y = np.array([0] * 12 + [1] * 8)
    scores = cross_val_score(est, X, y, cv=4)
    # StratifiedKFold keeps 3 zeros and 2 ones in every fold: majority = 0 -> 3/5.
    np.testing.assert_allclose(scores, 0.6, rtol=0, atol=1e-12)
    assert sklearn.__version__


def test_sklearn_accepts_our_regressor_and_reads_the_tags():
    pytest.importorskip("sklearn")
    from sklearn.base import clone
    from sklearn.model_selection import KFold, cross_val_score

    est = MeanRegressor(shift=0.5)
    tags = est.__sklearn_tags__()
    assert tags.estimator_type == "regressor" and tags.target_tags.required
    assert MajorityClassifier().__sklearn_tags__().estimator_type == "classifier"
    assert clone(est).get_params() == {"shift": 0.5}
    X = np.zeros((6, 1))
    y = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    # two unshuffled folds: test on {1,2,3} after training on {4,5,6} (mean 5,
    # plus the shift 0.5), then the other way round; 1e-12: a few exact sums
    scores = cross_val_score(est, X, y, cv=KFold(2), scoring="neg_mean_squared_error")
    expected = [-np.mean((y[:3] - 5.5) ** 2), -np.mean((y[3:] - 2.5) ** 2)]
    np.testing.assert_allclose(scores, expected, rtol=0, atol=1e-12)
