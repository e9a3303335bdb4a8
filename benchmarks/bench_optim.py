"""Benchmark: one optimiser step on 10^6 parameters, mlbook.optim vs torch.optim (CPU).

Run with ``.venv/bin/python benchmarks/bench_optim.py`` (or ``make bench``); writes
``book/benchmarks/optim_step.json``, which the chapter "Gradient-descent optimisers"
reads. Both sides update the same float64 parameters in place from the same
gradient, on one thread (PyTorch would otherwise spread an elementwise loop over
the cores of a shared machine, and NumPy's ufuncs use one). Without PyTorch the
file holds our times only.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from _common import best_time, record_against  # noqa: E402
from mlbook import optim  # noqa: E402

N_PARAMS = 1_000_000
N_STEPS = 10          # steps per timed run; the time reported is per step
SETTINGS = {
    "SGD": {"lr": 1e-3},
    "SGD_momentum": {"lr": 1e-3, "momentum": 0.9},
    "Adagrad": {},
    "RMSprop": {},
    "Adadelta": {},
    "Adam": {},
    "NAdam": {},
    "AdamW": {},
}
HEADLINE = "Adam"


def time_ours(cls_name: str, kwargs: dict, w0: np.ndarray, g: np.ndarray) -> float:
    w = w0.copy()
    opt = getattr(optim, cls_name.split("_")[0])([w], **kwargs)
    return best_time(lambda: [opt.step([g]) for _ in range(N_STEPS)]) / N_STEPS


def time_torch(torch, cls_name: str, kwargs: dict, w0: np.ndarray, g: np.ndarray) -> float:
    p = torch.tensor(w0, dtype=torch.float64, requires_grad=True)
    p.grad = torch.from_numpy(g.copy())
    # foreach=False: the single-tensor loop, the one torch uses for one CPU tensor anyway
    opt = getattr(torch.optim, cls_name.split("_")[0])([p], foreach=False, **kwargs)

    def run():
        with torch.no_grad():
            for _ in range(N_STEPS):
                opt.step()

    return best_time(run) / N_STEPS


def main() -> None:
    rng = np.random.default_rng(0)
    w0 = rng.normal(size=N_PARAMS)
    g = rng.normal(size=N_PARAMS)
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    per_optimiser = {}
    for name, kwargs in SETTINGS.items():
        ours = time_ours(name, kwargs, w0, g)
        theirs = None if torch is None else time_torch(torch, name, kwargs, w0, g)
        per_optimiser[name] = {"ours_seconds": ours, "torch_seconds": theirs,
                               "ratio": None if theirs is None else ours / theirs}
        print(f"{name:13s} ours {ours * 1e3:7.2f} ms"
              + ("" if theirs is None else f"   torch {theirs * 1e3:7.2f} ms   "
                                           f"ratio {ours / theirs:5.2f}"))
    head = per_optimiser[HEADLINE]
    record_against("optim_step", head["ours_seconds"], head["torch_seconds"], "torch",
                   None if torch is None else torch.__version__,
                   n_params=N_PARAMS, steps_per_run=N_STEPS, headline=HEADLINE,
                   threads=1, per_optimiser=per_optimiser)


if __name__ == "__main__":
    main()
