"""The shared input checks: each bad input gets a message naming the argument."""

import numpy as np
import pytest

from mlbook._validation import (
    NotFittedError,
    check_array,
    check_bool,
    check_classification_targets,
    check_consistent_length,
    check_is_fitted,
    check_probabilities,
    check_random_state,
    check_sample_weight,
    check_scalar,
    check_vector,
    check_X_y,
    column_or_1d,
    encode_labels,
)
from input_data import binary
from mlbook.discriminant_analysis import KernelFisherDiscriminant, LinearDiscriminantAnalysis
from mlbook.linear_model import (ElasticNet, Lasso, LeastAbsoluteDeviation, LinearRegression,
                                 LogisticRegression, Ridge)
from mlbook.svm import SVC, SVR, LinearSVMPrimal
from mlbook.tree import DecisionTreeClassifier, ObliqueDecisionTreeClassifier

#: Every estimator of the chapters that these cross-cutting checks run over.
ALL_ESTIMATORS = [LinearRegression, LeastAbsoluteDeviation, Ridge, Lasso, ElasticNet,
                  LogisticRegression, LinearDiscriminantAnalysis, KernelFisherDiscriminant,
                  DecisionTreeClassifier, ObliqueDecisionTreeClassifier, SVC, SVR,
                  LinearSVMPrimal]


@pytest.mark.parametrize(
    "X, match",
    [
        (None, "X must be an array-like, got None"),
        ("abc", "X must be an array-like of numbers"),
        ([[1, "a"]], "X must contain numbers only"),
        ([1.0, 2.0], "X must be a 2-d array"),
        (np.empty((0, 3)), "at least 1 sample"),
        ([[1.0, np.nan]], "X contains NaN"),
        ([[1.0, np.inf]], "X contains infinity"),
    ],
)
def test_check_array_rejects(X, match):
    with pytest.raises((ValueError, TypeError), match=match):
        check_array(X)


def test_check_array_allows_nan_when_asked_and_keeps_objects():
    assert np.isnan(check_array([[np.nan, 1.0]], allow_nan=True)).sum() == 1
    mixed = check_array([["a", 1.0]], dtype=None)
    assert mixed.dtype == object or mixed.dtype.kind == "U"


def test_lengths_and_1d():
    with pytest.raises(ValueError, match="X and y have different lengths: 3 and 2"):
        check_X_y(np.ones((3, 2)), [0, 1])
    with pytest.raises(ValueError, match="y must be a 1-d array"):
        column_or_1d(np.ones((2, 2)))
    with pytest.raises(ValueError, match="y is empty"):
        column_or_1d([])
    check_consistent_length([1], None, [2])  # None is skipped


def test_check_scalar():
    assert check_scalar(1, "n", int, min_val=1) == 1
    with pytest.raises(TypeError, match="C must be of type Real"):
        check_scalar("1", "C")
    with pytest.raises(ValueError, match="C must be > 0"):
        check_scalar(0.0, "C", min_val=0.0, include_min=False)
    with pytest.raises(TypeError, match="must be a number, got a bool"):
        check_scalar(True, "alpha")


def test_fitted_targets_weights_probabilities():
    class E:
        pass

    with pytest.raises(NotFittedError, match="not fitted yet"):
        check_is_fitted(E(), "coef_")
    with pytest.raises(ValueError, match="single class"):
        check_classification_targets(np.array([1, 1, 1]))
    with pytest.raises(ValueError, match="exactly 2 classes"):
        check_classification_targets(np.array([0, 1, 2]), n_classes=2)
    with pytest.raises(ValueError, match="looks continuous"):
        check_classification_targets(np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match="non-negative"):
        check_sample_weight([1, -1], 2)
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        check_probabilities([0.2, 1.5])


def test_random_state_is_local_and_reproducible():
    before = np.random.get_state()[1].copy()
    a = check_random_state(42).random(3)
    b = check_random_state(42).random(3)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(np.random.get_state()[1], before)
    with pytest.raises(TypeError, match="random_state must be"):
        check_random_state("seed")


# --- bad and extreme input ----------------------------------------------------

