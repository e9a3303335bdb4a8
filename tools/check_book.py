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
"""

from __future__ import annotations

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
    return len(files), problems


_NOT_TEXT = re.compile(
    r"<(script|style|pre|code|mjx-container)\b[^>]*>.*?</\1>"    # code, scripts, typeset math
    r"|<dt class=\"sig[^\"]*\"[^>]*>.*?</dt>"                   # signatures on the API page
    r"|<span class=\"math[^\"]*\"[^>]*>.*?</span>"              # inline math for MathJax
    r"|<div class=\"math[^\"]*\"[^>]*>.*?</div>",               # display math for MathJax
    re.S)
_RAW_TEX = re.compile(r"\\[A-Za-z]{2,}|\$[^$\s][^$]*\$")


def check_raw_tex(html: Path) -> list[str]:
    problems = []
    for page in sorted((html / "book").rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        start = text.find("<main")
        body = _NOT_TEXT.sub(" ", text[start if start >= 0 else 0:])
        body = re.sub(r"<[^>]+>", " ", body)
        for m in _RAW_TEX.finditer(body):
            near = " ".join(body[max(0, m.start() - 40):m.end() + 20].split())
            problems.append(f"{page.relative_to(html)}: raw TeX in the text: ...{near}...")
    return problems


def main(html: Path) -> int:
    n_files, problems = check_figures(html)
    problems += check_offline(html)
    problems += check_raw_tex(html)
    for p in problems:
        print(f"check_book: {p}")
    print(f"check_book: {n_files} pages in the table of contents, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_build" / "html"))
