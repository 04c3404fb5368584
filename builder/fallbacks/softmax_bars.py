"""Fallback for softmax-bars: scores, their exponentials and the weights, side by side."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fixed

from . import COLOURS


def draw(fig, data):
    labels = data["labels"]
    x = np.arange(len(labels))
    ax_s, ax_e, ax_w = fig.subplots(1, 3)
    panels = (
        (ax_s, data["scores"], COLOURS["data"], "1. scores", 1),
        (ax_e, data["exps"], COLOURS["data"], f"2. e^score (total {fixed(data['exp_sum'])})", 2),
        (ax_w, data["weights"], COLOURS["prediction"], "3. weight = e^score / total", 2),
    )
    for ax, values, colour, title, digits in panels:
        ax.bar(x, values, color=colour)
        ax.axhline(0, color=COLOURS["axis"], lw=0.8)
        ax.set_xticks(x, labels, rotation=45, ha="right", fontsize=8)
        ax.set_title(title, fontsize=9)
        top = max(max(values), 0.0)
        for xi, v in zip(x, values):
            ax.text(xi, max(v, 0.0) + 0.02 * (top or 1), fixed(v, digits), ha="center", va="bottom", fontsize=7)
    ax_w.set_ylim(0, 1.08)
    lo, hi = min(min(data["scores"]), 0.0), max(max(data["scores"]), 0.0)
    ax_s.set_ylim(lo - 0.1 * (hi - lo or 1), hi + 0.15 * (hi - lo or 1))
    ax_e.set_ylim(0, max(data["exps"]) * 1.15)
    fig.tight_layout()

