"""Python-Markdown with our extensions: one configured instance per chapter render."""
from __future__ import annotations

import re

import markdown
from pymdownx.blocks import BlocksExtension

from .citations import CitationError, CitationsExtension
from .directives import DIRECTIVES
from .directives.common import PLURAL, DirectiveMismatch, LinkCheck
from .errors import BuildError, line_containing, split_lines
from .links import LinkError, link_line
from .math import MathError, MathExtension
from .sidenotes import SidenoteError, SidenotesExtension

RE_LEFTOVER_DIRECTIVE = re.compile(r"(?m)^(?:<p>)?[ ]*/{3,}[ ]*[\w-]*")


class _Directives(BlocksExtension):
    def extendMarkdownBlocks(self, md, block_mgr):
        for directive in DIRECTIVES:
            block_mgr.register(directive.Block, self.getConfigs())


RE_ANY_DIRECTIVE = re.compile(r"(?:^|[\s>])/{3,}[ ]*([\w-]+)[ ]*(?:\|(.*))?$")


def _unscanned_directive_line(lines: list[str], scanned: set[int], argument: str | None = None) -> int:
    """The first '///' header (in a quote, say) that the line-aware scan did not take as a directive."""
    for i, line in enumerate(lines, 1):
        m = RE_ANY_DIRECTIVE.search(line)
        if m and i not in scanned and (argument is None or (m.group(2) or "").strip() == argument):
            return i
    return next(iter(sorted(scanned)), 1)


def _formula_line(lines: list[str], latex: str) -> int | None:
    """The source line where a formula starts (its first line of text, found verbatim)."""
    if latex == "$$":
        return _unclosed_display_line(lines)
    if not latex.strip():  # an empty formula: the first pair of dollars
        return line_containing(lines, "$$") or line_containing(lines, "$")
    return line_containing(lines, next((part.strip() for part in split_lines(latex) if part.strip()), ""))


def _unclosed_display_line(lines: list[str]) -> int | None:
    """The '$$' that opens a display formula no later '$$' closes in the same paragraph."""
    opened = None
    for i, line in enumerate(lines, 1):
        text = line.strip()
        if opened and not text:
            return opened
        if "$$" in text:
            closed_here = text.count("$$") % 2 == 0
            opened = None if opened else (None if closed_here else i)
    return opened or line_containing(lines, "$$")


def render(path, text: str, rendered: dict, source, numbers: dict | None = None,
           bibliography=None) -> tuple[str, list]:
    """Markdown to HTML and its table of contents; `rendered` maps each directive's name to its
    pre-rendered blocks in source order (figures, quizzes, exercises), `source` is the line-aware
    scan of the chapter, for error lines, `numbers` the chapter's reference number of each cited key."""
    scanned = {d.line for d in source.directives}
    md = markdown.Markdown(
        extensions=["extra", "toc", "sane_lists", "smarty", _Directives(), LinkCheck(), MathExtension(),
                    SidenotesExtension(), CitationsExtension(numbers or {}, bibliography)],
        extension_configs={"toc": {"permalink": False}},
        output_format="html",
    )
    md.attention_queues = {kind: list(rendered.get(kind, [])) for kind in PLURAL}
    try:
        html = md.convert(text)
    except MathError as err:
        raise BuildError(path, _formula_line(source.lines, err.latex), str(err)) from None
    except CitationError as err:
        raise BuildError(path, line_containing(source.lines, f"@{err}"),
                         f"citation of '{err}' where the builder expected none "
                         "(inside HTML or an unusual code block?)") from None
    except LinkError as err:
        raise BuildError(path, link_line(source.lines, err.url), str(err)) from None
    except SidenoteError as err:
        raise BuildError(path, source.note_defs.get(err.name), str(err)) from None
    except DirectiveMismatch as err:
        line = _unscanned_directive_line(source.lines, scanned, str(err))
        raise BuildError(path, line, f"{err.kind} '{err}' is nested where {PLURAL[err.kind]} cannot go (a quote?); "
                         "start '///' lines at the left margin or inside a list item") from None
    for kind, left in md.attention_queues.items():
        if left:
            raise BuildError(path, left[0].line, f"{kind} '{left[0].name}' was not rendered: Markdown read it as "
                             "code or plain text; start '///' lines at the left margin (or inside a list item)")
    stripped = re.sub(r"(?s)<pre.*?</pre>|<code.*?</code>", "", html)
    if RE_LEFTOVER_DIRECTIVE.search(stripped):
        raise BuildError(path, _unscanned_directive_line(source.lines, scanned),
                         "a '///' directive line was left as plain text by Markdown")
    return html, getattr(md, "toc_tokens", [])
