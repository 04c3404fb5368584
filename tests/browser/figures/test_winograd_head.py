"""winograd-head in the browser: the toggle switches the sentence's ending; the key numbers and the
plot's label are the model's text for the ending shown."""
from __future__ import annotations

from ..conftest import expect
from .helpers import PhoneVisit, opened

PAGE = "01-why-attention.html"


def test_toggle_by_keyboard_and_touch_shows_the_engine_weights(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, "winograd-head")
    data, figure = visit.data, visit.figure
    tired_state, wide_state = data["last_words"].index("tired"), data["last_words"].index("wide")
    visit.opens_at(tired_state)

    wide = figure.locator('button[data-word="wide"]')
    visit.keys(wide, "Enter", wide_state)
    expect(wide).to_have_attribute("aria-pressed", "true")
    mode = data["modes"]["wide"]
    street = round(mode["weights"][mode["words"].index("street")] * 100)
    label = f"With “wide”, “it” puts {street}% of its attention on “street”"
    assert data["text"]["states"][wide_state]["label"] == label
    expect(figure.locator("svg[role=img]")).to_have_attribute("aria-label", label)

    tired = figure.locator('button[data-word="tired"]')
    visit.taps(tired, tired_state)
    expect(tired).to_have_attribute("aria-pressed", "true")
    expect(figure.locator("svg[role=img]")).to_have_attribute("aria-label", data["text"]["states"][tired_state]["label"])
    visit.fits()


def test_table_shows_the_six_numbers_of_each_word(open_chapter, base_url):
    chapter, data, figure = opened(open_chapter, base_url + PAGE, "winograd-head")
    figure.locator(".figure-view summary").click()  # the view's own, not the Numbers disclosure
    rows = figure.locator("tbody tr")
    expect(rows).to_have_count(len(data["modes"]["tired"]["words"]))
    it = data["it"]
    cells = rows.nth(it).locator("td").all_text_contents()
    assert cells == [f"{v:.1f}" for v in data["modes"]["tired"]["vectors"][it]]
    assert len(cells) == len(data["features"]) == 6

