"""tiled-attention in the browser: the slider (keyboard), Next (mouse) and Previous (touch) step through
the engine's tiles; the framed tile, its rows' running max and sum, and the key numbers follow the model."""
from __future__ import annotations

from ..conftest import expect
from .helpers import PhoneVisit

PAGE = "11-the-price-of-looking-everywhere.html"


def test_stepping_through_the_tiles(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, "tiled-attention")
    data, figure = visit.data, visit.figure
    steps = data["steps"]
    visit.opens_at(0)
    masked = sum(map(sum, data["masked"]))
    expect(figure.locator(".ta-masked")).to_have_count(masked)

    def unmasked(i):
        (r0, r1), (c0, c1) = steps[i]["rows"], steps[i]["cols"]
        return sum(not data["masked"][r][c] for r in range(r0, r1) for c in range(c0, c1))

    def shows(i):
        visit.shows(i)
        expect(figure.locator(".ta-current")).to_have_count(unmasked(i))
        expect(figure.locator(".ta-rows li").first).to_have_text(data["text"]["states"][i]["numbers"][1])
        expect(figure.locator("output")).to_have_text(data["readouts"][i])

    slider = figure.locator('input[type="range"]')
    visit.keys(slider, "ArrowRight", None)
    shows(1)
    figure.get_by_role("button", name="Next tile").click()
    shows(2)
    visit.taps(figure.get_by_role("button", name="Previous tile"), None)
    shows(1)
    slider.focus()
    slider.press("End")
    last = len(steps) - 1
    shows(last)
    expect(figure.get_by_role("button", name="Next tile")).to_be_disabled()
    # At the end the panel adds the engine's check against plain attention.
    expect(figure.locator(".ta-rows li").last).to_have_text(data["text"]["fixed"][-1])
    expect(figure.locator(".ta-done")).to_have_count(data["allowed"] - unmasked(last))  # every other tile is done
    visit.fits()
