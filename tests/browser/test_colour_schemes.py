"""Light and dark (prefers-color-scheme): the stylesheet's colours are palette roles, and the static
fallbacks take the scheme's palette from theme/palette.toml, on screen and in print. Chapters 1, 5 and 9
are photographed without JavaScript in both schemes at 375 and 1280 px, under test-output/screenshots/
(for a person to compare); test_every_page.py checks and photographs the pages with their views."""
from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from builder import palette
from tests.conftest import PALETTE, ROOT

from .conftest import rgb, wait_for_fallback

SHOTS = ROOT / "test-output" / "screenshots"
PAGES = ("01-why-attention.html", "05-what-gets-passed-along.html", "09-learning-to-look.html")


def test_css_colours_come_from_the_palette(site):
    """Every colour in the built site.css is a palette role: no literal colour outside the :root block the
    build writes from theme/palette.toml, and every custom property a rule uses without a fallback is
    defined (one with a fallback, like --share, is set per element by a view)."""
    css = next(site.rglob("site.css")).read_text(encoding="utf-8")
    palette = re.match(r"/\* theme/palette\.toml \*/\n:root \{\n(.*?)\n\}\n"
                       r"@media \(prefers-color-scheme: dark\) \{\n  :root \{\n.*?\n  \}\n\}\n", css, re.S)
    assert palette, "site.css does not open with the palette block"
    rules = css[palette.end():]
    literal = re.findall(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(", rules)
    assert literal == [], f"colours written outside the palette: {literal}"
    defined = set(re.findall(r"--([a-z][a-z0-9-]*)\s*:", css))
    used = set(re.findall(r"var\(--([a-z][a-z0-9-]*)\s*\)", rules))
    assert used - defined == set(), f"custom properties used but never defined: {sorted(used - defined)}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [375, 1280])
def test_fallbacks_take_the_schemes_palette(new_context, base_url, scheme, width):
    """Without JavaScript every figure shows its fallback <img>: each is drawn on the scheme's surface
    (a tenth of it at least) in the scheme's ink; the pages are photographed as they read."""
    colours = palette.load(PALETTE) if scheme == "light" else palette.load_dark(PALETTE)
    tab = new_context(viewport={"width": width, "height": 900}, color_scheme=scheme, java_script_enabled=False).new_page()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for page in PAGES:
        tab.goto(base_url + page)
        imgs = tab.locator(".figure-fallback img")
        assert imgs.count() > 0, page
        for k in range(imgs.count()):
            wait_for_fallback(tab, imgs.nth(k))
            shot = Image.open(io.BytesIO(imgs.nth(k).screenshot())).convert("RGB")
            counts = sorted(shot.getcolors(shot.width * shot.height), reverse=True)
            ground = sum(n for n, c in counts if c == rgb(colours["surface"]))
            assert ground > 0.1 * shot.width * shot.height, (page, k, counts[:3])
            # its text: the grey farthest from the ground lies on the ink's side (small text never
            # reaches the full ink once anti-aliased)
            ground, ink = rgb(colours["surface"])[0], rgb(colours["ink"])[0]  # greys: one channel says it
            text = max((c for _, c in counts if max(c) - min(c) < 10), key=lambda c: abs(c[0] - ground))
            assert abs(text[0] - ink) < abs(ground - ink) / 2, (page, k, text)
        tab.screenshot(path=SHOTS / f"{page[:2]}-fallbacks-{scheme}-{width}.png", full_page=True)


def test_a_printed_fallback_takes_the_light_palette(new_context, base_url):
    """Paper is light: printed from a dark screen, a fallback is drawn on the light surface."""
    tab = new_context(color_scheme="dark", java_script_enabled=False).new_page()
    tab.emulate_media(media="print")
    tab.goto(base_url + PAGES[1])
    img = tab.locator(".figure-fallback img").first
    wait_for_fallback(tab, img)
    shot = Image.open(io.BytesIO(img.screenshot())).convert("RGB")
    count = {c: n for n, c in shot.getcolors(shot.width * shot.height)}
    area = shot.width * shot.height
    assert count.get(rgb(palette.load(PALETTE)["surface"]), 0) > 0.1 * area
    assert count.get(rgb(palette.load_dark(PALETTE)["surface"]), 0) < 0.01 * area  # the page behind its rounded corners
