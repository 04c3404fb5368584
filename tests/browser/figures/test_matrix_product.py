"""matrix-product in the browser: a cell of QKᵀ picked by keyboard, by a tap at 375 px and by a click shows
the model's sum of products; Transpose K moves the keys between rows and columns; New numbers asks the
worker, and what it draws is the engine's."""
from __future__ import annotations

from engine.figures import compute, parse
from engine.figures.fmt import fill

from ..conftest import PHONE, expect
from .helpers import centre, expect_same_node_focused, mark_element, text_lines

NAME = "matrix-product"


def _shown(chapter, figure, data, state):
    assert chapter.numbers(NAME) == text_lines(data, state)
    expect(figure.locator(".mp-readout")).to_have_text(data["text"]["states"][state]["numbers"][0])


def test_cells_by_keyboard_and_tap_and_the_transpose_at_375_px(open_chapter, url):
    chapter = open_chapter(url, **PHONE)
    chapter.wait_prerendered()
    data = compute(parse(NAME))
    n_k = len(data["k"])
    figure = chapter.figure(NAME)
    start = data["start"]["row"] * n_k + data["start"]["col"]
    assert chapter.numbers(NAME) == text_lines(data, start)

    grid = figure.locator("[data-key-control]")
    mark_element(grid)
    grid.focus()
    grid.press(grid.get_attribute("data-key-control"))  # one column right
    _shown(chapter, figure, data, start + 1)
    grid.press("ArrowDown")  # one row down
    _shown(chapter, figure, data, start + 1 + n_k)
    expect_same_node_focused(chapter.page)

    cells = figure.locator("g.mp-p")
    assert cells.count() == len(data["q"]) * n_k
    last = n_k - 1  # the first row's last cell, tapped with a finger
    chapter.page.touchscreen.tap(*centre(cells.nth(last)))
    _shown(chapter, figure, data, last)
    expect(cells.nth(last)).to_have_class("mp-p mp-on")

    flip = figure.get_by_role("button", name="Transpose K")
    expect(flip).to_have_attribute("aria-pressed", "true")
    note = figure.locator(".mp-note")
    expect(note).to_have_text(fill(data["text"]["parts"]["transposed"], {"v": last + 1}))
    key = figure.locator("g.mp-k").nth(last * len(data["k"][0]))  # the first number of the last key
    before = key.bounding_box()
    flip.click()
    expect(flip).to_have_attribute("aria-pressed", "false")
    expect(note).to_have_text(fill(data["text"]["parts"]["stored"], {"v": last + 1}))
    key.evaluate("(g) => Promise.all(g.getAnimations().map((a) => a.finished))")  # the numbers slide to their stored places
    after = key.bounding_box()
    assert after["x"] < before["x"] and after["y"] > before["y"]  # from column 4 of Kᵀ to row 4 of K
    _shown(chapter, figure, data, last)  # the numbers of the cell stay
    assert chapter.scroll_width() <= 375


def test_new_numbers_are_the_engines(open_live_chapter, url):
    chapter = open_live_chapter(url)
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    cells = figure.locator("g.mp-p")
    cells.nth(2).click()
    figure.get_by_role("button", name="New numbers").click()
    expect(figure).to_have_attribute("data-state", "live")
    want = compute(parse(NAME, {**data["params"], "seed": data["params"]["seed"] + 1, "col": 2}))
    assert want["q"] != data["q"]
    expect(figure.locator(".mp-readout")).to_have_text(want["text"]["states"][2]["numbers"][0])
    assert chapter.numbers(NAME) == text_lines(want, 2)
    expect(figure.locator("g.mp-p text")).to_have_text([str(v) for r in want["scores"] for v in r])
