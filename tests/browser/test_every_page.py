"""Every page as readers open it: on a phone, on a wide screen, in both colour schemes, and without
JavaScript, always under its Content-Security-Policy. Each page opens once per screen (a class-scoped
fixture) for the checks that read it, in any order: each sets the scheme (the page switches as it
does when a reader's system does: the schemes differ only in the palette's custom properties) or the
width it reads at, and what a check must change to read (focus, on a phone) is done as the page opens.
The page in use (class Used) is a visit of its own. The checks:

- nothing overflows the screen sideways;
- axe-core finds nothing serious (on a phone a wide formula becomes a scroll box, which a scan on a
  wide screen alone never saw); on a phone in the dark scheme its colour rules find nothing either;
- in every live view no SVG text is drawn smaller than 12 px, and no two labels overlap (their boxes,
  rotated as drawn, are intersected);
- on a phone every button, select, slider, radio, check box and disclosure is a 44 px touch target
  and shows the same focus ring (theme/css/site.css);
- in both schemes, chapters 1, 5 and 9 take the scheme's palette (theme/palette.toml) on the page and
  in their views, and are photographed under test-output/screenshots/ for a person to compare;
- in use (class Used), nothing breaks the policy, and Python is fetched where it is used, only there;
- without JavaScript, nothing overflows either; display formulas are not clipped, inline ones sit at
  the size of their text, and on a phone the long ones wrap instead of scrolling; every figure is its
  static drawing, with alt text that quotes a number, and key numbers behind a Numbers disclosure
  that opens without scripts.
"""
from __future__ import annotations

import json
import re
from functools import partial

import pytest

from builder import palette
from tests.conftest import PALETTE, ROOT

from .conftest import (AXE_ROUTE, CHAPTER, FIGURES, PHONE, SETTLE_MS, Visit, browser_context, chapter_pages,
                       draw_every_figure, expect, figure_numbers, live_routes, rgb, serious_violations, uses_python, wait_for_fallback)

CHAPTERS = chapter_pages()
PAGES = {**{page: page for page in CHAPTERS}, "index": "index.html", "bibliography": "bibliography.html",
         "search": "search.html?q=softmax",  # the search page with results on it
         "print": "print.html"}  # the print edition, read on a screen
WIDE = {"viewport": {"width": 1200, "height": 800}}  # the wide layout starts at 70rem (1120 px)
MIN_PX = 12
# What of axe's default rules a colour scheme can change: those it files under colour (tag cat.color),
# less the AAA contrast rule it leaves off by default. Every other rule reads what both schemes share.
COLOUR_RULES = ("color-contrast", "link-in-text-block")
# The print edition is one static page of every chapter (no live view, no Python); its text, formulas and
# drawings are the chapters', which every screen reads page by page. Its own markup and its policy do
# not change with the screen: the wide screen scans it with every rule, the phone with the colour
# rules in the dark, and it is used once, on the phone, where a page overflows first. (It is the
# longest page by far: each of those visits cost 5 to 8 s.)
BUT_PRINT = {name: page for name, page in PAGES.items() if name != "print"}
PHOTOGRAPHED = ("01-why-attention.html", "05-what-gets-passed-along.html", "09-learning-to-look.html")
SHOTS = ROOT / "test-output" / "screenshots"
COLOURS = """() => ({
  bg: getComputedStyle(document.body).backgroundColor,
  ink: getComputedStyle(document.body).color,
  figure: getComputedStyle(document.querySelector(".figure-body")).backgroundColor,
  tick: [...document.querySelectorAll(".figure-plot .tick, .figure-plot .axis-label")].map((t) => getComputedStyle(t).fill)[0] ?? null,
})"""

CONTROLS = ("main button, main select, main input[type=range], main summary, main input[type=search], "
            "main label:has(> input[type=radio]), main label:has(> input[type=checkbox])")
SMALL = """(sel) => [...document.querySelectorAll(sel)]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden")
  .map((e) => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.height < 43.5)
  .map(([e, r]) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(r.width)}x${Math.round(r.height)} "${e.textContent.trim().slice(0, 30)}"`)"""
RINGS = """(sel) => [...document.querySelectorAll(sel)]
  .filter((e) => e.matches("button, select, input, summary") && e.getClientRects().length).slice(0, 12)
  .map((e) => { e.focus({ focusVisible: true }); const s = getComputedStyle(e);
                return [e.tagName.toLowerCase() + "." + e.className, document.activeElement === e, s.outlineStyle, s.outlineWidth]; })"""
