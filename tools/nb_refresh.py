"""Execute chapter notebooks and store them the way the book keeps them.

    .venv/bin/python tools/nb_refresh.py book/trees/decision_trees.ipynb [more.ipynb ...]

Each notebook is run top to bottom on a fresh kernel (in its own folder, as
nbval and the book build run it). Then every output is cleared except those of
cells tagged ``nbval-check-output``, whose text output nbval compares on
every test run (a tag, not a ``# NBVAL_CHECK_OUTPUT`` comment, so that the
book does not show the harness's marker); images are dropped even there, execution counts
are renumbered (nbval needs one on every checked cell) and metadata is
normalised. A failing cell stops with its traceback. The kernel runs with
``MLBOOK_SEED=0``: the stored outputs are those of the book's own seeds.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

CHECK_TAG = "nbval-check-output"


def refresh(path: Path) -> None:
    os.environ["MLBOOK_SEED"] = "0"   # the kernel inherits it: stored outputs use the default seeds
    nb = nbformat.read(path, as_version=4)
    t0 = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    elapsed = time.perf_counter() - t0
    count = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.execution_count = None
        cell.metadata.pop("execution", None)
        if CHECK_TAG in cell.metadata.get("tags", []):
            kept = []
            for out in cell.outputs:
                if out.output_type == "stream" and out.name == "stderr":
                    continue
                if "data" in out:
                    out.data = {k: v for k, v in out.data.items() if k == "text/plain"}
                    if not out.data:
                        continue
                kept.append(out)
            cell.outputs = kept
            # nbval refuses a reference cell that has outputs but no execution count.
            count += 1
            cell.execution_count = count
            for out in kept:
                if out.output_type == "execute_result":
                    out.execution_count = count
        else:
            cell.outputs = []
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    nbformat.validate(nb)
    nbformat.write(nb, path)
    print(f"{path}: executed in {elapsed:.1f} s and stored")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for arg in sys.argv[1:]:
        refresh(Path(arg))
