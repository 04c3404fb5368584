"""Fallback for tiled-attention: the score grid cut into tiles, numbered in the order they are worked on."""
from __future__ import annotations

from matplotlib.patches import Rectangle

from . import COLOURS


def draw(fig, data):
    n = len(data["tokens"])
    fig.set_size_inches(4.2, 4.2)
    ax = fig.subplots()
    for i in range(n):
        for j in range(n):
            ax.add_patch(Rectangle((j, i), 1, 1, facecolor=COLOURS["surface"], edgecolor=COLOURS["rule"],
                                   linestyle=(0, (2, 2)), linewidth=0.6))  # masked unless a tile covers it
    for t, s in enumerate(data["steps"]):
        (r0, r1), (c0, c1) = s["rows"], s["cols"]
        for a, row in enumerate(s["scores"]):
            for b, label in enumerate(row):
                if label:
                    ax.add_patch(Rectangle((c0 + b, r0 + a), 1, 1, facecolor=COLOURS["track"],
                                           edgecolor=COLOURS["rule"], linewidth=0.6))
        ax.add_patch(Rectangle((c0, r0), c1 - c0, r1 - r0, fill=False, edgecolor=COLOURS["prediction"], linewidth=1.6))
        ax.text((c0 + c1) / 2, (r0 + r1) / 2, str(t + 1), ha="center", va="center", fontsize=11,
                color=COLOURS["prediction"])
    ax.set_xlim(0, n)
    ax.set_ylim(n, 0)
    ax.set_aspect("equal")
    ax.set_xticks([j + 0.5 for j in range(n)], data["tokens"], fontsize=7)
    ax.set_yticks([i + 0.5 for i in range(n)], data["tokens"], fontsize=7)
    ax.tick_params(length=0)
    ax.xaxis.set_ticks_position("top")
    ax.set_xlabel("keys", fontsize=8)
    ax.xaxis.set_label_position("top")
    ax.set_ylabel("queries", fontsize=8)
    for spine in ax.spines.values():
        spine.set_visible(False)
    fig.subplots_adjust(left=0.12, right=0.98, bottom=0.04, top=0.88)
