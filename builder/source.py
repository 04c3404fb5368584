"""A line-aware pass over a chapter's Markdown: the one place directives, inline expressions,
citations and notes are found, each with its line.

Python-Markdown keeps no line numbers, so everything an author can get wrong is found, parsed
and validated here, where an error can still name `chapter.md:line`, and every limit that keeps
Python-Markdown's work linear is checked. Python-Markdown then reads the prose (`prose`), in
which each directive's header and options have become a mark its block replaces.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from . import yaml_options
from .errors import BuildError, clip, split_lines
from .expressions import Expression, ExpressionError, read as read_expression

# A directive's header and closing lines. Any indentation: inside a list item a block is part of
# the item. The argument is taken whole and stripped after, which keeps the match linear.
RE_BLOCK_START = re.compile(r"^([ ]*)(/{3,})[ ]*([\w-]+)[ ]*(?:\|(.*))?$")
# A header after a quote's '>' or a list marker on the same line: no block can stand there.
RE_NESTED_START = re.compile(r"^[ ]*(?:(?:>|[-*+]|\d{1,9}[.)])[ ]*)+/{3,}[ ]*([\w-]+)")
RE_BLOCK_END = re.compile(r"^[ ]*(/{3,})[ ]*$")
RE_BACKTICKS = re.compile(r"`+")
RE_CITATION = re.compile(r"\[(@[^\]]*)\]")  # [@key] or [@a; @b]; Markdown's pattern (the scan uses find)
RE_CITATION_KEY = re.compile(r"^@([A-Za-z0-9_:.+-]+)$")
# A note's name excludes '[': then each '[^' is matched up to the next '[', linear on '[^[^[^...'.
RE_NOTE_DEF = re.compile(r"^[ ]{0,3}\[\^([^\]\s\[]+)\]:")  # [^name]: the note
RE_NOTE_REF = re.compile(r"\[\^([^\]\s\[]+)\](?!:)")


@dataclass
class DirectiveUse:
    name: str  # the directive: figure, ...
    argument: str  # text after the bar: the figure's name
    options: dict  # parsed YAML options
    line: int  # 1-based line of the header
    option_lines: dict = field(default_factory=dict)  # option name -> its line
    first_body_line: tuple[int, str] | None = None  # (line, text) right after the options: caption or a slip
    has_body: bool = False  # any text between the options and the closing '///' (set when it closes)
    indent: str = ""  # the header's indentation: inside a list item the block stays in the item
    end_line: int = 0  # the closing '///' (set when it closes)
    params: object = None  # its options, checked by its directive's parse: a figure's Params, a quiz's Options


@dataclass
class ExpressionUse:
    expression: Expression  # the text between {= and =}, read
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
# Python-Markdown's fenced_code opening line (FencedBlockPreprocessor.FENCED_BLOCK_RE): a fence at
# the left margin, then {attrs} or a language and hl_lines; it closes at a line of the same fence.
RE_FENCE_OPEN = re.compile(r"""^(?P<fence>~{3,}|`{3,})[ ]*(?:\{[^\n]*\}|(?:\.?[\w#.+-]*[ ]*)?"""
                           r"""(?:hl_lines=(?P<q>"|').*?(?P=q)[ ]*)?)$""")
RE_FENCE_CLOSE = re.compile(r"^(~{3,}|`{3,})[ ]*$")
# The quote markers, list markers and indentation a line starts with: how deep it is nested.
RE_CONTAINERS = re.compile(r"^(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])))*[ \t]*")
RE_MARKER = re.compile(r">|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])")
RE_OPTION_LIKE = re.compile(r"^([ ]*)[A-Za-z_][\w-]*[ ]*:(?:[ ]|$)")
RE_TABBED_OPTION = re.compile(r"^[ ]*\t[ \t]*(?:[A-Za-z_][\w-]*[ ]*:(?:[ \t]|$)|-[ \t])")  # a tab before `name:` or `- `
MAX_NESTING = 50  # Python-Markdown recurses once per level and overflows the stack in the hundreds
MAX_EXPRESSION = 300  # characters between {= and =}
MAX_KEY = 100  # characters of a citation key
MAX_OPTIONS = 10_000  # characters of YAML under one directive
MAX_PARAGRAPHS = 2_000  # Python-Markdown (smarty most) is quadratic in blocks; the longest chapter has 50
MAX_LIST_ITEMS = 2_000  # Python-Markdown's list parsing is quadratic in the items of a list
MAX_FENCES = 1_000  # Python-Markdown copies the whole text once per fenced block: quadratic past this
BRACKET_BUDGET = 2_000_000  # characters Python-Markdown's link parser may walk looking for ']'
# Characters where an inline pattern may start (and line ends); the budgets bound length x their
# count, far above any real chapter's (docs/trust.md, 'Limits on a chapter's size').
INLINE_SYNTAX = "`*_[]()<>&!~^${}=\\'\""
PARAGRAPH_BUDGET = 4_000_000
CHAPTER_BUDGET = 100_000_000


