"""mlbook.ensemble.StackingClassifier: out-of-fold meta-features, against scikit-learn's
StackingClassifier, the stack methods, cv, parameters, bad input."""

import numpy as np
import pytest

from mlbook.base import BaseEstimator, ClassifierMixin, clone
from mlbook.discriminant_analysis import LinearDiscriminantAnalysis
from mlbook.ensemble import StackingClassifier
from mlbook.exceptions import NotFittedError
from mlbook.linear_model import LogisticRegression
from mlbook.model_selection import KFold, StratifiedKFold
from mlbook.naive_bayes import GaussianNB
from mlbook.svm import SVC


def _data(seed, K, labels="int", n=80):
    """Three noisy features, K classes from a noisy score (no class is separable)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    score = X[:, 0] + np.sin(2 * X[:, 1]) + X[:, 2] ** 2 + 0.8 * rng.normal(size=n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, K + 1)[1:-1]))
    return X, (np.array(["cat", "dog", "emu"])[y] if labels == "str" else y)


class _Centroid(ClassifierMixin, BaseEstimator):
    """Nearest (weighted) class mean: a member with predict only, which takes sample_weight."""

    def __init__(self, shrink=0.0):
        self.shrink = shrink

    def fit(self, X, y, sample_weight=None):
        self.classes_, codes = np.unique(y, return_inverse=True)
        w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight)
        onehot = np.eye(self.classes_.shape[0])[codes] * w[:, None]          # (n, K)
        self.centroids_ = (1 - self.shrink) * (onehot.T @ X) / onehot.sum(axis=0)[:, None]
        return self

    def predict(self, X):
        d = ((np.asarray(X)[:, None, :] - self.centroids_[None]) ** 2).sum(axis=2)
        return self.classes_[np.argmin(d, axis=1)]


def _members():
    """One member per stack method: predict_proba, decision_function, predict."""
    return [("nb", GaussianNB()), ("svc", SVC(kernel="linear")), ("centroid", _Centroid())]


def test_int_cv_folds_are_sklearns():
    """cv=k means StratifiedKFold(k) without shuffling, which is scikit-learn's choice too."""
    sk_ms = pytest.importorskip("sklearn.model_selection")
    for K, labels in [(2, "int"), (3, "str")]:
        X, y = _data(K, K, labels, n=83)
        ours = list(StratifiedKFold(5).split(X, y))
        ref = list(sk_ms.StratifiedKFold(5).split(X, y))
        for (a, b), (c, d) in zip(ours, ref):
            np.testing.assert_array_equal(a, c)
            np.testing.assert_array_equal(b, d)


@pytest.mark.parametrize("K, labels, final", [(2, "int", None), (2, "str", None),
                                              (3, "int", "nb"), (3, "str", "lda")])
def test_stacking_equals_sklearn(K, labels, final):
    sk_ens = pytest.importorskip("sklearn.ensemble")
    X, y = _data(K, K, labels)
    finals = {None: None, "nb": GaussianNB(), "lda": LinearDiscriminantAnalysis()}
    ours = StackingClassifier(_members(), final_estimator=finals[final]).fit(X, y)
    # scikit-learn clones and fits the same deterministic mlbook members on the same
    # folds (its check_cv gives StratifiedKFold(5) without shuffling, as ours)
    ref = sk_ens.StackingClassifier(
        _members(), final_estimator=LogisticRegression() if final is None else finals[final],
        cv=5).fit(X, y)
    X_new = _data(K + 20, K)[0]
    assert ours.stack_method_ == ref.stack_method_ == ["predict_proba", "decision_function",
                                                       "predict"]
    # 1e-12: the same members give the same numbers; only rounding in different but
    # equivalent array operations could differ
    np.testing.assert_allclose(ours.transform(X_new), ref.transform(X_new), rtol=0, atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X_new), ref.predict(X_new))
    np.testing.assert_allclose(ours.predict_proba(X_new), ref.predict_proba(X_new),
                               rtol=0, atol=1e-12)


def test_sample_weight_equals_sklearn():
    sk_ens = pytest.importorskip("sklearn.ensemble")
    X, y = _data(5, 2)
    w = np.random.default_rng(5).uniform(0.1, 3.0, size=y.shape[0])
    members = [("svc", SVC(kernel="linear")), ("centroid", _Centroid())]
    final = SVC(kernel="linear")
    ours = StackingClassifier(members, final_estimator=final).fit(X, y, sample_weight=w)
    ref = sk_ens.StackingClassifier(members, final_estimator=final).fit(X, y, sample_weight=w)
    plain = StackingClassifier(members, final_estimator=final).fit(X, y)
    # 1e-10: the same SMO solves on the same weighted folds, to the same stopping rule
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X),
                               rtol=0, atol=1e-10)
    assert not np.allclose(ours.decision_function(X), plain.decision_function(X),
                           rtol=0, atol=1e-6), "the weights changed nothing: no test"


