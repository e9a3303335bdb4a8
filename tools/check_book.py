"""Checks on the built HTML that Sphinx's -W cannot make.

    .venv/bin/python tools/check_book.py [_build/html]

1. Every chapter (each notebook in the table of contents) shows at least one
   figure: a chapter without one usually means the plots were lost (for
   example a non-inline matplotlib backend in the kernel), not that the
   chapter has none.
2. The book works offline: no page loads a script, stylesheet, font, image or
   frame from outside the build (``<script src>``, ``<link href>``,
   ``<img src>``, ``<iframe src>``, CSS ``url(...)`` and ``@import``), and
   every asset a page loads from the build exists. MathJax in particular is
   served from ``_static/`` (``sphinx-mathjax-offline``), so formulas render
   with no network.
3. No page declares ``THEBE_JS_URL`` twice (a console error that stops the
   page's later scripts; see ``_ext/dedup_scripts.py``).
4. No raw TeX in a page's text: outside the formulas MathJax typesets, the
   code blocks and the scripts, no ``\\command`` and no ``$`` pair is left.
   (A line of inline math that starts with ``+`` or ``-`` becomes a bullet,
   and the formula around it is printed as TeX.)
5. No word twice in a row in any page's text, case ignored, outside code and
   formulas and not across table cells, list items or headings: "(exercise
   Exercise 5.2)" is prose before a reference that already says "Exercise".
   ``DOUBLED_OK`` would list a doubling that is right (it is empty).
6. Search excerpts read as prose: for every page in the search index, the text
   the search page cuts its excerpt from starts with the page's title (not
   with the theme's "Binder Colab ..." buttons) and holds no TeX outside code;
   the selectors are those of ``_static/search_excerpt.js`` when the search
   page loads it, else Sphinx's own (``[role="main"]``, formulas as TeX).
   Result titles with TeX in the search index must be rewritten by that
   script.
7. No run time typed into the prose ("runs in a few seconds"): the book shows
   the times its build measured (``_ext/run_times.py``).
8. Every internal link resolves: each ``<a href>`` to a page of the build
   names a file that exists, and its ``#fragment``, if any, an ``id`` (or an
   ``<a name>``) on that page. Links to other sites are not followed.
9. No image's alt text is a file path or a file name ("../_build/jupyter_execute/
   abc.png", "figure.png"): a screen reader would read the path aloud. The
   chapters' figures take their alt text from their cells' metadata
   (``mystnb: image: alt``; ``tools/figure_cells.py`` lists them).
"""

from __future__ import annotations

import html as html_lib
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent

# <link rel=...> values that make the browser fetch the target
FETCHED_LINKS = {"stylesheet", "preload", "modulepreload", "icon", "shortcut", "apple-touch-icon",
                 "manifest", "prefetch"}
CSS_URL = re.compile(r"""(?:url\(\s*['"]?|@import\s+['"])([^'")\s]+)""")


def is_external(url: str) -> bool:
    parts = urlsplit(url)
    return bool(parts.scheme in {"http", "https", "ftp"} or url.startswith("//"))


