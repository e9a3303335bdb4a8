"""Each chapter as a notebook and as a script, and the book as a PDF, linked from every chapter.

An HTML build writes into ``<outdir>/downloads/``:

- ``<docname>.ipynb``: the chapter's notebook as the repository keeps it (the file
  itself, so it opens on Colab as one file: its first cell installs ``mlbook``);
- ``<docname>.py``: the same chapter as a plain Python script, jupytext's "percent"
  format (``# %%`` before each code cell, the prose as comments), which runs with
  ``python`` where ``mlbook`` is installed (the chapters hold no IPython magics);
- ``mlbook-<version>.pdf``: the PDF, when the build is given one in the environment
  variable ``MLBOOK_PDF`` (``make dist`` does: ``make pdf`` writes it first). Without
  it the pages link to the PDF of the release ``v<version>`` on the repository.

Every chapter page then says, under its title, where its notebook, its script and the
PDF are, and the theme's download menu offers the same three (in place of the page's
source file); every page's menu offers the book's PDF. The front page's ``{book-downloads}`` directive
lists them for every chapter. ``tools/make_dist.py`` packs the same files into the
release archive.
"""

from __future__ import annotations

import html
import os
import shutil
from pathlib import Path

from book_version import book_version  # _ext/ is on the path of Sphinx and of the tools

# Sphinx and docutils are imported where they are used: tools/make_dist.py and the
# tests import the helpers below with the test extra alone.
FOLDER = "downloads"     # tools/make_dist.py reads this name
PDF_ENV = "MLBOOK_PDF"


def version(root: Path) -> str:
    """The version of the book and of mlbook (``pyproject.toml``)."""
    return book_version(Path(root))


def pdf_name(root: Path) -> str:
    return f"mlbook-{version(root)}.pdf"


def notebook_to_script(text: str) -> str:
    """A notebook's JSON text as jupytext's percent-format Python script."""
    import jupytext

    return jupytext.writes(jupytext.reads(text, fmt="ipynb"), fmt="py:percent")


def _notebook_docs(app) -> list[str]:
    """The chapters that are notebooks, in the order of the table of contents."""
    import yaml

    toc = yaml.safe_load((Path(app.srcdir) / "_toc.yml").read_text(encoding="utf-8"))
    order = [c["file"] for part in toc.get("parts", []) for c in part.get("chapters", [])]
    found = {d for d in app.env.found_docs if app.env.doc2path(d, False).endswith(".ipynb")}
    return [d for d in order if d in found] + sorted(found - set(order))


def _bundled_pdf(app) -> Path | None:
    """The PDF this build bundles (``MLBOOK_PDF``, read into the config at start), or None."""
    return Path(app.config.mlbook_pdf) if app.config.mlbook_pdf else None


def _check_pdf(app, config) -> None:
    value = os.environ.get(PDF_ENV, "").strip()
    pdf = None if not value else Path(value) if Path(value).is_absolute() else Path(app.srcdir) / value
    # a config value, so that a build with another MLBOOK_PDF (or none) rewrites every
    # page, whose links depend on it, where Sphinx would keep the unchanged ones
    config.mlbook_pdf = str(pdf) if pdf is not None else ""
    if pdf is not None and not pdf.is_file():
        from sphinx.errors import ConfigError
        raise ConfigError(f"{PDF_ENV}={os.environ[PDF_ENV]!r}: no such file; build the PDF "
                          "first (make pdf writes _build/latex/book.pdf) or unset it")


def _pdf_href(app, pathto) -> tuple[str, bool]:
    """The PDF's address seen from a page, and whether it is part of this build."""
    if _bundled_pdf(app) is not None:
        return pathto(f"{FOLDER}/{pdf_name(app.srcdir)}", 1), True
    repo = (app.config.html_theme_options.get("repository_url") or "").rstrip("/")
    return f"{repo}/releases/download/v{version(app.srcdir)}/{pdf_name(app.srcdir)}", False


def _links_html(app, pathto, docname: str) -> str:
    ipynb = pathto(f"{FOLDER}/{docname}.ipynb", 1)
    script = pathto(f"{FOLDER}/{docname}.py", 1)
    pdf, bundled = _pdf_href(app, pathto)
    where = "" if bundled else " (from the release on the repository)"
    return (f'<p class="mlbook-downloads">Download this chapter as a '
            f'<a href="{html.escape(ipynb)}" download>notebook (.ipynb)</a> or a '
            f'<a href="{html.escape(script)}" download>Python script (.py)</a>, '
            f'or the whole book as a <a href="{html.escape(pdf)}">PDF</a>{where}.</p>')


def download_menu(buttons: list[dict], pathto, pagename: str, is_chapter: bool, pdf: str) -> list[dict]:
    """The theme's download menu of a page, as the book wants it.

    The theme offers the page's source (for a chapter, the ``.ipynb``, under the label
    of a source file) and ".pdf", which prints the page. A chapter's menu becomes its
    notebook and its script from ``downloads/``; every page's gets "print" (named for
    what it does) and the book's PDF.
    """
    kept = []
    for b in buttons:
        label = b.get("label")
        if label in ("download-source-button", "download-notebook-button"):
            if not is_chapter:
                kept.append(b)      # a Markdown page's own source
            continue
        if label == "download-pdf-button":
            b = {**b, "text": "print", "tooltip": "Print this page"}
        kept.append(b)
    if is_chapter:
        kept[:0] = [
            {"type": "link", "url": pathto(f"{FOLDER}/{pagename}.ipynb", 1), "text": ".ipynb",
             "icon": "fas fa-code", "tooltip": "Download this chapter as a notebook",
             "label": "download-notebook-button"},
            {"type": "link", "url": pathto(f"{FOLDER}/{pagename}.py", 1), "text": ".py",
             "icon": "fas fa-file-code", "tooltip": "Download this chapter as a Python script",
             "label": "download-script-button"}]
    kept.append({"type": "link", "url": pdf, "text": "book.pdf", "icon": "fas fa-book",
                 "tooltip": "Download the whole book as a PDF", "label": "download-book-pdf-button"})
    return kept


