"""Accessibility and HTML checks of the built book: ``make check-html``.

    .venv/bin/python tools/check_html.py [_build/html] [--jobs 2] [--only axe,vnu,book]

Three checks, each over every page of the built book:

1. **axe-core** (npm, ``tools/html/``) in Debian's headless Chromium, driven by
   Playwright (the driver ``tests/browser`` already uses with Debian's chromium:
   no chromedriver to keep in step with the browser, and pages in parallel from
   one browser), every page in light and in dark mode: each page is loaded once,
   every rule runs in light mode, then the page is switched to dark mode as the
   theme's button does it and the rules that depend on colours run again
   (``DARK_RULES``). It fails on any violation of impact *serious* or *critical*
   (WCAG 2.0-2.2 A and AA rules and axe's best practices), except the theme's
   known ones in ``THEME_KNOWN`` (each with its reason); a known one that no
   longer occurs is reported, so that the list shrinks with the theme.
2. **The Nu HTML checker** (npm ``vnu-jar``, run with Debian's Java) over every
   page. It fails on a *kind* of error (the message with an id in it replaced,
   see ``vnu_kind``) that is not in ``VNU_ACCEPTED``, which gives each accepted
   kind its reason; an accepted kind that no page has any more is reported.
3. **tools/check_book.py** (links and fragments, alt text, offline assets, ...).

System tools: ``chromium`` (Debian's chromium), ``java`` (Debian's
default-jre-headless) and ``tools/html/node_modules`` (``npm ci`` there, with
Debian's npm; the Makefile does it). A missing one is named with its package.
"""

from __future__ import annotations

import argparse
import asyncio
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "tools" / "html" / "node_modules"
AXE_JS = NODE_MODULES / "axe-core" / "axe.min.js"
VNU_JAR = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
SKIP_DIRS = {"_static", "_sources", "_images", "_downloads"}

# The rules axe runs: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
FAILING_IMPACTS = {"serious", "critical"}

# Violations of the theme (sphinx-book-theme 1.x / pydata-sphinx-theme 0.15+), not of
# the book's content: (axe rule, regular expression the element's CSS target must
# match, reason). Each is matched against every failing element; an entry that
# matches nothing in a run is reported as stale.
#
# Empty: the theme's two serious ones, the search field's and the colour-mode button's
# names (label-content-name-mismatch), are fixed in the book (_ext/templates/). What
# axe still reports is below the failing impacts: "region" (moderate: the theme's
# sidebar logo and search field sit outside a landmark) and "empty-table-header"
# (minor: a header cell holding only a formula; axe does not count the MathML that
# MathJax adds for screen readers as text, and screen readers read it).
THEME_KNOWN: list[tuple[str, str, str]] = [
]

# Kinds of Nu checker error the book accepts, each with its reason. A kind is the
# message with every quoted id replaced by "…" (see vnu_kind).
VNU_ACCEPTED: dict[str, str] = {
    "No “p” element in scope but a “p” end tag seen.":
        "the API page: Sphinx's field lists (docfields) put a parameter's description in a "
        "<p>, and a description of several paragraphs or a list (numpydoc through napoleon) "
        "ends that <p> early; the page renders and reads as written",
    "Element “p” not allowed as child of element “summary” in this context. "
    "(Suppressing further errors from this subtree.)":
        "myst-nb's toggle of a hidden cell (tag hide-cell/hide-input) writes its two labels "
        "as <p> inside <summary>; browsers and screen readers show and read them as text",
    "Start tag seen without seeing a doctype first. Expected “<!DOCTYPE html>”.":
        "the top index.html is Jupyter Book's one-line redirect (a meta refresh) to the "
        "first page, written after Sphinx's build; it has no content",
    "Element “head” is missing a required instance of child element “title”.":
        "the same redirect page of Jupyter Book (index.html)",
}


def pages_of(html: Path) -> list[str]:
    """Every HTML page of the built book, relative to its folder, in order."""
    return sorted(p.relative_to(html).as_posix() for p in html.rglob("*.html")
                  if p.relative_to(html).parts[0] not in SKIP_DIRS)


def missing_tools(checks: set[str], chromium: str) -> list[str]:
    """What the chosen checks need and this machine lacks, each with the Debian package."""
    out = []
    if "axe" in checks:
        if not Path(chromium).is_file():
            out.append(f"Chromium is missing ({chromium}): install Debian's chromium "
                       "(apt-get install chromium)")
        try:
            import playwright  # noqa: F401
        except ImportError:
            out.append("Playwright is missing: pip install -e '.[browser]' (make check-html does it)")
    if "vnu" in checks and shutil.which("java") is None:
        out.append("Java is missing: the Nu HTML checker runs on it; install Debian's "
                   "default-jre-headless (apt-get install default-jre-headless)")
    needs = [p for c, p in (("axe", AXE_JS), ("vnu", VNU_JAR)) if c in checks and not p.is_file()]
    if needs:
        npm = "" if shutil.which("npm") else " (npm is missing too: install Debian's npm)"
        out.append(f"{', '.join(str(p.relative_to(ROOT)) for p in needs)} missing: run "
                   f"`npm ci --ignore-scripts` in tools/html{npm}; make check-html does it")
    return out


