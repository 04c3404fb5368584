"""Fallback for writing-training: the loss curve (each step's training loss, the held-out loss at each
checkpoint) over the counting models' yardsticks, and the last checkpoint's sample as text."""
from __future__ import annotations

import textwrap

from engine.figures.fmt import fill
from engine.tasks.writing import one_line

from . import COLOURS, legend


def draw(fig, data):
    fig.set_size_inches(6.4, 4.2)
    ax = fig.add_axes((0.09, 0.42, 0.74, 0.52))
    steps, axis = data["steps"], data["axis"]
    for key, v in data["baselines"].items():
        ax.axhline(v, color=COLOURS["muted"], linewidth=0.9, linestyle="dashed")
        ax.text(steps * 1.01, axis["y"]["labels"][key], fill(data["text"]["parts"][key], {"v": v}), fontsize=7, color=COLOURS["muted"],
                va="center", ha="left")
    every = data["loss_every"]
    ax.plot([(i + 1) * every - 1 for i in range(len(data["losses"]))], data["losses"], color=COLOURS["prediction"],
            linewidth=0.8, alpha=0.7, label="training batch")
    points = data["checkpoints"]
    ax.plot([c["step"] for c in points], [c["held_out"] for c in points], color=COLOURS["model"], linewidth=1.2,
            marker="o", markersize=3, label="held-out text")
    ax.set_xlim(0, steps)
    if axis["y"].get("log"):
        ax.set_yscale("log")
        ax.minorticks_off()
    ax.set_ylim(axis["y"]["lo"], axis["y"]["hi"])
    ax.set_xticks([s for s, _ in axis["x"]], [label for _, label in axis["x"]], fontsize=8)
    ax.set_yticks([v for v, _ in axis["y"]["ticks"]], [label for _, label in axis["y"]["ticks"]], fontsize=8)
    ax.set_xlabel("training step", fontsize=8)
    ax.set_title("loss, nats per character", fontsize=9, loc="left")
    ax.legend(fontsize=7, frameon=False, loc="center right", bbox_to_anchor=(1.0, 0.75))
    last = points[data["start"]]
    sample = textwrap.fill(one_line(last["sample"]), 80)
    fig.text(0.02, 0.25, f"Sample at step {last['step']}:", fontsize=8, color=COLOURS["muted"], va="top")
    fig.text(0.02, 0.2, sample, fontsize=8, color=COLOURS["ink"], va="top", family="DejaVu Sans Mono")
    fig.text(0.02, 0.04, legend(data, 120), fontsize=7, color=COLOURS["muted"], va="top")
