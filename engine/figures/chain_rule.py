"""chain-rule: the slope of y = g(f(x)) with f(x) = x² and g(u) = eᵘ, by the chain rule and by a
central difference.

The curve y = e^(x²) is drawn with its tangent at x, whose slope is the derivative. The chain rule
gives it as a product, f′(x) · g′(f(x)) = 2x · e^(x²); the central difference
(y(x + h) − y(x − h)) / 2h, the check chapter 9 runs on every backward pass, measures it with no
formula at all. The two agree to about ten digits.

Precomputed states: state i of text.states holds the key numbers at xs[i], the slider's stop i; the
x option is added to the grid, so a worker's answer for a point dragged anywhere on the curve opens
on a stop of its own. `tangents[i]` is the tangent's segment at stop i, cut to the plot's box.
`text.parts` holds the templates of the slider's readout and valuetext (`x`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .fmt import fixed, rounded
from .params import field

LIVE = True  # a point dragged along the curve, off the slider's stops, is computed in the worker

LO, HI, STEP = -1.5, 1.5, 0.1  # the slider's ends and step
Y_TOP = 10.0  # the plot's top: e^(1.5²) ≈ 9.49 fits under it
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
DIGITS = 8  # decimals of the two slopes in the text
PARTS = {"x": "x = {v:2}"}  # the slider's readout and valuetext


@dataclass(frozen=True)
class Params:
    x: float = field(0.8, lo=LO, hi=HI, step=0.01, doc="where the tangent touches: the slider's starting point")
    h: float = field(1e-5, lo=1e-12, hi=0.5, doc="the nudge of the central difference")


EXAMPLE = {"x": -0.83, "h": 1e-6}


def f(x):
    return x ** 2  # the inner step


def f_slope(x):
    return 2 * x  # its derivative: the slope of x² at x is 2x


def g(u):
    return np.exp(u)  # the outer step


def g_slope(u):
    return np.exp(u)  # the exponential is its own slope


def y(x):
    return g(f(x))


def central(x, h):
    """(y(x + h) − y(x − h)) / 2h: the slope measured from two nearby points."""
    return (y(x + h) - y(x - h)) / (2 * h)


def _tangent(x0: float, y0: float, slope: float, half: float = 0.6) -> list[list[float]]:
    """The tangent's segment over x0 ± half, cut where it leaves the box [LO, HI] × [0, Y_TOP]."""
    ends = []
    for side in (-1, 1):
        dx = side * half
        yy = y0 + slope * dx
        if yy > Y_TOP or yy < 0:  # leaves through the top or the bottom before x0 + dx
            edge = Y_TOP if yy > Y_TOP else 0.0
            dx = (edge - y0) / slope
            yy = edge
        ends.append([float(np.clip(x0 + dx, LO, HI)), float(y0 + slope * (np.clip(x0 + dx, LO, HI) - x0))])
    return ends


def compute(p: Params) -> dict:
    grid = np.round(np.linspace(LO, HI, round((HI - LO) / STEP) + 1), 10)  # (S,)
    xs = np.unique(np.round(np.append(grid, p.x), 10))  # (S',) the stops and the chosen x
    u = f(xs)  # (S',)
    ys = g(u)  # (S',)
    inner, outer = f_slope(xs), g_slope(u)  # (S',) f′(x) and g′(f(x))
    slope = inner * outer  # (S',) the chain rule
    numeric = np.array([central(x, p.h) for x in xs])  # (S',) the central difference
    curve_x = np.linspace(LO, HI, 121)  # (C,) enough points for a smooth curve
    return {
        "xs": xs.tolist(),
        "u": u.tolist(),
        "y": ys.tolist(),
        "inner": inner.tolist(),
        "outer": outer.tolist(),
        "slope": slope.tolist(),
        "numeric": numeric.tolist(),
        "difference": np.abs(slope - numeric).tolist(),
        "tangents": [_tangent(float(x0), float(y0), float(s)) for x0, y0, s in zip(xs, ys, slope)],
        "curve": {"x": rounded(curve_x, 4), "y": rounded(y(curve_x), 4)},
        "box": {"x": [LO, HI], "y": [0.0, Y_TOP]},
        "h": p.h,
        "start": int(np.argmin(np.abs(xs - p.x))),
    }


def sci(x: float, digits: int = 1) -> str:
    """A small number in scientific notation as print writes it: 3.2 × 10⁻¹¹."""
    if x == 0:
        return "0"
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    if float(mantissa) == 1 and digits == 0:
        return f"10{str(int(exponent)).translate(SUPERSCRIPT)}"
    return f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPT)}"


def _bound(d: float) -> str:
    """The difference as the power of ten above it. Its own digits are rounding noise, which differs
    between one maths library and another (the browser's numpy and the build's), so the text gives
    only the order, and the slopes to 8 decimals, where the two libraries agree."""
    if d == 0:
        return "0"
    return "less than " + sci(10.0 ** np.ceil(np.log10(d)), 0)


def _lines(data: dict, i: int) -> list[str]:
    x, u, yy = data["xs"][i], data["u"][i], data["y"][i]
    inner, outer, slope = data["inner"][i], data["outer"][i], data["slope"][i]
    return [
        f"x = {fixed(x)}: u = x² = {fixed(u, 4)}, y = eᵘ = {fixed(yy, 4)}",
        f"Chain rule: f′(x) = 2x = {fixed(inner, 4)}, g′(u) = eᵘ = {fixed(outer, 4)}, "
        f"slope = {fixed(inner, 4)} × {fixed(outer, 4)} = {fixed(slope, DIGITS)}",
        f"Central difference with h = {sci(data['h'], 0)}: {fixed(data['numeric'][i], DIGITS)}, "
        f"off by {_bound(data['difference'][i])}",
    ]


def text(p: Params, data: dict) -> dict:
    states = [{"numbers": _lines(data, i)} for i in range(len(data["xs"]))]
    i = opening_state(p, data)
    return {
        "alt": (f"The curve y = e^(x²) for x from {fixed(LO, 1)} to {fixed(HI, 1)}, with its tangent at "
                f"x = {fixed(data['xs'][i])}, where y is {fixed(data['y'][i], 4)} and the slope is "
                f"{fixed(data['slope'][i], 4)} by the chain rule and {fixed(data['numeric'][i], 4)} by a "
                "central difference."),
        "numbers": states[i]["numbers"],
        "states": states,
        "legend": "The curve y = e^(x²); the straight line is its tangent at x, rising as steeply as the curve there.",
        "parts": PARTS,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per x."""
    return len(data["xs"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the x nearest the option's."""
    return data["start"]


def facts(p: Params, data: dict) -> dict:
    i = data["start"]
    relative = [d / max(abs(s), 1.0) for d, s in zip(data["difference"], data["slope"])]  # each stop's gap, relative
    return {"x": data["xs"][i], "u": data["u"][i], "inner": data["inner"][i], "outer": data["outer"][i],
            "slope": data["slope"][i], "numeric": data["numeric"][i], "difference": data["difference"][i],
            "h": data["h"],
            "digits": int(np.floor(-np.log10(max(relative))))}  # significant digits the two share at the worst stop
