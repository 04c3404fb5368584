"""Fallback for sum-spread: the histogram of the sums at the opening n, with the measured standard
deviation either side of the mean and √n times one term's marked on the axis."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fixed

from . import COLOURS


def draw(fig, data):
    i = data["start"]
    n, counts, w = data["ns"][i], np.array(data["counts"][i]), data["bin"]
    centres = data["first"][i] + w * np.arange(len(counts))
    fig.set_size_inches(6.4, 3.2)
    ax = fig.subplots()
    ax.bar(centres, counts, width=w * 0.9, color=COLOURS["data"], alpha=0.6)
    reach = max(data["reach"], float(np.abs(centres).max() + w))
    ax.set_xlim(-reach, reach)
    top = counts.max()
    ax.set_ylim(0, top * 1.3)
    mean, std, predicted = data["mean"][i], data["std"][i], data["predicted"][i]
    y = top * 1.15
    ax.plot([mean - std, mean + std], [y, y], color=COLOURS["prediction"], lw=2)
    for x in (mean - std, mean + std):
        ax.plot([x, x], [y - top * 0.05, y + top * 0.05], color=COLOURS["prediction"], lw=2)
    ax.plot([-predicted, predicted], [0, 0], "^", color=COLOURS["key"], ms=8, clip_on=False)
    ax.text(mean, y + top * 0.06, f"standard deviation {fixed(std)}", ha="center", va="bottom",
            color=COLOURS["prediction"], fontsize=9)
    ax.set_title(f"n = {n}: √{n} × {fixed(data['sigma'])} = {fixed(predicted)}", fontsize=10)
    ax.set_xlabel("sum of n terms")
    ax.set_ylabel(f"sums (of {data['runs']:,})")
    fig.tight_layout()
