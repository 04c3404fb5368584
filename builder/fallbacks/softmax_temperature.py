"""Fallback for softmax-temperature: the weights at three temperatures, side by side."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fill

from . import COLOURS


def draw(fig, data):
    shown = data["shown"]  # the temperatures the model says a static figure shows
    axes = fig.subplots(1, len(shown), sharey=True)
    x = np.arange(len(data["labels"]))
    for ax, i in zip(np.atleast_1d(axes), shown):
        w = data["weights"][i]
        ax.bar(x, w, color=COLOURS["prediction"])
        ax.set_xticks(x, data["labels"])
        ax.set_ylim(0, 1.12)  # room for the label of a bar at 1
        ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
        ax.set_title(f"temperature {data['temperatures'][i]:g}")
        for xi, wi in zip(x, w):
            label = fill(data["text"]["parts"]["weight"], {"v": wi})  # as the view labels the bar
            ax.text(xi, wi + 0.02, label, ha="center", fontsize=8)
    np.atleast_1d(axes)[0].set_ylabel("weight")
