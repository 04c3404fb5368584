"""Fallback for head-types: each head's causal attention matrix, with its targets outlined."""
from __future__ import annotations

import numpy as np
from matplotlib.patches import Rectangle

from . import COLOURS, cells


def draw(fig, data):
    fig.set_size_inches(9.6, 3.9)
    chips = data["chips"]
    n = len(chips)
    axes = fig.subplots(1, len(data["heads"]))
    for ax, head, name in zip(axes, data["heads"], data["text"]["heads"]):
        w = np.array(head["weights"])
        w = np.ma.masked_where(np.triu(np.ones((n, n), dtype=bool), 1), w)  # later tokens: masked, left blank
        cells(ax, w, "prediction")
        for i, targets in enumerate(head["targets"]):
            for j in targets:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=COLOURS["target"],
                                       linewidth=1.2, linestyle="--"))
        ax.set_xticks(range(n), chips, rotation=90, fontsize=6.5, family="DejaVu Sans Mono")
        ax.set_yticks(range(n), chips, fontsize=6.5, family="DejaVu Sans Mono")
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.set_title(name, fontsize=9, color=COLOURS["data"])
    axes[0].set_ylabel("token that looks", fontsize=8)
    fig.subplots_adjust(wspace=0.45)