WIDER_THAN = """(w) => [...document.querySelectorAll("body *")]
  .filter((e) => e.getBoundingClientRect().right > w + 0.5)
  .slice(0, 8).map((e) => e.tagName.toLowerCase() + (e.className && typeof e.className === "string"
    ? "." + e.className.trim().replace(/\\s+/g, ".") : "") + " right=" + Math.round(e.getBoundingClientRect().right))"""

# Display formulas whose scroll box clips them, inline formulas larger than the text around them, and
# the spans that keep a formula with its following '.' or ',' that would still wrap. (Chromium already
# refuses that break; the builder's nowrap span, tested in tests/builder/test_math.py, is for engines
# that do not.)
MATH = """() => ({
  clipped: [...document.querySelectorAll('.math-display')]
    .filter((d) => d.scrollHeight > d.clientHeight).map((d) => d.textContent.slice(0, 40)),
  enlarged: [...document.querySelectorAll('.math math')]
    .filter((m) => getComputedStyle(m).fontSize !== getComputedStyle(m.closest('p, li, figcaption, span.sidenote')
      || m.parentElement.parentElement).fontSize).map((m) => m.textContent.slice(0, 40)),
  wrapping: [...document.querySelectorAll('.math-nowrap')].filter((s) => getComputedStyle(s).whiteSpace !== 'nowrap').length,
})"""
LONG_DISPLAYS = [c for c in CHAPTERS if c[:2] in ("05", "08", "10")]  # chapters with display formulas too long for a phone
# Display formulas that scroll sideways, and how many are drawn on more than one line.
WRAPS = """() => ({
  scrolling: [...document.querySelectorAll('.math-display')].filter((d) => d.scrollWidth > d.clientWidth)
    .map((d) => d.textContent.slice(0, 40)),
  wrapped: [...document.querySelectorAll('.math-display')].filter((d) => {
    const tops = new Set([...d.querySelectorAll('math')].map((m) => Math.round(m.getBoundingClientRect().top)));
    return tops.size > 1; }).length,
})"""

# Each text's box in its own coordinates, turned into the screen quad it is drawn as (rotation
# included), then separating-axis tests between every two quads of one figure.
CRAMPED = """(minPx) => {
  const quad = (t) => { const b = t.getBBox(), m = t.getScreenCTM();
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
      .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]); };
  const apart = (p, q) => [p, q].some((poly) => poly.some((a, i) => {
    const b = poly[(i + 1) % 4], nx = a[1] - b[1], ny = b[0] - a[0];
    const span = (s) => s.map(([x, y]) => x * nx + y * ny);
    const sp = span(p), sq = span(q), gap = 0.5 * Math.hypot(nx, ny);
    return Math.max(...sp) <= Math.min(...sq) + gap || Math.max(...sq) <= Math.min(...sp) + gap; }));
  const out = {};
  for (const fig of document.querySelectorAll("[data-figure]")) {
    const texts = [...fig.querySelectorAll(".figure-view svg text")]
      .filter((t) => t.getClientRects().length && t.textContent.trim() && getComputedStyle(t).visibility !== "hidden");
    const found = [];
    for (const t of texts) {
      const m = t.getScreenCTM(), px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      if (px < minPx - 0.05) { found.push(`"${t.textContent.trim()}" at ${px.toFixed(1)} px`); break; }
    }
    const quads = texts.map(quad);
    outer: for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++)
      if (!apart(quads[i], quads[j])) { found.push(`"${texts[i].textContent.trim()}" overlaps "${texts[j].textContent.trim()}"`); break outer; }
    if (found.length) out[fig.dataset.figure] = found.join("; ");
  }
  return out;
}"""


def _visit(browser, base_url, which: str, view: dict) -> Visit:
    """A Visit of page `which` at `view` (context options) under the page's policy, every figure drawn.
    Where Python is used, it is the stand-in (the engine on CPython): the real one's boot costs a page
    seconds of CPU, and test_real_python.py runs it on every page that uses it."""
    visit = Visit(partial(browser_context, browser), base_url + PAGES[which], routes=[*live_routes(), AXE_ROUTE], **view)
    if which == "search":
        visit.page.locator("[data-search-results] li").first.wait_for()
    if which in CHAPTERS and view.get("java_script_enabled", True):
        draw_every_figure(visit.page)
    return visit


