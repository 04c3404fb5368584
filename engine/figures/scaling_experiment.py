"""scaling-experiment: why scores are divided by √d before the softmax.

For each width d, random queries each meet their own random keys (entries from a standard
normal); we average the largest softmax weight with and without the division.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import softmax_forward
from .params import ParamError, field

MAX_NUMBERS = 20_000_000  # bound on queries x keys x widest d, so no option can exhaust memory


@dataclass(frozen=True)
class Params:
    widths: tuple[int, ...] = field((1, 2, 4, 8, 16, 32, 64, 128, 256, 512), lo=1, hi=4096, length=(1, 16))  # d values
    queries: int = field(400, lo=10, hi=5000)  # random queries per width
    keys: int = field(8, lo=2, hi=64)  # random keys each query is scored against
    seed: int = field(0, lo=0, hi=2**31 - 1)  # one seed for the whole experiment


def compute(p: Params) -> dict:
    if p.queries * p.keys * max(p.widths) > MAX_NUMBERS:
        raise ParamError("queries", f"queries x keys x widest width must stay below {MAX_NUMBERS:,}")
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
    }
