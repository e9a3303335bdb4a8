"""The built HTML book as a reader sees it, in headless Chromium.

Each test checks one thing a reader met broken (on a phone, on a desktop, in
dark mode); the pages are served over HTTP on 127.0.0.1, as a web site serves
them. Widths: 412 px is a common phone (the CSS width of a Pixel 7 or Galaxy
S2x), 1,400 px a laptop window, wide enough for the theme's desktop layout
(both sidebars shown from 1,200 px on).

Thresholds, and why:

* 9 px is the smallest figure text we accept at 1,400 px: about two thirds of
  the page's 16 px body text, and the size below which tick labels and
  legends stop being readable without zooming.
* 1 px of slack on every width comparison absorbs sub-pixel rounding of the
  layout (widths are fractional, ``scrollWidth`` is rounded).
* A table's scroll cue is looked at in the 8 px at each edge of its box (the
  shadow is 16 px wide and fades out; its first half is where it is
  strongest). Shown, it must change that strip by at least 8 grey levels of
  255 on average: on the white page, 8 levels are 3 % of full scale, a step
  a reader sees next to the unshaded row (the eye tells about 1-2 % apart).
  Where it must not show, the strip may change by at most 0.5 levels on
  average: the same pixels, up to rounding.

How figure text is measured. A figure is a PNG, and the page cannot tell the
size of the text inside it; the code that drew it can. ``mlbook.plotting``
(which the chapters import) adds a matplotlib ``figure.hooks`` entry: while a
figure is drawn into a PNG, every text the renderer actually draws reports
its font size, and the PNG records the smallest in its text chunk
``mlbook:smallest-text-px`` (points x dpi / 72: the text's em size in pixels
of the PNG). On the page the PNG is scaled by (displayed width / PNG width),
so the smallest text is shown at that many pixels times the scale. The
assumptions: (1) the em size stands for the text's size (digits and capitals
are about 0.73 em tall in DejaVu Sans, the same for every figure, so a
threshold on the em size is a threshold on them); (2) sub- and superscripts
of mathtext, drawn at 70 % of their text, count as that text; (3) a figure
made before ``mlbook.plotting`` was imported has no record, and the test
fails for it and says so rather than guessing.
"""

from __future__ import annotations

import contextlib
import math
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

PHONE = 412
DESKTOP = 1400
HEIGHT = 900
MIN_FIGURE_TEXT_PX = 9.0
SLACK_PX = 1.0
WITH_SOLUTION = "book/svm/max_margin.html"      # a chapter with formulas and solutions

# ---------------------------------------------------------------------------
# pages and their measurements (each page is loaded once per width and mode)

SKIP_DIRS = {"_static", "_sources", "_images", "_downloads"}


def all_pages(book_dir: Path) -> list[str]:
    """Every HTML page of the book, as paths relative to its folder."""
    pages = []
    for p in sorted(book_dir.rglob("*.html")):
        rel = p.relative_to(book_dir)
        if rel.parts[0] in SKIP_DIRS or rel.name == "index.html" and len(rel.parts) == 1:
            continue   # the top index.html only redirects to the intro
        pages.append(rel.as_posix())
    return pages


def chapter_pages(book_dir: Path) -> list[str]:
    """The pages made from notebooks (a chapter's source is kept in _sources/)."""
    return [p for p in all_pages(book_dir)
            if (book_dir / "_sources" / p).with_suffix(".ipynb").is_file()]