@pytest.mark.parametrize("Est", ALL_ESTIMATORS, ids=lambda c: c.__name__)
def test_complex_X_is_rejected(Est):
    # guards against: 12 of these 13 fitted on the real part with a ComplexWarning at most
    X, y = binary(40, 2)
    with pytest.raises(ValueError, match="X contains complex numbers"):
        Est().fit(X + 1j, y)


@pytest.mark.parametrize("Est", ALL_ESTIMATORS, ids=lambda c: c.__name__)
def test_sparse_input_is_rejected_clearly(Est):
    # guards against: "setting an array element with a sequence"
    sparse = pytest.importorskip("scipy.sparse")
    X, y = binary(40, 2)
    with pytest.raises(TypeError, match=r"X is a sparse matrix .*sparse input is not supported"):
        Est().fit(sparse.csr_matrix(X), y)
    fitted = Est().fit(X, y)
    with pytest.raises(TypeError, match="sparse input is not supported"):
        fitted.predict(sparse.csr_array(X))


@pytest.mark.parametrize("Est", [LinearRegression, Ridge, Lasso, LeastAbsoluteDeviation, SVR])
def test_regressor_string_y_names_y(Est):
    # guards against: "could not convert string to float: np.str_('a')"
    X, _ = binary(10, 2)
    with pytest.raises(ValueError, match="^y must contain numbers"):
        Est().fit(X, np.array(["a"] * 10))


@pytest.mark.parametrize("model, message", [
    (ObliqueDecisionTreeClassifier(alpha=np.inf), "alpha must be finite"),      # guards against: NaN, accuracy 0.5
    (LinearSVMPrimal(average="yes"), "average must be True or False"),        # guards against: ignored
    (LinearRegression(solver="normal", max_iter=0), "max_iter must be >= 1"),
    (LinearRegression(solver="normal", learning_rate=-1.0), "learning_rate must be > 0"),
    (LinearRegression(solver="normal", tol=-1.0), "tol must be >= 0"),
    (LogisticRegression(solver="newton", learning_rate=0.0), "learning_rate must be > 0"),
    (LogisticRegression(solver="newton", batch_size=0), "batch_size must be >= 1"),
    (LogisticRegression(solver="gd", random_state="seed"), "random_state must be"),
    (LinearSVMPrimal(random_state="seed"), "random_state must be"),
    (SVC(kernel="linear", gamma=-1.0), "gamma must be > 0"),
    (SVC(kernel="rbf", degree=0), "degree must be >= 1"),
    (SVC(kernel="rbf", coef0=np.inf), "coef0 must be finite"),
    (SVR(kernel="linear", gamma="bogus"), "gamma must be 'scale', 'auto' or a positive"),
    (SVC(kernel=lambda A, B: A @ B.T, gamma=0.0), "gamma must be > 0"),
    (SVR(kernel=lambda A, B: A @ B.T, degree=1.5), "degree must be of type Integral"),
    (KernelFisherDiscriminant(kernel="linear", gamma=-1.0), "gamma must be"),
    (KernelFisherDiscriminant(kernel="rbf", degree=0), "degree must be"),
    (KernelFisherDiscriminant(kernel="rbf", coef0=np.nan), "coef0 must be"),
    (KernelFisherDiscriminant(reg=np.inf), "reg must be finite"),
    (DecisionTreeClassifier(max_depth=0), "max_depth must be >= 1"),
    (LinearDiscriminantAnalysis(n_components=0), "n_components must be >= 1"),
], ids=lambda v: v if isinstance(v, str) else type(v).__name__)
def test_every_parameter_is_validated(model, message):
    X, y = binary(40, 2)
    with pytest.raises((ValueError, TypeError), match=message):
        model.fit(X, y)


def test_column_vector_y_warns_and_fits_the_same():
    from mlbook._validation import DataConversionWarning

    X, y = binary(40, 2)
    flat = LogisticRegression().fit(X, y)
    with pytest.warns(DataConversionWarning, match="A column-vector y was passed"):
        column = LogisticRegression().fit(X, y[:, None])
    np.testing.assert_array_equal(column.coef_, flat.coef_)
    with pytest.warns(DataConversionWarning):
        DecisionTreeClassifier().fit(X, y[:, None])


