"""lookup-training in the browser: the embedded runs play, step and reset before Python (and without
it); with the worker ready, Play runs the real training as a job (the engine on CPython behind the
stand-in) whose numbers are the embedded ones, Pause cancels it and keeps the state, Play resumes."""
from __future__ import annotations

import json

import pytest

from ..conftest import expect, serious_violations
from .helpers import centre, opened, text_lines

NAME = "lookup-training"


def _state(data: dict, run: int, k: int) -> int:
    return run * len(data["runs"][0]["grids"]) + k


def _last(data: dict) -> int:
    return len(data["runs"][0]["grids"]) - 1


def _wait_ready(chapter) -> None:
    chapter.start_runtime()
    assert chapter.wait_settled()["state"] == "ready"


def test_the_embedded_run_the_menu_reset_and_the_keyboard(open_chapter, url):
    chapter, data, figure = opened(open_chapter, url, NAME)
    r, k = data["start"]["run"], data["start"]["state"]
    assert chapter.numbers(NAME) == text_lines(data, _state(data, r, k)) == data["text"]["numbers"]
    expect(figure.locator(".lt-cell")).to_have_count(64)
    expect(figure.locator(".lt-top")).to_have_count(8)
    expect(figure.locator(".lt-diagonal.lt-top")).to_have_count(8)  # trained: every row's largest is its own letter
    figure.get_by_role("button", name="Reset").press("Enter")
    assert chapter.numbers(NAME) == text_lines(data, _state(data, r, 0))
    assert chapter.numbers(NAME)[0].endswith("loss 1.386")
    slider = figure.get_by_role("slider", name="Step")
    slider.press("ArrowRight")
    assert chapter.numbers(NAME) == text_lines(data, _state(data, r, 1))
    assert slider.get_attribute("aria-valuetext") == text_lines(data, _state(data, r, 1))[0]
    figure.get_by_label("Step size").select_option("0")
    assert chapter.numbers(NAME) == text_lines(data, _state(data, 0, 1))
    assert figure.get_attribute("data-state") == "prerendered"


def test_play_without_python_replays_the_embedded_run(open_chapter, url):
    chapter, data, figure = opened(open_chapter, url, NAME)
    r = data["start"]["run"]
    play = figure.locator("[data-key-control]")
    # The fewest points the curve shows during the replay, sampled every frame: read once after
    # the press, a loaded machine could let the replay run far before the read.
    figure.locator(".lt-line").evaluate("""(l) => { window.__fewest = Infinity;
      const look = () => { window.__fewest = Math.min(window.__fewest, l.points.numberOfItems);
                           if (!window.__stopLooking) requestAnimationFrame(look); };
      requestAnimationFrame(look); }""")
    play.press("Enter")  # at the end: Play starts over from step 0
    expect(play).to_have_text("Pause")
    expect(play).to_have_text("Play", timeout=20_000)
    assert chapter.page.evaluate("window.__stopLooking = true; window.__fewest") < 20  # it started again from the beginning
    assert chapter.numbers(NAME) == text_lines(data, _state(data, r, _last(data)))
    assert figure.locator(".lt-line").evaluate("(l) => l.points.numberOfItems") == data["steps"] + 1
    assert figure.get_attribute("data-state") == "prerendered"


@pytest.mark.parametrize("rate", [0, 3])
def test_play_with_python_trains_live_to_the_embedded_numbers(open_live_chapter, url, rate):
    chapter = open_live_chapter(url)
    _wait_ready(chapter)
    data = chapter.data(NAME)
    figure = chapter.figure(NAME)
    figure.get_by_label("Step size").select_option(str(rate))
    figure.get_by_role("button", name="Reset").click()
    chapter.page.evaluate("""(fig) => { window.__seen = [];
      new MutationObserver(() => window.__seen.push([...fig.querySelectorAll('.figure-numbers li')].map((li) => li.textContent)))
        .observe(fig.querySelector('.figure-numbers'), { childList: true }); }""", figure.element_handle())
    figure.get_by_role("button", name="Play").click()
    expect(figure).to_have_attribute("data-state", "live", timeout=20_000)
    expect(figure.locator("[data-key-control]")).to_have_text("Play", timeout=20_000)
    expect(figure.locator(".lt-status")).to_have_text("Trained live in the worker.")
    assert chapter.stand_in.params("start") == [{**data["params"], "rate": data["rates"][rate], "start": 0}]
    seen = chapter.page.evaluate("window.__seen")
    want = [text_lines(data, _state(data, rate, k)) for k in range(1, _last(data) + 1)]
    assert seen == want  # every state drawn in order, each with the embedded run's numbers


