"""Fallback for winograd-head: where "it" looks, with the last word tired and with wide."""
from __future__ import annotations

import numpy as np

from . import COLOURS


def draw(fig, data):
    axes = fig.subplots(len(data["last_words"]), 1, sharex=False)
    for ax, last, state in zip(np.atleast_1d(axes), data["last_words"], data["text"]["states"]):
        mode = data["modes"][last]
        x = np.arange(len(mode["words"]))
        w = mode["weights"]
        ax.bar(x, w, color=COLOURS["prediction"])
        ax.set_xticks(x, mode["words"], fontsize=8)
        ax.get_xticklabels()[data["it"]].set_color(COLOURS["query"])
        ax.get_xticklabels()[data["it"]].set_fontweight("bold")
        ax.set_ylim(0, 1)
        ax.set_yticks([0, 0.5, 1])
        ax.set_ylabel("weight")
        ax.set_title(f"last word “{last}”: where “it” looks", fontsize=10, loc="left")
        for xi, wi, label in zip(x, w, state["bars"]):  # the labels the live view shows
            ax.text(xi, wi + 0.03, label, ha="center", fontsize=7)
    fig.subplots_adjust(hspace=0.9)
