"""circuits in the browser: the view radios (keyboard, mouse, touch) show each view's grids and the
model's key numbers; a tapped cell prints the model's value; fits 375 px."""
from __future__ import annotations

from engine.figures.fmt import fixed

from ..conftest import expect
from .helpers import PhoneVisit

PAGE = "12-what-attention-is-and-is-not.html"
NAME = "circuits"


def test_views_by_keyboard_mouse_and_touch(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, NAME)
    data, figure = visit.data, visit.figure
    start = data["start"]
    visit.opens_at(start)
    panels = figure.locator(".ci-panels")
    expect(panels.nth(start)).to_be_visible()
    expect(panels.nth(start).locator("caption")).to_have_text([p["title"] for p in data["views"][start]["panels"]])

    key = figure.locator("[data-key-control]")  # the checked radio: its key moves to the next view
    key.press(key.get_attribute("data-key-control"))
    expect(figure.locator("input[type=radio]").nth(start + 1)).to_be_checked()
    visit.shows(start + 1)
    expect(panels.nth(start)).to_be_hidden()
    expect(panels.nth(start + 1).locator("caption").first).to_have_text("W_Q M")

    trained = len(data["views"]) - 1
    visit.taps(figure.locator(".ci-views label").nth(trained), trained)
    expect(figure.locator("input[type=radio]").nth(trained)).to_be_checked()

    panel = data["views"][trained]["panels"][0]
    i, j = panel["rows"].index("dog"), panel["cols"].index("sat")
    cell = panels.nth(trained).locator("table").first.locator("tbody tr").nth(i).locator("td").nth(j)
    visit.taps(cell, None)
    expect(figure.locator(".ci-readout")).to_have_text(f"{panel['title']}: dog × sat = {fixed(panel['values'][i][j])}")

    figure.locator(".ci-views label").nth(0).click()
    visit.shows(0)
    expect(figure.locator(".ci-readout")).to_have_text("")
    visit.fits()
