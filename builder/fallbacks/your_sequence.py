"""Fallback for your-sequence: from the last letter, each layer-2 head's weights over the sequence
(outlined: the letters after earlier copies of it), and the model's top guesses for the next letter."""
from __future__ import annotations

from matplotlib.patches import Rectangle

from . import COLOURS, cells


def draw(fig, data):
    k = data["start"]
    tokens = data["tokens"]
    T = len(tokens)
    fig.set_size_inches(6.4, 2.8)
    grid = fig.add_gridspec(2, 2, width_ratios=[3, 1], hspace=0.9, wspace=0.3)
    for h, head in enumerate(data["heads"]):
        ax = fig.add_subplot(grid[h, 0])
        cells(ax, head[k], "prediction")
        for j in data["copies"][k]:
            ax.add_patch(Rectangle((j - 0.45, -0.45), 0.9, 0.9, fill=False, linewidth=1.2, edgecolor=COLOURS["target"]))
        ax.set_xticks(range(T), tokens, fontsize=7)
        ax.set_yticks([])
        ax.set_title(f"layer 2, head {h + 1}" + (" (induction head)" if h == data["head"] else ""), fontsize=8, loc="left")
        ax.tick_params(length=0)
        for side in ax.spines.values():
            side.set_visible(False)
    ax = fig.add_subplot(grid[:, 1])
    guesses = data["guesses"][k]
    ax.barh(range(len(guesses)), [g[1] for g in guesses], color=COLOURS["prediction"])
    ax.set_yticks(range(len(guesses)), [g[0] for g in guesses], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.tick_params(labelsize=7)
    ax.set_title("next letter", fontsize=8, loc="left")
    fig.text(0.02, 0.0, f"Looking from the last letter, {tokens[k]} (position {k}). Outlined: the letters after "
             "earlier copies of it.", fontsize=7, color=COLOURS["muted"], va="bottom")
