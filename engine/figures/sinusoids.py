"""sinusoids: the sinusoidal position codes of Vaswani et al. (2017) and how alike two positions' codes are.

Every position's code (`sinusoidal_positions`, sin and cos interleaved) and the dot product of
every pair of codes are computed up front, so picking a position only switches rows in the
view. Text states are indexed by position: state p lists position p's dot product with every
position, with a "label" for the view and "bars" (those numbers as printed) for the bars;
`parts.position` prints a position's number, filled from {v}.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import sinusoidal_positions
from .fmt import fixed
from .params import ParamError, field


@dataclass(frozen=True)
class Params:
    positions: int = field(24, lo=2, hi=64, doc="how many positions (rows) are shown")
    width: int = field(16, lo=2, hi=64, step=2, doc="numbers in each code (even: sine-cosine pairs)")
    position: int = field(6, lo=0, hi=63, doc="the position picked first")

    def __post_init__(self):
        if self.width % 2:
            raise ParamError("width", f"option 'width' must be even, not {self.width}")


EXAMPLE = {"positions": 9, "width": 6, "position": 3}
BROKEN = ({"width": 3}, "width")  # options that break a rule of Params' own, and the option it names


def compute(p: Params) -> dict:
    pe = sinusoidal_positions(p.positions, p.width)  # (P, width)
    dots = pe @ pe.T  # (P, P) dot product of every pair of codes
    return {
        "codes": pe.tolist(),
        "dots": dots.tolist(),
        "position": min(p.position, p.positions - 1),
    }


def _state(i: int, dots: list) -> dict:
    n = len(dots)
    near = [j for j in (i - 1, i + 1) if 0 <= j < n]
    label = f"Position {i}: dot product {fixed(dots[i])} with itself" + (
        ", " + " and ".join(f"{fixed(dots[j])} with {j}" for j in near) if near else "")
    return {
        "numbers": [label,
                    f"Dot product of position {i}'s code with positions 0–{n - 1}: "
                    + ", ".join(fixed(d) for d in dots)],
        "label": label,
        "bars": [fixed(d) for d in dots],
    }


def text(p: Params, data: dict) -> dict:
    codes, dots = data["codes"], data["dots"]
    n, width = len(codes), len(codes[0])
    states = [_state(i, dots[i]) for i in range(n)]
    fixed_lines = [f"Each code: {width} numbers, sin and cos of the position at {width // 2} frequencies "
                   f"from 1 down to {fixed(10000.0 ** (-(width - 2) / width), 4)} radians per position"]
    return {
        "alt": (f"A heat map of the {width}-number sinusoidal codes of positions 0 to {n - 1}: the first "
                "columns swing from row to row, the last change slowly. Beside it, the dot product of "
                f"position {data['position']}'s code with every position's: {fixed(dots[data['position']][data['position']])} "
                "with itself, a little less with its neighbours, falling with ripples further away."),
        "numbers": states[opening_state(p, data)]["numbers"] + fixed_lines,
        "states": states,
        "fixed": fixed_lines,
        "parts": {"position": "{v}"},
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per position."""
    return len(data["codes"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's position."""
    return data["position"]


def _offset_spread(dots: np.ndarray) -> float:
    """The largest difference between two dot products of pairs the same distance apart."""
    n = len(dots)
    return max(float(np.ptp(np.diagonal(dots, k))) for k in range(n))


def facts(p: Params, data: dict) -> dict:
    dots = np.asarray(data["dots"])
    n = len(dots)
    i = data["position"]
    return {
        "width": len(data["codes"][0]),
        "pairs": len(data["codes"][0]) // 2,
        "self_dot": float(dots[i, i]),
        "neighbour_dot": float(dots[i, i + 1]) if i + 1 < n else float(dots[i, i - 1]),
        "offset_2_dot": float(dots[0, 2]),
        "min_dot": float(dots.min()),
        "positions": n,
        "offset_spread": _offset_spread(dots),  # ~1e-15: the dot product depends on the offset only
        **_clock_hands(np.asarray(data["codes"])),
    }


def _clock_hands(codes: np.ndarray) -> dict:
    """How the fastest pair (column 0, one radian per position) and the slowest pair move down the rows."""
    width = codes.shape[1]
    fast, slow = 1.0, 10000.0 ** (-(width - 2) / width)  # radians per position, as sinusoidal_positions
    negative = np.flatnonzero(codes[:, 0] < 0)
    return {
        "fast_period": 2 * np.pi / fast,  # rows before the fastest pair repeats
        "fast_first_negative": int(negative[0]) if negative.size else None,  # first row whose first column is below 0
        "slow_period": 2 * np.pi / slow,  # positions before the slowest pair repeats
        "slow_largest_sine": float(np.abs(codes[:, width - 2]).max()),  # the slowest sine's largest size in view
    }