MEASURE = """() => {
  const W = window.innerWidth;
  const visible = e => e.getClientRects().length > 0 && e.clientWidth > 0;
  const short = s => s.replace(/\\s+/g, " ").trim().slice(0, 70);
  const scrollBox = e => {
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (/auto|scroll/.test(getComputedStyle(a).overflowX)) return a;
    }
    return null;
  };
  const out = {width: W, scrollWidth: document.documentElement.scrollWidth,
               theme: document.documentElement.dataset.theme};
  // tables wider than the screen, and whether a box of their own scrolls them
  out.tables = [...document.querySelectorAll("article table")].filter(visible).map(t => {
    const r = t.getBoundingClientRect(), box = scrollBox(t);
    const b = box && box.getBoundingClientRect(), bcs = box && getComputedStyle(box);
    return {text: short(t.innerText), left: r.left, right: r.right, height: r.height,
            boxLeft: b ? b.left : null, boxRight: b ? b.right : null,
            boxScrolls: !!box && box.scrollWidth > box.clientWidth + 1,
            boxImage: bcs ? bcs.backgroundImage : null,
            boxAttachment: bcs ? bcs.backgroundAttachment : null};
  });
  // words of inline code (Sphinx puts each in a span.pre) broken across lines
  const article = document.querySelector("article.bd-article") || document.body;
  const acs = getComputedStyle(article);
  out.column = article.clientWidth - parseFloat(acs.paddingLeft) - parseFloat(acs.paddingRight);
  out.brokenCode = [];
  document.querySelectorAll("article code span.pre").forEach(s => {
    const rects = [...s.getClientRects()].filter(r => r.width > 0);
    if (rects.length < 2) return;
    const code = s.closest("code"), ccs = getComputedStyle(code);
    const frame = ["paddingLeft", "paddingRight", "borderLeftWidth", "borderRightWidth"]
      .reduce((w, k) => w + parseFloat(ccs[k]), 0);
    const oneLine = rects.reduce((w, r) => w + r.width, 0) + frame;
    out.brokenCode.push({text: s.textContent, lines: rects.length, width: oneLine});
  });
  // blocks of code and output whose text goes past their box
  out.pre = [...document.querySelectorAll("article pre")].filter(visible).map(p => ({
    text: short(p.textContent), hidden: p.scrollWidth - p.clientWidth,
    overflowX: getComputedStyle(p).overflowX}));
  // figures (the chapters' PNGs)
  out.figures = [...document.querySelectorAll("article img")]
    .filter(i => visible(i) && i.src.includes("/_images/")).map(i => {
      const cs = getComputedStyle(i);
      return {src: i.src, natural: i.naturalWidth,
              content: i.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
              background: cs.backgroundColor, filter: cs.filter};
    });
  return out;
}"""

OPEN_SOLUTIONS = """() => document.querySelectorAll(".admonition.toggle.toggle-hidden > .admonition-title")
                     .forEach(t => t.click())"""


def settle(page) -> None:
    """Wait until MathJax has typeset the page and the fonts are in: the layout is final."""
    page.evaluate("""async () => {
      for (let i = 0; i < 100 && !(window.MathJax && MathJax.startup && MathJax.startup.promise); i++)
        await new Promise(r => setTimeout(r, 50));
      if (window.MathJax && MathJax.startup) await MathJax.startup.promise;
      await document.fonts.ready;
    }""")
    page.wait_for_timeout(100)


def watch_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    # Chromium asks every site for /favicon.ico; the book has none (a missing
    # icon is no fault of a page), so that one 404 is not counted.
    page.on("console", lambda m: m.type == "error" and not m.location.get("url", "").endswith(
        "/favicon.ico") and errors.append(f"console: {m.text}"))
    page.on("requestfailed", lambda r: errors.append(f"failed to load {r.url}"))
    page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status}: {r.url}"))
    return errors


def new_context(browser, width: int, dark: bool = False, phone: bool = False):
    ctx = browser.new_context(viewport={"width": width, "height": HEIGHT},
                              has_touch=phone, is_mobile=phone)
    if dark:   # what the theme's colour-mode button stores
        ctx.add_init_script("localStorage.setItem('mode', 'dark'); localStorage.setItem('theme', 'dark');")
    return ctx


@pytest.fixture(scope="session")
def measured(browser, base_url, book_dir):
    """measured(width, dark=False) -> {page: measurements}, each page loaded once per setting."""
    cache: dict = {}

    def get(width: int, dark: bool = False) -> dict:
        key = (width, dark)
        if key not in cache:
            ctx = new_context(browser, width, dark)
            page = ctx.new_page()
            errors = watch_errors(page)
            result = {}
            for path in all_pages(book_dir):
                errors.clear()
                page.goto(base_url + path, wait_until="load")
                settle(page)
                page.evaluate(OPEN_SOLUTIONS)
                page.wait_for_timeout(50)
                m = page.evaluate(MEASURE)
                m["errors"] = list(errors)
                result[path] = m
            ctx.close()
            cache[key] = result
        return cache[key]

    return get


