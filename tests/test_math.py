"""mlbook._math: the stable sigmoid, softmax, log-sum-exp and power-of-two scaling, one of each."""

from __future__ import annotations

import numpy as np
import pytest

from mlbook import _math, linear_model, naive_bayes, neural_network
from mlbook._math import expit, logsumexp, pow2_scale, softmax


def test_one_of_each_formula_wherever_a_chapter_imports_it():
    # the chapters import them from their own modules; there is one function behind each name
    assert linear_model.expit is neural_network.logistic is _math.expit
    assert neural_network.softmax is _math.softmax
    assert naive_bayes.logsumexp is _math.logsumexp


def test_expit_and_softmax_agree_on_two_classes():
    # softmax([0, z])[1] = 1 / (1 + e^-z): the same number by two formulas, a few ulps apart
    z = np.linspace(-30.0, 30.0, 61)
    two = softmax(np.column_stack([np.zeros_like(z), z]))[:, 1]
    np.testing.assert_allclose(two, expit(z), rtol=1e-14, atol=0)


def test_softmax_of_one_score_vector():
    # guards against: NumPy's AxisError; a 1-d vector is one row
    z = np.array([1.0, 2.0, 1000.0])
    assert np.array_equal(softmax(z), softmax(z[None, :])[0])   # the same operations: exact
    with pytest.raises(ValueError, match="Z must be a 1-d score vector"):
        softmax(3.0)


@pytest.mark.parametrize("shape,axis", [((0,), -1), ((3, 0), -1), ((0, 3), 0), ((0, 3), 1)])
def test_logsumexp_of_an_empty_sum_is_minus_infinity(shape, axis):
    # guards against: NumPy's "zero-size array to reduction operation maximum" error
    special = pytest.importorskip("scipy.special", reason="SciPy is the oracle")
    ours, theirs = logsumexp(np.zeros(shape), axis=axis), special.logsumexp(np.zeros(shape), axis=axis)
    assert np.shape(ours) == np.shape(theirs)
    assert np.array_equal(ours, theirs)      # exact: -inf everywhere (or an empty array)


@pytest.mark.parametrize("m, expected", [(1.0, 1.0), (2.0**400, 1.0), (2.0**600, 2.0**600),
                                         (3 * 2.0**600, 2.0**601), (2.0**-600, 2.0**-600)])
def test_pow2_scale_is_a_power_of_two_only_outside_the_safe_range(m, expected):
    # exact: the scale is a power of two read off the exponent of max |A|
    assert pow2_scale(np.array([[m, -m / 4]])) == expected
    assert pow2_scale(np.zeros((2, 2))) == 1.0


@pytest.mark.parametrize("axis", [1.5, "x", True])
def test_logsumexp_axis_must_be_an_int(axis):
    # guards against: NumPy's "'float' object cannot be interpreted as an integer"
    with pytest.raises(TypeError, match="axis must be an int or None"):
        logsumexp(np.zeros((2, 2)), axis=axis)
    # None: over every entry, as SciPy; log(4 e^0) = log 4 up to one rounding
    assert np.isclose(logsumexp(np.zeros((2, 2)), axis=None), np.log(4.0), rtol=1e-15, atol=0)
