"""Math is typeset to MathML at build time; query, key and value take the series colours."""
from __future__ import annotations

import re

import pytest

from builder.build import check
from builder.errors import BuildError
from builder.math import MathError, to_mathml
from tests.builder.helpers import one_chapter_site, paths_for


def page(tmp_path, markdown: str) -> str:
    return check(paths_for(one_chapter_site(tmp_path / "content", markdown))).files["01-test.html"].decode()


def test_inline_and_display_math_become_mathml(tmp_path):
    html = page(tmp_path, r"""
        # T

        The score $\query{q}\cdot\key{k}$ is divided, costs \$5 or $5 and $10 stay text, `$x$` stays code.

        $$
        \operatorname{softmax}(s)_i = \frac{e^{s_i}}{\sum_j e^{s_j}}
        $$
        """)
    inline = re.findall(r'<span class="math">(<math .*?</math>)</span>', html)
    assert len(inline) == 1 and 'display="inline"' in inline[0]
    assert '<mstyle class="math-query"><mrow><mi>q</mi>' in inline[0]
    assert '<mstyle class="math-key"><mrow><mi>k</mi>' in inline[0]
    assert "costs $5 or $5 and $10 stay text" in html
    assert "<code>$x$</code>" in html
    display = re.findall(r'<div class="math-display">(<math .*?</math>)</div>', html, re.S)
    assert len(display) == 1 and 'display="block"' in display[0] and "<mfrac>" in display[0]
    assert "\\(" not in html and "\\[" not in html  # nothing left for a client-side library


def test_role_colours_end_with_their_argument():
    mathml = to_mathml(r"\value{v} + w", display=False)
    assert re.search(r'<mstyle class="math-value"><mrow><mi>v</mi></mrow></mstyle>.*<mi>w</mi>', mathml)
    assert mathml.count("math-value") == 1


@pytest.mark.parametrize("latex, words", [
    (r"\frac{a}{b", "unbalanced braces"),
    (r"\fraq{a}{b}", r"unknown LaTeX command \fraq"),
    (r"a^", "cannot typeset"),
    (r"\query q", r"\query needs an argument in braces"),
])
def test_bad_latex_is_an_error(latex, words):
    with pytest.raises(MathError, match=re.escape(words)):
        to_mathml(latex, display=False)


def test_bad_latex_names_the_chapter_line(tmp_path):
    with pytest.raises(BuildError, match=r"01-test\.md:5: unknown LaTeX command \\softmx"):
        page(tmp_path, "# T\n\nFine $x$.\n\nThen $\\softmx(x)$ is wrong.\n")
