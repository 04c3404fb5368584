"""Fallback for qkv-matrices: Q, K and V as shaded matrices, and the selected query's weights as bars."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fill

from . import COLOURS, cells

ROLES = (("q", "Q (queries)", "query"), ("k", "K (keys)", "key"), ("v", "V (values)", "value"))


def draw(fig, data):
    fig.set_size_inches(6.4, 4.6)
    words, i, parts = data["words"], data["start"], data["text"]["parts"]
    n = len(words)
    grid = fig.add_gridspec(2, 3, height_ratios=[1, 0.8], hspace=0.45, wspace=0.15)
    for c, (role, title, colour) in enumerate(ROLES):
        ax = fig.add_subplot(grid[0, c])
        m = np.array(data[role])
        cells(ax, np.abs(m), colour, lim=data["extent"] * 1.4, aspect="auto")
        for (r, k), v in np.ndenumerate(m):
            ax.text(k, r, fill(parts["matrix"], {"v": float(v)}), ha="center", va="center", fontsize=5.5,
                    color=COLOURS["ink"], fontweight="bold" if role == "q" and r == i else "normal")
        ax.set_xticks([])
        ax.set_yticks(range(n), words if c == 0 else [""] * n, fontsize=8)
        ax.set_title(title, fontsize=9, loc="left", color=COLOURS[colour])
        ax.tick_params(length=0)
        for side in ax.spines.values():
            side.set_visible(False)
    bars = fig.add_subplot(grid[1, :])
    w = np.array(data["weights"][i])
    bars.barh(range(n), w, color=COLOURS["prediction"])
    for j, v in enumerate(w):
        bars.text(v + 0.01, j, fill(parts["weight"], {"v": float(v)}), va="center", fontsize=7, color=COLOURS["ink"])
    bars.set_yticks(range(n), words, fontsize=8)
    bars.invert_yaxis()
    bars.set_xlim(0, 1.15)
    bars.set_title(f"softmax(q·k/√{data['d_k']}) for the query of {words[i]} (word {i + 1})", fontsize=9, loc="left")
    bars.tick_params(labelsize=7)
