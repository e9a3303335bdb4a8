"""Bad input of mlbook.ensemble, as scikit-learn's estimator checks want it.

These tests belong in ``tests/test_ensemble.py``; they wait here while
``mlbook.ensemble`` is reworked, and move there with it.
"""

from __future__ import annotations

import numpy as np
import pytest

from input_data import noisy_threshold
from mlbook.ensemble import AdaBoostClassifier, BaggingClassifier, RandomForestClassifier
from mlbook.exceptions import DataConversionWarning

ENSEMBLES = [AdaBoostClassifier, BaggingClassifier, RandomForestClassifier]


@pytest.mark.parametrize("Est", ENSEMBLES, ids=lambda c: c.__name__)
def test_ensemble_predict_names_the_expected_feature_count(Est):
    X, y = noisy_threshold()
    model = Est(random_state=0).fit(X, y)
    with pytest.raises(ValueError, match=f"X has 2 features, but {Est.__name__} is expecting "
                                         "3 features as input"):
        model.predict(X[:, :2])


@pytest.mark.parametrize("Est", ENSEMBLES, ids=lambda c: c.__name__)
def test_ensemble_column_vector_y_warns_and_fits_the_same(Est):
    X, y = noisy_threshold()
    flat = Est(random_state=0).fit(X, y).predict_proba(X)
    with pytest.warns(DataConversionWarning, match="A column-vector y was passed"):
        column = Est(random_state=0).fit(X, y[:, None]).predict_proba(X)
    np.testing.assert_array_equal(column, flat)


def test_adaboost_all_zero_sample_weights_is_an_error():
    X, y = noisy_threshold()
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        AdaBoostClassifier().fit(X, y, sample_weight=np.zeros(len(y)))
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        AdaBoostClassifier().fit(X, y, sample_weight=-np.ones(len(y)))

