"""tiled-attention: attention over a few tokens computed tile by tile (engine/tiling.py), as FlashAttention does.

Random queries, keys and values (seeded) for `tokens` tokens; the score grid is cut into block ×
block tiles, visited query block by query block (tiles the causal mask hides entirely are skipped).
`steps[i]` is the state after tile i: its rows and columns, its scores as the view prints them, and
for each row of the tile the running max before and after, the factor the earlier sum and output
were multiplied by, and the running sum. Text states are indexed like `steps`. The largest
difference from engine/attention.py's plain attention is measured here, on the same inputs.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tiling import plain_attention, tiled_attention_steps
from .fmt import fixed
from .params import field

D_K, D_V = 4, 2  # query/key width and value width of the example


@dataclass(frozen=True)
class Params:
    tokens: int = field(8, lo=2, hi=12, step=1, doc="how many tokens the example has")
    block: int = field(2, choices=(1, 2, 3, 4), doc="how many rows and columns one tile covers")
    causal: bool = field(True, doc="a decoder's mask: tiles above the diagonal are skipped")
    seed: int = field(3, lo=0, hi=10_000, doc="the random seed of the example's queries, keys and values")
    step: int = field(0, lo=0, hi=200, doc="the tile shown at first (clipped to the last)")


EXAMPLE = {"tokens": 6, "block": 4, "causal": False, "seed": 9, "step": 2}


def _inputs(p: Params):
    rng = np.random.default_rng(p.seed)
    return (rng.normal(size=(p.tokens, D_K)) * 1.5, rng.normal(size=(p.tokens, D_K)) * 1.5,
            rng.normal(size=(p.tokens, D_V)))  # (n, K), (n, K), (n, V)


def _finite(x: float):
    return float(x) if np.isfinite(x) else None


def compute(p: Params) -> dict:
    q, k, v = _inputs(p)
    steps, out = [], np.empty((p.tokens, D_V))
    for s in tiled_attention_steps(q, k, v, p.block, causal=p.causal):
        (r0, r1), (c0, c1) = s.rows, s.cols
        out[r0:r1] = s.partial / s.total[:, None]
        steps.append({
            "rows": [r0, r1], "cols": [c0, c1],
            "scores": [[fixed(x, 2) if np.isfinite(x) else "" for x in row] for row in s.scores],
            "max_before": [_finite(x) for x in s.max_before],
            "max_after": [_finite(x) for x in s.max_after],
            "rescale": [float(x) for x in s.rescale],
            "total": [float(x) for x in s.total],
            "last_of_block": c1 >= p.tokens or (p.causal and c1 > r1 - 1),
        })
    gap = float(np.abs(out - plain_attention(q, k, v, p.causal)).max())
    allowed = p.tokens * (p.tokens + 1) // 2 if p.causal else p.tokens ** 2
    masked = [[bool(p.causal and j > i) for j in range(p.tokens)] for i in range(p.tokens)]  # (n, n) hidden scores
    return {"tokens": [f"t{i + 1}" for i in range(p.tokens)], "steps": steps, "masked": masked,
            "readouts": [f"tile {i + 1} of {len(steps)}" for i in range(len(steps))],
            "start": min(p.step, len(steps) - 1), "largest_difference": gap,
            "held": max(len(s["scores"]) * len(s["scores"][0]) for s in steps),
            "grid": p.tokens ** 2, "allowed": allowed}


def _span(a: int, b: int) -> str:
    return f"{a + 1}" if b - a == 1 else f"{a + 1}–{b}"


def _row_line(step: dict, j: int) -> str:
    r = step["rows"][0] + j + 1
    before, after, scale = step["max_before"][j], step["max_after"][j], step["rescale"][j]
    total = fixed(step["total"][j], 3)
    if after is None:
        return f"Query {r}: no key visible yet"
    if before is None:
        return f"Query {r}: running max {fixed(after, 2)} (its first tile), running sum {total}"
    if after > before:
        return (f"Query {r}: running max rises {fixed(before, 2)} → {fixed(after, 2)}, so the earlier sum and "
                f"output are multiplied by {fixed(scale, 3)}; running sum {total}")
    return f"Query {r}: running max stays {fixed(after, 2)}; running sum {total}"


def _state(data: dict, i: int) -> dict:
    s = data["steps"][i]
    (r0, r1), (c0, c1) = s["rows"], s["cols"]
    n_scores = (r1 - r0) * (c1 - c0)
    head = (f"Tile {i + 1} of {len(data['steps'])}: queries {_span(r0, r1)} × keys {_span(c0, c1)} "
            f"({n_scores} scores held)")
    lines = [head] + [_row_line(s, j) for j in range(r1 - r0)]
    if s["last_of_block"]:
        lines.append(f"Queries {_span(r0, r1)} finished: output = running output ÷ running sum")
    return {"numbers": lines, "label": f"Score grid with {head}"}


def text(p: Params, data: dict) -> dict:
    states = [_state(data, i) for i in range(len(data["steps"]))]
    fixed_lines = [
        f"Largest difference from plain attention, all {p.tokens} outputs: {data['largest_difference']:.1e}",
        f"Scores held at once: {data['held']} (one {p.block} × {p.block} tile) of the {data['grid']} in the full grid"
        + (f" ({data['allowed']} unmasked)" if p.causal else ""),
    ]
    start = opening_state(p, data)
    return {
        "alt": (f"A {p.tokens} × {p.tokens} grid of attention scores cut into {p.block} × {p.block} tiles, worked "
                "through one tile at a time while each query row keeps a running max and a running sum. "
                + fixed_lines[0] + "."),
        "numbers": states[start]["numbers"] + fixed_lines,
        "states": states,
        "fixed": fixed_lines,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per step."""
    return len(data["steps"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's step."""
    return data["start"]


def facts(p: Params, data: dict) -> dict:
    rises = sum(1 for s in data["steps"] for b, a in zip(s["max_before"], s["max_after"])
                if b is not None and a is not None and a > b)
    return {"tokens": p.tokens, "block": p.block, "tiles": len(data["steps"]), "held": data["held"],
            "grid": data["grid"], "allowed": data["allowed"], "largest_difference": data["largest_difference"],
            "rescales": rises}
