"""Give the boxes of sphinx-proof and sphinx-exercise ids that are unique on their page.

sphinx-proof (0.4) gives the body of every theorem, definition, algorithm, ...
the id ``proof-content`` and every unlabelled ``prf:proof`` box the id
``proof``; sphinx-exercise (1.2) gives the body of every exercise and solution
the ids ``exercise-content`` and ``solution-content``. A chapter holds dozens
of each, and an id must be unique on a page: the Nu checker reports each
repeat, anything that looks an element up by id (``aria-labelledby``,
``aria-controls``, ``getElementById``, a ``#fragment``) finds only the first,
and sphinx-togglebutton, which uses an admonition's id as the target of its
button, would toggle the page's first proof from the button of every proof
given ``:class: dropdown``.

After the references are resolved, this renames them, page by page:

* a body takes the id of its box plus ``-content``: the body of
  ``{prf:theorem}`` ``:label: ens-thm-vote`` becomes ``ens-thm-vote-content``,
  the body of the solution ``lr-sol-step`` becomes ``lr-sol-step-content``;
* an unlabelled proof becomes ``proof-1``, ``proof-2``, ... in page order;
* a new id that the page already has gets ``-2``, ``-3``, ... appended.

A reference on the page to a repeated id (a node's ``refid``; the book has
none, since a repeated id cannot name one box) is pointed to the element that
had the id first, where a browser took it before. No style sheet or script of
the two extensions or of the theme selects these ids.
"""

from __future__ import annotations

from docutils import nodes

# The ids the two extensions repeat, and whether the element is a box's body
# (renamed after its box) or a box (numbered).
BODY_IDS = {"proof-content", "exercise-content", "solution-content"}
BOX_IDS = {"proof"}


def make_ids_unique(doctree: nodes.Node) -> dict[str, str]:
    """Rename the repeated ids in ``doctree``; return {old id: new id of its first element}."""
    taken = {i for node in doctree.findall(nodes.Element) for i in node.get("ids", [])}
    counters: dict[str, int] = {}
    first: dict[str, str] = {}

    def fresh(base: str) -> str:
        new, n = base, 1
        while new in taken:
            n += 1
            new = f"{base}-{n}"
        taken.add(new)
        return new

    for node in list(doctree.findall(nodes.Element)):
        ids = node.get("ids", [])
        for k, old in enumerate(ids):
            if old in BODY_IDS:
                box = node.parent
                owner = next((i for i in (box.get("ids", []) if box is not None else [])
                              if i not in BODY_IDS | BOX_IDS), None)
                if owner is None:
                    counters[old] = counters.get(old, 0) + 1
                    new = fresh(f"{old}-{counters[old]}")
                else:
                    new = fresh(f"{owner}-content")
            elif old in BOX_IDS:
                counters[old] = counters.get(old, 0) + 1
                new = fresh(f"{old}-{counters[old]}")
            else:
                continue
            ids[k] = new
            first.setdefault(old, new)
    if first:
        for ref in doctree.findall(nodes.Element):
            if ref.get("refid") in first:
                ref["refid"] = first[ref["refid"]]
    return first


def _on_doctree_resolved(app, doctree, docname) -> None:
    make_ids_unique(doctree)


def setup(app):
    # after sphinx-exercise's own doctree-resolved handlers, which look at the solutions
    app.connect("doctree-resolved", _on_doctree_resolved, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
