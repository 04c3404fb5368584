"""The series' own prose as one text, for the model that learns to write from it: each chapter as
a reader reads it, without code, directive options, numbers the engine wrote, maths or markup.

The line-aware scan finds the directives and inline expressions; Python-Markdown then reads the
rest, because links, emphasis, escapes, notes and code spans are its reading to make (a regex of
our own would disagree with the page at the edges), and the standard library's html.parser keeps
the text of what it made.
"""
from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Iterable

import markdown
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from pymdownx.arithmatex import ArithmatexExtension

from .directives import REGISTRY
from .errors import read_source
from .site_config import ChapterEntry
from .source import RE_CITATION, ScannedSource, prose, scan

# Where something was dropped (an expression's value, a formula, code, a citation), so the space
# around it can be tidied. A control character: read_source refuses them in a chapter, and
# Python-Markdown and html.parser pass it through.
DROPPED = "\x00"
# Elements whose whole content is not prose: code, formulas (arithmatex's spans and divs),
# citations, note markers and back-links, drawings and scripts in raw HTML.
SKIPPED_TAGS = frozenset({"code", "pre", "script", "style", "svg", "math", "template", "textarea"})
SKIPPED_CLASSES = frozenset({"arithmatex", "citation", "footnote-ref", "footnote-backref"})
# Elements that end one paragraph of the corpus and start the next.
BLOCK_TAGS = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ol", "ul", "dl", "dt", "dd",
                        "blockquote", "div", "figure", "figcaption", "table", "tr", "hr", "section",
                        "details", "summary", "caption"})
CELL_TAGS = frozenset({"td", "th"})
# What was dropped, with the spaces either side: one piece, or a list of them ("$q$, $k$, $v$").
RE_DROPPED_RUN = re.compile(" ?\x00(?: ?[,;]? ?\x00)* ?")
RE_EMPTY_BRACKETS = re.compile(r"\(\x00\)|\[\x00\]")  # "($x$)": nothing left to enclose
RE_DROPPED_AFTER_OPEN = re.compile(r"(?<=[(\[])\x00")  # "($x$ and ...)": "(and ...)"
# "Adam [@key], a": "Adam, a"; "in this head, ($x$)." ends "in this head."
RE_DROPPED_BEFORE_CLOSE = re.compile(r"[,;]?\x00(?=[,.;:!?)\]])")
# An inline formula that is one letter ("$n$ words") is read as that letter: dropping it would take
# the sentence's subject with it, and a letter is text a reader types at the prompt too.
RE_ONE_LETTER = re.compile(r"^\\\(\s*([A-Za-z])\s*\\\)$")


@dataclass(frozen=True)
class Corpus:
    """The series' prose, one paragraph a line, and how many of its characters each chapter wrote."""
    text: str
    chapters: tuple[tuple[str, int], ...]  # (chapter file's name without .md, its characters), in order


class _Citation(InlineProcessor):
    """[@key]: an element the text leaves out, found by the page's own pattern so that '[@' in code
    or after an escape is treated as the page treats it."""

    def __init__(self):
        super().__init__(RE_CITATION.pattern)

    def handleMatch(self, m, data):
        el = etree.Element("span", {"class": "citation"})
        return el, m.start(0), m.end(0)


class _Citations(Extension):
    def extendMarkdown(self, md):
        md.inlinePatterns.register(_Citation(), "corpus_citation", 175)  # as builder/citations.py


def _markdown() -> markdown.Markdown:
    """The page's reading of Markdown (builder/markdown_render.py) less what only makes HTML: the
    same maths finder, so a '$' is maths here exactly where it is on the page. No smarty: quotes
    and dashes stay the characters an author (and a reader at the prompt) types."""
    return markdown.Markdown(extensions=["extra", "sane_lists", ArithmatexExtension(generic=True, smart_dollar=True),
                                         _Citations()], output_format="html")


