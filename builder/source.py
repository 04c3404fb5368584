"""A line-aware pass over a chapter's Markdown, run before Python-Markdown.

Python-Markdown keeps no line numbers, so directives and inline expressions are found,
parsed and validated here, where an error can still name `chapter.md:line`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import BuildError

# The header and closing lines pymdownx.blocks recognises, applied to one line at a time.
# Any indentation: inside a list item pymdownx.blocks still sees a nested block.
RE_BLOCK_START = re.compile(r"^([ ]*)(/{3,})[ ]*([\w-]+)[ ]*(?:\|[ ]*(.*?)[ ]*)?$")
RE_BLOCK_END = re.compile(r"^[ ]*(/{3,})[ ]*$")
RE_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})")
RE_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
RE_EXPRESSION = re.compile(r"\{=(.*?)=\}")
RE_CITATION = re.compile(r"\[(@[^\]]*)\]")  # [@key] or [@a; @b]
RE_CITATION_KEY = re.compile(r"^@([A-Za-z0-9_:.+-]+)$")
RE_NOTE_DEF = re.compile(r"^[ ]{0,3}\[\^([^\]\s]+)\]:")  # [^name]: the note
RE_NOTE_REF = re.compile(r"\[\^([^\]\s]+)\](?!:)")


@dataclass
class DirectiveUse:
    name: str  # the directive: figure, ...
    argument: str  # text after the bar: the figure's name
    options: dict  # parsed YAML options
    line: int  # 1-based line of the header
    option_lines: dict = field(default_factory=dict)  # option name -> its line


@dataclass
class ExpressionUse:
    source: str  # the text between {= and =}
    line: int
    start: int  # column span of the whole {= ... =} on that line
    end: int


@dataclass
class CitationUse:
    keys: list[str]  # the cited keys, in the order written
    line: int


@dataclass
class ScannedSource:
    path: Path
    lines: list[str]
    directives: list[DirectiveUse]
    expressions: list[ExpressionUse]
    citations: list[CitationUse] = field(default_factory=list)
    note_refs: dict[str, int] = field(default_factory=dict)  # footnote name -> line of its first reference
    note_defs: dict[str, int] = field(default_factory=dict)  # footnote name -> line of its definition

    def cited_keys(self) -> list[str]:
        """Every cited key once, in order of first citation: the chapter's reference numbering."""
        return list(dict.fromkeys(k for c in self.citations for k in c.keys))


RE_LIST_ITEM = re.compile(r"^[ ]{0,3}(?:[-*+]|\d+[.)])[ ]+\S")


def _inside_list_item(lines: list[str], i: int) -> bool:
    """Whether an indented line i continues a list item rather than starting indented code:
    the nearest line above it that is not blank and indented less than 4 is a list item."""
    for line in reversed(lines[:i]):
        if line.strip() and len(line) - len(line.lstrip(" ")) < 4:
            return bool(RE_LIST_ITEM.match(line))
    return False


def _closes(line: str, fence: str) -> bool:
    m = RE_FENCE.match(line)
    return bool(m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)
                and not line.strip()[len(m.group(1)):].strip())


def _fence_closes(lines: list[str], i: int, fence: str) -> bool:
    return any(_closes(line, fence) for line in lines[i + 1:])


def _code_spans(line: str) -> list[tuple[int, int]]:
    return [m.span() for m in RE_CODE_SPAN.finditer(line)]


def _parse_options(path: Path, header_line: int, option_lines: list[str]) -> tuple[dict, dict]:
    text = "\n".join(option_lines)
    try:
        options = yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = header_line + 1 + (mark.line if mark else 0)
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise BuildError(path, line, f"bad YAML in directive options: {problem}") from None
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BuildError(path, header_line + 1, "directive options must be 'name: value' lines")
    where = {}
    for i, raw in enumerate(option_lines):
        m = re.match(r"^\s*([\w-]+)\s*:", raw)
        if m and m.group(1) not in where:
            where[m.group(1)] = header_line + 1 + i
    return options, where


