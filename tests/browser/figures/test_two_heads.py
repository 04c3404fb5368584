"""two-heads in the browser: the embedded run draws at once, the sentence menu switches what the
grids and key numbers show, and Retrain runs a real training job in the worker (the engine on
CPython behind the stand-in) with progress, Cancel, aria-busy and the retrained model drawn live."""
from __future__ import annotations

import pytest

from engine.figures import compute, parse

from ..conftest import expect
from .helpers import (cancel_restores_the_model_shown_before, opened, progress_streamed, text_lines,
                      two_heads_shown, warm_up_changes_nothing, watch_progress, without_python)

NAME = "two-heads"


def test_the_embedded_run_and_the_sentence_menu(open_chapter, url):
    chapter, data, figure = opened(open_chapter, url, NAME)
    assert chapter.numbers(NAME) == text_lines(data, data["start"])
    sentence = data["sentences"][data["start"]]
    n = len(sentence["words"])
    expect(figure.locator(".th-grid")).to_have_count(2)
    expect(figure.locator(".th-cell")).to_have_count(2 * n * n)
    expect(figure.locator(".th-attached")).to_have_count(2 * n)
    figure.get_by_label("Sentence").select_option("1")
    assert chapter.numbers(NAME) == text_lines(data, 1)
    m = len(data["sentences"][1]["words"])
    expect(figure.locator(".th-cell")).to_have_count(2 * m * m)


@pytest.mark.parametrize("width", [1200, 375])
def test_retrain_streams_progress_and_draws_the_new_run_live(open_live_chapter, url, width):
    chapter = open_live_chapter(url, slow_jobs=True, viewport={"width": width, "height": 800})
    figure = chapter.figure(NAME)
    watch_progress(figure)
    figure.get_by_role("button", name="Retrain").click()
    expect(figure).to_have_attribute("aria-busy", "true")
    expect(figure.get_by_role("button", name="Cancel")).to_be_visible()
    expect(figure).to_have_attribute("data-state", "live", timeout=60_000)
    expect(figure).not_to_have_attribute("aria-busy", "true")
    expect(figure.get_by_role("button", name="Cancel")).to_be_hidden()
    want = compute(parse(NAME, {"seed": 1}))
    assert chapter.numbers(NAME) == text_lines(want, want["start"])
    progress_streamed(chapter.page)
    assert figure.locator("progress").evaluate("(p) => p.value") == 400
    assert chapter.scroll_width() <= width


def test_near_with_python_ready_it_warms_retrain_and_nothing_shown_changes(open_live_chapter, url):
    warm_up_changes_nothing(open_live_chapter, url, NAME, two_heads_shown)


def test_cancel_restores_the_model_shown_before(open_live_chapter, url):
    cancel_restores_the_model_shown_before(open_live_chapter, url, NAME, "Retrain")


def test_without_python_retrain_says_so(open_chapter, url):
    chapter = without_python(open_chapter, url)
    figure = chapter.figure(NAME)
    before = chapter.numbers(NAME)
    figure.get_by_role("button", name="Retrain").click()
    expect(figure.locator(".figure-note")).to_contain_text("Needs Python")
    assert chapter.numbers(NAME) == before
    expect(figure).not_to_have_attribute("aria-busy", "true")
