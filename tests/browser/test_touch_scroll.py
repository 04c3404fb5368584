"""On a phone a finger must still scroll the page over a figure: only a touch that starts on a
handle (a tip, the probe, a score bar) drags it instead. Figures that fill a 375 px screen
would otherwise trap the reader."""
from __future__ import annotations

import pytest

from .figures.helpers import touch_drag

# (page, figure, handle, an empty spot of the plot as fractions of its box)
CASES = [
    ("02-words-as-points.html", "dot-product", ".tip.arrow-b", (0.08, 0.92)),
    ("02-words-as-points.html", "word-map", ".probe", (0.92, 0.5)),
    ("03-queries-keys-values.html", "query-drag", ".qd-handle", (0.08, 0.92)),
    ("04-scores-to-weights.html", "softmax-bars", ".score-bar", (0.5, 0.97)),
]


def _top(locator) -> float:
    """Where the figure sits on screen. Not scrollY: when Python starts, the status line at the
    top of the chapter changes height and scroll anchoring moves scrollY to keep the figure put."""
    return locator.evaluate("e => e.getBoundingClientRect().top")


@pytest.mark.parametrize("page_name, name, handle, spot", CASES, ids=[c[1] for c in CASES])
def test_handles_hold_the_finger_and_the_rest_scrolls(open_live_chapter, base_url, page_name, name, handle, spot):
    """With Python (the stand-in), since a dragged score is recomputed there."""
    chapter = open_live_chapter(base_url + page_name, has_touch=True, is_mobile=True,
                                viewport={"width": 375, "height": 700})
    page, figure = chapter.page, chapter.figure(name)
    grip = figure.locator(handle).first
    grip.scroll_into_view_if_needed()
    box = grip.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before, shown = _top(figure), figure.locator(".figure-view").inner_html()
    touch_drag(page, (x, y), (x + 10, y + 60))
    page.wait_for_timeout(200)
    assert abs(_top(figure) - before) < 2, f"{name}: dragging the handle scrolled the page"
    page.wait_for_function("([view, shown]) => view.innerHTML !== shown",  # the handle moved: the view redraws
                           arg=[figure.locator(".figure-view").element_handle(), shown], timeout=10_000)

    plot = figure.locator(".figure-plot").first.bounding_box()
    px, py = plot["x"] + plot["width"] * spot[0], plot["y"] + plot["height"] * spot[1]
    before = _top(figure)
    touch_drag(page, (px, py), (px, py - 150), steps=8)
    page.wait_for_timeout(200)
    assert _top(figure) < before - 50, f"{name}: a finger on the plot away from the handle did not scroll the page"
