"""Where a display formula may break across lines: before a relation, or at a `\\qquad` between
two formulas, when either stands at the formula's top level.

MathML (as browsers implement it) never breaks a formula, so a formula wider than a phone's
screen would have to scroll, and a scroll box is a place a keyboard cannot reach. The builder
typesets each piece as its own `<math>` and lets the line wrap between them, the way TeX breaks
long displays by hand: `A = B = C` reads on one line when there is room, and as `A = B` over
`= C` when there is not.
"""
from __future__ import annotations

import re

# Top-level separators: a wide space between two formulas, or a relation (the break goes before it).
RE_TOKEN = re.compile(
    r"\\(?:begin|end)\s*\{[^{}]*\}"  # environments: nothing inside them is top level
    r"|\\(?:left|right)(?![A-Za-z])"  # \left( ... \right): one delimited group
    r"|\\[{}]|\\[A-Za-z]+|\\.|[{}=<>]")
GAPS = {r"\qquad": "qquad", r"\quad": "quad"}
RELATIONS = {"=", "<", ">", r"\approx", r"\le", r"\leq", r"\ge", r"\geq", r"\ne", r"\neq", r"\equiv", r"\sim"}


def pieces(latex: str) -> list[tuple[str, str]]:
    """[(how it joins the piece before: "" for the first, "quad", "qquad" or "relation", its LaTeX)], in order;
    one piece when the formula has no top-level place to break."""
    out: list[tuple[str, str]] = []
    depth, start, join = 0, 0, ""
    for m in RE_TOKEN.finditer(latex):
        token = m.group()
        if token == "{" or token.startswith((r"\begin", r"\left")):
            depth += 1
        elif token == "}" or token.startswith((r"\end", r"\right")):
            depth -= 1
        elif depth == 0 and (token in GAPS or token in RELATIONS):
            head = latex[start:m.start()]
            if head.strip():  # a relation at the very start (`= x`) has nothing before it to break from
                out.append((join, head))
                start, join = (m.end(), GAPS[token]) if token in GAPS else (m.start(), "relation")
    out.append((join, latex[start:]))
    return [(j, p) for j, p in out if p.strip()] or [("", latex)]
