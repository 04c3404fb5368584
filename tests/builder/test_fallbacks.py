"""Static fallbacks follow the reader's colour scheme: every colour in a fallback SVG is a role of
theme/palette.toml, written as var(--role) and defined in the SVG for the light and the dark scheme;
a colour from anywhere else is a build error that names the fallback."""
from __future__ import annotations

import re
import types
import xml.etree.ElementTree as etree

import pytest

from builder import fallbacks, palette
from builder.errors import BuildError
from tests.conftest import PALETTE
from engine import figures as models

SVG_NS = "{http://www.w3.org/2000/svg}"
RE_DEFS = re.compile(r"--([a-z][a-z0-9-]*):(#[0-9a-f]{6})")


def _schemes(svg: bytes) -> tuple[dict, dict, str]:
    """(light roles, dark roles) defined in the SVG's <style>, and the SVG with that <style> left out."""
    root = etree.fromstring(svg)
    style = root.find(f"{SVG_NS}defs/{SVG_NS}style").text
    light, dark = style.split("@media (prefers-color-scheme: dark)")
    rest = svg.decode().replace(style, "")
    return dict(RE_DEFS.findall(light)), dict(RE_DEFS.findall(dark)), rest


@pytest.mark.parametrize("name", models.FIGURES)
def test_a_fallback_draws_in_the_palettes_roles_for_both_schemes(shared_figure_cache, series_given, name):
    drawing = shared_figure_cache.svg(shared_figure_cache.data(models.parse(name), series_given))
    svg = fallbacks.in_colours(name, drawing, palette.load(PALETTE), palette.load_dark(PALETTE))
    light, dark, rest = _schemes(svg)
    used = set(re.findall(r"var\(--([a-z][a-z0-9-]*)\)", rest))
    assert used and used <= set(light) == set(dark), name
    assert light == {r: palette.load(PALETTE)[r] for r in light} and dark == {r: palette.load_dark(PALETTE)[r] for r in dark}
    assert "<image" not in rest and not re.search(r"#[0-9a-fA-F]{6}\b|rgb\(", rest), name


def _draw(monkeypatch, draw):
    monkeypatch.setattr(fallbacks, "module", lambda name: types.SimpleNamespace(draw=draw))
    return fallbacks.render_svg("softmax-bars", {})


def test_a_colour_outside_the_palette_is_a_build_error_at_the_fallback(monkeypatch):
    with pytest.raises(BuildError) as err:
        _draw(monkeypatch, lambda fig, data: fig.subplots().plot([0, 1]))  # matplotlib's own first colour
    assert err.value.path.name == "softmax_bars.py" and "#1f77b4" in str(err.value)
    with pytest.raises(BuildError, match="raster"):
        _draw(monkeypatch, lambda fig, data: fig.subplots().imshow([[0, 1]], cmap="Oranges"))


def test_a_tint_keeps_its_role_and_says_how_much(monkeypatch):
    svg = _draw(monkeypatch, lambda fig, data: fallbacks.cells(fig.subplots(), [[0.5, -1.0]], "query", negative="key"))
    assert re.search(r"fill: var\(--query\); fill-opacity: 0\.5\b", svg.decode())
    assert "fill: var(--key)" in svg.decode()


def test_a_role_the_palette_lacks_is_a_build_error_at_the_fallback(monkeypatch):
    drawing = _draw(monkeypatch, lambda fig, data: fig.subplots().plot([0, 1], color=fallbacks.COLOURS["no-such-role"]))
    assert "var(--no-such-role)" in drawing.decode()
    with pytest.raises(BuildError, match="'no-such-role', which is no role") as err:
        fallbacks.in_colours("softmax-bars", drawing, palette.load(PALETTE), palette.load_dark(PALETTE))
    assert err.value.path.name == "softmax_bars.py"


def test_every_role_of_the_palette_has_a_stand_in_of_its_own():
    roles = palette.load(PALETTE)
    assert len({fallbacks.COLOURS[role] for role in roles}) == len(roles)
