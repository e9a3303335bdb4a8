r"""Neural networks: the perceptron, multi-layer perceptrons and back-propagation.

The chapter *Neural networks* derives everything here. The module has three
layers, from the formulas up:

* pure functions: the activations and their derivatives, :func:`forward`
  (every layer's activations) and :func:`backprop` (the loss and its gradient
  with respect to every weight matrix and bias vector), with a shape comment
  on every matrix product;
* :class:`Perceptron` (Rosenblatt's learning rule, scikit-learn's names) and
  :class:`BPNetwork`, Zhou's one-hidden-layer network trained by standard or
  accumulated back-propagation exactly as his section 5.3 states it;
* :class:`MLPClassifier` and :class:`MLPRegressor`, with scikit-learn's names,
  defaults, loss, initialisation and stopping rules, trained by the optimisers
  of ``mlbook.optim``.

Notation (the book's, after Zhou): layer :math:`l = 1, \dots, L` has
:math:`h_l` units, :math:`h_0 = d` inputs; ``coefs[l-1]`` is
:math:`W_l` of shape :math:`(h_{l-1}, h_l)` and ``intercepts[l-1]`` is
:math:`\boldsymbol b_l` of shape :math:`(h_l,)`. A row of ``X`` is one
sample, so a layer computes :math:`Z_l = A_{l-1} W_l + \boldsymbol b_l`,
:math:`A_l = f(Z_l)`, with :math:`A_0 = X`. Zhou writes the bias as a
threshold that is subtracted, :math:`f(\beta_j - \theta_j)`; the two
conventions differ only by the sign, :math:`b = -\theta`.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any, Sequence

import numpy as np

from ._validation import (
    check_array,
    check_bool,
    check_classification_targets,
    check_consistent_length,
    check_predict_X,
    check_random_state,
    check_scalar,
    check_X_y,
    column_or_1d,
)
from ._math import expit, softmax
from .base import BaseEstimator, ClassifierMixin, RegressorMixin
from .exceptions import ConvergenceWarning

__all__ = [
    "ACTIVATIONS",
    "ConvergenceWarning",
    "identity",
    "logistic",
    "relu",
    "softmax",
    "step",
    "tanh",
    "activation_derivative",
    "glorot_uniform",
    "he_uniform",
    "INITS",
    "initial_weights",
    "n_parameters",
    "forward",
    "backprop",
    "Perceptron",
    "BPNetwork",
    "MLPClassifier",
    "MLPRegressor",
]


# ---------------------------------------------------------------------------
# Activations (激活函数) and their derivatives
# ---------------------------------------------------------------------------


def step(z: Any) -> np.ndarray:
    r"""The unit step :math:`\operatorname{sgn}(z) = 1` if :math:`z \ge 0`, else 0 (M-P neuron).

    >>> step([-1.0, 0.0, 2.0]).tolist()
    [0.0, 1.0, 1.0]
    """
    return (np.asarray(z, dtype=np.float64) >= 0).astype(np.float64)


def identity(z: Any) -> np.ndarray:
    """The identity :math:`f(z) = z` (a linear unit)."""
    return np.array(z, dtype=np.float64)


#: The logistic sigmoid :math:`\sigma(z) = 1 / (1 + e^{-z})` by scikit-learn's activation
#: name: the package's one stable sigmoid, :func:`mlbook.linear_model.expit`.
logistic = expit


def tanh(z: Any) -> np.ndarray:
    r"""The hyperbolic tangent :math:`\tanh z = 2\sigma(2z) - 1`."""
    return np.tanh(np.asarray(z, dtype=np.float64))


def relu(z: Any) -> np.ndarray:
    r"""The rectified linear unit :math:`\max(z, 0)`."""
    return np.maximum(np.asarray(z, dtype=np.float64), 0.0)


#: The hidden-layer activations by scikit-learn's names.
ACTIVATIONS = {"identity": identity, "logistic": logistic, "tanh": tanh, "relu": relu}
_OUT_ACTIVATIONS = ("softmax", "logistic", "identity")


def _check_activation(activation: Any) -> str:
    """Refuse an activation that is not one of :data:`ACTIVATIONS`' names."""
    if not isinstance(activation, str) or activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}; got {activation!r}")
    return activation


def activation_derivative(A: Any, activation: str) -> np.ndarray:
    r"""The derivative :math:`f'(z)` written through the activation's value :math:`a = f(z)`.

    ========== ====================== ============================
    activation :math:`f(z)`           :math:`f'(z)` in terms of a
    ========== ====================== ============================
    identity   :math:`z`              :math:`1`
    logistic   :math:`1/(1+e^{-z})`   :math:`a(1-a)`
    tanh       :math:`\tanh z`        :math:`1-a^2`
    relu       :math:`\max(z, 0)`     :math:`[a > 0]`
    ========== ====================== ============================

    Back-propagation only needs the values the forward pass stored, which is
    why the derivatives are written this way. (ReLU is not differentiable at
    0; like scikit-learn we take 0 there.)

    Parameters
    ----------
    A : array-like
        Activations :math:`a = f(z)`.
    activation : {"identity", "logistic", "tanh", "relu"}

    >>> activation_derivative([0.5], "logistic").tolist()
    [0.25]
    """
    A = np.asarray(A, dtype=np.float64)
    if activation == "identity":
        return np.ones_like(A)
    if activation == "logistic":
        return A * (1.0 - A)
    if activation == "tanh":
        return 1.0 - A * A
    if activation == "relu":
        return (A > 0).astype(np.float64)
    raise ValueError(
        f"activation must be one of {sorted(ACTIVATIONS)}; got {activation!r}"
    )


def _activate_inplace(Z: np.ndarray, activation: str) -> np.ndarray:
    """Apply a hidden activation (or an output one) to ``Z`` in place and return it."""
    if activation == "relu":
        np.maximum(Z, 0.0, out=Z)
    elif activation == "tanh":
        np.tanh(Z, out=Z)
    elif activation == "logistic":
        Z[...] = logistic(Z)
    elif activation == "softmax":
        # mlbook._math.softmax written in place: the same result bit for bit, without its two
        # temporaries (on a full batch of 1797 x 10 it takes 106 us in place, 259 us copied)
        Z -= Z.max(axis=1, keepdims=True)
        np.exp(Z, out=Z)
        Z /= Z.sum(axis=1, keepdims=True)
    # identity: nothing to do
    return Z


def _multiply_derivative_inplace(delta: np.ndarray, A: np.ndarray, activation: str) -> None:
    """``delta *= f'(Z)``, with ``f'`` written through ``A = f(Z)`` (in place)."""
    if activation == "relu":
        delta[A <= 0] = 0.0
    elif activation == "tanh":
        delta *= 1.0 - A * A
    elif activation == "logistic":
        delta *= A * (1.0 - A)
    # identity: f' = 1


# ---------------------------------------------------------------------------
# Initialisation and the parameter count
# ---------------------------------------------------------------------------


def glorot_uniform(fan_in: int, fan_out: int, activation: str = "relu",
                   random_state: Any = None) -> tuple[np.ndarray, np.ndarray]:
    r"""Glorot-uniform initial weights and biases of one layer, as scikit-learn draws them.

    Both are drawn from :math:`U(-r, r)` with
    :math:`r = \sqrt{6 / (h_{in} + h_{out})}`, or
    :math:`\sqrt{2 / (h_{in} + h_{out})}` for the logistic activation
    (Glorot and Bengio, 2010; scikit-learn's ``_init_coef``). With the
    factor 6 the weights' variance, :math:`r^2/3 = 2/(h_{in} + h_{out})`, is
    Glorot and Bengio's compromise between keeping the signal's variance
    constant forwards (:math:`1/h_{in}`) and backwards (:math:`1/h_{out}`);
    the logistic factor 2, scikit-learn's choice, gives a third of it.

    Returns
    -------
    W : ndarray of shape (fan_in, fan_out)
    b : ndarray of shape (fan_out,)
    """
    check_scalar(fan_in, "fan_in", numbers.Integral, min_val=1)
    check_scalar(fan_out, "fan_out", numbers.Integral, min_val=1)
    _check_activation(activation)
    rng = check_random_state(random_state)
    factor = 2.0 if activation == "logistic" else 6.0
    bound = np.sqrt(factor / (fan_in + fan_out))
    W = rng.uniform(-bound, bound, size=(fan_in, fan_out))
    b = rng.uniform(-bound, bound, size=fan_out)
    return W, b


