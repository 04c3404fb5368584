"""What every directive is: the hooks the build calls, in order, for each `/// name | argument` block.

    parse (at its line, as the chapter is read) -> check_page (rules across one page)
    -> compute (what needs the engine) -> element (the block in the page, and where its Markdown goes)

A directive is one module holding one subclass, one entry in builder/directives/__init__.py, and
one template in the theme (theme/templates/directives/<name>.html) that makes its block: the
markup is the theme's, the values (`context`) the directive's. Its Markdown (a caption, a question,
a task) stays in the chapter's prose, so notes, citations and maths work there as anywhere; the
block is put around it after Python-Markdown has read the page, where the template says
`{{ markdown }}`.
"""
from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass, field as dataclass_field
from html.parser import HTMLParser
from pathlib import Path
from typing import Callable

import jinja2
import markdown

from engine.figures.params import ParamError, validate as validate_options
from engine.given import NOTHING, Given
from ..errors import BuildError, clip, unknown_name
from ..links import LinkCheck
from ..math import MathExtension, MathFound

RE_OPTION_SLIP = re.compile(r"^[ ]*([A-Za-z_][\w-]*)[ ]*:(?:[ ]|$)")  # `temperature: 2` right after the header


@dataclass
class Page:
    """What the hooks of one chapter share: where errors point, the chapter's number and slug, the
    figure cache, how many blocks of each kind came before, and the maths its blocks typeset."""
    path: Path
    number: int
    slug: str
    cache: object  # builder.cache.BuildCache
    given: Given = NOTHING  # what its figures are given beyond their options (builder/inputs.py)
    math: MathFound = dataclass_field(default_factory=MathFound)
    seen: dict = dataclass_field(default_factory=dict)  # directive name -> uses computed so far

    def count(self, name: str) -> int:
        """This use's 1-based place among the page's uses of `name` (figures are numbered by it)."""
        self.seen[name] = self.seen.get(name, 0) + 1
        return self.seen[name]


class Directive:
    """A kind of block. Subclasses set the class attributes and override the hooks they need."""

    name: str  # the word after '///'
    summary: str = ""  # what it gives the reader, in one line: the catalogue says it (builder/catalogue.py)
    plural: str  # for messages: "figures"
    Options: type | None = None  # the options' dataclass, checked by params.validate
    body: str | None = None  # what its Markdown is ("question"); when set, the block must have some
    unique: str | None = None  # why an argument may stand once per page, when it may
    scripts: tuple[str, ...] = ()  # the script elements a page with this block loads; {assets} is the theme's folder
    uses_python: bool = False  # a page with this block carries the runtime's config

    def check_argument(self, use, path: Path) -> None:
        """The text after the bar names something this directive knows."""

    def read_options(self, use):
        return validate_options(self.Options, use.options)

    def option_names(self, use) -> tuple[str, ...]:
        return tuple(self.Options.__dataclass_fields__)

    def parse(self, use, path: Path) -> None:
        """The argument and the options, checked at the directive's line; the options' dataclass
        becomes `use.params`."""
        self.check_argument(use, path)
        names = self.option_names(use)
        unknown = next((str(k) for k in use.options if k not in names), None)
        try:
            if unknown is not None:  # before the engine's own check, which lists the names without a guess
                raise ParamError(unknown, unknown_name("option", unknown, names))
            use.params = self.read_options(use)
        except ParamError as err:
            raise option_error(err, use, path) from None
        slip = RE_OPTION_SLIP.match(use.first_body_line[1]) if use.first_body_line else None
        if slip and slip.group(1) in self.option_names(use):
            raise BuildError(path, use.first_body_line[0], f"option '{slip.group(1)}' would become "
                                                           f"{self.body or 'caption'} text: options must be "
                                                           "indented by four spaces")
        if self.body and not use.has_body:
            raise BuildError(path, use.line, f"{self.name} '{use.argument}' needs its {self.body} as Markdown "
                                             "after the options")

    def check_page(self, uses: list, path: Path) -> None:
        """Rules across the page's uses of this directive: by default, an argument once if `unique`."""
        if not self.unique:
            return
        seen = {}
        for use in uses:
            if use.argument in seen:
                raise BuildError(path, use.line, f"{self.name} '{use.argument}' is on this page twice (first on "
                                                 f"line {seen[use.argument]}): {self.unique}")
            seen[use.argument] = use.line

    def compute(self, use, page: Page):
        """What the block needs from the engine or from rendering its options: the build keeps it
        beside the use (Computed.blocks) and hands it to the hooks below as `block`."""
        return None

    def draft(self, use, page: Page):
        """What stands for `compute`'s result while the page is checked before any engine work
        (builder/build.py check_prose): the block with the ids it will have and everything that
        needs no engine (its options' Markdown), so the page's links, maths and notes are checked
        first. By default `compute` itself, for a directive that needs no engine."""
        return self.compute(use, page)

    def needs_python(self, use, block) -> bool:
        return self.uses_python

    def site_files(self, paths) -> dict[str, bytes]:
        """Files the site needs, beyond the theme's, when any page uses this directive."""
        return {}

    def context(self, use, block) -> dict:
        """What the directive's template reads about this use and what it computed (beside `raw`
        and `markdown`)."""
        return {}

    def element(self, use, block, raw: Callable[[str], str], templates: jinja2.Environment) -> tuple[etree.Element, etree.Element]:
        """The block's element and the element its Markdown goes into, made by the directive's
        template from `context(use, block)`; `raw(html)` stores HTML the page takes as it is and returns
        the text that stands for it (the template passes it what Markdown must not touch)."""
        name = f"directives/{self.name}.html"
        try:
            template = templates.get_template(name)  # compiled once, kept by the environment
            html = template.render(self.context(use, block), raw=raw, markdown=MARKDOWN)
        except jinja2.TemplateError as err:
            raise BuildError(getattr(err, "filename", None) or name, getattr(err, "lineno", None),
                             f"template error: {err.message}") from None
        return block_element(html, template.filename)


