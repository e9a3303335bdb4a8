"""How long each chapter took to run in this build, as the build measured it.

myst-nb times every notebook it executes (``execute_notebooks: force``). Two
ways to show those times, so that the prose never types a number that the
next build would contradict:

* the directive ``{chapter-run-times}`` (a MyST fence) is a table, one row per
  executed chapter in the book's order: the chapter's title (a link) and its
  run time in seconds;
* the role ``{run-times}`range``` is the text "between 3.3 and 16.0 s", the
  shortest and the longest of those times.

In a build that executes nothing (a cached or ``execute_notebooks: off``
build) the table and the role say that the chapters were not run.

It reuses myst-nb's own store (``NbMetadataCollector``) and its marker
``has_exec_table``, so a page that shows the times is written again whenever
a notebook is run again.
"""

from __future__ import annotations

import posixpath

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective, SphinxRole

from myst_nb.sphinx_ import NbMetadataCollector

MARKER = "has_exec_table"   # myst-nb's key: pages with it are rewritten after new executions
NOT_RUN = "not measured: the chapters were not run in this build"


class run_times_table(nodes.General, nodes.Element):
    """Placeholder for the table, filled in once every chapter has run."""


class run_times_range(nodes.Inline, nodes.TextElement):
    """Placeholder for the range of run times."""


class ChapterRunTimes(SphinxDirective):
    has_content = False

    def run(self):
        NbMetadataCollector.set_doc_data(self.env, self.env.docname, MARKER, True)
        return [run_times_table()]


class RunTimesRole(SphinxRole):
    def run(self):
        if self.text.strip() != "range":
            msg = self.inliner.reporter.error(
                f"run-times: the only form is {{run-times}}`range`, got {self.text!r}", line=self.lineno)
            return [], [msg]
        NbMetadataCollector.set_doc_data(self.env, self.env.docname, MARKER, True)
        return [run_times_range()], []


def _times(env) -> list[tuple[str, float]]:
    """(docname, seconds) of every notebook executed in this build, in the book's order."""
    rows = [(doc, data["exec_data"]["runtime"])
            for doc, data in NbMetadataCollector.get_doc_data(env).items()
            if data.get("exec_data") and data["exec_data"].get("runtime") is not None]
    # the book's order: chapter numbers where the toc numbers them, else the name
    return sorted(rows, key=lambda r: (env.toc_secnumbers.get(r[0], {}).get("", (999,)), r[0]))


class FillRunTimes(SphinxPostTransform):
    default_priority = 8   # before the references are resolved (as myst-nb's own table)

    def run(self, **kwargs) -> None:
        times = _times(self.env)
        here = self.env.docname
        for node in list(self.document.findall(run_times_range)):
            if times:
                lo, hi = min(t for _, t in times), max(t for _, t in times)
                node.replace_self(nodes.Text(f"between {lo:.1f} and {hi:.1f} s"))
            else:
                node.replace_self(nodes.Text(f"({NOT_RUN})"))
        for node in list(self.document.findall(run_times_table)):
            node.replace_self(self._table(times, here) if times else nodes.paragraph(text=NOT_RUN + "."))

    @staticmethod
    def _table(times, here) -> nodes.table:
        table = nodes.table(classes=["colwidths-auto"])
        group = nodes.tgroup(cols=2)
        table += group
        group += nodes.colspec(colwidth=80)
        group += nodes.colspec(colwidth=20)
        head = nodes.thead()
        group += head
        head += nodes.row("", *(nodes.entry("", nodes.paragraph(text=t))
                                for t in ("Chapter", "Run time (s)")))
        body = nodes.tbody()
        group += body
        for doc, seconds in times:
            link = pending_xref(refdoc=here, reftarget=posixpath.relpath(doc, posixpath.dirname(here)),
                                reftype="doc", refdomain="std", refexplicit=False, refwarn=True,
                                classes=["xref", "doc"])
            link += nodes.inline(text=doc)
            body += nodes.row("", nodes.entry("", nodes.paragraph("", "", link)),
                              nodes.entry("", nodes.paragraph(text=f"{seconds:.1f}")))
        return table


def setup(app):
    app.add_node(run_times_table)
    app.add_node(run_times_range)
    app.add_directive("chapter-run-times", ChapterRunTimes)
    app.add_role("run-times", RunTimesRole())
    app.add_post_transform(FillRunTimes)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