def test_final_estimator_is_fitted_out_of_fold():
    """The meta-features the final estimator learns from are the members' predictions on the
    fold each sample was held out of, built here by hand."""
    X, y = _data(1, 2)
    stack = StackingClassifier(_members(), final_estimator=GaussianNB(), cv=4).fit(X, y)
    meta = np.empty((X.shape[0], 3))
    for train, test in StratifiedKFold(4).split(X, y):
        nb, svc, cen = (clone(e).fit(X[train], y[train]) for _, e in _members())
        meta[test, 0] = nb.predict_proba(X[test])[:, 1]          # two classes: column 1 only
        meta[test, 1] = svc.decision_function(X[test])
        meta[test, 2] = np.searchsorted(stack.classes_, cen.predict(X[test]))
    by_hand = GaussianNB().fit(meta, y)
    # 1e-12: the same Gaussian fits on the same numbers
    np.testing.assert_allclose(stack.final_estimator_.theta_, by_hand.theta_, rtol=0, atol=1e-12)
    # and the in-sample meta-features (refitted members) are not what it learnt from
    assert not np.allclose(stack.transform(X), meta, rtol=0, atol=1e-6)


def test_refitted_members_and_attributes():
    X, y = _data(2, 3, "str")
    stack = StackingClassifier(_members(), final_estimator=GaussianNB()).fit(X, y)
    for h, (name, e) in zip(stack.estimators_, _members()):
        twin = clone(e).fit(X, y)                         # refitted on all the data
        np.testing.assert_array_equal(h.predict(X), twin.predict(X))
        assert stack.named_estimators_[name] is h
    assert stack.named_estimators_.svc is stack.estimators_[1]
    # three classes: 3 probability columns, 3 decision columns (one-vs-rest), 1 label column
    assert stack.transform(X).shape == (X.shape[0], 7)
    np.testing.assert_array_equal(stack.classes_, ["cat", "dog", "emu"])
    assert stack.n_features_in_ == 3
    assert set(stack.predict(X)) <= {"cat", "dog", "emu"}
    assert stack.score(X, y) == np.mean(stack.predict(X) == y)


def test_cv_as_splitter_or_folds_and_drop():
    X, y = _data(3, 2)
    by_int = StackingClassifier(_members(), cv=3).fit(X, y)
    folds = list(StratifiedKFold(3).split(X, y))
    for cv in (StratifiedKFold(3), folds):
        other = StackingClassifier(_members(), cv=cv).fit(X, y)
        np.testing.assert_array_equal(other.predict_proba(X), by_int.predict_proba(X))
    kfold = StackingClassifier(_members(), cv=KFold(3)).fit(X, y)
    assert not np.array_equal(kfold.final_estimator_.coef_, by_int.final_estimator_.coef_)
    dropped = StackingClassifier(_members()[:2] + [("centroid", "drop")]).fit(X, y)
    assert dropped.stack_method_ == ["predict_proba", "decision_function"]
    assert dropped.named_estimators_.centroid == "drop" and len(dropped.estimators_) == 2


def test_methods_follow_the_final_estimator():
    X, y = _data(4, 2)
    assert hasattr(StackingClassifier(_members()), "predict_proba")       # LogisticRegression
    svc_final = StackingClassifier(_members(), final_estimator=SVC()).fit(X, y)
    assert not hasattr(svc_final, "predict_proba")
    assert svc_final.decision_function(X).shape == (X.shape[0],)
    assert not hasattr(StackingClassifier(_members(), final_estimator=GaussianNB()),
                       "decision_function")


def test_params_clone_and_sklearn_cross_val_score():
    sk_ms = pytest.importorskip("sklearn.model_selection")
    stack = StackingClassifier(_members(), final_estimator=GaussianNB(), cv=3)
    deep = stack.get_params()
    assert deep["svc__kernel"] == "linear" and deep["final_estimator__var_smoothing"] == 1e-9
    stack.set_params(svc__C=0.5, final_estimator__var_smoothing=1e-6, cv=4)
    assert stack.estimators[1][1].C == 0.5 and stack.final_estimator.var_smoothing == 1e-6
    twin = clone(stack)
    assert twin.cv == 4 and twin.estimators[1][1] is not stack.estimators[1][1]
    X, y = _data(6, 3)
    scores = sk_ms.cross_val_score(stack, X, y, cv=3)
    assert scores.shape == (3,) and np.all((0 <= scores) & (scores <= 1))


# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, error, match", [
    ({"estimators": []}, ValueError, "estimators must be a non-empty list"),
    ({"estimators": [("a", GaussianNB()), ("a", SVC())]}, ValueError, r"unique; repeated: \['a'\]"),
    ({"estimators": [("cv", GaussianNB())]}, ValueError, "'cv' clashes with a parameter"),
    ({"estimators": [("a__b", GaussianNB())]}, ValueError, "contains '__'"),
    ({"estimators": [(None, GaussianNB())]}, TypeError, "the name must be a string"),
    ({"final_estimator": "logistic"}, TypeError, "final_estimator must be an estimator"),
    ({"final_estimator": GaussianNB}, TypeError, "final_estimator must be an estimator"),
    ({"cv": 1}, ValueError, "cv"),
    ({"cv": 2.5}, TypeError, "cv must be an int >= 2, a splitter"),
    ({"cv": True}, TypeError, "cv must be an int >= 2, a splitter"),
    ({"cv": "x"}, TypeError, "cv must be an int >= 2, a splitter"),     # str has a split method
    ({"cv": [(np.arange(40), np.arange(40))]}, ValueError, "test folds must partition"),
])
def test_bad_parameters(kwargs, error, match):
    X, y = _data(7, 2)
    params = {"estimators": _members(), **kwargs}
    with pytest.raises(error, match=match):
        StackingClassifier(**params).fit(X, y)


def test_cv_below_two_names_cv():
    X, y = _data(7, 2)
    with pytest.raises(ValueError, match=r"^cv .*(>= 2|at least 2)") as info:
        StackingClassifier(_members(), cv=1).fit(X, y)
    assert "n_splits" not in str(info.value)


def test_predict_before_fit():
    stack = StackingClassifier(_members())
    for method in ("predict", "predict_proba", "transform"):
        with pytest.raises(NotFittedError, match="StackingClassifier is not fitted yet"):
            getattr(stack, method)(np.zeros((2, 3)))


def test_sample_weight_with_a_member_that_does_not_take_it():
    X, y = _data(8, 2)
    with pytest.raises(TypeError, match="estimator 'nb' .*does not take sample_weight"):
        StackingClassifier(_members()).fit(X, y, sample_weight=np.ones(y.shape[0]))


def test_default_final_estimator_is_binary_and_says_so():
    X, y = _data(9, 3)
    with pytest.raises(ValueError, match=r"final_estimator LogisticRegression\(\) handles two "
                                         "classes only .* y has 3 classes"):
        StackingClassifier(_members()).fit(X, y)
    assert StackingClassifier(_members())._binary_only
    assert not StackingClassifier(_members(), final_estimator=GaussianNB())._binary_only
    sklearn_utils = pytest.importorskip("sklearn.utils")
    if hasattr(sklearn_utils, "get_tags"):                 # scikit-learn >= 1.6
        tags = sklearn_utils.get_tags(StackingClassifier(_members()))
        assert tags.classifier_tags.multi_class is False


def test_a_fold_without_a_class_warns_and_equals_sklearn():
    sk_ens = pytest.importorskip("sklearn.ensemble")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = np.array([0, 1] * 14 + [2, 2])
    X[-2:] += 3
    folds = [(np.arange(0, 20), np.arange(20, 30)), (np.arange(10, 30), np.arange(0, 10)),
             (np.r_[0:10, 20:30], np.arange(10, 20))]        # class 2 only in the last fold
    with pytest.warns(UserWarning, match=r"training part of fold 0 lacks the class\(es\) \[2\]"):
        ours = StackingClassifier([("nb", GaussianNB())], final_estimator=GaussianNB(),
                                  cv=folds).fit(X, y)
    with pytest.warns(RuntimeWarning, match="Number of classes in training fold"):
        ref = sk_ens.StackingClassifier([("nb", GaussianNB())], final_estimator=GaussianNB(),
                                        cv=folds).fit(X, y)
    # 1e-12: both give the missing class probability 0 in that fold's meta-features
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), rtol=0, atol=1e-12)
    with pytest.warns(UserWarning), pytest.raises(ValueError,
                                                  match="a training fold lacks a class"):
        StackingClassifier([("svc", SVC())], final_estimator=GaussianNB(), cv=folds).fit(X, y)
