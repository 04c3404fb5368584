"""Fallback for chain-rule: the curve y = e^(x²) with its tangent at the opening x, and the slope
by the chain rule beside the central difference as the plot's title."""
from __future__ import annotations

from . import COLOURS


def draw(fig, data):
    i = data["start"]
    ax = fig.subplots()
    ax.plot(data["curve"]["x"], data["curve"]["y"], color=COLOURS["data"], linewidth=2, label="y = e^(x²)")
    (x1, y1), (x2, y2) = data["tangents"][i]
    ax.plot([x1, x2], [y1, y2], color=COLOURS["prediction"], linewidth=2, label="tangent at x")
    ax.scatter([data["xs"][i]], [data["y"][i]], color=COLOURS["prediction"], zorder=3)
    ax.axhline(0, color=COLOURS["axis"], linewidth=0.8)
    ax.axvline(0, color=COLOURS["axis"], linewidth=0.8)
    ax.set_xlim(*data["box"]["x"])
    ax.set_ylim(*data["box"]["y"])
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.legend(fontsize=8, frameon=False, loc="upper center")
    numbers = data["text"]["states"][i]["numbers"]
    ax.set_title("\n".join(numbers), fontsize=7, loc="left", color=COLOURS["muted"])
