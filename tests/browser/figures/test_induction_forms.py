"""induction-forms in the browser: the embedded run draws at once, the slider steps through the
checkpoints (keys and numbers follow), and Train runs a real training job in the worker (the engine
on CPython behind the stand-in) with progress, Cancel, and the new run drawn live with its phase
change stated. (The real worker with real numpy: test_real_python.py.)"""
from __future__ import annotations

import pytest

from engine.figures import compute, parse
from engine.figures.induction_forms import one_layer_line

from ..conftest import expect, serious_violations
from .helpers import cancel_restores_the_model_shown_before, opened, progress_streamed, text_lines, watch_progress

NAME = "induction-forms"


def _weights(figure, layer_head: int) -> list[str]:
    return figure.locator(".th-grid").nth(layer_head).locator(".th-cell").evaluate_all(
        "(cells) => cells.map((c) => c.style.getPropertyValue('--w'))")


@pytest.mark.parametrize("width", [1200, 375])
def test_the_embedded_run_and_the_slider(open_chapter, url, width):
    chapter, data, figure = opened(open_chapter, url, NAME, viewport={"width": width, "height": 800})
    T = len(data["tokens"])
    expect(figure.locator(".th-grid")).to_have_count(4)
    expect(figure.locator(".th-cell")).to_have_count(4 * T * T)
    expect(figure.locator(".th-attached")).to_have_count(2 * sum(j is not None for j in data["targets"]["induction"]))
    assert chapter.numbers(NAME) == text_lines(data, data["start"])
    # the one-layer run's curve beside the two-layer one: a point per checkpoint, named in words
    beside = figure.locator(".if-chart").nth(1).locator(".if-beside").get_attribute("points").split()
    assert len(beside) == len(data["one_layer"]) == len(data["checkpoints"])
    expect(figure.get_by_text(data["text"]["legend"])).to_be_visible()
    trained = _weights(figure, 2)
    slider = figure.get_by_label("Step")
    slider.focus()
    for _ in range(data["start"]):
        slider.press("ArrowLeft")  # back to the untrained model
    assert chapter.numbers(NAME) == text_lines(data, 0)
    assert _weights(figure, 2) != trained
    expect(figure.locator("output").first).to_have_text("step 0")
    assert chapter.scroll_width() <= width
    assert serious_violations(chapter.page) == []


def test_train_streams_progress_and_draws_the_new_run_live(open_live_chapter, url):
    chapter = open_live_chapter(url)  # the worker's own slices: one step per slice would take minutes here
    figure = chapter.figure(NAME)
    watch_progress(figure)
    figure.get_by_role("button", name="Train").click()
    expect(figure).to_have_attribute("aria-busy", "true")
    expect(figure.get_by_role("button", name="Cancel")).to_be_visible()
    expect(figure).to_have_attribute("data-state", "live", timeout=90_000)
    expect(figure).not_to_have_attribute("aria-busy", "true")
    want = compute(parse(NAME, {"seed": 1}))  # as the build computes it, with the one-layer run a live run has not
    assert chapter.numbers(NAME) == [line for line in text_lines(want, want["start"]) if line not in one_layer_line(want)]
    expect(figure.locator(".th-status")).to_have_text(want["text"]["status"])
    assert f"formed at step {want['phase_change']}" in want["text"]["status"]
    progress_streamed(chapter.page)


def test_cancel_restores_the_model_shown_before(open_live_chapter, url):
    cancel_restores_the_model_shown_before(open_live_chapter, url, NAME, "Train")
