"""Small data sets shared by the bad-input tests of several modules (not a test module)."""

from __future__ import annotations

import numpy as np


def binary(n: int = 200, d: int = 4, seed: int = 0):
    """Two overlapping Gaussian classes (not separable, so the MLE exists), full rank."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, d)) + 1.2 * y[:, None] * np.linspace(1.0, 0.2, d)
    return X, y


def noisy_threshold(n: int = 40, d: int = 3, seed: int = 0):
    """Labels from the sign of the first feature plus noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int)
    return X, y


def category_codes(n: int = 40, d: int = 3, seed: int = 0):
    """Integer category codes 0..2 and labels from the first column."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(n, d))
    return X, (X[:, 0] > 0).astype(int)
