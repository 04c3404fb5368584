"""Drawings several fallbacks share: one head's attention weights as a grid with its targets
outlined (two-heads, your-sentence, intervention; the live views share weights.js headTable)."""
from __future__ import annotations

from matplotlib.patches import Rectangle

from . import COLOURS, cells

LINES = {"attached": "solid", "previous": "dashed"}  # the live view's outlines


def head_grid(ax, weights, words, targets, h, fontsize=8):
    """One head's weights (n, n) as a grid, each word's targets outlined; words label the rows of head 1 only."""
    n = len(words)
    cells(ax, weights, "prediction")
    for target, style in LINES.items():
        for i, j in enumerate(targets[target]):
            ax.add_patch(Rectangle((j - 0.42, i - 0.42), 0.84, 0.84, fill=False, linewidth=1.2,
                                   linestyle=style, edgecolor=COLOURS["target"]))
    ax.set_xticks(range(n), words, rotation=60, fontsize=fontsize)
    ax.set_yticks(range(n), words if h == 0 else [""] * n, fontsize=fontsize)
    ax.set_title(f"head {h + 1}", fontsize=10, loc="left")
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