def he_uniform(fan_in: int, fan_out: int,
               random_state: Any = None) -> tuple[np.ndarray, np.ndarray]:
    r"""He-uniform initial weights of one layer, and zero biases.

    The weights are drawn from :math:`U(-r, r)` with
    :math:`r = \sqrt{6 / h_{in}}`, so their variance is
    :math:`r^2/3 = 2 / h_{in}` (He et al., 2015): a ReLU unit passes on half of
    its input's second moment, :math:`\mathbb E[a^2] = \operatorname{Var}[z]/2`,
    and the factor 2 makes up for it, keeping the variance of the signal
    constant from layer to layer. This is PyTorch's
    ``torch.nn.init.kaiming_uniform_(W, nonlinearity="relu")`` (whose bound is
    :math:`\sqrt 2 \cdot \sqrt{3 / h_{in}}`). The biases start at 0.

    Returns
    -------
    W : ndarray of shape (fan_in, fan_out)
    b : ndarray of shape (fan_out,), zeros

    >>> W, b = he_uniform(50, 3, random_state=0)
    >>> bool(np.abs(W).max() <= np.sqrt(6 / 50)), b.tolist()
    (True, [0.0, 0.0, 0.0])
    """
    check_scalar(fan_in, "fan_in", numbers.Integral, min_val=1)
    check_scalar(fan_out, "fan_out", numbers.Integral, min_val=1)
    rng = check_random_state(random_state)
    bound = np.sqrt(6.0 / fan_in)
    W = rng.uniform(-bound, bound, size=(fan_in, fan_out))
    return W, np.zeros(fan_out)


#: The initialisations of :class:`MLPClassifier` and :class:`MLPRegressor` by name.
INITS = ("glorot", "he")


def _check_init(init: Any) -> str:
    if not isinstance(init, str) or init not in INITS:
        raise ValueError(f"init must be one of {list(INITS)}; got {init!r}")
    return init


def initial_weights(layer_units: Sequence[int], activation: str = "relu",
                    init: str = "glorot",
                    random_state: Any = None) -> tuple[list[np.ndarray], list[np.ndarray]]:
    r"""The initial weights and biases of a network, drawn as the MLPs draw them.

    Layer by layer, from the input to the output, :func:`glorot_uniform`
    (``init="glorot"``, with the factor of ``activation``) or
    :func:`he_uniform` (``init="he"``). ``MLPClassifier(init=init,
    activation=activation, random_state=s)`` starts from exactly these arrays
    (``random_state=s`` here), with ``layer_units = [n_features,
    *hidden_layer_sizes, n_outputs]``.

    Parameters
    ----------
    layer_units : list of int
        :math:`h_0 = d, h_1, \dots, h_L`.
    activation : {"identity", "logistic", "tanh", "relu"}, default="relu"
    init : {"glorot", "he"}, default="glorot"
    random_state : None, int or numpy Generator

    Returns
    -------
    coefs : list of L arrays
        ``coefs[l-1]`` of shape :math:`(h_{l-1}, h_l)`.
    intercepts : list of L arrays
        ``intercepts[l-1]`` of shape :math:`(h_l,)`.

    >>> coefs, intercepts = initial_weights([4, 8, 3], init="he", random_state=0)
    >>> [W.shape for W in coefs], [b.shape for b in intercepts]
    ([(4, 8), (8, 3)], [(8,), (3,)])
    """
    n_parameters(layer_units)                       # checks the sizes
    _check_activation(activation)
    _check_init(init)
    rng = check_random_state(random_state)
    coefs, intercepts = [], []
    for fan_in, fan_out in zip(layer_units[:-1], layer_units[1:]):
        if init == "he":
            W, b = he_uniform(int(fan_in), int(fan_out), rng)
        else:
            W, b = glorot_uniform(int(fan_in), int(fan_out), activation, rng)
        coefs.append(W)
        intercepts.append(b)
    return coefs, intercepts


def n_parameters(layer_units: Sequence[int]) -> int:
    r"""Number of weights and biases of a fully connected network.

    A layer of :math:`h_l` units fed by :math:`h_{l-1}` has
    :math:`(h_{l-1} + 1) h_l` parameters (a weight from each input and one
    bias, or threshold, per unit). For Zhou's network with :math:`d` inputs,
    :math:`q` hidden and :math:`l` output units this is
    :math:`(d+1)q + (q+1)l`.

    >>> n_parameters([64, 32, 10])            # (64+1)*32 + (32+1)*10
    2410
    """
    if isinstance(layer_units, (str, bytes)) or not isinstance(layer_units, Sequence):
        raise TypeError(f"layer_units must be a list of layer sizes; got {layer_units!r}")
    if len(layer_units) < 2:
        raise ValueError(f"layer_units needs at least two layers (input and output); "
                         f"got {list(layer_units)!r}")
    units = [int(check_scalar(u, f"layer_units[{i}]", numbers.Integral, min_val=1))
             for i, u in enumerate(layer_units)]
    return sum((a + 1) * b for a, b in zip(units[:-1], units[1:]))


# ---------------------------------------------------------------------------
# Forward pass and back-propagation (pure functions)
# ---------------------------------------------------------------------------


def _check_network(coefs, intercepts, X, activation, out_activation):
    if not isinstance(coefs, (list, tuple)) or not isinstance(intercepts, (list, tuple)):
        raise TypeError("coefs and intercepts must be lists of arrays (one per layer)")
    if len(coefs) == 0 or len(coefs) != len(intercepts):
        raise ValueError(
            f"coefs and intercepts must be non-empty lists of the same length; "
            f"got {len(coefs)} and {len(intercepts)}"
        )
    _check_activation(activation)
    if out_activation not in _OUT_ACTIVATIONS:
        raise ValueError(
            f"out_activation must be one of {list(_OUT_ACTIVATIONS)}; got {out_activation!r}"
        )
    X = check_array(X, "X")
    coefs = [np.asarray(W, dtype=np.float64) for W in coefs]
    intercepts = [np.asarray(b, dtype=np.float64) for b in intercepts]
    fan_in = X.shape[1]
    for i, (W, b) in enumerate(zip(coefs, intercepts)):
        if W.ndim != 2 or W.shape[0] != fan_in:
            raise ValueError(
                f"coefs[{i}] must have shape ({fan_in}, h); got {W.shape}"
            )
        if b.shape != (W.shape[1],):
            raise ValueError(
                f"intercepts[{i}] must have shape ({W.shape[1]},); got {b.shape}"
            )
        fan_in = W.shape[1]
    return coefs, intercepts, X


def _forward(coefs, intercepts, X, activation, out_activation):
    """The forward pass without checks; returns the activations of every layer."""
    activations = [X]
    last = len(coefs) - 1
    for i, (W, b) in enumerate(zip(coefs, intercepts)):
        # Z_l (n, h_l) = A_{l-1} (n, h_{l-1}) @ W_l (h_{l-1}, h_l) + b_l (h_l,)
        Z = activations[-1] @ W
        Z += b
        activations.append(_activate_inplace(Z, out_activation if i == last else activation))
    return activations


