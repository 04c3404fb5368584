"""Light and dark (prefers-color-scheme): the page and the live views take the scheme's palette from
theme/palette.toml, and a static fallback stays a light card. Chapters 1, 5 and 9 are photographed in
both schemes at 375 and 1280 px under test-output/screenshots/ (for a person to compare)."""
from __future__ import annotations

import pytest

from builder import palette
from tests.conftest import ROOT

from .conftest import CDN, draw_every_figure

SHOTS = ROOT / "test-output" / "screenshots"
PAGES = ("01-why-attention.html", "05-what-gets-passed-along.html", "09-learning-to-look.html")


def _rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [375, 1280])
def test_pages_and_views_take_the_schemes_palette(new_context, base_url, scheme, width):
    colours = palette.load() if scheme == "light" else palette.load_dark()
    tab = new_context(viewport={"width": width, "height": 900}, color_scheme=scheme).new_page()
    tab.route(CDN, lambda route: route.abort())
    SHOTS.mkdir(parents=True, exist_ok=True)
    for page in PAGES:
        tab.goto(base_url + page)
        draw_every_figure(tab)
        tab.evaluate("document.fonts.ready")
        tab.screenshot(path=SHOTS / f"{page[:2]}-{scheme}-{width}.png", full_page=True)
        found = tab.evaluate("""() => ({
          bg: getComputedStyle(document.body).backgroundColor,
          ink: getComputedStyle(document.body).color,
          figure: getComputedStyle(document.querySelector(".figure-body")).backgroundColor,
          tick: [...document.querySelectorAll(".figure-plot .tick, .figure-plot .axis-label")].map((t) => getComputedStyle(t).fill)[0] ?? null,
        })""")
        assert found["bg"] == _rgb(colours["bg"]) and found["ink"] == _rgb(colours["ink"]), (page, found)
        assert found["figure"] == _rgb(colours["surface"]), (page, found)
        if found["tick"] is not None:
            assert found["tick"] == _rgb(colours["muted"]), (page, found)


def test_a_fallback_stays_a_light_card_in_the_dark(new_context, base_url):
    tab = new_context(color_scheme="dark", java_script_enabled=False).new_page()
    tab.goto(base_url + PAGES[1])
    img = tab.locator(".figure-fallback img").first
    assert img.evaluate("(i) => getComputedStyle(i).backgroundColor") == _rgb(palette.load_dark()["paper"])
