"""quadratic-cost in the browser: the slider (keyboard), a drag (mouse) and a tap (touch) on the chart
step through the model's lengths; the key numbers, readout and grid label are the model's text."""
from __future__ import annotations

from ..conftest import expect
from .helpers import PhoneVisit, mouse_drag

PAGE = "11-the-price-of-looking-everywhere.html"


def test_keyboard_mouse_and_touch_change_the_length(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, "quadratic-cost")
    data, figure, page = visit.data, visit.figure, visit.page
    rows, start = data["rows"], data["start"]
    visit.opens_at(start)

    slider = figure.locator('input[type="range"]')
    visit.keys(slider, "ArrowRight", start + 1)
    expect(slider).to_have_value(str(start + 1))
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
    page.touchscreen.tap(box["x"] + 1, y)  # the shortest length sits at the chart's left edge
    expect(slider).to_have_value("0")
    visit.shows(0)
    mouse_drag(page, (box["x"] + 1, y), (box["x"] + box["width"] - 1, y))
    expect(slider).to_have_value(str(len(rows) - 1))
    visit.shows(len(rows) - 1)
    visit.fits()