def forward(coefs: Sequence[Any], intercepts: Sequence[Any], X: Any,
            activation: str, out_activation: str) -> list[np.ndarray]:
    r"""Forward pass (信号的前向传播): the activations of every layer.

    Parameters
    ----------
    coefs : list of L arrays
        ``coefs[l-1]`` is :math:`W_l`, shape :math:`(h_{l-1}, h_l)`,
        :math:`h_0 = d` (the number of features).
    intercepts : list of L arrays
        ``intercepts[l-1]`` is :math:`\boldsymbol b_l`, shape :math:`(h_l,)`.
    X : array-like of shape (n_samples, d)
    activation : {"identity", "logistic", "tanh", "relu"}
        The hidden units' activation.
    out_activation : {"softmax", "logistic", "identity"}
        The output units' activation.

    Returns
    -------
    list of L + 1 arrays
        :math:`A_0 = X, A_1, \dots, A_L`, with :math:`A_l` of shape
        (n_samples, :math:`h_l`); :math:`A_L` is the network's output.

    Notes
    -----
    :math:`Z_l = A_{l-1} W_l + \boldsymbol 1 \boldsymbol b_l^\top` and
    :math:`A_l = f_l(Z_l)`, one matrix product per layer for all samples at
    once. See the chapter *Neural networks*.

    Examples
    --------
    >>> W = [np.array([[1.0, -1.0]]), np.array([[1.0], [1.0]])]
    >>> b = [np.zeros(2), np.array([-0.5])]
    >>> forward(W, b, [[2.0], [-3.0]], "relu", "identity")[-1].ravel().tolist()
    [1.5, 2.5]
    """
    coefs, intercepts, X = _check_network(coefs, intercepts, X, activation, out_activation)
    return _forward(coefs, intercepts, X, activation, out_activation)


def _output_loss(A_out: np.ndarray, Y: np.ndarray, out_activation: str) -> float:
    """Mean data loss of the output layer (no penalty), as scikit-learn defines it.

    Log-probabilities are clipped at the machine epsilon, as scikit-learn's
    ``log_loss`` does, so that a saturated output costs a large finite loss.
    """
    n = A_out.shape[0]
    if out_activation == "identity":
        # half the squared error, summed over outputs, averaged over samples
        R = A_out - Y
        return 0.5 * float(np.einsum("ij,ij->", R, R)) / n
    eps = np.finfo(np.float64).eps
    P = np.clip(A_out, eps, 1.0 - eps)
    if out_activation == "softmax":
        return -float(np.einsum("ij,ij->", Y, np.log(P))) / n
    # logistic outputs: binary cross-entropy of every output column
    return -float(np.einsum("ij,ij->", Y, np.log(P)) + np.einsum("ij,ij->", 1.0 - Y, np.log1p(-P))) / n


def _backprop(coefs, intercepts, X, Y, activation, out_activation, alpha):
    """Back-propagation without checks (the training loop calls this)."""
    n = X.shape[0]
    activations = _forward(coefs, intercepts, X, activation, out_activation)
    loss = _output_loss(activations[-1], Y, out_activation)
    loss += 0.5 * alpha * sum(float(np.einsum("ij,ij->", W, W)) for W in coefs) / n

    L = len(coefs)
    coef_grads: list[np.ndarray] = [None] * L  # type: ignore[list-item]
    intercept_grads: list[np.ndarray] = [None] * L  # type: ignore[list-item]
    # output layer: for softmax + log-loss, logistic + log-loss and identity +
    # half squared error alike, n * dLoss/dZ_L = A_L - Y   (n, h_L)
    delta = activations[-1] - Y
    for l in range(L - 1, -1, -1):
        # dLoss/dW_l (h_{l-1}, h_l) = A_{l-1}.T (h_{l-1}, n) @ delta_l (n, h_l), plus the penalty
        G = activations[l].T @ delta
        G += alpha * coefs[l]
        G /= n
        coef_grads[l] = G
        # dLoss/db_l (h_l,) = column sums of delta_l (n, h_l)
        intercept_grads[l] = delta.sum(axis=0) / n
        if l > 0:
            # delta_{l-1} (n, h_{l-1}) = delta_l (n, h_l) @ W_l.T (h_l, h_{l-1}), times f'(Z_{l-1})
            delta = delta @ coefs[l].T
            _multiply_derivative_inplace(delta, activations[l], activation)
    return loss, coef_grads, intercept_grads


def backprop(coefs: Sequence[Any], intercepts: Sequence[Any], X: Any, Y: Any,
             activation: str, out_activation: str,
             alpha: float = 0.0) -> tuple[float, list[np.ndarray], list[np.ndarray]]:
    r"""Back-propagation (误差逆传播): the loss and its gradient for every layer.

    Parameters
    ----------
    coefs, intercepts : lists of L arrays
        As in :func:`forward`.
    X : array-like of shape (n, d)
    Y : array-like of shape (n, h_L)
        Targets: one-hot rows for ``out_activation="softmax"``, 0/1 entries
        for ``"logistic"``, real values for ``"identity"``. A 1-d ``Y`` is
        read as one output column.
    activation : {"identity", "logistic", "tanh", "relu"}
    out_activation : {"softmax", "logistic", "identity"}
        Determines the loss: softmax with the mean log-loss
        (cross-entropy), logistic with the mean binary log-loss of every
        output column, identity with half the mean squared error.
    alpha : float, default=0.0
        L2 penalty on the weights (not on the biases).

    Returns
    -------
    loss : float
        :math:`\frac1n \sum_i \ell(\hat{\boldsymbol y}_i, \boldsymbol y_i) + \frac{\alpha}{2n} \sum_l \|W_l\|_F^2`.
    coef_grads : list of L arrays
        :math:`\partial\,\text{loss} / \partial W_l`, shapes of ``coefs``.
    intercept_grads : list of L arrays
        :math:`\partial\,\text{loss} / \partial \boldsymbol b_l`, shapes of
        ``intercepts``.

    Notes
    -----
    With :math:`\Delta_L = A_L - Y` (each of the three output/loss pairs is
    *canonical*: the derivative of the loss with respect to the output
    layer's input :math:`Z_L` is :math:`(A_L - Y)/n`) the recursion is

    .. math::

        \frac{\partial \text{loss}}{\partial W_l} = \frac1n \big(A_{l-1}^\top \Delta_l + \alpha W_l\big),
        \qquad
        \frac{\partial \text{loss}}{\partial \boldsymbol b_l} = \frac1n \Delta_l^\top \boldsymbol 1,
        \qquad
        \Delta_{l-1} = (\Delta_l W_l^\top) \odot f'(Z_{l-1}).

    Zhou's gradients are the rows of :math:`-\Delta`: :math:`g_j` at the
    output layer, :math:`e_h` at a hidden one. For several outputs the squared
    error is summed over the outputs (Zhou's :math:`E_k`); scikit-learn's
    reported loss averages them instead, though its gradient is this one.
    See the chapter *Neural networks*.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> W = [rng.normal(size=(3, 4)), rng.normal(size=(4, 2))]
    >>> b = [np.zeros(4), np.zeros(2)]
    >>> loss, gW, gb = backprop(W, b, rng.normal(size=(5, 3)), np.eye(2)[[0, 1, 1, 0, 1]],
    ...                         "tanh", "softmax")
    >>> [g.shape for g in gW], [g.shape for g in gb]
    ([(3, 4), (4, 2)], [(4,), (2,)])
    """
    coefs, intercepts, X = _check_network(coefs, intercepts, X, activation, out_activation)
    Y = np.asarray(Y, dtype=np.float64)
    if Y.ndim == 1:
        Y = Y.reshape(-1, 1)
    if Y.shape != (X.shape[0], coefs[-1].shape[1]):
        raise ValueError(
            f"Y must have shape (n_samples, n_outputs) = ({X.shape[0]}, "
            f"{coefs[-1].shape[1]}); got {Y.shape}"
        )
    if not np.isfinite(Y).all():
        raise ValueError("Y contains NaN or infinity")
    check_scalar(alpha, "alpha", numbers.Real, min_val=0.0)
    return _backprop(coefs, intercepts, X, Y, activation, out_activation, float(alpha))


