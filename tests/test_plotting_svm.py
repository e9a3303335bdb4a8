"""Tests of the SVM plots in mlbook.plotting (plot_svm_margin, plot_svm_alpha_cases,
plot_surrogate_losses).

The plots are tested on a hand-made "fitted SVM" whose decision function is known
exactly, f(x) = x_1, so the lines the plots must draw are known: the boundary at
x_1 = 0 and the margin boundaries at x_1 = -1 and x_1 = +1.
"""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from mlbook.plotting import plot_surrogate_losses, plot_svm_alpha_cases, plot_svm_margin  # noqa: E402


class FixedLinearSVM:
    """A 'fitted' binary SVM with f(x) = w^T x + b, w = (1, 0), b = 0."""

    def __init__(self, X, support, alpha_y, C=1.0):
        self.C = C
        self.support_ = np.asarray(support)
        self.support_vectors_ = np.asarray(X)[self.support_]
        self.dual_coef_ = np.asarray(alpha_y, dtype=float)[None, :]   # scikit-learn's shape (1, n_SV)

    def decision_function(self, X):
        return np.asarray(X, dtype=float) @ np.array([1.0, 0.0])


@pytest.fixture
def data():
    # Points 0 and 1 lie on the margin boundaries, 2 and 3 outside, 4 inside the margin.
    X = np.array([[1.0, 0.5], [-1.0, -0.3], [2.5, 1.0], [-2.0, 1.5], [0.4, -1.0]])
    y = np.array([1, -1, 1, -1, -1])
    return X, y


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _contour_sets(ax):
    return [c for c in ax.collections if hasattr(c, "allsegs")]


def _collection(ax, label_start):
    found = [c for c in ax.collections if str(c.get_label()).startswith(label_start)]
    assert len(found) == 1, f"expected one collection labelled {label_start!r}, got {len(found)}"
    return found[0]


def test_margin_lines_are_the_levels_minus_one_zero_one(data):
    X, y = data
    est = FixedLinearSVM(X, support=[0, 1, 4], alpha_y=[0.5, -0.3, -0.2])
    ax = plot_svm_margin(est, X, y, resolution=50)
    lines = [c for c in _contour_sets(ax) if list(c.levels) == [-1.0, 0.0, 1.0]]
    assert len(lines) == 1
    for level, segs in zip([-1.0, 0.0, 1.0], lines[0].allsegs):
        assert segs, f"no line drawn for f = {level}"
        pts = np.vstack(segs)
        # f is linear, so contour interpolation on the grid is exact up to rounding: 1e-9.
        np.testing.assert_allclose(pts[:, 0], level, rtol=0, atol=1e-9, err_msg=f"line f = {level} misplaced")


def test_support_vectors_are_circled(data):
    X, y = data
    est = FixedLinearSVM(X, support=[0, 1, 4], alpha_y=[0.5, -0.3, -0.2])
    ax = plot_svm_margin(est, X, y, resolution=30, title="t")
    circles = _collection(ax, "support vectors")
    np.testing.assert_array_equal(circles.get_offsets(), X[[0, 1, 4]])
    assert ax.get_title() == "t"
    assert ax.get_xlabel() and ax.get_ylabel()


def test_alpha_cases_are_counted(data):
    X, y = data
    # alpha = (0.5, 0.3, 0, 0, 1.0) with C = 1: two free, two zero, one at the bound.
    est = FixedLinearSVM(X, support=[0, 1, 4], alpha_y=[0.5, -0.3, -1.0], C=1.0)
    ax = plot_svm_alpha_cases(est, X, y, resolution=30)
    zero = _collection(ax, r"$\alpha_i = 0$")
    free = _collection(ax, r"$0 < \alpha_i < C$")
    bound = _collection(ax, r"$\alpha_i = C$")
    assert "(2)" in zero.get_label() and "(2)" in free.get_label() and "(1)" in bound.get_label()
    # Each case is drawn once per class and only the first class (-1) carries the label;
    # point 4 (class -1) is the one at the bound.
    np.testing.assert_array_equal(bound.get_offsets(), X[[4]])


