"""Static fallbacks: one module per figure drawing the model's output with matplotlib.

Each module has `draw(fig, data)`. What a reader reads about the figure (alt text, key
numbers) is not drawn here: the model computes it once, in `data["text"]`.

A fallback follows the reader's colour scheme as the live views do. Pages show it as an <img>
(the CSP's style-src 'self' forbids the style attributes an inline SVG from matplotlib is made
of), and an image cannot see the page's CSS, so each SVG carries the palette itself: drawings use
`COLOURS[role]`, stand-in colours one per role, which `render_svg` rewrites as `var(--role)`;
`in_colours` defines them in a <style> of the SVG for both schemes of the theme's palette.toml,
as the build writes the drawing (the cached drawing holds no colour). Browsers evaluate that
<style>'s prefers-color-scheme with the <img>'s used color-scheme (site.css: light dark), so the
image turns dark with the page and stays light where a page asks for light (print).
"""
from __future__ import annotations

import hashlib
import importlib
import io
import re
import textwrap
import xml.etree.ElementTree as etree
from pathlib import Path as FilePath

import numpy as np

from ..errors import BuildError


class _StandIns(dict):
    """One stand-in colour per role, unlike any colour matplotlib picks by itself, so that after
    drawing each is known for the role it stands for (several roles share a light colour: key and
    token-blue). Made from the role's name, so a drawing is the same bytes whichever drew first."""

    def __missing__(self, role: str) -> str:
        colour, taken = "#fe" + hashlib.sha256(role.encode()).hexdigest()[:4], {c: r for r, c in self.items()}
        if colour in taken:
            raise ValueError(f"the colour roles '{role}' and '{taken[colour]}' share a stand-in: rename one")
        self[role] = colour
        return colour


COLOURS = _StandIns()

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
    # matplotlib's own colours (black text and axes, a white ground) in the palette's roles, as the views draw them
    "figure.facecolor": COLOURS["surface"],
    "axes.facecolor": COLOURS["surface"],
    "axes.edgecolor": COLOURS["axis"],
    "axes.labelcolor": COLOURS["ink"],
    "text.color": COLOURS["ink"],
    "xtick.color": COLOURS["axis"],
    "ytick.color": COLOURS["axis"],
    "xtick.labelcolor": COLOURS["muted"],
    "ytick.labelcolor": COLOURS["muted"],
    "grid.color": COLOURS["grid"],
    "legend.edgecolor": COLOURS["rule"],
    "patch.edgecolor": COLOURS["ink"],
    "hatch.color": COLOURS["guide"],
}


def cells(ax, values, colour: str, *, lim: float = 1.0, negative: str | None = None, base: str | None = None,
          aspect: str = "equal") -> None:
    """A grid of cells, row i and column j at (j, i) as imshow puts them, each tinted with the role
    `colour` in proportion to its value (value / lim, as a colormap from the surface to the role would),
    or with the role `negative` below 0; `base` fills every cell first. Vector cells, not imshow's raster,
    so that their colours follow the scheme; cells of one tint (to 1%) are one path, to keep the SVG small."""
    from matplotlib.collections import PathCollection
    from matplotlib.colors import to_rgba
    from matplotlib.path import Path

    v = np.atleast_2d(np.asarray(values, dtype=float))  # (rows, cols)
    rows, cols = v.shape
    t = np.round(np.clip(v / lim, -1.0, 1.0), 2)  # (rows, cols) signed share of the role
    box = lambda i, j: Path([(j - .5, i - .5), (j + .5, i - .5), (j + .5, i + .5), (j - .5, i + .5), (0, 0)],  # noqa: E731
                            [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY])
    groups: dict[tuple[str, float], list[Path]] = {}
    if base is not None:
        groups[(base, 1.0)] = [box(i, j) for i in range(rows) for j in range(cols)]
    for (i, j), x in np.ndenumerate(t):
        if x != 0:
            groups.setdefault((colour if x > 0 or negative is None else negative, abs(float(x))), []).append(box(i, j))
    ax.add_collection(PathCollection([Path.make_compound_path(*paths) for paths in groups.values()],
                                     facecolors=[to_rgba(COLOURS[role], alpha) for role, alpha in groups],
                                     edgecolors="none", linewidths=0))
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_aspect(aspect)