# ---------------------------------------------------------------------------
# The perceptron (感知机)
# ---------------------------------------------------------------------------


class Perceptron(ClassifierMixin, BaseEstimator):
    r"""Rosenblatt's perceptron, trained by its mistake-driven rule.

    For each sample in turn (in a new random order every epoch when
    ``shuffle``), if :math:`y_i(\boldsymbol w^\top \boldsymbol x_i + b) \le 0`
    with :math:`y_i \in \{-1, +1\}`, update

    .. math::

        \boldsymbol w \leftarrow \boldsymbol w + \eta_0 y_i \boldsymbol x_i, \qquad
        b \leftarrow b + \eta_0 y_i .

    This is Zhou's rule :math:`\Delta w_i = \eta (y - \hat y) x_i` with 0/1
    labels and the threshold :math:`\theta = -b` on a dummy input of
    :math:`-1`. More than two classes are learned one-vs-rest, as in
    scikit-learn.

    Parameters
    ----------
    eta0 : float, default=1.0
        Learning rate :math:`\eta_0 > 0`. Starting from zero weights, it only
        scales :math:`(\boldsymbol w, b)` and never changes the predictions.
    max_iter : int, default=1000
        Maximum number of epochs (passes over the data).
    tol : float or None, default=None
        With ``None``, training stops after the first epoch without a
        mistake (the weights can no longer change) or after ``max_iter``
        epochs. With a number, it also stops, as scikit-learn's does, when
        the epoch's total perceptron loss
        :math:`\sum_i \max(0, -y_i f(\boldsymbol x_i))` has exceeded the best
        so far minus ``tol * n_samples`` in 5 consecutive epochs.
    shuffle : bool, default=True
        Visit the samples in a new random order every epoch.
    random_state : None, int or numpy Generator
        Seeds the shuffling.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    mistakes_ : ndarray of shape (n_epochs,)
        Number of updates (mistakes) in each of the ``n_iter_`` epochs, summed over the
        one-vs-rest problems; ``mistakes_.sum()`` is the count that
        Novikoff's theorem bounds by :math:`(R/\gamma)^2`.
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int

    Notes
    -----
    scikit-learn's ``Perceptron`` defaults to ``tol=1e-3`` and, with
    ``tol=None``, always runs ``max_iter`` epochs; its weights are the same,
    since an epoch without mistakes changes nothing. See the chapter
    *Neural networks*.

    Examples
    --------
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> Perceptron(shuffle=False).fit(X, [0, 0, 0, 1]).predict(X).tolist()   # AND
    [0, 0, 0, 1]
    """

    def __init__(self, eta0: float = 1.0, max_iter: int = 1000, tol: float | None = None,
                 shuffle: bool = True, random_state: Any = None):
        self.eta0 = eta0
        self.max_iter = max_iter
        self.tol = tol
        self.shuffle = shuffle
        self.random_state = random_state

    def fit(self, X: Any, y: Any) -> "Perceptron":
        """Learn the weights from ``X`` (n_samples, n_features) and labels ``y`` (n_samples,)."""
        check_scalar(self.eta0, "eta0", numbers.Real, min_val=0.0, include_min=False)
        check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=1)
        if self.tol is not None:
            check_scalar(self.tol, "tol", numbers.Real, min_val=0.0)
        check_bool(self.shuffle, "shuffle")
        X, y = check_X_y(X, y)
        self.classes_ = check_classification_targets(y)
        self.n_features_in_ = X.shape[1]
        rng = check_random_state(self.random_state)
        if self.classes_.size == 2:
            problems = [np.where(y == self.classes_[1], 1.0, -1.0)]
        else:
            problems = [np.where(y == c, 1.0, -1.0) for c in self.classes_]
        coefs, intercepts, iters, mistakes = [], [], [], []
        for s in problems:
            w, b, n_iter, m = self._fit_binary(X, s, rng)
            coefs.append(w)
            intercepts.append(b)
            iters.append(n_iter)
            mistakes.append(m)
        self.coef_ = np.array(coefs)
        self.intercept_ = np.array(intercepts)
        self.n_iter_ = max(iters)
        total = np.zeros(self.n_iter_, dtype=np.int64)
        for m in mistakes:
            total[: m.size] += m
        self.mistakes_ = total
        return self

    def _fit_binary(self, X, s, rng):
        n, d = X.shape
        w = np.zeros(d)
        b = 0.0
        eta = float(self.eta0)
        mistakes = []
        best_loss, no_improvement = np.inf, 0
        stopped = False
        for epoch in range(self.max_iter):
            order = rng.permutation(n) if self.shuffle else range(n)
            count, sumloss = 0, 0.0
            # The perceptron is online: each update changes the next margin, so
            # this loop over samples is the algorithm, not a missed vectorisation.
            for i in order:
                margin = s[i] * (X[i] @ w + b)
                if margin <= 0.0:
                    sumloss -= margin
                    w += (eta * s[i]) * X[i]
                    b += eta * s[i]
                    count += 1
            mistakes.append(count)
            if count == 0:
                stopped = True
                break
            if self.tol is not None:
                if sumloss > best_loss - self.tol * n:
                    no_improvement += 1
                else:
                    no_improvement = 0
                best_loss = min(best_loss, sumloss)
                if no_improvement >= 5:
                    stopped = True
                    break
        if not stopped:
            warnings.warn(
                f"Perceptron: {self.max_iter} epochs (max_iter) still made mistakes; "
                "the data may not be linearly separable",
                ConvergenceWarning, stacklevel=3,
            )
        return w, b, len(mistakes), np.array(mistakes, dtype=np.int64)

    def decision_function(self, X: Any) -> np.ndarray:
        r"""Signed scores :math:`\boldsymbol w^\top \boldsymbol x + b`: shape (n,) for two classes, else (n, n_classes)."""
        X = check_predict_X(self, X, "coef_")
        # (n, K) = X (n, d) @ coef_.T (d, K)
        scores = X @ self.coef_.T + self.intercept_
        return scores.ravel() if self.classes_.size == 2 else scores

    def predict(self, X: Any) -> np.ndarray:
        """Class labels: the positive class where the score is > 0 (two classes), else the argmax."""
        scores = self.decision_function(X)
        if self.classes_.size == 2:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]


# ---------------------------------------------------------------------------
# Zhou's BP network (one hidden layer, sigmoid units, squared error)
# ---------------------------------------------------------------------------


