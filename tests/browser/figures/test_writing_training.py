"""writing-training in the browser: the embedded run draws at once and its checkpoints step by
keyboard, touch and Replay before any Python, each showing what the model wrote then; Train from
scratch runs a real training job in the worker (the engine on CPython behind the stand-in), streaming
the curve, the samples and the progress, and ends live; Cancel restores exactly what was shown; the
reader's own text is refused in one line when the model cannot read it, else fine-tuned on and kept.
(The real worker with real numpy: test_real_python.py.)

The build gives the engine the prose of the chapters it builds, and the model learns that: these
pages hold a few paragraphs of our own (helpers.WRITING_PROSE)."""
from __future__ import annotations

import re

import pytest

from engine.figures import FigureJob, compute, module, parse
from engine.figures.fmt import fill
from tests.conftest import ROOT

from ..conftest import expect, serious_violations
from .helpers import (OWN_TEXT, PhoneVisit, figure_given, opened, progress_streamed, text_lines, warm_up_changes_nothing,
                      watch_progress, without_python, writing_chapter, writing_training_shown)

NAME = "writing-training"
SHORT = {"steps": 2 * module(NAME).CONFIG.checkpoint_every}  # a run the stand-in trains in a few seconds, even a step per slice
SCRATCH = writing_chapter()
# The view's time per checkpoint in a replay (theme/figures/writing-training.js).
REPLAY_MS = int(re.search(r"const REPLAY_MS = (\d+);", (ROOT / "theme" / "figures" / f"{NAME}.js").read_text())[1])


@pytest.fixture(scope="module")
def short_url(scratch_page) -> str:
    return scratch_page(writing_chapter(SHORT))


def _sample(figure) -> str:
    return figure.locator(".wt-sample-text").text_content()


def _want(chapter, options: dict) -> dict:
    """The figure for `options` on CPython, from the model file the page ships (what the worker reads)."""
    return compute(parse(NAME, options), figure_given(chapter.page, chapter.figure(NAME)))


def test_the_embedded_run_steps_by_keyboard_with_its_samples(open_chapter, url):
    chapter, data, figure = opened(open_chapter, url, NAME)
    k = data["start"]
    assert k == len(data["checkpoints"]) - 1  # it opens on the trained model
    assert chapter.numbers(NAME) == text_lines(data, k)
    assert _sample(figure) == data["checkpoints"][k]["sample"]  # line breaks and all, as text
    expect(figure.locator(".wt-dot")).to_have_count(len(data["checkpoints"]))
    expect(figure.locator(".wt-baseline")).to_have_count(len(data["baselines"]))
    assert figure.locator(".wt-baseline-label").all_text_contents() == [
        fill(data["text"]["parts"][key], {"v": v}) for key, v in data["baselines"].items()]
    assert figure.locator(".wt-sample-text *").count() == 2  # the prompt and what followed, never markup
    slider = figure.get_by_label("Checkpoint")
    slider.focus()
    slider.press("ArrowLeft")
    assert chapter.numbers(NAME) == text_lines(data, k - 1)
    assert _sample(figure) == data["checkpoints"][k - 1]["sample"]
    expect(figure.locator(".wt-sample-head")).to_contain_text(f"step {data['checkpoints'][k - 1]['step']}")
    slider.press("Home")
    assert chapter.numbers(NAME) == text_lines(data, 0)
    assert _sample(figure) == data["checkpoints"][0]["sample"]
    expect(figure.locator(".figure-controls output").first).to_have_text("step 0")
    assert serious_violations(chapter.page) == []


def test_on_a_phone_the_arrow_key_and_a_tap_on_the_chart_pick_checkpoints(open_chapter, url):
    visit = PhoneVisit(open_chapter, url, NAME)
    data, figure = visit.data, visit.figure
    visit.opens_at(data["start"])
    visit.keys(visit.figure.get_by_label("Checkpoint"), "ArrowLeft", data["start"] - 1)
    middle = len(data["checkpoints"]) // 2  # the chart's middle is half the run's steps
    assert data["checkpoints"][middle]["step"] * 2 == data["steps"]
    visit.taps(figure.locator(".wt-hit"), middle)
    assert _sample(figure) == data["checkpoints"][middle]["sample"]
    visit.fits()


