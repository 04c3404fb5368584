"""A directive is one class and one registry entry: a new one, registered here alone, gets its
options checked at their lines, its Markdown rendered in place and its block on the page."""
from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as etree
from dataclasses import dataclass, replace

import pytest

from builder.build import build
from builder.directives import REGISTRY
from builder.directives.base import MARKDOWN, Directive, block_element
from builder.errors import BuildError
from engine.figures.params import field
from tests.conftest import ROOT

from .helpers import assert_one_error, build_one_chapter, one_chapter_site, paths_for


@dataclass(frozen=True)
class _Options:
    tone: str = field("plain", choices=("plain", "warm"))


class _Aside(Directive):
    name, plural, Options, body = "aside", "asides", _Options, "text"

    def element(self, use, block, raw, templates):  # in place of a template in the theme
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


QUIZ = ("# T\n\n/// quiz | q\n    choices:\n      a: One.\n      b: Two.\n    answer: a\n    explain:\n"
        "      a: One is the answer.\n      b: Two is not.\n\nWhich?\n///\n")


def test_a_theme_changes_a_block_in_its_template_alone(tmp_path):
    """The block's markup is its template's (theme/templates/directives): a theme with another says so."""
    theme = shutil.copytree(ROOT / "theme", tmp_path / "theme")
    section = theme / "templates" / "directives" / "_section.html"
    section.write_text(section.read_text().replace('<div class="{{ kind }}-body">', '<div class="{{ kind }}-body" data-mine="1">'))
    quiz = theme / "templates" / "directives" / "quiz.html"
    quiz.write_text(quiz.read_text().replace("Question{% endblock", "Quiz{% endblock"))
    paths = replace(paths_for(one_chapter_site(tmp_path / "content", QUIZ)), theme=theme)
    build(paths, tmp_path / "dist", pyodide_dist=None)
    page = (tmp_path / "dist" / "01-test.html").read_text()
    assert '<p class="quiz-label" id="quiz-q-label">Quiz</p>' in page
    assert '<div class="quiz-body" data-mine="1"><fieldset class="quiz-choices"' in page
    assert '<div class="quiz-question" id="quiz-q-question">\n<p>Which?</p>\n</div>' in page


@pytest.mark.parametrize("html, words", [
    ("<aside></aside>", "no {{ markdown }}"),
    (f"<p>{MARKDOWN}</p><p></p>", "a block is one element"),
    (f"<div>{MARKDOWN}<b>x</b></div>", "the Markdown must end its element"),
    (f"<div>{MARKDOWN} more</div>", "at the end of its element"),
    (f"<div><p>{MARKDOWN}</div>", "</div> closes no open <div>"),
])
def test_a_template_that_makes_no_block_is_an_error_at_its_file(html, words):
    with pytest.raises(BuildError) as err:
        block_element(html, "theme/templates/directives/aside.html")
    assert "aside.html" in str(err.value) and words in str(err.value), str(err.value)


def test_a_block_is_read_back_as_its_template_wrote_it():
    el, slot = block_element(f'<aside class="a" data-x="&lt;&#39;" hidden>\n  <p>Said: <code>f</code></p>\n'
                             f'  <div class="m">{MARKDOWN}</div>\n</aside>')
    assert el.tag == "aside" and el.attrib == {"class": "a", "data-x": "<'", "hidden": None}
    assert [c.tag for c in el] == ["p", "div"] and el.text is None and el[0].tail is None  # layout dropped
    assert el[0].text == "Said: " and el[0][0].text == "f" and slot is el[1] and slot.text is None