def _list_anchors(lines: list[str]) -> list[bool]:
    """For each line, whether the nearest line above it that is not blank and indented less than 4
    is a list item: then an indented line continues that item rather than starting indented code."""
    anchors, last = [], False
    for line in lines:
        anchors.append(last)
        if line.strip() and len(line) - len(line.lstrip(" ")) < 4:
            last = bool(RE_LIST_ITEM.match(line))
    return anchors


def _fence_closers(lines: list[str]) -> dict[str, list[int]]:
    """Indexes of the lines that could close each fence, in order: one pass instead of a look-ahead
    from every opening line (20,000 unclosed fences made that quadratic)."""
    closers: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        m = RE_FENCE_CLOSE.match(line)
        if m:
            closers.setdefault(m.group(1), []).append(i)
    return closers


def _nesting(line: str) -> int:
    """Quote and list markers at the start of the line, plus its indentation in steps of four."""
    prefix = RE_CONTAINERS.match(line).group()
    indent = prefix[:len(prefix) - len(prefix.lstrip(" \t"))].expandtabs(4)
    return len(RE_MARKER.findall(prefix)) + len(indent) // 4


def _parse_options(path: Path, header_line: int, option_lines: list[str]) -> tuple[dict, dict]:
    text = "\n".join(option_lines)
    if len(text) > MAX_OPTIONS:  # PyYAML reads about 40 KB a second
        raise BuildError(path, header_line + 1, f"directive options of {len(text)} characters "
                                                f"(at most {MAX_OPTIONS})")
    try:
        options = yaml_options.load(text) if text.strip() else {}
    except yaml.YAMLError as err:
        at, message = yaml_options.plain_error(err, option_lines)
        raise BuildError(path, header_line + 1 + at, message) from None
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BuildError(path, header_line + 1, "directive options must be 'name: value' lines")
    # The options' own names stand at the block's least indentation; a name deeper down (a quiz's
    # choice 'a') is not one of them, and an error about an option must not point there.
    top = min((len(raw) - len(raw.lstrip(" ")) for raw in option_lines if raw.strip()), default=0)
    where, before = {}, None
    for i, raw in enumerate(option_lines):
        m = RE_OPTION_LIKE.match(raw)
        if m and len(m.group(1)) == top:
            name = raw.split(":", 1)[0].strip()
            if before is not None and options.get(before[0]) is None and before[1] == i - 1:
                raise BuildError(path, header_line + 1 + i, f"'{clip(name, 40)}:' lines up with '{clip(before[0], 40)}:' "
                                 f"above it, which then holds nothing: indent what belongs under '{clip(before[0], 40)}:' "
                                 "two spaces more than it")
            before = (name, i) if not raw.split(":", 1)[1].strip() else None
            where.setdefault(name, header_line + 1 + i)
    return options, where


def _code_spans(line: str) -> list[tuple[int, int]]:
    """Each code span: a run of backticks up to the next run of the same length. Runs are found
    once and matched by length, where a regex with a backreference retried every shorter opener
    (quadratic on a line of ever shorter runs)."""
    runs = [m.span() for m in RE_BACKTICKS.finditer(line)]
    by_length: dict[int, list[int]] = {}
    for k, (a, b) in enumerate(runs):
        by_length.setdefault(b - a, []).append(k)
    spans, k = [], 0
    while k < len(runs):
        same = by_length[runs[k][1] - runs[k][0]]
        n = bisect.bisect_right(same, k)
        if n < len(same):
            spans.append((runs[k][0], runs[same[n]][1]))
            k = same[n] + 1
        else:
            k += 1
    return spans


def _mask_code_spans(line: str) -> str:
    """The line with code spans blanked out: they show syntax literally."""
    if "`" not in line:
        return line
    parts, i = [], 0
    for a, b in _code_spans(line):
        parts.append(line[i:a] + " " * (b - a))
        i = b
    parts.append(line[i:])
    return "".join(parts)