def legend(data: dict, width: int = 110) -> str:
    """The model's legend (text.legend), the sentence its view shows under the drawing, in lines that fit."""
    return textwrap.fill(data["text"]["legend"], width)


def module(name: str):
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def source(name: str) -> FilePath:
    return FilePath(__file__).with_name(f"{name.replace('-', '_')}.py")


RE_HEX = re.compile(r"#[0-9a-fA-F]{6}\b")
RE_STYLE = re.compile(r'(?:style|fill|stroke)="([^"]*)"')
RE_PAINT = re.compile(r"((?:fill|stroke|stop-color|flood-color|lighting-color|color)\s*(?::\s*|=\s*\"))(#[0-9a-fA-F]{6})\b")


RE_ROLE_PAINT = re.compile(r"(?:fill|stroke|stop-color|flood-color|lighting-color|color)\s*(?::\s*|=\s*\")var\(--([a-z][a-z0-9-]*)\)")
STYLE_TAG = '<style type="text/css">'


def follow_scheme(name: str, svg: str) -> str:
    """matplotlib's SVG with every colour a `var(--role)`; a colour not drawn from COLOURS, or a
    raster image, is a BuildError at the fallback."""
    if "<image" in svg:
        raise BuildError(source(name), None, f"figure '{name}': the fallback draws a raster image (imshow), whose "
                                             "colours cannot follow the colour scheme: draw cells with cells()")
    roles = {colour: role for role, colour in COLOURS.items()}

    def role(m: re.Match) -> str:
        colour = m.group(2).lower()
        if colour not in roles:
            raise BuildError(source(name), None, f"figure '{name}': the fallback draws in {colour}, which is no "
                                                 "colour of theme/palette.toml: draw with COLOURS[role]")
        return f"{m.group(1)}var(--{roles[colour]})"

    body = RE_PAINT.sub(role, svg)
    stray = next((m for attr in RE_STYLE.findall(body) for m in RE_HEX.finditer(attr)), None)  # not the text: labels are data
    if stray:
        raise BuildError(source(name), None, f"figure '{name}': the fallback's SVG holds a colour, {stray.group(0)}, "
                                             "where none can be given a role")
    if STYLE_TAG not in body:
        raise BuildError(source(name), None, f"figure '{name}': matplotlib's SVG has no <style> to hold the palette")
    return body


def in_colours(name: str, svg: bytes, light: dict[str, str], dark: dict[str, str]) -> bytes:
    """The drawing with the roles it uses defined for both schemes in its <style>; a role the palette
    lacks is a BuildError at the fallback."""
    text = svg.decode("utf-8")
    used = {*RE_ROLE_PAINT.findall(text), "ink"}  # matplotlib writes no fill for black: what it leaves unfilled is ink
    unknown = sorted(used - set(light))
    if unknown:
        raise BuildError(source(name), None, f"figure '{name}': the fallback draws in '{unknown[0]}', which is no "
                                             "role of theme/palette.toml")
    props = lambda colours: ";".join(f"--{r}:{colours[r]}" for r in sorted(used))  # noqa: E731
    style = f"svg{{{props(light)};fill:var(--ink)}}@media (prefers-color-scheme: dark){{svg{{{props(dark)}}}}}"
    return text.replace(STYLE_TAG, STYLE_TAG + style, 1).encode("utf-8")


def render_svg(name: str, data: dict) -> bytes:
    """The figure's fallback as SVG bytes, identical for identical data, its colours palette roles.
    matplotlib is imported here, on the first drawing: it is most of the builder's import time, and a
    build stopped by a mistake in prose (checked before any figure) never draws."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(STYLE):
        fig = plt.figure(figsize=(6.4, 3.4))
        try:
            module(name).draw(fig, data)
            buf = io.BytesIO()
            fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
        finally:
            plt.close(fig)
    svg = follow_scheme(name, buf.getvalue().decode("utf-8")).encode("utf-8")
    etree.fromstring(svg)  # ParseError (a ValueError) unless well-formed: no page may show a broken image
    return svg