@pytest.fixture(scope="class")
def opened(request, browser, base_url):
    """The page named by the test's parameter, opened as the class reads it (its VIEW) by _visit, shared
    by the class's checks of that page, which only read it (each sets the scheme or width it reads
    at), and closed after the last. What a check must change to read is done here, once, before any
    check, and kept for it: the key numbers every view opens on (opened_elsewhere) and, on a touch
    screen, the controls' sizes and focus rings (focusing them starts a live page's Python, which is
    then waited for)."""
    which, view = request.param, request.cls.VIEW
    visit = _visit(browser, base_url, which, view)
    visit.opened_elsewhere, visit.small, visit.rings = {}, [], []
    if which in CHAPTERS and view.get("java_script_enabled", True):
        page = visit.page
        visit.opened_elsewhere = opened_elsewhere(page)  # before anything touches a control
        if view.get("has_touch"):
            visit.small, visit.rings = page.evaluate(SMALL, CONTROLS), page.evaluate(RINGS, CONTROLS)
            page.evaluate("document.activeElement?.blur()")
            if page.locator("[data-figure][data-live]").count():
                expect(page.locator("[data-runtime-status]")).to_have_attribute("data-state", "ready", timeout=SETTLE_MS)
                expect(page.locator("[data-figure][aria-busy]")).to_have_count(0, timeout=SETTLE_MS)  # what focus asked
    yield visit
    visit.page.context.close()


@pytest.fixture
def in_use(request, browser, base_url):
    """The page named by the test's parameter, opened by _visit for the one test that uses it (class Used)."""
    visit = _visit(browser, base_url, request.param, request.cls.VIEW)
    yield visit
    visit.page.context.close()


def _pages(pages):
    """Parametrize `opened` with these pages, one visit per page for the whole class."""
    return pytest.mark.parametrize("opened", list(pages), indirect=True, scope="class")


def _used(pages):
    """Parametrize `in_use` with these pages: a visit of its own for each."""
    return pytest.mark.parametrize("in_use", list(pages), indirect=True)


# The state a view opens in is the model's opening_state; the key numbers it then lists must be the ones
# the static figure lists (the build's text.numbers), or the view and the model disagree on where it opens.
OPENED_ELSEWHERE = """() => Object.fromEntries([...document.querySelectorAll('[data-figure]')].flatMap((fig) => {
  const listed = JSON.parse(fig.querySelector('.figure-data').textContent).text.numbers;
  const shown = [...fig.querySelectorAll('ul.figure-numbers li')].map((li) => li.textContent.trim());
  // softmax-temperature's static list gives the three temperatures its drawing shows; the view, one of them
  const same = fig.dataset.figure === 'softmax-temperature' ? shown[0] === listed[0]
    : JSON.stringify(shown) === JSON.stringify(listed);
  return same ? [] : [[fig.dataset.figure, { shown, listed }]];
}))"""


def opened_elsewhere(page) -> dict:
    """The figures whose view, freshly drawn, lists other key numbers than their static figure."""
    return page.evaluate(OPENED_ELSEWHERE)


def check_no_overflow(page) -> None:
    width = page.viewport_size["width"]
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    if scroll_width > width:
        pytest.fail(f"{page.url} at {width}px is {scroll_width}px wide; past the edge: {page.evaluate(WIDER_THAN, width)}")


def in_scheme(page, scheme: str):
    """The page as a reader whose system asks for `scheme` sees it, once the colour transitions the
    switch starts (a few views ease their colours) have ended."""
    page.emulate_media(color_scheme=scheme)
    page.evaluate("Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished))")
    return page


def check_axe(page, scheme: str, rules: tuple[str, ...] = ()) -> None:
    violations = serious_violations(in_scheme(page, scheme), rules, from_origin=True)
    assert violations == [], (f"axe on {page.url} at {page.viewport_size['width']}px in the {scheme} scheme:\n"
                              + json.dumps(violations, indent=1))


def check_figure_text(page) -> None:
    found = page.evaluate(CRAMPED, MIN_PX)
    assert found == {}, f"{page.url} at {page.viewport_size['width']}px: cramped figure text: {found}"


