"""Validate figure parameters from Markdown (YAML) or the browser (JSON) against a frozen dataclass.

Both callers hand in plain dicts, so one checker gives the same errors at build time and at read time.
Quiz and exercise options (builder/directives) are declared and checked the same way.
"""
from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing

REQUIRED = dataclasses.MISSING  # the default of an option that has none: leaving it out is an error


class ParamError(ValueError):
    """A bad figure option; `option` names it so the builder can point at it."""

    def __init__(self, option: str | None, message: str):
        super().__init__(message)
        self.option = option


def check_index(option: str, value: int, count: int, things: str) -> None:
    """An option that picks one of `count` things (a row, a sentence) by its index: refused past the last,
    which its field's range, fixed before the things are known, cannot say."""
    if value >= count:
        raise ParamError(option, f"option '{option}' must name one of the {count} {things} (0 to {count - 1}), "
                                 f"not {value}")


def field(default, *, lo=None, hi=None, length=None, choices=None, step=None, chars=None, keys=None,
          numbers_as_text=False, doc=""):
    """A dataclass field with its allowed values: a range (inclusive), a length range for tuples and
    mappings, a set of choices, and the step a control moves it by (views read them from `schema()`);
    for text, a range of characters (`chars`, at least 1: not blank) and whether a YAML number stands
    for its text; for a mapping, `keys` = (pattern, what it allows) that every key (as text) matches;
    `doc`, what the option does in an author's words: the catalogue lists it (builder/catalogue.py)."""
    return dataclasses.field(default=default, metadata={
        "lo": lo, "hi": hi, "length": length, "choices": tuple(choices) if choices else None, "step": step,
        "chars": chars, "keys": (re.compile(keys[0]), keys[1]) if keys else None, "numbers_as_text": numbers_as_text,
        "doc": doc})


def _short(value, limit: int = 60) -> str:
    """repr(value) cut to `limit` characters: an error message never echoes unbounded input."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int past the digit limit for str(); deep nesting
        return "a number too long to print"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _check_number(name, value, kind, meta):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ParamError(name, f"option '{name}' must be a number, not {type(value).__name__} {_short(value)}")
    if kind is int:
        if isinstance(value, float) and not value.is_integer():
            raise ParamError(name, f"option '{name}' must be a whole number, not {_short(value)}")
        value = int(value)
    else:
        try:
            value = float(value)
        except OverflowError:
            raise ParamError(name, f"option '{name}' is too large for a number") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise ParamError(name, f"option '{name}' must be a finite number, not {_short(value)}")
    lo, hi = meta.get("lo"), meta.get("hi")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ParamError(name, f"option '{name}' must lie between {lo} and {hi}, not {_short(value)}")
    return _check_choice(name, value, meta)


def _check_choice(name, value, meta):
    choices = meta.get("choices")
    if choices and value not in choices:
        raise ParamError(name, f"option '{name}' must be one of {', '.join(map(str, choices))}, not {_short(value)}")
    return value


def _check_text(name, value, meta):
    if meta.get("numbers_as_text") and isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)  # YAML reads `2` as a number
    if not isinstance(value, str):
        raise ParamError(name, f"option '{name}' must be text, not {type(value).__name__} {_short(value)}")
    chars = meta.get("chars")
    if chars and chars[0] and not value.strip():
        raise ParamError(name, f"option '{name}' must not be blank")
    if chars and chars[1] is not None and len(value) > chars[1]:
        raise ParamError(name, f"option '{name}' has {len(value)} characters (at most {chars[1]})")
    return _check_choice(name, value, meta)


def _check_mapping(name, value, kind, meta):
    """A mapping's keys as text (YAML reads `1:` as a number), each matching `keys`; values of its type."""
    if not isinstance(value, dict):
        raise ParamError(name, f"option '{name}' must be a mapping of name: value lines, not "
                               f"{type(value).__name__} {_short(value)}")
    length = meta.get("length")
    if length and not (length[0] <= len(value) <= length[1]):
        raise ParamError(name, f"option '{name}' must have {length[0]} to {length[1]} items, not {len(value)}")
    (_key, item) = typing.get_args(kind)
    out = {}
    for key, v in value.items():
        key = str(key)
        pattern, allowed = meta.get("keys") or (None, "")
        if pattern is not None and not pattern.fullmatch(key):
            raise ParamError(name, f"option '{name}': {_short(key, 20)} is not {allowed}")
        out[key] = _check(f"{name}[{key[:20]}]", v, item, meta)
    return out


