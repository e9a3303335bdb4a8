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
