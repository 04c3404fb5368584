"""Formulas typeset in the series' own math font at 375 and 1280 px: a root with its bar, a fraction
with its rule, a subscript and a superscript stacked on one base, a matrix in stretched brackets,
and a sum with its limits below and above it.

Each formula is photographed (under test-output/screenshots/, for a person to look at) and the
photograph is checked where a missing math font shows: the bar over a root and the fraction rule
are rows of ink, which a font without an OpenType MATH table does not draw.
"""
from __future__ import annotations

import io

import pytest

from tests.conftest import ROOT

from .conftest import expect

SHOTS = ROOT / "test-output" / "screenshots"
FORMULAS = {
    "root": r"\sqrt{n + 1}",
    "fraction": r"\frac{QK^\top}{\sqrt{d_k}}",
    "scripts": r"x_i^2",
    "matrix": r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
    "sum": r"\sum_{j=1}^{n} w_{ij}",
}
PAGE = "# Formulas\n\n" + "\n\n".join(f"$${latex}$$" for latex in FORMULAS.values()) + "\n"


@pytest.fixture(scope="module")
def url(scratch_page) -> str:
    return scratch_page(PAGE)


def _ink_rows(png: bytes, box: dict, left: float, right: float) -> list[float]:
    """For each pixel row of the element's photograph, the share of dark pixels between x = left
    and right (page coordinates)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("L")
    scale = image.width / box["width"]
    x0, x1 = int((left - box["x"]) * scale), int((right - box["x"]) * scale)
    rows = []
    for y in range(image.height):
        dark = sum(1 for x in range(max(x0, 0), min(x1, image.width)) if image.getpixel((x, y)) < 128)
        rows.append(dark / max(x1 - x0, 1))
    return rows


BOXES = """(el) => { const b = (e) => { const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height, right: r.right, bottom: r.bottom }; };
  return { self: b(el), kids: [...el.children].map(b) }; }"""


@pytest.mark.parametrize("width", [375, 1280])
def test_formulas_typeset_in_the_series_math_font(new_context, url, width):
    page = new_context(viewport={"width": width, "height": 900}, device_scale_factor=2).new_page()
    page.goto(url)
    displays = page.locator(".math-display")
    expect(displays).to_have_count(len(FORMULAS))
    page.evaluate("document.fonts.ready")
    assert page.evaluate("""() => [...document.fonts].some((f) => f.family.replace(/"/g, "") === "Series Math"
                                                             && f.status === "loaded")"""), "the math font never loaded"
    assert page.evaluate("getComputedStyle(document.querySelector('math')).fontFamily").startswith('"Series Math"')
    SHOTS.mkdir(parents=True, exist_ok=True)
    for (name, _), display in zip(FORMULAS.items(), displays.all()):
        display.screenshot(path=SHOTS / f"math-{name}-{width}.png")
        assert display.evaluate("(d) => d.scrollWidth <= d.clientWidth"), f"{name} scrolls at {width}px"

    root = displays.nth(0).locator("msqrt")
    boxes = root.evaluate(BOXES)
    radicand = boxes["kids"][0]
    rows = _ink_rows(root.screenshot(), boxes["self"], radicand["x"], radicand["right"])
    above = rows[:int((radicand["y"] - boxes["self"]["y"]) * len(rows) / boxes["self"]["height"]) + 1]
    assert max(above, default=0) > 0.9, "the root has no bar over its radicand"

    fraction = displays.nth(1).locator("mfrac")
    boxes = fraction.evaluate(BOXES)
    top, bottom = boxes["kids"]
    rows = _ink_rows(fraction.screenshot(), boxes["self"], boxes["self"]["x"] + 1, boxes["self"]["right"] - 1)
    scale = len(rows) / boxes["self"]["height"]
    between = rows[int((top["bottom"] - boxes["self"]["y"]) * scale):int((bottom["y"] - boxes["self"]["y"]) * scale) + 1]
    assert max(between, default=0) > 0.9, "the fraction has no rule between numerator and denominator"

    base, sub, sup = displays.nth(2).locator("msubsup").evaluate(BOXES)["kids"]
    middle = base["y"] + base["height"] / 2
    assert sub["y"] + sub["height"] / 2 > middle > sup["y"] + sup["height"] / 2, (base, sub, sup)
    assert abs(sub["x"] - sup["x"]) < 2 and sub["x"] >= base["right"] - 1, "sub- and superscript are not stacked"

    matrix = displays.nth(3)
    cells = matrix.locator("mtd").evaluate_all("(tds) => tds.map((t) => t.getBoundingClientRect().toJSON())")
    assert len({round(c["y"]) for c in cells}) == 2 and len({round(c["x"]) for c in cells}) == 2, cells
    table = matrix.locator("mtable").evaluate("(t) => t.getBoundingClientRect().height")
    brackets = matrix.locator("mo").evaluate_all("(os) => os.map((o) => o.getBoundingClientRect().height)")
    assert len(brackets) == 2 and min(brackets) >= 0.9 * table, f"brackets do not stretch: {brackets} vs {table}"

    op, under, over = displays.nth(4).locator("munderover").evaluate(BOXES)["kids"]
    assert under["y"] >= op["bottom"] - 2 and over["bottom"] <= op["y"] + 2, "the sum's limits are not below and above"
