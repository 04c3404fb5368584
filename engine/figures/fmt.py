"""Number formatting for the models' text(): every line a reader reads prints numbers one way.

`fixed` is JavaScript's `Number(x).toFixed(d)` (round the exact value, a tie away from zero),
except that it never prints "-0.00" (a negative number that rounds to zero reads as zero).
theme/js/text.js holds the same rules for templates the views fill; keep the two byte-for-byte alike.
"""
from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

MAX_WHOLE = 2 ** 53 - 1  # Number.MAX_SAFE_INTEGER: larger whole numbers print differently in JS
MIN_PLAIN = 1e-4  # below this Python's repr turns to an exponent (1e-05) and JS's String does not


def fixed(x: float, digits: int = 2) -> str:
    """x with `digits` decimals, as JS toFixed rounds it; "-0.00" becomes "0.00"."""
    # Decimal(float) is the float's exact value, and ROUND_HALF_UP sends a tie away from zero: that
    # is toFixed's rule, where f"{x:.2f}" would send 0.125 to the even "0.12" and JS to "0.13".
    out = f"{Decimal(float(x)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP):f}"
    return out[1:] if out.startswith("-") and not out.strip("-0.") else out


def rounded(a, digits: int, dtype=None) -> list:
    """An array as the page data holds it: rounded to `digits`, with -0.0 turned into 0.0 (+ 0.0),
    so a view never shows "-0.00"."""
    return (np.round(np.asarray(a, dtype=dtype), digits) + 0.0).tolist()


def pairs(labels, values, digits: int = 2) -> str:
    """"cat 0.50, sat 0.25": each label followed by its value."""
    return ", ".join(f"{label} {fixed(v, digits)}" for label, v in zip(labels, values))


def percent(x: float) -> str:
    """A share as a whole percentage, "75%"."""
    return f"{fixed(100 * x, 0)}%"


# A slot: "{name}", "{name.index}" (item `index` of the list `name`), either with ":d" for d decimals
# or ":~d" for a whole number as written and any other to d decimals.
_SLOT = re.compile(r"\{([a-z_][a-z_0-9]*)(?:\.(\d+))?(?::(~)?(\d))?\}")


def _value(values: dict, name: str, index: str | None):
    v = values[name]  # KeyError: the template names a value the scope does not have
    if index is None:
        return v
    if not isinstance(v, list) or int(index) >= len(v):
        raise ValueError(f"text template slot {{{name}.{index}}}: no such item")
    return v[int(index)]


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def fill(template: str, values: dict) -> str:
    """Fill each slot from `values`: "{name:d}" with the number to d decimals (`fixed`), "{name:~d}" alike
    unless it is whole (then as written), "{name}" with
    a string as is or a number as written (3.0 as "3", 0.6 as "0.6", JS's `String`). Views fill the same templates by the same rule (text.js
    `fill`), where a line per state would weigh too much."""
    def one(m):
        name, index, whole, digits = m.groups()
        v = _value(values, name, index)
        if digits is not None:
            if not _is_number(v):
                raise ValueError(f"text template slot {m.group(0)}: decimals need a number")
            if whole and float(v).is_integer() and abs(v) <= MAX_WHOLE:
                return str(int(v))
            return fixed(v, int(digits))
        if isinstance(v, str):
            return v
        if _is_number(v) and float(v).is_integer() and abs(v) <= MAX_WHOLE:
            return str(int(v))  # 3.0 prints "3", as String(3) does
        if isinstance(v, float) and math.isfinite(v) and not v.is_integer() and abs(v) >= MIN_PLAIN:
            return repr(v)  # the shortest digits that read back as v: JS's String(v) in this range
        raise ValueError(f"text template slot {m.group(0)}: this number needs decimals")
    return _SLOT.sub(one, template)


def fill_all(templates, values: dict) -> list[str]:
    """Every template filled from the same values: a state's key numbers."""
    return [fill(t, values) for t in templates]


