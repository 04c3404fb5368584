"""word-order in the browser: the positions toggle (keyboard, mouse, touch) switches between the
engine's two settings; the tables show the model's weights and outputs, and fit 375 px."""
from __future__ import annotations

from engine.figures import compute, parse
from engine.figures.fmt import fill

from ..conftest import expect
from .helpers import centre, expect_same_node_focused, mark_element, text_lines

PAGE = "08-where-words-are.html"


def _shown(figure, data, setting):
    """The weight cells and output cells the view shows equal the model's parts filled from its data."""
    parts, mode = data["text"]["parts"], data["modes"][setting]
    cells = figure.locator("table.word-order-grid tbody td").all_text_contents()
    assert cells == [fill(parts["cell"], {"v": v}) for run in mode["sentences"] for row in run["weights"] for v in row]
    outputs = figure.locator("table.word-order-outputs tbody tr")
    for w, word in enumerate(data["words"]):
        row = outputs.nth(w).locator("td").all_text_contents()
        expected = [", ".join(fill(parts["share"], {"word": data["words"][i], "v": v}) for i, v in enumerate(out))
                    for out in mode["by_word"][w]]
        assert row[:2] == expected
        assert row[2] == ("same" if mode["same"][w] else "differs")


def test_toggle_positions_by_keyboard_mouse_and_touch(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE, has_touch=True, viewport={"width": 375, "height": 800})
    chapter.wait_prerendered()
    data = compute(parse("word-order"))
    figure = chapter.figure("word-order")
    off, on = data["settings"].index("off"), data["settings"].index("on")
    assert chapter.numbers("word-order") == data["text"]["numbers"] == text_lines(data, off)
    _shown(figure, data, "off")
    expect(figure.locator(".word-order-label")).to_have_text(data["text"]["states"][off]["label"])

    on_button = figure.locator('button[data-setting="on"]')
    assert on_button.get_attribute("data-key-control") == "Enter"
    mark_element(on_button)
    on_button.focus()
    on_button.press("Enter")
    expect(on_button).to_have_attribute("aria-pressed", "true")
    expect_same_node_focused(chapter.page)
    assert chapter.numbers("word-order") == text_lines(data, on)
    _shown(figure, data, "on")
    expect(figure.locator(".word-order-label")).to_have_text(data["text"]["states"][on]["label"])

    off_button = figure.locator('button[data-setting="off"]')
    off_button.scroll_into_view_if_needed()
    chapter.page.touchscreen.tap(*centre(off_button))
    expect(off_button).to_have_attribute("aria-pressed", "true")
    assert chapter.numbers("word-order") == text_lines(data, off)
    _shown(figure, data, "off")

    on_button.click()
    expect(on_button).to_have_attribute("aria-pressed", "true")
    assert chapter.numbers("word-order") == text_lines(data, on)
    # Nothing in the figure is wider than the phone's screen.
    assert figure.evaluate("f => f.scrollWidth <= f.clientWidth + 1")
    assert chapter.page.evaluate("document.documentElement.scrollWidth") <= 375
    assert chapter.page_errors == []
