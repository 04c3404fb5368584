"""The math font subset (builder/math_font.py): the site's characters, its MATH table, the same bytes each time."""
import io

from fontTools.ttLib import TTFont

from builder.math import to_mathml
from builder.math_font import characters, math_font


def test_characters_are_those_inside_math_with_the_italic_forms_of_letters():
    formula = to_mathml(r"\alpha_k \le \sqrt{n}", display=False)
    page = f"<p>Outside: Z. {formula}</p>"
    chars = characters([page])
    assert {"α", "k", "≤", "n", "√", "\U0001D6FC", "\U0001D458"} <= set(chars)  # 𝛼 and 𝑘: how <mi> draws them
    assert "Z" not in chars and "O" not in chars and "\U0001D41A" not in chars  # no bold: no \mathbf here


def test_the_subset_keeps_the_math_table_and_the_licence_and_is_reproducible():
    chars = characters(["<math><msqrt><mi>x</mi></msqrt><mo>(</mo><mo>)</mo></math>"])
    data = math_font(chars)
    assert data == math_font(chars)  # no timestamp or order that changes between builds
    font = TTFont(io.BytesIO(data))
    assert font.flavor == "woff2" and "MATH" in font
    cmap = font.getBestCmap()
    assert all(ord(c) in cmap for c in chars if c != " ") and ord("Z") not in cmap
    variants = font["MATH"].table.MathVariants.VertGlyphCoverage.glyphs
    assert cmap[ord("(")] in variants and cmap[ord("√")] in variants  # brackets and roots still stretch
    assert "Open Font License" in font["name"].getDebugName(13)
    assert "fpgm" not in font and "prep" not in font  # unhinted: no bytes for hints most browsers ignore
