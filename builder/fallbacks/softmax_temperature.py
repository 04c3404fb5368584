"""Fallback for softmax-temperature: the weights at three temperatures, side by side."""
from __future__ import annotations

import numpy as np

from . import COLOURS


def _rows(data):
    temps = np.array(data["temperatures"])
    picks = sorted({0, int(np.argmin(np.abs(temps - 1.0))), len(temps) - 1})
    return [(temps[i], data["weights"][i]) for i in picks]


def draw(fig, data):
    rows = _rows(data)
    axes = fig.subplots(1, len(rows), sharey=True)
    x = np.arange(len(data["labels"]))
    for ax, (t, w) in zip(np.atleast_1d(axes), rows):
        ax.bar(x, w, color=COLOURS["prediction"])
        ax.set_xticks(x, data["labels"])
        ax.set_ylim(0, 1.12)  # room for the label of a bar at 1
        ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
        ax.set_title(f"temperature {t:g}")
        for xi, wi in zip(x, w):
            ax.text(xi, wi + 0.02, f"{wi:.2f}", ha="center", fontsize=8)
    np.atleast_1d(axes)[0].set_ylabel("weight")


def alt(data):
    parts = [f"at temperature {t:g} the largest weight is {max(w):.2f}" for t, w in _rows(data)]
    return ("Bar charts of softmax weights for the words " + ", ".join(data["labels"])
            + " with scores " + ", ".join(f"{s:g}" for s in data["scores"]) + ": " + "; ".join(parts) + ".")


def numbers(data):
    out = ["Scores: " + ", ".join(f"{l} {s:g}" for l, s in zip(data["labels"], data["scores"]))]
    for t, w in _rows(data):
        out.append(f"Temperature {t:g}: " + ", ".join(f"{l} {wi:.2f}" for l, wi in zip(data["labels"], w)))
    return out
