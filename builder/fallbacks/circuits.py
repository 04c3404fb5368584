"""Fallback for circuits: both circuits of chapter 3's head and of chapter 9's trained head, as grids.

The refactored view is left out: its product grid is the hand-set one (the key numbers say so)."""
from __future__ import annotations

import numpy as np

from . import COLOURS, cells, legend


def _grid(ax, panel, ticks: bool):
    v = np.asarray(panel["values"]) / panel["scale"]  # (rows, cols) in -1..1
    cells(ax, np.sign(v) * np.sqrt(np.abs(v)), "model", negative="axis", aspect="auto")  # sqrt, as the view
    size = 6 if len(panel["rows"]) > 10 else 8
    ax.set_yticks(range(len(panel["rows"])), panel["rows"], fontsize=size)
    ax.set_xticks(range(len(panel["cols"])), panel["cols"] if ticks else [""] * len(panel["cols"]),
                  fontsize=size, rotation=90)
    ax.set_title(panel["title"], fontsize=9, loc="left")
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)


def draw(fig, data):
    hand, _, trained = data["views"]
    fig.set_size_inches(6.4, 8.6)
    axes = fig.subplots(2, 2, gridspec_kw={"width_ratios": [1.6, 1], "height_ratios": [1, 2.2],
                                           "wspace": 0.75, "hspace": 0.45})
    _grid(axes[0][0], hand["panels"][2], True)
    _grid(axes[0][1], hand["panels"][3], True)
    _grid(axes[1][0], trained["panels"][0], True)
    _grid(axes[1][1], trained["panels"][1], True)
    axes[1][1].set_yticks(range(len(trained["panels"][1]["rows"])), [""] * len(trained["panels"][1]["rows"]))
    fig.text(0.01, 0.99, f"Top: {data['labels'][0]}. Bottom: {data['labels'][2]} {data['head']}.\n" + legend(data),
             fontsize=8, color=COLOURS["muted"], va="bottom")
