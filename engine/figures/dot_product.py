"""dot-product: two arrows, their dot product as a sum of products and as |a| |b| cos θ.

Design choice, so that dragging stays smooth with no math in the view: the arrow tips snap
to whole-number points of the square [-extent, extent]² (the origin left out, where an
arrow has no direction), and the model precomputes the readouts for every pair of tips.
With the default extent 3 that is 48 tip positions and 48 × 48 = 2,304 pairs: small enough
to embed (each pair is four short numbers), and whole numbers keep the sum of products
readable at a glance ((3)(1) + (1)(2) = 5). The view turns a pointer or an arrow key into a
grid point and looks everything up. The two readouts are computed independently (one from
the coordinates, one from the lengths and the angle between the arrows' directions), so
their agreement in the figure is the engine's result, not a copy.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .params import ParamError, field


@dataclass(frozen=True)
class Params:
    a: tuple[int, ...] = field((3, 1), lo=-5, hi=5, length=(2, 2))  # tip of the orange arrow at the start
    b: tuple[int, ...] = field((1, 2), lo=-5, hi=5, length=(2, 2))  # tip of the blue arrow at the start
    extent: int = field(3, lo=1, hi=5)  # tips move on whole numbers from -extent to extent


def grid_points(extent: int) -> np.ndarray:
    """(n, 2) whole-number points of the square, row by row from the bottom left, origin left out."""
    r = np.arange(-extent, extent + 1)  # (2E+1,)
    pts = np.array([(x, y) for y in r for x in r if (x, y) != (0, 0)])  # (n, 2)
    return pts


def compute(p: Params) -> dict:
    for name in ("a", "b"):
        tip = getattr(p, name)
        if tip == (0, 0):
            raise ParamError(name, f"option '{name}' must not be (0, 0): an arrow needs a direction")
        if max(abs(v) for v in tip) > p.extent:
            raise ParamError(name, f"option '{name}' {list(tip)} lies outside the grid of extent {p.extent}")
    pts = grid_points(p.extent)  # (n, 2)
    dot = pts @ pts.T  # (n, n) sum of products, whole numbers
    length = np.linalg.norm(pts, axis=1)  # (n,)
    direction = np.arctan2(pts[:, 1], pts[:, 0])  # (n,) radians
    turn = np.abs(direction[:, None] - direction[None, :])  # (n, n)
    angle = np.minimum(turn, 2 * np.pi - turn)  # (n, n) angle between the arrows, 0..pi
    cos = np.cos(angle)  # (n, n)
    geometric = length[:, None] * length[None, :] * cos  # (n, n) |a| |b| cos θ
    index = {tuple(int(v) for v in pt): i for i, pt in enumerate(pts)}

    def shown(x, digits):
        """Rounded as embedded; + 0.0 turns -0.0 into 0.0, so "-0.00" never appears in a readout."""
        return (np.round(x, digits) + 0.0).tolist()
    ia, ib = index[tuple(p.a)], index[tuple(p.b)]

    def pair(u, v):
        i, j = index[u], index[v]
        return {"dot": int(dot[i, j]), "geometric": float(geometric[i, j]),
                "angle": math.degrees(float(angle[i, j])), "cos": float(cos[i, j])}

    a = tuple(p.a)
    right = (-a[1], a[0])  # a turned a quarter turn: always on the grid
    opposed = (-a[0], -a[1])
    return {
        "extent": p.extent,
        "points": pts.tolist(),
        "length": shown(length, 4),
        "dot": dot.tolist(),
        "geometric": shown(geometric, 4),
        "cos": shown(cos, 4),
        "angle": shown(np.degrees(angle), 1),
        "start": [ia, ib],
        "facts": {
            "a": list(p.a), "b": list(p.b),
            "start": pair(a, tuple(p.b)),
            "length_a": float(length[ia]), "length_b": float(length[ib]),
            "right_angle_b": list(right), "right_angle": pair(a, right),
            "opposed_b": list(opposed), "opposed": pair(a, opposed),
            "largest_gap": float(np.abs(dot - geometric).max()),  # how far the two readouts ever differ
            "n_points": len(pts),
        },
    }