class Assets(HTMLParser):
    """Collect what a page makes the browser load, and its inline scripts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.loads: list[tuple[str, str]] = []  # (what, url)
        self.inline_scripts: list[str] = []
        self._script: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            if a.get("src"):
                self.loads.append(("script", a["src"]))
            else:
                self._script = []
        elif tag == "link":
            rels = set((a.get("rel") or "").lower().split())
            if rels & FETCHED_LINKS and a.get("href"):
                self.loads.append((f"link rel={a.get('rel')}", a["href"]))
        elif tag in {"img", "iframe", "source", "audio", "video", "embed"} and a.get("src"):
            self.loads.append((tag, a["src"]))
        if a.get("style"):
            self.loads += [("inline style", u) for u in CSS_URL.findall(a["style"])]

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            self.inline_scripts.append("".join(self._script))
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self._script.append(data)


def local_target(page: Path, url: str) -> Path | None:
    parts = urlsplit(url)
    if parts.scheme or url.startswith(("data:", "#", "//")) or not parts.path:
        return None
    return (page.parent / unquote(parts.path)).resolve()


def check_offline(html: Path) -> list[str]:
    problems = []
    pages = sorted(p for p in html.rglob("*.html") if "_static" not in p.relative_to(html).parts)
    mathjax_pages = 0
    for page in pages:
        rel = page.relative_to(html)
        parser = Assets()
        parser.feed(page.read_text(encoding="utf-8"))
        for what, url in parser.loads:
            if is_external(url):
                problems.append(f"{rel}: loads a {what} from outside the build: {url}")
                continue
            target = local_target(page, url)
            if target is not None and not target.exists():
                problems.append(f"{rel}: loads a {what} that is not in the build: {url}")
            if what == "script" and "mathjax" in url.lower():
                mathjax_pages += 1
        for body in parser.inline_scripts:
            for m in re.finditer(r"""<style[^>]*>(.*?)</style>""", body, re.S):
                problems += [f"{rel}: inline CSS loads {u}" for u in CSS_URL.findall(m.group(1))
                             if is_external(u)]
        declared = sum(len(re.findall(r"\bconst\s+THEBE_JS_URL\b", s)) for s in parser.inline_scripts)
        if declared > 1:
            problems.append(f"{rel}: declares THEBE_JS_URL {declared} times (a console error)")
    for css in sorted(html.rglob("*.css")):
        text = css.read_text(encoding="utf-8", errors="replace")
        for url in CSS_URL.findall(text):
            if is_external(url):
                problems.append(f"{css.relative_to(html)}: loads {url} from outside the build")
    if pages and mathjax_pages == 0:
        problems.append("no page loads MathJax from the build")
    print(f"check_book: {len(pages)} pages checked for outside assets; "
          f"{mathjax_pages} load MathJax from _static")
    return problems


def check_figures(html: Path) -> tuple[int, list[str]]:
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    files = [m.group(1).strip() for m in re.finditer(r"^\s*- file:\s*(\S+)", toc, re.M)]
    problems = []
    for stem in files:
        if not (ROOT / f"{stem}.ipynb").exists():
            continue
        page = html / f"{stem}.html"
        if not page.exists():
            problems.append(f"{page} was not built")
            continue
        text = page.read_text(encoding="utf-8")
        figures = len(re.findall(r'<img[^>]+src="[^"]*_images/', text))
        if figures == 0:
            problems.append(f"{stem}: the built page shows no figure")
        problems += _check_downloads(stem, text)
    return len(files), problems


def _check_downloads(stem: str, text: str) -> list[str]:
    """A chapter page offers its notebook and its script twice, under the title and in
    the download menu, and the book's PDF (_ext/downloads.py); the link check then
    resolves them. Without this, a missing line or menu entry would pass unseen."""
    problems = []
    if 'class="mlbook-downloads"' not in text:
        problems.append(f"{stem}: no download line under the title")
    for suffix in (".ipynb", ".py"):
        n = len(re.findall(rf'href="[^"]*downloads/{re.escape(stem)}{re.escape(suffix)}"', text))
        if n < 2:
            problems.append(f"{stem}: {n} link(s) to downloads/{stem}{suffix}, expected the line's and the menu's")
    if "download-book-pdf-button" not in text:
        problems.append(f"{stem}: the download menu does not offer the book's PDF")
    return problems


_NOT_TEXT = re.compile(
    r"<(script|style|pre|code|mjx-container)\b[^>]*>.*?</\1>"    # code, scripts, typeset math
    r"|<dt class=\"sig[^\"]*\"[^>]*>.*?</dt>"                   # signatures on the API page
    r"|<span class=\"math[^\"]*\"[^>]*>.*?</span>"              # inline math for MathJax
    r"|<div class=\"math[^\"]*\"[^>]*>.*?</div>",               # display math for MathJax
    re.S)
# TeX a reader should never see: a \command, a \( \) \[ \] delimiter, a $...$
# pair, or a sub- or superscript group such as h_{l+1}
_RAW_TEX = re.compile(r"\\[A-Za-z]{2,}|\\[()\[\]]|\$[^$\s][^$]*\$|[A-Za-z0-9][_^]\{")


def _pages(html: Path, under: str = "") -> list[Path]:
    """The built pages (under ``under``), the theme's static files left out."""
    return sorted(p for p in (html / under).rglob("*.html")
                  if "_static" not in p.relative_to(html).parts)


