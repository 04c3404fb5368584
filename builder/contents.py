"""The contents page's opening figure: the first chapter's first figure, so the book shows what it is
about, and invites a first touch, on its first screen.

It is the figure as its chapter renders it (drawing, view, data and numbers), so it draws at once
from its embedded data and reads without JavaScript, as on its page; the contents page gives it a
caption of its own. Only a figure whose view never asks Python: the contents page loads none.
"""
from __future__ import annotations

import re

from markupsafe import Markup

from .directives import REGISTRY

# A figure element as builder/figures.py and its template write it, up to its caption: a figure
# holds no <figure> and its caption starts the first <figcaption> after the element's start.
RE_FIGURE = re.compile(r'<figure class="figure[^"]*" data-figure="[a-z0-9-]+"[^>]*>.*?(?=<figcaption>)', re.S)


def opening_figure(chapter) -> Markup | None:
    """`chapter`'s first figure without Python, up to its caption (the page adds its own and closes it)."""
    for fig in RE_FIGURE.finditer(chapter.html):
        head = fig.group(0)
        if "data-live" not in head[: head.index(">")]:
            return Markup(head)
    return None


def scripts(opening: Markup | None) -> tuple[str, ...]:
    """The script elements the contents page loads for its figure (the figure directive's), if it has one."""
    return REGISTRY["figure"].scripts if opening else ()
