"""sinusoids in the browser: the slider (keyboard), a click and a tap on a row pick a position; the
bars' labels and the key numbers are the model's text for that position; it fits 375 px."""
from __future__ import annotations

from ..conftest import expect
from .helpers import PhoneVisit

PAGE = "08-where-words-are.html"


def _check(visit, pos):
    visit.shows(pos)
    state = visit.data["text"]["states"][pos]
    assert visit.figure.locator("svg text.sin-value").all_text_contents() == state["bars"]
    expect(visit.figure.locator("svg[role=img]")).to_have_attribute("aria-label", state["label"])
    expect(visit.figure.locator(".sin-bar.picked")).to_have_count(1)


def test_pick_a_position_by_keys_click_and_tap(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, "sinusoids")
    data, figure = visit.data, visit.figure
    start = data["position"]
    visit.opens_at(start)
    _check(visit, start)
    assert "8.00 with itself" in data["text"]["states"][start]["label"]

    slider = figure.locator('input[type="range"]')
    visit.keys(slider, "ArrowRight", None)
    expect(slider).to_have_value(str(start + 1))
    _check(visit, start + 1)

    rows = figure.locator("svg g.sin-row")
    rows.nth(2).locator("rect.sin-bar").click()
    expect(slider).to_have_value("2")
    _check(visit, 2)

    last = len(data["codes"]) - 1
    visit.taps(rows.nth(last).locator("rect.sin-bar"), None)
    expect(slider).to_have_value(str(last))
    _check(visit, last)
    visit.fits()
