"""Where a display formula may wrap (builder/math_break.py), and the MathML it becomes (builder/math.py)."""
import re

import pytest

from builder.math import display_mathml
from builder.math_break import pieces


@pytest.mark.parametrize("latex, expected", [
    (r"a = b = c", [("", "a "), ("relation", "= b "), ("relation", "= c")]),
    (r"x \le 1, \qquad y \approx 2", [("", "x "), ("relation", r"\le 1, "), ("qquad", " y "), ("relation", r"\approx 2")]),
    (r"f(x) \quad \text{for } x", [("", "f(x) "), ("quad", r" \text{for } x")]),
    (r"\frac{a = b}{2} + \text{c = d}", [("", r"\frac{a = b}{2} + \text{c = d}")]),  # inside braces: not top level
    (r"\left\{ a = b \right\} = c", [("", r"\left\{ a = b \right\} "), ("relation", "= c")]),
    (r"\begin{pmatrix} a = 1 \\ b \end{pmatrix} = v", [("", r"\begin{pmatrix} a = 1 \\ b \end{pmatrix} "), ("relation", "= v")]),
    (r"= x", [("", "= x")]),  # a leading relation has nothing to break from
])
def test_pieces_break_before_top_level_relations_and_at_wide_spaces(latex, expected):
    assert pieces(latex) == expected


def test_a_broken_display_is_inline_math_in_display_style_with_break_opportunities():
    html = display_mathml(r"\sum_{i=1}^n a_i = b, \qquad c")
    assert html.count('<math displaystyle="true">') == 3 and 'display="block"' not in html
    assert re.search(r"</math><wbr><math [^>]*><mrow><mo>&#x0003D;</mo>", html)
    assert '</math><span class="math-qquad"> </span><math' in html
    assert "<munderover><mo>&#x02211;</mo>" in html  # limits still go below and above
    assert display_mathml(r"a + b").startswith('<math display="block">')  # nowhere to break: one block
