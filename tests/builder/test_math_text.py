"""Formulas written out as one line for the search index (builder/math_text.py)."""
import pytest

from builder.math import to_mathml
from builder.math_text import linear_math, linear_text


@pytest.mark.parametrize("latex, text", [
    (r"A = \operatorname{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)", "A = softmax(QKᵀ/√dₖ)"),
    (r"\text{output}_i = \sum_j w_{ij}\, \value{v}_j", "outputᵢ = ∑ⱼwᵢⱼ vⱼ"),
    (r"\sqrt[3]{x^2+1}", "³√(x² + 1)"),
    (r"\begin{pmatrix}1&2\\3&4\end{pmatrix}", "([1, 2; 3, 4])"),
    (r"\sum_{i=1}^{n} x_i^2", "∑ᵢ₌₁ⁿxᵢ²"),
    (r"e^{s_i - m}", "e^(sᵢ−m)"),  # no subscript letter for every character: written with ^ and brackets
    (r"\frac{a+b}{2}", "(a + b)/2"),
])
def test_a_formula_reads_as_one_line(latex, text):
    assert linear_text(to_mathml(latex, display=True)) == text


def test_a_page_keeps_its_text_and_loses_its_markup():
    root = to_mathml(r"\sqrt{d_k}", display=False)
    page = f"<p>Divide by {root} &amp; then</p>"
    assert linear_math(page) == "<p>Divide by √dₖ &amp; then</p>"
    assert linear_math("<p>a <math><mi>&lt;</mi></math></p>") == "<p>a &lt;</p>"  # escaped again
    assert linear_text("<math><mi>x</mi><mo>&nbsp;</mo></math>") == "x\xa0"  # unparsable: its text alone
