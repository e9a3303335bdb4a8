"""mlbook.ensemble.VotingClassifier: hard and soft voting against scikit-learn, weights,
ties, "drop", sample weights, parameters, bad input."""

import numpy as np
import pytest

from mlbook.base import BaseEstimator, ClassifierMixin, clone
from mlbook.discriminant_analysis import LinearDiscriminantAnalysis
from mlbook.ensemble import VotingClassifier
from mlbook.exceptions import NotFittedError
from mlbook.linear_model import LogisticRegression
from mlbook.naive_bayes import GaussianNB
from mlbook.neural_network import MLPClassifier
from mlbook.svm import SVC


# the MLP member is stopped after 50 epochs on purpose (a third, different and fast member)
pytestmark = pytest.mark.filterwarnings("ignore::mlbook.exceptions.ConvergenceWarning")


def _data(seed, K, labels="int", n=90):
    """Three noisy features; K classes from a noisy score, so the members disagree."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    score = X[:, 0] + np.sin(2 * X[:, 1]) + X[:, 2] ** 2 + 0.8 * rng.normal(size=n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, K + 1)[1:-1]))
    return X, (np.array(["cat", "dog", "emu"])[y] if labels == "str" else y)


def _members():
    return [("nb", GaussianNB()), ("lda", LinearDiscriminantAnalysis()),
            ("mlp", MLPClassifier(hidden_layer_sizes=(4,), max_iter=50, learning_rate_init=0.05,
                                  random_state=0))]


class _Column(ClassifierMixin, BaseEstimator):
    """Predicts class index X[:, col] (a vote fixed by the data), probability one-hot."""

    def __init__(self, col=0):
        self.col = col

    def fit(self, X, y, sample_weight=None):
        self.classes_ = np.unique(y)
        self.sample_weight_ = sample_weight
        return self

    def predict(self, X):
        return self.classes_[np.asarray(X)[:, self.col].astype(int)]

    def predict_proba(self, X):
        return np.eye(self.classes_.shape[0])[np.asarray(X)[:, self.col].astype(int)]


# --- against scikit-learn ---------------------------------------------------------------

@pytest.mark.parametrize("voting", ["hard", "soft"])
@pytest.mark.parametrize("weights", [None, [1.0, 2.5, 0.7]])
@pytest.mark.parametrize("K, labels", [(2, "int"), (3, "int"), (3, "str")])
def test_voting_equals_sklearn(voting, weights, K, labels):
    sk_ens = pytest.importorskip("sklearn.ensemble")
    X, y = _data(K, K, labels)
    ours = VotingClassifier(_members(), voting=voting, weights=weights).fit(X, y)
    # scikit-learn's VotingClassifier clones and refits the same mlbook members, which
    # are deterministic (the MLP has a random_state), so both vote over the same members
    ref = sk_ens.VotingClassifier(_members(), voting=voting, weights=weights).fit(X, y)
    X_new = _data(K + 10, K)[0]
    member_labels = np.stack([h.predict(X_new) for h in ours.estimators_])
    assert (member_labels != member_labels[0]).any(), "the members never disagree: no test"
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    np.testing.assert_array_equal(ours.predict(X_new), ref.predict(X_new))
    if voting == "soft":
        # 1e-12: both take np.average of the same members' probabilities; only the
        # order of the floating-point sums could differ
        np.testing.assert_allclose(ours.predict_proba(X_new), ref.predict_proba(X_new),
                                   rtol=0, atol=1e-12)


def test_hard_vote_ties_and_weights_equal_sklearn():
    """Every vote pattern of three fixed voters over three classes, with and without weights,
    as scikit-learn decides it (argmax of the weighted bincount: ties to the smaller class)."""
    sk_ens = pytest.importorskip("sklearn.ensemble")
    grid = np.array(np.meshgrid(*[np.arange(3)] * 3)).reshape(3, -1).T.astype(float)   # (27, 3)
    y = np.array(["a", "b", "c"] * 9)
    members = [(f"c{j}", _Column(j)) for j in range(3)]
    for weights in (None, [1.0, 1.0, 2.0], [0.5, 2.0, 1.5], [1.0, 0.0, 1.0]):
        ours = VotingClassifier(members, weights=weights).fit(grid, y)
        ref = sk_ens.VotingClassifier(members, weights=weights).fit(grid, y)
        np.testing.assert_array_equal(ours.predict(grid), ref.predict(grid), err_msg=str(weights))


def test_hard_vote_rules_by_hand():
    X = np.array([[0, 1, 1], [0, 1, 2], [2, 1, 0], [2, 2, 0]], dtype=float)
    y = np.array([0, 1, 2, 0])
    members = [(f"c{j}", _Column(j)) for j in range(3)]
    # plurality: 1 beats 0; a three-way tie goes to class 0; 2 and 0 tie -> 0; 2 beats 0
    np.testing.assert_array_equal(VotingClassifier(members).fit(X, y).predict(X), [1, 0, 0, 2])
    # the third voter weighs as much as the other two: it wins unless they agree with it
    weighted = VotingClassifier(members, weights=[1, 1, 2]).fit(X, y)
    np.testing.assert_array_equal(weighted.predict(X), [1, 2, 0, 0])


# --- attributes, drop, sample weights ---------------------------------------------------

def test_fitted_attributes():
    X, y = _data(0, 3, "str")
    given = _members()
    vote = VotingClassifier(given, voting="soft").fit(X, y)
    assert [type(h) for h in vote.estimators_] == [type(e) for _, e in given]
    assert all(h is not e for h, (_, e) in zip(vote.estimators_, given))
    assert not hasattr(given[0][1], "classes_")                     # the given ones stay unfitted
    assert vote.named_estimators_.lda is vote.estimators_[1]
    assert vote.named_estimators_["nb"] is vote.estimators_[0]
    np.testing.assert_array_equal(vote.classes_, ["cat", "dog", "emu"])
    assert vote.n_features_in_ == 3
    assert vote.score(X, y) == np.mean(vote.predict(X) == y)


def test_drop_equals_leaving_the_member_out():
    X, y = _data(1, 3)
    with_drop = VotingClassifier([("nb", GaussianNB()), ("gone", "drop"),
                                  ("lda", LinearDiscriminantAnalysis())],
                                 voting="soft", weights=[1.0, 5.0, 3.0]).fit(X, y)
    without = VotingClassifier([("nb", GaussianNB()), ("lda", LinearDiscriminantAnalysis())],
                               voting="soft", weights=[1.0, 3.0]).fit(X, y)
    assert len(with_drop.estimators_) == 2 and with_drop.named_estimators_.gone == "drop"
    # 1e-15: the same two members, the same weights, the same average
    np.testing.assert_allclose(with_drop.predict_proba(X), without.predict_proba(X),
                               rtol=0, atol=1e-15)


def test_sample_weight_reaches_members_and_equals_sklearn():
    sk_ens = pytest.importorskip("sklearn.ensemble")
    X, y = _data(2, 2)
    w = np.random.default_rng(2).uniform(0.1, 3.0, size=y.shape[0])
    members = [("svc", SVC(kernel="linear")), ("c0", _Column(0))]
    X = np.column_stack([(X[:, 0] > 0).astype(float), X])
    vote = VotingClassifier(members).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(vote.named_estimators_.c0.sample_weight_, w)
    unweighted = VotingClassifier(members).fit(X, y)
    assert unweighted.named_estimators_.c0.sample_weight_ is None    # not passed when not given
    ref = sk_ens.VotingClassifier(members).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(vote.predict(X), ref.predict(X))


def test_sample_weight_with_a_member_that_does_not_take_it():
    X, y = _data(3, 2)
    vote = VotingClassifier([("c0", _Column(0)), ("nb", GaussianNB())])
    with pytest.raises(TypeError,
                       match="estimator 'nb' .*GaussianNB.* does not take sample_weight"):
        vote.fit(np.abs(X).round().clip(0, 1), y, sample_weight=np.ones(y.shape[0]))


def test_predict_proba_only_for_soft_voting():
    X, y = _data(4, 2)
    hard = VotingClassifier(_members()).fit(X, y)
    assert not hasattr(hard, "predict_proba")
    assert not hasattr(VotingClassifier(_members()), "predict_proba")
    with pytest.raises(AttributeError, match="voting='hard'"):
        hard.predict_proba(X)
    assert hasattr(VotingClassifier(_members(), voting="soft"), "predict_proba")


# --- parameters: get_params, set_params, clone ----------------------------------------

def test_get_params_lists_members_by_name():
    vote = VotingClassifier(_members(), voting="soft")
    shallow = vote.get_params(deep=False)
    assert set(shallow) == {"estimators", "voting", "weights"}
    deep = vote.get_params()
    assert deep["nb"] is vote.estimators[0][1]
    assert deep["mlp__hidden_layer_sizes"] == (4,)


def test_set_params_reaches_members():
    vote = VotingClassifier(_members())
    vote.set_params(mlp__max_iter=7, voting="soft")
    assert vote.estimators[2][1].max_iter == 7 and vote.voting == "soft"
    vote.set_params(lda="drop")
    assert vote.estimators[1] == ("lda", "drop")
    with pytest.raises(ValueError, match="invalid parameter 'tree'"):
        vote.set_params(tree=GaussianNB())


def test_clone_and_sklearn_cross_val_score():
    sk_ms = pytest.importorskip("sklearn.model_selection")
    X, y = _data(5, 3)
    vote = VotingClassifier(_members(), voting="soft", weights=[1, 2, 1])
    twin = clone(vote)
    assert twin.get_params(deep=False)["weights"] == [1, 2, 1]
    assert twin.estimators[0][1] is not vote.estimators[0][1]
    scores = sk_ms.cross_val_score(vote, X, y, cv=3)
    assert scores.shape == (3,) and np.all((0 <= scores) & (scores <= 1))


# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, error, match", [
    ({"estimators": []}, ValueError, "estimators must be a non-empty list"),
    ({"estimators": [("a", GaussianNB()), ("a", SVC())]}, ValueError, r"unique; repeated: \['a'\]"),
    ({"estimators": [(1, GaussianNB())]}, TypeError, "the name must be a string"),
    ({"estimators": [("a__b", GaussianNB())]}, ValueError, "contains '__'"),
    ({"estimators": [("weights", GaussianNB())]}, ValueError, "clashes with a parameter"),
    ({"estimators": [("a", "drop")]}, ValueError, "every member is 'drop'"),
    ({"estimators": [("a", GaussianNB)]}, TypeError,
     r"estimators\[0\] \('a'\) must be an estimator"),
    ({"estimators": [GaussianNB()]}, TypeError, r"estimators\[0\] must be a \(name, estimator\)"),
    ({"voting": "average"}, ValueError, "voting must be 'hard' or 'soft'; got 'average'"),
    ({"voting": "soft", "estimators": [("nb", GaussianNB()), ("svc", SVC())]}, ValueError,
     "voting='soft' needs predict_proba, but estimator 'svc'"),
    ({"weights": [1.0, 2.0]}, ValueError, "weights has 2 entries, but there are 3 estimators"),
    ({"weights": [1.0, -1.0, 2.0]}, ValueError, "weights must be non-negative"),
    ({"weights": [0.0, 0.0, 0.0]}, ValueError, "weights of the members .* are all zero"),
    ({"weights": [1.0, np.nan, 2.0]}, ValueError, "weights contains NaN"),
])
def test_bad_parameters(kwargs, error, match):
    X, y = _data(6, 2)
    params = {"estimators": _members(), **kwargs}
    with pytest.raises(error, match=match):
        VotingClassifier(**params).fit(X, y)


def test_predict_before_fit():
    with pytest.raises(NotFittedError, match="VotingClassifier is not fitted yet"):
        VotingClassifier(_members()).predict(np.zeros((2, 3)))


def test_bad_data():
    X, y = _data(7, 2)
    vote = VotingClassifier([("lr", LogisticRegression(penalty="l2"))])
    with pytest.raises(ValueError, match="X and y have different lengths"):
        vote.fit(X, y[:-1])
    with pytest.raises(ValueError, match="single class"):
        vote.fit(X, np.zeros(y.shape[0]))
    vote.fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features, but VotingClassifier is expecting 3"):
        vote.predict(X[:, :2])


def test_binary_only_when_a_member_is():
    assert VotingClassifier([("lr", LogisticRegression()), ("nb", GaussianNB())])._binary_only
    assert not VotingClassifier(_members())._binary_only
