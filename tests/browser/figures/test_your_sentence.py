"""your-sentence in the browser: the embedded sentence draws at once, the slider and a tap pick the
word looking (keys and numbers follow), a menu or the text box sends the reader's sentence to the
worker and the answer is drawn live with the focus where it was, a sentence the grammar refuses keeps
the figure and the typed text and says why in one line (markup shown as text). (The real worker
with real numpy: test_real_python.py.)"""
from __future__ import annotations

import pytest

from engine.figures import compute, parse

from ..conftest import expect, serious_violations
from .helpers import PhoneVisit, first_request_on_intent, text_lines, without_python

NAME = "your-sentence"


def _weights(figure, h: int) -> list[list[float]]:
    return figure.locator(".th-grid").nth(h).locator("tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => Number(c.style.getPropertyValue('--w'))))")


def _read(figure, typed: str, timeout: float = 120_000):
    """Type a sentence in the box and press Enter; wait for the figure to draw the worker's answer."""
    box = figure.get_by_label("Or type one")
    box.fill(typed)
    box.press("Enter")
    expect(figure).to_have_attribute("data-state", "live", timeout=timeout)  # the first request trains the model
    return box


def _drawn(chapter, figure, want: dict, k: int) -> None:
    """The figure shows `want` looking from word k: menus, grids, readouts' table and key numbers."""
    assert chapter.numbers(NAME) == text_lines(want, k)
    for h in range(len(want["heads"])):
        assert _weights(figure, h) == want["heads"][h]
    cells = figure.locator(".ysn-readouts tbody td").all_text_contents()
    assert cells == [c for i in range(len(want["words"])) for c in (want["text"]["cells"]["attached"][i],
                                                                    want["text"]["cells"]["previous"][i])]
    menus = figure.locator(".ysn-menu select").evaluate_all("(s) => s.map((x) => Number(x.value))")
    assert menus == want["chosen"]
    expect(figure.get_by_label("Word looking")).to_have_value(str(k))


@pytest.mark.parametrize("width", [1200, 375])
def test_the_embedded_sentence_the_slider_and_a_tap(open_chapter, url, width):
    visit = PhoneVisit(open_chapter, url, NAME, width)
    chapter, data, figure = visit.chapter, visit.data, visit.figure
    k = data["start"]
    visit.opens_at(k)
    expect(figure.locator(".th-grid")).to_have_count(len(data["heads"]))
    expect(figure.locator(".ysn-menu select")).to_have_count(len(data["menus"]))
    _drawn(chapter, figure, data, k)
    slider = figure.get_by_label("Word looking")
    visit.keys(slider, "ArrowLeft", k - 1)
    expect(figure.locator(".ysn-readouts tr.ysn-current th")).to_have_text(data["words"][k - 1])
    visit.taps(figure.locator(".ysn-readouts tbody tr").nth(0), 0)  # a row of the readouts' table
    expect(slider).to_have_value("0")
    visit.taps(figure.locator(".th-grid").nth(1).locator("tbody th").nth(len(data["words"]) - 1),
               len(data["words"]) - 1)  # a word of a grid
    assert serious_violations(chapter.page) == []
    visit.fits()


def test_a_menu_reads_the_new_sentence_live_and_keeps_the_focus(open_live_chapter, url):
    chapter = open_live_chapter(url, viewport={"width": 375, "height": 800})
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    noun = figure.locator(".ysn-menu select").nth(2)
    noun.focus()
    noun.select_option("dog")  # the keyboard's way: a change event on the focused menu
    expect(figure).to_have_attribute("data-state", "live", timeout=120_000)  # the stand-in trains the model first
    want = compute(parse(NAME, {"sentence": data["sentence"].replace("fox", "dog")}))
    _drawn(chapter, figure, want, want["start"])
    expect(noun).to_be_focused()
    expect(figure.get_by_label("Or type one")).to_have_value(want["sentence"])
    adjective = figure.locator(".ysn-menu select").nth(1)
    adjective.select_option("-1")  # an optional place left empty: one word fewer, still looking from the verb
    want = compute(parse(NAME, {"sentence": want["sentence"].replace(" big", "")}))
    expect(figure.locator(".th-grid").first.locator("tbody tr")).to_have_count(len(want["words"]))
    _drawn(chapter, figure, want, want["start"])
    expect(figure.locator(".figure-note")).to_be_hidden()
    assert chapter.page.evaluate("document.documentElement.scrollWidth") <= 375


def test_read_computes_a_typed_sentence_live(open_live_chapter, url):
    chapter = open_live_chapter(url)
    figure = chapter.figure(NAME)
    box = _read(figure, "  The Lazy Cat SLEPT on a mat. ")
    want = compute(parse(NAME, {"sentence": "the lazy cat slept on a mat"}))
    _drawn(chapter, figure, want, want["start"])
    expect(box).to_have_value("the lazy cat slept on a mat")
    expect(box).to_be_focused()  # the keyboard stays where it was


def test_focus_on_a_menu_starts_the_first_request_and_draws_nothing(open_live_chapter, url):
    first_request_on_intent(open_live_chapter, url, NAME, lambda f: f.locator(".ysn-menu select").first,
                            lambda f: f.get_by_label("Or type one"))


def test_without_python_a_menu_says_so_and_shows_the_sentence_drawn(open_chapter, url):
    chapter = without_python(open_chapter, url)
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    verb = figure.locator(".ysn-menu select").nth(3)
    verb.focus()
    verb.select_option("sat")
    expect(figure.locator(".figure-note")).to_contain_text("Needs Python")
    expect(verb).to_have_value(str(data["chosen"][3]))  # back to the word the grids show
    expect(verb).to_be_focused()
    _drawn(chapter, figure, data, data["start"])


@pytest.mark.parametrize("typed, reason", [
    ("the zebra sat", "“zebra” is not one of the model's 26 words: here it needs an adjective"),
    ("cat sat on the mat", "“cat” is a noun, but a sentence starts with a determiner (the, a)."),
    ("the cat sat", "The sentence stops too soon: after “sat” comes a preposition"),
    ("<img src=x onerror=alert(1)> cat", "“<img” is not one of the model's 26 words"),
    ("the cat " + "sat " * 200, "The model reads one sentence of at most 8 words."),
])
def test_a_sentence_the_grammar_refuses_gets_a_reason_and_nothing_is_lost(open_live_chapter, url, typed, reason):
    chapter = open_live_chapter(url)
    figure = chapter.figure(NAME)
    before = chapter.numbers(NAME)
    box = figure.get_by_label("Or type one")
    box.fill(typed)
    figure.get_by_role("button", name="Read").click()
    expect(figure.locator(".figure-note")).to_contain_text(reason, timeout=120_000)
    expect(box).to_have_value(typed)
    assert chapter.numbers(NAME) == before
    assert figure.get_attribute("data-state") == "prerendered"
    assert figure.locator(".figure-view img, .figure-note img").count() == 0  # typed markup stays text