def png_record(book_dir: Path, src: str) -> tuple[int, float | None]:
    """(width in pixels, smallest text in PNG pixels or None) of a served figure."""
    from PIL import Image

    path = book_dir / unquote(urlsplit(src).path).lstrip("/")
    with Image.open(path) as im:
        text = getattr(im, "text", {}) or {}
        px = text.get("mlbook:smallest-text-px")
        return im.size[0], (float(px) if px is not None else None)


def report(problems: list[str]) -> str:
    return f"{len(problems)} problem(s):\n  " + "\n  ".join(problems[:40])


# ---------------------------------------------------------------------------
# navigation on a phone and on a desktop

@contextlib.contextmanager
def open_page(browser, base_url, path, width, phone=False):
    """(page, the errors it logs) at ``width``; its browser context is closed on exit."""
    ctx = new_context(browser, width, phone=phone)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(base_url + path, wait_until="load")
        settle(page)
        yield page, errors
    finally:
        ctx.close()


def visible_in_viewport(page, locator) -> bool:
    if not locator.is_visible():
        return False
    box = locator.bounding_box()
    vp = page.viewport_size
    return (box is not None and box["width"] > 0 and box["height"] > 0
            and box["x"] < vp["width"] and box["x"] + box["width"] > 0
            and box["y"] < vp["height"] and box["y"] + box["height"] > 0)


def test_phone_menu_button_opens_the_chapter_list(browser, base_url, book_dir):
    with open_page(browser, base_url, WITH_SOLUTION, PHONE, phone=True) as (page, errors):
        page.locator(".primary-toggle:visible").first.tap()
        page.wait_for_timeout(400)
        dialog = page.locator("#pst-primary-sidebar-modal")
        assert dialog.evaluate("d => d.open"), "tapping ☰ did not open the navigation"
        hrefs = dialog.locator("nav a").evaluate_all("as => as.map(a => a.href)")
        chapters = chapter_pages(book_dir)
        missing = [c for c in chapters if not any(h.split("#")[0].endswith(c) for h in hrefs)]
        assert not missing, f"the opened navigation lacks the chapters {missing}"
        first = dialog.locator("nav a").filter(has_text=re.compile(r"\w")).first
        assert visible_in_viewport(page, first), "the chapter list is not on screen"
        assert not errors, errors


def test_phone_contents_button_opens_the_page_contents(browser, base_url):
    with open_page(browser, base_url, WITH_SOLUTION, PHONE, phone=True) as (page, errors):
        page.locator(".secondary-toggle:visible").first.tap()
        page.wait_for_timeout(400)
        dialog = page.locator("#pst-secondary-sidebar-modal")
        assert dialog.evaluate("d => d.open"), "tapping 'contents' did not open the page's contents"
        entry = dialog.locator("nav.page-toc a").first
        assert visible_in_viewport(page, entry), "the page's contents are not on screen"
        assert not errors, errors


def test_desktop_menu_button_hides_the_sidebar(browser, base_url):
    with open_page(browser, base_url, WITH_SOLUTION, DESKTOP) as (page, errors):
        sidebar = page.locator("#pst-primary-sidebar")
        assert sidebar.is_visible(), "the primary sidebar is not shown at 1,400 px to start with"
        page.locator(".primary-toggle:visible").first.click()
        page.wait_for_timeout(600)        # the theme slides the sidebar out
        box = sidebar.bounding_box()
        assert not sidebar.is_visible() or box is None or box["x"] + box["width"] <= 0 \
            or box["width"] < 1, f"☰ did not hide the sidebar (box {box})"
        assert not errors, errors


# ---------------------------------------------------------------------------
# solutions

