"""Plots used across the book (matplotlib only, imported lazily).

Each function draws into an ``ax`` it is given (or a new one) and returns the
``ax``, so a chapter can combine several plots in one figure. Chapters add
their own functions to this module; keep each small, label the axes and give
a title.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ._validation import check_bool, check_scalar, check_vector

__all__ = ["get_ax", "plot_decision_regions", "plot_svm_margin", "plot_svm_alpha_cases",
           "plot_surrogate_losses", "plot_tree", "plot_roc_curve", "plot_pr_curve"]
__all__ += ["plot_cost_curve", "plot_critical_difference"]   # chapter "Comparing learners"
__all__ += ["plot_reliability_diagram"]                       # chapter "Generative models and naive Bayes"
__all__ += ["plot_optimizer_paths", "plot_convergence"]       # chapter "Gradient-descent optimisers"
__all__ += ["plot_confusion_matrix", "plot_images"]           # chapter "Neural networks"

#: Colours for up to six classes (colour-blind-safe, Okabe and Ito).
CLASS_COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]
MARKERS = ["o", "s", "^", "D", "v", "P"]


#: PNG text keys under which a figure records the smallest text it draws
#: (see :func:`record_smallest_text`).
SMALLEST_TEXT_PT = "mlbook:smallest-text-pt"
SMALLEST_TEXT_PX = "mlbook:smallest-text-px"


def record_smallest_text(fig: Any) -> None:
    """Make ``fig`` write the size of its smallest text into every PNG it saves.

    A ``figure.hooks`` entry (set when this module is imported) calls it on each
    figure pyplot makes. While the PNG is drawn, every text the renderer draws
    (tick labels, axis labels, titles, legends, annotations; not the empty or
    invisible ones, which are never drawn) reports its font size; the smallest,
    in points and in pixels of the PNG (points x dpi / 72), goes into the PNG's
    text chunks ``mlbook:smallest-text-pt`` and ``mlbook:smallest-text-px``.
    The book's browser test reads them to check that figure text is still
    readable once the page shrinks the image to its column. Mathtext sub- and
    superscripts are drawn at 70 % of their text's size and count as that text.
    """
    canvas = fig.canvas
    print_png = getattr(canvas, "print_png", None)
    if print_png is None or getattr(print_png, "_mlbook_records", False):
        return
    import functools

    @functools.wraps(print_png)
    def recording_print_png(filename_or_obj, *args, metadata=None, **kwargs):
        meta = dict(metadata or {})
        sizes: list[float] = []
        renderer = canvas.get_renderer()      # the one FigureCanvasAgg.draw reuses
        draw_text = renderer.draw_text

        def recording_draw_text(gc, x, y, s, prop, *a, **kw):
            if str(s).strip():
                sizes.append(prop.get_size_in_points())
                pt = min(sizes)
                meta[SMALLEST_TEXT_PT] = f"{pt:.3g}"
                meta[SMALLEST_TEXT_PX] = f"{pt * renderer.dpi / 72:.3g}"
            return draw_text(gc, x, y, s, prop, *a, **kw)

        renderer.draw_text = recording_draw_text
        try:
            # the metadata dict is read after the draw, so it holds what was drawn
            return print_png(filename_or_obj, *args, metadata=meta, **kwargs)
        finally:
            del renderer.draw_text

    recording_print_png._mlbook_records = True
    canvas.print_png = recording_print_png


def _install_figure_hook() -> None:
    import matplotlib

    hook = f"{__name__}:record_smallest_text"
    hooks = list(matplotlib.rcParams.get("figure.hooks", []))
    if hook not in hooks:
        matplotlib.rcParams["figure.hooks"] = [*hooks, hook]


_install_figure_hook()


def get_ax(ax: Any = None, figsize: tuple[float, float] = (4.5, 3.5)):
    """Return ``ax``, or a new axes of a small figure when ``ax`` is None."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _grid(X: np.ndarray, pad: float, resolution: int):
    """A ``resolution`` x ``resolution`` grid over the 2-d data ``X``, padded by ``pad``.

    Returns the two coordinate arrays and the grid as points of shape
    (resolution**2, 2), ready for ``predict`` or ``decision_function``.
    """
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    lo, hi = lo - pad * span, hi + pad * span
    g0, g1 = np.meshgrid(np.linspace(lo[0], hi[0], resolution),
                         np.linspace(lo[1], hi[1], resolution))
    return g0, g1, np.column_stack([g0.ravel(), g1.ravel()])


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
    g0, g1, grid = _grid(X, pad, resolution)
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


# --- support vector machines (Part V: "The maximum-margin classifier and duality",
# --- "Soft margin, hinge loss and SMO") ---------------------------------------