def check_static_figures(page) -> None:
    """Without scripts every figure is its drawing (alt text quoting a number) and its key numbers,
    behind a closed Numbers disclosure that opens; every disclosure is closed again after, for the
    class's other checks."""
    try:
        _check_static_figures(page)
    finally:
        page.evaluate("() => document.querySelectorAll('details.figure-numbers-box[open]').forEach((d) => { d.open = false; })")


def _check_static_figures(page) -> None:
    names = page.eval_on_selector_all("[data-figure]", "els => els.map(e => e.dataset.figure)")
    assert names, f"{page.url} has no figures"
    if page.url.endswith("/" + CHAPTER):
        assert set(FIGURES) <= set(names), f"expected figures {FIGURES}, the page has {names}"
    for name in names:
        figure = page.locator(f'[data-figure="{name}"]')
        assert figure.get_attribute("data-state") == "static", name
        img = figure.locator(".figure-fallback img")
        assert img.count() == 1, f"{name}: expected one fallback image"
        wait_for_fallback(page, img)
        assert img.is_visible(), f"{name}: the fallback image is hidden without JavaScript"
        alt = (img.get_attribute("alt") or "").strip()
        assert re.search(r"\d", alt), f"{name}: the alt text is missing or quotes no number: {alt!r}"
        assert not figure.locator(".figure-view").is_visible(), f"{name}: an empty view takes up space"
        numbers = figure.locator("ul.figure-numbers")
        assert numbers.count() == 1, f"{name}: no key-numbers list"
        disclosure = figure.locator("details.figure-numbers-box")
        assert disclosure.get_attribute("open") is None, f"{name}: the Numbers disclosure starts open"
        disclosure.locator("summary").click()
        assert numbers.is_visible(), f"{name}: the key-numbers list stays hidden when Numbers is opened"
        items = figure_numbers(figure)
        assert items and all(items), f"{name}: key-numbers list is empty or has empty items: {items}"
        # a line may set the scene ("Tokens: red, blue, red"); the list as a whole must give numbers
        assert sum(bool(re.search(r"\d", t)) for t in items) >= max(1, len(items) - 1), \
            f"{name}: key numbers without numbers: {items}"


def check_schemes_palette(page, scheme: str) -> None:
    """The page, its figures' surface and their ticks in the scheme's palette roles; the page photographed."""
    in_scheme(page, scheme)
    css = {role: "rgb({}, {}, {})".format(*rgb(c))
           for role, c in (palette.load(PALETTE) if scheme == "light" else palette.load_dark(PALETTE)).items()}
    page.evaluate("document.fonts.ready")
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = page.url.rsplit("/", 1)[1]
    page.screenshot(path=SHOTS / f"{name[:2]}-{scheme}-{page.viewport_size['width']}.png", full_page=True)
    found = page.evaluate(COLOURS)
    assert found["bg"] == css["bg"] and found["ink"] == css["ink"], (name, found)
    assert found["figure"] == css["surface"], (name, found)
    if found["tick"] is not None:
        assert found["tick"] == css["muted"], (name, found)


# The checks each screen runs, as classes its test class takes them from (not collected on their
# own: no Test prefix). They pass in any order: the readers share a visit they do not change, the
# page in use is a visit of its own.

class Read:
    """Every page in the light scheme."""
    VIEW: dict

    @_pages(PHOTOGRAPHED)
    def test_the_page_and_its_views_take_the_light_palette(self, opened):
        check_schemes_palette(opened.page, "light")

    @_pages(PAGES)
    def test_no_serious_accessibility_violation(self, opened):
        check_axe(opened.page, "light")

    @_pages(PAGES)
    def test_nothing_overflows(self, opened):
        check_no_overflow(opened.page)

    @_pages(CHAPTERS)
    def test_figure_text_is_large_enough_and_never_overlaps(self, opened):
        check_figure_text(opened.page)

    @_pages(CHAPTERS)
    def test_every_view_opens_on_the_numbers_its_static_figure_lists(self, opened):
        assert opened.opened_elsewhere == {}


class ReadInTheDark(Read):
    """Then the same pages in the dark scheme."""

    @_pages(PHOTOGRAPHED)
    def test_the_page_and_its_views_take_the_dark_palette(self, opened):
        check_schemes_palette(opened.page, "dark")