# ---------------------------------------------------------------------------
# axe-core in Chromium

# Run after the page's load event: wait for MathJax to typeset (its output is what a
# reader meets), then run axe on the whole document.
# The page is loaded once, in light mode: every rule runs on it. Then the page is
# switched to dark mode as the theme's button does it (data-theme on <html>, and the
# stored choice) and the rules that depend on colours run again.
AXE_RUN = """async ([tags, darkRules]) => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  const shape = (mode, result) => result.violations.map(v => ({
      mode: mode, id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map(n => ({target: n.target.join(' '), impact: n.impact,
                                html: n.html.slice(0, 200), summary: n.failureSummary}))}));
  const html = document.documentElement;
  const modes = {light: html.dataset.theme};
  const light = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                         resultTypes: ['violations']});
  localStorage.setItem('mode', 'dark'); localStorage.setItem('theme', 'dark');
  html.dataset.mode = 'dark'; html.dataset.theme = 'dark';
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  modes.dark = html.dataset.theme;
  const background = getComputedStyle(document.body).backgroundColor;
  const dark = await axe.run(document, {runOnly: {type: 'rule', values: darkRules},
                                        resultTypes: ['violations']});
  return {modes: modes, darkBackground: background,
          violations: shape('light', light).concat(shape('dark', dark))};
}"""
# The rules whose outcome depends on the colours, run again in dark mode.
DARK_RULES = ["color-contrast", "link-in-text-block"]


def known_reason(rule: str, target: str) -> str | None:
    for known_rule, pattern, reason in THEME_KNOWN:
        if known_rule == rule and re.search(pattern, target):
            return reason
    return None


async def _axe_pages(base_url: str, pages: list[str], chromium: str, jobs: int) -> list[dict]:
    from playwright.async_api import async_playwright

    results = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium)
        ctx = await browser.new_context(viewport={"width": 1400, "height": 900})
        # what the theme's colour-mode button stores: every page starts in light mode
        await ctx.add_init_script("localStorage.setItem('mode', 'light');"
                                  "localStorage.setItem('theme', 'light');")
        gate = asyncio.Semaphore(jobs)

        async def one(path: str) -> None:
            async with gate:
                t0 = time.perf_counter()
                page = await ctx.new_page()
                try:
                    await page.goto(base_url + path, wait_until="load")
                    await page.add_script_tag(path=str(AXE_JS))
                    out = await page.evaluate(AXE_RUN, [AXE_TAGS, DARK_RULES])
                finally:
                    await page.close()
            results.append({"page": path, "seconds": round(time.perf_counter() - t0, 1), **out})

        await asyncio.gather(*(one(path) for path in pages))
        await browser.close()
    return results


def check_axe(html: Path, chromium: str, jobs: int, report: Path | None = None,
              only: str = "*") -> list[str]:
    sys.path.insert(0, str(ROOT / "tests"))
    from local_site import serve

    # the top index.html only redirects to the first page
    pages = [p for p in pages_of(html) if p != "index.html" and fnmatch.fnmatch(p, only)]
    if not pages:
        return [f"axe: no page matches {only!r}"]
    t0 = time.perf_counter()
    with serve(html) as (url, _):
        results = asyncio.run(_axe_pages(url, pages, chromium, jobs))
    problems, known_seen, counts = [], set(), {"known": 0, "minor": 0}
    for r in sorted(results, key=lambda r: r["page"]):
        for mode, shown in r["modes"].items():
            if shown != mode:
                problems.append(f"{r['page']} ({mode}): the page shows theme {shown!r}, "
                                f"not {mode!r}: the check did not see that mode")
        if r["darkBackground"] in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"):
            problems.append(f"{r['page']}: the page's background stayed {r['darkBackground']} "
                            "in dark mode: the check did not see dark mode")
        for v in r["violations"]:
            for n in v["nodes"]:
                impact = n["impact"] or v["impact"]
                if impact not in FAILING_IMPACTS:
                    counts["minor"] += 1
                    continue
                reason = known_reason(v["id"], n["target"])
                if reason is not None:
                    known_seen.add((v["id"], reason))
                    counts["known"] += 1
                    continue
                problems.append(f"{r['page']} ({v['mode']}): {impact} {v['id']} ({v['help']}): "
                                f"{n['target']}: {n['html'][:120]}")
    for rule, pattern, reason in THEME_KNOWN:
        if (rule, reason) not in known_seen:
            if only == "*":
                problems.append(f"THEME_KNOWN ({rule}, {pattern!r}) matched nothing: remove it")
    if report is not None:
        report.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    slowest = max(results, key=lambda r: r["seconds"]) if results else {"page": "-", "seconds": 0}
    print(f"check_html: axe-core over {len(pages)} pages (every rule in light mode, the colour "
          f"rules again in dark mode; slowest {slowest['page']}, {slowest['seconds']} s) in "
          f"{time.perf_counter() - t0:.0f} s: {len(problems)} problems, {counts['known']} "
          f"known theme violations, {counts['minor']} minor/moderate ones not failing")
    return problems


