"""Fallback for winograd-head: where "it" looks, with the last word tired and with wide."""
from __future__ import annotations

import numpy as np

from . import COLOURS


def _modes(data):
    return [(last, data["modes"][last]) for last in data["last_words"]]


def draw(fig, data):
    axes = fig.subplots(len(data["last_words"]), 1, sharex=False)
    for ax, (last, mode) in zip(np.atleast_1d(axes), _modes(data)):
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
        for xi, wi in zip(x, w):
            ax.text(xi, wi + 0.03, f"{wi:.2f}", ha="center", fontsize=7)
    fig.subplots_adjust(hspace=0.9)


def alt(data):
    parts = []
    for last, mode in _modes(data):
        top = mode["top"]
        parts.append(f"with “{last}”, “it” puts {mode['weights'][top]:.2f} of its attention on "
                     f"“{mode['words'][top]}” and at most {max(w for i, w in enumerate(mode['weights']) if i != top):.2f} on any other word")
    return ("Two bar charts of the attention weights of the word “it” over the sentence "
            "“The animal didn't cross the street because it was too …”: " + "; ".join(parts) + ".")


def line(data, last):
    mode = data["modes"][last]
    return f"Last word “{last}”, attention from “it”: " + ", ".join(
        f"{w} {x:.2f}" for w, x in zip(mode["words"], mode["weights"]))


def numbers(data):
    return [line(data, data["params"]["last"])]
