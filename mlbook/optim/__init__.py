"""Gradient-descent optimisers and learning-rate schedules, with the names of ``torch.optim``.

A student who moves to PyTorch finds the same classes, hyper-parameters and
defaults here: ``SGD`` (with momentum and Nesterov's method), ``Adagrad``,
``RMSprop``, ``Adadelta``, ``Adam``, ``NAdam`` and ``AdamW``. Each optimiser
holds a list of float64 NumPy arrays, the parameters, and updates them in place
when ``step(grads)`` is given the gradients in the same order::

    w = np.zeros(3)
    opt = Adam([w], lr=0.1)
    for _ in range(100):
        opt.step([grad_of_loss(w)])

The package follows ``torch/optim/``:

* ``_optimizers`` -- :class:`Optimizer` and the optimisers, each with the update
  rule ``torch.optim`` applies; the test functions of the chapter
  (:func:`rosenbrock`, :func:`beale`, :func:`ill_conditioned_quadratic`) and
  :func:`minimize`, a driver that records the path;
* :mod:`mlbook.optim.lr_scheduler` -- learning-rate schedules (``StepLR``,
  ``MultiStepLR``, ``ExponentialLR``, ``CosineAnnealingLR``, ``LinearLR``,
  ``LambdaLR``, ``SequentialLR``) that set an optimiser's ``lr`` as
  ``torch.optim.lr_scheduler`` sets a parameter group's.

See the chapter "Gradient-descent optimisers" (Part VII).
"""

from . import lr_scheduler
from ._optimizers import (
    SGD,
    Adadelta,
    Adagrad,
    Adam,
    AdamW,
    NAdam,
    OptimizeResult,
    Optimizer,
    RMSprop,
    beale,
    ill_conditioned_quadratic,
    minimize,
    rosenbrock,
)

__all__ = [
    "Optimizer",
    "SGD",
    "Adagrad",
    "RMSprop",
    "Adadelta",
    "Adam",
    "NAdam",
    "AdamW",
    "rosenbrock",
    "beale",
    "ill_conditioned_quadratic",
    "minimize",
    "OptimizeResult",
]