def _text_matches(html: Path, pages: list[Path], pattern: re.Pattern, what: str) -> list[str]:
    """One problem per match of ``pattern`` in a page's visible text, with its context;
    ``what(match)`` names the problem, or is None for a match that is right."""
    problems = []
    for page in pages:
        text = visible_text(page.read_text(encoding="utf-8"))
        for m in pattern.finditer(text):
            if what(m) is None:
                continue
            near = " ".join(text[max(0, m.start() - 40):m.end() + 30].replace("\0", " | ").split())
            problems.append(f"{page.relative_to(html)}: {what(m)}: ...{near}...")
    return problems


_SUBSTITUTION = re.compile(r"\{\{\s*[A-Za-z_][\w.-]*\s*\}\}")
_PRE = re.compile(r"<pre\b.*?</pre>", re.S | re.I)


def check_substitutions(html: Path) -> list[str]:
    """No MyST substitution left unexpanded: ``{{ version }}`` inside backticks is printed
    as it stands. Inline code counts (that is where it hides); code blocks do not."""
    problems = []
    for page in _pages(html):
        body = _PRE.sub(" ", _article(page.read_text(encoding="utf-8")))
        body = html_lib.unescape(re.sub(r"<[^>]+>", "", body))
        for m in _SUBSTITUTION.finditer(body):
            problems.append(f"{page.relative_to(html)}: an unexpanded substitution {m.group(0)!r} "
                            "(MyST does not expand it inside backticks)")
    return problems


def check_raw_tex(html: Path) -> list[str]:
    return _text_matches(html, _pages(html, "book"), _RAW_TEX, lambda m: "raw TeX in the text")


# Tags that end a run of text: a word at the end of a table cell, list item,
# heading or block is not "followed" by the first word of the next one. A <p>
# is not among them: an admonition's title ("Note") is a paragraph, and a note
# that begins "Note 003 writes" reads "Note Note 003" all the same.
_BLOCK_TAG = re.compile(
    r"</?(?:td|th|tr|li|dt|dd|h[1-6]|caption|figcaption|table|thead|tbody|ul|ol|dl|br|hr|div|"
    r"section|blockquote|article|nav|aside|header|footer)\b[^>]*>", re.I)
_DOUBLED = re.compile(r"\b(\w+)[ \t\r\n]+(\1)\b", re.I)
# A doubled word that is right. Empty: none of the book's pages needs one.
# (Add the lower-case word with a comment saying why, e.g. "that that" where
# the first is a conjunction and the second a pronoun.)
DOUBLED_OK: set[str] = set()


def _article(page_html: str) -> str:
    """The page's article (its main part where there is none; the whole page failing both)."""
    start, end = page_html.find("<article"), page_html.rfind("</article>")
    if start < 0:
        start, end = page_html.find("<main"), len(page_html)
    return page_html[max(start, 0):end if end > 0 else len(page_html)]


def visible_text(page_html: str) -> str:
    """The article's text as a reader sees it, code and formulas cut out.

    Runs of text are separated by NUL where a block ends or a code block or
    formula stood, so that no check joins words across them."""
    body = _NOT_TEXT.sub("\0", _article(page_html))
    body = _BLOCK_TAG.sub("\0", body)
    body = re.sub(r"<[^>]+>", " ", body)
    return html_lib.unescape(body)


def check_doubled_words(html: Path) -> list[str]:
    """No word twice in a row in a page's text ("exercise Exercise 5.2"), case ignored.

    A prose word before a cross-reference that renders with the same word is
    the usual cause: "exercise {numref}`label`" reads "exercise Exercise 5.2"."""
    return _text_matches(html, _pages(html), _DOUBLED,
                         lambda m: None if m.group(1).lower() in DOUBLED_OK
                         else f"doubled word '{m.group(1)} {m.group(2)}'")


