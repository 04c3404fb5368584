"""The live path on the page, with the engine on CPython standing in for Pyodide.

numpy cannot be loaded into Pyodide on this machine, so the real worker never gets to
"ready" here. These tests swap in a tiny worker that speaks the same protocol and answers
each compute request by fetching /__compute, which the test fulfils with the engine's own
`compute_json`. What they check is everything on the main thread: runtime.js, the figure
lifecycle, and each view drawing a result (and the text the model wrote for it) and turning "live".
"""
from __future__ import annotations

from engine.figures import compute, parse

from .conftest import expect


def _open_live(open_live_chapter):
    chapter = open_live_chapter()
    chapter.start_runtime()
    assert chapter.wait_settled(timeout=20_000)["state"] == "ready"
    return chapter


def test_a_new_draw_and_fewer_keys_are_recomputed(open_live_chapter):
    chapter = _open_live(open_live_chapter)
    figure = chapter.figure("scaling-experiment")
    params = chapter.data("scaling-experiment")["params"]
    figure.get_by_role("button", name="Draw new random vectors").click()
    expect(figure).to_have_attribute("data-state", "live")
    redrawn = compute(parse("scaling-experiment", {**params, "seed": params["seed"] + 1}))
    last = redrawn["rows"][-1]
    expect(figure.locator("ul.figure-numbers li").last).to_have_text(
        f"d = {last['d']}: {last['unscaled']:.2f} unscaled, {last['scaled']:.2f} scaled")
    expect(figure.locator("ul.figure-numbers li")).to_have_text(redrawn["text"]["fixed"])
    expect(figure.locator(".figure-controls output")).to_have_text(redrawn["text"]["states"][redrawn["start"]]["label"])

    figure.locator("select").select_option("2")
    two = compute(parse("scaling-experiment", {**params, "seed": params["seed"] + 1, "keys": 2}))["rows"][-1]
    expect(figure.locator("ul.figure-numbers li").last).to_have_text(
        f"d = {two['d']}: {two['unscaled']:.2f} unscaled, {two['scaled']:.2f} scaled")
    expect(figure.locator("select")).to_have_value("2")
