"""Fallback for lookup-training: the loss curve up to the step shown, beside the query-key grid at that step."""
from __future__ import annotations

import numpy as np
from matplotlib.patches import Rectangle

from . import COLOURS, cells, legend


def draw(fig, data):
    start = data["start"]
    run = data["runs"][start["run"]]
    k = start["state"]
    step = k * data["every"]
    letters = list(data["letters"])
    n = len(letters)
    curve, grid = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.4, 1]})

    ln_y = data["axis"]["y"][1][0]  # an even guess: ln of the number of pairs
    curve.axhline(ln_y, color=COLOURS["guide"], linewidth=1, linestyle="dashed")
    curve.plot(range(step + 1), run["losses"][:step + 1], color=COLOURS["prediction"], linewidth=1.5)
    curve.set_xlim(0, data["steps"])
    curve.set_ylim(0, data["axis"]["top"])
    curve.set_xticks([x for x, _ in data["axis"]["x"]], [label for _, label in data["axis"]["x"]], fontsize=8)
    curve.set_yticks([y for y, _ in data["axis"]["y"]], [label for _, label in data["axis"]["y"]], fontsize=8)
    curve.set_xlabel(f"training step (step size {run['rate']})", fontsize=8)
    curve.set_title("loss", fontsize=10, loc="left")
    for side in ("top", "right"):
        curve.spines[side].set_visible(False)

    scores = np.array(run["grids"][k - run["from"]]) / data["scale"]  # (L, L) in -1..1
    cells(grid, np.sign(scores) * np.sqrt(np.abs(scores)), "model", negative="axis")  # sqrt, as the view: small scores show
    for i, j in enumerate(run["top"][k - run["from"]]):  # each row's largest score
        grid.add_patch(Rectangle((j - 0.4, i - 0.4), 0.8, 0.8, fill=False, linewidth=1.2, edgecolor=COLOURS["ink"]))
    grid.set_xticks(range(n), letters, fontsize=8)
    grid.set_yticks(range(n), letters, fontsize=8)
    grid.set_xlabel("key letter", fontsize=8)
    grid.set_ylabel("question letter", fontsize=8)
    grid.set_title(f"query–key scores, step {step}", fontsize=10, loc="left")
    grid.tick_params(length=0)
    for side in grid.spines.values():
        side.set_visible(False)
    fig.text(0.02, -0.04, legend(data), fontsize=8, color=COLOURS["muted"], va="top")