def _expressions(path: Path, lineno: int, line: str) -> list[ExpressionUse]:
    """Every {= ... =} on the line, found with str.find: linear even for 100 KB of unclosed '{='."""
    found, pos = [], line.find("{=")
    while pos >= 0:
        end = line.find("=}", pos + 2)
        if end < 0:
            raise BuildError(path, lineno, "inline expression '{=' is not closed by '=}' on the same line: "
                                           "end it with '=}', as in '{= figure.facts.name =}'", column=pos + 1)
        if line.find("{=", pos + 2, end) >= 0:
            raise BuildError(path, lineno, f"inline expression '{clip(line[pos:line.find('{=', pos + 2, end)].rstrip(), 40)}' "
                                           "is not closed by '=}' before the next '{=': end it with '=}'",
                             column=pos + 1)
        if end - pos - 2 > MAX_EXPRESSION:
            raise BuildError(path, lineno, f"inline expression '{clip(line[pos:end + 2])}' is too long "
                                           f"({end - pos - 2} characters; at most {MAX_EXPRESSION})")
        try:
            expression = read_expression(line[pos + 2:end])
        except ExpressionError as err:
            raise BuildError(path, lineno, str(err)) from None
        found.append(ExpressionUse(expression, lineno, pos, end + 2))
        pos = line.find("{=", end + 2)
    return found


class _InlineCost:
    """A bound on the work of Python-Markdown's inline patterns, which restart from each opening
    character and walk to the end of the paragraph: 40 KB of '`` `', '*a' or '[a](b' take
    minutes. Two measures, each linear to compute, each far above any real chapter's:
    - the walk of its link parser from every '[' to its ']' (or the paragraph's end);
    - paragraph length times the characters that can open inline syntax, per paragraph and summed;
    and it counts paragraphs, since Python-Markdown's work grows with their square too.
    Past either, the chapter is refused before rendering, at the paragraph (or bracket) at fault."""

    def __init__(self, path: Path):
        self.path, self.brackets, self.total, self.paragraphs = path, 0, 0, 0
        self._start_paragraph()

    def _start_paragraph(self) -> None:
        self.open: list[tuple[int, int]] = []  # (offset, line) of each '[' not closed yet
        self.open_sum = 0  # the sum of their offsets: their walk so far is len(open) * offset - open_sum
        self.offset, self.syntax, self.first, self.first_bracket = 0, 0, None, None

    def line(self, lineno: int, raw: str, line: str) -> None:
        """`raw` as written (code spans cost Markdown work too), `line` with code spans blanked."""
        if not raw.strip():
            self.end_paragraph()
            return
        self.first = self.first or lineno
        self.syntax += 1 + sum(raw.count(c) for c in INLINE_SYNTAX)  # a line may end in a <br>
        if "[" in line or "]" in line:
            escaped = False
            for j, ch in enumerate(line):
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == "[":
                    self.open.append((self.offset + j, lineno))
                    self.open_sum += self.offset + j
                    self.first_bracket = self.first_bracket or lineno
                elif ch == "]" and self.open:
                    start = self.open.pop()[0]
                    self.open_sum -= start
                    self.brackets += self.offset + j - start
        self.offset += len(line) + 1
        # refuse at once, not at the end of a megabyte
        if self.brackets + len(self.open) * self.offset - self.open_sum > BRACKET_BUDGET:
            self._refuse_brackets()
        if self.offset * self.syntax > PARAGRAPH_BUDGET:
            self._refuse("")

    def _refuse_brackets(self) -> None:
        raise BuildError(self.path, self.open[0][1] if self.open else self.first_bracket,
                         "too many unclosed or nested '[' for Markdown to read in reasonable time: "
                         "close them, or write '\\[' for a literal bracket")

    def _refuse(self, after: str) -> None:
        raise BuildError(self.path, self.first, f"paragraph of {self.offset} characters, {self.syntax} of them "
                         "Markdown syntax (`*_[]()<>&!...), is more than Markdown can read in reasonable time"
                         f"{after}: split it with blank lines, or the chapter into two")

    def end_paragraph(self) -> None:
        self.brackets += len(self.open) * self.offset - self.open_sum
        if self.brackets > BRACKET_BUDGET:
            self._refuse_brackets()
        if self.offset:
            self.paragraphs += 1
            if self.paragraphs > MAX_PARAGRAPHS:
                raise BuildError(self.path, self.first, f"more than {MAX_PARAGRAPHS} paragraphs in one chapter: "
                                                        "split it")
        cost = self.offset * self.syntax
        self.total += cost
        if cost > PARAGRAPH_BUDGET or self.total > CHAPTER_BUDGET:
            self._refuse("" if cost > PARAGRAPH_BUDGET else " after the paragraphs before it")
        self._start_paragraph()


