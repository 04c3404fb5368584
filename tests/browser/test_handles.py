"""Drag handles, found in the pages (svg.js holdTouch marks each: data-handle), not listed by hand.

On a phone a finger must still scroll the page over a figure: only a touch that starts on a handle (a
tip, the probe, a score bar) drags it instead, since figures that fill a 375 px screen would otherwise
trap the reader. A handle the keyboard can focus keeps focus when a new width redraws the figure:
handles are made once and re-placed, never replaced. One page load per chapter holding a figure whose
view may draw a handle (handle_pages); the sweep of every page in test_state_links checks that no
other figure draws one.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import after_a_frame, expect, figure_numbers, live_routes
from .figures.helpers import handle_pages, may_hold_touches, touch_drag

PHONE_WIDTH, WIDER = 375, 700

# A point of the figure's plot on screen that no handle covers, where a finger drags the page:
# tried from the plot's edges inwards, as a reader's thumb rests beside a drawing.
AWAY_FROM_HANDLES = """(figure) => {
  const reach = 160; // the finger moves up this far: it must start below it
  const plot = figure.querySelector(".figure-plot").getBoundingClientRect();
  const fractions = [0.04, 0.96, 0.5, 0.2, 0.8, 0.35, 0.65];
  for (const fy of [0.96, 0.04, 0.5, 0.8, 0.2, 0.65, 0.35]) {
    for (const fx of fractions) {
      const x = plot.left + plot.width * fx, y = plot.top + plot.height * fy;
      if (y < reach || y > innerHeight - 2 || x < 0 || x > innerWidth) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && figure.contains(hit) && !hit.closest("[data-handle]")) return [x, y];
    }
  }
  return null;
}"""


def _top(locator) -> float:
    """Where the figure sits on screen. Not scrollY: when Python starts, the status line at the
    top of the chapter changes height and scroll anchoring moves scrollY to keep the figure put."""
    return locator.evaluate("e => e.getBoundingClientRect().top")


def _settled(figure) -> None:
    """What the figure asked Python for has come back: no answer is due (a score editor marks the
    figure data-waiting from the edit, before its pause ends and it asks: bars.js), none on its way."""
    figure.page.wait_for_function("(f) => !f.hasAttribute('data-waiting') && !f.hasAttribute('aria-busy')",
                                  arg=figure.element_handle(), timeout=10_000)


def _holds_the_finger(page, figure, name: str) -> None:
    """A finger on the first handle drags it (the view redraws) and the page stays; one on the plot
    away from every handle scrolls the page."""
    grip = figure.locator("[data-handle]").first
    grip.scroll_into_view_if_needed()
    box = grip.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    view = figure.locator(".figure-view")
    before, shown = _top(figure), view.inner_html()
    touch_drag(page, (x, y), (x + 40, y + 60))
    page.wait_for_function("([view, shown]) => view.innerHTML !== shown",  # the handle moved: the view redraws
                           arg=[view.element_handle(), shown], timeout=10_000)
    assert abs(_top(figure) - before) < 2, f"{name}: dragging the handle scrolled the page"

    figure.locator(".figure-plot").first.scroll_into_view_if_needed()
    spot = figure.evaluate(AWAY_FROM_HANDLES)
    assert spot, f"{name}: every point of the plot on screen is a handle: a finger there cannot scroll the page"
    before = _top(figure)
    touch_drag(page, tuple(spot), (spot[0], spot[1] - 150), steps=8)
    try:
        page.wait_for_function("([figure, top]) => figure.getBoundingClientRect().top < top - 50",
                               arg=[figure.element_handle(), before], timeout=3_000)
    except PlaywrightTimeout:
        pytest.fail(f"{name}: a finger on the plot away from the handles did not scroll the page")


def _keep_focus_across_a_resize(page, figures: list) -> None:
    """Each handle the keyboard can focus is moved by its key; then, as the width changes, every one
    is the node it was (re-placed, not replaced), the last keeps focus, and no state changes."""
    pressed = []
    for figure, name in figures:
        handle = figure.locator("[data-handle]").first
        if not handle.evaluate("e => e.tabIndex >= 0"):
            continue  # a handle for the finger alone (the keyboard has the figure's slider)
        handle.evaluate("(e, i) => { e.__handle = i; }", len(pressed))
        handle.focus()
        handle.press(handle.get_attribute("data-key-control") or "ArrowRight")
        pressed.append((figure, name))
    if not pressed:
        return
    for figure, _ in pressed:
        _settled(figure)  # a score editor asks Python once the keys (or the finger, above) rest: data-waiting till then
    before = [figure_numbers(figure) for figure, _ in pressed]
    for width in (WIDER, PHONE_WIDTH):
        page.set_viewport_size({"width": width, "height": 700})
        page.wait_for_function("(w) => document.documentElement.clientWidth <= w", arg=width)
        after_a_frame(page)  # the views' ResizeObservers have redrawn at the new width
        assert page.evaluate("document.activeElement?.__handle") == len(pressed) - 1, \
            f"{pressed[-1][1]}: focus left its handle as the width changed to {width} px"
        for i, (figure, name) in enumerate(pressed):
            assert figure.locator("[data-handle]").first.evaluate("e => e.__handle") == i, \
                f"{name}: a new width replaced its handle"
            assert figure_numbers(figure) == before[i], f"{name}: a resize changed the state, not only the drawing"


@pytest.mark.parametrize("page_name", handle_pages())
def test_handles_hold_the_finger_keep_focus_and_the_rest_scrolls(open_chapter, base_url, page_name):
    """With Python (the stand-in), since a dragged score is recomputed there."""
    page = open_chapter(base_url + page_name, routes=live_routes(), has_touch=True, is_mobile=True,
                        viewport={"width": PHONE_WIDTH, "height": 700}).page
    tested = []
    for figure in page.locator("[data-figure]").all():
        name = figure.get_attribute("data-figure")
        if not may_hold_touches(name):
            continue  # the page's other figures need not be drawn
        figure.scroll_into_view_if_needed()
        expect(figure).to_have_attribute("data-state", re.compile("prerendered|live"))  # drawn (or redrawn by Python)
        assert figure.locator("[data-handle]").count(), f"{name}: its view calls drag() or draws score bars, but no handle"
        tested.append((figure, name))
        _holds_the_finger(page, figure, name)
    assert tested
    _keep_focus_across_a_resize(page, tested)