def test_click_on_a_solution_title_opens_and_closes_it(browser, base_url):
    with open_page(browser, base_url, WITH_SOLUTION, DESKTOP) as (page, errors):
        solution = page.locator(".solution.dropdown").first
        title_link = solution.locator(":scope > .admonition-title a").first
        content = solution.locator(":scope > section").first
        url = page.url
        assert not content.is_visible(), "a solution is open before anyone clicks it"
        title_link.click()            # the title's text, not the chevron
        page.wait_for_timeout(300)
        assert content.is_visible(), "a click on the solution's title did not open it"
        assert page.url == url, f"the click navigated to {page.url}"
        title_link.click()
        page.wait_for_timeout(300)
        assert not content.is_visible(), "a second click on the title did not close it"
        assert page.url == url, f"the click navigated to {page.url}"
        assert not errors, errors


def test_tap_on_a_solution_title_far_down_a_phone_page_opens_and_closes_it(browser, base_url):
    """A finger on a phone: the last solution of the chapter, out of sight when
    the page opens, opens and closes on a tap on its title's text."""
    with open_page(browser, base_url, WITH_SOLUTION, PHONE, phone=True) as (page, errors):
        solutions = page.locator(".solution.dropdown")
        assert solutions.count() >= 2, f"{WITH_SOLUTION} has fewer than two solutions"
        solution = solutions.last
        title_link = solution.locator(":scope > .admonition-title a").first
        content = solution.locator(":scope > section").first
        url = page.url
        top = title_link.evaluate("a => a.getBoundingClientRect().top + window.scrollY")
        assert top > HEIGHT, f"the last solution is on the first screen (at {top:.0f} px)"
        assert not content.is_visible(), "a solution is open before anyone taps it"
        title_link.tap()              # scrolls it into view, then a touch on the link's text
        page.wait_for_timeout(300)
        assert content.is_visible(), "a tap on the solution's title did not open it"
        assert page.url == url, f"the tap navigated to {page.url}"
        assert visible_in_viewport(page, title_link), "after the tap the title is off screen"
        title_link.tap()
        page.wait_for_timeout(300)
        assert not content.is_visible(), "a second tap on the title did not close it"
        assert page.url == url, f"the tap navigated to {page.url}"
        assert not errors, errors


# ---------------------------------------------------------------------------
# every page: errors, width, tables, code, figures, dark mode

def test_no_page_or_console_error_on_any_page(measured):
    problems = [f"{path} at {w} px: {e}"
                for w in (PHONE, DESKTOP)
                for path, m in measured(w).items() for e in m["errors"]]
    assert not problems, report(problems)


def test_no_page_scrolls_sideways_on_a_phone(measured):
    problems = [f"{path}: the page is {m['scrollWidth']} px wide on a {m['width']} px screen"
                for path, m in measured(PHONE).items()
                if m["scrollWidth"] > m["width"] + SLACK_PX]
    assert not problems, report(problems)


def test_general_index_does_not_scroll_sideways(measured):
    problems = [f"genindex.html is {m['scrollWidth']} px wide at {w} px"
                for w in (PHONE, DESKTOP) for m in [measured(w)["genindex.html"]]
                if m["scrollWidth"] > m["width"] + SLACK_PX]
    assert not problems, report(problems)


def test_tables_fit_the_phone_screen_or_scroll_in_their_own_box(measured):
    """A table wider than a phone scrolls in its own box, and that box shows it scrolls.

    The cue is the box's background ("scroll shadows"): images of which one
    part scrolls with the table (attachment ``local``: the covers at its ends)
    and one stays at the box's edges (``scroll``: the shadows). That it is
    seen, in light and dark mode, is the next test's business.
    """
    problems = []
    for path, m in measured(PHONE).items():
        W = m["width"]
        for t in m["tables"]:
            if t["boxScrolls"]:
                attachments = {a.strip() for a in (t["boxAttachment"] or "").split(",")}
                if t["boxImage"] in (None, "none") or not {"local", "scroll"} <= attachments:
                    problems.append(f"{path}: table '{t['text'][:40]}' scrolls sideways in its box "
                                    f"with no cue (background {t['boxImage']!r:.60}, "
                                    f"attachment {t['boxAttachment']!r})")
            if t["left"] >= -SLACK_PX and t["right"] <= W + SLACK_PX:
                continue
            in_box = (t["boxLeft"] is not None and t["boxLeft"] >= -SLACK_PX
                      and t["boxRight"] <= W + SLACK_PX)
            if not in_box:
                problems.append(f"{path}: table '{t['text'][:40]}' spans "
                                f"{t['left']:.0f}..{t['right']:.0f} px on a {W} px screen")
    assert not problems, report(problems)