class ReadOnAPhone(ReadInTheDark):
    @_pages(BUT_PRINT)
    def test_no_serious_accessibility_violation(self, opened):
        super().test_no_serious_accessibility_violation(opened)

    @_pages(PAGES)
    def test_no_serious_colour_violation_in_the_dark(self, opened):
        check_axe(opened.page, "dark", COLOUR_RULES)

    @_pages(CHAPTERS)
    def test_every_control_is_a_touch_target_with_the_focus_ring(self, opened):
        page, rings = opened.page, opened.rings  # measured as the page was opened (opened)
        assert opened.small == [], f"{page.url}: controls under 44 px high at 375 px"
        assert rings, f"{page.url} has no control"
        bad = [r for r in rings if r[1] and (r[2] == "none" or r[3] != "2px")]
        assert bad == [], f"{page.url}: focused controls without the focus ring: {bad}"


class Used:
    """Last, each page used, read to its end under its policy. On chapters every figure's key control
    answers the keyboard; where a figure is live, Python reaches "ready" first, so views draw worker
    results. Python only where it can be used: the pages that fetch anything of the runtime are
    exactly those with a live figure or an exercise; the others never load the runtime's module and
    carry no status line about Python."""

    @_used(PAGES)
    def test_used_without_a_policy_violation_and_python_only_where_it_is_used(self, in_use, site):
        opened = in_use
        page = opened.page
        name = page.url.rsplit("/", 1)[1].split("?")[0]
        where = f"{name} at {page.viewport_size['width']}px"
        live = page.locator("[data-figure][data-live]").count() > 0
        if live:
            assert opened.boot_runtime("ready")["state"] == "ready"
        else:
            assert page.locator("[data-runtime-status]").count() == 0, f"{where}: a status line about Python it never starts"
        if name in CHAPTERS:
            opened.use_every_figure(where, live=True)
        opened.scroll_through()  # an exercise in view starts its grader's Python
        uses = uses_python(site, name)
        assert opened.fetched_runtime(uses) == uses, where
        assert opened.violations() == [], where
        assert opened.errors == [], where


def test_some_pages_use_python_and_some_do_not(site):
    """What makes the last check above tell pages apart."""
    used = [page for page in PAGES.values() if uses_python(site, page.split("?")[0])]
    assert used and len(used) < len(PAGES), used


class TestPhone(Used, ReadOnAPhone):
    VIEW = PHONE


class TestWide(Used, ReadInTheDark):
    VIEW = WIDE

    @_used(BUT_PRINT)
    def test_used_without_a_policy_violation_and_python_only_where_it_is_used(self, in_use, site):
        super().test_used_without_a_policy_violation_and_python_only_where_it_is_used(in_use, site)


class TestWithoutJavaScript:
    """Each page opened once without scripts: read on a phone, then on a wide screen. Without scripts
    the screens differ only in width (no style asks about touch or pointers), so the page is resized,
    not opened again. Each check sets the width it reads at."""
    VIEW = {**PHONE, "java_script_enabled": False}

    @_pages([*CHAPTERS, "print"])
    def test_nothing_overflows_on_a_phone(self, opened):
        check_no_overflow(at(opened.page, PHONE))

    @_pages(LONG_DISPLAYS)
    def test_wide_formulas_wrap_instead_of_scrolling_on_a_phone(self, opened):
        found = at(opened.page, PHONE).evaluate(WRAPS)
        assert found["scrolling"] == [], f"display formulas that scroll at 375 px: {found['scrolling']}"
        assert found["wrapped"] >= 1, "no display formula wraps onto a second line at 375 px"

    @_pages([*CHAPTERS, "print"])
    def test_nothing_overflows_on_a_wide_screen(self, opened):
        check_no_overflow(at(opened.page, WIDE))

    @_pages(CHAPTERS)
    def test_math_is_not_clipped_or_enlarged(self, opened):
        found = at(opened.page, WIDE).evaluate(MATH)
        assert found["clipped"] == [], f"display math clipped by its scroll box: {found['clipped']}"
        assert found["enlarged"] == [], f"inline math larger than its text: {found['enlarged']}"
        assert found["wrapping"] == 0

    @_pages(CHAPTERS)
    def test_figures_fall_back_to_static_drawings_and_numbers(self, opened):
        check_static_figures(at(opened.page, WIDE))


def at(page, view: dict):
    """The page at the width of `view` (PHONE or WIDE), resized if it is not."""
    if page.viewport_size != view["viewport"]:
        page.set_viewport_size(view["viewport"])
    return page
