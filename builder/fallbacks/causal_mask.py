"""Fallback for causal-mask: the weights of the whole sentence with the mask on and off, side by side."""
from __future__ import annotations

import numpy as np
from matplotlib.patches import Rectangle

from . import COLOURS, cells


def draw(fig, data):
    words = data["words"]
    n = len(words)
    fig.set_size_inches(6.4, 3.8)
    axes = fig.subplots(1, 2)
    for ax, mode in zip(axes, data["mode_names"]):
        w = np.array(data["modes"][mode]["weights"][n - 1])  # (n, n) all words written
        cells(ax, w, "prediction")
        if mode == "on":  # the blocked cells, dashed as in the live view
            for i, j in zip(*np.triu_indices(n, 1)):
                ax.add_patch(Rectangle((j - 0.4, i - 0.4), 0.8, 0.8, fill=False, edgecolor=COLOURS["rule"],
                                       linestyle=(0, (2, 2)), linewidth=0.6))
        ax.set_xticks(range(n), words, fontsize=6, rotation=60, ha="right")
        ax.set_yticks(range(n), words, fontsize=6)
        ax.tick_params(length=0)
        ax.set_title(f"mask {mode}", fontsize=9, loc="left")
        ax.set_xlabel("key (read)", fontsize=7)
        if mode == data["mode_names"][0]:
            ax.set_ylabel("query (reads)", fontsize=7)
        for spine in ax.spines.values():
            spine.set_visible(False)
    fig.subplots_adjust(left=0.12, right=0.98, bottom=0.25, top=0.92, wspace=0.45)
