"""`/// figure | name`: a live figure with YAML options and a Markdown caption.

    /// figure | softmax-temperature
        temperature: 2.0

    Caption, in **Markdown**.
    ///
"""
from __future__ import annotations

import xml.etree.ElementTree as etree

from engine.figures import FIGURES, module, parse
from ..errors import BuildError, unknown_name
from ..figures import draft_figure, render_figure
from .base import Directive


class Figure(Directive):
    """Its options are its model's Params; computing it runs the model and draws the fallback;
    its Markdown is the caption."""

    name, plural = "figure", "figures"
    summary = "A figure model's drawing, live where it can be, with its options in YAML and a caption."
    scripts = ('<script defer src="{assets}/js/no-views.js"></script>',
               '<script type="module" src="{assets}/js/figures.js" data-figure-views></script>')

    def check_argument(self, use, path):
        known = ", ".join(FIGURES)
        if not use.argument:
            raise BuildError(path, use.line, f"figure directive needs a name: '/// figure | name' (known: {known})")
        if use.argument not in FIGURES:
            raise BuildError(path, use.line, unknown_name("figure", use.argument, FIGURES, "known"))

    def read_options(self, use):
        return parse(use.argument, use.options)

    def option_names(self, use):
        return tuple(module(use.argument).Params.__dataclass_fields__)

    def compute(self, use, page):
        return render_figure(page.cache.figures, use, page.number, page.count(self.name), page.slug, page.given)

    def draft(self, use, page):
        """The figure's element with its id and label, and no data, drawing or given files yet."""
        return draft_figure(use, page.number, page.count(self.name))

    def needs_python(self, use):
        return use.computed.live  # only a view that asks the worker loads Python

    def element(self, use, raw):
        rendered = use.computed
        el = etree.Element("figure", rendered.attributes)
        etree.SubElement(el, "div", {"class": "figure-body"}).text = raw(rendered.body_html)
        caption = etree.SubElement(el, "figcaption")
        etree.SubElement(caption, "span", {"class": "figure-label"}).text = rendered.label
        return el, caption
