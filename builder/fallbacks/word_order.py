"""Fallback for word-order: each sentence's attention weights, positions off (top) and on (bottom)."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fill

from . import COLOURS, cells


def draw(fig, data):
    settings = data["settings"]
    axes = fig.subplots(len(settings), len(data["sentences"]))
    for r, name in enumerate(settings):
        for s, (sentence, run) in enumerate(zip(data["sentences"], data["modes"][name]["sentences"])):
            ax = axes[r, s]
            w = np.asarray(run["weights"])
            cells(ax, w * 0.55, "prediction")  # as the view: ink stays readable on the deepest cell
            for i in range(len(sentence)):
                for j in range(len(sentence)):  # the numbers the live view prints
                    ax.text(j, i, fill(data["text"]["parts"]["cell"], {"v": float(w[i, j])}), ha="center", va="center", fontsize=8,
                            color=COLOURS["ink"])
            ax.set_xticks(range(len(sentence)), sentence, fontsize=8)
            ax.set_yticks(range(len(sentence)), sentence, fontsize=8)
            ax.tick_params(length=0)
            ax.set_title(f"“{' '.join(sentence)}”, positions {name}", fontsize=9)
    fig.subplots_adjust(hspace=0.5, wspace=0.4)
