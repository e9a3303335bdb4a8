"""Theorem, algorithm, exercise and figure numbers in the PDF as the HTML book has them.

The HTML book numbers them per chapter ("Theorem 7.1"). For a book whose table of
contents has parts, sphinx-jupyterbook-latex sets ``numfig_secnum_depth`` to 2 so that
LaTeX resets its figure and equation counters at each chapter; but Sphinx also uses
that depth for the numbers it writes itself (those of sphinx-proof and
sphinx-exercise), which then carry the section too ("Theorem 7.1.1"). So, in a LaTeX
build only, this extension asks the environment for chapter-level numbers (depth 1,
before the numbers are assigned) and gives the LaTeX writer its depth 2 back once they
are, at the consistency check (the writer passes depth minus one, ``numfigreset=1``, to sphinx.sty: reset per
chapter). HTML builds are left alone.

It also keeps the folded cells in the PDF. The HTML book folds a few cells (tag
``hide-cell`` or ``hide-output``: the checks of exercise solutions, long listings) for a
click to open; sphinx-jupyterbook-latex drops them from the PDF altogether, where no
click can bring them back and the prose that points to them points to nothing. Before
its transform runs, the tags' classes are taken off, so the PDF prints the cells as
they are.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.builders.latex import LaTeXBuilder
from sphinx.transforms.post_transforms import SphinxPostTransform

FOLDED = ("tag_hide-cell", "tag_hide-output")


class KeepFoldedCells(SphinxPostTransform):
    """In a LaTeX build, the folded cells lose the classes that would drop them."""

    # sphinx-jupyterbook-latex's MystNbPostTransform, which replaces them, runs at 400
    default_priority = 390
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for node in self.document.findall(nodes.container):
            if any(c in node["classes"] for c in FOLDED):
                node["classes"] = [c for c in node["classes"] if c not in FOLDED]


def _numbers_per_chapter(app) -> None:
    if isinstance(app.builder, LaTeXBuilder):
        app.config.numfig_secnum_depth = 1


def _latex_resets_per_chapter(app, env) -> None:
    if isinstance(app.builder, LaTeXBuilder):
        app.config.numfig_secnum_depth = 2


def setup(app):
    app.add_post_transform(KeepFoldedCells)
    # after sphinx-jupyterbook-latex's own builder-inited handler (default priority 500)
    app.connect("builder-inited", _numbers_per_chapter, priority=900)
    # the numbers are assigned at env-get-updated (after env-updated); the
    # consistency check comes next, before anything is written
    app.connect("env-check-consistency", _latex_resets_per_chapter)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
