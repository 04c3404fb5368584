"""your-sequence in the browser: the embedded sequence draws at once, the slider and a tap pick the
letter that looks (keys and numbers follow), Read sends the reader's letters to the worker and
draws the answer live, a sequence the model cannot read keeps the figure and the typed text and
says why in one line. (The real worker with real numpy: test_real_python.py.)"""
from __future__ import annotations

import pytest

from engine.figures import compute, parse

from ..conftest import expect, serious_violations
from .helpers import PhoneVisit, first_request_on_intent, text_lines

NAME = "your-sequence"


def _columns(figure, h: int) -> list[float]:
    return figure.locator(".ys-strip").nth(h + 1).locator(".ys-chip").evaluate_all(
        "(chips) => chips.map((c) => Number(c.style.getPropertyValue('--w')))")


@pytest.mark.parametrize("width", [1200, 375])
def test_the_embedded_sequence_the_slider_and_a_tap(open_chapter, url, width):
    visit = PhoneVisit(open_chapter, url, NAME, width)
    chapter, data, figure = visit.chapter, visit.data, visit.figure
    T = len(data["tokens"])
    expect(figure.locator(".ys-strip")).to_have_count(1 + len(data["heads"]))
    expect(figure.locator(".ys-weight")).to_have_count(len(data["heads"]) * T)
    visit.opens_at(data["start"])
    head = data["head"]
    assert _columns(figure, head) == data["heads"][head][data["start"]]
    expect(figure.locator(".ys-copy")).to_have_count(len(data["heads"]) * len(data["copies"][data["start"]]))
    slider = figure.get_by_label("Looking from")
    visit.keys(slider, "ArrowLeft", data["start"] - 1)
    visit.taps(figure.locator(".ys-pick").nth(1), 1)  # the first letter: no earlier copy, nothing outlined
    expect(figure.locator(".ys-copy")).to_have_count(0)
    expect(slider).to_have_value("1")
    assert serious_violations(chapter.page) == []
    visit.fits()


def test_read_computes_the_readers_letters_live(open_live_chapter, url):
    chapter = open_live_chapter(url)
    figure = chapter.figure(NAME)
    box = figure.get_by_label("Your letters")
    box.fill("ab cdab")
    box.press("Enter")
    expect(figure).to_have_attribute("data-state", "live", timeout=120_000)  # the stand-in trains the model first
    want = compute(parse(NAME, {"sequence": "ab cdab"}))
    assert chapter.numbers(NAME) == text_lines(want, want["start"])
    expect(box).to_have_value("ABCDAB")
    expect(box).to_be_focused()  # the keyboard stays where it was
    expect(figure.locator(".ys-pick")).to_have_count(len(want["tokens"]))
    expect(figure.get_by_label("Looking from")).to_have_value(str(want["start"]))
    expect(figure.locator(".figure-note")).to_be_hidden()


def test_focus_in_the_box_starts_the_first_request_and_draws_nothing(open_live_chapter, url):
    box = lambda f: f.get_by_label("Your letters")  # noqa: E731
    first_request_on_intent(open_live_chapter, url, NAME, box, box)  # once only, however often focused


def test_letters_the_model_cannot_read_get_a_reason_and_nothing_is_lost(open_live_chapter, url):
    chapter = open_live_chapter(url)
    figure = chapter.figure(NAME)
    before = chapter.numbers(NAME)
    box = figure.get_by_label("Your letters")
    box.fill("HELLO WORLD")
    figure.get_by_role("button", name="Read").click()
    expect(figure.locator(".figure-note")).to_contain_text("“W” is not one of the model's letters: it knows only A to P.",
                                                           timeout=120_000)
    expect(box).to_have_value("HELLO WORLD")
    assert chapter.numbers(NAME) == before
    assert figure.get_attribute("data-state") == "prerendered"
