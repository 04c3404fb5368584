"""Math is typeset to MathML at build time; query, key and value take the series colours."""
from __future__ import annotations

import re

import pytest

from builder.build import check
from builder.errors import BuildError
from builder.math import MathError, to_mathml
from tests.builder.helpers import one_chapter_site, paths_for
from tests.conftest import ROOT


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
    assert len(display) == 1 and "<mfrac>" in display[0]
    assert 'displaystyle="true"' in display[0]  # broken before '=' into inline pieces in display style
    assert "\\(" not in html and "\\[" not in html  # nothing left for a client-side library


def test_comparisons_in_display_math_typeset_like_inline_ones(tmp_path):
    """Markdown escapes <, > and & in a display formula's text; LaTeX must still see them."""
    html = page(tmp_path, r"""
        # T

        Inline $j > i$ and $a < b$.

        $$
        s_{ij} = -\infty \text{ if } j > i, \quad \sum_{j < i} x_j
        $$
        """)
    display = re.findall(r'<div class="math-display">(<math .*?</math>)</div>', html, re.S)[0]
    assert display.count("<mo>&#x0003E;</mo>") == 1 and "<mo>&#x0003C;</mo>" in display
    assert "&amp;" not in display and "<mi>g</mi><mi>t</mi>" not in display


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


@pytest.mark.parametrize("markdown, line, words", [
    ("# T\n\nFine $x$.\n\nCost $x^2 here.\n", 5, "'$' opens a formula that is never closed, near '$x^2'"),
    ("# T\n\n$$\nx^2\n$$\n\n$$\ny^2\n\nmore\n", 7, "'$$' display formula is not closed"),
    ("# T\n\nText $$x$$ inline.\n", 3, "'$$' display formula inside a paragraph"),
    ("# T\n\nText.\n\n$$\n$$\n", 5, "empty formula"),  # found by Hypothesis
])
def test_raw_latex_left_on_the_page_is_an_error(tmp_path, markdown, line, words):
    with pytest.raises(BuildError) as err:
        page(tmp_path, markdown)
    assert err.value.line == line and words in err.value.message, str(err.value)


def test_prices_escaped_dollars_and_code_stay_text(tmp_path):
    html = page(tmp_path, "# T\n\nIt costs $5 and $10, or \\$x, and `$y` is code; a $ sign.\n")
    assert "It costs $5 and $10, or $x, and <code>$y</code> is code; a $ sign." in html


@pytest.mark.parametrize("latex", [r"\sum_{j} w_j", r"\query{\sum_j q_j}", r"\left(\sum_j x_j\right)",
                                   r"\max_j s_j", r"\prod_{i=1}^{n} x_i"])
def test_big_operators_take_limits_below_and_above(latex):
    mathml = to_mathml(latex, display=True)
    assert re.search(r'<munder(over)?><mo( movablelimits="true")?>', mathml), mathml
    assert not re.search(r"<msub(sup)?><mo", mathml)


def test_nolimits_keeps_limits_beside():
    assert "<msub><mo>" in to_mathml(r"\sum\nolimits_j x", display=True)


def test_a_formula_keeps_its_punctuation_on_its_line(tmp_path):
    html = page(tmp_path, "# T\n\nSo $x$. And ($y$), then $z$ ends\n")
    assert re.search(r'<span class="math-nowrap"><span class="math"><math [^>]*>.*?</math></span>\.</span> And',
                     html)
    assert re.search(r'<span class="math-nowrap"><span class="math"><math .*?</math></span>\),</span> then', html)
    assert re.search(r'</span> ends', html) and html.count("math-nowrap") == 2


def test_math_css_does_not_clip_or_enlarge():
    css = (ROOT / "theme" / "css" / "site.css").read_text()
    rule = re.search(r"\.math-display \{([^}]*)\}", css).group(1)
    assert "padding" in rule  # room for ink past the math box, which overflow would clip
    assert re.search(r"(?m)^math \{ font-size: 1em; \}", css)
    assert re.search(r"\.math-nowrap \{ white-space: nowrap; \}", css)


def test_text_in_a_formula_is_escaped_and_links_are_checked():
    assert "<mtext>a&lt;b&amp;c&gt;</mtext>" in to_mathml(r"\text{a<b&c>}", False)
    assert 'href="https://example.org/?a=1&amp;b=2"' in to_mathml(r"\href{https://example.org/?a=1&b=2}{x}", False)
    for url in ("javascript:alert(1)", "JaVaScRiPt:x", "java&#115;cript:x", "data:text/html,x"):
        with pytest.raises(MathError, match=r"\\href to '(javascript|data):'"):
            to_mathml(rf"\href{{{url}}}{{x}}", False)
