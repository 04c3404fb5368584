"""qkv-matrices in the browser: the embedded numbers at once; a click, a tap or the keyboard selects a
word's query, and the bars and key numbers follow the model's state for it."""
from __future__ import annotations

import pytest

from engine.figures.fmt import fill

from ..conftest import expect, serious_violations
from .helpers import PhoneVisit, opened, text_lines

NAME = "qkv-matrices"


def _weights_shown(figure):
    return figure.locator(".qkv-row:not(.qkv-row-head) .weight-num").all_text_contents()


def test_the_matrices_and_a_click_on_a_query(open_chapter, url):
    chapter, data, figure = opened(open_chapter, url, NAME)
    n = len(data["words"])
    assert chapter.numbers(NAME) == text_lines(data, data["start"])
    expect(figure.locator(".qkv-cell")).to_have_count(3 * n * 6)
    expect(figure.locator(".qkv-query .qkv-cell").first).to_have_text(fill(data["text"]["parts"]["matrix"], {"v": data["q"][0][0]}))
    figure.get_by_role("button", name="query of mat (word 6)").click()
    assert chapter.numbers(NAME) == text_lines(data, 5)
    expect(figure.get_by_role("button", name="query of mat (word 6)")).to_have_attribute("aria-pressed", "true")
    assert _weights_shown(figure) == [fill(data["text"]["parts"]["weight"], {"v": w}) for w in data["weights"][5]]


def test_keyboard_moves_the_selection_and_wraps(open_chapter, url):
    chapter, data, figure = opened(open_chapter, url, NAME)
    start = data["start"]
    control = figure.locator("[data-key-control]")
    expect(control).to_have_count(1)
    control.focus()
    control.press("ArrowDown")
    assert chapter.numbers(NAME) == text_lines(data, start + 1)
    page = chapter.page
    for _ in range(len(data["words"]) - 1):
        page.keyboard.press("ArrowDown")
    assert chapter.numbers(NAME) == text_lines(data, start)  # wrapped round to where it began
    page.keyboard.press("ArrowUp")
    assert chapter.numbers(NAME) == text_lines(data, start - 1)
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"  # focus follows


def test_a_tap_at_375_px(open_chapter, url):
    visit = PhoneVisit(open_chapter, url, NAME)
    visit.taps(visit.figure.locator(".qkv-query tr").nth(3).locator("td").nth(2), 3)
    visit.reads()
    visit.fits()


@pytest.mark.parametrize("width", [1200, 375])
def test_no_serious_accessibility_violations(open_chapter, url, width):
    chapter, _, _ = opened(open_chapter, url, NAME, viewport={"width": width, "height": 800})
    assert serious_violations(chapter.page) == []
