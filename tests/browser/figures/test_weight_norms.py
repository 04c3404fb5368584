"""weight-norms in the browser: head radios and row buttons (keyboard, mouse, touch) show the model's
precomputed state for (head, row); bar labels are the model's numbers; fits 375 px."""
from __future__ import annotations

from ..conftest import expect
from .helpers import PhoneVisit

PAGE = "12-what-attention-is-and-is-not.html"
NAME = "weight-norms"


def test_heads_and_rows_by_keyboard_mouse_and_touch(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, NAME)
    data, figure = visit.data, visit.figure
    n = len(data["words"])
    h, i = data["start"]["head"], data["start"]["row"]
    visit.opens_at(h * n + i)
    expect(figure.locator(".wn-share .wn-num").first).to_have_text(f"{data['heads'][h]['shares'][i][0]:.2f}")

    key = figure.locator("[data-key-control]")  # the checked radio: the key moves to the other head
    key.press(key.get_attribute("data-key-control"))
    other = 1 - h
    expect(figure.locator("input[type=radio]").nth(other)).to_be_checked()
    visit.shows(other * n + i)

    rows = figure.locator(".wn-row")
    rows.nth(i).focus()
    rows.nth(i).press("ArrowRight")
    expect(rows.nth(i + 1)).to_be_focused()
    expect(rows.nth(i + 1)).to_have_attribute("aria-pressed", "true")
    visit.shows(other * n + i + 1)

    rows.nth(0).click()
    visit.shows(other * n)
    visit.taps(rows.nth(3), other * n + 3)
    visit.fits()
