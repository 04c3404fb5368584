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
Text: 2,304 states of three lines would weigh some 380 kB, so instead of `states` the text has
`templates`, three lines with slots that the view fills for the pair on screen (i, j) =
(a's tip, b's tip), state i * len(points) + j, from `text.scope` (SCOPE below: {a1} {a2} {b1} {b2}
from points[i] and points[j], {la} {lb} from length[i] and length[j], and {dot} {angle:1} {cos:3}
{geometric:2} from dot[i][j], angle[i][j], cos[i][j] and geometric[i][j], read by
engine/figures/fmt.py `scope_at`); "{name:d}" means d decimals (`fill`).
The arrays hold the values rounded to the decimals shown, so no number is rounded twice.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .fmt import fill, rounded, scope_at
from .params import ParamError, field


@dataclass(frozen=True)
class Params:
    a: tuple[int, ...] = field((3, 1), lo=-5, hi=5, length=(2, 2), doc="tip of the orange arrow at the start")
    b: tuple[int, ...] = field((1, 2), lo=-5, hi=5, length=(2, 2), doc="tip of the blue arrow at the start")
    extent: int = field(3, lo=1, hi=5, doc="tips move on whole numbers from -extent to extent")

    def __post_init__(self):
        for name in ("a", "b"):
            tip = getattr(self, name)
            if tip == (0, 0):
                raise ParamError(name, f"option '{name}' must not be (0, 0): an arrow needs a direction")
            if max(abs(v) for v in tip) > self.extent:
                raise ParamError(name, f"option '{name}' {list(tip)} lies outside the grid of extent {self.extent}")


EXAMPLE = {"extent": 2, "a": [1, 1], "b": [-2, 1]}
BROKEN = ({"a": [0, 0]}, "a")  # options that break a rule of Params' own, and the option it names


def grid_points(extent: int) -> np.ndarray:
    """(n, 2) whole-number points of the square, row by row from the bottom left, origin left out."""
    r = np.arange(-extent, extent + 1)  # (2E+1,)
    pts = np.array([(x, y) for y in r for x in r if (x, y) != (0, 0)])  # (n, 2)
    return pts


def readouts(pts: np.ndarray) -> dict:
    """Every pair's readouts at full precision: the sum of products, and |a| |b| cos θ from lengths and angle."""
    dot = pts @ pts.T  # (n, n) sum of products, whole numbers
    length = np.linalg.norm(pts, axis=1)  # (n,)
    direction = np.arctan2(pts[:, 1], pts[:, 0])  # (n,) radians
    turn = np.abs(direction[:, None] - direction[None, :])  # (n, n)
    angle = np.minimum(turn, 2 * np.pi - turn)  # (n, n) angle between the arrows, 0..pi
    cos = np.cos(angle)  # (n, n)
    return {"dot": dot, "length": length, "angle": np.degrees(angle), "cos": cos,
            "geometric": length[:, None] * length[None, :] * cos}  # (n, n) |a| |b| cos θ


def compute(p: Params) -> dict:
    pts = grid_points(p.extent)  # (n, 2)
    r = readouts(pts)
    index = {tuple(int(v) for v in pt): i for i, pt in enumerate(pts)}

    return {
        "extent": p.extent,
        "points": pts.tolist(),
        "length": rounded(r["length"], 2),
        "dot": r["dot"].tolist(),
        "geometric": rounded(r["geometric"], 2),
        "cos": rounded(r["cos"], 3),
        "angle": rounded(r["angle"], 1),
        "start": [index[tuple(p.a)], index[tuple(p.b)]],
    }


TEMPLATES = (
    "a = ({a1}, {a2}), b = ({b1}, {b2}), angle {angle:1}°",
    "Sum of products: ({a1})({b1}) + ({a2})({b2}) = {dot}",
    "|a| |b| cos θ: {la:2} × {lb:2} × cos {angle:1}° = {la:2} × {lb:2} × {cos:3} = {geometric:2}",
)


SCOPE = {  # the values the templates name, for a's tip at points[a] and b's at points[b]
    "index": [["a", "points"], ["b", "points"]],
    "values": {"a1": "points[a].0", "a2": "points[a].1", "b1": "points[b].0", "b2": "points[b].1",
               "la": "length[a]", "lb": "length[b]", "dot": "dot[a][b]", "angle": "angle[a][b]", "cos": "cos[a][b]",
               "geometric": "geometric[a][b]"},
}


def text(p: Params, data: dict) -> dict:
    s = scope_at(SCOPE, data, opening_state(p, data))
    return {
        "alt": (fill("Two arrows from the origin, a = ({a1}, {a2}) and b = ({b1}, {b2}), {angle:1} degrees apart. "
                     "Their dot product is {dot} as a sum of products and {geometric:2} as |a| |b| cos θ.", s)),
        "numbers": [fill(t, s) for t in TEMPLATES],
        "templates": list(TEMPLATES),
        "scope": SCOPE,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per pair of tips."""
    return len(data["points"]) ** 2


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the options' tips, i * len(points) + j."""
    return data["start"][0] * len(data["points"]) + data["start"][1]


def facts(p: Params, data: dict) -> dict:
    pts = np.array(data["points"])
    r = readouts(pts)
    index = {tuple(pt): i for i, pt in enumerate(data["points"])}
    a = list(p.a)
    right = [-a[1], a[0]]  # a turned a quarter turn: always on the grid
    opposed = [-a[0], -a[1]]

    def pair(u, v):
        i, j = index[tuple(u)], index[tuple(v)]
        return {"dot": int(r["dot"][i, j]), "geometric": float(r["geometric"][i, j]),
                "angle": float(r["angle"][i, j]), "cos": float(r["cos"][i, j])}

    return {
        "a": a, "b": list(p.b),
        "start": pair(a, p.b),
        "length_a": float(r["length"][index[tuple(a)]]), "length_b": float(r["length"][index[tuple(p.b)]]),
        "right_angle_b": right, "right_angle": pair(a, right),
        "opposed_b": opposed, "opposed": pair(a, opposed),
    }
