"""plot_roc_curve and plot_pr_curve (chapter "Model evaluation and selection")."""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from mlbook.metrics import break_even_point, precision_recall_curve, roc_curve  # noqa: E402
from mlbook.plotting import plot_pr_curve, plot_roc_curve  # noqa: E402


@pytest.fixture
def scores():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, size=60)
    s = np.round(rng.normal(loc=y, scale=1.0), 1)   # rounded: ties give diagonal segments
    return y, s


def test_roc_curve_draws_the_points_and_one_chance_line(scores):
    y, s = scores
    fpr, tpr, _ = roc_curve(y, s)
    fig, ax = plt.subplots()
    assert plot_roc_curve(fpr, tpr, ax=ax, label="a") is ax
    plot_roc_curve(fpr, tpr, ax=ax, label="b")          # a second curve: still one diagonal
    curves = [line for line in ax.get_lines() if line.get_gid() != "roc-chance"]
    assert len(curves) == 2
    np.testing.assert_array_equal(curves[0].get_xdata(), fpr)
    np.testing.assert_array_equal(curves[0].get_ydata(), tpr)
    chance = [line for line in ax.get_lines() if line.get_gid() == "roc-chance"]
    assert len(chance) == 1
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title() == "ROC curve"
    plt.close(fig)


def test_roc_curve_without_chance_line_and_new_axes(scores):
    y, s = scores
    fpr, tpr, _ = roc_curve(y, s)
    ax = plot_roc_curve(fpr, tpr, chance=False, title="t")
    assert len(ax.get_lines()) == 1 and ax.get_title() == "t"
    plt.close(ax.figure)


def test_pr_curve_marks_the_break_even_point_on_the_diagonal(scores):
    y, s = scores
    p, r, _ = precision_recall_curve(y, s)
    bep = break_even_point(y, s)
    fig, ax = plt.subplots()
    plot_pr_curve(p, r, ax=ax, label="a", bep=bep, baseline=float(y.mean()))
    plot_pr_curve(p, r, ax=ax, label="b", bep=bep)
    lines = ax.get_lines()
    np.testing.assert_array_equal(lines[0].get_xdata(), r)
    np.testing.assert_array_equal(lines[0].get_ydata(), p)
    assert sum(line.get_gid() == "pr-diagonal" for line in lines) == 1
    dots = [line for line in lines if line.get_marker() == "o"]
    assert len(dots) == 2
    assert dots[0].get_xdata()[0] == dots[0].get_ydata()[0] == bep
    assert any(line.get_linestyle() == "--" for line in lines)          # the baseline
    assert ax.get_xlabel() == "recall" and ax.get_ylabel() == "precision"
    plt.close(fig)


def test_roc_rejects_different_lengths():
    with pytest.raises(ValueError, match="fpr and tpr have different lengths"):
        plot_roc_curve([0, 0.5, 1], [0, 1])


def test_roc_rejects_decreasing_rates():
    with pytest.raises(ValueError, match="non-decreasing"):
        plot_roc_curve([0, 1, 0.5], [0, 0.5, 1])


def test_roc_rejects_values_outside_unit_interval():
    with pytest.raises(ValueError, match="tpr must contain rates in"):
        plot_roc_curve([0, 1], [0, 1.5])


def test_roc_rejects_nan():
    with pytest.raises(ValueError, match="fpr contains NaN"):
        plot_roc_curve([0, np.nan], [0, 1])


def test_roc_rejects_2d_input():
    with pytest.raises(ValueError, match="fpr must be a 1-d array"):
        plot_roc_curve([[0, 1]], [[0, 1]])


def test_roc_rejects_a_single_point():
    with pytest.raises(ValueError, match="fpr needs at least 2 values"):
        plot_roc_curve([0], [0])


def test_roc_rejects_none_and_text():
    with pytest.raises(TypeError, match="fpr must be an array-like"):
        plot_roc_curve(None, [0, 1])
    with pytest.raises(TypeError, match="tpr must contain rates"):
        plot_roc_curve([0, 1], ["a", "b"])


def test_pr_rejects_non_monotone_recall():
    with pytest.raises(ValueError, match="recall must be monotone"):
        plot_pr_curve([1, 0.5, 0.7], [0, 1, 0.5])


def test_pr_rejects_bad_bep_and_baseline():
    with pytest.raises(ValueError, match="bep must be <= 1.0"):
        plot_pr_curve([1, 0.5], [0, 1], bep=1.2)
    with pytest.raises(TypeError, match="baseline must be of type Real"):
        plot_pr_curve([1, 0.5], [0, 1], baseline="half")


def test_pr_curve_is_drawn_as_steps_whose_area_is_the_average_precision(scores):
    # Davis and Goadrich (2006): no straight-line interpolation in P-R space.
    from mlbook.metrics import average_precision_score

    y, s = scores
    p, r, _ = precision_recall_curve(y, s)
    for order in (slice(None), slice(None, None, -1)):     # either direction of the points
        ax = plot_pr_curve(p[order], r[order])
        (line,) = ax.get_lines()
        assert line.get_drawstyle() == "steps-post"
        x, h = line.get_xdata(), line.get_ydata()
        assert x[0] >= x[-1]                                 # drawn in decreasing recall
        # steps-post holds h[i] from x[i] to x[i + 1]: the drawn area
        area = float(np.sum((x[:-1] - x[1:]) * h[:-1]))
        # 1e-12: the same sum of products as average_precision_score, in another order
        assert abs(area - average_precision_score(y, s)) < 1e-12
        plt.close(ax.figure)


def test_cost_curve_plot_draws_every_line_and_the_envelope(scores):
    from mlbook.metrics import cost_curve
    from mlbook.plotting import plot_cost_curve

    y, s = scores
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    pc, cost = cost_curve(y, s)
    ax = plot_cost_curve(fpr, tpr, pc, cost)
    lines = [line for line in ax.get_lines() if line.get_gid() == "cost-line"]
    assert len(lines) == fpr.shape[0]
    env = [line for line in ax.get_lines() if line.get_gid() == "cost-envelope"]
    assert len(env) == 1
    np.testing.assert_array_equal(env[0].get_xdata(), pc)
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="probability_cost"):
        plot_cost_curve(fpr, tpr, pc[:-1], cost)


def test_critical_difference_plot():
    from mlbook.plotting import plot_critical_difference

    ax = plot_critical_difference([1.0, 2.125, 2.875], 1.657, names=["A", "B", "C"])
    bars = [line for line in ax.get_lines() if line.get_gid() == "cd-bar"]
    assert len(bars) == 3
    np.testing.assert_allclose(bars[1].get_xdata(), [2.125 - 0.8285, 2.125 + 0.8285],
                               rtol=0, atol=1e-12)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A", "B", "C"]
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="names"):
        plot_critical_difference([1.0, 2.0], 1.0, names=["A"])
    with pytest.raises(ValueError, match="cd must be > 0"):
        plot_critical_difference([1.0, 2.0], -1.0)
    with pytest.raises(ValueError, match="cd must be finite"):
        plot_critical_difference([1.0, 2.0], np.inf)
