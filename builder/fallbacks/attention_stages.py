"""Fallback for attention-stages: the three stages stacked, each with its paragraph, at the opening checkpoint."""
from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.patches import Rectangle

from engine.figures.fmt import fill

from . import COLOURS, cells

STAGES = ("scores", "scaled", "weights")  # engine/figures/attention_stages.py STAGES


def draw(fig, data):
    fig.set_size_inches(6.4, 9.6)
    words, start, text = data["words"], data["start"], data["text"]
    n = len(words)
    c, row = start["checkpoint"], start["row"]
    axes = fig.subplots(3, 1, gridspec_kw={"hspace": 0.75})
    for s, (ax, name, stage) in enumerate(zip(axes, STAGES, text["stages"])):
        g = np.array(data["grids"][c][s])
        lim = data["extent"][s]
        if name == "weights":
            cells(ax, g, "prediction")
        else:
            cells(ax, g, "query", negative="key", lim=lim * 1.3)
        for (r, k), v in np.ndenumerate(g):
            ax.text(k, r, fill(text["parts"][name], {"v": float(v)}), ha="center", va="center", fontsize=7,
                    color=COLOURS["ink"], fontweight="bold" if r == row else "normal")
        ax.add_patch(Rectangle(
            (-0.5, row - 0.5), n, 1, fill=False, linewidth=1.2, edgecolor=COLOURS["ink"]))
        ax.set_xticks(range(n), words, fontsize=8)
        ax.set_yticks(range(n), words, fontsize=8)
        ax.tick_params(length=0)
        for side in ax.spines.values():
            side.set_visible(False)
        ax.set_title(f"{s + 1}. {stage['title']} (step {data['steps'][c]})\n" + "\n".join(textwrap.wrap(stage["text"], 70)),
                     fontsize=8, loc="left")
