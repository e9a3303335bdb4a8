"""Helpers for the book's notebooks: show the package's code, read a benchmark.

``show_source(obj)`` is how a chapter shows an implementation. It returns an
object that Jupyter, JupyterLab, Colab and the book's HTML (myst-nb) all
render as a highlighted Python block holding the real source of ``obj``, read
from the installed package at run time, so the book never holds a second copy
of any code.

``load_benchmark(name)`` reads one of the benchmark results that ``make bench``
writes to ``book/benchmarks/<name>.json`` of a clone of the repository. Where
the file is absent (a notebook opened alone on Colab, or an installed wheel),
it prints one line saying so and returns ``None``, so the chapter runs on.

``seed(n)`` is the one way a chapter seeds a random experiment: it returns
``n`` plus the integer offset in the environment variable ``MLBOOK_SEED``
(default 0). Running a chapter with ``MLBOOK_SEED=3`` shifts every seed it
uses, so that a claim about a random experiment can be checked for other
draws than the one printed in the book (``make test-seeds``).
"""

from __future__ import annotations

import inspect
import json
import numbers
import os
import re
import textwrap
from pathlib import Path
from typing import Any

__all__ = ["SourceCode", "show_source", "load_benchmark", "benchmark_dir", "seed", "seed_offset",
           "SHOWN"]

#: The private objects the chapters show with :func:`show_source`, which are the steps
#: of an algorithm a chapter explains (a solver's inner update, a grower) and not
#: public names of the package. Together with the public names the chapters show,
#: they are the book's contract with the package: ``tests/test_utils.py`` reads
#: every ``show_source(...)`` call of the chapters and fails, naming the chapter,
#: when a shown object is gone, when a private one is missing here, or when an
#: entry here is no longer shown. Rename one only together with its chapter.
SHOWN = frozenset({
    # Comparing learners
    "mlbook._distributions.betainc",
    "mlbook._distributions.studentized_range_cdf",
    "mlbook.model_selection.KFold._iter_test_indices",
    # Model evaluation
    "mlbook.metrics._binary_clf_curve",
    # Linear regression, regularisation, logistic regression
    "mlbook.linear_model.LinearRegression._fit_gd",
    "mlbook.linear_model.LinearRegression._fit_normal",
    "mlbook.linear_model.LogisticRegression._fit_newton",
    "mlbook.linear_model._enet_cd_gram",
    "mlbook.linear_model._enet_duality_gap",
    "mlbook.linear_model._lad_vertex_descent",
    "mlbook.linear_model._newton_direction",
    # Decision trees, ensembles
    "mlbook.tree.DecisionTreeClassifier._grow",
    "mlbook.tree.DecisionTreeClassifier._post_prune",
    "mlbook.tree.ObliqueDecisionTreeClassifier._grow",
    "mlbook.tree._criteria._impurity",
    "mlbook.tree._criteria._table_gain",
    "mlbook.tree._criteria._threshold_search",
    "mlbook.ensemble._bagging._BaseBagging._oob",
    "mlbook.ensemble._gradient_boosting._BaseGradientBoosting._boost",
    "mlbook.ensemble._gradient_boosting._BinomialLogLoss",
    "mlbook.ensemble._gradient_boosting._ExponentialLoss",
    "mlbook.ensemble._gradient_boosting._MultinomialLogLoss",
    "mlbook.tree._levelwise._Level._squared_error_scores",
    # Neural networks
    "mlbook.neural_network.Perceptron._fit_binary",
    "mlbook.neural_network._BaseMLP._fit",
    "mlbook.neural_network._BaseMLP._make_optimizer",
    "mlbook.neural_network._backprop",
    "mlbook.neural_network._forward",
    # Support vector machines
    "mlbook.svm.SVC._ovo_decision",
    "mlbook.svm._clip_bounds",
    "mlbook.svm._intercept",
    "mlbook.svm._pair_update",
    "mlbook.svm._platt_threshold",
    "mlbook.svm._wss2",
    # Naive Bayes
    "mlbook.naive_bayes._BaseNB.predict_log_proba",
    "mlbook.naive_bayes._categorical_jll",
    "mlbook.naive_bayes._categorical_log_probs",
    "mlbook.naive_bayes._gaussian_jll",
    "mlbook.naive_bayes._gaussian_moments",
    "mlbook.naive_bayes._BaseDiscreteNB.fit",
    "mlbook.naive_bayes.BernoulliNB._joint_log_likelihood",
    # Semi-naive Bayes and calibrated probabilities
    "mlbook.naive_bayes._pair_counts",
    "mlbook.naive_bayes.AODE._spode_log_joint",
    "mlbook.naive_bayes.AODE._joint_log_likelihood",
})

# Comments meant for the test harness or for cross-referencing inside the
# repository: they say nothing to a reader of the code.
_HARNESS_COMMENT = re.compile(
    r"^\s*#\s*(NBVAL_[A-Z_]+|noqa\b|pragma\b|type:\s*ignore|fmt:\s*(on|off)|see\s+(tests?|book)/)",
    re.IGNORECASE,
)
_TRAILING_HARNESS = re.compile(r"\s+#\s*(noqa\b.*|pragma:.*|type:\s*ignore.*|NBVAL_[A-Z_]+)$")


