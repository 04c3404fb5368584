"""softmax-temperature in chapter 4: the slider's readout and valuetext, the score and weight labels and
the key numbers are the model's (its text.parts filled with the state's numbers), at the opening
temperature, after a slider step and after the reader changes a score."""
from __future__ import annotations

from engine.figures import compute, parse
from engine.figures.fmt import fill

from ..conftest import expect
from .helpers import expect_same_node_focused, press_in_place, text_lines

PAGE = "04-scores-to-weights.html"
NAME = "softmax-temperature"


def _expect_state(chapter, data: dict, index: int) -> None:
    """The figure shows state `index` of data: readout, valuetext, bar labels and key numbers."""
    figure = chapter.figure(NAME)
    parts = data["text"]["parts"]
    t = data["temperatures"][index]
    slider = figure.locator("input[type=range]")
    expect(slider).to_have_attribute("aria-valuetext", fill(parts["temperature"], {"v": t}))
    expect(figure.locator("output")).to_have_text(fill(parts["readout"], {"v": t}))
    scores = [fill(parts["score"], {"v": s}) for s in data["scores"]]
    weights = [fill(parts["weight"], {"v": w}) for w in data["weights"][index]]
    expect(figure.locator("svg text.value")).to_have_text(scores + weights)  # score bars first, then weights
    bars = figure.locator("g.score-bar")
    for i, s in enumerate(scores):
        expect(bars.nth(i)).to_have_attribute("aria-valuetext", s)
    assert chapter.numbers(NAME) == text_lines(data, index)


def test_a_slider_step_shows_the_models_numbers(open_chapter, base_url):
    """By keyboard, from the embedded states alone: no Python is needed, and focus stays on the slider."""
    chapter = open_chapter(base_url + PAGE)
    chapter.wait_prerendered()
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    assert data["text"] == compute(parse(NAME, data["params"]))["text"]
    start = data["start"]
    assert start + 1 < len(data["temperatures"]), "the temperature starts at the end of its range: ArrowRight cannot move it"
    _expect_state(chapter, data, start)
    slider = figure.locator("input[type=range]")
    slider.focus()
    slider.press("ArrowRight")
    _expect_state(chapter, data, start + 1)
    assert slider.input_value() == str(start + 1)
    expect(slider).to_be_focused()
    assert figure.get_attribute("data-state") == "prerendered"  # the states are embedded: no Python needed
    slider.press("Home")
    _expect_state(chapter, data, 0)
    expect(slider).to_have_attribute("aria-valuetext", "temperature " + f"{data['temperatures'][0]:.2f}")


def test_a_changed_score_shows_the_recomputed_numbers(open_live_chapter, base_url):
    """A score nudged by keyboard is computed by the worker (here the engine on CPython stands in for
    Pyodide) and drawn in place: the bar keeps focus, and no note is shown."""
    chapter = open_live_chapter(base_url + PAGE)
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    bar = figure.locator("g.score-bar").nth(3)  # "the", the lowest score
    press_in_place(bar, "ArrowUp")
    expect(figure).to_have_attribute("data-state", "live")
    scores = list(data["scores"])
    scores[3] += data["schema"]["scores"]["step"]
    want = compute(parse(NAME, {**data["params"], "scores": scores}))
    expect(figure.locator("output")).not_to_contain_text("recomputing")
    _expect_state(chapter, want, want["start"])
    expect(figure.locator(".figure-note")).to_be_hidden()
    expect(bar).to_be_focused()
    expect_same_node_focused(chapter.page)
