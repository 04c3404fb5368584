"""word-order in the browser: the positions toggle (keyboard, mouse, touch) switches between the
engine's two settings; the tables show the model's weights and outputs, and fit 375 px."""
from __future__ import annotations

from engine.figures.fmt import fill

from ..conftest import expect
from .helpers import PhoneVisit

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
    visit = PhoneVisit(open_chapter, base_url + PAGE, "word-order")
    data, figure = visit.data, visit.figure
    off, on = data["settings"].index("off"), data["settings"].index("on")
    visit.opens_at(off)
    _shown(figure, data, "off")
    expect(figure.locator(".word-order-label")).to_have_text(data["text"]["states"][off]["label"])

    on_button = figure.locator('button[data-setting="on"]')
    visit.keys(on_button, "Enter", on)
    expect(on_button).to_have_attribute("aria-pressed", "true")
    _shown(figure, data, "on")
    expect(figure.locator(".word-order-label")).to_have_text(data["text"]["states"][on]["label"])

    off_button = figure.locator('button[data-setting="off"]')
    visit.taps(off_button, off)
    expect(off_button).to_have_attribute("aria-pressed", "true")
    _shown(figure, data, "off")

    on_button.click()
    expect(on_button).to_have_attribute("aria-pressed", "true")
    visit.shows(on)
    visit.fits()