def _on_page(app, pagename, templatename, context, doctree) -> None:
    if app.builder.format != "html" or pagename not in app.env.found_docs:
        return
    is_chapter = app.env.doc2path(pagename, False).endswith(".ipynb")
    pathto = context["pathto"]
    if is_chapter:
        body = context.get("body", "")
        end = body.find("</h1>")
        if end >= 0:
            end += len("</h1>")
            context["body"] = body[:end] + "\n" + _links_html(app, pathto, pagename) + body[end:]
    pdf, _ = _pdf_href(app, pathto)
    for group in context.get("header_buttons", []):
        if group.get("label") == "download-buttons":
            group["buttons"] = download_menu(group["buttons"], pathto, pagename, is_chapter, pdf)


def _write_downloads(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir) / FOLDER
    if out.exists():
        shutil.rmtree(out)
    docs = _notebook_docs(app)
    for docname in docs:
        source = Path(app.env.doc2path(docname))
        target = out / f"{docname}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        target.with_suffix(".py").write_text(
            notebook_to_script(source.read_text(encoding="utf-8")), encoding="utf-8")
    pdf = _bundled_pdf(app)
    if pdf is not None:
        shutil.copyfile(pdf, out / pdf_name(app.srcdir))
    from sphinx.util import logging

    logging.getLogger(__name__).info(f"wrote {FOLDER}/: {len(docs)} chapters as .ipynb and .py"
                + (f", and {pdf_name(app.srcdir)}" if pdf is not None else ""))


def _resolve_table(app, doctree, docname) -> None:
    from docutils import nodes

    for node in doctree.findall(book_downloads_node):
        if app.builder.format != "html":
            note = ("In the HTML book a table here links to every chapter's notebook and "
                    "script; the release archive holds them in its folders notebooks and scripts.")
            node.replace_self(nodes.paragraph("", note))
            continue
        # relative to the page holding the directive
        depth = docname.count("/")
        up = "../" * depth

        def pathto(target, _resource=1):
            return up + target

        pdf, bundled = _pdf_href(app, pathto)
        rows = []
        for doc in _notebook_docs(app):
            title = app.env.titles[doc].astext() if doc in app.env.titles else doc
            number = app.env.toc_secnumbers.get(doc, {}).get("")
            shown = (".".join(map(str, number)) + ". " + title) if number else title
            page = app.builder.get_relative_uri(docname, doc)
            name = html.escape(title, quote=True)
            # the accessible name starts with the visible text (axe: label-content-name-mismatch)
            # and names the chapter, so that a screen reader's list of links tells them apart
            rows.append(f'<tr><td><a href="{html.escape(page)}">{html.escape(shown)}</a></td>'
                        f'<td><a href="{up}{FOLDER}/{doc}.ipynb" download '
                        f'aria-label=".ipynb notebook of {name}">.ipynb</a></td>'
                        f'<td><a href="{up}{FOLDER}/{doc}.py" download '
                        f'aria-label=".py script of {name}">.py</a></td></tr>')
        where = "" if bundled else " (from the release on the repository)"
        raw = (f'<p>The whole book as one <a href="{html.escape(pdf)}">PDF</a>{where}; '
               f'each chapter as a notebook and as a Python script:</p>'
               '<table class="table mlbook-downloads-table"><thead><tr><th scope="col">Chapter</th>'
               '<th scope="col">Notebook</th><th scope="col">Script</th></tr></thead>'
               f'<tbody>{"".join(rows)}</tbody></table>')
        node.replace_self(nodes.raw("", raw, format="html"))


try:   # the test extra has no docutils, and the helpers above need none
    from docutils import nodes as _nodes
except ImportError:
    _nodes = None

if _nodes is not None:
    # at module level: Sphinx pickles the doctrees, and with them this node's class
    class book_downloads_node(_nodes.General, _nodes.Element):
        """Where the front page's table of downloads goes (filled once every page is read)."""


def setup(app):
    from sphinx.util.docutils import SphinxDirective

    class BookDownloads(SphinxDirective):
        """A table of every chapter's notebook and script, and the PDF (HTML only)."""

        has_content = False

        def run(self):
            self.env.note_dependency(str(Path(self.env.srcdir) / "_toc.yml"))
            return [book_downloads_node()]

    app.add_config_value("mlbook_pdf", "", "html")
    app.add_node(book_downloads_node)
    app.add_directive("book-downloads", BookDownloads)
    app.connect("config-inited", _check_pdf)
    app.connect("doctree-resolved", _resolve_table)
    # after sphinx-book-theme has filled its header buttons (priority 500)
    app.connect("html-page-context", _on_page, priority=900)
    app.connect("build-finished", _write_downloads)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
