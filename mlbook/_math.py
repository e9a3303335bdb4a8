"""The numerically stable formulas several modules share: one of each.

:func:`expit` (the logistic sigmoid), :func:`softmax` and :func:`logsumexp`
are written once here; ``mlbook.linear_model.expit``,
``mlbook.neural_network.softmax`` and ``mlbook.naive_bayes.logsumexp`` are
these functions, re-exported where the chapters use them. :func:`pow2_scale`
rescales data whose squares would leave the float64 range (kernels, the SVM's
kernel cache, the elastic net).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = ["expit", "softmax", "logsumexp", "pow2_scale"]


def expit(z: Any) -> np.ndarray:
    r"""The logistic sigmoid :math:`\sigma(z) = 1 / (1 + e^{-z})`, without overflow.

    Parameters
    ----------
    z : array-like of any shape

    Returns
    -------
    ndarray of the same shape, values in [0, 1]

    Notes
    -----
    Only :math:`e^{-|z|} \le 1` is ever computed: for :math:`z \ge 0`,
    :math:`\sigma(z) = 1 / (1 + e^{-z})`, and for :math:`z < 0`,
    :math:`\sigma(z) = e^{z} / (1 + e^{z})`. Both forms are the same function.

    Examples
    --------
    >>> expit(np.array([-1000.0, 0.0, 1000.0]))
    array([0. , 0.5, 1. ])
    """
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(-np.abs(z))                      # in (0, 1]: never overflows
    return np.where(z >= 0, 1.0, e) / (1.0 + e)


def softmax(Z: Any) -> np.ndarray:
    r"""Softmax :math:`e^{z_k} / \sum_j e^{z_j}` along the last axis, shifted by its maximum.

    Parameters
    ----------
    Z : array-like of shape (n_classes,) or (n_samples, n_classes)
        One score vector, or one per row.

    Returns
    -------
    ndarray of the shape of ``Z``
        Non-negative entries that sum to 1 along the last axis.

    Examples
    --------
    >>> softmax([[0.0, 0.0], [1000.0, 0.0]]).round(6).tolist()
    [[0.5, 0.5], [1.0, 0.0]]
    >>> softmax([0.0, 0.0]).tolist()
    [0.5, 0.5]
    """
    Z = np.asarray(Z, dtype=np.float64)
    if Z.ndim == 0:
        raise ValueError("Z must be a 1-d score vector or a 2-d array of scores; got a scalar")
    E = np.exp(Z - Z.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def logsumexp(a: Any, axis: int = -1) -> np.ndarray:
    r"""Stable :math:`\log\sum_k e^{a_k}` along ``axis``.

    Subtracts the largest entry first, so that :math:`e^{a_k}` neither
    overflows nor underflows to 0 for every :math:`k`. Rows that are
    :math:`-\infty` everywhere give :math:`-\infty`, and so does an empty
    sum (:math:`\log 0`), as in SciPy.

    >>> float(logsumexp(np.array([-1000.0, -1000.0])))
    -999.3068528194401
    >>> float(logsumexp([]))
    -inf
    """
    if axis is not None and (isinstance(axis, (bool, np.bool_))
                             or not isinstance(axis, (numbers.Integral, np.integer))):
        raise TypeError(f"axis must be an int or None; got {axis!r}")
    a = np.asarray(a, dtype=np.float64)
    if a.size == 0:                             # an empty sum: log 0 = -inf
        with np.errstate(divide="ignore"):
            return np.log(np.sum(np.exp(a), axis=axis))
    m = np.max(a, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)) + m
    return np.squeeze(out, axis=axis)


def pow2_scale(A: np.ndarray) -> float:
    """1.0, or a power of two near ``max |A|`` when squaring A's entries would overflow or underflow.

    Dividing by a power of two is exact, so rescaled data give bit-for-bit the
    same products; the scale is used only outside [2**-500, 2**500], where a
    product of two entries leaves the float64 range.
    """
    m = float(np.max(np.abs(A))) if A.size else 0.0
    if not m > 0 or 2.0**-500 <= m <= 2.0**500:
        return 1.0
    return float(np.ldexp(1.0, int(np.frexp(m)[1]) - 1))   # 2**(e-1) <= m < 2**e
