"""Python-Markdown with our extensions: one configured instance per chapter render.

It reads the prose the line-aware scan made (builder/source.py `prose`); each directive's block is
put in where its marks stand, around the Markdown between them (its caption, question or task).
"""
from __future__ import annotations


import markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from .citations import CitationError, CitationsExtension
from .errors import BuildError, line_containing, split_lines
from .links import LinkCheck, LinkError, link_line
from .math import MathError, MathExtension, MathFound
from .pages import default_environment
from .sidenotes import SidenoteError, SidenotesExtension
from .source import block_marks


class _Misplaced(Exception):
    """A directive's marks where Markdown cannot hold a block (raw HTML, a table); `.k` is which."""

    def __init__(self, k: int):
        super().__init__(k)
        self.k = k


class _PutMarks(Preprocessor):
    """Writes each directive's mark on the line `prose` left for it, after Python-Markdown has
    stripped STX and ETX from its input (the marks hold them so no text can pass for one)."""

    def __init__(self, md, marks: dict[int, str]):
        super().__init__(md)
        self.marks = marks

    def run(self, lines):
        for i, mark in self.marks.items():
            lines[i] = mark
        return lines


class _PutBlocks(Treeprocessor):
    """Replaces each pair of marks, and what Markdown made between them, by the directive's element
    with that Markdown inside: one pass over each element's children."""

    def __init__(self, md, blocks: list, templates):
        super().__init__(md)
        self.blocks = blocks  # (use, directive, what it computed), in source order: the k of the marks
        self.templates = templates  # the theme's, where each directive's template is
        self.opens, self.ends = {}, {}
        for k in range(len(blocks)):
            start, end = block_marks(k)
            self.opens[start], self.ends[end] = k, k

    def _mark(self, el) -> str | None:
        return el.text.strip() if el.tag == "p" and not len(el) and el.text else None

    def run(self, root):
        if not self.blocks:
            return
        placed = set()
        for parent in list(root.iter()):
            if not any(self._mark(child) in self.opens or self._mark(child) in self.ends for child in parent):
                continue
            out, open_at = [], []  # the children kept, and (k, where its Markdown starts in out)
            for child in parent:
                mark = self._mark(child)
                if mark in self.opens:
                    open_at.append((self.opens[mark], len(out)))
                elif mark in self.ends:
                    k, at = open_at.pop() if open_at else (self.ends[mark], None)
                    if at is None or k != self.ends[mark]:
                        raise _Misplaced(self.ends[mark])
                    use, directive, block = self.blocks[k]
                    el, slot = directive.element(use, block, self.md.htmlStash.store, self.templates)
                    slot.extend(out[at:])
                    el.tail = child.tail
                    out[at:] = [el]
                    placed.add(k)
                else:
                    out.append(child)
            if open_at:
                raise _Misplaced(open_at[-1][0])
            parent[:] = out
        missing = next((k for k in range(len(self.blocks)) if k not in placed), None)
        if missing is not None:  # its marks went into raw HTML, which Markdown passes on as it is
            raise _Misplaced(missing)


class _Blocks(Extension):
    def __init__(self, marks: dict[int, str], blocks: list, templates):
        super().__init__()
        self.marks, self.blocks, self.templates = marks, blocks, templates

    def extendMarkdown(self, md):
        md.preprocessors.register(_PutMarks(md, self.marks), "attention_marks", 29)  # after normalize_whitespace
        # after the inline patterns (20), before the maths (12) and prettify (10) see the blocks
        md.treeprocessors.register(_PutBlocks(md, self.blocks, self.templates), "attention_blocks", 19)


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


def render(path, text: str, marks: dict[int, str], blocks: list, source, math: MathFound,
           numbers: dict | None = None, bibliography=None, templates=None) -> tuple[str, list]:
    """The prose (`text`, with the lines `marks` names left for the directives' marks) as HTML, and
    its table of contents. `blocks` are the page's (use, directive, what it computed) in source order, `source` the
    line-aware scan, for error lines, `math` what notes the formulas met, `numbers` the chapter's
    reference number of each cited key, `templates` the theme's (builder/pages.py; by default the
    repository's), which make the directives' blocks."""
    md = markdown.Markdown(
        extensions=["extra", "toc", "sane_lists", "smarty", _Blocks(marks, blocks, templates or default_environment()), LinkCheck(), MathExtension(math),
                    SidenotesExtension(), CitationsExtension(numbers or {}, bibliography)],
        extension_configs={"toc": {"permalink": False}},
        output_format="html",
    )
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
    except _Misplaced as err:
        use, directive, _ = blocks[err.k]
        raise BuildError(path, use.line, f"{use.name} '{use.argument}' stands where {directive.plural} cannot go "
                                         "(inside raw HTML, or across the end of a list item?): start '///' lines "
                                         "at the left margin or inside a list item") from None
    return html, getattr(md, "toc_tokens", [])
