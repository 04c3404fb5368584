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


# A slot: "{name}", "{name.index}" (item `index` of the list `name`), either with ":d" for d decimals.
_SLOT = re.compile(r"\{([a-z_][a-z_0-9]*)(?:\.(\d+))?(?::(\d))?\}")


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
    """Fill each slot from `values`: "{name:d}" with the number to d decimals (`fixed`), "{name}" with
    a string as is or a number as written (3.0 as "3", 0.6 as "0.6", JS's `String`). Views fill the same templates by the same rule (text.js
    `fill`), where a line per state would weigh too much."""
    def one(m):
        name, index, digits = m.groups()
        v = _value(values, name, index)
        if digits is not None:
            if not _is_number(v):
                raise ValueError(f"text template slot {m.group(0)}: decimals need a number")
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
