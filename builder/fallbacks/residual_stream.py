"""Fallback for residual-stream: what each stage added to each word's stream (stacked sizes), and
the readout at the last word after every stage."""
from __future__ import annotations

import numpy as np

from . import COLOURS

# One colour per stage, the same as theme/figures/residual-stream.css.
STAGE_COLOURS = ("axis", "key", "model", "value", "query")


def draw(fig, data):
    fig.set_size_inches(9.6, 3.6)
    ax, rx = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    tokens = data["tokens"]
    norms = np.array(data["norms"])  # (S, T)
    bottom = np.zeros(len(tokens))
    for s, label in enumerate(data["stage_labels"]):
        ax.bar(range(len(tokens)), norms[s], bottom=bottom, color=COLOURS[STAGE_COLOURS[s]], label=label, width=0.7)
        bottom += norms[s]
    ax.set_xticks(range(len(tokens)), tokens, fontsize=8, rotation=30)
    ax.set_ylabel("size of what was added", fontsize=9)
    ax.legend(fontsize=7, frameon=False, loc="upper left", ncol=2)
    ax.set_ylim(0, data["bar_max"] * 1.5)
    ax.set_title("each word's stream, stage by stage", fontsize=10, loc="left")

    last = len(tokens) - 1
    words = data["words"]
    stages = len(data["stages"])
    width = 0.8 / stages
    for s in range(stages):
        probs = data["probs"][s][last]
        rx.bar(np.arange(len(words)) + (s - (stages - 1) / 2) * width, probs, width=width,
               color=COLOURS[STAGE_COLOURS[s]], label=data["stage_labels"][s])
    rx.set_xticks(range(len(words)), words, fontsize=8, rotation=45)
    rx.set_ylim(0, 1)
    rx.set_ylabel("probability of the next word", fontsize=9)
    rx.set_title(f"readout at the last “{tokens[last]}”, after each stage", fontsize=10, loc="left")
    fig.subplots_adjust(wspace=0.3, bottom=0.2)
