"""Fallback for worked-mixture: each head's weights, and the values with both heads' mixtures."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fixed

from . import COLOURS


def draw(fig, data):
    labels, heads = data["labels"], data["heads"]
    ax_w, ax_v = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.2, 1]})
    x = np.arange(len(labels))
    width = 0.38
    for h, (head, hatch) in enumerate(zip(heads, ("", "//"))):
        xs = x + (h - 0.5) * width
        ax_w.bar(xs, head["weights"], width, color=COLOURS["prediction"] if h == 0 else COLOURS["surface"],
                 edgecolor=COLOURS["prediction"], hatch=hatch, label=f"head {h + 1}")
        for xi, w in zip(xs, head["weights"]):
            ax_w.text(xi, w + 0.02, fixed(w, 4), ha="center", fontsize=6)
    ax_w.set_xticks(x, labels)
    ax_w.set_ylim(0, 1)
    ax_w.set_ylabel("weight")
    ax_w.legend(frameon=False, fontsize=8)
    ax_w.set_title("weights at bank", fontsize=9)

    values = np.asarray(heads[0]["values"])
    if values.shape[1] == 2:
        ax_v.scatter(values[:, 0], values[:, 1], color=COLOURS["value"], zorder=3)
        for (vx, vy), name in zip(values, labels):
            ax_v.annotate(f"value of {name}", (vx, vy), textcoords="offset points", xytext=(4, 4),
                          fontsize=7, color=COLOURS["value"])
        for h, (head, marker) in enumerate(zip(heads, ("o", "s"))):
            ox, oy = head["output"]
            ax_v.scatter([ox], [oy], color=COLOURS["prediction"], marker=marker, zorder=4)
            ax_v.annotate(f"head {h + 1} output", (ox, oy), textcoords="offset points", xytext=(4, -10),
                          fontsize=7, color=COLOURS["prediction"])
        lo, hi = min(values.min(), 0.0) - 0.3, values.max() + 0.6
        ax_v.set_xlim(lo, hi)
        ax_v.set_ylim(lo, hi)
        ax_v.set_aspect("equal")
        ax_v.set_title("values and the mixtures", fontsize=9)
    else:
        ax_v.axis("off")
    fig.tight_layout()

