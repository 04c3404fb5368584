"""The math font the site ships: STIX Two Math, cut down at build time to the glyphs the formulas use.

Why MathML with a bundled OpenType math font, not KaTeX: the formulas are already MathML, which
screen readers read and browsers lay out themselves (Chromium, Firefox and Safari all implement
MathML Core), so no script and no inline style is needed, and the pages' Content-Security-Policy
(style-src 'self') stays as it is, where KaTeX's HTML output positions every glyph with style
attributes. What MathML lacked was a font: a browser typesets roots, fractions, stretchy brackets
and limits from the font's OpenType MATH table, and a reader's system may have no font with one
(Debian's Chromium then drew `\\sqrt{n}` as "√π" with no bar). STIX Two Math (SIL Open Font License,
shipped in the PyPI package ziamath) has a complete MATH table; fontTools keeps that table, and the
size variants and pieces it points to, when it subsets the font to the site's characters.
"""
from __future__ import annotations

import io
import re
import importlib.util
from pathlib import Path

from .errors import BuildError

PATH = "assets/fonts/math.woff2"
FAMILY = "Series Math"  # our subset's own name, so it never stands in for a reader's full STIX Two Math
RE_MATH = re.compile(r"<math\b[^>]*>(.*?)</math>", re.S)
RE_TAG = re.compile(r"<[^>]*>")
# A single-letter <mi> is drawn in mathematical italic (U+1D434...), \mathbf in bold: those forms
# of every letter used are kept too.
ITALIC = {**{chr(ord("A") + i): 0x1D434 + i for i in range(26)}, **{chr(ord("a") + i): 0x1D44E + i for i in range(26)},
          **{chr(0x391 + i): 0x1D6E2 + i for i in range(25)}, **{chr(0x3B1 + i): 0x1D6FC + i for i in range(25)}}
BOLD = {**{chr(ord("A") + i): 0x1D400 + i for i in range(26)}, **{chr(ord("a") + i): 0x1D41A + i for i in range(26)}}
ALWAYS = " 0123456789()[]{}|.,;:+−=<>/√"  # √: msqrt draws it from the font, though no text holds it


def _source() -> Path:
    """The font file inside the installed ziamath package, found without importing it (its import
    loads the font to render with, which the build does not need)."""
    spec = importlib.util.find_spec("ziamath")
    font = Path(spec.submodule_search_locations[0]) / "fonts" / "STIXTwoMath-Regular.ttf" if spec else None
    if font is None or not font.is_file():
        raise BuildError(Path(__file__), None, "the math font is missing: the Python package ziamath, which "
                                               "ships STIX Two Math, is not installed (pip install -e .)")
    return font


def characters(pages: list[str]) -> str:
    """Every character inside a <math> of `pages`, with the italic and bold forms of its letters."""
    from html import unescape

    found, bold = set(ALWAYS), False
    for page in pages:
        for m in RE_MATH.finditer(page):
            found.update(unescape(RE_TAG.sub("", m.group(1))))
            bold = bold or 'mathvariant="bold' in m.group(1)
    found |= {chr(ITALIC[c]) for c in found if c in ITALIC}
    found |= {chr(BOLD[c]) for c in found if c in BOLD and bold}
    found.add("\u210E")  # italic h lives in Letterlike Symbols (U+1D455 is a hole)
    return "".join(sorted(found))


def math_font(chars: str) -> bytes:
    """The woff2 of STIX Two Math with the glyphs for `chars` and the MATH table's closure over
    them; the same characters always give the same bytes (no timestamp is written)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(_source(), recalcTimestamp=False)
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]  # ssty (script-size primes), dtls, flac: the MATH layout relies on them
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # with the copyright and the licence (OFL)
    options.name_languages = [0x409]
    options.notdef_outline = True
    # Without TrueType hinting (its instructions and fpgm, prep, cvt tables): a quarter smaller, on
    # the first paint's path of every page with a formula near the top (docs/build.md). Browsers on
    # macOS, iOS, Android and Linux ignore the hints; Windows draws formulas a little softer at small sizes.
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(font)
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out, reorderTables=False)
    return out.getvalue()
