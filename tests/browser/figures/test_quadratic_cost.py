"""quadratic-cost in the browser: the slider (keyboard), a drag (mouse) and a tap (touch) on the chart
step through the model's lengths; the key numbers, readout and grid label are the model's text."""
from __future__ import annotations

from engine.figures import compute, parse

from ..conftest import expect
from .helpers import expect_same_node_focused, mark_element, mouse_drag, text_lines

PAGE = "11-the-price-of-looking-everywhere.html"


def test_keyboard_mouse_and_touch_change_the_length(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE, has_touch=True, viewport={"width": 375, "height": 800})
    chapter.wait_prerendered()
    data = compute(parse("quadratic-cost"))
    rows, start = data["rows"], data["start"]
    figure = chapter.figure("quadratic-cost")
    assert chapter.numbers("quadratic-cost") == data["text"]["numbers"] == text_lines(data, start)

    slider = figure.locator('input[type="range"]')
    assert slider.get_attribute("data-key-control") == "ArrowRight"
    mark_element(slider)
    slider.focus()
    slider.press("ArrowRight")
    expect(slider).to_have_value(str(start + 1))
    expect_same_node_focused(chapter.page)
    assert chapter.numbers("quadratic-cost") == text_lines(data, start + 1)
    expect(figure.locator("output")).to_have_text(rows[start + 1]["n_label"])
    expect(slider).to_have_attribute("aria-valuetext", rows[start + 1]["n_label"])
    expect(figure.locator("svg[role=img]")).to_have_attribute("aria-label", data["text"]["states"][start + 1]["label"])
    steps = rows[start + 1]["steps"]
    points = figure.locator(".qc-causal").get_attribute("points").split()
    assert len(points) == 2 * steps + 2  # one stair per token, up to the model's limit

    hit = figure.locator(".hit")
    hit.scroll_into_view_if_needed()
    box = hit.bounding_box()
    y = box["y"] + box["height"] / 2
    chapter.page.touchscreen.tap(box["x"] + 1, y)  # the shortest length sits at the chart's left edge
    expect(slider).to_have_value("0")
    assert chapter.numbers("quadratic-cost") == text_lines(data, 0)
    mouse_drag(chapter.page, (box["x"] + 1, y), (box["x"] + box["width"] - 1, y))
    expect(slider).to_have_value(str(len(rows) - 1))
    assert chapter.numbers("quadratic-cost") == text_lines(data, len(rows) - 1)
    assert chapter.page.evaluate("document.documentElement.scrollWidth") <= 375
    assert chapter.page_errors == []
