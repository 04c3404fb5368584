"""Math typeset at build time: pymdownx.arithmatex finds $...$ and $$...$$ (it knows code,
escapes and prices), latex2mathml turns the LaTeX into MathML, which browsers render natively.

So no client-side math library is needed, and a formula reads the same without JavaScript.
`\\query{q}`, `\\key{k}` and `\\value{v}` colour a part of a formula in the series' colours.
"""
from __future__ import annotations

import functools
import html
import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass
from xml.sax.saxutils import unescape

from latex2mathml.converter import convert_to_element
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from .errors import clip
from .links import SAFE_SCHEMES, browser_scheme
from .math_break import pieces

ROLES = ("query", "key", "value")
RE_ROLE = re.compile(r"\\(" + "|".join(ROLES) + r")(?![A-Za-z])")
RE_INLINE = re.compile(r"^\\\((.*)\\\)$", re.S)
RE_BLOCK = re.compile(r"^\\\[(.*)\\\]$", re.S)
RE_UNKNOWN = re.compile(r"<mi>(\\[A-Za-z]+)</mi>")
# A '$' arithmatex left as text: '$$', or '$' before something other than a digit (a price),
# a space or the end. Either is a formula that was never closed, and its raw LaTeX would show.
RE_STRAY_DOLLAR = re.compile(r"\$\$|\$(?=[^\s\d$])")
# latex2mathml keeps characters as references (&#x0003C;) in its element texts, and unescapes its
# whole output, so a '<' or '&' of \text{...} or \href{...} would reach the page raw.
RE_BARE_MARKUP = re.compile(r"&(?!#x[0-9A-Fa-f]+;|#[0-9]+;|[A-Za-z]+;)|<|>")
RE_TRAILING_PUNCTUATION = re.compile(r"^[.,;:!?)\]…’”»]+")
# Operators whose limits go below and above in display style (latex2mathml writes msub/msubsup for
# them inside any group); with movablelimits the browser moves them aside where LaTeX would too.
LIMIT_OPERATORS = {"\u2211", "\u220f", "\u2210", "\u22c3", "\u22c2", "\u2a01", "\u2a02", "\u2a00", "\u22c1",
                   "\u22c0", "\u2a04", "\u2a06", "max", "min", "lim", "sup", "inf", "argmax", "argmin",
                   "limsup", "liminf", "det", "gcd", "Pr"}


@dataclass
class MathFound:
    """Which kinds of formula a page holds: the page preloads the maths font, and loads the script
    that lets a wide display formula scroll, only when it has them."""
    inline: bool = False
    display: bool = False

    @property
    def any(self) -> bool:
        return self.inline or self.display


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


@functools.lru_cache(maxsize=8192)
def to_mathml(latex: str, display: bool) -> str:
    """MathML for one formula; MathError for LaTeX that would not typeset faithfully. Kept by its
    LaTeX: a page is typeset when it is drafted and again when rendered, and serve renders every page."""
    if not latex.strip():
        raise MathError("", "empty formula: write LaTeX between the dollars, or a literal dollar as \\$")
    depths = [d for _, d in _depths(latex)]
    if min(depths, default=0) < 0 or (depths and depths[-1] != 0):
        raise MathError(latex, f"unbalanced braces in formula ${clip(latex.strip())}$")
    source = _expand_roles(latex)
    try:
        mathml = _serialise(convert_to_element(source, display="block" if display else "inline"), latex)
    except MathError:
        raise
    except Exception as err:  # latex2mathml raises its own error classes, all Exception subclasses
        raise MathError(latex, f"cannot typeset ${clip(latex.strip())}$: {type(err).__name__} {clip(err, 80)}".strip()) from None
    unknown = RE_UNKNOWN.search(mathml)
    if unknown:
        raise MathError(latex, f"unknown LaTeX command {clip(unknown.group(1), 40)} in ${clip(latex.strip())}$")
    for role in ROLES:
        mathml = mathml.replace(f'mathcolor="{role}"', f'class="math-{role}"')
    mathml = mathml.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "", 1)  # HTML needs none
    return mathml if "\\nolimits" in latex else _movable_limits(mathml)


def display_mathml(latex: str) -> str:
    """A display formula as MathML: one <math>, or, where it has top-level places to break
    (builder/math_break.py), one inline <math> in display style per piece, with a line-break
    opportunity before each relation and a space at each \\quad or \\qquad, so a narrow screen
    wraps the formula instead of scrolling it."""
    whole = to_mathml(latex, display=True)  # checks the formula as a whole, and is the one-piece answer
    parts = pieces(latex)
    if len(parts) == 1:
        return whole
    out = []
    for join, piece in parts:
        if join == "relation":
            out.append("<wbr>")
        elif join:
            out.append(f'<span class="math-{join}"> </span>')
        out.append(to_mathml(piece, display=True).replace('<math display="block">', '<math displaystyle="true">', 1))
    return "".join(out)


