"""The figures of a chapter notebook, with the alt text each will carry in the book.

    .venv/bin/python tools/figure_cells.py book/trees/decision_trees.ipynb [--out DIR]

Runs the notebook top to bottom on a fresh kernel (in its own folder, with
``MLBOOK_SEED=0``, as the book build runs it), then lists every code cell that
draws a figure: its index, the first line of its source, how many images it
shows and its alt text, which the book reads from the cell's metadata
(``mystnb: image: alt``; myst-nb gives it to every image of the cell). With
``--out`` each image is also written to DIR as ``<notebook>-cell<NN>-<k>.png``
to look at while writing the alt text; ``--seed N`` runs with ``MLBOOK_SEED=N``
instead, to see whether what the alt text says holds for other draws. Exits 1 if a figure has no alt text.
Nothing is written back to the notebook.
"""

from __future__ import annotations

import base64
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

IMAGE_TYPES = ("image/png", "image/svg+xml", "image/jpeg")


def cell_alt(cell) -> str | None:
    image = cell.metadata.get("mystnb", {}).get("image", {})
    return image.get("alt") if isinstance(image, dict) else None


def figure_cells(path: Path, out: Path | None = None,
                 seed: int = 0) -> list[tuple[int, str, int, str | None]]:
    """(cell index, first source line, number of images, alt text) of each cell with images."""
    os.environ["MLBOOK_SEED"] = str(seed)
    # the kernel inherits the environment: with MPLBACKEND=Agg its figures show nothing
    os.environ.pop("MPLBACKEND", None)
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    rows = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        images = [(mime, o["data"][mime]) for o in cell.get("outputs", []) if "data" in o
                  for mime in IMAGE_TYPES if mime in o["data"]]
        if not images:
            continue
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            for k, (mime, data) in enumerate(images):
                suffix = {"image/png": "png", "image/svg+xml": "svg", "image/jpeg": "jpg"}[mime]
                blob = data.encode() if mime == "image/svg+xml" else base64.b64decode(data)
                (out / f"{path.stem}-cell{i:02d}-{k}.{suffix}").write_bytes(blob)
        first = next((line for line in cell.source.splitlines() if line.strip()), "")
        rows.append((i, first[:70], len(images), cell_alt(cell)))
    return rows


def main(argv: list[str]) -> int:
    out, seed = None, 0
    if "--out" in argv:
        k = argv.index("--out")
        out = Path(argv[k + 1])
        argv = argv[:k] + argv[k + 2:]
    if "--seed" in argv:
        k = argv.index("--seed")
        seed = int(argv[k + 1])
        argv = argv[:k] + argv[k + 2:]
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    unknown = [a for a in argv if a.startswith("-")]
    if unknown:
        sys.exit(f"figure_cells.py: unknown option {unknown[0]}\n{__doc__}")
    missing = 0
    for arg in argv:
        rows = figure_cells(Path(arg), out, seed)
        print(f"{arg}: {len(rows)} cells with figures, {sum(r[2] for r in rows)} images")
        for i, first, n, alt in rows:
            missing += alt is None
            print(f"  cell {i:3d} ({n} image{'s' if n > 1 else ''}): {first}")
            print(f"      alt: {alt if alt is not None else 'MISSING'}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
