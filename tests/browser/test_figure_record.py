"""The record of a figure's smallest text that the browser test reads (mlbook.plotting).

No browser needed; it lives here because only the browser test relies on it.
"""

import io

import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from PIL import Image  # noqa: E402

import mlbook.plotting  # noqa: E402,F401  (installs the figure hook)


# rel=0.01: the record is written with 3 significant digits (an error below 0.5 %).


def _record(fig, **savefig_kwargs):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", **savefig_kwargs)
    plt.close(fig)
    with Image.open(io.BytesIO(buf.getvalue())) as im:
        return im.text


def test_the_png_records_the_smallest_text_drawn():
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1], [0, 1], label="line")
    ax.legend(fontsize=6.5)
    ax.text(0.5, 0.5, "", fontsize=3)                    # empty: never drawn
    ax.text(0.5, 0.5, "hidden", fontsize=4, visible=False)
    ax.tick_params(labelsize=9)
    text = _record(fig, dpi=100, bbox_inches="tight")
    assert text["mlbook:smallest-text-pt"] == "6.5"
    assert float(text["mlbook:smallest-text-px"]) == pytest.approx(6.5 * 100 / 72, rel=0.01)


def test_the_record_follows_the_dpi_of_the_png():
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.tick_params(labelsize=8)
    ax.set_xlabel("x", fontsize=12)
    text = _record(fig, dpi=200)
    assert text["mlbook:smallest-text-pt"] == "8"
    assert float(text["mlbook:smallest-text-px"]) == pytest.approx(8 * 200 / 72, rel=0.01)
