"""access-chart in the browser: the toggle and the slider show the engine's masks and counts."""
from __future__ import annotations

from ..conftest import expect
from .helpers import PhoneVisit

PAGE = "06-no-peeking-ahead.html"


def test_toggle_by_keyboard_slider_by_touch(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, "access-chart")
    data, figure = visit.data, visit.figure
    n = len(data["words"])
    visit.opens_at(n - 1)
    expect(figure.locator(".grid-cell.readable")).to_have_count(data["counts"]["causal"][n - 1])

    both = figure.locator('button[data-mode="bidirectional"]')
    visit.keys(both, "Enter", 2 * n - 1)
    expect(both).to_have_attribute("aria-pressed", "true")
    expect(figure.locator(".grid-cell.readable")).to_have_count(n * n)

    causal = figure.locator('button[data-mode="causal"]')
    visit.taps(causal, None)
    expect(causal).to_have_attribute("aria-pressed", "true")
    slider = figure.locator('input[type="range"]')
    slider.focus()
    for _ in range(n - 4):
        slider.press("ArrowLeft")
    expect(slider).to_have_value("4")
    visit.shows(3)
    expect(figure.locator(".grid-cell.readable")).to_have_count(data["counts"]["causal"][3])
    expect(figure.locator("svg[role=img]")).to_have_attribute("aria-label", data["text"]["states"][3]["label"])
    visit.fits()