@pytest.mark.parametrize("Est", [LogisticRegression, KernelFisherDiscriminant, LinearSVMPrimal])
def test_binary_only_estimators_say_so(Est):
    X, _ = binary(60, 2)
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        Est().fit(X, np.arange(60) % 3)


@pytest.mark.parametrize("Est, binary", [(LogisticRegression, True),
                                         (KernelFisherDiscriminant, True),
                                         (LinearSVMPrimal, True),
                                         (SVC, False), (DecisionTreeClassifier, False),
                                         (LinearDiscriminantAnalysis, False)])
def test_multi_class_tag(Est, binary):
    pytest.importorskip("sklearn", minversion="1.6")
    from sklearn.utils import get_tags

    assert get_tags(Est()).classifier_tags.multi_class is (not binary)



# --- check_bool, check_scalar's finiteness, encode_labels -------------------------

@pytest.mark.parametrize("value", [True, False, np.True_, np.False_])
def test_check_bool_accepts_python_and_numpy_bools(value):
    assert check_bool(value, "flag") is bool(value)


@pytest.mark.parametrize("value", ["no", "True", 1, 0, None, 1.0, np.int64(1), [True]])
def test_check_bool_refuses_everything_else(value):
    with pytest.raises(TypeError, match="flag must be True or False; got"):
        check_bool(value, "flag")


@pytest.mark.parametrize("value", [np.inf, -np.inf, float("inf")])
def test_check_scalar_refuses_infinity_unless_allowed(value):
    with pytest.raises(ValueError, match="alpha must be finite"):
        check_scalar(value, "alpha")
    assert check_scalar(value, "C", allow_inf=True) == value
    with pytest.raises(ValueError, match="C must be a number; got NaN"):
        check_scalar(np.nan, "C", allow_inf=True)


@pytest.mark.parametrize("value", [np.inf, -np.inf])
def test_check_vector_refuses_infinity(value):
    # guards against: an infinite error rate giving t = NaN instead of a message
    with pytest.raises(ValueError, match="^errors_a contains infinity; every entry must be finite$"):
        check_vector([0.1, value, 0.2], "errors_a")
    np.testing.assert_array_equal(check_vector([0.1, 0.2], "errors_a"), [0.1, 0.2])


def test_a_public_caller_refuses_an_infinite_vector():
    from mlbook.model_selection import paired_ttest_kfold
    with pytest.raises(ValueError, match="^errors_b contains infinity"):
        paired_ttest_kfold([0.1, 0.2, 0.3], [0.1, np.inf, 0.2])


def test_check_scalar_with_bool_is_check_bool():
    assert check_scalar(np.False_, "shuffle", bool) is False
    with pytest.raises(TypeError, match="shuffle must be True or False"):
        check_scalar(1, "shuffle", bool)


@pytest.mark.parametrize("y", [["b", "a", "c", "a"], [3, 1, 2, 1], [2.5, -1.0, 2.5, 0.0]])
def test_encode_labels_sorts_the_classes(y):
    classes, codes = encode_labels(y)
    np.testing.assert_array_equal(classes, np.unique(y))      # the one order: sorted
    np.testing.assert_array_equal(classes[codes], y)
    assert codes.dtype == np.int64


def test_encode_labels_with_given_classes_keeps_their_order():
    classes, codes = encode_labels(["a", "c", "z", "b"], classes=["c", "b", "a"])
    assert classes.tolist() == ["c", "b", "a"] and codes.tolist() == [2, 0, -1, 1]
    assert encode_labels([1, 2], classes=["1", "2"])[1].tolist() == [-1, -1]   # strings vs numbers


@pytest.mark.parametrize("seed,error,match", [(True, TypeError, "random_state must be None, an int"),
                                              (-1, ValueError, "random_state must be >= 0"),
                                              ("x", TypeError, "random_state must be None, an int")])
def test_check_random_state_refuses_bools_and_negative_seeds(seed, error, match):
    # guards against: True taken as the seed 1; -1 reaching NumPy's own message
    with pytest.raises(error, match=match):
        check_random_state(seed)


@pytest.mark.parametrize("Est", [SVC, SVR])
def test_svm_validates_random_state_also_for_wss2(Est):
    # random_state is read by selection="platt" only; it is still checked
    X, y = binary(40, 2)
    with pytest.raises(TypeError, match="random_state must be"):
        Est(random_state="x").fit(X, y)


