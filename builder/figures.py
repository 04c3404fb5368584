"""Figure occurrences on a page: compute the model, draw the fallback, and the HTML around the view."""
from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape

from engine import figures as models
from . import fallbacks


@dataclass
class RenderedFigure:
    name: str
    line: int  # where the directive stands, for errors
    label: str  # "Figure 4.1"
    attributes: dict  # attributes of the <figure> element
    body_html: str  # embedded data, view, fallback, numbers
    svg_path: str  # dist-relative path of the fallback
    svg: bytes


class FigureCache:
    """Model outputs and fallback SVGs by (name, params); shared across rebuilds in `serve`."""

    def __init__(self):
        self._data: dict[str, dict] = {}
        self._svg: dict[str, bytes] = {}

    def data(self, name: str, params: dict | None) -> dict:
        key = json.dumps([name, params or {}], sort_keys=True)
        if key not in self._data:
            self._data[key] = models.compute(name, params)
        return self._data[key]

    def svg(self, name: str, data: dict) -> bytes:
        key = json.dumps(data, sort_keys=True)
        if key not in self._svg:
            self._svg[key] = fallbacks.render_svg(name, data)
        return self._svg[key]


def embed_json(data) -> str:
    """JSON that is safe inside <script>: no '</' can close the element early."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")


def render_figure(cache: FigureCache, use, chapter_number: int, index: int, page_slug: str) -> RenderedFigure:
    data = cache.data(use.argument, use.options)
    fb = fallbacks.module(use.argument)
    svg_path = f"figures/{page_slug}-{index}.svg"
    numbers = "".join(f"<li>{escape(n)}</li>" for n in fb.numbers(data))
    body = (
        f'<script type="application/json" class="figure-data">{embed_json(data)}</script>'
        f'<div class="figure-view"></div>'
        f'<div class="figure-fallback"><img src="{svg_path}" alt="{escape(fb.alt(data))}" loading="lazy"></div>'
        f'<ul class="figure-numbers" aria-label="Key numbers">{numbers}</ul>'
    )
    label = f"Figure {chapter_number}.{index}"
    attributes = {"class": "figure", "id": f"figure-{chapter_number}-{index}",
                  "data-figure": use.argument, "data-state": "static"}
    return RenderedFigure(use.argument, use.line, label, attributes, body, svg_path, cache.svg(use.argument, data))