def scan(path: Path, text: str, known_directives: tuple[str, ...]) -> ScannedSource:
    """Find every directive and inline expression outside code, with their lines; one pass, linear."""
    lines = split_lines(text.removesuffix("\n"))
    directives: list[DirectiveUse] = []
    expressions: list[ExpressionUse] = []
    citations: list[CitationUse] = []
    note_refs: dict[str, int] = {}
    note_defs: dict[str, int] = {}
    open_blocks: list[tuple] = []  # (slash count, header line, name, its DirectiveUse, first line after the options)
    anchors = _list_anchors(lines)
    closers = _fence_closers(lines)
    brackets = _InlineCost(path)
    fences = items = 0
    i = 0
    in_paragraph = False  # the line above is prose: an indented line here continues that paragraph
    while i < len(lines):
        line, lineno = lines[i], i + 1
        continues, in_paragraph = in_paragraph, False
        m = RE_FENCE_OPEN.match(line)
        if m:
            after = _next_closer(closers.get(m.group("fence"), []), i)
            if after is None:
                raise BuildError(path, lineno, f"code fence '{clip(m.group('fence'), 20)}' is never closed: "
                                               f"add a line '{clip(m.group('fence'), 20)}' after the code")
            fences += 1
            if fences > MAX_FENCES:
                raise BuildError(path, lineno, f"more than {MAX_FENCES} code blocks in one chapter: split it")
            brackets.end_paragraph()
            i = after + 1
            continue
        if _nesting(line) > MAX_NESTING:
            raise BuildError(path, lineno, f"quotes, lists and indentation nested {_nesting(line)} deep "
                                           f"(at most {MAX_NESTING})")
        start = RE_BLOCK_START.match(line)
        if (start and start.group(3).lower() in known_directives and line.startswith(" " * 4)
                and not anchors[i] and continues):
            raise BuildError(path, lineno, f"this {start.group(3).lower()} '///' line is indented under a paragraph, "
                                           "so Markdown would show it as the paragraph's text: put a blank line "
                                           "before it and start it at the left margin")
        if (start or RE_BLOCK_END.match(line)) and line.startswith(" " * 4) and not anchors[i]:
            i += 1  # indented code, which Markdown shows as it is
            continue
        if start and start.group(3).lower() in known_directives:
            indent, slashes, name = start.group(1), start.group(2), start.group(3).lower()
            argument = (start.group(4) or "").strip()
            option_line = re.compile(rf"^{indent}[ ]{{4,}}\S")  # options are indented 4 more than the header
            j = i + 1
            while j < len(lines) and option_line.match(lines[j]):
                j += 1
            if j < len(lines) and RE_TABBED_OPTION.match(lines[j]):
                raise BuildError(path, j + 1, "a tab in this line's indentation: indent options with spaces "
                                              "(four more than the '///' line)")
            misplaced = RE_OPTION_LIKE.match(lines[j]) if j < len(lines) else None
            if misplaced and len(indent) < len(misplaced.group(1)) < len(indent) + 4:
                raise BuildError(path, j + 1, "options must be indented by four spaces (more than the "
                                              "'///' line); this line would become caption text")
            options, where = _parse_options(path, lineno, lines[i + 1:j])
            body = (j + 1, lines[j]) if j < len(lines) else None
            directives.append(DirectiveUse(name, argument, options, lineno, where, body, indent=indent))
            open_blocks.append((len(slashes), lineno, name, directives[-1], j))
            brackets.end_paragraph()
            i = j
            continue
        if start:
            known = ", ".join(known_directives)
            raise BuildError(path, lineno, f"unknown directive '{clip(start.group(3), 40)}' (known: {known})")
        nested = RE_NESTED_START.match(line)
        if nested and nested.group(1).lower() in known_directives:
            raise BuildError(path, lineno, f"{nested.group(1).lower()} '///' line after a quote's '>' or a list "
                                           "marker: start '///' lines at the left margin or indented inside a "
                                           "list item")
        end = RE_BLOCK_END.match(line)
        if end:
            if not open_blocks or open_blocks[-1][0] != len(end.group(1)):
                raise BuildError(path, lineno, f"'{clip(end.group(1), 20)}' closes no open directive")
            _, _, _, use, body_start = open_blocks.pop()
            use.has_body = any(lines[k].strip() for k in range(body_start, i))  # nesting <= 50: bounded rescans
            use.end_line = lineno
            brackets.end_paragraph()
            i += 1
            continue
        if RE_LIST_ITEM.match(line):
            items += 1
            if items > MAX_LIST_ITEMS:
                raise BuildError(path, lineno, f"more than {MAX_LIST_ITEMS} list items in one chapter: split it")
        # Lines that Markdown reads as a paragraph's: an indented line after one is more of it (a
        # lazy continuation), not indented code. Headings and indented code end a paragraph.
        in_paragraph = bool(line.strip()) and not line.lstrip(" ").startswith("#") and (
            continues or not line.startswith(" " * 4) or anchors[i])
        masked = _mask_code_spans(line)
        expressions.extend(_expressions(path, lineno, masked))
        citations.extend(_citations(path, lineno, masked))
        _notes(path, lineno, masked, note_refs, note_defs)
        brackets.line(lineno, line, masked)
        i += 1
    brackets.end_paragraph()
    if open_blocks:
        _, header_line, name, _, _ = open_blocks[-1]
        raise BuildError(path, header_line, f"'{name}' directive is never closed (add a line '///' after its caption)")
    for name, line in note_refs.items():
        if name not in note_defs:
            raise BuildError(path, line, f"note [^{clip(name, 40)}] is never written: add a line "
                                         f"'[^{clip(name, 40)}]: the note'")
    for name, line in note_defs.items():
        if name not in note_refs:
            raise BuildError(path, line, f"note [^{clip(name, 40)}] is written but never referenced in the text")
    return ScannedSource(path, lines, directives, expressions, citations, note_refs, note_defs)


