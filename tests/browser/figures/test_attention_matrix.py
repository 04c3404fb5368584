"""attention-matrix in the browser: a row is chosen by pointer, tap or arrow keys; the key numbers, the
output line and every cell are the model's text."""
from __future__ import annotations

from engine.figures.fmt import fill

from ..conftest import expect
from .helpers import PhoneVisit, opened, text_lines

PAGE = "05-what-gets-passed-along.html"


def _row_centre(figure, data, i):
    """Page coordinates of the middle of row i's first cell (the grid's rects come row by row)."""
    n = len(data["words"])
    box = figure.locator("rect.am-cell").nth(i * n).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_rows_by_keyboard_and_mouse_and_the_cells_are_the_models(open_chapter, base_url):
    chapter, data, figure = opened(open_chapter, base_url + PAGE, "attention-matrix",
                                    viewport={"width": 1200, "height": 900})
    start = data["start"]
    assert chapter.numbers("attention-matrix") == data["text"]["numbers"] == text_lines(data, start)
    cells = figure.locator("text.am-num").all_text_contents()
    n = len(data["words"])
    cell = data["text"]["parts"]["cell"]
    assert cells[:n * n] == [fill(cell, {"v": w}) for row in data["weights"] for w in row]
    assert cells[-n:] == [fill(cell, {"v": s}) for s in data["column_sums"]]

    grid = figure.locator(".am-grid")
    assert grid.get_attribute("data-key-control") == "ArrowDown"
    grid.focus()
    grid.press("ArrowDown")
    assert chapter.numbers("attention-matrix") == text_lines(data, start + 1)
    grid.press("ArrowUp")
    grid.press("ArrowUp")
    assert chapter.numbers("attention-matrix") == text_lines(data, start - 1)
    expect(figure.locator(".am-output")).to_have_text(data["text"]["states"][start - 1]["numbers"][1])
    expect(figure.locator("svg[role=img]")).to_have_attribute("aria-label", data["text"]["states"][start - 1]["label"])

    chapter.page.mouse.move(*_row_centre(figure, data, 2))
    assert chapter.numbers("attention-matrix") == text_lines(data, 2)


def test_tap_at_375_scrolls_inside_the_figure_not_the_page(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, "attention-matrix")
    data, figure = visit.data, visit.figure
    visit.opens_at(data["start"])
    figure.locator(".am-grid").scroll_into_view_if_needed()
    last = len(data["words"]) - 1
    visit.page.touchscreen.tap(*_row_centre(figure, data, last))
    visit.shows(last)
    expect(figure.locator(".am-output")).to_have_text(data["text"]["states"][last]["numbers"][1])
    visit.fits()
