"""What the directives share: the queue a block takes its pre-rendered HTML from, and inline Markdown."""
from __future__ import annotations

import xml.etree.ElementTree as etree
from dataclasses import dataclass

import markdown
from markdown.extensions import Extension
from pymdownx.blocks.block import Block, type_any

from ..errors import BuildError, clip
from ..links import MarkdownLinks
from ..math import MathExtension

@dataclass(frozen=True)
class Rendered:
    """A quiz or an exercise rendered with line numbers before Markdown runs: what follows its own Markdown."""
    name: str  # the directive's argument: the quiz's id, the exercise's name
    line: int
    html: str


PLURAL = {"figure": "figures", "quiz": "quizzes", "exercise": "exercises"}


class DirectiveMismatch(Exception):
    """Markdown found a directive block where the line-aware scan did not (or the reverse)."""

    def __init__(self, kind: str, argument: str):
        super().__init__(argument)
        self.kind = kind


def take(md, kind: str, argument: str):
    """The next pre-rendered `kind` from the page's queue (rendered with line numbers before Markdown
    ran); a block Markdown found that the scan did not is a DirectiveMismatch."""
    queue = md.attention_queues[kind]
    if not queue or queue[0].name != argument:
        raise DirectiveMismatch(kind, argument)
    return queue.pop(0)


class LinkCheck(Extension):
    """The link-scheme check (and .md -> .html) of the chapter's Markdown, for every other Markdown."""

    def extendMarkdown(self, md):
        md.treeprocessors.register(MarkdownLinks(md), "attention_links", 1)


def inline_html(text: str) -> str:
    """One paragraph of Markdown (with math) as inline HTML: a choice, an explanation, a hint.
    MathError or LinkError for a bad formula or a link with an unsafe scheme."""
    out = markdown.markdown(text, extensions=["smarty", MathExtension(), LinkCheck()], output_format="html").strip()
    return out[3:-4] if out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1 else out


def option_error(err, use, path) -> BuildError:
    """An option a directive refused (a ParamError from params.validate or its Params' own rules), at
    the option's line when known, else the directive's."""
    line = use.option_lines.get((err.option or "").split("[")[0], use.line)
    return BuildError(path, line, f"{use.name} '{use.argument}': {clip(err, 200)}")


def check_unique(uses, path, name: str, why: str) -> None:
    """Each `name` directive's argument once per page (`why` says what the argument keys)."""
    seen = {}
    for use in uses:
        if use.name == name:
            if use.argument in seen:
                raise BuildError(path, use.line, f"{name} '{use.argument}' is on this page twice (first on line "
                                                 f"{seen[use.argument]}): {why}")
            seen[use.argument] = use.line


class SectionBlock(Block):
    """A quiz or an exercise: a <section data-NAME="argument"> holding a label, the block's own
    Markdown (the question, the task) and the pre-rendered rest, taken from the page's queue.
    Subclasses set NAME, OPTIONS_CLASS (the options' dataclass), OWN (what the block's Markdown is: its element's class and
    id suffix), LABELLED_BY ("label" or OWN: what names the section) and `label(el, argument)`."""

    ARGUMENT = True
    OPTIONS_CLASS: type
    OWN = "own"
    LABELLED_BY = "label"

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls.OPTIONS = {name: [None, type_any] for name in cls.OPTIONS_CLASS.__dataclass_fields__}

    def label(self, el, argument: str) -> None:
        raise NotImplementedError

    def on_create(self, parent):
        rendered = take(self.md, self.NAME, self.argument)
        kind, arg = self.NAME, rendered.name
        el = etree.SubElement(parent, "section", {"class": kind, f"data-{kind}": arg, "id": f"{kind}-{arg}",
                                                  "aria-labelledby": f"{kind}-{arg}-{self.LABELLED_BY}"})
        self.label(etree.SubElement(el, "p", {"class": f"{kind}-label", "id": f"{kind}-{arg}-label"}), arg)
        self.own = etree.SubElement(el, "div", {"class": f"{kind}-{self.OWN}", "id": f"{kind}-{arg}-{self.OWN}"})
        rest = etree.SubElement(el, "div", {"class": f"{kind}-body"})
        rest.text = self.md.htmlStash.store(rendered.html)
        return el

    def on_add(self, block):
        return self.own
