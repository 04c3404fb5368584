"""access-chart in the browser: the toggle and the slider show the engine's masks and counts."""
from __future__ import annotations

from engine.figures import compute, parse

from ..conftest import expect
from .helpers import centre, expect_same_node_focused, mark_element, text_lines

PAGE = "06-no-peeking-ahead.html"


def test_toggle_by_keyboard_slider_by_touch(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE, has_touch=True, viewport={"width": 375, "height": 800})
    chapter.wait_prerendered()
    data = compute(parse("access-chart"))
    n = len(data["words"])
    figure = chapter.figure("access-chart")
    assert chapter.numbers("access-chart") == data["text"]["numbers"] == text_lines(data, n - 1)
    expect(figure.locator(".grid-cell.readable")).to_have_count(data["counts"]["causal"][n - 1])

    both = figure.locator('button[data-mode="bidirectional"]')
    assert both.get_attribute("data-key-control") == "Enter"
    mark_element(both)
    both.focus()
    both.press("Enter")
    expect(both).to_have_attribute("aria-pressed", "true")
    expect_same_node_focused(chapter.page)
    assert chapter.numbers("access-chart") == text_lines(data, 2 * n - 1)
    expect(figure.locator(".grid-cell.readable")).to_have_count(n * n)

    causal = figure.locator('button[data-mode="causal"]')
    causal.scroll_into_view_if_needed()
    chapter.page.touchscreen.tap(*centre(causal))
    expect(causal).to_have_attribute("aria-pressed", "true")
    slider = figure.locator('input[type="range"]')
    slider.focus()
    for _ in range(n - 4):
        slider.press("ArrowLeft")
    expect(slider).to_have_value("4")
    assert chapter.numbers("access-chart") == text_lines(data, 3)
    expect(figure.locator(".grid-cell.readable")).to_have_count(data["counts"]["causal"][3])
    expect(figure.locator("svg[role=img]")).to_have_attribute("aria-label", data["text"]["states"][3]["label"])
    assert chapter.page.evaluate("document.documentElement.scrollWidth") <= 375
    assert chapter.page_errors == []
