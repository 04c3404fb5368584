"""Fallback for intervention: held-out accuracy of both readouts under each ablation, beside the maps."""
from __future__ import annotations

import numpy as np
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.patches import Rectangle

from . import COLOURS
from .two_heads import LINES

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
    words = shown["words"]
    n = len(words)
    cmap = LinearSegmentedColormap.from_list("weights", [COLOURS["surface"], COLOURS["prediction"]])
    for h in range(data["n_heads"]):
        ax = fig.add_subplot(grid[1 + h])
        ax.imshow(np.array(shown["weights"][h]), cmap=cmap, vmin=0, vmax=1)
        for target, style in LINES.items():
            for i, j in enumerate(data["targets"][target]):
                ax.add_patch(Rectangle((j - 0.42, i - 0.42), 0.84, 0.84, fill=False, linewidth=1.0,
                                       linestyle=style, edgecolor=COLOURS["target"]))
        ax.set_xticks(range(n), words, rotation=60, fontsize=7)
        ax.set_yticks(range(n), words if h == 0 else [""] * n, fontsize=7)
        ax.set_title(f"head {h + 1}", fontsize=10, loc="left")
        ax.tick_params(length=0)
        for side in ax.spines.values():
            side.set_visible(False)
