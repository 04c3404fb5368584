"""Number formatting for the models' text(): every line a reader reads prints numbers one way.

`fixed` matches the views' former `Number(x).toFixed(d)`, except that it never prints "-0.00"
(a negative number that rounds to zero reads as zero).
"""
from __future__ import annotations

import re


def fixed(x: float, digits: int = 2) -> str:
    """x with `digits` decimals; "-0.00" becomes "0.00"."""
    out = f"{float(x) + 0.0:.{digits}f}"
    return out[1:] if out.startswith("-") and not out.strip("-0.") else out


def pairs(labels, values, digits: int = 2) -> str:
    """"cat 0.50, sat 0.25": each label followed by its value."""
    return ", ".join(f"{label} {fixed(v, digits)}" for label, v in zip(labels, values))


def percent(x: float) -> str:
    """A share as a whole percentage, "75%"."""
    return f"{fixed(100 * x, 0)}%"


_SLOT = re.compile(r"\{([a-z_0-9]+)(?::(\d))?\}")


def fill(template: str, values: dict) -> str:
    """Fill "{name}" with str(value) and "{name:d}" with the value to d decimals. Views fill the
    same templates the same way (one regex, `fixed`), where a line per state would weigh too much."""
    def one(m):
        v = values[m.group(1)]
        return str(v) if m.group(2) is None else fixed(v, int(m.group(2)))
    return _SLOT.sub(one, template)