def _serialise(tree: etree.Element, latex: str) -> str:
    """latex2mathml's own serialisation (tostring, then unescape), with text and attribute values
    escaped first so that they come out escaped; an \\href to an unsafe scheme is a MathError."""
    def esc(text):
        return RE_BARE_MARKUP.sub(lambda m: {"&": "&amp;", "<": "&lt;", ">": "&gt;"}[m.group()], text)

    for el in tree.iter():
        href = el.get("href")
        if href is not None and browser_scheme(href) not in ("", *SAFE_SCHEMES):
            raise MathError(latex, f"\\href to '{clip(browser_scheme(href), 20)}:' in ${clip(latex.strip())}$: "
                                   f"formulas may link to {', '.join(s + ':' for s in SAFE_SCHEMES)} or a relative URL")
        el.text, el.tail = (esc(t) if t else t for t in (el.text, el.tail))
        for key, value in el.attrib.items():
            el.set(key, esc(value))
    return unescape(etree.tostring(tree, encoding="unicode"))


def _movable_limits(mathml: str) -> str:
    """msub/msubsup on a big operator (sum, prod, max, ...) become munder/munderover with
    movablelimits: limits below and above in display math, beside the sign inline and in fractions."""
    if "<msub" not in mathml:
        return mathml
    root = etree.fromstring(mathml)
    changed = False
    for el in root.iter():
        if el.tag in ("msub", "msubsup") and len(el) and el[0].tag == "mo" and (el[0].text or "") in LIMIT_OPERATORS:
            el.tag = "munder" if el.tag == "msub" else "munderover"
            el[0].set("movablelimits", "true")
            changed = True
    return etree.tostring(root, encoding="unicode") if changed else mathml


def _stray_dollar(text: str) -> None:
    m = RE_STRAY_DOLLAR.search(text or "")
    if not m:
        return
    near = re.split(r"[\s\x02\x03]", text[m.start():], maxsplit=1)[0][:30] or "$"
    if m.group() == "$$":
        raise MathError(near, "'$$' display formula is not closed: put '$$' on the lines before and after "
                              "the formula (write '\\$' for a literal dollar)")
    raise MathError(near, f"'$' opens a formula that is never closed, near '{near}': close it with '$', "
                          "or write '\\$' for a literal dollar")


class _MathTreeprocessor(Treeprocessor):
    """Typesets each formula; then refuses '$' left as text, and keeps punctuation with its formula."""

    def __init__(self, md, found: MathFound):
        super().__init__(md)
        self.found = found

    def run(self, root: etree.Element) -> None:
        inline = []
        for parent in root.iter():
            for el in parent:
                _stray_dollar(el.tail)
                if el.tag not in ("code", "pre") and el.get("class") != "arithmatex":
                    _stray_dollar(el.text)
                if el.get("class") != "arithmatex" or el.tag not in ("span", "div"):
                    continue
                text = (el.text or "").strip()
                m = (RE_BLOCK if el.tag == "div" else RE_INLINE).match(text)
                if not m:
                    continue
                # Display formulas reach here as Markdown left them, with <, > and & escaped as
                # entities (inline ones arrive untouched): LaTeX must see the characters themselves.
                latex = html.unescape(m.group(1)) if el.tag == "div" else m.group(1)
                mathml = display_mathml(latex) if el.tag == "div" else to_mathml(latex, display=False)
                el.set("class", "math-display" if el.tag == "div" else "math")
                if el.tag == "div":
                    self.found.display = True
                else:
                    self.found.inline = True
                el.text = self.md.htmlStash.store(mathml)
                if el.tag == "span":
                    before = parent.text if list(parent).index(el) == 0 else parent[list(parent).index(el) - 1].tail
                    if (el.tail or "").startswith("$") or (before or "").endswith("$"):
                        raise MathError("$$", "'$$' display formula inside a paragraph: put '$$' on lines of "
                                              "their own, before and after the formula")
                    inline.append((parent, el))
        for parent, el in inline:
            _keep_punctuation(parent, el)


def _keep_punctuation(parent: etree.Element, el: etree.Element) -> None:
    """`$x$.`: wrap the formula and the punctuation after it in a nowrap span, so no line break
    falls between them."""
    m = RE_TRAILING_PUNCTUATION.match(el.tail or "")
    if not m:
        return
    wrapper = etree.Element("span", {"class": "math-nowrap"})
    wrapper.tail = el.tail[m.end():]
    el.tail = m.group()
    parent.insert(list(parent).index(el), wrapper)
    parent.remove(el)
    wrapper.append(el)


class MathExtension(Extension):
    """arithmatex (generic output) finds the formulas; this turns them into MathML and notes in
    `found` which kinds it met."""

    def __init__(self, found: MathFound | None = None):
        super().__init__()
        self.found = found if found is not None else MathFound()

    def extendMarkdown(self, md):
        md.registerExtension(self)
        from pymdownx.arithmatex import ArithmatexExtension

        ArithmatexExtension(generic=True, smart_dollar=True).extendMarkdown(md)
        md.treeprocessors.register(_MathTreeprocessor(md, self.found), "attention_math", 12)
