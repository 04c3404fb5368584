"""YAML for figure options and inline-expression options: safe_load, minus what options never need.

Options are plain data (names, numbers, text, lists). Aliases let 560 bytes expand to
gigabytes ("billion laughs"), deep nesting overflows the stack, dates and sets are not JSON,
a 5,000-digit integer exceeds Python's conversion limit, a type tag can hold a value of another
type (`!!float x`), and an escape can write a control character or a lone surrogate ("\\ud800")
that no page or image can hold: each is a YAMLError with a mark,
so callers report it at its line like any other YAML mistake.
"""
from __future__ import annotations

import re

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError

MAX_DEPTH = 20  # lists and mappings inside one another; figure options use two at most
MAX_DIGITS = 30  # an integer written with more characters than this is not a figure option
# What a YAML escape can write that no text may hold: C0 controls but tab, newline and carriage
# return, DEL and the C1 controls (invisible, and not XML), lone surrogates (not characters) and
# U+FFFE and U+FFFF (not characters, and not XML either).
RE_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


class _OptionsLoader(yaml.SafeLoader):
    """SafeLoader that refuses aliases, anchors, deep nesting, huge integers and non-JSON types."""

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise ComposerError(None, None, f"YAML aliases (*{event.anchor[:20]}) are not allowed in options",
                                event.start_mark)
        if getattr(event, "anchor", None):
            raise ComposerError(None, None, f"YAML anchors (&{event.anchor[:20]}) are not allowed in options",
                                event.start_mark)
        self._depth = getattr(self, "_depth", 0) + 1
        if self._depth > MAX_DEPTH:
            raise ComposerError(None, None, f"options nested more than {MAX_DEPTH} deep", event.start_mark)
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_object(self, node, deep=False):
        """A type tag with a value it cannot take (`!!float x`, `!!bool maybe`) is a YAMLError at its
        mark, not the ValueError or KeyError the constructor raises."""
        try:
            return super().construct_object(node, deep)
        except (ValueError, KeyError, TypeError, OverflowError, IndexError) as err:
            raise ConstructorError(None, None, f"'{str(node.value)[:20]}' is not a value of {node.tag.rsplit(':', 1)[-1]}"
                                               f" ({type(err).__name__})", node.start_mark) from None

    def construct_yaml_str(self, node):
        text = super().construct_yaml_str(node)
        bad = RE_NOT_TEXT.search(text)
        if bad:
            c = bad.group()
            what = (("a lone surrogate", "write the character itself") if "\ud800" <= c <= "\udfff" else
                    ("a noncharacter", "leave it out") if c >= "\ufffe" else ("a control character", "leave it out"))
            raise ConstructorError(None, None, f"text with {what[0]} (U+{ord(bad.group()):04X}): {what[1]}",
                                   node.start_mark)
        return text

    def construct_yaml_int(self, node):
        text = self.construct_scalar(node)
        if len(text) > MAX_DIGITS:
            raise ConstructorError(None, None, f"number too large ({len(text)} characters; "
                                               f"at most {MAX_DIGITS})", node.start_mark)
        return super().construct_yaml_int(node)

    def construct_mapping(self, node, deep=False):
        if not isinstance(node, yaml.MappingNode):  # `!!map x`: run later than construct_object, by a generator
            raise ConstructorError(None, None, f"'{str(node.value)[:20]}' is not a value of map", node.start_mark)
        for key_node, _ in node.value:
            if not (isinstance(key_node, yaml.ScalarNode) and key_node.tag == "tag:yaml.org,2002:str"):
                raise ConstructorError(None, None, "option names must be words, not numbers, lists or other values",
                                       key_node.start_mark)
        return super().construct_mapping(node, deep)


def _refuse(what: str):
    def construct(loader, node):
        raise ConstructorError(None, None, f"{what} are not option values (quote it to write text)", node.start_mark)
    return construct


_OptionsLoader.add_constructor("tag:yaml.org,2002:int", _OptionsLoader.construct_yaml_int)
_OptionsLoader.add_constructor("tag:yaml.org,2002:str", _OptionsLoader.construct_yaml_str)
for _tag, _what in (("timestamp", "dates"), ("binary", "binary values"), ("set", "sets"),
                    ("omap", "ordered maps"), ("pairs", "pair lists")):
    _OptionsLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refuse(_what))


def load(text: str):
    """The options in `text` as plain JSON-able data; yaml.YAMLError (with a mark) when they are not."""
    try:
        return yaml.load(text, Loader=_OptionsLoader)  # noqa: S506 - a SafeLoader subclass
    except (ValueError, KeyError, TypeError, OverflowError, IndexError) as err:  # a constructor run late, unmarked
        raise yaml.YAMLError(f"a value YAML cannot read ({type(err).__name__})") from None


RE_KEY_ON_LINE = re.compile(r"^[ ]*(?:-[ ]+)?([\w-]+)[ ]*:[ ]")  # `name: ` (or `- name: `) before a mark


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _misaligned(lines: list[str], at: int) -> str:
    """Why line `at` breaks the options' indentation: the levels open above it, in spaces."""
    n, levels = _indent(lines[at]), []
    for line in reversed(lines[:at]):
        if line.strip() and (not levels or _indent(line) < levels[-1]):
            levels.append(_indent(line))
    if levels and n > levels[0]:
        return (f"this line is indented {n} spaces, more than the line above ({levels[0]}), which already has its "
                "value: line it up with the option it stands beside")
    if n in levels:
        return ("this line mixes list items ('- ') and 'name: value' lines at one level: write one kind, or "
                "indent the other under an option")
    where = " or ".join(map(str, levels)) or "0"
    return (f"this line is indented {n} spaces, which lines up with no option above it (they are at {where} "
            "spaces): give options at one level the same indentation")


def plain_error(err: yaml.YAMLError, lines: list[str]) -> tuple[int, str]:
    """The 0-based line of `lines` (the text `load` was given) and what is wrong there, in an
    author's words with how to fix it; PyYAML's own words for what an author rarely meets."""
    problem = getattr(err, "problem", None) or str(err).splitlines()[0]
    mark, context = getattr(err, "problem_mark", None), getattr(err, "context_mark", None)
    last = max(len(lines) - 1, 0)
    at = min(mark.line, last) if mark else 0
    opened = min(context.line, last) if context else at
    text = lines[at] if lines else ""
    if "'\\t'" in problem:
        return at, "a tab, where options take spaces only: replace it with spaces"
    if problem == "mapping values are not allowed here":
        key = RE_KEY_ON_LINE.match(text[:mark.column]) if mark else None
        if key:
            return at, (f"the value of '{key.group(1)}' has ': ' in it, which YAML reads as a new option: "
                        f"put the value in quotes, or on the next line after '{key.group(1)}: >-'")
        return at, _misaligned(lines, at)
    if problem.startswith("expected <block end>"):
        return at, _misaligned(lines, at)
    if problem == "could not find expected ':'":
        return opened, ("this line has no ':' after a name: write 'name: value', or indent it under the "
                        "option whose value it continues")
    if problem == "sequence entries are not allowed here":
        return at, "a list item ('- ') must start its own line, indented under its option"
    for kind, opening, closing in (("sequence", "[", "]"), ("mapping", "{", "}")):
        if getattr(err, "context", None) == f"while parsing a flow {kind}":
            return opened, f"the '{opening}' opened here is not closed: end it with '{closing}'"
    if getattr(err, "context", None) == "while scanning a quoted scalar":
        return opened, "the quoted text opened here is not closed: end it with the same quote mark"
    return at, f"bad YAML in options: {problem[:120]}"
