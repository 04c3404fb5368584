"""value-sum in the browser: the toggle switches the sentence's ending, the slider adds terms largest
weight first, and every number shown is the model's (its text, or its templates filled from its data)."""
from __future__ import annotations

from engine.figures.fmt import fill

from ..conftest import expect
from .helpers import PhoneVisit, expect_same_node_focused, opened, press_in_place, text_lines

PAGE = "05-what-gets-passed-along.html"


def _pair(data, p):
    cell = data["text"]["parts"]["number"]
    return f"({fill(cell, {'v': p[0]})}, {fill(cell, {'v': p[1]})})"


def test_toggle_and_slider_by_keyboard(open_chapter, base_url):
    chapter, data, figure = opened(open_chapter, base_url + PAGE, "value-sum", viewport={"width": 1200, "height": 900})
    assert chapter.numbers("value-sum") == data["text"]["numbers"] == text_lines(data, 0)
    tired = data["modes"]["tired"]
    n = len(tired["words"])
    slider = figure.locator("input[type=range]")
    output = figure.locator("output")
    expect(output).to_have_text(f"{n} of {n}: {_pair(data, tired['output'])}")

    slider.focus()
    slider.press("Home")
    slider.press("ArrowRight")  # one term: the largest weight alone
    expect(output).to_have_text(f"1 of {n}: {_pair(data, tired['running'][1])}")
    rows = figure.locator("tbody tr")
    expect(rows.nth(0)).not_to_have_class("vs-pending")
    expect(rows.nth(1)).to_have_class("vs-pending")
    assert rows.nth(0).locator("th").text_content() == tired["words"][tired["order"][0]] == "animal"

    wide = figure.locator('button[data-word="wide"]')
    assert wide.get_attribute("data-key-control") == "Enter"
    press_in_place(wide, "Enter")
    expect(wide).to_have_attribute("aria-pressed", "true")
    expect_same_node_focused(chapter.page)
    assert chapter.numbers("value-sum") == text_lines(data, 1)
    expect(output).to_have_text(f"1 of {n}: {_pair(data, data['modes']['wide']['running'][1])}")
    assert rows.nth(0).locator("th").text_content() == "street"
    expect(figure.locator("svg[role=img]")).to_have_attribute("aria-label", data["text"]["states"][1]["label"])


def test_touch_and_mouse_at_375_without_overflow(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, "value-sum")
    data, figure = visit.data, visit.figure
    visit.opens_at(0)
    wide = figure.locator('button[data-word="wide"]')
    visit.taps(wide, 1)
    expect(wide).to_have_attribute("aria-pressed", "true")
    slider = figure.locator("input[type=range]")
    box = slider.bounding_box()
    visit.page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)  # the left end: no terms yet
    n = len(data["modes"]["wide"]["words"])
    expect(figure.locator("output")).to_have_text(f"0 of {n}: {_pair(data, [0, 0])}")
    expect(figure.locator("tbody tr.vs-pending")).to_have_count(n)
    plot = figure.locator(".vs-plot svg").bounding_box()
    table = figure.locator(".vs-table").bounding_box()
    assert table["y"] >= plot["y"] + plot["height"] - 1  # stacked, not squeezed side by side
    visit.fits()
