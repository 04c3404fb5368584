"""Fallback for quadratic-cost: the causal triangle of the score grid, and the counts against length on log axes."""
from __future__ import annotations

from matplotlib.patches import Polygon, Rectangle

from . import COLOURS


def _stairs(k: int) -> list[tuple[float, float]]:
    """The causal region of a unit square (rows down) as k stairs: row band i reaches column i + 1."""
    pts = [(0.0, 0.0)]
    for i in range(k):
        pts += [((i + 1) / k, i / k), ((i + 1) / k, (i + 1) / k)]
    return pts + [(0.0, 1.0)]


def draw(fig, data):
    row = data["rows"][data["start"]]
    labels = data["labels"]
    fig.set_size_inches(6.4, 3.4)
    grid_ax, chart = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.5]})
    grid_ax.add_patch(Rectangle((0, 0), 1, 1, facecolor=COLOURS["track"], edgecolor=COLOURS["axis"]))
    grid_ax.add_patch(Polygon(_stairs(row["steps"]), closed=True, facecolor=COLOURS["prediction"], alpha=0.75,
                              edgecolor="none"))
    g = data["grid"]
    for i in range(1, g):
        grid_ax.plot([i / g, i / g], [0, 1], color=COLOURS["surface"], linewidth=0.6)
        grid_ax.plot([0, 1], [i / g, i / g], color=COLOURS["surface"], linewidth=0.6)
    grid_ax.add_patch(Rectangle((0, 0), 0.5, 0.5, fill=False, edgecolor=COLOURS["ink"], linestyle=(0, (3, 2))))
    grid_ax.set_xlim(0, 1)
    grid_ax.set_ylim(1, 0)
    grid_ax.set_aspect("equal")
    grid_ax.axis("off")
    grid_ax.set_title(row["n_label"], fontsize=9, loc="left")
    grid_ax.text(0, 1.08, row["cell_label"], fontsize=6.5, color=COLOURS["muted"], va="top", wrap=True)

    xs = [r["log_n"] for r in data["rows"]]
    chart.plot(xs, [r["log_bidirectional"] for r in data["rows"]], color=COLOURS["key"], label=labels["bidirectional"])
    chart.plot(xs, [r["log_causal"] for r in data["rows"]], color=COLOURS["prediction"], label=labels["causal"])
    chart.plot([row["log_n"]], [row["log_causal"]], "o", color=COLOURS["prediction"])
    chart.set_xticks([t["at"] for t in data["x_ticks"]], [t["label"] for t in data["x_ticks"]], fontsize=7)
    chart.set_yticks([t["at"] for t in data["y_ticks"]], [t["label"] for t in data["y_ticks"]], fontsize=7)
    chart.set_xlim(*data["x_range"])
    chart.set_ylim(*data["y_range"])
    chart.set_xlabel(labels["x"], fontsize=8)
    chart.set_ylabel(labels["y"], fontsize=7)
    chart.grid(color=COLOURS["grid"])
    chart.legend(fontsize=7, frameon=False, loc="upper left")
    fig.subplots_adjust(left=0.04, right=0.94, bottom=0.16, top=0.9, wspace=0.55)