# Scopes: where each slot's value lies in the data, declared (text.scope) instead of written as a
# function, so the view fills templates by the one rule below (text.js `scopeAt`) and never
# restates a model's indexing. A scope is
#   {"index": [[name, path], ...],  # state i, split like nested loops over these arrays (last fastest)
#    "let": {name: expr},           # optional: named steps, which a caller may give instead (a live run)
#    "values": {slot: expr}}        # what the templates' slots read
# An expr is a sum of products (`k - run.from`, `k * every`) of whole numbers and paths; a path is
# a name (`i`, an index name, an earlier let or value, else a key of the data) followed by `.key`,
# `.3` or `[expr]`. An item index below 0 counts from the end; a list of indices takes each item.
_TOKEN = re.compile(r"\s*(?:(\d+)|([a-z_][a-z_0-9]*)|(\S))")


def _tokens(expr: str) -> list:
    out = []
    for m in _TOKEN.finditer(expr):
        number, name, sign = m.groups()
        if number or name or sign:
            out.append(int(number) if number else name or sign)
    return out


def _item(v, key, expr: str):
    """v[key]: a key of a mapping, an item of a list (counted from the end below 0), or each item
    of v for a list of indices."""
    if isinstance(key, list):
        return [_item(v, k, expr) for k in key]
    if isinstance(v, dict) and isinstance(key, str) and key in v:
        return v[key]
    if isinstance(v, list) and _is_number(key) and float(key).is_integer() and -len(v) <= key < len(v):
        return v[int(key) + len(v) if key < 0 else int(key)]
    raise ValueError(f"text scope '{expr}': no item {key!r}")


def _whole(v, expr: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not float(v).is_integer():
        raise ValueError(f"text scope '{expr}': arithmetic needs whole numbers, not {v!r}")
    return int(v)


def _evaluate(expr: str, names: dict, data: dict):
    """The value of one scope expression (grammar above) with these names bound."""
    tokens, at = _tokens(expr), 0

    def peek():
        return tokens[at] if at < len(tokens) else None

    def take(want=None):
        nonlocal at
        tok = peek()
        if tok is None or (want is not None and tok != want):
            raise ValueError(f"text scope '{expr}': expected {want or 'more'}, found {tok!r}")
        at += 1
        return tok

    def atom():
        tok = take()
        if tok == "-":
            return -_whole(atom(), expr)
        if isinstance(tok, int):
            return tok
        if not isinstance(tok, str) or not (tok[0].isalpha() or tok[0] == "_"):
            raise ValueError(f"text scope '{expr}': unexpected {tok!r}")
        if tok in names:
            v = names[tok]
        elif tok in data:
            v = data[tok]
        else:
            raise ValueError(f"text scope '{expr}': no value named {tok!r}")
        while peek() in (".", "["):
            if take() == ".":
                v = _item(v, take(), expr)
            else:
                v = _item(v, total(), expr)
                take("]")
        return v

    def product():
        v = atom()
        while peek() == "*":
            take()
            v = _whole(v, expr) * _whole(atom(), expr)
        return v

    def total():
        v = product()
        while peek() in ("+", "-"):
            sign = take()
            w = _whole(product(), expr)
            v = _whole(v, expr) + (w if sign == "+" else -w)
        return v

    v = total()
    if peek() is not None:
        raise ValueError(f"text scope '{expr}': unexpected {peek()!r}")
    return v


def states(scope: dict, data: dict) -> int:
    """How many states a scope's index runs over (the product of its arrays' lengths)."""
    n = 1
    for _, path in scope["index"]:
        n *= len(_evaluate(path, {}, data))
    return n


def scope_at(scope: dict, data: dict, i: int, given: dict | None = None) -> dict:
    """The values a scope's slots read at state i; `given` names a caller's own value for a `let`
    (lookup-training's live run). text.js `scopeAt` reads scopes by the same rule."""
    names = {"i": i, **(given or {})}
    rest = i
    if not 0 <= i < states(scope, data):
        raise ValueError(f"text scope: no state {i}")
    for name, path in reversed(scope["index"]):
        rest, names[name] = divmod(rest, len(_evaluate(path, {}, data)))
    for name, expr in scope.get("let", {}).items():
        if name not in names:
            names[name] = _evaluate(expr, names, data)
    values = {}
    for name, expr in scope["values"].items():
        values[name] = names[name] = _evaluate(expr, names, data)
    return values