# A run time typed into the prose ("each chapter runs in a few seconds") is
# out of date with the next machine; the build's own measurement is shown
# instead (_ext/run_times.py: {run-times}`range`, {chapter-run-times}).
_TYPED_RUN_TIME = re.compile(
    r"\b(?:runs?|ran|running|takes?|took|executes?|finishes)\b[^.;:,]{0,40}?\b(?:in|within|under)\s+"
    r"(?:(?:a\s+few\s+|several\s+)?(?:seconds|minutes)|a\s+(?:second|minute)"
    r"|\d+(?:\.\d+)?\s*(?:s|ms|seconds?|minutes?))\b",
    re.I)


def check_typed_run_times(html: Path) -> list[str]:
    """No page claims in words how long a chapter or notebook takes to run."""
    return _text_matches(html, _pages(html, "book"), _TYPED_RUN_TIME, lambda m: "a typed run time")


# What Sphinx's search page (searchtools.js) cuts its excerpts from, unless
# _static/search_excerpt.js changes it: the text of [role="main"], formulas as TeX.
SPHINX_EXCERPT = {"EXCERPT_ROOT": '[role="main"]', "EXCERPT_DROP": ".headerlink, script, style",
                  "EXCERPT_MATH": None}


def excerpt_settings(html: Path) -> tuple[dict, str]:
    """The selectors the search page's excerpts use, and where they come from."""
    search = html / "search.html"
    if not search.exists():
        return SPHINX_EXCERPT, "no search.html"
    loaded = [u for what, u in _parsed(search).loads if what == "script"]
    script = next((u for u in loaded if urlsplit(u).path.endswith("search_excerpt.js")), None)
    if script is None:
        return SPHINX_EXCERPT, "Sphinx's searchtools.js"
    js = (search.parent / urlsplit(script).path).read_text(encoding="utf-8")
    found = {k: m.group(1) for k in SPHINX_EXCERPT
             if (m := re.search(rf'const\s+{k}\s*=\s*"([^"]*)"', js))}
    return {**SPHINX_EXCERPT, **found}, "_static/search_excerpt.js"


def _parsed(page: Path) -> Assets:
    parser = Assets()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def check_search_excerpts(html: Path) -> list[str]:
    """The text a search excerpt is cut from starts with the page's title and holds no TeX.

    For every page in the search index, the element the search page reads
    (``EXCERPT_ROOT``), less what it drops (``EXCERPT_DROP``) and with the
    formulas it rewrites (``EXCERPT_MATH``) taken out, must begin with the
    page's own title (not the theme's launch buttons or contents list), and,
    outside inline code, contain no TeX (code blocks are the script's to drop:
    a docstring's ``:math:`\\epsilon``` or a plot label's ``$x_1$`` is TeX to a reader). The search page's title list comes from the
    index: a heading whose formula is TeX there ("Choosing \\gamma and C") must be
    rewritten by the script (``fixResultTitles``)."""
    from bs4 import BeautifulSoup   # a dependency of the book's theme

    settings, source = excerpt_settings(html)
    index = html / "searchindex.js"
    if not index.exists():
        return [f"{index.relative_to(html.parent)} is missing: the book has no search"]
    raw = index.read_text(encoding="utf-8")
    m = re.search(r'"docnames":\s*(\[[^\]]*\])', raw)
    docnames = json.loads(m.group(1)) if m else []
    problems = []
    for doc in docnames:
        page = html / f"{doc}.html"
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        root = soup.select_one(settings["EXCERPT_ROOT"])
        title = soup.select_one("article h1") or soup.select_one("h1")
        if root is None or title is None:
            problems.append(f"{doc}.html: no {settings['EXCERPT_ROOT']} or no h1 for the search excerpt")
            continue
        for el in root.select(settings["EXCERPT_DROP"]):
            el.decompose()
        for el in title.select(".headerlink"):
            el.decompose()
        if settings["EXCERPT_MATH"]:
            for el in root.select(settings["EXCERPT_MATH"]):
                el.replace_with(" ")
        text = " ".join(root.get_text(" ").split())
        heading = " ".join(title.get_text(" ").split())
        if not text.startswith(heading):
            problems.append(f"{doc}.html: the search excerpt ({source}) starts with "
                            f"'{text[:60]}...', not with the page's title '{heading}'")
        for el in root.select("code"):   # inline code shows code as it is
            el.decompose()
        tex = _RAW_TEX.search(" ".join(root.get_text(" ").split()))
        if tex:
            problems.append(f"{doc}.html: the search excerpt ({source}) shows TeX: '{tex.group(0)}'")
    titles = re.search(r'"alltitles":\s*\{', raw)
    fixes_titles = source.endswith("search_excerpt.js") and "fixResultTitles" in \
        (html / "_static" / "search_excerpt.js").read_text(encoding="utf-8")
    if titles and not fixes_titles:
        tex_titles = sorted(set(re.findall(r'"([^"]*\\\\[A-Za-z]{2,}[^"]*)":\s*\[\[', raw)))
        problems += [f"searchindex.js: a search result title shows TeX: {t!r}" for t in tex_titles]
    print(f"check_book: search excerpts of {len(docnames)} pages checked ({source})")
    return problems


