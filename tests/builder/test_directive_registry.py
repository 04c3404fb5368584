"""A directive is one class and one registry entry: a new one, registered here alone, gets its
options checked at their lines, its Markdown rendered in place and its block on the page."""
from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass

import pytest

from builder.directives import REGISTRY
from builder.directives.base import Directive
from engine.figures.params import field

from .helpers import assert_one_error, build_one_chapter


@dataclass(frozen=True)
class _Options:
    tone: str = field("plain", choices=("plain", "warm"))


class _Aside(Directive):
    name, plural, Options, body = "aside", "asides", _Options, "text"

    def element(self, use, raw, templates):  # in place of a template in the theme
        el = etree.Element("aside", {"class": f"aside-{use.params.tone}"})
        return el, el


@pytest.fixture
def aside(monkeypatch):
    monkeypatch.setitem(REGISTRY, "aside", _Aside())


PAGE = "# T\n\nBefore.\n\n/// aside\n    tone: warm\n\nSome *text*, with $x$.\n///\n\nAfter.\n"


def test_a_registered_directive_renders_its_block_around_its_markdown(tmp_path, aside):
    page = (build_one_chapter(tmp_path, PAGE) / "01-test.html").read_text()
    assert '<p>Before.</p>\n<aside class="aside-warm">\n<p>Some <em>text</em>, with <span class="math-nowrap">' in page
    assert "</aside>\n<p>After.</p>" in page
    assert re.search(r'<link rel="preload" href="assets/[0-9a-f]{12}/fonts/math.woff2"', page)  # its maths counts as the page's


def test_its_options_are_checked_at_their_line(tmp_path, aside):
    assert_one_error(tmp_path, PAGE.replace("warm", "cold"), 6, "aside '': option 'tone' must be one of")


def test_unregistered_it_is_an_unknown_directive(tmp_path):
    assert_one_error(tmp_path, PAGE, 5, "unknown directive 'aside' (known: figure, quiz, exercise)")