# --- every estimator checks every scalar hyper-parameter -----------------------------

def _public_estimators() -> list[type]:
    import importlib
    import inspect
    import pkgutil

    import mlbook
    from mlbook.base import BaseEstimator

    found = {}
    for info in pkgutil.walk_packages(mlbook.__path__, prefix="mlbook."):
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if (inspect.isclass(obj) and issubclass(obj, BaseEstimator) and hasattr(obj, "fit")
                    and not inspect.isabstract(obj)):
                found[name] = obj
    return [found[k] for k in sorted(found)]


def _scalar_parameters():
    import inspect

    bad = {bool: ["no", 1, None], float: ["x", True, np.inf, np.nan], int: ["x", True, np.inf]}
    for Est in _public_estimators():
        for name, p in inspect.signature(Est.__init__).parameters.items():
            kind = type(p.default)
            if kind in bad:
                for value in bad[kind]:
                    yield pytest.param(Est, name, value, id=f"{Est.__name__}-{name}={value!r}")


#: Estimators whose __init__ has a required argument: a valid value for it, so that the
#: sweep reaches the parameter under test.
REQUIRED: dict[str, dict] = {
    "StackingClassifier": {"estimators": [("lda", LinearDiscriminantAnalysis()), ("svc", SVC())]},
    "VotingClassifier": {"estimators": [("lda", LinearDiscriminantAnalysis()), ("svc", SVC())]},
    "CalibratedClassifier": {"estimator": LinearDiscriminantAnalysis()},
}

#: Values a parameter takes on purpose.
MEANINGFUL = {("LogisticRegression", "C", np.inf): "C=inf is the unpenalised model"}


@pytest.mark.parametrize("Est, name, value", list(_scalar_parameters()))
def test_every_scalar_hyper_parameter_is_checked(Est, name, value):
    # guards against: BPNetwork(accumulated="no") running accumulated BP, Perceptron(eta0=inf)
    # giving NaN weights, SVC(random_state="x") accepted because only "platt" reads it
    if (Est.__name__, name, value) in MEANINGFUL:
        pytest.skip(MEANINGFUL[(Est.__name__, name, value)])
    X, y = binary(40, 3)
    if Est.__name__ in ("CategoricalNB", "MixedNB"):
        X = (X > 0).astype(int)                     # category codes
    # the shared checks' messages start with the parameter's name: "max_iter must be ..."
    with pytest.raises((TypeError, ValueError), match=rf"^{name} must "):
        Est(**REQUIRED.get(Est.__name__, {}), **{name: value}).fit(X, y)


# --- every public function checks every bool parameter --------------------------------

def _svm_and_data():
    X, y = binary(40, 2)
    return SVC(kernel="linear").fit(X, y), X, y


def _fitted_tree():
    X, y = binary(40, 2)
    return DecisionTreeClassifier(max_depth=2).fit(X, y)


def _plot(draw):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    try:
        return draw()
    finally:
        plt.close("all")


_Y2, _S2 = [0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3]

