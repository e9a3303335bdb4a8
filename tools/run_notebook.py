"""Execute one chapter notebook top to bottom, as a reader's kernel would.

    MLBOOK_SEED=3 python tools/run_notebook.py book/trees/boosting.ipynb

Runs every cell in a fresh kernel, in the notebook's own folder, with the
environment it was started with (so ``MLBOOK_SEED`` reaches every seed the
chapter draws through ``mlbook.utils.seed``). Nothing is written back. Exits 0
when every cell ran; otherwise prints the failing cell and its traceback and
exits 1. ``make test-seeds`` runs every chapter this way under several offsets.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--timeout", type=int, default=900, help="seconds for one cell")
    args = parser.parse_args(argv)
    path = args.notebook.resolve()
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    try:
        NotebookClient(nb, timeout=args.timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    except CellExecutionError as exc:
        print(f"{path.name}: a cell failed\n{exc}", file=sys.stderr)
        return 1
    print(f"{path.name}: every cell ran in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