# ---------------------------------------------------------------------------
# the Nu HTML checker

def vnu_kind(message: str) -> str:
    """The kind of a Nu checker message: an id in it is replaced by "…", so that
    "Duplicate ID “proof-content”." and "Duplicate ID “x”." are one kind, while the
    element names of other messages ("“p” end tag") stay."""
    return re.sub(r"^(Duplicate ID|The first occurrence of ID|Bad value) “[^”]*”", r"\1 “…”", message)


def run_vnu(html: Path) -> list[dict]:
    files = [str(html / p) for p in pages_of(html)]
    run = subprocess.run(["java", "-Xss2m", "-jar", str(VNU_JAR), "--format", "json", "--errors-only",
                          "--exit-zero-always", *files], capture_output=True, text=True)
    try:
        return json.loads(run.stderr or run.stdout)["messages"]
    except (json.JSONDecodeError, KeyError):
        raise SystemExit(f"check_html: the Nu checker gave no JSON report (exit {run.returncode}): "
                         f"{(run.stderr or run.stdout)[:500]}")


def _relative(url: str, html: Path) -> str:
    """A page's file URL as the Nu checker reports it, relative to the book's folder."""
    path = Path(unquote(urlsplit(url).path))
    try:
        return path.relative_to(html).as_posix()
    except ValueError:
        return str(path)


def check_vnu(html: Path) -> list[str]:
    t0 = time.perf_counter()
    messages = [m for m in run_vnu(html) if m.get("type") == "error"]
    kinds: dict[str, list[dict]] = {}
    for m in messages:
        kinds.setdefault(vnu_kind(m["message"]), []).append(m)
    problems = []
    for kind, found in sorted(kinds.items()):
        where = sorted({f"{_relative(m['url'], html)}:{m.get('lastLine', '?')}" for m in found})
        line = f"{len(found)} x {kind} ({', '.join(where[:3])}{', ...' if len(where) > 3 else ''})"
        if kind in VNU_ACCEPTED:
            print(f"check_html: accepted Nu error: {line}: {VNU_ACCEPTED[kind]}")
        else:
            problems.append(f"Nu checker: a new kind of error: {line}")
    for kind in VNU_ACCEPTED:
        if kind not in kinds:
            problems.append(f"VNU_ACCEPTED lists {kind!r}, which no page has now: remove it")
    print(f"check_html: the Nu checker over {len(pages_of(html))} pages in "
          f"{time.perf_counter() - t0:.0f} s: {len(messages)} errors of {len(kinds)} kinds, "
          f"{len(problems)} problems")
    return problems


# ---------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("html", nargs="?", type=Path, default=ROOT / "_build" / "html",
                        help="the built book's folder (default: _build/html)")
    parser.add_argument("--jobs", type=int, default=2, help="pages axe checks at a time (default 2)")
    parser.add_argument("--only", default="axe,vnu,book",
                        help="comma-separated subset of axe, vnu, book (default: all three)")
    parser.add_argument("--axe-report", type=Path, help="write axe's raw results (JSON) here")
    parser.add_argument("--pages", default="*",
                        help="axe: only the pages matching this glob (default: every page)")
    args = parser.parse_args(argv)
    checks = set(args.only.split(","))
    if not checks <= {"axe", "vnu", "book"}:
        parser.error(f"--only: unknown check(s) {sorted(checks - {'axe', 'vnu', 'book'})}; "
                     "choose from axe, vnu, book")
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    html = args.html.resolve()
    if not (html / "genindex.html").is_file():
        print(f"check_html: no built book in {html}: run `make book` first", file=sys.stderr)
        return 2
    chromium = os.environ.get("MLBOOK_CHROMIUM", "/usr/bin/chromium")
    missing = missing_tools(checks, chromium)
    if missing:
        for m in missing:
            print(f"check_html: {m}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    problems = []
    if "book" in checks:
        run = subprocess.run([sys.executable, str(ROOT / "tools" / "check_book.py"), str(html)])
        if run.returncode != 0:
            problems.append(f"tools/check_book.py failed (exit {run.returncode}; its problems are above)")
    if "vnu" in checks:
        problems += check_vnu(html)
    if "axe" in checks:
        problems += check_axe(html, chromium, args.jobs, args.axe_report, args.pages)
    for p in problems:
        print(f"check_html: {p}")
    print(f"check_html: {', '.join(sorted(checks))} in {time.perf_counter() - t0:.0f} s: "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
