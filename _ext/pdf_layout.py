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
"""

from __future__ import annotations

from sphinx.builders.latex import LaTeXBuilder


def _numbers_per_chapter(app) -> None:
    if isinstance(app.builder, LaTeXBuilder):
        app.config.numfig_secnum_depth = 1


def _latex_resets_per_chapter(app, env) -> None:
    if isinstance(app.builder, LaTeXBuilder):
        app.config.numfig_secnum_depth = 2


def setup(app):
    # after sphinx-jupyterbook-latex's own builder-inited handler (default priority 500)
    app.connect("builder-inited", _numbers_per_chapter, priority=900)
    # the numbers are assigned at env-get-updated (after env-updated); the
    # consistency check comes next, before anything is written
    app.connect("env-check-consistency", _latex_resets_per_chapter)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
