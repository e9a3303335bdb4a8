"""Plots used across the book (matplotlib only, imported lazily).

Each function draws into an ``ax`` it is given (or a new one) and returns the
``ax``, so a chapter can combine several plots in one figure. Chapters add
their own functions to this module; keep each small, label the axes and give
a title.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["get_ax", "plot_decision_regions"]

#: Colours for up to six classes (colour-blind-safe, Okabe and Ito).
CLASS_COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]
MARKERS = ["o", "s", "^", "D", "v", "P"]


def get_ax(ax: Any = None, figsize: tuple[float, float] = (4.5, 3.5)):
    """Return ``ax``, or a new axes of a small figure when ``ax`` is None."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def plot_decision_regions(
    estimator: Any,
    X: np.ndarray,
    y: np.ndarray,
    *,
    ax: Any = None,
    resolution: int = 200,
    feature_names: tuple[str, str] = ("$x_1$", "$x_2$"),
    class_names: Any = None,
    title: str | None = None,
    pad: float = 0.05,
):
    """Shade the regions a fitted 2-feature classifier assigns to each class.

    Parameters
    ----------
    estimator : fitted classifier with ``predict``
    X : ndarray of shape (n_samples, 2)
        The points to draw (and the extent of the grid).
    y : ndarray of shape (n_samples,)
        Their labels.
    ax : matplotlib axes, optional
    resolution : int
        Grid points per axis.
    feature_names : pair of str
        Axis labels.
    class_names : sequence, optional
        Legend labels, indexed like ``np.unique(y)``.
    title : str, optional
    pad : float
        Margin around the data, as a fraction of its range.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have exactly 2 features to draw regions; got shape {X.shape}")
    ax = get_ax(ax)
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    lo, hi = lo - pad * span, hi + pad * span
    g0, g1 = np.meshgrid(np.linspace(lo[0], hi[0], resolution),
                         np.linspace(lo[1], hi[1], resolution))
    grid = np.column_stack([g0.ravel(), g1.ravel()])
    classes = np.unique(y)
    pred = np.asarray(estimator.predict(grid)).reshape(g0.shape)
    codes = np.searchsorted(classes, pred)
    from matplotlib.colors import ListedColormap

    cmap = ListedColormap(CLASS_COLORS[: len(classes)])
    ax.contourf(g0, g1, codes, levels=np.arange(len(classes) + 1) - 0.5, cmap=cmap, alpha=0.18)
    ax.contour(g0, g1, codes, levels=np.arange(len(classes)) + 0.5, colors="k", linewidths=0.8)
    for k, c in enumerate(classes):
        label = class_names[k] if class_names is not None else str(c)
        ax.scatter(*X[y == c].T, s=22, color=CLASS_COLORS[k % 6], marker=MARKERS[k % 6],
                   edgecolor="k", linewidth=0.4, label=label)
    ax.set_xlabel(feature_names[0])
    ax.set_ylabel(feature_names[1])
    ax.legend(fontsize=8, loc="best")
    if title:
        ax.set_title(title)
    return ax
