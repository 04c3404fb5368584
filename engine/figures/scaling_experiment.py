"""scaling-experiment: why scores are divided by √d before the softmax.

For each width d, random queries each meet their own random keys (entries from a standard
normal); we average the largest softmax weight with and without the division.
Text states are indexed like `rows`: state i has no key numbers of its own (every width's line is
in `text.fixed`) and its "label" is the readout for rows[i]; `start` is the row shown first.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import softmax_forward
from .fmt import fixed
from .params import ParamError, field

LIVE = True  # its view asks the worker for options the page has no data for: the page loads Python

MAX_NUMBERS = 20_000_000  # bound on queries x keys x widest d, so no option can exhaust memory


@dataclass(frozen=True)
class Params:
    widths: tuple[int, ...] = field((1, 2, 4, 8, 16, 32, 64, 128, 256, 512), lo=1, hi=4096, length=(1, 16),
                                    doc="the widths d compared, one row of the chart each")
    queries: int = field(400, lo=10, hi=5000, doc="random queries per width")
    keys: int = field(8, lo=2, hi=32, choices=(2, 4, 8, 16, 32), doc="random keys each query is scored against")
    start_d: int = field(512, lo=1, hi=4096, doc="the width shown first (the nearest one in `widths`)")
    seed: int = field(0, lo=0, hi=2**31 - 1, doc="one seed for the whole experiment")

    def __post_init__(self):
        if self.queries * self.keys * max(self.widths) > MAX_NUMBERS:
            raise ParamError("queries", f"queries x keys x widest width must stay below {MAX_NUMBERS:,}")


EXAMPLE = {"widths": [1, 8], "queries": 10, "start_d": 2}
BROKEN = ({"queries": 5000, "keys": 32, "widths": [4096]}, "queries")  # breaks a rule of Params' own; names that option


def compute(p: Params) -> dict:
    rng = np.random.default_rng(p.seed)
    widths = sorted(set(p.widths))
    rows = []
    for d in widths:
        q = rng.standard_normal((p.queries, 1, d))  # (N, 1, d)
        k = rng.standard_normal((p.queries, p.keys, d))  # (N, K, d) fresh keys for every query
        s = (q * k).sum(axis=-1)  # (N, K) raw dot-product scores
        unscaled, _ = softmax_forward(s)  # (N, K)
        scaled, _ = softmax_forward(s / np.sqrt(d))  # (N, K)
        rows.append({
            "d": d,
            "unscaled": float(unscaled.max(axis=-1).mean()),
            "scaled": float(scaled.max(axis=-1).mean()),
            "score_spread": float(s.std()),
        })
    by_d = {str(r["d"]): r for r in rows}
    return {
        "rows": rows,
        "uniform": 1.0 / p.keys,
        "by_d": by_d,
        "start": int(np.argmin([abs(d - p.start_d) for d in widths])),
    }


def text(p: Params, data: dict) -> dict:
    rows = data["rows"]
    first, last = rows[0], rows[-1]
    if len(rows) == 1:
        alt = (f"Chart of the mean largest softmax weight at width d = {first['d']}: "
               f"{fixed(first['unscaled'])} unscaled, {fixed(first['scaled'])} divided by √d.")
    else:
        alt = (f"Line chart of the mean largest softmax weight against width. Unscaled, it climbs from "
               f"{fixed(first['unscaled'])} at d = {first['d']} to {fixed(last['unscaled'])} at d = {last['d']}; "
               f"divided by √d it stays between {fixed(min(r['scaled'] for r in rows))} and "
               f"{fixed(max(r['scaled'] for r in rows))}.")
    lines = [f"d = {r['d']}: {fixed(r['unscaled'])} unscaled, {fixed(r['scaled'])} scaled" for r in rows]
    return {
        "alt": alt,
        "numbers": lines,
        "states": [{"numbers": [], "label": f"d = {r['d']}: largest weight {fixed(r['unscaled'])} as is, "
                                            f"{fixed(r['scaled'])} divided by √d"} for r in rows],
        "fixed": lines,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per width."""
    return len(data["rows"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's width."""
    return data["start"]
