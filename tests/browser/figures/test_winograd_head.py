"""winograd-head in the browser: the toggle switches the sentence's ending; numbers match the engine."""
from __future__ import annotations

from builder.fallbacks import winograd_head as fallback
from engine.figures import compute

from ..conftest import expect
from .helpers import centre

PAGE = "01-why-attention.html"


def test_toggle_by_keyboard_and_touch_shows_the_engine_weights(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE, has_touch=True, viewport={"width": 375, "height": 800})
    chapter.wait_prerendered()
    data = compute("winograd-head")
    figure = chapter.figure("winograd-head")
    assert chapter.numbers("winograd-head") == fallback.numbers(data)
    assert chapter.numbers("winograd-head") == [fallback.line(data, "tired")]

    wide = figure.locator('button[data-word="wide"]')
    assert wide.get_attribute("data-key-control") == "Enter"
    wide.focus()
    wide.press("Enter")
    expect(wide).to_have_attribute("aria-pressed", "true")
    assert chapter.numbers("winograd-head") == [fallback.line(data, "wide")]
    street = round(data["facts"]["wide_street_weight"] * 100)
    expect(figure.locator("svg[role=img]")).to_have_attribute(
        "aria-label", f"With “wide”, “it” puts {street}% of its attention on “street”")

    tired = figure.locator('button[data-word="tired"]')
    tired.scroll_into_view_if_needed()
    chapter.page.touchscreen.tap(*centre(tired))
    expect(tired).to_have_attribute("aria-pressed", "true")
    assert chapter.numbers("winograd-head") == [fallback.line(data, "tired")]
    assert chapter.page_errors == []


def test_table_shows_the_six_numbers_of_each_word(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE)
    chapter.wait_prerendered()
    data = compute("winograd-head")
    figure = chapter.figure("winograd-head")
    figure.locator("summary").click()
    rows = figure.locator("tbody tr")
    expect(rows).to_have_count(len(data["modes"]["tired"]["words"]))
    it = data["it"]
    cells = rows.nth(it).locator("td").all_text_contents()
    assert cells == [f"{v:.1f}" for v in data["modes"]["tired"]["vectors"][it]]
    assert len(cells) == data["facts"]["numbers_per_word"] == 6

