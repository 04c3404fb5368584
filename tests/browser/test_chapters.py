"""Every chapter, every figure: one control per figure works from the keyboard at 1200 and 375 px.

Each view marks one control with data-key-control="<key>": focusing it and pressing that key
must change what the figure shows (its drawing or its key numbers), with no page error.
The engine answers on CPython behind the stand-in worker, so controls that recompute work too.
"""
from __future__ import annotations

import pytest

from .conftest import chapter_pages, expect

SNAPSHOT = """(fig) => fig.querySelector(".figure-view").innerHTML + "\\n" +
                      fig.querySelector(".figure-numbers").textContent"""


@pytest.mark.parametrize("width", [1200, 375])
@pytest.mark.parametrize("page", chapter_pages())
def test_one_control_per_figure_answers_the_keyboard(open_live_chapter, base_url, page, width):
    chapter = open_live_chapter(base_url + page, viewport={"width": width, "height": 800})
    names = chapter.figure_names()
    for name in names:
        figure = chapter.figure(name)
        control = figure.locator("[data-key-control]").first
        assert control.count() == 1, f"{page}: figure {name} marks no control with data-key-control"
        key = control.get_attribute("data-key-control")
        before = figure.evaluate(SNAPSHOT)
        control.focus()
        expect(control).to_be_focused()
        control.press(key)
        try:
            figure.page.wait_for_function(
                f"([fig, before]) => ({SNAPSHOT})(fig) !== before", arg=[figure.element_handle(), before],
                timeout=10_000)
        except Exception:
            pytest.fail(f"{page} at {width}px: pressing {key} on figure {name}'s control changed nothing")
        expect(figure.locator(".figure-note")).to_be_hidden()
    scroll_width = chapter.scroll_width()
    assert scroll_width <= width, f"{page} at {width}px overflows to {scroll_width}px after using the figures"
    assert chapter.page_errors == [], f"{page}: {chapter.page_errors}"
