"""Accessibility fixes of the HTML that come from Docutils, the notebooks' tables and the theme.

1. The bibliography: Docutils writes ``<div role="list" class="citation-list">``
   whose entries have ``role="doc-biblioentry"``, a role that DPUB-ARIA 1.1
   deprecates and that is not a list item, so the list has no items for
   assistive technology (axe: ``aria-required-children``, critical). The
   entries become ``role="listitem"``.
2. Empty header cells: a Markdown table whose top-left cell is empty (a
   confusion matrix: rows "actually positive/negative", columns "predicted
   ...") gives ``<th class="head"><p></p></th>``, a header with no text (axe:
   ``empty-table-header``). An empty corner heads nothing: it becomes a plain
   ``<td>``.
3. myst-nb's toggle of a hidden cell, ``<summary aria-label="Toggle hidden
   content">`` showing "Show code cell content": a spoken name that does not
   hold the visible text (WCAG 2.5.3, axe: ``label-content-name-mismatch``).
   The aria-label goes; the summary is named by the text it shows.
4. Two of the theme's buttons with the same fault: the search field and the
   colour-mode button. ``templates/`` beside this file holds
   the two templates, fixed; this extension puts that folder first on the
   template path, before the theme's own.
"""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent / "templates"

_BIBLIOENTRY = re.compile(r'(<div class="citation" id="[^"]*" )role="doc-biblioentry"')
_EMPTY_HEADER = re.compile(r'<th class="head">(?:\s*<p>\s*</p>)?\s*</th>')
_TOGGLE_LABEL = re.compile(r'<summary aria-label="Toggle hidden content">')


def fix_body(body: str) -> str:
    """The page's body with the bibliography's roles, the empty corner headers and the
    hidden cells' toggles fixed."""
    body = _BIBLIOENTRY.sub(r'\1role="listitem"', body)
    body = _TOGGLE_LABEL.sub("<summary>", body)
    return _EMPTY_HEADER.sub('<td class="head"></td>', body)


def _on_page_context(app, pagename, templatename, context, doctree) -> None:
    if "body" in context:
        context["body"] = fix_body(context["body"])


def _on_config_inited(app, config) -> None:
    # before the theme's folders: Sphinx looks a template up in templates_path first
    config.templates_path = [str(TEMPLATES), *config.templates_path]


def setup(app):
    app.connect("config-inited", _on_config_inited)
    app.connect("html-page-context", _on_page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
