"""Formulas as one line of plain text, for the search index: `A = softmax(QKᵀ/√dₖ)`.

Pagefind indexes the text of a page, and the text of MathML is its leaves run together
("QK⊤dk" for a fraction over a root), which reads as nonsense in a search excerpt. The search
index is therefore given each formula written out linearly; the pages keep their MathML.
"""
from __future__ import annotations

import re
from html import escape, unescape
import xml.etree.ElementTree as etree

RE_MATH = re.compile(r"<math\b[^>]*>.*?</math>", re.S)  # MathML never nests: one linear scan
RE_TAG = re.compile(r"<[^>]*>")
INVISIBLE = dict.fromkeys(map(ord, "\u2061\u2062\u2063\u2064"))  # function application, invisible times...
SUB = dict(zip("0123456789+-=()aehijklmnoprstuvxβγρφχ", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ"))
SUP = dict(zip("0123456789+-=()inT⊤′", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿᵀᵀ′"))
LEAVES = ("mi", "mn", "mo", "mtext", "ms")
SPACED = set("=≈≠≤≥<>+−×·→←↦∈∉⊂⊆≡∼∝")  # written with a space either side
SKIPPED = ("annotation", "annotation-xml", "mphantom", "none", "mprescripts")


def _tag(el) -> str:
    return el.tag.rsplit("}", 1)[-1]


def _grouped(text: str) -> str:
    """Brackets around a part of more than one symbol, where it would be ambiguous without."""
    text = text.strip()
    if len(text) <= 1 or re.fullmatch(r"√?\w+|[(\[{][^()\[\]{}]*[)\]}]", text):
        return text
    return f"({text})"


def _script(text: str, table: dict, mark: str) -> str:
    text = text.replace(" ", "")
    if text and all(ch in table for ch in text):
        return "".join(table[ch] for ch in text)
    return mark + _grouped(text)


def _text(el) -> str:
    tag = _tag(el)
    kids = list(el)
    if tag in LEAVES:
        text = (el.text or "").translate(INVISIBLE)
        return f" {text} " if tag == "mo" and text in SPACED else text
    if tag in SKIPPED:
        return ""
    if tag == "mspace":
        width = el.get("width") or ""
        return "" if width.startswith("-") or width.startswith("negative") else " "
    if tag == "semantics":
        return _text(kids[0]) if kids else ""
    if tag == "mfrac" and len(kids) == 2:
        return f"{_grouped(_text(kids[0]))}/{_grouped(_text(kids[1]))}"
    if tag == "msqrt":
        return "√" + _grouped("".join(map(_text, kids)))
    if tag == "mroot" and len(kids) == 2:
        return _script(_text(kids[1]), SUP, "^") + "√" + _grouped(_text(kids[0]))
    if tag in ("msub", "munder") and len(kids) == 2:
        return _text(kids[0]) + _script(_text(kids[1]), SUB, "_")
    if tag in ("msup", "mover") and len(kids) == 2:
        if tag == "mover" and el.get("accent") == "true":
            return _text(kids[0])  # x̂, x̄: the letter is what a search excerpt needs
        return _text(kids[0]) + _script(_text(kids[1]), SUP, "^")
    if tag in ("msubsup", "munderover") and len(kids) == 3:
        return _text(kids[0]) + _script(_text(kids[1]), SUB, "_") + _script(_text(kids[2]), SUP, "^")
    if tag == "mtable":
        return "[" + "; ".join(", ".join(_text(cell).strip() for cell in row) for row in kids) + "]"
    return "".join(map(_text, kids))


def linear_text(mathml: str) -> str:
    """One formula's MathML as a line of text; its bare text if the MathML does not parse."""
    try:
        root = etree.fromstring(mathml)
    except etree.ParseError:
        return unescape(RE_TAG.sub("", mathml)).translate(INVISIBLE)
    return re.sub(r"\s+", " ", _text(root)).strip()


def linear_math(page: str) -> str:
    """The page with every <math> element replaced by its linear text (escaped for HTML)."""
    return RE_MATH.sub(lambda m: escape(linear_text(m.group()), quote=False), page)