def scan(path: Path, text: str, known_directives: tuple[str, ...]) -> ScannedSource:
    """Find every directive and inline expression outside code, with their lines."""
    lines = text.splitlines()
    directives: list[DirectiveUse] = []
    expressions: list[ExpressionUse] = []
    citations: list[CitationUse] = []
    note_refs: dict[str, int] = {}
    note_defs: dict[str, int] = {}
    open_blocks: list[tuple[int, int, str]] = []  # (slash count, header line, name)
    fence: str | None = None
    i = 0
    while i < len(lines):
        line, lineno = lines[i], i + 1
        m = RE_FENCE.match(line)
        if fence is not None:
            if _closes(line, fence):
                fence = None
            i += 1
            continue
        if m and _fence_closes(lines, i, m.group(1)):  # Python-Markdown leaves an unclosed fence as text
            fence = m.group(1)
            i += 1
            continue
        start = RE_BLOCK_START.match(line)
        if (start or RE_BLOCK_END.match(line)) and line.startswith(" " * 4) and not _inside_list_item(lines, i):
            i += 1  # indented code, which Markdown shows as it is
            continue
        if start and start.group(3).lower() in known_directives:
            indent, slashes, name = start.group(1), start.group(2), start.group(3).lower()
            argument = (start.group(4) or "").strip()
            option_line = re.compile(rf"^{indent}[ ]{{4,}}\S")  # options are indented 4 more than the header
            j = i + 1
            while j < len(lines) and option_line.match(lines[j]):
                j += 1
            options, where = _parse_options(path, lineno, lines[i + 1:j])
            directives.append(DirectiveUse(name, argument, options, lineno, where))
            open_blocks.append((len(slashes), lineno, name))
            i = j
            continue
        if start:
            known = ", ".join(known_directives)
            raise BuildError(path, lineno, f"unknown directive '{start.group(3)}' (known: {known})")
        end = RE_BLOCK_END.match(line)
        if end:
            if not open_blocks or open_blocks[-1][0] != len(end.group(1)):
                raise BuildError(path, lineno, f"'{end.group(1)}' closes no open directive")
            open_blocks.pop()
            i += 1
            continue
        masked = line
        for a, b in _code_spans(line):  # code spans show syntax literally
            masked = masked[:a] + " " * (b - a) + masked[b:]
        for em in RE_EXPRESSION.finditer(masked):
            expressions.append(ExpressionUse(em.group(1).strip(), lineno, em.start(), em.end()))
        if "{=" in RE_EXPRESSION.sub("", masked):
            raise BuildError(path, lineno, "inline expression '{=' is not closed by '=}' on the same line")
        citations.extend(_citations(path, lineno, masked))
        _notes(path, lineno, masked, note_refs, note_defs)
        i += 1
    if open_blocks:
        _, header_line, name = open_blocks[-1]
        raise BuildError(path, header_line, f"'{name}' directive is never closed (add a line '///' after its caption)")
    for name, line in note_refs.items():
        if name not in note_defs:
            raise BuildError(path, line, f"note [^{name}] is never written: add a line '[^{name}]: the note'")
    for name, line in note_defs.items():
        if name not in note_refs:
            raise BuildError(path, line, f"note [^{name}] is written but never referenced in the text")
    return ScannedSource(path, lines, directives, expressions, citations, note_refs, note_defs)


def _citations(path: Path, lineno: int, line: str) -> list[CitationUse]:
    found = []
    for m in RE_CITATION.finditer(line):
        keys = []
        for part in m.group(1).split(";"):
            km = RE_CITATION_KEY.match(part.strip())
            if not km:
                raise BuildError(path, lineno, f"malformed citation '{m.group(0)}': write [@key] or [@key1; @key2]")
            keys.append(km.group(1))
        found.append(CitationUse(keys, lineno))
    if "[@" in RE_CITATION.sub("", line):
        raise BuildError(path, lineno, "citation '[@' is not closed by ']' on the same line")
    return found


def _notes(path: Path, lineno: int, line: str, refs: dict[str, int], defs: dict[str, int]) -> None:
    d = RE_NOTE_DEF.match(line)
    if d:
        if d.group(1) in defs:
            raise BuildError(path, lineno, f"note [^{d.group(1)}] is written twice (first on line {defs[d.group(1)]})")
        defs[d.group(1)] = lineno
        line = line[d.end():]
    for m in RE_NOTE_REF.finditer(line):
        refs.setdefault(m.group(1), lineno)


def substitute(source: ScannedSource, values: dict[tuple[int, int], str]) -> str:
    """The Markdown with each inline expression replaced by its formatted value."""
    lines = list(source.lines)
    for use in sorted(source.expressions, key=lambda u: (u.line, -u.start)):
        text = lines[use.line - 1]
        lines[use.line - 1] = text[:use.start] + values[(use.line, use.start)] + text[use.end:]
    return "\n".join(lines) + "\n"
