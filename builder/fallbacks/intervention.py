"""Fallback for intervention: held-out accuracy of both readouts under each ablation, beside the maps."""
from __future__ import annotations

import numpy as np

from . import COLOURS
from .grids import head_grid

SHORT = {"none": "none", "head1": "1", "head2": "2", "both": "both"}  # shorter than the view's, to fit the axis
READOUTS = (("attached", "word it attaches to", "target"), ("previous", "previous word", "model"))


def draw(fig, data):
    grid = fig.add_gridspec(1, 3, width_ratios=(1.5, 1, 1), wspace=0.45)
    bars = fig.add_subplot(grid[0])
    names = [SHORT[a["key"]] for a in data["ablations"]]
    x = np.arange(len(names))
    for k, (target, label, colour) in enumerate(READOUTS):
        acc = [a[target] for a in data["held_out"]["accuracy"]]
        bars.bar(x + (k - 0.5) * 0.38, acc, 0.36, color=COLOURS[colour], label=label)
    bars.set_xticks(x, names, fontsize=8)
    bars.set_ylim(0, 1)
    bars.set_yticks([0, 0.5, 1], ["0%", "50%", "100%"], fontsize=8)
    bars.set_xlabel("heads mean-ablated", fontsize=8)
    bars.set_title("held-out accuracy", fontsize=10, loc="left")
    bars.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(-0.05, -0.22))

    shown = data["edits"][data["start"]["edit"]]
    for h in range(data["n_heads"]):
        head_grid(fig.add_subplot(grid[1 + h]), shown["weights"][h], shown["words"], data["targets"], h, fontsize=7)
