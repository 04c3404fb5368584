"""Fallback for softmax-bars: scores, their exponentials and the weights, side by side."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fill

from . import COLOURS


def draw(fig, data):
    labels = data["labels"]
    x = np.arange(len(labels))
    ax_s, ax_e, ax_w = fig.subplots(1, 3)
    text, parts = data["text"], data["text"]["parts"]
    panels = (  # each bar labelled as the view labels it: by the model's parts and text.exps
        (ax_s, data["scores"], COLOURS["data"], "1. scores", [fill(parts["score"], {"v": v}) for v in data["scores"]]),
        (ax_e, data["exps"], COLOURS["data"], f"2. e^score (total {text['exp_sum']})", text["exps"]),
        (ax_w, data["weights"], COLOURS["prediction"], "3. weight = e^score / total",
         [fill(parts["weight"], {"v": v}) for v in data["weights"]]),
    )
    for ax, values, colour, title, bar_labels in panels:
        ax.bar(x, values, color=colour)
        ax.axhline(0, color=COLOURS["axis"], lw=0.8)
        ax.set_xticks(x, labels, rotation=45, ha="right", fontsize=8)
        ax.set_title(title, fontsize=9)
        top = max(max(values), 0.0)
        for xi, v, label in zip(x, values, bar_labels):
            ax.text(xi, max(v, 0.0) + 0.02 * (top or 1), label, ha="center", va="bottom", fontsize=7)
    ax_w.set_ylim(0, 1.08)
    lo, hi = min(min(data["scores"]), 0.0), max(max(data["scores"]), 0.0)
    ax_s.set_ylim(lo - 0.1 * (hi - lo or 1), hi + 0.15 * (hi - lo or 1))
    ax_e.set_ylim(0, max(data["exps"]) * 1.15)
    fig.tight_layout()

