"""Fallback for soft-lookup: the weights of a hard and of a soft lookup side by side, with each key's score."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fill

from . import COLOURS


def draw(fig, data):
    entries = data["entries"]
    y = np.arange(len(entries))[::-1]
    labels = [f"{e['key']}  (score {e['score']})" for e in entries]
    axes = fig.subplots(1, 2, sharey=True)
    for ax, mode, title in zip(axes, ("hard", "soft"), ("hard lookup", "soft lookup")):
        w = [e[mode] for e in entries]
        ax.barh(y, w, color=COLOURS["prediction"], height=0.6)
        for yi, wi in zip(y, w):
            label = fill(data["text"]["parts"][mode], {"v": wi})  # as the view labels the bar
            ax.text(wi + 0.02, yi, label, va="center", fontsize=8)
        ax.set_xlim(0, 1.15)
        ax.set_xlabel("weight")
        ax.set_title(f"{title} of “{data['query']}”")
    axes[0].set_yticks(y, labels)

