"""mlbook.exceptions: one class per exception and warning, whichever module raises it."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from mlbook import _validation, exceptions, linear_model, neural_network, svm


def test_one_convergence_warning_for_every_solver():
    # three classes before: a filter for linear_model's let svm's and the networks' through
    assert (linear_model.ConvergenceWarning is svm.ConvergenceWarning
            is neural_network.ConvergenceWarning is exceptions.ConvergenceWarning)
    assert _validation.NotFittedError is exceptions.NotFittedError
    assert _validation.DataConversionWarning is exceptions.DataConversionWarning
    assert linear_model.SeparableDataWarning is exceptions.SeparableDataWarning
    assert issubclass(exceptions.QuasiSeparableDataWarning, exceptions.SeparableDataWarning)


def test_one_filter_silences_every_solver():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 1, 0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", exceptions.ConvergenceWarning)
        linear_model.LinearRegression(solver="gd", max_iter=2).fit(X, y.astype(float))
        svm.SVC(max_iter=1).fit(X, y)
        neural_network.MLPClassifier((2,), max_iter=1, random_state=0).fit(X, y)


def test_not_fitted_error_is_both_value_and_attribute_error():
    # scikit-learn's NotFittedError is both, so code catching either keeps working
    with pytest.raises(ValueError):
        svm.SVC().predict([[0.0]])
    with pytest.raises(AttributeError):
        svm.SVC().predict([[0.0]])