def test_surrogates_bound_the_zero_one_loss():
    z = np.linspace(-800.0, 5.0, 2001)        # far negative z: the exponential must not overflow
    with np.errstate(over="raise"):
        ax = plot_surrogate_losses(z=z)
    lines = {ln.get_label(): ln.get_ydata() for ln in ax.get_lines()}
    zero_one = lines.pop("0-1 loss")
    assert set(lines) == {"hinge", "exponential", "logistic ($\\log_2$)"}
    for name, values in lines.items():
        assert np.all(np.isfinite(values)), name
        assert np.all(values >= zero_one), f"{name} is not an upper bound of the 0-1 loss"
    np.testing.assert_allclose(lines["hinge"], np.maximum(0.0, 1.0 - z), rtol=0, atol=0)


def test_bad_input_three_features(data):
    X, y = data
    est = FixedLinearSVM(X, support=[0], alpha_y=[0.1])
    with pytest.raises(ValueError, match="X must have exactly 2 features"):
        plot_svm_margin(est, np.ones((5, 3)), y)


def test_bad_input_length_mismatch(data):
    X, y = data
    est = FixedLinearSVM(X, support=[0], alpha_y=[0.1])
    with pytest.raises(ValueError, match="y must be 1-D with one label per row of X"):
        plot_svm_margin(est, X, y[:-1])


def test_bad_input_three_classes(data):
    X, _ = data
    est = FixedLinearSVM(X, support=[0], alpha_y=[0.1])
    with pytest.raises(ValueError, match="exactly 2 classes"):
        plot_svm_margin(est, X, np.array([0, 1, 2, 0, 1]))


def test_bad_input_not_an_svm(data):
    X, y = data
    with pytest.raises(TypeError, match="estimator must be a fitted SVM with a decision_function"):
        plot_svm_margin(object(), X, y)


def test_bad_input_alpha_cases_need_C(data):
    X, y = data
    est = FixedLinearSVM(X, support=[0], alpha_y=[0.1])
    del est.C
    with pytest.raises(TypeError, match="estimator must have the attribute C"):
        plot_svm_alpha_cases(est, X, y)


def test_bad_input_alpha_cases_support_outside_X(data):
    X, y = data
    est = FixedLinearSVM(X, support=[0, 4], alpha_y=[0.1, -0.1])
    with pytest.raises(ValueError, match="support_ and dual_coef_ must index the rows of X"):
        plot_svm_alpha_cases(est, X[:3], y[:3])


def test_bad_input_surrogates_z_2d():
    with pytest.raises(ValueError, match="z must be 1-D"):
        plot_surrogate_losses(z=np.zeros((3, 2)))


def test_alpha_cases_legend_names_the_class_of_each_marker(data):
    X, y = data
    est = FixedLinearSVM(X, support=[0, 1, 4], alpha_y=[0.5, -0.3, -1.0], C=1.0)
    ax = plot_svm_alpha_cases(est, X, y, resolution=30, class_names=("negative", "positive"))
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "negative" in texts and "positive" in texts
    # The handle named "negative" has the marker of the class -1 points (sorted first),
    # and "positive" that of the class +1 points.
    for name, label in [("negative", -1), ("positive", 1)]:
        handle = _collection(ax, name)
        points = [c for c in ax.collections if len(c.get_offsets())
                  and np.all(np.isin(c.get_offsets()[:, 0], X[y == label, 0]))]
        assert points, label
        for c in points:
            np.testing.assert_array_equal(c.get_paths()[0].vertices, handle.get_paths()[0].vertices)
    with pytest.raises(ValueError, match="class_names must name the 2 classes"):
        plot_svm_alpha_cases(est, X, y, resolution=30, class_names=("only one",))
