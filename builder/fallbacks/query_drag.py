"""Fallback for query-drag: the keys and the query at its start on a plane, and the weights they give."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fill

from . import COLOURS


def _start(data):
    col, row = data["start"]
    i = row * len(data["axis"]) + col
    return (data["axis"][col], data["axis"][row]), data["scores"][i], data["weights"][i]


def draw(fig, data):
    (qx, qy), _, weights = _start(data)
    plane, bars = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.1], "wspace": 0.45})
    lim = data["axis"][-1]
    plane.set_xlim(-lim, lim)
    plane.set_ylim(-lim, lim)
    plane.set_aspect("equal")
    plane.axhline(0, color=COLOURS["axis"], lw=0.5)
    plane.axvline(0, color=COLOURS["axis"], lw=0.5)
    for word, (kx, ky) in zip(data["words"], data["keys"]):
        plane.annotate("", (kx, ky), (0, 0), arrowprops={"arrowstyle": "->", "color": COLOURS["key"]})
        if np.hypot(kx, ky) > 1:
            plane.text(kx, ky + 0.25, word, color=COLOURS["key"], ha="center")
    plane.annotate("", (qx, qy), (0, 0), arrowprops={"arrowstyle": "->", "color": COLOURS["query"], "lw": 2, "alpha": 0.8})
    plane.plot([qx], [qy], "o", color=COLOURS["query"], ms=6)
    plane.text(min(qx, lim - 0.2), qy - 0.6, f"query ({qx:g}, {qy:g})", color=COLOURS["query"], ha="right")
    y = np.arange(len(data["words"]))[::-1]
    bars.barh(y, weights, color=COLOURS["prediction"], height=0.6)
    bars.set_yticks(y, data["words"])
    bars.set_xlim(0, 1)
    bars.set_xlabel("weight")
    for yi, w in zip(y, weights):
        bars.text(w + 0.02, yi, fill(data["text"]["parts"]["weight"], {"v": w}), va="center", fontsize=8)