def _next_closer(candidates: list[int], i: int) -> int | None:
    k = bisect.bisect_right(candidates, i)
    return candidates[k] if k < len(candidates) else None


def _citations(path: Path, lineno: int, line: str) -> list[CitationUse]:
    """Every [@key; @key] on the line, found with str.find: linear even for 100 KB of unclosed '[@'."""
    found, pos = [], line.find("[@")
    while pos >= 0:
        end = line.find("]", pos + 2)
        if end < 0:
            raise BuildError(path, lineno, "citation '[@' is not closed by ']' on the same line")
        keys = []
        for part in line[pos + 1:end].split(";"):
            km = RE_CITATION_KEY.match(part.strip())
            if not km or len(km.group(1)) > MAX_KEY:
                raise BuildError(path, lineno, f"malformed citation '{clip(line[pos:end + 1])}': "
                                               "write [@key] or [@key1; @key2]")
            keys.append(km.group(1))
        found.append(CitationUse(keys, lineno))
        pos = line.find("[@", end + 1)
    return found


def _notes(path: Path, lineno: int, line: str, refs: dict[str, int], defs: dict[str, int]) -> None:
    d = RE_NOTE_DEF.match(line)
    if d:
        if d.group(1) in defs:
            raise BuildError(path, lineno, f"note [^{clip(d.group(1), 40)}] is written twice "
                                           f"(first on line {defs[d.group(1)]})")
        defs[d.group(1)] = lineno
        line = line[d.end():]
    for m in RE_NOTE_REF.finditer(line):
        refs.setdefault(m.group(1), lineno)


def block_marks(k: int) -> tuple[str, str]:
    """The two lines Python-Markdown reads where the k-th directive's header (with its options) and
    its closing line were. STX and ETX, which no chapter can hold (read_source refuses control
    characters) and Python-Markdown strips from its input, so they are put in after that (prose)."""
    return f"\x02attention-block:{k}\x03", f"\x02attention-end:{k}\x03"


def prose(source: ScannedSource, values: dict[tuple[int, int], str]) -> tuple[str, dict[int, str]]:
    """The Markdown Python-Markdown reads: each inline expression replaced by its formatted value,
    and each directive's header, options and closing line by a blank line around a line left for
    its mark. Returns the text and, by line index, the mark each such line takes."""
    lines = list(source.lines)
    for use in sorted(source.expressions, key=lambda u: (u.line, -u.start)):
        text = lines[use.line - 1]
        lines[use.line - 1] = text[:use.start] + values[(use.line, use.start)] + text[use.end:]
    starts = {use.line - 1: (k, use) for k, use in enumerate(source.directives)}
    ends = {use.end_line - 1: (k, use) for k, use in enumerate(source.directives)}
    out, marks, i = [], {}, 0
    while i < len(lines):
        if i in starts or i in ends:
            k, use = starts.get(i) or ends[i]
            marks[len(out) + 1] = use.indent + block_marks(k)[0 if i in starts else 1]
            out += ["", "", ""]
            i = _options_end(lines, i, use) if i in starts else i + 1
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out) + "\n", marks


def _options_end(lines: list[str], i: int, use: DirectiveUse) -> int:
    """The index of the first line after a directive's header and options (the scan's j)."""
    return use.first_body_line[0] - 1 if use.first_body_line else len(lines)
