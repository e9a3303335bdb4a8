"""The seed sweep: every chapter runs to the end with all its seeds shifted.

Every random experiment of a chapter takes its seed through
``mlbook.utils.seed``, which adds the offset in ``MLBOOK_SEED``. A chapter's
assertions are claims about its experiments, so they must hold for other draws
than the one the book prints: this test executes every chapter of the table
of contents in a fresh kernel under each offset in ``MLBOOK_SEED_SWEEP``
(a comma-separated list; ``make test-seeds`` sets ``1,10000,20000,30000``) and fails when a
cell raises, showing the cell and its traceback.

Outputs that nbval compares (cells tagged ``nbval-check-output``) belong to
the default seed only and are not compared here; every ``assert`` is.

Without ``MLBOOK_SEED_SWEEP`` the module is skipped (the plain ``pytest`` run
executes each notebook once under nbval, with offset 0). The runs go
``os.cpu_count()`` at a time, longest chapters first.
"""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow   # every chapter again per offset: `make test-all`

ROOT = Path(__file__).resolve().parent.parent
SWEEP = os.environ.get("MLBOOK_SEED_SWEEP", "").strip()
if not SWEEP:
    pytest.skip("set MLBOOK_SEED_SWEEP=1,2,3 (make test-seeds) to run the seed sweep",
                allow_module_level=True)

OFFSETS = [int(k) for k in SWEEP.split(",") if k.strip()]
if any(k <= 0 for k in OFFSETS):
    raise ValueError(f"MLBOOK_SEED_SWEEP must list offsets >= 1 (0 is the default run); got {SWEEP!r}")

sys.path.insert(0, str(ROOT / "tests"))
from test_colab import toc_notebooks  # noqa: E402  (the chapters, in book order)

NOTEBOOKS = toc_notebooks()
TIMEOUT = 1800   # seconds for one chapter under one offset


def _run(notebook: Path, offset: int) -> subprocess.CompletedProcess:
    env = dict(os.environ, MLBOOK_SEED=str(offset), MPLBACKEND="Agg")
    env.pop("MLBOOK_SEED_SWEEP", None)
    return subprocess.run([sys.executable, str(ROOT / "tools" / "run_notebook.py"), str(notebook)],
                          env=env, capture_output=True, text=True, timeout=TIMEOUT)


@pytest.fixture(scope="module")
def runs(request):
    """Start every selected (chapter, offset) run at once in a pool; each test waits for its own."""
    selected = {(item.callspec.params["notebook"], item.callspec.params["offset"])
                for item in request.session.items
                if getattr(item, "originalname", "") == "test_chapter_runs_under_shifted_seeds"}
    # big notebooks first, so the pool does not end on one long straggler
    jobs = sorted(selected, key=lambda job: (-job[0].stat().st_size, job[1]))
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2)
    futures = {job: pool.submit(_run, *job) for job in jobs}
    yield futures
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.parametrize("offset", OFFSETS, ids=lambda k: f"seed+{k}")
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapter_runs_under_shifted_seeds(runs, notebook, offset):
    result = runs[(notebook, offset)].result()
    assert result.returncode == 0, (
        f"{notebook.relative_to(ROOT)} fails with MLBOOK_SEED={offset}:\n"
        f"{result.stderr[-6000:]}")
