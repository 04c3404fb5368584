"""Fallback for writing-sample: the text written after the prompt (the prompt underlined, the last
character boxed), what every head read as it wrote that last character, and the next characters it
was drawn from."""
from __future__ import annotations

import numpy as np
from matplotlib.patches import Rectangle

from . import COLOURS, cells, legend

COLUMNS = 64  # characters per line of the written text
MONO = "DejaVu Sans Mono"
SHOW = {" ": "␣", "\n": "↵"}  # how a tick label shows a character that would not show


def _text(ax, data):
    """The prompt and what the model wrote, a character per cell; a line break starts a new line."""
    chars = list(data["prompt"] + data["written"])
    last = len(chars) - 1
    row = col = 0
    for i, c in enumerate(chars):
        if col == COLUMNS:
            row, col = row + 1, 0
        colour = COLOURS["data"] if i < data["prompt_length"] else COLOURS["ink"]
        ax.text(col + 0.5, row + 0.5, SHOW["\n"] if c == "\n" else c, ha="center", va="center", fontsize=7.5,
                family=MONO, color=colour if i < last else COLOURS["prediction"])
        if i < data["prompt_length"]:
            ax.plot([col + 0.05, col + 0.95], [row + 0.92, row + 0.92], color=COLOURS["data"], linewidth=0.8)
        if i == last:
            ax.add_patch(Rectangle((col, row), 1, 1, fill=False, edgecolor=COLOURS["prediction"], linewidth=1))
        col += 1
        if c == "\n":
            row, col = row + 1, 0
    ax.set_xlim(0, COLUMNS)
    ax.set_ylim(row + 1, 0)
    ax.set_axis_off()
    return row + 1


def draw(fig, data):
    k = data["start"]
    heads = data["layers"] * data["heads"]
    weights = (np.array([data["alphabet"].index(c) for c in data["attention"][k]]) / data["levels"]).reshape(heads, -1)
    read = data["prompt"] + data["written"]
    read = read[data["starts"][k]:data["prompt_length"] + k]
    rows = 1 + len(data["prompt"] + data["written"]) // COLUMNS + (data["prompt"] + data["written"]).count("\n")
    fig.set_size_inches(6.4, 1.2 + 0.16 * rows + 0.16 * heads)
    grid = fig.add_gridspec(2, 2, height_ratios=[rows, heads + 2], width_ratios=[4, 1], hspace=0.35, wspace=0.08)
    _text(fig.add_subplot(grid[0, :]), data)

    ax = fig.add_subplot(grid[1, 0])
    cells(ax, weights, "prediction", aspect="auto")
    ax.set_yticks(range(heads), data["text"]["heads"], fontsize=6.5)
    ax.set_xticks(range(len(read)), [SHOW.get(c, c) for c in read], fontsize=5.5, family=MONO)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_title(f"What each head read as it wrote the last character ({data['names'][data['tokens'][-1]]})",
                 fontsize=7.5, loc="left")

    ax = fig.add_subplot(grid[1, 1])
    top = data["top"][k]
    drawn = data["tokens"][-1]
    ax.barh(range(len(top)), [q for _, q in top],
            color=[COLOURS["prediction"] if t == drawn else COLOURS["axis"] for t, _ in top])
    ax.set_yticks(range(len(top)), [SHOW.get(data["vocab"][t], data["vocab"][t]) for t, _ in top], fontsize=7,
                  family=MONO)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.tick_params(labelsize=6.5)
    ax.set_title("next character", fontsize=7.5, loc="left")
    fig.text(0.02, 0.0, legend(data, 120), fontsize=7, color=COLOURS["muted"], va="top")
