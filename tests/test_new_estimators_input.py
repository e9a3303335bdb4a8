"""Input handling of the ensembles, naive Bayes and neural networks, as scikit-learn's checks want it.

Each test pins one fix made so that ``tests/test_check_estimator.py`` passes for
these estimators, with mlbook's own data and messages (the check itself runs
only where scikit-learn is installed).
"""

from __future__ import annotations

import numpy as np
import pytest

from mlbook._validation import DataConversionWarning
from mlbook.ensemble import AdaBoostClassifier, BaggingClassifier, RandomForestClassifier

ENSEMBLES = [AdaBoostClassifier, BaggingClassifier, RandomForestClassifier]


def _data(n: int = 40, d: int = 3, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int)
    return X, y


@pytest.mark.parametrize("Est", ENSEMBLES, ids=lambda c: c.__name__)
def test_ensemble_predict_names_the_expected_feature_count(Est):
    X, y = _data()
    model = Est(random_state=0).fit(X, y)
    with pytest.raises(ValueError, match=f"X has 2 features, but {Est.__name__} is expecting "
                                         "3 features as input"):
        model.predict(X[:, :2])


@pytest.mark.parametrize("Est", ENSEMBLES, ids=lambda c: c.__name__)
def test_ensemble_column_vector_y_warns_and_fits_the_same(Est):
    X, y = _data()
    flat = Est(random_state=0).fit(X, y).predict_proba(X)
    with pytest.warns(DataConversionWarning, match="A column-vector y was passed"):
        column = Est(random_state=0).fit(X, y[:, None]).predict_proba(X)
    np.testing.assert_array_equal(column, flat)


def test_adaboost_all_zero_sample_weights_is_an_error():
    X, y = _data()
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        AdaBoostClassifier().fit(X, y, sample_weight=np.zeros(len(y)))
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        AdaBoostClassifier().fit(X, y, sample_weight=-np.ones(len(y)))


# --- naive Bayes ---------------------------------------------------------------------

from mlbook.naive_bayes import CategoricalNB, GaussianNB, MixedNB  # noqa: E402

NAIVE_BAYES = [CategoricalNB, GaussianNB, MixedNB]


def _codes(n: int = 40, d: int = 3, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(n, d))
    return X, (X[:, 0] > 0).astype(int)


@pytest.mark.parametrize("Est", NAIVE_BAYES, ids=lambda c: c.__name__)
def test_naive_bayes_predict_names_the_expected_feature_count(Est):
    X, y = _codes()
    model = Est().fit(X, y)
    with pytest.raises(ValueError, match=f"X has 2 features, but {Est.__name__} is expecting "
                                         "3 features as input"):
        model.predict(X[:, :2])


@pytest.mark.parametrize("Est", NAIVE_BAYES, ids=lambda c: c.__name__)
def test_naive_bayes_column_vector_y_warns_and_fits_the_same(Est):
    X, y = _codes()
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
    model = Est().fit(*_codes())
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


# --- neural networks -------------------------------------------------------------

from mlbook.base import clone  # noqa: E402
from mlbook.neural_network import BPNetwork, MLPClassifier, MLPRegressor, Perceptron  # noqa: E402


def test_bp_network_decision_function_is_the_logit_of_the_output():
    # scikit-learn's convention: decision_function > 0 exactly where predict gives classes_[1]
    X, y = _data(60, 2)
    labels = np.where(y == 1, "yes", "no")
    net = BPNetwork(n_hidden=3, eta=0.5, max_iter=50, random_state=0).fit(X, labels)
    z = net.decision_function(X)
    assert z.shape == (60,)
    np.testing.assert_array_equal(net.predict(X), net.classes_[(z > 0).astype(int)])
    # the sigmoid of the net input is the network's output y_hat (Zhou's f(beta_j - theta_j))
    B = 1.0 / (1.0 + np.exp(-(X @ net.v_ - net.gamma_)))
    y_hat = 1.0 / (1.0 + np.exp(-(B @ net.w_ - net.theta_)))
    # rtol: one logistic evaluation each way, a few ulps apart at most
    np.testing.assert_allclose(1.0 / (1.0 + np.exp(-z)), y_hat[:, 0], rtol=1e-12, atol=0)


def test_bp_network_two_d_targets_predict_zero_one_per_output():
    X, y = _data(30, 2)
    Y = np.column_stack([y, 1 - y, y])
    net = BPNetwork(n_hidden=3, eta=0.5, max_iter=20, random_state=0).fit(X, Y)
    np.testing.assert_array_equal(net.classes_, [0, 1])
    assert net.predict(X).shape == (30, 3) and net.decision_function(X).shape == (30, 3)


@pytest.mark.parametrize("Est", [Perceptron, BPNetwork, MLPClassifier, MLPRegressor],
                         ids=lambda c: c.__name__)
def test_networks_say_y_is_required(Est):
    X, _ = _data()
    with pytest.raises(ValueError, match="requires y to be passed, but the target y is None"):
        Est().fit(X, None)


@pytest.mark.parametrize("Est", [BPNetwork, MLPRegressor], ids=lambda c: c.__name__)
def test_networks_refuse_complex_y(Est):
    # guards against: MLPRegressor dropped the imaginary part with a ComplexWarning at most
    X, y = _data()
    with pytest.raises(ValueError, match="y contains complex numbers"):
        Est().fit(X, y + 1j)


def test_mlp_regressor_multi_output_and_column_y():
    X, y = _data()
    reg = MLPRegressor((4,), max_iter=30, random_state=0)
    with pytest.warns(Warning):                  # ConvergenceWarning after 30 epochs
        flat = clone(reg).fit(X, y.astype(float)).predict(X)
    with pytest.warns(Warning):
        column = clone(reg).fit(X, y[:, None].astype(float)).predict(X)
    assert column.shape == (40, 1)               # a 2-d y is multi-output: no conversion
    np.testing.assert_array_equal(column[:, 0], flat)
