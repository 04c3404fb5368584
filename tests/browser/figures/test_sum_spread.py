"""sum-spread in the browser: the slider steps n by keyboard and by touch at 375 px with the model's
numbers and one bar per counted range; another kind of term is recomputed by the worker."""
from __future__ import annotations

from engine.figures import compute, parse

from ..conftest import PHONE, expect
from .helpers import text_lines

NAME = "sum-spread"


def test_slider_by_keyboard_and_touch_at_375_px(open_chapter, url):
    chapter = open_chapter(url, **PHONE)
    chapter.wait_prerendered()
    data = compute(parse(NAME))
    figure = chapter.figure(NAME)
    start = data["start"]
    assert chapter.numbers(NAME) == text_lines(data, start)
    bars = figure.locator(".ss-bars rect")
    expect(bars).to_have_count(len(data["counts"][start]))

    slider = figure.locator("[data-key-control]")
    slider.focus()
    slider.press(slider.get_attribute("data-key-control"))
    expect(slider).to_have_value(str(start + 1))
    assert chapter.numbers(NAME) == text_lines(data, start + 1)
    expect(figure.locator(".ss-label")).to_have_text(data["text"]["states"][start + 1]["label"])
    expect(bars).to_have_count(len(data["counts"][start + 1]))

    box = slider.bounding_box()
    chapter.page.touchscreen.tap(box["x"] + 2, box["y"] + box["height"] / 2)  # the slider's left end: one term
    expect(slider).to_have_value("0")
    assert chapter.numbers(NAME) == text_lines(data, 0)
    expect(bars).to_have_count(len(data["counts"][0]))
    assert chapter.scroll_width() <= 375


def test_another_kind_of_term_is_the_engines(open_live_chapter, url):
    chapter = open_live_chapter(url)
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    slider = figure.locator("[data-key-control]")
    slider.focus()
    slider.press("End")  # n = 64
    figure.get_by_label("One term:").select_option("uniform")
    expect(figure).to_have_attribute("data-state", "live")
    want = compute(parse(NAME, {**data["params"], "term": "uniform", "n": data["ns"][-1]}))
    last = len(want["ns"]) - 1
    expect(figure.locator(".ss-label")).to_have_text(want["text"]["states"][last]["label"])
    assert chapter.numbers(NAME) == text_lines(want, last)
    expect(slider).to_have_value(str(last))
    figure.get_by_role("button", name="Draw again").click()
    again = compute(parse(NAME, {**want["params"], "seed": want["params"]["seed"] + 1}))
    expect(figure.locator(".ss-label")).to_have_text(again["text"]["states"][last]["label"])
