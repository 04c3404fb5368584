"""softmax-gradient in the browser: dragging or keying a bar recomputes both gradients in the worker
(the engine on CPython behind the stand-in), and the table shows the model's numbers."""
from __future__ import annotations

import pytest

from engine.figures import compute, parse

from ..conftest import expect
from .helpers import centre, mouse_drag

NAME = "softmax-gradient"


def _table(figure):
    return figure.locator(".sg-table tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))")


def test_the_opening_table_is_the_model_text(open_chapter, url):
    chapter = open_chapter(url)
    chapter.wait_prerendered()
    data = chapter.data(NAME)
    cells = data["text"]["cells"]
    assert _table(chapter.figure(NAME)) == [cells["weights"], cells["formula"], cells["numeric"]]
    assert chapter.numbers(NAME) == data["text"]["numbers"]


@pytest.mark.parametrize("width", [1200, 375])
def test_keys_and_drags_recompute_live(open_live_chapter, url, width):
    chapter = open_live_chapter(url, viewport={"width": width, "height": 900})
    figure = chapter.figure(NAME)
    g_bar = figure.get_by_role("slider", name="G of sat")
    g_bar.focus()
    g_bar.press("ArrowUp")
    g_bar.press("ArrowUp")
    expect(figure).to_have_attribute("data-state", "live")
    want = compute(parse(NAME, {"upstream": [1, 1, 0, 0]}))
    expect(figure.locator(".sg-total")).to_have_text(want["text"]["total"])
    assert chapter.numbers(NAME) == want["text"]["numbers"]
    before = _table(figure)
    bar = figure.get_by_role("slider", name="score of cat")
    x, y = centre(bar)
    mouse_drag(chapter.page, (x, y - 10), (x, y + 60))
    chapter.page.wait_for_function(
        "([fig, before]) => !fig.querySelector('.sg-table').classList.contains('stale')"
        " && fig.querySelector('.sg-table tbody td').textContent !== before",
        arg=[figure.element_handle(), before[0][0]])
    now = [float(v) for v in figure.locator(".score-bar").evaluate_all("(bars) => bars.map((b) => b.getAttribute('aria-valuenow'))")]
    want = compute(parse(NAME, {"scores": now[:4], "upstream": now[4:]}))["text"]["cells"]
    assert now[0] < 2 and _table(figure) == [want["weights"], want["formula"], want["numeric"]]
    assert chapter.scroll_width() <= width
