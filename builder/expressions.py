"""Inline build-time expressions: `{= figure.path.to.value :format =}` in prose.

They read a figure model's output, so a number in a sentence is the number in the figure.
`figure{yaml flow mapping}` runs the model with other options, e.g.
`{= scaling-experiment{keys: 16}.by_d.512.unscaled :.2f =}`.
"""
from __future__ import annotations

import re

import yaml

from engine.figures import FIGURES, ParamError

RE_EXPR = re.compile(
    r"^(?P<name>[a-z][a-z0-9-]*)"
    r"(?P<params>\{.*\})?"
    r"(?P<path>(?:\.[A-Za-z0-9_-]+)+)"
    r"\s*(?::(?P<fmt>.*))?$"
)


class ExpressionError(ValueError):
    """A bad expression; the builder adds the file and line."""


def evaluate(source: str, compute) -> str:
    """Evaluate one expression with `compute(name, params) -> dict` and format the value."""
    m = RE_EXPR.match(source.strip())
    if not m:
        raise ExpressionError(
            f"cannot read inline expression '{{= {source} =}}': expected '{{= figure.key.key :format =}}'"
        )
    name = m.group("name")
    if name not in FIGURES:
        raise ExpressionError(f"inline expression names unknown figure '{name}' (known: {', '.join(FIGURES)})")
    params = {}
    if m.group("params"):
        try:
            params = yaml.safe_load(m.group("params"))
        except yaml.YAMLError as err:
            raise ExpressionError(f"bad options {m.group('params')} in inline expression: {err.__class__.__name__}") from None
    try:
        value = compute(name, params)
    except ParamError as err:
        raise ExpressionError(f"inline expression '{name}': {err}") from None
    walked = name
    for key in m.group("path").split(".")[1:]:
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, list) and re.fullmatch(r"-?\d+", key) and -len(value) <= int(key) < len(value):
            value = value[int(key)]
        else:
            options = ", ".join(map(str, value)) if isinstance(value, dict) else (
                f"an index below {len(value)}" if isinstance(value, list) else "nothing: it is a value")
            raise ExpressionError(f"'{walked}' has no '{key}' (it has {options})")
        walked += "." + key
    if isinstance(value, (dict, list)):
        raise ExpressionError(f"'{walked}' is a {'mapping' if isinstance(value, dict) else 'list'}, not a number or text")
    fmt = (m.group("fmt") or "").strip()
    try:
        return format(value, fmt)
    except (ValueError, TypeError) as err:
        raise ExpressionError(f"cannot format {walked} = {value!r} with ':{fmt}': {err}") from None
