"""`/// figure | name`: a live figure with YAML options and a Markdown caption.

    /// figure | softmax-temperature
        temperature: 2.0

    Caption, in **Markdown**.
    ///
"""
from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from engine.figures import FIGURES, module, parse
from engine.figures.params import field, validate
from ..errors import BuildError, unknown_name
from ..figures import draft_figure, embed_json, render_figure
from .base import Directive

LAYOUTS = ("body", "wide")


@dataclass(frozen=True)
class Options:
    """The directive's own options, beside its model's Params: how the page lays the figure out.
    Not the model's: a layout changes no number, so none is part of what the figure computes."""
    layout: str = field("body", choices=LAYOUTS, doc="body: the text's width. wide: up to 60rem on a wide "
                        "screen, centred on the text (a grid, a training view), the text's width on a narrow one "
                        "and in print")


def own_options(options: dict) -> tuple[dict, dict]:
    """`options` split into the directive's own (Options) and its model's."""
    own = {k: v for k, v in options.items() if k in Options.__dataclass_fields__}
    return own, {k: v for k, v in options.items() if k not in own}


class Figure(Directive):
    """Its options are its model's Params; computing it runs the model and draws the fallback;
    its Markdown is the caption."""

    name, plural, Options = "figure", "figures", Options
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
        own, model = own_options(use.options)
        validate(Options, own)
        return parse(use.argument, model)

    def option_names(self, use):
        return (*module(use.argument).Params.__dataclass_fields__, *Options.__dataclass_fields__)

    def compute(self, use, page):
        return render_figure(page.cache.figures, use, page.number, page.count(self.name), page.slug, page.given)

    def draft(self, use, page):
        """The figure's element with its id and label, and no data, drawing or given files yet."""
        return draft_figure(use, page.number, page.count(self.name))

    def needs_python(self, use, block):
        return block.live  # only a view that asks the worker loads Python

    def context(self, use, block):
        """For theme/templates/directives/figure.html: the <figure>'s attributes, its label, and
        (once computed) its data as JSON, drawing, alt text and key numbers."""
        rendered = block
        body = rendered.body or {}  # a draft has none yet
        # embed_json escapes whatever could end or alter the <script> it stands in: safe as it is
        data_json = Markup(embed_json(body["data"])) if body else ""
        return {"attributes": rendered.attributes, "label": rendered.label, "drawn": bool(body), **body,
                "data_json": data_json}
