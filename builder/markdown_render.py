"""Python-Markdown with our extensions: one configured instance per chapter render."""
from __future__ import annotations

import re

import markdown
from markdown.extensions import Extension
from pymdownx.blocks import BlocksExtension

from .directives import DIRECTIVES
from .directives.figure import DirectiveMismatch
from .errors import BuildError
from .links import MarkdownLinks

RE_LEFTOVER_DIRECTIVE = re.compile(r"(?m)^(?:<p>)?[ ]{0,3}/{3,}[ ]*[\w-]*")


class _Directives(BlocksExtension):
    def extendMarkdownBlocks(self, md, block_mgr):
        for directive in DIRECTIVES:
            block_mgr.register(directive.Block, self.getConfigs())


class _Links(Extension):
    def extendMarkdown(self, md):
        md.treeprocessors.register(MarkdownLinks(md), "attention_links", 1)


def render(path, text: str, figures: list, first_line_of_leftover) -> str:
    """Markdown to HTML; `figures` is the queue of pre-rendered figures in source order."""
    md = markdown.Markdown(
        extensions=["extra", "toc", "sane_lists", "smarty", _Directives(), _Links()],
        extension_configs={"toc": {"permalink": False}},
        output_format="html",
    )
    md.attention_figures = list(figures)
    try:
        html = md.convert(text)
    except DirectiveMismatch as err:
        line = md.attention_figures[0].line if md.attention_figures else first_line_of_leftover()
        raise BuildError(path, line, f"figure '{err}' is nested where Markdown and the directive scan disagree; "
                         "put figures at the left margin, outside lists and quotes") from None
    if md.attention_figures:
        left = md.attention_figures[0]
        raise BuildError(path, left.line, f"figure '{left.name}' was left as plain text by Markdown; "
                         "check that '///' lines start at the left margin and the block is closed")
    stripped = re.sub(r"(?s)<pre.*?</pre>|<code.*?</code>", "", html)
    if RE_LEFTOVER_DIRECTIVE.search(stripped):
        raise BuildError(path, first_line_of_leftover(), "a '///' directive line was left as plain text by Markdown")
    return html, getattr(md, "toc_tokens", [])