#: A valid call of each public callable with a bool-default parameter, that parameter set to v.
BOOL_CALLS = {
    ("mlbook.datasets.load_watermelon", "return_X_y"):
        lambda v: __import__("mlbook.datasets").datasets.load_watermelon(return_X_y=v),
    ("mlbook.datasets.load_iris", "return_X_y"):
        lambda v: __import__("mlbook.datasets").datasets.load_iris(return_X_y=v),
    ("mlbook.datasets.load_wine", "return_X_y"):
        lambda v: __import__("mlbook.datasets").datasets.load_wine(return_X_y=v),
    ("mlbook.datasets.load_breast_cancer", "return_X_y"):
        lambda v: __import__("mlbook.datasets").datasets.load_breast_cancer(return_X_y=v),
    ("mlbook.datasets.load_digits", "return_X_y"):
        lambda v: __import__("mlbook.datasets").datasets.load_digits(return_X_y=v),
    ("mlbook.linear_model.lasso_path", "fit_intercept"):
        lambda v: __import__("mlbook.linear_model").linear_model.lasso_path(
            *binary(40, 2), [0.1], fit_intercept=v),
    ("mlbook.linear_model.logistic_objective", "fit_intercept"):
        lambda v: __import__("mlbook.linear_model").linear_model.logistic_objective(
            np.zeros(3 if v is True else 2), *binary(40, 2), fit_intercept=v),
    ("mlbook.tree.tree_feature_importances", "normalize"):
        lambda v: __import__("mlbook.tree").tree.tree_feature_importances(
            __import__("mlbook.tree").tree.DecisionTreeRegressor(max_depth=2).fit(
                np.arange(8.0)[:, None], np.arange(8.0)), normalize=v),
    ("mlbook.metrics.accuracy_score", "normalize"):
        lambda v: __import__("mlbook.metrics").metrics.accuracy_score(_Y2, _Y2, normalize=v),
    ("mlbook.metrics.zero_one_loss", "normalize"):
        lambda v: __import__("mlbook.metrics").metrics.zero_one_loss(_Y2, _Y2, normalize=v),
    ("mlbook.metrics.roc_curve", "drop_intermediate"):
        lambda v: __import__("mlbook.metrics").metrics.roc_curve(_Y2, _S2, drop_intermediate=v),
    ("mlbook.metrics.precision_recall_curve", "drop_intermediate"):
        lambda v: __import__("mlbook.metrics").metrics.precision_recall_curve(
            _Y2, _S2, drop_intermediate=v),
    ("mlbook.model_selection.train_test_split", "shuffle"):
        lambda v: __import__("mlbook.model_selection").model_selection.train_test_split(
            np.arange(10), shuffle=v),
    ("mlbook.model_selection.mcnemar_test", "correction"):
        lambda v: __import__("mlbook.model_selection").model_selection.mcnemar_test(
            [0, 1, 1, 0], [0, 1, 0, 0], [1, 1, 1, 0], correction=v),
    ("mlbook.model_selection.mcnemar_test", "exact"):
        lambda v: __import__("mlbook.model_selection").model_selection.mcnemar_test(
            [0, 1, 1, 0], [0, 1, 0, 0], [1, 1, 1, 0], exact=v),
    ("mlbook.model_selection.friedman_test", "greater_is_better"):
        lambda v: __import__("mlbook.model_selection").model_selection.friedman_test(
            [[1, 2, 3], [1, 3, 2], [2, 1, 3]], greater_is_better=v),
    ("mlbook.model_selection.friedman_test", "tie_correction"):
        lambda v: __import__("mlbook.model_selection").model_selection.friedman_test(
            [[1, 2, 3], [1, 3, 2], [2, 1, 3]], tie_correction=v),
    ("mlbook.model_selection.bias_variance_decomposition", "unbiased"):
        lambda v: __import__("mlbook.model_selection").model_selection.bias_variance_decomposition(
            [[0.1, 0.2], [0.3, 0.1]], [0.2, 0.1], unbiased=v),
    ("mlbook.plotting.plot_svm_margin", "shade"):
        lambda v: _plot(lambda: __import__("mlbook.plotting").plotting.plot_svm_margin(
            *_svm_and_data(), resolution=20, shade=v)),
    ("mlbook.plotting.plot_roc_curve", "chance"):
        lambda v: _plot(lambda: __import__("mlbook.plotting").plotting.plot_roc_curve(
            [0.0, 1.0], [0.0, 1.0], chance=v)),
    ("mlbook.tree.export_text", "show_counts"):
        lambda v: __import__("mlbook.tree").tree.export_text(_fitted_tree(), show_counts=v),
    ("mlbook.base.BaseEstimator.get_params", "deep"):
        lambda v: LinearRegression().get_params(deep=v),
    ("mlbook.model_selection.KFold", "shuffle"):
        lambda v: list(__import__("mlbook.model_selection").model_selection.KFold(
            2, shuffle=v).split(np.zeros((4, 1)))),
    ("mlbook.model_selection.StratifiedKFold", "shuffle"):
        lambda v: list(__import__("mlbook.model_selection").model_selection.StratifiedKFold(
            2, shuffle=v).split(np.zeros((4, 1)), _Y2)),
    ("mlbook.optim.SGD", "nesterov"):
        lambda v: __import__("mlbook.optim").optim.SGD([np.zeros(2)], lr=0.1, momentum=0.9,
                                                       nesterov=v),
    ("mlbook.optim.RMSprop", "centered"):
        lambda v: __import__("mlbook.optim").optim.RMSprop([np.zeros(2)], centered=v),
    ("mlbook.optim.Adam", "amsgrad"):
        lambda v: __import__("mlbook.optim").optim.Adam([np.zeros(2)], amsgrad=v),
    ("mlbook.optim.AdamW", "amsgrad"):
        lambda v: __import__("mlbook.optim").optim.AdamW([np.zeros(2)], amsgrad=v),
    ("mlbook.calibration.isotonic_regression", "increasing"):
        lambda v: __import__("mlbook.calibration").calibration.isotonic_regression(
            [1.0, 3.0, 2.0], increasing=v),
    ("mlbook.datasets.load_spam", "return_X_y"):
        lambda v: __import__("mlbook.datasets").datasets.load_spam(return_X_y=v),
    ("mlbook.feature_extraction.bag_of_words", "binary"):
        lambda v: __import__("mlbook.feature_extraction").feature_extraction.bag_of_words(
            ["a cat", "the cat"], binary=v),
    ("mlbook.feature_extraction.bag_of_words", "lowercase"):
        lambda v: __import__("mlbook.feature_extraction").feature_extraction.bag_of_words(
            ["a cat", "the cat"], lowercase=v),
    ("mlbook.feature_extraction.tokenize", "lowercase"):
        lambda v: __import__("mlbook.feature_extraction").feature_extraction.tokenize(
            "A cat", lowercase=v),
}

