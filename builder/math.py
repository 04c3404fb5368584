"""Math typeset at build time: pymdownx.arithmatex finds $...$ and $$...$$ (it knows code,
escapes and prices), latex2mathml turns the LaTeX into MathML, which browsers render natively.

So no client-side math library is needed, and a formula reads the same without JavaScript.
`\\query{q}`, `\\key{k}` and `\\value{v}` colour a part of a formula in the series' colours.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as etree

from latex2mathml.converter import convert
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

ROLES = ("query", "key", "value")
RE_ROLE = re.compile(r"\\(" + "|".join(ROLES) + r")(?![A-Za-z])")
RE_INLINE = re.compile(r"^\\\((.*)\\\)$", re.S)
RE_BLOCK = re.compile(r"^\\\[(.*)\\\]$", re.S)
RE_UNKNOWN = re.compile(r"<mi>(\\[A-Za-z]+)</mi>")


class MathError(Exception):
    """Bad LaTeX; `.latex` is the formula, so the builder can find its line."""

    def __init__(self, latex: str, message: str):
        super().__init__(message)
        self.latex = latex


def _depths(latex: str):
    """(index, brace depth after it) for each character; escaped braces \\{ \\} do not count."""
    masked = re.sub(r"\\[{}]", "  ", latex)
    depth = 0
    for i, ch in enumerate(masked):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        yield i, depth


def _expand_roles(latex: str) -> str:
    r"""\query{q} -> {\color{query}{q}}: a group, so the colour ends with the argument."""
    out, i = [], 0
    for m in RE_ROLE.finditer(latex):
        if m.start() < i:
            continue  # inside an argument already copied (nested roles are kept as they are)
        j = m.end()
        while j < len(latex) and latex[j] == " ":
            j += 1
        if j >= len(latex) or latex[j] != "{":
            raise MathError(latex, f"\\{m.group(1)} needs an argument in braces, as in \\{m.group(1)}{{x}}")
        k = next((k for k, depth in _depths(latex[j:]) if depth == 0), len(latex) - j) + j
        out.append(latex[i:m.start()] + r"{\color{" + m.group(1) + "}" + _expand_roles(latex[j:k + 1]) + "}")
        i = k + 1
    out.append(latex[i:])
    return "".join(out)


def to_mathml(latex: str, display: bool) -> str:
    """MathML for one formula; MathError for LaTeX that would not typeset faithfully."""
    depths = [d for _, d in _depths(latex)]
    if min(depths, default=0) < 0 or (depths and depths[-1] != 0):
        raise MathError(latex, f"unbalanced braces in formula ${latex.strip()}$")
    source = _expand_roles(latex)
    try:
        mathml = convert(source, display="block" if display else "inline")
    except Exception as err:  # latex2mathml raises its own error classes, all Exception subclasses
        raise MathError(latex, f"cannot typeset ${latex.strip()}$: {type(err).__name__} {err}".strip()) from None
    unknown = RE_UNKNOWN.search(mathml)
    if unknown:
        raise MathError(latex, f"unknown LaTeX command {unknown.group(1)} in ${latex.strip()}$")
    for role in ROLES:
        mathml = mathml.replace(f'mathcolor="{role}"', f'class="math-{role}"')
    return mathml.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "", 1)  # HTML needs none


class _MathTreeprocessor(Treeprocessor):
    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            if el.get("class") != "arithmatex" or el.tag not in ("span", "div"):
                continue
            text = (el.text or "").strip()
            m = (RE_BLOCK if el.tag == "div" else RE_INLINE).match(text)
            if not m:
                continue
            mathml = to_mathml(m.group(1), display=el.tag == "div")
            el.set("class", "math-display" if el.tag == "div" else "math")
            el.text = self.md.htmlStash.store(mathml)


class MathExtension(Extension):
    """arithmatex (generic output) finds the formulas; this turns them into MathML."""

    def extendMarkdown(self, md):
        md.registerExtension(self)
        from pymdownx.arithmatex import ArithmatexExtension

        ArithmatexExtension(generic=True, smart_dollar=True).extendMarkdown(md)
        md.treeprocessors.register(_MathTreeprocessor(md), "attention_math", 12)
