"""chain-rule in the browser: the slider steps by keyboard, a tap on the plot moves the point (to the
nearest stop without Python), the numbers are the model's, it fits a 375 px screen, and with the
worker a tap between stops is computed at the exact x and drawn live."""
from __future__ import annotations

from engine.figures import compute, parse
from engine.figures.fmt import fill

from ..conftest import expect
from .helpers import text_lines

NAME = "chain-rule"


def _lines(figure) -> list[str]:
    return figure.locator(".cr-lines span").all_text_contents()


def test_slider_by_keyboard_and_a_tap_at_375_px(open_chapter, url):
    chapter = open_chapter(url, has_touch=True, viewport={"width": 375, "height": 800})
    chapter.wait_prerendered()
    data = compute(parse(NAME))
    assert chapter.data(NAME)["text"] == data["text"]
    figure = chapter.figure(NAME)
    start = data["start"]
    assert chapter.numbers(NAME) == text_lines(data, start)
    assert _lines(figure) == text_lines(data, start)

    slider = figure.locator("[data-key-control]")
    slider.focus()
    slider.press(slider.get_attribute("data-key-control"))
    expect(slider).to_be_focused()
    expect(slider).to_have_value(str(start + 1))
    expect(figure.locator("output")).to_have_text(fill(data["text"]["parts"]["x"], {"v": data["xs"][start + 1]}))
    assert chapter.numbers(NAME) == text_lines(data, start + 1)
    assert _lines(figure) == text_lines(data, start + 1)

    box = figure.locator("rect.hit").bounding_box()
    chapter.page.touchscreen.tap(box["x"] + 1, box["y"] + box["height"] / 2)  # the plot's left end: x near -1.5
    expect(slider).to_have_value("0")  # no Python here: the nearest precomputed stop
    assert chapter.numbers(NAME) == text_lines(data, 0)
    assert chapter.scroll_width() <= 375


def test_a_tap_between_stops_is_computed_live(open_live_chapter, url):
    chapter = open_live_chapter(url, has_touch=True, viewport={"width": 375, "height": 800})
    figure = chapter.figure(NAME)
    box = figure.locator("rect.hit").bounding_box()
    chapter.page.touchscreen.tap(box["x"] + box["width"] * 0.63, box["y"] + box["height"] / 2)
    expect(figure).to_have_attribute("data-state", "live")
    expect(figure.locator("output")).not_to_contain_text("recomputing")
    x = float(figure.locator("output").text_content().removeprefix("x = "))
    want = compute(parse(NAME, {"x": x}))
    assert len(want["xs"]) == len(compute(parse(NAME))["xs"]) + 1  # the tap fell between two stops
    expect(figure.locator("[data-key-control]")).to_have_value(str(want["start"]))
    assert chapter.numbers(NAME) == text_lines(want, want["start"])
    assert _lines(figure) == text_lines(want, want["start"])