class BPNetwork(ClassifierMixin, BaseEstimator):
    r"""Zhou's one-hidden-layer network, trained by standard or accumulated BP.

    Exactly the network and algorithm of Zhou's section 5.3 (figure 5.8):
    :math:`d` inputs, :math:`q` hidden and :math:`l` output units, all
    sigmoid, with thresholds,

    .. math::

        b_h = f(\alpha_h - \gamma_h),\ \alpha_h = \sum_i v_{ih} x_i, \qquad
        \hat y_j = f(\beta_j - \theta_j),\ \beta_j = \sum_h w_{hj} b_h,

    the squared error :math:`E_k = \tfrac12 \sum_j (\hat y_j^k - y_j^k)^2`
    and the updates :math:`\Delta w_{hj} = \eta g_j b_h`,
    :math:`\Delta\theta_j = -\eta g_j`, :math:`\Delta v_{ih} = \eta e_h x_i`,
    :math:`\Delta\gamma_h = -\eta e_h` with

    .. math::

        g_j = \hat y_j (1 - \hat y_j)(y_j - \hat y_j), \qquad
        e_h = b_h (1 - b_h) \sum_j w_{hj} g_j .

    Parameters
    ----------
    n_hidden : int, default=5
        :math:`q`, the number of hidden units.
    eta : float, default=0.1
        The learning rate :math:`\eta \in (0, 1)` (Zhou suggests 0.1).
    max_iter : int, default=100
        Epochs (passes over the training set).
    accumulated : bool, default=False
        ``False``: standard BP, one update per sample, in the order of the
        data. ``True``: accumulated BP, one update per epoch with the
        gradient of the mean error :math:`E = \frac1m \sum_k E_k`.
    init_range : tuple of two floats, default=(0.0, 1.0)
        ``(low, high)``: every initial weight and threshold is drawn uniformly
        from this interval. The default is Zhou's :math:`(0, 1)`; a range
        symmetric about 0, such as ``(-1.0, 1.0)``, gives weights of both signs.
    random_state : None, int or numpy Generator
        Seeds the initial weights and thresholds.

    Attributes
    ----------
    v_ : ndarray of shape (d, q)
    gamma_ : ndarray of shape (q,)
    w_ : ndarray of shape (q, l)
    theta_ : ndarray of shape (l,)
    error_curve_ : ndarray of shape (max_iter + 1,)
        The mean training error :math:`E` before training and after every epoch.
    classes_ : ndarray of shape (2,)
        The two labels when fitted on a 1-d label vector; ``[0, 1]`` (the label of
        every output unit) when fitted on 2-d targets.
    n_features_in_ : int

    Examples
    --------
    >>> X = np.array([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])
    >>> net = BPNetwork(n_hidden=3, eta=0.5, max_iter=50, random_state=0).fit(X, [0, 1, 1, 1])
    >>> bool(net.error_curve_[-1] < net.error_curve_[0])
    True
    """

    #: 1-d labels must have exactly two classes (one sigmoid output unit)
    _binary_only = True

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        # a 2-d y is l targets in [0, 1], one sigmoid output unit each (Zhou's l outputs)
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags

    def __init__(self, n_hidden: int = 5, eta: float = 0.1, max_iter: int = 100,
                 accumulated: bool = False, init_range: tuple[float, float] = (0.0, 1.0),
                 random_state: Any = None):
        self.n_hidden = n_hidden
        self.eta = eta
        self.max_iter = max_iter
        self.accumulated = accumulated
        self.init_range = init_range
        self.random_state = random_state

    def _check_init_range(self) -> tuple[float, float]:
        r = self.init_range
        if (not isinstance(r, (tuple, list)) or len(r) != 2
                or not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in r)):
            raise TypeError(f"init_range must be a pair of real numbers (low, high); got {r!r}")
        low, high = float(r[0]), float(r[1])
        if not (np.isfinite(low) and np.isfinite(high) and low < high):
            raise ValueError(f"init_range must be finite with low < high; got {r!r}")
        return low, high

    def _outputs(self, X):
        # hidden (m, q) = f(X (m, d) @ v (d, q) - gamma (q,))
        B = logistic(X @ self.v_ - self.gamma_)
        # outputs (m, l) = f(B (m, q) @ w (q, l) - theta (l,))
        return B, logistic(B @ self.w_ - self.theta_)

    def fit(self, X: Any, y: Any) -> "BPNetwork":
        """Train on ``X`` (m, d) and 0/1 labels ``y`` (m,) or targets in [0, 1] of shape (m, l)."""
        check_scalar(self.n_hidden, "n_hidden", numbers.Integral, min_val=1)
        check_scalar(self.eta, "eta", numbers.Real, min_val=0.0, include_min=False)
        check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=1)
        check_bool(self.accumulated, "accumulated")
        low, high = self._check_init_range()
        X = check_array(X, "X")
        Y = None if y is None else np.asarray(y)
        if Y is None or Y.ndim != 2:
            Y = column_or_1d(Y, "y")       # None, complex, 3-d: _validation's messages
            self.classes_ = check_classification_targets(Y, n_classes=2)
            Y = (Y == self.classes_[1]).astype(np.float64).reshape(-1, 1)
        else:
            Y = check_array(Y, "y")
            if Y.min() < 0 or Y.max() > 1:
                raise ValueError("y must hold targets in [0, 1] for sigmoid outputs")
            self.classes_ = np.array([0, 1])   # each output unit predicts 0 or 1
        check_consistent_length(X, Y, names=["X", "y"])
        m, d = X.shape
        q, l = int(self.n_hidden), Y.shape[1]
        self.n_features_in_ = d
        rng = check_random_state(self.random_state)
        # Zhou: initialise every weight and threshold at random in (0, 1) (init_range)
        self.v_ = rng.uniform(low, high, size=(d, q))
        self.gamma_ = rng.uniform(low, high, size=q)
        self.w_ = rng.uniform(low, high, size=(q, l))
        self.theta_ = rng.uniform(low, high, size=l)
        eta = float(self.eta)

        def mean_error():
            return 0.5 * float(np.sum((self._outputs(X)[1] - Y) ** 2)) / m

        errors = [mean_error()]
        for _ in range(self.max_iter):
            if self.accumulated:
                B, Yhat = self._outputs(X)
                G = Yhat * (1 - Yhat) * (Y - Yhat)          # g_j for every sample (m, l)
                E = B * (1 - B) * (G @ self.w_.T)           # e_h (m, q) = (m, l) @ (l, q)
                # gradient of the mean error E = (1/m) sum_k E_k
                self.w_ += eta * (B.T @ G) / m              # (q, l) = (q, m) @ (m, l)
                self.theta_ -= eta * G.mean(axis=0)
                self.v_ += eta * (X.T @ E) / m              # (d, q) = (d, m) @ (m, q)
                self.gamma_ -= eta * E.mean(axis=0)
            else:
                # standard BP updates after every sample, so the loop is the algorithm
                for x, t in zip(X, Y):
                    b = logistic(x @ self.v_ - self.gamma_)            # (q,) = (d,) @ (d, q)
                    yhat = logistic(b @ self.w_ - self.theta_)         # (l,) = (q,) @ (q, l)
                    g = yhat * (1 - yhat) * (t - yhat)                 # (l,)
                    e = b * (1 - b) * (self.w_ @ g)                    # (q,) = (q, l) @ (l,)
                    self.w_ += eta * np.outer(b, g)                    # (q, l)
                    self.theta_ -= eta * g
                    self.v_ += eta * np.outer(x, e)                    # (d, q)
                    self.gamma_ -= eta * e
            errors.append(mean_error())
        self.error_curve_ = np.array(errors)
        self.n_iter_ = self.max_iter
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """The output units' net input :math:`\\beta_j - \\theta_j`; the outputs are :math:`\\hat y_j = f(\\cdot)`.

        Positive exactly where :math:`\\hat y_j > 1/2`, where ``predict`` gives
        ``classes_[1]``: scikit-learn's sign convention for a binary decision function.

        Returns
        -------
        ndarray of shape (n,) for one output unit, else (n, l)
        """
        X = check_predict_X(self, X, "w_")
        B = logistic(X @ self.v_ - self.gamma_)          # hidden outputs (m, q)
        z = B @ self.w_ - self.theta_                    # (m, l)
        return z.ravel() if z.shape[1] == 1 else z

    def predict(self, X: Any) -> np.ndarray:
        """Labels: ``classes_[1]`` where the output :math:`\\hat y > 1/2`, else ``classes_[0]``."""
        z = self.decision_function(X)                    # checks that the model is fitted
        return self.classes_[(z > 0).astype(int)]


# ---------------------------------------------------------------------------
# Multi-layer perceptrons (多层前馈网络) with scikit-learn's interface
# ---------------------------------------------------------------------------