def test_replay_steps_through_every_checkpoint_before_python(open_chapter, url):
    chapter = without_python(open_chapter, url)
    data, figure = chapter.data(NAME), chapter.figure(NAME)
    figure.evaluate("""f => { window.__samples = [];
      new MutationObserver(() => window.__samples.push(f.querySelector(".wt-sample-text").textContent))
        .observe(f.querySelector(".wt-sample-text"), { subtree: true, childList: true, characterData: true }); }""")
    replay = figure.get_by_role("button", name="Replay")
    replay.click()
    expect(figure.get_by_role("button", name="Stop")).to_have_attribute("aria-pressed", "true")
    expect(replay).to_have_attribute("aria-pressed", "false", timeout=20_000)  # done: the button says Replay again
    samples = chapter.page.evaluate("window.__samples")
    assert list(dict.fromkeys(samples)) == [c["sample"] for c in data["checkpoints"]]  # gibberish to words, in order
    assert chapter.numbers(NAME) == text_lines(data, data["start"])
    # And again, stopped as its second checkpoint shows: the click on Stop is made in the page as that
    # sample is drawn (a timed wait could see a loaded machine's replay reach its end first).
    figure.evaluate("""(f, [stop, want]) => { window.__stopped = new Promise((resolve) => {
      const text = f.querySelector(".wt-sample-text");
      new MutationObserver((_, o) => { if (text.textContent === want) { o.disconnect(); stop.click(); resolve(); } })
        .observe(text, { subtree: true, childList: true, characterData: true }); }); }""",
                    [replay.element_handle(), data["checkpoints"][1]["sample"]])
    replay.click()
    chapter.page.evaluate("window.__stopped")
    expect(replay).to_have_attribute("aria-pressed", "false")
    assert chapter.numbers(NAME) == text_lines(data, 1)
    # The replay's next step would be its timer's: a timer of the same delay set now runs after it
    # (timers of equal delay run in the order they were set), so once it has run, a replay that went
    # on would have drawn that step.
    chapter.page.evaluate("(ms) => new Promise((resolve) => setTimeout(resolve, ms))", REPLAY_MS)
    assert chapter.numbers(NAME) == text_lines(data, 1)
    assert figure.get_attribute("data-state") == "prerendered"


def test_train_from_scratch_streams_the_curve_and_samples_and_ends_live(open_live_chapter, short_url):
    chapter = open_live_chapter(short_url, slow_jobs=True)  # a step per slice: a run long enough to watch
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    watch_progress(figure)
    chapter.page.evaluate("""(fig) => { window.__samples = [];
      new MutationObserver(() => window.__samples.push(fig.querySelector(".wt-sample-text").textContent))
        .observe(fig.querySelector(".wt-sample-text"), { subtree: true, childList: true, characterData: true }); }""",
                          figure.element_handle())
    expect(figure.get_by_label("Seed")).to_have_value(str(data["seed"] + 1))
    figure.get_by_role("button", name="Train from scratch").click()
    expect(figure).to_have_attribute("aria-busy", "true")
    expect(figure.get_by_role("button", name="Cancel")).to_be_visible()
    expect(figure.locator(".th-status")).to_contain_text("Training step", timeout=60_000)
    expect(figure).to_have_attribute("data-state", "live", timeout=120_000)
    expect(figure).not_to_have_attribute("aria-busy", "true")
    expect(figure.get_by_role("button", name="Cancel")).to_be_hidden()
    want = _want(chapter, {**SHORT, "seed": data["seed"] + 1})
    assert chapter.numbers(NAME) == text_lines(want, want["start"])
    expect(figure.locator(".th-status")).to_have_text(want["text"]["status"])
    assert _sample(figure) == want["checkpoints"][-1]["sample"]
    expect(figure.locator(".wt-dot")).to_have_count(len(want["checkpoints"]))
    progress_streamed(chapter.page)
    assert figure.locator("progress").evaluate("(p) => p.value") == SHORT["steps"]
    # each checkpoint's sample as it came (the last with the finished run)
    assert list(dict.fromkeys(chapter.page.evaluate("window.__samples"))) == [c["sample"] for c in want["checkpoints"]]


