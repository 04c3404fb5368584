"""exp-log in the browser: the right answer's bar steps through precomputed stops by keyboard and by a
tap at 375 px, the labels and numbers are the model's, and another word's bar is recomputed in the
worker and drawn live."""
from __future__ import annotations

from engine.figures import compute, parse
from engine.figures.fmt import fill

from ..conftest import expect
from .helpers import text_lines

NAME = "exp-log"


def _expect_state(chapter, data: dict, i: int) -> None:
    figure = chapter.figure(NAME)
    parts, k = data["text"]["parts"], data["answer"]
    scores = [data["stops"][i] if j == k else v for j, v in enumerate(data["scores"])]
    labels = ([fill(parts["score"], {"v": v}) for v in scores] + [fill(parts["exp"], {"v": v}) for v in data["exps"][i]]
              + [fill(parts["share"], {"v": v}) for v in data["shares"][i]])
    expect(figure.locator("svg text.value")).to_have_text(labels)  # score bars, then exponentials, then shares
    expect(figure.locator(".el-lines span")).to_have_text(text_lines(data, i)[-2:])
    assert chapter.numbers(NAME) == text_lines(data, i)


def test_the_right_answers_bar_by_keyboard_and_by_a_tap_at_375_px(open_chapter, url):
    chapter = open_chapter(url, has_touch=True, viewport={"width": 375, "height": 900})
    chapter.wait_prerendered()
    data = compute(parse(NAME))
    assert chapter.data(NAME)["text"] == data["text"]
    start = data["start"]
    _expect_state(chapter, data, start)
    figure = chapter.figure(NAME)
    bar = figure.locator("[data-key-control]")
    assert bar.get_attribute("aria-label").startswith("score of cat")
    bar.focus()
    bar.press(bar.get_attribute("data-key-control"))
    expect(bar).to_be_focused()
    _expect_state(chapter, data, start + 1)
    bar.press("ArrowDown")
    bar.press("ArrowDown")
    _expect_state(chapter, data, start - 1)

    box = bar.locator("rect.hit").bounding_box()
    chapter.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] - 1)  # the bar's foot: lowest
    _expect_state(chapter, data, 0)
    assert data["loss"][0] == max(data["loss"])
    assert chapter.scroll_width() <= 375


def test_another_words_score_is_computed_live(open_live_chapter, url):
    chapter = open_live_chapter(url)
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    bar = figure.locator("g.score-bar").nth(2)  # mat: not the right answer, so the worker answers
    bar.focus()
    bar.press("ArrowUp")
    expect(figure).to_have_attribute("data-state", "live")
    scores = list(data["scores"])
    scores[2] += data["schema"]["scores"]["step"]
    want = compute(parse(NAME, {**data["params"], "scores": scores}))
    expect(figure.locator(".el-lines")).not_to_have_class("el-lines stale")
    _expect_state(chapter, want, want["start"])