def _check(name, value, kind, meta):
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):  # a list takes the list alternative, anything else the first other
        alternatives = typing.get_args(kind)
        lists = [a for a in alternatives if typing.get_origin(a) is tuple]
        others = [a for a in alternatives if typing.get_origin(a) is not tuple]
        return _check(name, value, lists[0] if lists and isinstance(value, (list, tuple)) else others[0], meta)
    if origin is dict:
        return _check_mapping(name, value, kind, meta)
    if origin is tuple:
        (item, _ellipsis) = typing.get_args(kind)
        if not isinstance(value, (list, tuple)):
            raise ParamError(name, f"option '{name}' must be a list, not {type(value).__name__} {_short(value)}")
        length = meta.get("length")
        if length and not (length[0] <= len(value) <= length[1]):
            raise ParamError(name, f"option '{name}' must have {length[0]} to {length[1]} items, not {len(value)}")
        return tuple(_check(f"{name}[{i}]", v, item, meta) for i, v in enumerate(value))
    if kind in (int, float):
        return _check_number(name, value, kind, meta)
    if kind is bool:
        if not isinstance(value, bool):
            raise ParamError(name, f"option '{name}' must be true or false, not {_short(value)}")
        return value
    if kind is str:
        return _check_text(name, value, meta)
    raise TypeError(f"unsupported parameter type {kind!r} for '{name}'")  # a bug in a figure model


@functools.lru_cache(maxsize=256)
def _fields(params_cls) -> tuple[dict, dict]:
    """The class's type hints and fields, read once per class: its annotations are strings (postponed
    evaluation), compiled on every read, and a build validates hundreds of options (serve, each rebuild)."""
    return typing.get_type_hints(params_cls), {f.name: f for f in dataclasses.fields(params_cls)}


def validate(params_cls, raw: dict | None):
    """Return params_cls built from `raw`, or raise ParamError naming the first bad option."""
    raw = {} if raw is None else raw
    if not isinstance(raw, dict):
        raise ParamError(None, f"options must be a mapping of name: value, not {type(raw).__name__}")
    hints, fields = _fields(params_cls)
    unknown = [k for k in raw if k not in fields]
    if unknown:
        allowed = ", ".join(fields) or "none"
        name = str(unknown[0])[:60]
        raise ParamError(name, f"unknown option '{name}' (allowed: {allowed})")
    missing = [k for k, f in fields.items() if f.default is REQUIRED and f.default_factory is REQUIRED and k not in raw]
    if missing:
        raise ParamError(missing[0], f"needs option '{missing[0]}'")
    values = {k: _check(k, v, hints[k], fields[k].metadata) for k, v in raw.items()}
    return params_cls(**values)


def schema(params_cls) -> dict:
    """Each option's default and allowed values, JSON-able: shipped with the figure's data so a
    view's controls take their ranges, steps and choices from the model, never restate them."""
    out = {}
    for f in dataclasses.fields(params_cls):
        entry = {"default": _plain(f.default)}
        for key in ("lo", "hi", "length", "choices", "step"):
            if f.metadata.get(key) is not None:
                entry[key] = _plain(f.metadata[key])
        out[f.name] = entry
    return out


def _plain(value):
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def to_json(params) -> dict:
    """Parameters as a JSON-able dict (tuples, nested ones too, become lists)."""
    return {k: _plain(v) for k, v in dataclasses.asdict(params).items()}
