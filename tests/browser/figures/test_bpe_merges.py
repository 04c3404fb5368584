"""bpe-merges in the browser: the slider steps through the merge counts by keyboard (the token boxes,
the latest merges and the numbers follow), a finger on the curve picks a stop at 375 px, and without
JavaScript the drawing and the numbers are on the page."""
from __future__ import annotations

from ..conftest import expect, serious_violations
from .helpers import PhoneVisit, expect_same_node_focused, opened, press_in_place, text_lines, without_javascript

NAME = "bpe-merges"
# The chapter's prose is all the series' text this one-page site has, so the merges are learned on it.
SCRATCH = f"""# A page

Keys and values belong to the same word but do different jobs. The query of a word is compared
with the keys of the other words, and the weights that come out mix their values. The model reads
the text one token at a time, and the tokens are the characters and the pieces merged from them.

/// figure | {NAME}
    merges: 150
    start: 150

The sentence cut into tokens as merges are added.
///
"""


def _boxes(figure) -> list[str]:
    return figure.locator(".bpe-token").all_text_contents()


def test_the_slider_steps_back_through_the_merges_by_keyboard(open_chapter, url):
    chapter, data, figure = opened(open_chapter, url, NAME)
    last = len(data["stops"]) - 1
    assert data["start"] == last and data["stops"][-1] == len(data["merges"]) <= 150
    assert _boxes(figure) == data["tokens"][last]
    expect(figure.locator(".bpe-merged")).to_have_count(sum(len(t) > 1 for t in data["tokens"][last]))
    slider = figure.get_by_role("slider", name="Merges")
    assert slider.get_attribute("data-key-control") == "ArrowLeft"
    press_in_place(slider, "ArrowLeft")
    expect_same_node_focused(chapter.page)
    assert chapter.numbers(NAME) == text_lines(data, last - 1)
    assert _boxes(figure) == data["tokens"][last - 1]
    expect(figure.locator(".bpe-readout")).to_have_text(data["text"]["states"][last - 1]["label"])
    expect(figure.locator(".bpe-latest li").first).to_have_text(data["merges"][data["stops"][last - 1] - 1])
    slider.press("Home")
    expect(slider).to_have_value("0")
    assert chapter.numbers(NAME) == text_lines(data, 0)
    assert _boxes(figure) == list(data["sentence"].replace(" ", data["text"]["space"]["mark"]))
    expect(figure.locator(".bpe-latest li")).to_have_text([data["text"]["parts"]["none"]])
    expect(figure.locator("output")).to_have_text("0")
    assert serious_violations(chapter.page) == []


def test_a_finger_on_the_curve_picks_a_stop_on_a_phone(open_chapter, url):
    visit = PhoneVisit(open_chapter, url, NAME)
    data, figure = visit.data, visit.figure
    last = len(data["stops"]) - 1
    visit.opens_at(last)
    hit = figure.locator(".bpe-plot .hit")
    hit.scroll_into_view_if_needed()
    box = hit.bounding_box()
    slider = figure.get_by_role("slider", name="Merges")
    visit.page.touchscreen.tap(box["x"] + 1, box["y"] + box["height"] / 2)  # at the left end: the first few merges
    expect(slider).not_to_have_value(str(last))
    first = int(slider.input_value())
    assert data["stops"][first] < data["stops"][-1] / 20
    visit.shows(first)
    visit.taps(hit, None)  # the middle of the curve: a stop between the ends
    middle = int(slider.input_value())
    assert 0 < middle < last and data["stops"][middle] > data["stops"][-1] / 4
    visit.shows(middle)
    visit.fits()


def test_without_javascript_the_drawing_and_numbers_are_there(open_chapter, url):
    _, data, _ = without_javascript(open_chapter, url, NAME)
    assert " | ".join(data["tokens"][data["start"]]) in data["text"]["numbers"][0]
