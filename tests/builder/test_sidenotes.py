"""Markdown footnotes become sidenotes next to their reference; bad notes name their line."""
from __future__ import annotations

import re

import pytest

from builder.build import check
from builder.errors import BuildError
from tests.builder.helpers import one_chapter_site, paths_for


def page(tmp_path, markdown: str) -> str:
    return check(paths_for(one_chapter_site(tmp_path / "content", markdown))).files["01-test.html"].decode()


def test_each_note_sits_in_its_paragraph_with_a_toggle(tmp_path):
    html = page(tmp_path, """\
        # T

        A claim[^why] and another[^2].

        [^why]: Because of *this*, with $x^2$.
        [^2]: First part.

            Second part.
        """)
    assert 'class="footnote"' not in html and "footnote-backref" not in html
    para = re.search(r"<p>A claim(.*?)</p>", html, re.S).group(1)
    first, second = re.findall(r'<span class="sidenote-wrap">(.*?)</span></span>(?: and another|\.)', para, re.S)
    assert '<input class="sidenote-toggle" id="sn-toggle-1" type="checkbox">' in first
    assert '<label class="sidenote-number" for="sn-toggle-1" id="sn-ref-1">1' in first
    assert re.search(r'<span class="sidenote" id="sn-1" role="note">.*Because of <em>this</em>, with '
                     r'<span class="math-nowrap"><span class="math"><math .*</math></span>\.</span>', first, re.S)
    assert second.count('class="sidenote-para"') == 2 and "Second part.</span>" in second
    assert "\xa0<" not in html and "&#160;</span>" not in html  # the back-link's space is gone


@pytest.mark.parametrize("markdown, line, words", [
    ("# T\n\nText[^gone].\n", 3, "note [^gone] is never written"),
    ("# T\n\nText.\n\n[^lonely]: Nobody points here.\n", 5, "written but never referenced"),
    ("# T\n\nText[^a].\n\n[^a]: One.\n[^a]: Two.\n", 6, "written twice"),
    ("# T\n\nText[^l].\n\n[^l]: A list:\n\n    - one\n    - two\n", 5, "sidenotes can hold paragraphs and inline text only"),
])
def test_bad_notes_name_their_line(tmp_path, markdown, line, words):
    with pytest.raises(BuildError) as err:
        page(tmp_path, markdown)
    assert re.match(rf"\S*01-test\.md:{line}: ", str(err.value)), str(err.value)
    assert words in str(err.value)


def test_notes_in_code_are_left_alone(tmp_path):
    html = page(tmp_path, "# T\n\n`a[^x]` and\n\n    [^y]: indented code\n")
    assert "<code>a[^x]</code>" in html and "[^y]: indented code" in html
