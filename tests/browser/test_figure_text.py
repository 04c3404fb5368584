"""Figures with room: in every live view of every chapter, at 375 and 1280 px, no SVG text is drawn
smaller than 12 px and no two labels overlap (their boxes, rotated as drawn, are intersected)."""
from __future__ import annotations

import pytest

from .conftest import CDN, chapter_pages, draw_every_figure

MIN_PX = 12

# Each text's box in its own coordinates, turned into the screen quad it is drawn as (rotation
# included), then separating-axis tests between every two quads of one figure.
FIND = """(minPx) => {
  const quad = (t) => { const b = t.getBBox(), m = t.getScreenCTM();
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
      .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]); };
  const apart = (p, q) => [p, q].some((poly) => poly.some((a, i) => {
    const b = poly[(i + 1) % 4], nx = a[1] - b[1], ny = b[0] - a[0];
    const span = (s) => s.map(([x, y]) => x * nx + y * ny);
    const sp = span(p), sq = span(q), gap = 0.5 * Math.hypot(nx, ny);
    return Math.max(...sp) <= Math.min(...sq) + gap || Math.max(...sq) <= Math.min(...sp) + gap; }));
  const out = {};
  for (const fig of document.querySelectorAll("[data-figure]")) {
    const texts = [...fig.querySelectorAll(".figure-view svg text")]
      .filter((t) => t.getClientRects().length && t.textContent.trim() && getComputedStyle(t).visibility !== "hidden");
    const found = [];
    for (const t of texts) {
      const m = t.getScreenCTM(), px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      if (px < minPx - 0.05) { found.push(`"${t.textContent.trim()}" at ${px.toFixed(1)} px`); break; }
    }
    const quads = texts.map(quad);
    outer: for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++)
      if (!apart(quads[i], quads[j])) { found.push(`"${texts[i].textContent.trim()}" overlaps "${texts[j].textContent.trim()}"`); break outer; }
    if (found.length) out[fig.dataset.figure] = found.join("; ");
  }
  return out;
}"""


@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize("page", chapter_pages())
def test_figure_text_is_large_enough_and_never_overlaps(new_context, base_url, page, width):
    tab = new_context(viewport={"width": width, "height": 800}).new_page()
    tab.route(CDN, lambda route: route.abort())
    tab.goto(base_url + page)
    draw_every_figure(tab)
    found = tab.evaluate(FIND, MIN_PX)
    assert found == {}, f"{page} at {width}px: cramped figure text: {found}"
