"""query-drag in the browser: the arrow keys, a mouse drag and a touch tap move the query, and the
scores and weights shown are the engine's for that query (and the model's text for that grid point)."""
from __future__ import annotations

import numpy as np

from engine.figures import compute, facts, parse
from engine.figures.query_drag import scores_and_weights
from engine.tasks import winograd

from ..conftest import expect
from .helpers import expect_same_node_focused, opened, press_in_place, text_lines

PAGE = "03-queries-keys-values.html"


def _expected(query) -> list[str]:
    """The key-number lines for a query, from the chapter 1 head's keys (not from the page's grid)."""
    words = winograd.words("tired")
    scores, scaled, weights = scores_and_weights(np.array([query]), winograd.run("tired")["keys"])
    return [
        f"Query ({query[0]:.2f}, {query[1]:.2f})",
        "Raw scores q·k: " + ", ".join(f"{w} {s:.2f}" for w, s in zip(words, scores[0])),
        "Scaled scores q·k/√2: " + ", ".join(f"{w} {s:.2f}" for w, s in zip(words, scaled[0])),
        "Weights, softmax of the scaled scores: " + ", ".join(f"{w} {a:.2f}" for w, a in zip(words, weights[0])),
    ]


def _close(shown: list[str], expected: list[str]) -> None:
    """Same lines; numbers may differ by one in the last place where the grid rounded a tie."""
    assert shown[0] == expected[0]
    for a, b in zip(shown[1:], expected[1:]):
        na = [float(t.rstrip(",")) for t in a.split() if t.rstrip(",").lstrip("-").replace(".", "").isdigit()]
        nb = [float(t.rstrip(",")) for t in b.split() if t.rstrip(",").lstrip("-").replace(".", "").isdigit()]
        assert len(na) == len(nb) and all(abs(x - y) <= 0.01 + 1e-9 for x, y in zip(na, nb)), (a, b)


def test_keyboard_moves_the_query_one_step(open_chapter, base_url):
    chapter, data, figure = opened(open_chapter, base_url + PAGE, "query-drag")
    axis = data["axis"]
    assert chapter.numbers("query-drag") == data["text"]["numbers"]
    _close(chapter.numbers("query-drag"), _expected((3.0, 0.0)))
    # the table shows the scaling step: a raw and a scaled column, animal's scaled score the engine's
    expect(figure.locator(".qd-row-head")).to_have_text("wordraw q·kscaled ÷√2weight")
    scaled = figure.locator(".qd-row:not(.qd-row-head) .qd-scaled")
    expect(scaled.nth(winograd.words("tired").index("animal"))).to_have_text(
        f"{facts(parse('query-drag'))['right']['animal_scaled']:.2f}")
    handle = figure.locator(".qd-handle")
    press_in_place(handle, "ArrowUp")
    handle.press("ArrowLeft")
    expect(figure.locator(".qd-readout")).to_have_text("Query (2.50, 0.50)")
    _close(chapter.numbers("query-drag"), _expected((2.5, 0.5)))
    state = axis.index(0.5) * len(axis) + axis.index(2.5)  # row * columns + column
    assert chapter.numbers("query-drag") == text_lines(data, state)
    expect(scaled.nth(1)).to_have_text(f"{data['scaled'][state][1]:.2f}")
    expect(handle).to_have_attribute("aria-valuetext", "Query (2.50, 0.50)")
    expect_same_node_focused(chapter.page)
    handle.press("Home")
    expect(figure.locator(".qd-readout")).to_have_text("Query (3.00, 0.00)")


def _plane_point(figure, x, y):
    """Page coordinates of the plane point (x, y)."""
    box = figure.locator(".qd-plane svg").bounding_box()
    lim, pad = compute(parse("query-drag"))["axis"][-1], 22
    s = (box["width"] - 2 * pad) / (2 * lim)
    return box["x"] + pad + (x + lim) * s, box["y"] + pad + (lim - y) * s


def test_mouse_drag_and_touch_tap_move_the_query(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE, has_touch=True)
    chapter.wait_prerendered()
    figure = chapter.figure("query-drag")
    figure.locator(".qd-plane").scroll_into_view_if_needed()
    page = chapter.page
    # Mouse: drag the handle from (3, 0) to point straight up.
    page.mouse.move(*_plane_point(figure, 3, 0))
    page.mouse.down()
    page.mouse.move(*_plane_point(figure, 1.5, 1.5), steps=4)
    page.mouse.move(*_plane_point(figure, 0.0, 3), steps=4)
    page.mouse.up()
    expect(figure.locator(".qd-readout")).to_have_text("Query (0.00, 3.00)")
    _close(chapter.numbers("query-drag"), _expected((0.0, 3.0)))
    street = facts(parse("query-drag"))["up"]["street_weight"]
    assert f"street {street:.2f}" in chapter.numbers("query-drag")[3]
    # Touch: a tap anywhere on the plane puts the query there.
    page.touchscreen.tap(*_plane_point(figure, -2, -2))
    expect(figure.locator(".qd-readout")).to_have_text("Query (-2.00, -2.00)")
    _close(chapter.numbers("query-drag"), _expected((-2.0, -2.0)))
