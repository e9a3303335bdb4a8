"""Drop repeated inline scripts from every page (a Sphinx 7 bug, fixed in Sphinx 8.2).

Sphinx 7's HTML builder adds a script registered after ``Builder.init()``
twice when it has no file name, only a body: once as ``filename=None`` when
the extension calls ``app.add_js_file(None, body=...)``, and again as
``filename=''`` in ``prepare_writing``; the two compare unequal, so both land
in the page (sphinx-doc/sphinx pull request 13402). sphinx-thebe registers
``const THEBE_JS_URL = ...`` that way, and the second ``const`` is a
``SyntaxError: Identifier 'THEBE_JS_URL' has already been declared`` on every
page, which also stops the rest of that script. Jupyter Book 1 needs
Sphinx < 8, so this extension removes exact repeats (same file name or body,
same attributes) from the page's script list, late, after every other
extension has added its own.
"""

from __future__ import annotations


def _key(script) -> tuple:
    filename = getattr(script, "filename", script) or ""
    attributes = getattr(script, "attributes", {}) or {}
    return (str(filename), tuple(sorted((k, str(v)) for k, v in attributes.items())))


def dedup_scripts(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    seen: set[tuple] = set()
    kept = []
    for script in scripts:
        key = _key(script)
        if key in seen:
            continue
        seen.add(key)
        kept.append(script)
    context["script_files"] = kept


def setup(app):
    app.connect("html-page-context", dedup_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
