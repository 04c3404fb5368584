"""Fallback for query-drag: the keys and the query at its start on a plane, and beside it every word's
raw score, scaled score and weight, so the scaling step shows here as in the view."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fill

from . import COLOURS


def _start(data):
    col, row = data["start"]
    i = row * len(data["axis"]) + col
    return (data["axis"][col], data["axis"][row]), data["scores"][i], data["scaled"][i], data["weights"][i]


RAW_X, SCALED_X = -1.0, -0.45  # where the two score columns stand, left of the weight bars (which run 0..1)


def draw(fig, data):
    (qx, qy), scores, scaled, weights = _start(data)
    parts = data["text"]["parts"]
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
    bars.set_xlim(-1.5, 1.25)
    bars.spines["left"].set_visible(False)
    bars.tick_params(axis="y", length=0)
    bars.set_xticks([0, 0.5, 1])
    bars.spines["bottom"].set_bounds(0, 1)
    bars.set_xlabel("weight")
    top = len(data["words"]) - 0.3
    root = f"√{len(data['keys'][0])}"
    for x, head in ((RAW_X, "raw\nq·k"), (SCALED_X, f"scaled\n÷ {root}"), (0, "weight")):
        bars.text(x, top, head, ha="right" if x < 0 else "left", va="bottom", fontsize=8)
    for yi, s, sc, w in zip(y, scores, scaled, weights):
        bars.text(RAW_X, yi, fill(parts["score"], {"v": s}), ha="right", va="center", fontsize=8)
        bars.text(SCALED_X, yi, fill(parts["scaled"], {"v": sc}), ha="right", va="center", fontsize=8)
        bars.text(w + 0.02, yi, fill(parts["weight"], {"v": w}), va="center", fontsize=8)