def _warn_if_unscaled(X: np.ndarray) -> None:
    """Warn when a feature's mean or spread is far from order 1 (the scale Glorot's weights assume)."""
    scale = float(np.max(np.abs(X.mean(axis=0)) + X.std(axis=0)))
    if scale > 100.0:
        warnings.warn(
            f"X has a feature whose mean or standard deviation is of order {scale:.3g}; "
            "multi-layer perceptrons train poorly on unscaled data, since the initial "
            "weights assume inputs of order 1: standardise X (subtract each column's mean, "
            "divide by its standard deviation)", UserWarning, stacklevel=4)


#: The learning-rate schedules of ``solver="sgd"``, by scikit-learn's names.
_SCHEDULES = ("constant", "invscaling", "adaptive")


def _set_sgd_lr(optimizer: Any, lr: float) -> None:
    r"""Change the learning rate of an ``mlbook.optim.SGD`` the way scikit-learn's velocity sees it.

    scikit-learn keeps the velocity :math:`v = \mu v - \eta g` with the rate
    inside, torch's SGD the buffer :math:`b = \mu b + g` with the rate applied
    outside: :math:`v = -\eta b` while :math:`\eta` stays the same. When the rate
    changes from :math:`\eta` to :math:`\eta'`, scikit-learn's velocity keeps
    the old rate, so the buffer becomes :math:`b\,\eta/\eta'` and the next steps
    are scikit-learn's.
    """
    if lr != optimizer.lr:
        for state in optimizer.state:
            buf = state.get("momentum_buffer")
            if buf is not None:
                buf *= optimizer.lr / lr
        optimizer.lr = lr


class _BaseMLP(BaseEstimator):
    """Shared training loop of MLPClassifier and MLPRegressor (scikit-learn's rules)."""

    def __init__(self, hidden_layer_sizes: Any = (100,), activation: str = "relu",
                 solver: str = "adam", alpha: float = 1e-4, batch_size: Any = "auto",
                 learning_rate_init: float = 1e-3, max_iter: int = 200, tol: float = 1e-4,
                 shuffle: bool = True, momentum: float = 0.9, nesterovs_momentum: bool = True,
                 early_stopping: bool = False, validation_fraction: float = 0.1,
                 n_iter_no_change: int = 10, random_state: Any = None,
                 init: str = "glorot", learning_rate: str = "constant", power_t: float = 0.5):
        self.hidden_layer_sizes = hidden_layer_sizes
        self.activation = activation
        self.solver = solver
        self.alpha = alpha
        self.batch_size = batch_size
        self.learning_rate_init = learning_rate_init
        self.max_iter = max_iter
        self.tol = tol
        self.shuffle = shuffle
        self.momentum = momentum
        self.nesterovs_momentum = nesterovs_momentum
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.random_state = random_state
        self.init = init
        self.learning_rate = learning_rate
        self.power_t = power_t

    # --- checks -------------------------------------------------------------

    def _hidden_sizes(self) -> list[int]:
        sizes = self.hidden_layer_sizes
        if isinstance(sizes, (numbers.Integral, np.integer)) and not isinstance(sizes, bool):
            sizes = [sizes]
        try:
            sizes = list(sizes)
        except TypeError:
            raise TypeError(
                f"hidden_layer_sizes must be an int or a sequence of ints; got {sizes!r}"
            ) from None
        for s in sizes:
            if isinstance(s, bool) or not isinstance(s, (numbers.Integral, np.integer)):
                raise TypeError(f"hidden_layer_sizes must hold ints; got {sizes!r}")
            if s <= 0:
                raise ValueError(
                    f"hidden_layer_sizes must hold positive layer sizes; got {sizes!r}"
                )
        return [int(s) for s in sizes]

    def _check_params(self) -> list[int]:
        sizes = self._hidden_sizes()
        _check_activation(self.activation)
        _check_init(self.init)
        for name in ("shuffle", "nesterovs_momentum", "early_stopping"):
            check_bool(getattr(self, name), name)
        if self.solver not in ("adam", "sgd"):
            extra = " (scikit-learn's 'lbfgs' is not implemented)" if self.solver == "lbfgs" else ""
            raise ValueError(f"solver must be 'adam' or 'sgd'{extra}; got {self.solver!r}")
        check_scalar(self.alpha, "alpha", numbers.Real, min_val=0.0)
        if isinstance(self.batch_size, str):
            if self.batch_size != "auto":
                raise ValueError(f"batch_size must be 'auto' or an int >= 1; got {self.batch_size!r}")
        else:
            check_scalar(self.batch_size, "batch_size", numbers.Integral, min_val=1)
        check_scalar(self.learning_rate_init, "learning_rate_init", numbers.Real,
                     min_val=0.0, include_min=False)
        check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=1)
        check_scalar(self.tol, "tol", numbers.Real, min_val=0.0)
        check_scalar(self.momentum, "momentum", numbers.Real, min_val=0.0, max_val=1.0)
        check_scalar(self.validation_fraction, "validation_fraction", numbers.Real,
                     min_val=0.0, max_val=1.0, include_min=False, include_max=False)
        check_scalar(self.n_iter_no_change, "n_iter_no_change", numbers.Integral, min_val=1)
        if not isinstance(self.learning_rate, str) or self.learning_rate not in _SCHEDULES:
            raise ValueError(f"learning_rate must be one of {list(_SCHEDULES)}; "
                             f"got {self.learning_rate!r}")
        check_scalar(self.power_t, "power_t", numbers.Real, min_val=0.0)
        return sizes

    # --- the optimiser --------------------------------------------------------

    def _make_optimizer(self, params: list[np.ndarray]):
        from .optim import SGD, Adam

        lr = float(self.learning_rate_init)
        if self.solver == "adam":
            # scikit-learn: beta_1=0.9, beta_2=0.999, epsilon=1e-8; the L2 penalty is
            # in the loss (backprop adds alpha W / n), so no weight decay here
            return Adam(params, lr=lr, betas=(0.9, 0.999), eps=1e-8)
        mu = float(self.momentum)
        # scikit-learn's velocity v <- mu v - lr g is -lr times torch's buffer
        # u <- mu u + g, so with a constant learning rate the two are the same
        # rule; Nesterov: scikit-learn's step mu v - lr g = -lr (g + mu u).
        return SGD(params, lr=lr, momentum=mu,
                   nesterov=bool(self.nesterovs_momentum) and mu > 0)

    # --- training -------------------------------------------------------------

    def _fit(self, X: np.ndarray, Y: np.ndarray, y_val_labels: np.ndarray | None):
        sizes = self._check_params()
        rng = check_random_state(self.random_state)
        n_samples, n_features = X.shape
        self.n_features_in_ = n_features
        self.n_outputs_ = Y.shape[1]
        layer_units = [n_features] + sizes + [self.n_outputs_]
        self.n_layers_ = len(layer_units)
        coefs, intercepts = initial_weights(layer_units, self.activation, self.init, rng)

        if self.early_stopping:
            from .model_selection import train_test_split

            stratify = y_val_labels if isinstance(self, ClassifierMixin) else None
            X_tr, X_val, Y_tr, Y_val = train_test_split(
                X, Y, test_size=self.validation_fraction, random_state=rng, stratify=stratify)
            if X_val.shape[0] < 2:
                raise ValueError(
                    f"validation_fraction={self.validation_fraction} leaves fewer than 2 "
                    f"validation samples out of {n_samples}; increase it or use more data"
                )
        else:
            X_tr, Y_tr, X_val, Y_val = X, Y, None, None

        _warn_if_unscaled(X)
        n = X_tr.shape[0]
        if self.batch_size == "auto":
            batch_size = min(200, n)
        else:
            if self.batch_size > n:
                warnings.warn(f"batch_size={self.batch_size} exceeds the {n} training samples; "
                              f"using {n}", UserWarning, stacklevel=3)
            batch_size = min(int(self.batch_size), n)

        optimizer = self._make_optimizer(coefs + intercepts)
        alpha, act, out = float(self.alpha), self.activation, self.out_activation_
        self.loss_curve_ = []
        if self.early_stopping:
            self.validation_scores_ = []
            self.best_validation_score_ = -np.inf
            self.best_loss_ = None
            best = ([W.copy() for W in coefs], [b.copy() for b in intercepts])
        else:
            self.validation_scores_ = None
            self.best_validation_score_ = None
            self.best_loss_ = np.inf
        no_improvement = 0
        self.n_iter_ = 0
        # scikit-learn's schedules, for solver="sgd" only: t counts the samples seen
        schedule = self.learning_rate if self.solver == "sgd" else "constant"
        lr, t = float(self.learning_rate_init), 0
        # overflow is detected below through a non-finite loss, with a clear error
        with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
            for epoch in range(self.max_iter):
                idx = rng.permutation(n) if self.shuffle else np.arange(n)
                accumulated = 0.0
                for start in range(0, n, batch_size):
                    batch = idx[start:start + batch_size]
                    loss, coef_grads, intercept_grads = _backprop(
                        coefs, intercepts, X_tr[batch], Y_tr[batch], act, out, alpha)
                    if not np.isfinite(loss):
                        raise ValueError(
                            f"training diverged in epoch {epoch + 1}: the loss became {loss}. "
                            f"Lower learning_rate_init (it is {self.learning_rate_init}) "
                            "or standardise X."
                        )
                    accumulated += loss * batch.size
                    try:
                        optimizer.step(coef_grads + intercept_grads)
                    except ValueError as exc:       # a non-finite gradient
                        raise ValueError(
                            f"training diverged in epoch {epoch + 1} ({exc}). Lower "
                            f"learning_rate_init (it is {self.learning_rate_init}) "
                            "or standardise X."
                        ) from None
                self.n_iter_ += 1
                self.loss_ = accumulated / n
                self.loss_curve_.append(self.loss_)
                # scikit-learn's stopping rule
                if self.early_stopping:
                    A_val = _forward(coefs, intercepts, X_val, act, out)[-1]
                    score = self._validation_score(A_val, Y_val)
                    self.validation_scores_.append(score)
                    no_improvement = (no_improvement + 1
                                      if score < self.best_validation_score_ + self.tol else 0)
                    if score > self.best_validation_score_:
                        self.best_validation_score_ = score
                        best = ([W.copy() for W in coefs], [b.copy() for b in intercepts])
                else:
                    no_improvement = (no_improvement + 1
                                      if self.loss_ > self.best_loss_ - self.tol else 0)
                    self.best_loss_ = min(self.best_loss_, self.loss_)
                t += n
                if schedule == "invscaling":       # eta = eta_0 / (t + 1)^power_t
                    lr = float(self.learning_rate_init) / (t + 1) ** float(self.power_t)
                    _set_sgd_lr(optimizer, lr)
                if no_improvement > self.n_iter_no_change:
                    if schedule != "adaptive" or lr <= 1e-6:
                        break
                    lr /= 5.0                        # adaptive: eta / 5, and count again
                    _set_sgd_lr(optimizer, lr)
                    no_improvement = 0
            else:
                warnings.warn(
                    f"{type(self).__name__}: max_iter={self.max_iter} epochs reached and the "
                    "optimisation has not converged yet", ConvergenceWarning, stacklevel=3)
        if self.early_stopping:
            coefs, intercepts = best
        if not all(np.isfinite(p).all() for p in coefs + intercepts):
            raise ValueError(
                "training produced non-finite weights; lower learning_rate_init "
                f"(it is {self.learning_rate_init}) or standardise X"
            )
        self.coefs_, self.intercepts_ = coefs, intercepts
        self._warn_if_worse_than_constant(X_tr, Y_tr)
        return self

    def _warn_if_worse_than_constant(self, X: np.ndarray, Y: np.ndarray) -> None:
        """Warn when the network fits its training data worse than the best constant output."""
        out = self.out_activation_
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):
            fitted = _output_loss(_forward(self.coefs_, self.intercepts_, X, self.activation,
                                           out)[-1], Y, out)
        # the best constant output: the class frequencies, or the mean target
        constant = _output_loss(np.broadcast_to(Y.mean(axis=0), Y.shape), Y, out)
        if not fitted <= constant:
            warnings.warn(
                f"{type(self).__name__}: the trained network fits the training data worse "
                f"than a constant prediction (loss {fitted:.4g} against {constant:.4g}); "
                f"standardise X or lower learning_rate_init (it is {self.learning_rate_init})",
                ConvergenceWarning, stacklevel=3)

    def _output(self, X: Any) -> np.ndarray:
        X = check_predict_X(self, X, "coefs_")
        return _forward(self.coefs_, self.intercepts_, X, self.activation,
                        self.out_activation_)[-1]


