"""Fallback for exp-log: scores, their exponentials and shares as three rows of bars at the opening
scores, and the loss −ln p against the right answer's share with a dot where it stands."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fill

from . import COLOURS


def draw(fig, data):
    i, k, parts = data["start"], data["answer"], data["text"]["parts"]
    scores = [data["stops"][i] if j == k else v for j, v in enumerate(data["scores"])]
    x = np.arange(len(data["labels"]))
    grid = fig.add_gridspec(3, 2, width_ratios=(1, 1), wspace=0.35, hspace=0.6)
    rows = [(scores, "score", COLOURS["data"], parts["score"]),
            (data["exps"][i], "e^score", COLOURS["data"], parts["exp"]),
            (data["shares"][i], "share", COLOURS["prediction"], parts["share"])]
    for r, (values, name, colour, part) in enumerate(rows):
        ax = fig.add_subplot(grid[r, 0])
        ax.bar(x, values, color=colour, alpha=0.6 if r == 1 else 1.0)
        ax.axhline(0, color=COLOURS["axis"], linewidth=0.8)
        ax.set_ylabel(name, fontsize=8)
        ax.set_xticks(x, data["labels"] if r == 2 else [""] * len(x))
        ax.set_yticks([])
        top = max(max(values), 0)
        low = min(min(values), 0)
        ax.set_ylim(low - 0.2 * (top - low) * (low < 0), top + 0.3 * (top - low))
        for xi, v in zip(x, values):
            ax.text(xi, max(v, 0) + 0.05 * (top - low), fill(part, {"v": v}), ha="center", fontsize=7)
    loss = fig.add_subplot(grid[:, 1])
    loss.plot(data["curve"]["p"], data["curve"]["loss"], color=COLOURS["prediction"], linewidth=2)
    p, nats = data["shares"][i][k], data["loss"][i]
    loss.scatter([p], [nats], color=COLOURS["prediction"], zorder=3)
    loss.axvline(p, color=COLOURS["guide"], linestyle="--", linewidth=0.8)
    loss.set_xlim(0, 1.02)
    loss.set_ylim(0, max(data["curve"]["loss"]))
    loss.set_xlabel(f"share p of {data['labels'][k]}", fontsize=8)
    loss.set_ylabel("loss −ln p (nats)", fontsize=8)
    loss.set_title(data["text"]["states"][i]["numbers"][-1], fontsize=7, loc="left", color=COLOURS["muted"])
