"""softmax-bars in chapter 4: the numbers shown are the engine's, before and after the reader
changes a score with the keyboard or by dragging with a finger: the key numbers, the labels of the
exponentials and the sentence under the plot are the model's text for the scores it computed."""
from __future__ import annotations

from engine.figures import compute, parse
from engine.figures.fmt import fill

from ..conftest import PHONE, expect
from .helpers import expect_same_node_focused, mark_element, opened, touch_drag

PAGE = "04-scores-to-weights.html"


def _bars(figure):
    return figure.locator("g.score-bar")


def _shown_scores(figure) -> list[float]:
    return [float(v) for v in _bars(figure).evaluate_all("bs => bs.map(b => b.getAttribute('aria-valuenow'))")]


def _expect_engine_numbers(figure, params: dict) -> dict:
    want = compute(parse("softmax-bars", params))
    items = figure.locator("ul.figure-numbers li")
    for i, line in enumerate(want["text"]["numbers"]):
        expect(items.nth(i)).to_have_text(line)
    expect(items).to_have_count(len(want["text"]["numbers"]))
    # The bars' labels: scores and weights by the model's parts, exponentials from its text.
    parts = want["text"]["parts"]
    scores = [fill(parts["score"], {"v": s}) for s in want["scores"]]
    weights = [fill(parts["weight"], {"v": w}) for w in want["weights"]]
    expect(figure.locator("svg text.value")).to_have_text(scores + want["text"]["exps"] + weights)
    expect(_bars(figure).first).to_have_attribute("aria-valuetext", scores[0])
    total = figure.locator(".softmax-bars-total")
    expect(total).to_have_text(want["text"]["total"])
    expect(total).to_contain_text(" + ".join(f"{e:.2f}" for e in want["exps"]) + f" = {want['exp_sum']:.2f}")
    return want


def test_prerendered_numbers_are_the_fallbacks(open_chapter, base_url):
    chapter, data, figure = opened(open_chapter, base_url + PAGE, "softmax-bars")
    assert chapter.numbers("softmax-bars") == data["text"]["numbers"]
    _expect_engine_numbers(figure, data["params"])
    assert _shown_scores(figure) == data["scores"]
    # Every bar's value label is drawn from the data: scores, exponentials, weights.
    texts = figure.locator("svg text.value").all_text_contents()
    for s, e, w in zip(data["scores"], data["exps"], data["weights"]):
        assert f"{s:.1f}" in texts and f"{e:.2f}" in texts and f"{w:.2f}" in texts, texts


def test_arrow_keys_change_a_score_and_the_engine_recomputes(open_live_chapter, base_url):
    chapter = open_live_chapter(base_url + PAGE)
    figure = chapter.figure("softmax-bars")
    data = chapter.data("softmax-bars")
    bar = _bars(figure).nth(2)  # street
    mark_element(bar)
    bar.focus()
    for key in ("ArrowUp", "ArrowUp", "ArrowRight", "ArrowDown"):
        bar.press(key)
    scores = list(data["scores"])
    scores[2] += 2 * data["schema"]["scores"]["step"]  # three steps up, one down
    expect(figure).to_have_attribute("data-state", "live")
    want = _expect_engine_numbers(figure, {**data["params"], "scores": scores})
    assert want["weights"][2] > data["weights"][2]
    expect(bar).to_be_focused()  # focus survives every update
    expect_same_node_focused(chapter.page)  # on the bar itself: it was updated in place, never replaced
    expect(bar).to_have_attribute("aria-valuenow", str(scores[2]).rstrip("0").rstrip("."))
    expect(figure.locator(".figure-note")).to_be_hidden()


def test_a_touch_drag_sets_a_score_and_the_engine_recomputes(open_live_chapter, base_url):
    chapter = open_live_chapter(base_url + PAGE, **PHONE)
    figure = chapter.figure("softmax-bars")
    data = chapter.data("softmax-bars")
    bar = _bars(figure).first  # animal, 3.0: drag it down to the others' level and below
    bar.scroll_into_view_if_needed()
    box = bar.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touch_drag(chapter.page, (x, y), (x, y + 30), steps=3)
    expect(figure).to_have_attribute("data-state", "live")
    scores = _shown_scores(figure)
    assert scores[0] < 0 and scores[1:] == data["scores"][1:], scores
    want = _expect_engine_numbers(figure, {**data["params"], "scores": scores})
    assert want["weights"][0] < want["weights"][2]  # street now outweighs animal
    assert chapter.scroll_width() <= 375


def test_a_mouse_drag_keeps_going_across_redraws(open_live_chapter, base_url):
    """Each step of a drag redraws the plot; the drag must survive that, in both score figures."""
    chapter = open_live_chapter(base_url + PAGE)
    mouse = chapter.page.mouse
    for name in ("softmax-bars", "softmax-temperature"):
        figure = chapter.figure(name)
        bar = _bars(figure).last
        bar.scroll_into_view_if_needed()
        start = float(bar.get_attribute("aria-valuenow"))
        box = bar.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        mouse.move(x, y)
        mouse.down()
        for dy in range(5, 45, 5):
            mouse.move(x, y - dy)
        mouse.up()
        bar = _bars(figure).last
        end = float(bar.get_attribute("aria-valuenow"))
        assert end >= start + 3, f"{name}: a 40 px drag moved the score from {start} to {end} only"
        expect(figure).to_have_attribute("data-state", "live")
        scores = _shown_scores(figure)
        assert scores[-1] == end


def test_a_focused_score_bar_keeps_focus_across_a_resize(open_chapter, base_url):
    """The score rows are built once: a new width moves the bars but never replaces them."""
    chapter = open_chapter(base_url + PAGE, viewport={"width": 1200, "height": 900})
    chapter.wait_prerendered()
    for name in ("softmax-bars", "softmax-temperature"):
        bar = _bars(chapter.figure(name)).nth(1)
        mark_element(bar)
        bar.focus()
        before = bar.bounding_box()["x"]
        chapter.page.set_viewport_size({"width": 375, "height": 900})
        chapter.page.wait_for_function("x => document.activeElement.getBoundingClientRect().x < x - 20", arg=before)
        expect_same_node_focused(chapter.page)
        chapter.page.set_viewport_size({"width": 1200, "height": 900})
