"""What the directives share: the queue a block takes its pre-rendered HTML from, and inline Markdown."""
from __future__ import annotations

import markdown

from ..math import MathExtension

PLURAL = {"figure": "figures", "quiz": "quizzes", "exercise": "exercises"}


class DirectiveMismatch(Exception):
    """Markdown found a directive block where the line-aware scan did not (or the reverse)."""

    def __init__(self, kind: str, argument: str):
        super().__init__(argument)
        self.kind = kind


def take(md, kind: str, argument: str):
    """The next pre-rendered `kind` from the page's queue (rendered with line numbers before Markdown
    ran); a block Markdown found that the scan did not is a DirectiveMismatch."""
    queue = md.attention_queues[kind]
    if not queue or queue[0].name != argument:
        raise DirectiveMismatch(kind, argument)
    return queue.pop(0)


def inline_html(text: str) -> str:
    """One paragraph of Markdown (with math) as inline HTML: a choice, an explanation, a hint."""
    out = markdown.markdown(text, extensions=["smarty", MathExtension()], output_format="html").strip()
    return out[3:-4] if out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1 else out
