"""winograd-head in the browser: the toggle switches the sentence's ending; the key numbers and the
plot's label are the model's text for the ending shown."""
from __future__ import annotations

from engine.figures import compute, parse

from ..conftest import expect
from .helpers import centre, expect_same_node_focused, mark_element, text_lines

PAGE = "01-why-attention.html"


def test_toggle_by_keyboard_and_touch_shows_the_engine_weights(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE, has_touch=True, viewport={"width": 375, "height": 800})
    chapter.wait_prerendered()
    data = compute(parse("winograd-head"))
    figure = chapter.figure("winograd-head")
    tired_state, wide_state = data["last_words"].index("tired"), data["last_words"].index("wide")
    assert chapter.numbers("winograd-head") == data["text"]["numbers"] == text_lines(data, tired_state)

    wide = figure.locator('button[data-word="wide"]')
    assert wide.get_attribute("data-key-control") == "Enter"
    mark_element(wide)
    wide.focus()
    wide.press("Enter")
    expect(wide).to_have_attribute("aria-pressed", "true")
    expect_same_node_focused(chapter.page)
    assert chapter.numbers("winograd-head") == text_lines(data, wide_state)
    mode = data["modes"]["wide"]
    street = round(mode["weights"][mode["words"].index("street")] * 100)
    label = f"With “wide”, “it” puts {street}% of its attention on “street”"
    assert data["text"]["states"][wide_state]["label"] == label
    expect(figure.locator("svg[role=img]")).to_have_attribute("aria-label", label)

    tired = figure.locator('button[data-word="tired"]')
    tired.scroll_into_view_if_needed()
    chapter.page.touchscreen.tap(*centre(tired))
    expect(tired).to_have_attribute("aria-pressed", "true")
    assert chapter.numbers("winograd-head") == text_lines(data, tired_state)
    expect(figure.locator("svg[role=img]")).to_have_attribute("aria-label", data["text"]["states"][tired_state]["label"])
    assert chapter.page_errors == []


def test_table_shows_the_six_numbers_of_each_word(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE)
    chapter.wait_prerendered()
    data = compute(parse("winograd-head"))
    figure = chapter.figure("winograd-head")
    figure.locator(".figure-view summary").click()  # the view's own, not the Numbers disclosure
    rows = figure.locator("tbody tr")
    expect(rows).to_have_count(len(data["modes"]["tired"]["words"]))
    it = data["it"]
    cells = rows.nth(it).locator("td").all_text_contents()
    assert cells == [f"{v:.1f}" for v in data["modes"]["tired"]["vectors"][it]]
    assert len(cells) == len(data["features"]) == 6

