"""Fallback for attention-matrix: the grid of weights, one row per query, one column per key."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fill

from . import COLOURS, cells


def draw(fig, data):
    fig.set_size_inches(6.4, 6.0)
    ax = fig.subplots()
    a = np.array(data["weights"])
    cells(ax, np.where(a > 0.5, 1, 0.08 + 0.92 * a), "prediction")  # as the view: a weight above 0.5 is a solid cell
    words = data["words"]
    ticks = np.arange(len(words))
    ax.set_xticks(ticks, words, rotation=60, ha="right", fontsize=8, color=COLOURS["key"])
    ax.set_yticks(ticks, words, fontsize=8, color=COLOURS["query"])
    ax.set_xlabel("keys (columns)")
    ax.set_ylabel("queries (rows)")
    for i in range(len(words)):
        for j in range(len(words)):
            ax.text(j, i, fill(data["text"]["parts"]["cell"], {"v": a[i, j]}), ha="center", va="center", fontsize=5,
                    color=COLOURS["surface"] if a[i, j] > 0.5 else COLOURS["ink"],
                    fontweight="bold" if a[i, j] > 0.5 else "normal")
