"""sinusoids in the browser: the slider (keyboard), a click and a tap on a row pick a position; the
bars' labels and the key numbers are the model's text for that position; it fits 375 px."""
from __future__ import annotations

from engine.figures import compute, parse

from ..conftest import expect
from .helpers import centre, expect_same_node_focused, mark_element, text_lines

PAGE = "08-where-words-are.html"


def _check(chapter, figure, data, pos):
    assert chapter.numbers("sinusoids") == text_lines(data, pos)
    state = data["text"]["states"][pos]
    assert figure.locator("svg text.sin-value").all_text_contents() == state["bars"]
    expect(figure.locator("svg[role=img]")).to_have_attribute("aria-label", state["label"])
    expect(figure.locator(".sin-bar.picked")).to_have_count(1)


def test_pick_a_position_by_keys_click_and_tap(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE, has_touch=True, viewport={"width": 375, "height": 800})
    chapter.wait_prerendered()
    data = compute(parse("sinusoids"))
    figure = chapter.figure("sinusoids")
    start = data["position"]
    assert chapter.numbers("sinusoids") == data["text"]["numbers"] == text_lines(data, start)
    _check(chapter, figure, data, start)
    assert "8.00 with itself" in data["text"]["states"][start]["label"]

    slider = figure.locator('input[type="range"]')
    assert slider.get_attribute("data-key-control") == "ArrowRight"
    mark_element(slider)
    slider.focus()
    slider.press("ArrowRight")
    expect_same_node_focused(chapter.page)
    expect(slider).to_have_value(str(start + 1))
    _check(chapter, figure, data, start + 1)

    rows = figure.locator("svg g.sin-row")
    rows.nth(2).locator("rect.sin-bar").click()
    expect(slider).to_have_value("2")
    _check(chapter, figure, data, 2)

    last = len(data["codes"]) - 1
    target = rows.nth(last).locator("rect.sin-bar")
    target.scroll_into_view_if_needed()
    chapter.page.touchscreen.tap(*centre(target))
    expect(slider).to_have_value(str(last))
    _check(chapter, figure, data, last)
    assert figure.evaluate("f => f.scrollWidth <= f.clientWidth + 1")
    assert chapter.page.evaluate("document.documentElement.scrollWidth") <= 375
    assert chapter.page_errors == []