#: Bool-default parameters left out of the sweep, with the reason.
BOOL_EXEMPT = {
    ("mlbook.tree.Node", "empty"): "a record the growers build, not an entry point",
}


def _bool_default_parameters() -> set[tuple[str, str]]:
    """(public name, parameter) for every bool-default parameter of a public function, of a
    public class's __init__ that is not an estimator's hyper-parameter (those are swept
    above), and of a public method."""
    import importlib
    import inspect
    import pkgutil

    import mlbook
    from mlbook.base import BaseEstimator

    homes: dict[int, tuple[str, str, object]] = {}    # each object under its shortest module
    for info in pkgutil.walk_packages(mlbook.__path__, prefix="mlbook."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue                                  # private modules: their callers check
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if id(obj) not in homes or len(info.name) < len(homes[id(obj)][0]):
                homes[id(obj)] = (info.name, name, obj)

    found = set()

    def add(qualname, func):
        params = inspect.signature(func).parameters
        found.update((qualname, p) for p, v in params.items() if isinstance(v.default, bool))

    for home, name, obj in homes.values():
        if inspect.isclass(obj):
            if not issubclass(obj, BaseEstimator):
                add(f"{home}.{name}", obj.__init__)
            for meth, func in vars(obj).items():
                if not meth.startswith("_") and inspect.isfunction(func):
                    add(f"{home}.{name}.{meth}", func)
        elif inspect.isfunction(obj):
            add(f"{home}.{name}", obj)
    return found


def test_the_bool_sweep_covers_every_bool_parameter():
    # a new public bool parameter joins BOOL_CALLS (or BOOL_EXEMPT, with a reason)
    found = _bool_default_parameters()
    assert sorted(found - set(BOOL_CALLS) - set(BOOL_EXEMPT)) == [], "not swept"
    assert sorted(set(BOOL_CALLS) - found) == [], "BOOL_CALLS names parameters that are gone"


@pytest.mark.parametrize("key", sorted(BOOL_CALLS), ids=lambda k: f"{k[0]}-{k[1]}")
@pytest.mark.parametrize("value", ["no", 1, None])
def test_every_bool_parameter_of_a_public_function_is_checked(key, value):
    # guards against: export_text(show_counts="no") showing counts, load_iris(return_X_y=1)
    # returning a tuple, plot_roc_curve(chance=None) quietly leaving the diagonal out
    call = BOOL_CALLS[key]
    call(True), call(np.False_)                       # both bools are accepted
    with pytest.raises(TypeError, match=rf"^{key[1]} must be True or False; got"):
        call(value)