class MLPClassifier(ClassifierMixin, _BaseMLP):
    r"""Multi-layer perceptron classifier, with scikit-learn's names, defaults and rules.

    Hidden layers of ``activation`` units; a softmax output for more than two
    classes, one logistic unit for two. It minimises scikit-learn's loss,

    .. math::

        \frac1n \sum_{i=1}^n -\log \hat p(y_i \mid \boldsymbol x_i)
        + \frac{\alpha}{2n} \sum_l \|W_l\|_F^2 ,

    by mini-batch gradient steps of ``mlbook.optim`` (``n`` is the size
    of the batch), with the gradient from :func:`backprop`.

    Parameters
    ----------
    hidden_layer_sizes : tuple of int, default=(100,)
        The sizes of the hidden layers (an int means one layer).
    activation : {"relu", "logistic", "tanh", "identity"}, default="relu"
    solver : {"adam", "sgd"}, default="adam"
        ``"adam"``: :class:`mlbook.optim.Adam` with
        ``betas=(0.9, 0.999), eps=1e-8``; ``"sgd"``:
        :class:`mlbook.optim.SGD` with ``momentum`` and Nesterov.
    alpha : float, default=1e-4
        Strength of the L2 penalty on the weights (not the biases).
    batch_size : int or "auto", default="auto"
        Samples per gradient step; ``"auto"`` is ``min(200, n_samples)``.
    learning_rate_init : float, default=1e-3
        The step size :math:`\eta_0`, constant unless ``solver="sgd"`` and a
        ``learning_rate`` schedule other than ``"constant"``.
    max_iter : int, default=200
        Maximum number of epochs.
    tol : float, default=1e-4
        Training stops when the training loss (or, with early stopping, the
        validation accuracy) has not improved by ``tol`` for more than
        ``n_iter_no_change`` consecutive epochs.
    shuffle : bool, default=True
        Shuffle the training samples at every epoch (scikit-learn's parameter).
    momentum : float, default=0.9
        Momentum of ``solver="sgd"``.
    nesterovs_momentum : bool, default=True
        Nesterov's momentum for ``solver="sgd"``.
    early_stopping : bool, default=False
        Hold out a stratified ``validation_fraction`` of the training data,
        stop when its accuracy stops improving, and keep the weights of the
        best epoch.
    validation_fraction : float, default=0.1
    n_iter_no_change : int, default=10
    random_state : None, int or numpy Generator
        Seeds the initial weights, the validation split and the shuffling.
    init : {"glorot", "he"}, default="glorot"
        The initial weights (see :func:`initial_weights`). ``"glorot"``
        (scikit-learn's, Glorot and Bengio 2010): weights and biases from
        :math:`U(-r, r)`, :math:`r = \sqrt{6/(h_{in} + h_{out})}` (factor 2
        instead of 6 for ``activation="logistic"``), a variance of
        :math:`2/(h_{in} + h_{out})` (:math:`2/(3(h_{in} + h_{out}))` for the
        logistic). ``"he"`` (He et al. 2015, for ReLU): weights from
        :math:`U(-r, r)`, :math:`r = \sqrt{6/h_{in}}`, a variance of
        :math:`2/h_{in}` (PyTorch's ``kaiming_uniform_`` with
        ``nonlinearity="relu"``), and biases 0. The factor 2 is ReLU's
        whatever ``activation`` is (for tanh or the logistic function the
        derivation gives no factor 2; ``"glorot"`` suits them).
    learning_rate : {"constant", "invscaling", "adaptive"}, default="constant"
        The learning-rate schedule of ``solver="sgd"`` (scikit-learn's; the
        Adam solver ignores it). ``"constant"``: :math:`\eta_0` throughout.
        ``"invscaling"``: after every epoch
        :math:`\eta = \eta_0 / (t + 1)^{\text{power\_t}}`, with :math:`t` the
        number of training samples seen so far. ``"adaptive"``:
        :math:`\eta_0` until the training loss (or, with early stopping, the
        validation score) has not improved by ``tol`` for more than
        ``n_iter_no_change`` consecutive epochs; then :math:`\eta` is divided
        by 5 and the count starts again, and training stops only when this
        happens with :math:`\eta \le 10^{-6}` (or at ``max_iter``).
    power_t : float, default=0.5
        The exponent of ``"invscaling"``, :math:`\ge 0`.

    Attributes
    ----------
    coefs_ : list of ndarray
        ``coefs_[l]`` has shape :math:`(h_l, h_{l+1})`.
    intercepts_ : list of ndarray
        ``intercepts_[l]`` has shape :math:`(h_{l+1},)`.
    loss_curve_ : list of float
        The mean training loss of every epoch (averaged over its batches).
    loss_ : float
        The last entry of ``loss_curve_``.
    best_loss_ : float or None
        The smallest training loss (``None`` with early stopping).
    validation_scores_ : list of float or None
        Validation accuracy after every epoch (early stopping only).
    best_validation_score_ : float or None
        The best of them (``None`` without early stopping).
    n_iter_ : int
        Epochs run.
    classes_ : ndarray of shape (n_classes,)
    n_features_in_, n_layers_, n_outputs_ : int
    out_activation_ : {"softmax", "logistic"}

    Notes
    -----
    Differences from scikit-learn: a subset of its parameters, plus ``init``
    (scikit-learn always draws Glorot's weights, ``init="glorot"``). No
    ``"lbfgs"`` solver. SGD keeps torch's momentum buffer :math:`b` (as
    :class:`mlbook.optim.SGD`), scikit-learn the velocity :math:`v = -\eta b`
    with the rate inside; when a schedule changes :math:`\eta`, the buffer is
    rescaled so that :math:`v` is unchanged, and the two rules coincide. Adam's ``beta_1``, ``beta_2`` and
    ``epsilon`` are fixed at scikit-learn's defaults; no ``warm_start``.
    Adam places :math:`\epsilon`
    where PyTorch does, outside the bias correction of the second moment,
    while scikit-learn adds it to :math:`\sqrt{v_t}` before correcting, a
    difference of a factor :math:`\sqrt{1-\beta_2^t}` on :math:`\epsilon`
    only. The random numbers differ (NumPy's ``Generator`` here, the legacy
    ``RandomState`` there), so the same ``random_state`` gives other initial
    weights. See the chapter *Neural networks*.

    Examples
    --------
    >>> X = np.array([[0., 0.], [0., 1.], [1., 0.], [1., 1.]] * 10)
    >>> y = np.array([0, 1, 1, 0] * 10)
    >>> clf = MLPClassifier((8,), activation="tanh", learning_rate_init=0.05,
    ...                     max_iter=300, random_state=0).fit(X, y)
    >>> clf.predict(X[:4]).tolist()
    [0, 1, 1, 0]
    """

    def fit(self, X: Any, y: Any) -> "MLPClassifier":
        """Train on ``X`` (n_samples, n_features) and class labels ``y`` (n_samples,)."""
        self._check_params()
        X, y = check_X_y(X, y)
        self.classes_ = check_classification_targets(y)
        k = self.classes_.size
        codes = np.searchsorted(self.classes_, y)
        if k == 2:
            self.out_activation_ = "logistic"
            Y = codes.astype(np.float64).reshape(-1, 1)
        else:
            self.out_activation_ = "softmax"
            Y = np.eye(k)[codes]
        return self._fit(X, Y, codes)

    def _validation_score(self, A_val: np.ndarray, Y_val: np.ndarray) -> float:
        if A_val.shape[1] == 1:
            return float(np.mean((A_val[:, 0] > 0.5) == (Y_val[:, 0] > 0.5)))
        return float(np.mean(A_val.argmax(axis=1) == Y_val.argmax(axis=1)))

    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities, shape (n_samples, n_classes), columns in ``classes_`` order."""
        P = self._output(X)
        if P.shape[1] == 1:
            return np.hstack([1.0 - P, P])
        return P

    def predict(self, X: Any) -> np.ndarray:
        """The most probable class of each sample, shape (n_samples,)."""
        P = self.predict_proba(X)
        return self.classes_[np.argmax(P, axis=1)]


class MLPRegressor(RegressorMixin, _BaseMLP):
    r"""Multi-layer perceptron regressor, with scikit-learn's names, defaults and rules.

    Identity output units and half the mean squared error,

    .. math::

        \frac1{2n} \sum_{i=1}^n \|\hat{\boldsymbol y}_i - \boldsymbol y_i\|^2
        + \frac{\alpha}{2n} \sum_l \|W_l\|_F^2 .

    The parameters, attributes and training rules are those of
    :class:`MLPClassifier`; with ``early_stopping`` the validation score is
    :math:`R^2` and the split is not stratified.

    Examples
    --------
    >>> X = np.linspace(-1, 1, 40).reshape(-1, 1)
    >>> reg = MLPRegressor((16,), activation="tanh", learning_rate_init=0.02, tol=1e-7,
    ...                    max_iter=1000, random_state=2).fit(X, X.ravel() ** 2)
    >>> bool(reg.score(X, X.ravel() ** 2) > 0.9)
    True
    """

    def __sklearn_tags__(self):  # pragma: no cover - exercised through scikit-learn
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True     # a 2-d y: one identity output unit each
        return tags

    def fit(self, X: Any, y: Any) -> "MLPRegressor":
        """Train on ``X`` (n_samples, n_features) and targets ``y`` (n_samples,) or (n_samples, n_outputs)."""
        self._check_params()
        X = check_array(X, "X")
        Y = None if y is None else np.asarray(y)
        if Y is None or Y.ndim != 2:
            # None, complex, NaN, empty, 3-d: _validation's messages
            Y = column_or_1d(Y, "y", dtype=np.float64)
        else:
            Y = check_array(Y, "y")        # several outputs, one column each
        check_consistent_length(X, Y, names=["X", "y"])
        self._y_1d_ = Y.ndim == 1
        self.out_activation_ = "identity"
        return self._fit(X, Y.reshape(X.shape[0], -1), None)

    def _validation_score(self, A_val: np.ndarray, Y_val: np.ndarray) -> float:
        ss_res = np.sum((Y_val - A_val) ** 2, axis=0)
        ss_tot = np.sum((Y_val - Y_val.mean(axis=0)) ** 2, axis=0)
        ok = ss_tot > 0
        r2 = np.where(ok, 1.0 - ss_res / np.where(ok, ss_tot, 1.0), 0.0)
        return float(r2.mean())

    def predict(self, X: Any) -> np.ndarray:
        """Predictions, shape (n_samples,) when fitted on a 1-d ``y``, else (n_samples, n_outputs)."""
        out = self._output(X)
        return out.ravel() if self._y_1d_ else out
