"""Fallback for sum-spread: the weights at the opening sharpness, one labelled bar per word."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fill

from . import COLOURS


def draw(fig, data):
    i = data["start"]
    weights, parts = data["weights"][i], data["text"]["parts"]
    x = np.arange(len(data["labels"]))
    ax = fig.subplots()
    ax.bar(x, weights, color=COLOURS["prediction"])
    ax.set_xticks(x, data["labels"])
    ax.set_ylim(0, 1.12)  # room for the label of a bar at 1
    ax.set_ylabel("weight")
    ax.set_title(fill(parts["sharpness"], {"v": data["sharpnesses"][i]}))
    for xi, w in zip(x, weights):
        ax.text(xi, w + 0.02, fill(parts["weight"], {"v": w}), ha="center", fontsize=8)  # as the view labels it
