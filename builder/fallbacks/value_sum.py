"""Fallback for value-sum: the output of "it" as a chain of weight-times-value arrows, tired and wide."""
from __future__ import annotations

import numpy as np

from . import COLOURS


def draw(fig, data):
    axes = np.atleast_1d(fig.subplots(1, len(data["last_words"])))
    for ax, last in zip(axes, data["last_words"]):
        mode = data["modes"][last]
        v = np.array(mode["values"])
        ax.scatter(v[:, 0], v[:, 1], s=14, color=COLOURS["value"], zorder=3)
        for word, (x, y) in zip(mode["words"], v):
            if abs(x) > 0.1 or abs(y) > 0.1:  # the values near the origin crowd: label the far ones
                ax.annotate(word, (x, y), xytext=(4, 4), textcoords="offset points", fontsize=8,
                            color=COLOURS["value"])
        run = np.array(mode["running"])
        for a, b in zip(run[:-1], run[1:]):  # one arrow per term, largest weight first; a head only where it fits
            style = "->" if np.hypot(*(b - a)) > 0.05 else "-"
            ax.annotate("", xy=b, xytext=a, arrowprops={"arrowstyle": style, "color": COLOURS["prediction"], "lw": 1.2})
        ax.scatter(*run[-1], s=30, color=COLOURS["prediction"], zorder=4)
        ax.set_xlim(-0.15, 1.1)
        ax.set_ylim(-0.15, 1.1)
        ax.set_aspect("equal")
        ax.set_title(f"“{last}”: output of “it”", fontsize=10, loc="left")
    fig.subplots_adjust(wspace=0.35)