def test_pause_cancels_the_job_keeps_the_state_and_play_resumes(open_live_chapter, url):
    chapter = open_live_chapter(url, slow_jobs=True)
    _wait_ready(chapter)
    data = chapter.data(NAME)
    figure = chapter.figure(NAME)
    r = data["start"]["run"]
    figure.get_by_role("button", name="Reset").click()
    play = figure.locator("[data-key-control]")
    play.click()
    expect(figure).to_have_attribute("aria-busy", "true")
    chapter.page.wait_for_function("(fig) => Number(fig.querySelector('input[type=range]').value) >= 3",
                                   arg=figure.element_handle())
    play.click()  # Pause
    expect(figure).not_to_have_attribute("aria-busy", "true")
    expect(play).to_have_text("Play")
    k = int(figure.get_by_role("slider", name="Step").input_value())
    shown = chapter.numbers(NAME)
    assert shown == text_lines(data, _state(data, r, k))
    assert figure.get_attribute("data-state") == "live"
    play.press("Enter")  # resume: a new job from the step on screen, which the pause kept (the job's start says so below)
    chapter.page.wait_for_function(f"(fig) => Number(fig.querySelector('input[type=range]').value) >= {k + 2}",
                                   arg=figure.element_handle(), timeout=30_000)
    play.click()
    assert [s["start"] for s in chapter.stand_in.params("start")] == [0, k * data["every"]]
    k2 = int(figure.get_by_role("slider", name="Step").input_value())
    assert chapter.numbers(NAME) == text_lines(data, _state(data, r, k2))
    live_curve = figure.locator(".lt-line").get_attribute("points")  # drawn from the job's run alone
    assert len(live_curve.split()) == k2 * data["every"] + 1 and "NaN" not in live_curve
    figure.get_by_role("button", name="Reset").click()  # the embedded run, then back to step k2
    figure.get_by_role("slider", name="Step").evaluate(
        "(el, k) => { el.value = String(k); el.dispatchEvent(new Event('input', { bubbles: true })); }", k2)
    assert figure.locator(".lt-line").get_attribute("points") == live_curve  # the same curve, replayed steps too


def test_touch_at_375_px_stacks_and_fits(open_chapter, url):
    chapter, data, figure = opened(open_chapter, url, NAME, viewport={"width": 375, "height": 800},
                                   has_touch=True, is_mobile=True)
    figure.get_by_role("button", name="Reset").tap()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, data["start"]["run"], 0))
    chapter.page.touchscreen.tap(*centre(figure.locator("[data-key-control]")))
    expect(figure.locator("[data-key-control]")).to_have_text("Pause")
    loss = figure.locator(".lt-loss").bounding_box()
    grid = figure.locator(".lt-grid").bounding_box()
    assert grid["y"] >= loss["y"] + loss["height"] - 1, "at 375 px the grid should sit below the loss plot"
    assert chapter.scroll_width() <= 375


def test_side_by_side_when_wide_and_no_serious_axe_violations(open_chapter, url):
    chapter, _, figure = opened(open_chapter, url, NAME, viewport={"width": 1200, "height": 900})
    loss = figure.locator(".lt-loss").bounding_box()
    grid = figure.locator(".lt-grid").bounding_box()
    assert grid["x"] >= loss["x"] + loss["width"] - 1 and grid["y"] < loss["y"] + loss["height"]
    violations = serious_violations(chapter.page)
    assert violations == [], json.dumps(violations, indent=1)
