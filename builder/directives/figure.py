"""`/// figure | name`: a live figure with YAML options and a Markdown caption.

    /// figure | softmax-temperature
        temperature: 2.0

    Caption, in **Markdown**.
    ///
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as etree

from pymdownx.blocks.block import Block as _Block, type_any

from engine.figures import FIGURES, ParamError, module, parse
from ..errors import BuildError, clip
from .common import option_error, take

NAME = "figure"
RE_OPTION_SLIP = re.compile(r"^[ ]*([A-Za-z_][\w-]*)[ ]*:(?:[ ]|$)")  # `temperature: 2` right after the header


def validate(use, path):
    """Check the figure name and parse its options into the model's Params, once: `use.params`."""
    if not use.argument:
        raise BuildError(path, use.line, f"figure directive needs a name: '/// figure | name' (known: {', '.join(FIGURES)})")
    if use.argument not in FIGURES:
        raise BuildError(path, use.line, f"unknown figure '{clip(use.argument, 40)}' (known: {', '.join(FIGURES)})")
    try:
        use.params = parse(use.argument, use.options)
    except ParamError as err:
        raise option_error(err, use, path) from None
    slip = RE_OPTION_SLIP.match(use.first_body_line[1]) if use.first_body_line else None
    if slip and slip.group(1) in module(use.argument).Params.__dataclass_fields__:
        raise BuildError(path, use.first_body_line[0], f"option '{slip.group(1)}' would become caption text: "
                                                       "options must be indented by four spaces")


_UNSET = object()


def _all_option_names():
    names = set()
    for name in FIGURES:
        names.update(module(name).Params.__dataclass_fields__)
    return sorted(names)


class Block(_Block):
    """Renders the next pre-rendered figure from the page's queue; the caption becomes the figcaption.

    Options were validated with line numbers before Markdown ran; here every known option
    name is accepted so that pymdownx never silently drops a block it judges invalid.
    """

    NAME = NAME
    ARGUMENT = True
    OPTIONS = {name: [_UNSET, type_any] for name in _all_option_names()}

    def on_create(self, parent):
        rendered = take(self.md, NAME, self.argument)
        el = etree.SubElement(parent, "figure", rendered.attributes)
        body = etree.SubElement(el, "div", {"class": "figure-body"})
        body.text = self.md.htmlStash.store(rendered.body_html)
        self.caption = etree.SubElement(el, "figcaption")
        label = etree.SubElement(self.caption, "span", {"class": "figure-label"})
        label.text = rendered.label
        return el

    def on_add(self, block):
        return self.caption
