"""Fallback for two-heads: both trained heads on the opening sentence, targets outlined."""
from __future__ import annotations

import numpy as np

from . import COLOURS, legend
from .grids import head_grid


def draw(fig, data):
    shown = data["sentences"][data["start"]]
    axes = fig.subplots(1, len(shown["heads"]))
    for h, (ax, head) in enumerate(zip(np.atleast_1d(axes), shown["heads"])):
        head_grid(ax, head["weights"], shown["words"], shown["targets"], h)
    fig.text(0.02, -0.04, legend(data), fontsize=8, color=COLOURS["muted"], va="top")
