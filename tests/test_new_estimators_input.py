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