def at_option(use, path: Path, option: str, message: str) -> BuildError:
    """A directive's error about `option`, at the option's line when known, else the directive's."""
    return BuildError(path, use.option_lines.get(option, use.line), f"{use.name} '{use.argument}': {message}")


def option_error(err: ParamError, use, path: Path) -> BuildError:
    """An option a directive refused (its message clipped: it may echo the author's value)."""
    return at_option(use, path, (err.option or "").split("[")[0], clip(err, 200))


def inline_html(text: str, math: MathFound) -> str:
    """One paragraph of Markdown (with maths) as inline HTML: a choice, an explanation, a hint.
    MathError or LinkError for a bad formula or a link with an unsafe scheme."""
    out, inline, display = _inline_html(text)
    math.inline |= inline
    math.display |= display
    return out


@functools.lru_cache(maxsize=4096)
def _inline_html(text: str) -> tuple[str, bool, bool]:
    """inline_html's HTML and the kinds of formula it holds, kept by text: a page's quizzes are
    rendered when it is drafted and again when it is computed, and serve rebuilds every page."""
    found = MathFound()
    out = markdown.markdown(text, extensions=["smarty", MathExtension(found), LinkCheck()], output_format="html").strip()
    out = out[3:-4] if out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1 else out
    return out, found.inline, found.display


MARKDOWN = "\x02markdown\x03"  # where a template puts the block's Markdown: STX and ETX, so no text can pass for it
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Elements(HTMLParser):
    """A template's block as elements, for Python-Markdown's tree: one outermost element, the
    element holding MARKDOWN found (it must end there), and whitespace with a line break between
    tags dropped (the template's layout; Markdown lays out the page's blocks)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)  # text and attributes as values: the tree escapes them again
        self.root: etree.Element | None = None
        self.slot: etree.Element | None = None
        self.open: list[etree.Element] = []

    def _add(self, tag: str, attrs: list) -> etree.Element:
        if self.slot is not None and self.slot in self.open:
            raise ValueError(f"<{tag}> after {{{{ markdown }}}}: the Markdown must end its element")
        el = etree.Element(tag, dict(attrs))  # a bare attribute stays bare (None), as written
        if self.open:
            self.open[-1].append(el)
        elif self.root is None:
            self.root = el
        else:
            raise ValueError(f"<{tag}> beside <{self.root.tag}>: a block is one element")
        return el

    def handle_starttag(self, tag, attrs):
        el = self._add(tag, attrs)
        if tag not in VOID:
            self.open.append(el)

    def handle_startendtag(self, tag, attrs):
        self._add(tag, attrs)

    def handle_endtag(self, tag):
        if not self.open or self.open[-1].tag != tag:
            raise ValueError(f"</{tag}> closes no open <{tag}>")
        self.open.pop()

    def handle_data(self, data):
        if not data.strip() and "\n" in data:
            return
        if not self.open:
            raise ValueError(f"text outside the block's element: {data.strip()[:40]!r}")
        parent = self.open[-1]
        if self.slot is not None and self.slot in self.open:
            raise ValueError("text after {{ markdown }}: the Markdown must end its element")
        if MARKDOWN in data:
            data, rest = data.split(MARKDOWN, 1)
            if rest.strip() or self.slot is not None:
                raise ValueError("{{ markdown }} must stand once, at the end of its element")
            self.slot = parent
        if len(parent):
            parent[-1].tail = (parent[-1].tail or "") + data or None
        else:
            parent.text = (parent.text or "") + data or None


def block_element(html: str, template: str | None = None) -> tuple[etree.Element, etree.Element]:
    """The element a directive's template made, and the element where its Markdown goes; a template
    that does not make one element with `{{ markdown }}` inside is a BuildError at its file."""
    parser = _Elements()
    try:
        parser.feed(html)
        parser.close()
        if parser.open:
            raise ValueError(f"<{parser.open[-1].tag}> is not closed")
        if parser.slot is None:
            raise ValueError("no {{ markdown }}: the block's Markdown has nowhere to go")
    except ValueError as err:
        raise BuildError(template or "directives", None, f"template error: {err}") from None
    return parser.root, parser.slot


class Section(Directive):
    """A quiz or an exercise: a <section> holding a label, the block's own Markdown (the question,
    the task) and the rest, made from its options: theme/templates/directives/_section.html, which
    the directive's template extends. Subclasses set `body` (its element's class and id suffix) and
    `labelled_by` ("label" or `body`); `compute` returns what the template reads of its options."""

    labelled_by = "label"
    scripts = ('<script type="module" src="{assets}/js/parts.js"></script>',)  # loads the block's code near the screen

    def context(self, use, block):
        return {"kind": self.name, "id": use.argument, "body": self.body, "labelled_by": self.labelled_by, **block}