def _check_svm_plot_input(estimator: Any, X: Any, y: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate the inputs of the SVM plots; return ``X``, ``y`` and the two classes."""
    if not callable(getattr(estimator, "decision_function", None)):
        raise TypeError(
            f"estimator must be a fitted SVM with a decision_function method; "
            f"got {type(estimator).__name__}"
        )
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have exactly 2 features to draw a margin; got shape {X.shape}")
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(
            f"y must be 1-D with one label per row of X; got shape {y.shape} for X of shape {X.shape}"
        )
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(f"y must contain exactly 2 classes for a binary SVM plot; got {classes.size}")
    return X, y, classes


def _decision_grid(estimator: Any, X: np.ndarray, pad: float, resolution: int):
    """Evaluate ``estimator.decision_function`` on a grid covering ``X``."""
    g0, g1, grid = _grid(X, pad, resolution)
    values = np.asarray(estimator.decision_function(grid), dtype=float).reshape(g0.shape)
    return g0, g1, values


def _draw_margin(ax: Any, g0: np.ndarray, g1: np.ndarray, values: np.ndarray, shade: bool) -> None:
    """Shade the two half-planes and draw the levels f = -1, 0, +1."""
    if shade:
        from matplotlib.colors import ListedColormap

        levels = [min(values.min(), -1.0) - 1.0, 0.0, max(values.max(), 1.0) + 1.0]
        ax.contourf(g0, g1, values, levels=levels, cmap=ListedColormap(CLASS_COLORS[:2]), alpha=0.12)
    ax.contour(g0, g1, values, levels=[-1.0, 0.0, 1.0], colors="k",
               linestyles=["--", "-", "--"], linewidths=[0.8, 1.3, 0.8])


def plot_svm_margin(
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
    shade: bool = True,
):
    r"""Draw a fitted binary SVM: its decision boundary, margin boundaries and support vectors.

    The solid line is :math:`f(\mathbf x) = 0`, the dashed lines are the margin
    boundaries :math:`f(\mathbf x) = \pm 1`, and the support vectors
    (``estimator.support_vectors_``) are circled.

    Parameters
    ----------
    estimator : fitted binary SVM
        Needs ``decision_function`` (giving :math:`f` on an array of shape
        (n_points, 2)) and ``support_vectors_`` of shape (n_SV, 2), as
        :class:`mlbook.svm.SVC` and scikit-learn's ``SVC`` have.
    X : ndarray of shape (n_samples, 2)
        The points to draw (and the extent of the grid).
    y : ndarray of shape (n_samples,)
        Their labels, two classes; the smaller label is drawn as the negative class.
    ax : matplotlib axes, optional
    resolution : int
        Grid points per axis.
    feature_names : pair of str
        Axis labels.
    class_names : pair of str, optional
        Legend labels, indexed like ``np.unique(y)``.
    title : str, optional
    pad : float
        Margin around the data, as a fraction of its range.
    shade : bool
        Shade the two half-planes :math:`f < 0` and :math:`f > 0`.

    Returns
    -------
    ax : matplotlib axes

    Notes
    -----
    See the chapter "The maximum-margin classifier and duality" of the book.
    """
    X, y, classes = _check_svm_plot_input(estimator, X, y)
    check_bool(shade, "shade")
    ax = get_ax(ax)
    g0, g1, values = _decision_grid(estimator, X, pad, resolution)
    _draw_margin(ax, g0, g1, values, shade)
    for k, c in enumerate(classes):
        label = class_names[k] if class_names is not None else str(c)
        ax.scatter(*X[y == c].T, s=24, color=CLASS_COLORS[k], marker=MARKERS[k],
                   edgecolor="k", linewidth=0.4, label=label, zorder=3)
    sv = np.asarray(getattr(estimator, "support_vectors_", np.empty((0, 2))), dtype=float)
    if sv.size:
        ax.scatter(sv[:, 0], sv[:, 1], s=130, facecolors="none", edgecolors="k", linewidths=1.1,
                   label=f"support vectors ({sv.shape[0]})", zorder=4)
    ax.set_xlabel(feature_names[0])
    ax.set_ylabel(feature_names[1])
    ax.legend(fontsize=8, loc="best")
    if title:
        ax.set_title(title)
    return ax


def plot_svm_alpha_cases(
    estimator: Any,
    X: np.ndarray,
    y: np.ndarray,
    *,
    ax: Any = None,
    rtol: float = 1e-8,
    resolution: int = 200,
    feature_names: tuple[str, str] = ("$x_1$", "$x_2$"),
    title: str | None = None,
    pad: float = 0.05,
    class_names: Any = None,
):
    r"""Colour the training points of a fitted soft-margin SVM by the value of their multiplier.

    Three cases, as in the KKT conditions of the soft margin:
    :math:`\alpha_i = 0` (on or outside the margin), :math:`0 < \alpha_i < C`
    (on a margin boundary) and :math:`\alpha_i = C` (inside the margin or
    misclassified). The marker shape gives the class; the legend lists both the
    three cases (colours) and the classes (shapes).

    Parameters
    ----------
    estimator : fitted binary SVM trained on ``X``
        Needs ``decision_function``, ``support_`` (indices into ``X``),
        ``dual_coef_`` (:math:`\alpha_i y_i` of the support vectors, any shape
        with n_SV entries) and ``C``.
    X : ndarray of shape (n_samples, 2)
        The training data the estimator was fitted on.
    y : ndarray of shape (n_samples,)
        The training labels, two classes.
    ax : matplotlib axes, optional
    rtol : float
        :math:`\alpha_i` counts as :math:`C` when :math:`\alpha_i \ge C(1 - \mathrm{rtol})`
        and as 0 when :math:`\alpha_i \le C\,\mathrm{rtol}`.
    resolution, feature_names, title, pad
        As in :func:`plot_svm_margin`.
    class_names : sequence of two str, optional
        Legend names of the classes, in the sorted order of the labels in ``y``
        (default ``"y = <label>"``).

    Returns
    -------
    ax : matplotlib axes

    Notes
    -----
    See the chapter "Soft margin, hinge loss and SMO" of the book.
    """
    X, y, classes = _check_svm_plot_input(estimator, X, y)
    if not hasattr(estimator, "C"):
        raise TypeError(f"estimator must have the attribute C; got {type(estimator).__name__}")
    support = np.asarray(getattr(estimator, "support_", []), dtype=int)
    coef = np.abs(np.ravel(np.asarray(getattr(estimator, "dual_coef_", []), dtype=float)))
    if support.shape != coef.shape or (support.size and support.max() >= X.shape[0]):
        raise ValueError("estimator.support_ and dual_coef_ must index the rows of X (the training data)")
    C = float(estimator.C)
    alpha = np.zeros(X.shape[0])
    alpha[support] = coef
    at_zero = alpha <= C * rtol
    at_bound = alpha >= C * (1.0 - rtol)
    free = ~at_zero & ~at_bound
    ax = get_ax(ax)
    g0, g1, values = _decision_grid(estimator, X, pad, resolution)
    _draw_margin(ax, g0, g1, values, shade=False)
    cases = [(at_zero, "#999999", r"$\alpha_i = 0$"),
             (free, "#009E73", r"$0 < \alpha_i < C$"),
             (at_bound, "#D55E00", r"$\alpha_i = C$")]
    for mask, color, name in cases:
        for k, c in enumerate(classes):
            sel = mask & (y == c)
            ax.scatter(*X[sel].T, s=30, color=color, marker=MARKERS[k], edgecolor="k", linewidth=0.4,
                       label=f"{name} ({int(mask.sum())})" if k == 0 else None, zorder=3)
    if class_names is None:
        class_names = [f"y = {c}" for c in classes]
    if len(class_names) != len(classes):
        raise ValueError(f"class_names must name the {len(classes)} classes; got {len(class_names)}")
    for k, cname in enumerate(class_names):            # the shapes: one empty handle per class
        ax.scatter([], [], s=30, marker=MARKERS[k], facecolor="white", edgecolor="k",
                   linewidth=0.6, label=str(cname))
    ax.set_xlabel(feature_names[0])
    ax.set_ylabel(feature_names[1])
    ax.legend(fontsize=8, loc="best")
    if title:
        ax.set_title(title)
    return ax


def plot_surrogate_losses(ax: Any = None, z: np.ndarray | None = None, title: str | None = None):
    r"""Plot the 0-1 loss and its convex surrogates as functions of the margin :math:`z = y f(\mathbf x)`.

    Hinge :math:`\max(0, 1 - z)`, exponential :math:`e^{-z}` and logistic
    :math:`\log_2(1 + e^{-z})` (computed as ``logaddexp(0, -z) / log 2``, so
    no overflow for very negative ``z``), all upper bounds of the 0-1 loss
    :math:`\mathbb I(z < 0)`.

    Parameters
    ----------
    ax : matplotlib axes, optional
    z : ndarray of shape (n_points,), optional
        Where to evaluate; default 400 points in [-2, 3].
    title : str, optional

    Returns
    -------
    ax : matplotlib axes

    Notes
    -----
    See the chapter "Soft margin, hinge loss and SMO" of the book.
    """
    z = np.linspace(-2.0, 3.0, 401) if z is None else np.asarray(z, dtype=float)
    if z.ndim != 1:
        raise ValueError(f"z must be 1-D; got shape {z.shape}")
    ax = get_ax(ax)
    losses = {
        "0-1 loss": (z < 0).astype(float),
        "hinge": np.maximum(0.0, 1.0 - z),
        "exponential": np.exp(-np.maximum(z, -700.0)),  # capped: no overflow below z = -709
        "logistic ($\\log_2$)": np.logaddexp(0.0, -z) / np.log(2.0),
    }
    for (name, values), color in zip(losses.items(), ["k", CLASS_COLORS[1], CLASS_COLORS[0], CLASS_COLORS[2]]):
        ax.plot(z, values, color=color, lw=1.6 if name == "hinge" else 1.1,
                drawstyle="steps-post" if name == "0-1 loss" else "default", label=name)
    ax.set_xlabel(r"$z = y\,f(\boldsymbol{x})$")
    ax.set_ylabel("loss")
    ax.set_ylim(-0.1, 4.0)
    ax.legend(fontsize=8)
    ax.set_title(title or "The 0-1 loss and its surrogates")
    return ax


def plot_tree(
    estimator: Any,
    feature_names: Any = None,
    class_names: Any = None,
    *,
    ax: Any = None,
    title: str | None = None,
    fontsize: float = 8,
):
    """Draw a fitted decision tree: tests in grey boxes, leaves coloured by class.

    Parameters
    ----------
    estimator : fitted ``mlbook.tree.DecisionTreeClassifier`` or
        ``ObliqueDecisionTreeClassifier``
    feature_names : sequence of str, optional
        Column names used in the tests (``x0, x1, ...`` by default).
    class_names : sequence of str, optional
        Leaf labels, indexed like ``estimator.classes_``.
    ax : matplotlib axes, optional
        A new figure sized to the tree when None.
    title : str, optional
    fontsize : float

    Returns
    -------
    ax

    Notes
    -----
    Leaves are placed left to right in depth-first order, each internal node
    above the middle of its children, depth downwards. Every edge carries its
    branch label (a category, or yes/no for a threshold test); an empty branch
    (a value no training sample at the node had) is drawn dashed.
    """
    from matplotlib.colors import to_rgb

    from .tree import branch_labels, node_test

    if not hasattr(estimator, "tree_"):
        raise ValueError("estimator must be a fitted tree (it has no tree_); call fit first")
    names = list(feature_names) if feature_names is not None else None
    classes = (list(class_names) if class_names is not None
               else [str(c) for c in estimator.classes_])
    pos: dict[int, tuple[float, float]] = {}
    n_leaves = 0
    cursor = 0.0
    # Each leaf gets a slot as wide as its own label or the branch label above
    # it (one unit = the width of four characters), so that neighbours' labels
    # do not run into each other.
    incoming: dict[int, str] = {}

    def slot(node) -> float:
        words = incoming.get(id(node), "").split() + [classes[node.label]]
        return max(1.0, (max(len(w) for w in words) + 2) / 6.0)

    def place(node) -> float:
        nonlocal n_leaves, cursor
        if node.is_leaf:
            width = slot(node)
            x = cursor + 0.5 * width
            cursor += width
            n_leaves += 1
        else:
            for label, child in zip(branch_labels(estimator, node), node.children):
                incoming[id(child)] = label
            xs = [place(child) for child in node.children]
            x = 0.5 * (xs[0] + xs[-1])
        pos[id(node)] = (x, -float(node.depth))
        return x

    root = estimator.tree_
    place(root)
    depth = max(-y for _, y in pos.values())
    # Text is `fontsize` points, branch labels included. The figure is at most
    # 7.5 inches wide, so the book (a column of about 7.8 inches at 100 dpi)
    # never shrinks it: 8-point labels stay 8 points at page width.
    if ax is None:
        import matplotlib.pyplot as plt

        width = min(max(4.5, 0.5 * cursor + 0.6), 7.5)
        _, ax = plt.subplots(figsize=(width, max(2.5, 0.95 * depth + 1.1)),
                             layout="constrained")
    box = dict(boxstyle="round,pad=0.3", linewidth=0.7)
    stack = [root]
    while stack:
        node = stack.pop()
        x, y = pos[id(node)]
        if node.is_leaf:
            color = CLASS_COLORS[node.label % len(CLASS_COLORS)]
            # an opaque tint (not alpha), so no edge shows through the label
            rgb = np.asarray(to_rgb(color))
            face = tuple(0.25 * rgb + 0.75)
            ax.text(x, y, classes[node.label], ha="center", va="center", fontsize=fontsize,
                    zorder=3, bbox={**box, "facecolor": face, "edgecolor": color})
            continue
        ax.text(x, y, node_test(estimator, node, names), ha="center", va="center",
                fontsize=fontsize, zorder=3,
                bbox={**box, "facecolor": "#eeeeee", "edgecolor": "0.4"})
        previous = None  # (x, t, half width) of the last branch label drawn
        for label, child in zip(branch_labels(estimator, node), node.children):
            cx, cy = pos[id(child)]
            # edges run under the boxes (zorder 1 < 3), never across a label
            ax.plot([x, cx], [y, cy], color="0.45", linewidth=0.9, zorder=1,
                    linestyle="--" if child.empty else "-")
            # the label sits on the edge on a white patch, long labels wrap;
            # where it would touch its left neighbour it moves up the edge
            half = (max(len(w) for w in label.split()) + 1) / 12.0
            t = 0.62
            if previous is not None and previous[1] == t:
                if (1 - t) * x + t * cx - half < previous[0] + previous[2]:
                    t = 0.36
            previous = ((1 - t) * x + t * cx, t, half)
            ax.text((1 - t) * x + t * cx, (1 - t) * y + t * cy, label.replace(" ", "\n"),
                    ha="center", va="center", fontsize=fontsize, color="0.15", zorder=2,
                    linespacing=1.0,
                    bbox=dict(boxstyle="square,pad=0.12", facecolor="white", edgecolor="none"))
            stack.append(child)
    ax.set_xlim(-0.1, cursor + 0.1)
    ax.set_ylim(-depth - 0.4, 0.4)
    ax.axis("off")
    ax.set_title(title or f"Decision tree: depth {int(depth)}, {n_leaves} leaves",
                 fontsize=fontsize + 2)
    return ax


# ---------------------------------------------------------------------------
# ROC and P-R curves (chapter "Model evaluation and selection")
# ---------------------------------------------------------------------------


def _check_curve(x: Any, y: Any, x_name: str, y_name: str) -> tuple[np.ndarray, np.ndarray]:
    """Two 1-d float arrays of equal length >= 2 with values in [0, 1]."""
    out = []
    for values, name in ((x, x_name), (y, y_name)):
        arr = check_vector(values, name, min_size=2, what="rates")   # two points make a curve
        if (arr < 0).any() or (arr > 1).any():
            raise ValueError(f"{name} must contain rates in [0, 1]")
        out.append(arr)
    if out[0].shape != out[1].shape:
        raise ValueError(f"{x_name} and {y_name} have different lengths: "
                         f"{out[0].shape[0]} and {out[1].shape[0]}")
    return out[0], out[1]


def plot_roc_curve(fpr: Any, tpr: Any, *, ax: Any = None, label: str | None = None,
                   chance: bool = True, title: str | None = None, **line_kw: Any):
    r"""Draw a ROC curve: true positive rate against false positive rate.

    Parameters
    ----------
    fpr, tpr : array-like of shape (n_points,)
        The curve's points, as returned by :func:`mlbook.metrics.roc_curve`
        (both non-decreasing, in [0, 1]).
    ax : matplotlib axes, optional
    label : str, optional
        Legend entry of the curve.
    chance : bool, default=True
        Also draw the diagonal of a random score (AUC 1/2).
    title : str, optional
        Default "ROC curve".
    **line_kw
        Passed to ``ax.plot`` for the curve (colour, line style, ...).

    Returns
    -------
    ax : matplotlib axes

    Notes
    -----
    Consecutive points are joined by straight lines: a run of tied scores
    is a diagonal segment, and the area under the drawn curve is the AUC of
    :func:`mlbook.metrics.roc_auc_score`. See the chapter "Model evaluation
    and selection".
    """
    fpr, tpr = _check_curve(fpr, tpr, "fpr", "tpr")
    if np.any(np.diff(fpr) < 0) or np.any(np.diff(tpr) < 0):
        raise ValueError("fpr and tpr must be non-decreasing (points in threshold order)")
    check_bool(chance, "chance")
    ax = get_ax(ax)
    ax.plot(fpr, tpr, label=label, **line_kw)
    if chance and not any(line.get_gid() == "roc-chance" for line in ax.get_lines()):
        ax.plot([0, 1], [0, 1], color="k", lw=0.8, ls=":", label="random", gid="roc-chance")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("false positive rate (FPR)")
    ax.set_ylabel("true positive rate (TPR)")
    ax.set_title(title or "ROC curve")
    if label is not None or chance:
        ax.legend(fontsize=8, loc="lower right")
    return ax


def plot_pr_curve(precision: Any, recall: Any, *, ax: Any = None, label: str | None = None,
                  bep: float | None = None, baseline: float | None = None,
                  title: str | None = None, **line_kw: Any):
    r"""Draw a precision-recall (P-R) curve, optionally with its break-even point.

    Parameters
    ----------
    precision, recall : array-like of shape (n_points,)
        The curve's points, as returned by
        :func:`mlbook.metrics.precision_recall_curve` (recall monotone).
    ax : matplotlib axes, optional
    label : str, optional
        Legend entry of the curve.
    bep : float in [0, 1], optional
        A break-even point (:func:`mlbook.metrics.break_even_point`): marked
        as a dot at :math:`(\mathrm{BEP}, \mathrm{BEP})`, with the diagonal
        :math:`P = R` drawn once per axes.
    baseline : float in [0, 1], optional
        Precision of a random score, :math:`m^+/m`, drawn as a dashed line.
    title : str, optional
        Default "P-R curve".
    **line_kw
        Passed to ``ax.plot`` for the curve.

    Returns
    -------
    ax : matplotlib axes

    Notes
    -----
    The curve is drawn as a step function: each precision is held over the
    recall interval that ends at its point, so the area under the drawn curve
    is the average precision, as the area under the drawn ROC curve is the AUC.
    Joining the points by straight lines would draw operating points that no
    classifier reaches and overstates the area (Davis and Goadrich 2006).
    See the chapter "Model evaluation and selection".
    """
    precision, recall = _check_curve(precision, recall, "precision", "recall")
    d = np.diff(recall)
    if np.any(d < 0) and np.any(d > 0):
        raise ValueError("recall must be monotone (points in threshold order)")
    for value, name in ((bep, "bep"), (baseline, "baseline")):
        if value is not None:
            check_scalar(value, name, numbers.Real, min_val=0.0, max_val=1.0)
    ax = get_ax(ax)
    # Steps, not straight lines (Davis and Goadrich 2006): between two points
    # of the curve no classifier reaches the straight line joining them. Put
    # the points in decreasing recall; "steps-post" then holds each point's
    # precision down to the next smaller recall, so the area under the drawn
    # curve is the average precision sum_n (R_n - R_{n-1}) P_n.
    if recall.shape[0] > 1 and recall[-1] > recall[0]:
        recall, precision = recall[::-1], precision[::-1]
    line_kw.setdefault("drawstyle", "steps-post")
    (line,) = ax.plot(recall, precision, label=label, **line_kw)
    if bep is not None:
        if not any(x.get_gid() == "pr-diagonal" for x in ax.get_lines()):
            ax.plot([0, 1], [0, 1], color="k", lw=0.8, ls=":", label="$P = R$", gid="pr-diagonal")
        ax.plot([bep], [bep], "o", color=line.get_color(), mec="k", zorder=3)
    if baseline is not None:
        ax.axhline(float(baseline), color="grey", lw=0.8, ls="--")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.set_title(title or "P-R curve")
    if label is not None or bep is not None:
        ax.legend(fontsize=8, loc="lower left")
    return ax


def plot_cost_curve(fpr: Any, tpr: Any, probability_cost: Any, normalized_cost: Any, *,
                    ax: Any = None, label: str | None = None, title: str | None = None,
                    color: str | None = None):
    r"""Draw a cost curve (代价曲线): one line per ROC point and their lower envelope.

    Parameters
    ----------
    fpr, tpr : array-like of shape (n_points,)
        The ROC points (:func:`mlbook.metrics.roc_curve`); each becomes the
        segment from :math:`(0, \mathrm{FPR})` to :math:`(1, 1 - \mathrm{TPR})`.
    probability_cost, normalized_cost : array-like of shape (n_corners,)
        The envelope, as returned by :func:`mlbook.metrics.cost_curve`; the
        area under it is shaded.
    ax : matplotlib axes, optional
    label : str, optional
        Legend entry of the envelope.
    title : str, optional
        Default "Cost curve".
    color : str, optional
        Colour of the envelope and the shading (default the first of
        ``CLASS_COLORS``).

    Returns
    -------
    ax : matplotlib axes

    Notes
    -----
    See the chapter *Comparing learners*.
    """
    fpr, tpr = _check_curve(fpr, tpr, "fpr", "tpr")
    pc, cost = _check_curve(probability_cost, normalized_cost, "probability_cost",
                            "normalized_cost")
    color = color or CLASS_COLORS[0]
    ax = get_ax(ax)
    for f, t in zip(fpr, tpr):
        ax.plot([0, 1], [f, 1 - t], color="grey", lw=0.6, alpha=0.6, gid="cost-line")
    ax.fill_between(pc, cost, color=color, alpha=0.25, lw=0)
    ax.plot(pc, cost, color=color, lw=2, label=label, gid="cost-envelope")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("probability cost $P(+)_{cost}$")
    ax.set_ylabel("normalised cost $cost_{norm}$")
    ax.set_title(title or "Cost curve")
    if label is not None:
        ax.legend(fontsize=8, loc="upper right")
    return ax


def plot_critical_difference(average_ranks: Any, cd: float, *, names: Any = None,
                             ax: Any = None, title: str | None = None):
    r"""Friedman test plot (Zhou's figure 2.8): average ranks with bars of width CD.

    Each learner is a dot at its average rank with a horizontal bar of length
    ``cd`` centred on it. Two learners differ significantly under the Nemenyi
    test exactly when their bars do not overlap (their ranks differ by more
    than ``cd``).

    Parameters
    ----------
    average_ranks : array-like of shape (k,)
        From :func:`mlbook.model_selection.friedman_test` (rank 1 the best).
    cd : float > 0
        From :func:`mlbook.model_selection.nemenyi_critical_difference`.
    names : sequence of str of length k, optional
        Default "learner 1", ... .
    ax : matplotlib axes, optional
    title : str, optional
        Default "Friedman test: average ranks and CD".

    Returns
    -------
    ax : matplotlib axes

    Notes
    -----
    See the chapter *Comparing learners*.
    """
    r = check_vector(average_ranks, "average_ranks", min_size=2, what="ranks")
    check_scalar(cd, "cd", numbers.Real, min_val=0.0, include_min=False)
    k = r.shape[0]
    names = [f"learner {i + 1}" for i in range(k)] if names is None else list(names)
    if len(names) != k:
        raise ValueError(f"names must have one entry per learner ({k}); got {len(names)}")
    ax = get_ax(ax)
    for i, ri in enumerate(r):
        c = CLASS_COLORS[i % len(CLASS_COLORS)]
        ax.plot([ri - cd / 2, ri + cd / 2], [i, i], color=c, lw=2, gid="cd-bar")
        ax.plot([ri], [i], "o", color=c, mec="k", zorder=3)
    ax.set_yticks(np.arange(k), names)
    ax.set_ylim(k - 0.5, -0.5)                  # first learner on top
    ax.set_xlabel("average rank (1 = best)")
    ax.set_title(title or "Friedman test: average ranks and CD")
    ax.grid(axis="x", lw=0.3)
    return ax


def plot_reliability_diagram(prob_true: Any, prob_pred: Any, *, ax: Any = None,
                             label: str | None = None, title: str | None = None,
                             **line_kw: Any):
    """Draw a reliability diagram: observed frequency against mean predicted probability.

    Parameters
    ----------
    prob_true, prob_pred : array-like of shape (n_bins,)
        As returned by :func:`mlbook.metrics.calibration_curve`.
    ax : matplotlib axes, optional
    label : str, optional
        Legend entry.
    title : str, optional
        Default "Reliability diagram".
    **line_kw
        Passed to ``ax.plot``.

    Returns
    -------
    ax : matplotlib axes

    Notes
    -----
    The dotted diagonal is perfect calibration; a curve below it on the right
    and above it on the left is over-confident. See the chapter "Generative
    models and naive Bayes".
    """
    prob_pred, prob_true = _check_curve(prob_pred, prob_true, "prob_pred", "prob_true")
    ax = get_ax(ax)
    if not any(x.get_gid() == "calibration-diagonal" for x in ax.get_lines()):
        ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls=":", label="calibrated",
                gid="calibration-diagonal")
    line_kw.setdefault("marker", "o")
    ax.plot(prob_pred, prob_true, label=label, **line_kw)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("mean predicted probability")
    ax.set_ylabel("fraction of positives")
    ax.set_title(title or "Reliability diagram")
    if label is not None:
        ax.legend(fontsize=8, loc="upper left")
    return ax


def _check_paths(paths: Any, name: str, ndim: int) -> dict[str, np.ndarray]:
    if not isinstance(paths, dict) or not paths:
        raise TypeError(f"{name} must be a non-empty dict {{label: array}}; got {type(paths).__name__}")
    out = {}
    for label, p in paths.items():
        a = np.asarray(getattr(p, "path" if ndim == 2 else "values", p), dtype=float)
        if a.ndim != ndim or (ndim == 2 and a.shape[1] != 2) or a.shape[0] == 0:
            want = "(n_points, 2)" if ndim == 2 else "(n_points,)"
            raise ValueError(f"{name}[{label!r}] must have shape {want}; got {a.shape}")
        out[str(label)] = a
    return out


def plot_optimizer_paths(fun: Any, paths: Any, *, xlim: tuple[float, float],
                         ylim: tuple[float, float], minimum: Any = None, ax: Any = None,
                         levels: int = 25, resolution: int = 120, title: str | None = None,
                         markevery: int | None = None):
    r"""Draw optimisers' paths over the contour lines of a 2-d test function.

    Parameters
    ----------
    fun : callable
        ``fun(x) -> (value, grad)`` for ``x`` of shape (2,), e.g.
        :func:`mlbook.optim.rosenbrock`.
    paths : dict {label: ndarray of shape (n_points, 2) or OptimizeResult}
        One path per optimiser (``minimize(...).path``, or the result itself).
    xlim, ylim : (float, float)
        The window drawn.
    minimum : array-like of shape (2,), optional
        Marked with a star.
    ax : matplotlib axes, optional
    levels : int, default=25
        Number of contour levels, spaced evenly in :math:`\log(1 + f)` so the
        valley floor is resolved as well as the walls.
    resolution : int, default=120
        Grid points per axis.
    title : str, optional
    markevery : int, optional
        Mark every ``markevery``-th iterate (default: about 15 marks per path).

    Returns
    -------
    ax : matplotlib axes

    Notes
    -----
    See the chapter "Gradient-descent optimisers".
    """
    if not callable(fun):
        raise TypeError("fun must be callable, returning (value, grad)")
    paths = _check_paths(paths, "paths", 2)
    ax = get_ax(ax)
    xs = np.linspace(*xlim, resolution)
    ys = np.linspace(*ylim, resolution)
    Z = np.array([[fun(np.array([x, y]))[0] for x in xs] for y in ys])
    ax.contour(xs, ys, np.log1p(Z - Z.min()), levels=levels, colors="0.6", linewidths=0.6)
    for k, (label, p) in enumerate(paths.items()):
        every = markevery or max(1, len(p) // 15)
        ax.plot(p[:, 0], p[:, 1], color=CLASS_COLORS[k % len(CLASS_COLORS)],
                marker=MARKERS[k % len(MARKERS)], markevery=every, ms=4, lw=1.4, label=label)
    if minimum is not None:
        m = np.asarray(minimum, dtype=float)
        ax.plot([m[0]], [m[1]], "*", color="k", ms=11, label="minimum", zorder=5)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_title(title or "optimiser paths")
    ax.legend(fontsize=8, loc="best")
    return ax


def plot_convergence(histories: Any, *, f_min: float = 0.0, ax: Any = None,
                     ylabel: str = "$f(x_t) - f^*$", title: str | None = None,
                     floor: float = 1e-16):
    r"""Draw :math:`f(x_t) - f^*` against the step :math:`t`, on a log scale.

    Parameters
    ----------
    histories : dict {label: ndarray of shape (n_points,) or OptimizeResult}
        The function value along each run (``minimize(...).values``). After six
        runs the colours repeat with dashed, then dotted lines.
    f_min : float, default=0
        :math:`f^*`, the minimum value.
    ax : matplotlib axes, optional
    ylabel, title : str, optional
    floor : float, default=1e-16
        Gaps below this are drawn at it (a log axis cannot show 0).

    Returns
    -------
    ax : matplotlib axes

    Notes
    -----
    See the chapter "Gradient-descent optimisers".
    """
    histories = _check_paths(histories, "histories", 1)
    ax = get_ax(ax)
    styles = ["-", "--", ":"]
    for k, (label, v) in enumerate(histories.items()):
        ax.semilogy(np.arange(len(v)), np.maximum(v - f_min, floor),
                    color=CLASS_COLORS[k % len(CLASS_COLORS)],
                    ls=styles[(k // len(CLASS_COLORS)) % len(styles)], lw=1.4, label=label)
    ax.set_xlabel("step $t$")
    ax.set_ylabel(ylabel)
    ax.set_title(title or "convergence")
    ax.legend(fontsize=8, loc="best", ncol=2 if len(histories) > 4 else 1)
    return ax


def plot_confusion_matrix(cm: Any, *, labels: Any = None, ax: Any = None,
                          title: str | None = None):
    """Draw a confusion matrix as a grey-scale table with the counts written in.

    Parameters
    ----------
    cm : array-like of shape (n_classes, n_classes)
        Counts: row = true class, column = predicted class (``mlbook.metrics.confusion_matrix``).
    labels : sequence, optional
        Class names for the ticks (default ``0 .. n_classes - 1``).
    ax : matplotlib axes, optional
    title : str, optional

    Notes
    -----
    See the chapter "Neural networks".
    """
    cm = np.asarray(cm)
    if cm.ndim != 2 or cm.shape[0] != cm.shape[1]:
        raise ValueError(f"cm must be a square 2-d array; got shape {cm.shape}")
    k = cm.shape[0]
    labels = list(range(k)) if labels is None else list(labels)
    if len(labels) != k:
        raise ValueError(f"labels must have {k} entries; got {len(labels)}")
    ax = get_ax(ax, figsize=(4.5, 4.0))
    # off-diagonal counts are small: a square-root scale keeps them visible
    ax.imshow(np.sqrt(cm), cmap="Greys", vmin=0)
    top = np.sqrt(cm.max()) if cm.size else 1.0
    for i in range(k):
        for j in range(k):
            if cm[i, j]:
                ax.text(j, i, str(cm[i, j]), ha="center", va="center", fontsize=8,
                        color="white" if np.sqrt(cm[i, j]) > 0.5 * top else "black")
    ax.set_xticks(range(k), labels)
    ax.set_yticks(range(k), labels)
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    ax.set_title(title or "Confusion matrix")
    return ax


def plot_images(images: Any, titles: Any = None, *, n_cols: int = 8,
                title: str | None = None, width: float = 9.0):
    """Show small grey-scale images (for example 8 x 8 digits) in a grid.

    Parameters
    ----------
    images : array-like of shape (n_images, height, width)
    titles : sequence of str, optional
        One caption per image.
    n_cols : int
        Images per row.
    title : str, optional
        The figure's title.
    width : float
        Figure width in inches.

    Returns
    -------
    matplotlib figure

    Notes
    -----
    See the chapter "Neural networks".
    """
    import matplotlib.pyplot as plt

    images = np.asarray(images, dtype=float)
    if images.ndim != 3:
        raise ValueError(f"images must have shape (n_images, height, width); got {images.shape}")
    n = images.shape[0]
    n_cols = max(1, min(n_cols, n))
    n_rows = int(np.ceil(n / n_cols))
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(width, 1.25 * n_rows * width / n_cols / 1.1),
                             layout="constrained", squeeze=False)
    for k, ax in enumerate(axes.ravel()):
        ax.set_axis_off()
        if k < n:
            ax.imshow(images[k], cmap="gray_r", interpolation="nearest")
            if titles is not None:
                ax.set_title(str(titles[k]), fontsize=8)
    if title:
        fig.suptitle(title)
    return fig
