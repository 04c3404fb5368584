"""[@key] and [@a; @b] in Markdown: numbered links to the chapter's list of references.

Numbers follow the order of first citation in the chapter (the line-aware scan decides them,
and checks every key against references.bib, so this pattern only draws the links).
"""
from __future__ import annotations

import xml.etree.ElementTree as etree

from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor

from .references import Bibliography, Reference
from .source import RE_CITATION


class CitationError(Exception):
    """A citation Markdown found where the line-aware scan saw none (so it has no number)."""


def anchor(key: str) -> str:
    """The id of a reference in a chapter's list."""
    return f"ref-{key}"


class _CitationPattern(InlineProcessor):
    def __init__(self, numbers: dict[str, int], references: dict[str, Reference]):
        super().__init__(RE_CITATION.pattern)
        self.numbers = numbers
        self.references = references

    def handleMatch(self, m, data):
        keys = [part.strip()[1:] for part in m.group(1).split(";")]
        unnumbered = [k for k in keys if k not in self.numbers]
        if unnumbered:
            raise CitationError(unnumbered[0])
        el = etree.Element("span", {"class": "citation"})
        el.text = "["
        for i, key in enumerate(keys):
            a = etree.SubElement(el, "a", {"href": f"#{anchor(key)}", "title": self.references[key].short})
            a.text = str(self.numbers[key])
            a.tail = ", " if i + 1 < len(keys) else "]"
        return el, m.start(0), m.end(0)


class CitationsExtension(Extension):
    def __init__(self, numbers: dict[str, int], bibliography: Bibliography | None):
        super().__init__()
        self.numbers = numbers
        self.references = bibliography.entries if bibliography else {}

    def extendMarkdown(self, md):
        md.registerExtension(self)
        # above reference links (170), so [@key] is never read as a link label
        md.inlinePatterns.register(_CitationPattern(self.numbers, self.references), "attention_citation", 175)