def test_cancel_restores_exactly_what_was_shown(open_live_chapter, short_url):
    chapter = open_live_chapter(short_url, slow_jobs=True)
    figure = chapter.figure(NAME)
    slider = figure.get_by_label("Checkpoint")
    slider.focus()
    slider.press("ArrowLeft")  # not the opening state: what the reader had chosen comes back
    before = writing_training_shown(figure)
    train = figure.get_by_role("button", name="Train from scratch")
    train.press("Enter")
    cancel = figure.get_by_role("button", name="Cancel")
    expect(cancel).to_be_focused()  # Train is disabled while it runs: the keyboard moved to Cancel
    chapter.page.wait_for_function("([fig, past]) => fig.querySelector('progress').value > past && fig.querySelectorAll('.wt-dot').length === 2",
                                   arg=[figure.element_handle(), module(NAME).CONFIG.checkpoint_every + 5], timeout=60_000)
    assert writing_training_shown(figure) != before  # the new run's curve and samples were on screen
    cancel.press("Enter")
    expect(figure).not_to_have_attribute("aria-busy", "true")
    expect(train).to_be_focused()
    assert writing_training_shown(figure) == before
    assert figure.get_attribute("data-state") == "prerendered"
    expect(figure.locator(".th-status")).to_contain_text("stopped")


def test_near_with_python_ready_it_warms_train_and_nothing_shown_changes(open_live_chapter, url):
    warm_up_changes_nothing(open_live_chapter, url, NAME, writing_training_shown)


def test_without_python_train_says_so(open_chapter, url):
    chapter = without_python(open_chapter, url)
    figure = chapter.figure(NAME)
    before = writing_training_shown(figure)
    figure.get_by_role("button", name="Train from scratch").click()
    expect(figure.locator(".figure-note")).to_contain_text("Needs Python")
    assert writing_training_shown(figure) == before
    expect(figure).not_to_have_attribute("aria-busy", "true")





def test_fine_tuning_on_the_readers_text_refuses_what_it_cannot_read_then_keeps_the_run(open_live_chapter, short_url):
    chapter = open_live_chapter(short_url)
    figure, page = chapter.figure(NAME), chapter.page
    figure.locator("summary", has_text="Fine-tune on a text of your own").click()
    box = figure.get_by_label("Your text")
    before = writing_training_shown(figure)
    box.fill(OWN_TEXT + " ~<b>")
    expect(figure.locator(".wt-own-count")).to_have_text(f" {len(OWN_TEXT) + 5:,} characters")
    figure.get_by_label("Steps").fill("50")
    tune = figure.get_by_role("button", name="Fine-tune")
    tune.click()
    expect(figure.locator(".figure-note")).to_contain_text("The model does not know “~”, “<” or “>”", timeout=60_000)
    expect(figure).not_to_have_attribute("aria-busy", "true")
    assert writing_training_shown(figure) == before and figure.get_attribute("data-state") == "prerendered"
    expect(box).to_have_value(OWN_TEXT + " ~<b>")  # nothing the reader wrote is lost
    expect(figure.locator(".th-status")).not_to_contain_text("stopped")  # refused, not cancelled

    box.fill(OWN_TEXT)
    tune.click()
    expect(figure).to_have_attribute("data-state", "live", timeout=120_000)
    expect(tune).to_be_focused()
    given = figure_given(page, figure).with_file("reader-text", OWN_TEXT.encode())
    job = FigureJob(parse(NAME, {**SHORT, "seed": chapter.data(NAME)["seed"] + 1, "tune": 50}), "tune", given=given)
    while not (out := job.advance(60.0))["done"]:
        pass
    want = out["result"]
    assert want["text"]["status"].startswith("Fine-tuned 50 steps on your text")
    assert chapter.numbers(NAME) == text_lines(want, want["start"])
    expect(figure.locator(".th-status")).to_have_text(want["text"]["status"])
    expect(figure.locator(".wt-kept")).to_contain_text(want["text"]["status"])
    assert _sample(figure) == want["checkpoints"][-1]["sample"]

    page.reload()  # the text and the fine-tuned model are kept; the next run starts from the reader's model
    chapter.wait_prerendered()
    figure.locator("summary", has_text="Fine-tune on a text of your own").click()
    expect(box).to_have_value(OWN_TEXT)
    expect(figure.get_by_label("Start from")).to_have_value("yours")
    figure.get_by_role("button", name="Forget my model").click()
    expect(figure.get_by_label("Start from")).to_have_value("page")
