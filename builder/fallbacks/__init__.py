"""Static fallbacks: one module per figure drawing the model's output with matplotlib.

Each module has `draw(fig, data)`. What a reader reads about the figure (alt text, key
numbers) is not drawn here: the model computes it once, in `data["text"]`.
"""
from __future__ import annotations

import importlib
import io
import textwrap
import xml.etree.ElementTree as etree

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ..palette import load as load_palette  # noqa: E402

COLOURS = load_palette()  # the pages' palette: a fallback and its live view share every colour

STYLE = {
    "svg.hashsalt": "attention-explorable",  # fixed ids: byte-identical SVG on every build
    "svg.fonttype": "none",  # keep text as text: smaller, selectable, readable by screen readers
    # Laid out with DejaVu Sans (matplotlib's own font), and named in the SVG with the sans-serif
    # fonts of site.css's --font-ui after it, so a reader without DejaVu gets a sans-serif, not Times.
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Segoe UI", "Roboto", "Helvetica Neue", "Noto Sans", "Liberation Sans", "Arial"],
    "font.size": 10,
    "text.parse_math": False,  # labels are data: a '$' in one is a dollar, not mathtext to parse
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def legend(data: dict, width: int = 110) -> str:
    """The model's legend (text.legend), the sentence its view shows under the drawing, in lines that fit."""
    return textwrap.fill(data["text"]["legend"], width)


def module(name: str):
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def render_svg(name: str, data: dict) -> bytes:
    """The figure's fallback as SVG bytes, identical for identical data."""
    with matplotlib.rc_context(STYLE):
        fig = plt.figure(figsize=(6.4, 3.4))
        try:
            module(name).draw(fig, data)
            buf = io.BytesIO()
            fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
        finally:
            plt.close(fig)
    svg = buf.getvalue()
    etree.fromstring(svg)  # ParseError (a ValueError) unless well-formed: no page may show a broken image
    return svg