class Anchors(HTMLParser):
    """The ids a page defines and the links it holds (href, in order)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.images: list[tuple[str, str | None]] = []   # (src, alt)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        if tag == "a" and a.get("href") is not None:
            self.hrefs.append(a["href"])
        if tag == "img":
            self.images.append((a.get("src") or "", a.get("alt")))

    handle_startendtag = handle_starttag


def _anchors(page: Path, cache: dict[Path, Anchors]) -> Anchors:
    if page not in cache:
        parser = Anchors()
        parser.feed(page.read_text(encoding="utf-8", errors="replace"))
        cache[page] = parser
    return cache[page]


def check_links(html: Path) -> list[str]:
    """Every internal link names a file of the build and, with a #fragment, an id on that page.

    ``#`` alone and ``#top`` are the top of a page (HTML's own rule for them)."""
    cache: dict[Path, Anchors] = {}
    problems, checked = [], 0
    root = html.resolve()
    for page in _pages(html):
        for href in _anchors(page, cache).hrefs:
            parts = urlsplit(href)
            if parts.scheme or href.startswith("//") or href.startswith(("mailto:", "javascript:")):
                continue
            target = page.resolve() if not parts.path else (page.parent / unquote(parts.path)).resolve()
            rel = page.relative_to(html)
            if parts.path and target.is_dir():
                target = target / "index.html"
            if not target.exists():
                problems.append(f"{rel}: a link to a file that is not in the build: {href}")
                continue
            checked += 1
            fragment = unquote(parts.fragment)
            if not fragment or fragment == "top" or target.suffix != ".html":
                continue
            if root not in target.parents:
                problems.append(f"{rel}: a link out of the build: {href}")
                continue
            if fragment not in _anchors(target, cache).ids:
                problems.append(f"{rel}: a link to #{fragment}, which {target.relative_to(root)} "
                                "does not define")
    print(f"check_book: {checked} internal links resolved, with their fragments")
    return problems


# An alt text that is a file path or name: "../../_build/jupyter_execute/abc.png", "a.svg".
_PATH_ALT = re.compile(r"^\S*[/\\]\S*$|^\S+\.(?:png|jpe?g|svg|gif|webp|pdf)$", re.I)
# Report-only until the figures get their alt texts (a later change); then True.


def check_alt_paths(html: Path) -> list[str]:
    """Images whose alt text is a file path or file name, one problem each."""
    problems = []
    for page in _pages(html):
        for src, alt in _anchors(page, {}).images:
            if alt is not None and _PATH_ALT.match(alt.strip()):
                problems.append(f"{page.relative_to(html)}: an image's alt text is a file path: "
                                f"{alt.strip()!r}")
    return problems


def main(html: Path) -> int:
    n_files, problems = check_figures(html)
    problems += check_offline(html)
    problems += check_raw_tex(html)
    problems += check_substitutions(html)
    problems += check_doubled_words(html)
    problems += check_search_excerpts(html)
    problems += check_typed_run_times(html)
    problems += check_links(html)
    problems += check_alt_paths(html)
    for p in problems:
        print(f"check_book: {p}")
    print(f"check_book: {n_files} pages in the table of contents, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) > 1 or any(a.startswith("-") for a in args):
        sys.exit("usage: check_book.py [HTML folder]")
    sys.exit(main(Path(args[0]) if args else ROOT / "_build" / "html"))
