"""Fallback for access-chart: which keys each query may read, causal and bidirectional."""
from __future__ import annotations

import numpy as np

from . import COLOURS, cells


def draw(fig, data):
    n = data["params"]["length"]
    words = data["words"][:n]
    fig.set_size_inches(6.4, 3.6)
    axes = fig.subplots(1, 2)
    for ax, mode in zip(axes, data["modes"]):
        grid = np.array(data["grids"][mode][n - 1])  # (n, n) 1 = may read
        cells(ax, grid, "key", base="track")
        ax.set_xticks(range(n), words, fontsize=6, rotation=60, ha="right")
        ax.set_yticks(range(n), words, fontsize=6)
        ax.set_xticks(np.arange(n + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(n + 1) - 0.5, minor=True)
        ax.grid(which="minor", color=COLOURS["surface"], linewidth=1)
        ax.tick_params(which="both", length=0)
        count = data["counts"][mode][n - 1]
        ax.set_title(f"{mode}: {count} of {n * n} pairs", fontsize=9, loc="left")
        for spine in ax.spines.values():
            spine.set_visible(False)
    fig.subplots_adjust(left=0.12, right=0.98, bottom=0.25, top=0.9, wspace=0.45)