class _Text(HTMLParser):
    """The text of the HTML Markdown made, one paragraph per block element, skipped elements dropped."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self.pieces: list[str] = []
        self.skipping: list = []  # [tag, depth] of the skipped element we are inside, else empty
        self.formula: list[str] | None = None  # the text of the inline formula being skipped

    def handle_starttag(self, tag, attrs):
        if self.skipping:
            self.skipping[1] += tag == self.skipping[0]
            return
        attrs = dict(attrs)
        classes = set((attrs.get("class") or "").split())
        if tag in SKIPPED_TAGS or classes & SKIPPED_CLASSES:
            self.skipping = [tag, 1]
            self.pieces.append(DROPPED)
            self.formula = [] if tag == "span" and "arithmatex" in classes else None
        elif tag in BLOCK_TAGS:
            self._end_paragraph()
        elif tag in CELL_TAGS:
            self.pieces.append(" ")

    def handle_endtag(self, tag):
        if self.skipping:
            if tag == self.skipping[0]:
                self.skipping[1] -= 1
                if not self.skipping[1]:
                    self.skipping = []
                    letter = RE_ONE_LETTER.match("".join(self.formula)) if self.formula is not None else None
                    if letter:
                        self.pieces[-1] = letter.group(1)
            return
        if tag in BLOCK_TAGS:
            self._end_paragraph()

    def handle_data(self, data):
        if not self.skipping:
            self.pieces.append(data)
        elif self.formula is not None:
            self.formula.append(data)

    def _end_paragraph(self):
        text = _tidy("".join(self.pieces))
        self.pieces = []
        if text:
            self.paragraphs.append(text)

    def close(self):
        super().close()
        self._end_paragraph()


def _tidy(text: str) -> str:
    """One paragraph's text with its whitespace made single spaces and the places where something
    was dropped closed up: no space before punctuation, no empty brackets. Each pass is linear."""
    text = RE_DROPPED_RUN.sub(DROPPED, " ".join(text.split()))
    text = RE_DROPPED_RUN.sub(DROPPED, RE_EMPTY_BRACKETS.sub(DROPPED, text))
    text = RE_DROPPED_BEFORE_CLOSE.sub("", RE_DROPPED_AFTER_OPEN.sub("", text))
    return " ".join(text.replace(DROPPED, " ").split())


def chapter_text(scanned: ScannedSource) -> str:
    """One chapter's prose, each paragraph, heading, list item or caption on a line of its own.

    Directives' headers and options go (prose() leaves blank lines for them), their captions,
    questions and tasks stay; inline expressions are dropped, so the text never depends on what
    the engine computes."""
    values = {(use.line, use.start): DROPPED for use in scanned.expressions}
    text, _marks = prose(scanned, values)
    return _text_of(text)


@functools.lru_cache(maxsize=64)
def _text_of(text: str) -> str:
    """chapter_text of the chapter's prose, kept by it: serve gives the series' prose on every
    rebuild, and most chapters are as they were (Markdown reading them is seconds a rebuild)."""
    parser = _Text()
    parser.feed(_markdown().convert(text))
    parser.close()
    return "".join(paragraph + "\n" for paragraph in parser.paragraphs)


def corpus_of(chapters: Iterable[tuple[str, ScannedSource]]) -> Corpus:
    """The prose of chapters already scanned, (name, scan) in reading order, as one text.

    A paragraph ends with one newline, never a blank line: soft line breaks in the Markdown become
    spaces, as on the page, so one newline already marks every paragraph's end, and a second would
    be a character the model predicts for free, flattering its loss per character."""
    texts = [(name, chapter_text(scanned)) for name, scanned in chapters]
    return Corpus("".join(text for _, text in texts), tuple((name, len(text)) for name, text in texts))


def read_corpus(chapters: Iterable[ChapterEntry]) -> Corpus:
    """The chapters' prose in reading order (site.toml's), read from their files."""
    return corpus_of((entry.path.stem, scan(entry.path, read_source(entry.path), tuple(REGISTRY))) for entry in chapters)