MARK_SCROLLING_TABLE = """() => {
  for (const t of document.querySelectorAll("article table")) {
    for (let a = t.parentElement; a && a !== document.body; a = a.parentElement) {
      if (!/auto|scroll/.test(getComputedStyle(a).overflowX)) continue;
      if (a.scrollWidth <= a.clientWidth + 1) break;
      a.setAttribute("data-mlbook-probe", "");
      return {scrollWidth: a.scrollWidth, clientWidth: a.clientWidth};
    }
  }
  return null;
}"""


def edge_changes(page, box, scroll_left: int) -> dict[str, float]:
    """Mean change in grey level at the left and right edges of a table's box and
    in its middle, with the table scrolled to ``scroll_left``: the box as shown
    against the table as the theme draws it (no background on the box, the
    table not blended into it)."""
    from io import BytesIO

    from PIL import Image, ImageChops, ImageStat

    box.evaluate("(b, x) => { b.scrollLeft = x; }", scroll_left)
    page.wait_for_timeout(100)
    shown = Image.open(BytesIO(box.screenshot())).convert("L")
    bare_css = """(b, on) => {
      const t = b.querySelector("table");
      if (on) {
        b.style.setProperty("background", "none", "important");
        t.style.setProperty("mix-blend-mode", "normal", "important");
      } else {
        b.style.removeProperty("background");
        t.style.removeProperty("mix-blend-mode");
      }
    }"""
    box.evaluate(bare_css, True)
    page.wait_for_timeout(100)
    bare = Image.open(BytesIO(box.screenshot())).convert("L")
    box.evaluate(bare_css, False)
    diff = ImageChops.difference(shown, bare)
    w, h = diff.size
    strips = {"left": (0, CUE_STRIP_PX), "right": (w - CUE_STRIP_PX, w),
              "middle": ((w - CUE_STRIP_PX) // 2, (w + CUE_STRIP_PX) // 2)}
    return {k: ImageStat.Stat(diff.crop((a, 0, b, h))).mean[0] for k, (a, b) in strips.items()}


# the Kernels table (too wide for a phone), and one in a theorem's tinted box
SCROLLING_TABLES = ["book/svm/kernels.html", "book/svm/soft_margin_smo.html"]
CUE_STRIP_PX = 8
CUE_SHOWN = 8.0     # grey levels of 255, mean over the strip (module docstring)
CUE_ABSENT = 0.5


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("path", SCROLLING_TABLES)
def test_a_table_that_scrolls_shows_a_shadow_where_more_is_hidden(browser, base_url, path, dark):
    """At 412 px, a shadow marks the edge of a table's box beyond which more is
    hidden, and only that edge; the rows keep their colours elsewhere.

    Each screenshot of the box is compared with one of the same box at the
    same scroll, drawn as the theme draws it (``edge_changes``).
    """
    ctx = new_context(browser, PHONE, dark=dark, phone=True)
    page = ctx.new_page()
    errors = watch_errors(page)
    try:
        page.goto(base_url + path, wait_until="load")
        settle(page)
        sizes = page.evaluate(MARK_SCROLLING_TABLE)
        assert sizes, f"{path}: no table scrolls sideways at {PHONE} px: nothing to look at"
        box = page.locator("[data-mlbook-probe]")
        box.scroll_into_view_if_needed()
        end = sizes["scrollWidth"] - sizes["clientWidth"]
        problems = []
        for where, scroll, shown, absent in [("at its start", 0, "right", "left"),
                                             ("at its end", end, "left", "right")]:
            c = edge_changes(page, box, scroll)
            if c[shown] < CUE_SHOWN:
                problems.append(f"{where}: the {shown} edge, where more is hidden, changes by "
                                f"{c[shown]:.1f} grey levels (< {CUE_SHOWN}): no visible shadow")
            for k in (absent, "middle"):
                if c[k] > CUE_ABSENT:
                    problems.append(f"{where}: the {k} of the box changes by {c[k]:.1f} grey "
                                    f"levels (> {CUE_ABSENT}), where nothing is hidden")
        assert not problems, f"{path} ({'dark' if dark else 'light'}): " + report(problems)
        assert not errors, errors
    finally:
        ctx.close()


def test_inline_code_is_not_squeezed_on_a_phone(measured):
    """A word of inline code takes no more lines than the column makes it need.

    (The Kernels table was 3,561 px tall on a phone: its inline code could
    break anywhere, so the table squeezed each word to one character per
    line.) A word w px wide in a column c px wide needs ceil(w / c) lines
    when it starts a line, and one more when it starts part-way along one;
    more lines than that mean its box was squeezed below the column.
    """
    problems = []
    for path, m in measured(PHONE).items():
        for c in m["brokenCode"]:
            allowed = math.ceil(c["width"] / m["column"]) + 1
            if c["lines"] > allowed:
                problems.append(f"{path}: `{c['text'][:40]}` ({c['width']:.0f} px) takes "
                                f"{c['lines']} lines in a {m['column']:.0f} px column")
    assert not problems, report(problems)


def test_code_and_outputs_fit_the_column_on_a_desktop(measured):
    problems = [f"{path}: {p['hidden']} px hidden to the right of '{p['text'][:50]}'"
                for path, m in measured(DESKTOP).items() for p in m["pre"]
                if p["hidden"] > SLACK_PX]
    assert not problems, report(problems)


def test_figure_text_is_at_least_9px_on_a_desktop(measured, book_dir):
    problems = []
    chapters = set(chapter_pages(book_dir))
    for path, m in measured(DESKTOP).items():
        if path not in chapters:
            continue
        for f in m["figures"]:
            png_width, text_px = png_record(book_dir, f["src"])
            name = Path(urlsplit(f["src"]).path).name[:12]
            if text_px is None:
                problems.append(f"{path}: figure {name}… has no record of its smallest text "
                                "(drawn before the chapter imported mlbook.plotting?)")
                continue
            shown = text_px * f["content"] / png_width
            if shown < MIN_FIGURE_TEXT_PX:
                problems.append(f"{path}: figure {name}… shown at {f['content'] / png_width:.0%}, "
                                f"its smallest text is {shown:.1f} px ({text_px:.1f} px in the PNG)")
    assert not problems, report(problems)


def card_contrast(background: str, css_filter: str) -> float:
    """Contrast ratio (WCAG) of black text on a figure's card, after the CSS filter's brightness.

    0 when the card is not opaque (what is behind shows through).
    """
    nums = [float(x) for x in re.findall(r"[\d.]+", background)]
    if len(nums) < 3 or (len(nums) == 4 and nums[3] < 1):
        return 0.0
    b = re.search(r"brightness\(([\d.]+)\)", css_filter or "")
    k = float(b.group(1)) if b else 1.0

    def lin(c):
        c = min(1.0, c / 255 * k)
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    lum = 0.2126 * lin(nums[0]) + 0.7152 * lin(nums[1]) + 0.0722 * lin(nums[2])
    return (lum + 0.05) / 0.05


def test_dark_mode_pages_load_and_figures_keep_a_light_card(measured, book_dir):
    """In dark mode every page loads cleanly and each figure sits on a light card.

    The figures are black on white; a card of contrast at least 7:1 with black
    text (WCAG's AAA level) keeps them readable on the dark page.
    """
    problems = []
    for path, m in measured(DESKTOP, dark=True).items():
        if m["theme"] != "dark":
            problems.append(f"{path}: the page is not in dark mode (data-theme={m['theme']!r})")
        problems += [f"{path}: {e}" for e in m["errors"]]
        for f in m["figures"]:
            ratio = card_contrast(f["background"], f["filter"])
            if ratio < 7:
                problems.append(f"{path}: figure {Path(urlsplit(f['src']).path).name[:12]}… is on "
                                f"{f['background']} (filter {f['filter']}): contrast {ratio:.1f}:1")
    assert not problems, report(problems)