class SourceCode:
    """Source text that notebooks render as a highlighted Python block.

    Parameters
    ----------
    code : str
        The code, already dedented.
    name : str
        What it is the source of (shown by ``repr``).
    """

    def __init__(self, code: str, name: str = "") -> None:
        self.code = code
        self.name = name

    def _repr_markdown_(self) -> str:
        # A fence longer than any run of backticks inside the code.
        longest = max((len(m) for m in re.findall(r"`+", self.code)), default=0)
        fence = "`" * max(3, longest + 1)
        return f"{fence}python\n{self.code}\n{fence}\n"

    def __repr__(self) -> str:
        return self.code

    def __str__(self) -> str:
        return self.code


def _clean(code: str) -> str:
    lines = []
    for line in textwrap.dedent(code).splitlines():
        if _HARNESS_COMMENT.match(line):
            continue
        lines.append(_TRAILING_HARNESS.sub("", line.rstrip()))
    return "\n".join(lines).strip("\n")


def show_source(obj: Any) -> SourceCode:
    """Return the source code of a function, class or method of the package, for display.

    Parameters
    ----------
    obj : function, class, method or module
        Anything ``inspect.getsource`` accepts.

    Returns
    -------
    SourceCode
        Renders as a fenced Python block (``_repr_markdown_``) in Jupyter,
        JupyterLab, Colab and the HTML book; prints as plain text elsewhere.
        Comments for the test harness (``# NBVAL_...``, ``# noqa``,
        ``# pragma``, ``# type: ignore``) are left out; everything else is the
        code as it runs.

    Raises
    ------
    TypeError
        If ``obj`` has no retrievable source (a built-in, or an instance).

    Examples
    --------
    >>> from mlbook.tree import entropy
    >>> src = show_source(entropy)
    >>> str(src).startswith("def entropy(")
    True
    >>> src._repr_markdown_().splitlines()[0]
    '```python'
    """
    target = inspect.unwrap(obj.fget if isinstance(obj, property) else obj)
    try:
        code = inspect.getsource(target)
    except (TypeError, OSError) as exc:
        raise TypeError(
            f"obj must be a function, class, method or module of the package with source "
            f"code; got {obj!r} ({exc})"
        ) from None
    name = getattr(target, "__qualname__", getattr(target, "__name__", repr(obj)))
    return SourceCode(_clean(code), name)


def benchmark_dir() -> Path:
    """Where ``make bench`` writes its results: ``book/benchmarks`` of the clone.

    Found from the package's own location (an editable install inside a clone),
    never from the notebook's working folder.
    """
    return Path(__file__).resolve().parent.parent / "book" / "benchmarks"


def load_benchmark(name: str) -> dict | None:
    """Read the benchmark result ``<name>.json``, or say in one line that it is absent.

    Parameters
    ----------
    name : str
        The file name without ``.json`` (for example ``"tree_gini_fit"``).

    Returns
    -------
    dict or None
        The benchmark's record (``ours_seconds``, ``sklearn_seconds``,
        ``ratio``, ``details``, ...), or None when this copy of ``mlbook`` was
        not installed from a clone that holds the results (Colab, a wheel).
    """
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise ValueError(f"name must be a benchmark file name such as 'tree_gini_fit'; got {name!r}")
    path = benchmark_dir() / f"{name}.json"
    if not path.is_file():
        print(f"The benchmark result {name}.json is not available here (it comes with a clone "
              f"of the repository; `make bench` writes it), so this cell reports nothing.")
        return None
    return json.loads(path.read_text(encoding="utf-8"))


SEED_VARIABLE = "MLBOOK_SEED"


def seed_offset() -> int:
    """The integer offset in the environment variable ``MLBOOK_SEED`` (0 when unset).

    Raises
    ------
    ValueError
        If ``MLBOOK_SEED`` is set to anything but a whole number >= 0.

    Examples
    --------
    >>> import os
    >>> os.environ.pop("MLBOOK_SEED", None) and None
    >>> seed_offset()
    0
    """
    raw = os.environ.get(SEED_VARIABLE, "").strip()
    if raw == "":
        return 0
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(
            f"the environment variable {SEED_VARIABLE} must be a whole number >= 0 "
            f"(an offset added to every seed of the book); got {raw!r}"
        ) from None
    if value < 0:
        raise ValueError(f"the environment variable {SEED_VARIABLE} must be >= 0; got {value}")
    return value


def seed(n: int = 0) -> int:
    """The seed of a chapter's random experiment number ``n``, shifted by ``MLBOOK_SEED``.

    Every random experiment in the book takes its seed from here
    (``np.random.default_rng(seed(0))``, ``random_state=seed(3)``, a splitter's
    ``random_state``), so that setting ``MLBOOK_SEED=k`` re-runs the whole
    chapter on other random draws. With the variable unset the seed is ``n``
    itself, and the book shows those runs.

    Parameters
    ----------
    n : int >= 0, default=0
        The seed the chapter would use on its own.

    Returns
    -------
    int
        ``n + seed_offset()``.

    Examples
    --------
    >>> import os
    >>> os.environ.pop("MLBOOK_SEED", None) and None
    >>> seed(7)
    7
    >>> os.environ["MLBOOK_SEED"] = "100"; seed(7)
    107
    >>> del os.environ["MLBOOK_SEED"]
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"n must be a whole number (the chapter's seed); got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"n must be >= 0; got {n}")
    return int(n) + seed_offset()

