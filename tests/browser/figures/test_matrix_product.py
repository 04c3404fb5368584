"""matrix-product in the browser: the slider steps by keyboard and by touch, the numbers and bar labels are
the model's, and it fits a 375 px screen."""
from __future__ import annotations

from engine.figures import compute, parse

from ..conftest import expect
from .helpers import text_lines

NAME = "matrix-product"
PAGE = f"# A page\n\n/// figure | {NAME}\n\nA caption.\n///\n"


def test_slider_by_keyboard_and_touch_at_375_px(open_chapter, scratch_page):
    chapter = open_chapter(scratch_page(PAGE), has_touch=True, viewport={"width": 375, "height": 800})
    chapter.wait_prerendered()
    data = compute(parse(NAME))
    figure = chapter.figure(NAME)
    start = data["start"]
    assert chapter.numbers(NAME) == text_lines(data, start)

    slider = figure.locator("[data-key-control]")
    slider.focus()
    slider.press(slider.get_attribute("data-key-control"))
    expect(slider).to_have_value(str(start + 1))
    assert chapter.numbers(NAME) == text_lines(data, start + 1)
    expect(figure.locator("text.value").first).to_have_text(f"{data['weights'][start + 1][0]:.2f}")

    box = slider.bounding_box()
    chapter.page.touchscreen.tap(box["x"] + 2, box["y"] + box["height"] / 2)  # the slider's left end
    expect(slider).to_have_value("0")
    assert chapter.numbers(NAME) == text_lines(data, 0)
    assert chapter.page.evaluate("document.documentElement.scrollWidth") <= 375
    assert chapter.page_errors == []
