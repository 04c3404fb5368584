"""Inline build-time expressions: `{= figure.path.to.value :format =}` in prose.

They read a figure model's output, so a number in a sentence is the number in the figure.
`figure{yaml flow mapping}` runs the model with other options, e.g.
`{= scaling-experiment{keys: 16}.by_d.512.unscaled :.2f =}`.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

import yaml

from engine.figures import FIGURES, ParamError, module, parse
from . import yaml_options
from .errors import clip, did_you_mean, unknown_name

RE_EXPR = re.compile(
    r"^(?P<name>[a-z][a-z0-9-]*)"
    r"(?P<params>\{.*\})?"
    r"(?P<path>(?:\.[A-Za-z0-9_-]+)+)"
    r"\s*(?::(?P<fmt>.*))?$"
)


# Markdown's inline syntax in what an expression writes, as character references (a backslash would
# start math before '(' or '['); '.', '-' and '+' are left alone, so numbers read the same in $...$.
# Straight quotes too: the typography that curls the prose's quotes must leave data as it is (a model's
# text, a prompt).
RE_MARKDOWN_SYNTAX = re.compile(r"[\\`*_{}\[\]$#!|\"']")
RE_LINE_BREAK = re.compile(r"[\r\n\t]+")

MAX_FORMAT_NUMBER = 100  # widths and precisions in a format spec: ':300000000' would build 300 MB


class ExpressionError(ValueError):
    """A bad expression; the builder adds the file and line."""


def _check_format(fmt: str) -> None:
    too_big = [n for n in re.findall(r"\d+", fmt) if len(n) > 3 or int(n) > MAX_FORMAT_NUMBER]
    if too_big:
        raise ExpressionError(f"format ':{clip(fmt, 20)}' asks for {clip(too_big[0], 12)} characters or digits "
                              f"(at most {MAX_FORMAT_NUMBER})")


@dataclass(frozen=True)
class Expression:
    """An expression read: the figure's options as its Params, the keys to walk, the format."""
    name: str
    params: object  # the figure's Params
    keys: tuple[str, ...]
    fmt: str


def read(source: str) -> Expression:
    """The text between {= and =}, checked as far as it can be without running the figure."""
    m = RE_EXPR.match(source.strip())
    if not m and re.match(r"[a-z][a-z0-9-]*\{[^}]*$", source.strip()):
        raise ExpressionError(f"the options of inline expression '{{= {clip(source.strip())} =}}' are not closed: "
                              "end them with '}' before the path, as in '{= figure{name: value}.facts.x =}'")
    if not m:
        raise ExpressionError(
            f"cannot read inline expression '{{= {clip(source.strip())} =}}': expected '{{= figure.key.key :format =}}'"
        )
    name = m.group("name")
    if name not in FIGURES:
        raise ExpressionError(f"inline expression names {unknown_name('figure', name, FIGURES, 'known')}")
    params = {}
    if m.group("params"):
        try:
            params = yaml_options.load(m.group("params"))
        except yaml.YAMLError as err:
            problem = yaml_options.plain_error(err, [m.group("params")])[1]
            raise ExpressionError(f"bad options {clip(m.group('params'), 40)} in inline expression: "
                                  f"{clip(problem, 160)}") from None
        if not isinstance(params, dict):
            raise ExpressionError(f"options {clip(m.group('params'), 40)} in inline expression must be a "
                                  "mapping, as in {name: value}")
    fmt = (m.group("fmt") or "").strip()
    _check_format(fmt)
    names = tuple(module(name).Params.__dataclass_fields__)
    unknown = next((str(k) for k in params if k not in names), None)
    if unknown is not None:  # before the engine's own check, which lists the names without a guess
        raise ExpressionError(f"inline expression '{name}': {unknown_name('option', unknown, names)}")
    try:
        figure = parse(name, params)
    except ParamError as err:
        raise ExpressionError(f"inline expression '{name}': {clip(err, 160)}") from None
    keys = tuple(m.group("path").split(".")[1:])
    _check_path(name, keys, names)
    return Expression(name, figure, keys, fmt)


def _check_path(name: str, keys: tuple[str, ...], options: tuple[str, ...]) -> None:
    """What a path says that needs no figure's data: `params.x` names an option, `facts` a model that has them."""
    if keys[0] == "params" and len(keys) > 1 and keys[1] not in options:
        raise ExpressionError(f"'{name}.params' has no '{clip(keys[1], 40)}'"
                              + did_you_mean(keys[1], options, f" (it has {', '.join(options)})"))
    if keys[0] == "facts" and not hasattr(module(name), "facts"):
        raise ExpressionError(f"figure '{name}' quotes no facts (its model has no facts()): read its data instead")


def evaluate(expression: Expression, lookup) -> str:
    """The value the expression names, with `lookup(params) -> dict` (the figure's data and facts), formatted."""
    name, fmt = expression.name, expression.fmt
    value = lookup(expression.params)
    walked = name
    for key in expression.keys:
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, list) and re.fullmatch(r"-?\d+", key) and -len(value) <= int(key) < len(value):
            value = value[int(key)]
        else:
            options = ", ".join(map(str, value)) if isinstance(value, dict) else (
                f"an index below {len(value)}" if isinstance(value, list) else "nothing: it is a value")
            raise ExpressionError(f"'{clip(walked, 80)}' has no '{clip(key, 40)}' (it has {clip(options, 120)})")
        walked += "." + key
    if isinstance(value, (dict, list)):
        raise ExpressionError(f"'{clip(walked, 80)}' is a {'mapping' if isinstance(value, dict) else 'list'}, not a number or text")
    try:
        text = format(value, fmt)
    except (ValueError, TypeError, OverflowError) as err:  # OverflowError: ':c' past U+10FFFF
        raise ExpressionError(f"cannot format {clip(walked, 80)} = {clip(repr(value), 40)} with "
                              f"':{clip(fmt, 20)}': {clip(err, 80)}") from None
    bad = yaml_options.RE_NOT_TEXT.search(text)
    if bad:  # ':c' of 0 or of a surrogate's code
        raise ExpressionError(f"{clip(walked, 80)} = {clip(repr(value), 40)} with ':{clip(fmt, 20)}' gives "
                              f"U+{ord(bad.group()):04X}, which no page can show")
    return escape(text)


def escape(text: str) -> str:
    """What an expression writes, as text: HTML's <, > and &, Markdown's inline syntax and straight quotes
    as character references, line breaks as spaces. A number's digits, signs and points are left alone."""
    text = html.escape(RE_LINE_BREAK.sub(" ", text), quote=False)
    return RE_MARKDOWN_SYNTAX.sub(lambda m: f"&#{ord(m.group())};", text)
