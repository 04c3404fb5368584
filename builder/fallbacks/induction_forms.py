"""Fallback for induction-forms: the loss and the in-context score with the phase change marked,
above all four heads' weights on the repeated sequence at the step shown."""
from __future__ import annotations

import numpy as np
from matplotlib.patches import Rectangle

from . import COLOURS, cells


def _curve(ax, xs, ys, data, title):
    f = data["sharpest_fall"]
    ax.axvspan(f["start"], f["end"], color=COLOURS["highlight"], linewidth=0)
    if data["phase_change"] is not None:
        ax.axvline(data["phase_change"], color=COLOURS["target"], linewidth=1, linestyle="dashed")
    ax.plot(xs, ys, color=COLOURS["prediction"], linewidth=1.2)
    ax.set_xlim(0, data["steps"])
    ax.set_title(title, fontsize=9, loc="left")
    ax.tick_params(labelsize=7)


def _grid(ax, rows, tokens, targets, title, first):
    T = len(tokens)
    full = np.zeros((T, T))
    for i, row in enumerate(rows):
        full[i, :len(row)] = row
    cells(ax, full, "prediction")
    for i, j in enumerate(targets):
        if j is not None:
            ax.add_patch(Rectangle((j - 0.42, i - 0.42), 0.84, 0.84, fill=False, linewidth=1, edgecolor=COLOURS["target"]))
    ax.set_xticks(range(T), tokens, fontsize=6)
    ax.set_yticks(range(T), tokens if first else [""] * T, fontsize=6)
    ax.set_title(title, fontsize=8, loc="left")
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)


def draw(fig, data):
    k = data["start"]
    state = data["states"][k]
    fig.set_size_inches(6.4, 4.4)
    top = fig.add_gridspec(2, 4, height_ratios=[1, 1.5], hspace=0.3, wspace=0.25)
    loss = fig.add_subplot(top[0, :2])
    icl = fig.add_subplot(top[0, 2:])
    _curve(loss, range(len(data["losses"])), data["losses"], data, "training loss")
    _curve(icl, data["checkpoints"], [s["in_context"] for s in data["states"]], data, "in-context score")
    for ax in (loss, icl):
        ax.axvline(data["checkpoints"][k], color=COLOURS["ink"], linewidth=0.8)
    icl.axhline(0, color=COLOURS["guide"], linewidth=0.8)
    if data["one_layer"]:
        icl.plot(data["checkpoints"], data["one_layer"], color=COLOURS["muted"], linewidth=1, linestyle="dashed")
    for layer, heads in enumerate(state["heads"]):
        targets = data["targets"]["previous" if layer == 0 else "induction"]
        for h, rows in enumerate(heads):
            ax = fig.add_subplot(top[1, 2 * layer + h])
            _grid(ax, rows, data["tokens"], targets, f"layer {layer + 1}, head {h + 1}", layer == 0 and h == 0)
    fig.text(0.02, 0.0, f"Step {data['checkpoints'][k]}. Shaded: where the in-context score fell fastest; dashed "
             "upright: the phase change; dashed grey: one layer.\nGrids: rows look, columns are read; outlined: the "
             "previous token (layer 1), the token after the earlier copy (layer 2).", fontsize=7, color=COLOURS["muted"],
             va="top")
