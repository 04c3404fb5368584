"""Fallback for dot-product: the two arrows at their starting tips and both readouts."""
from __future__ import annotations

from . import COLOURS


def draw(fig, data):
    i, j = data["start"]
    e = data["extent"]
    ax = fig.add_axes([0.05, 0.05, 0.5, 0.9])
    ax.set_aspect("equal")
    ax.set_xlim(-e - 0.5, e + 0.5)
    ax.set_ylim(-e - 0.5, e + 0.5)
    ax.set_xticks(range(-e, e + 1))
    ax.set_yticks(range(-e, e + 1))
    ax.grid(color=COLOURS["grid"], lw=0.8)
    ax.axhline(0, color=COLOURS["axis"], lw=0.8)
    ax.axvline(0, color=COLOURS["axis"], lw=0.8)
    for name, k, colour in (("a", i, COLOURS["query"]), ("b", j, COLOURS["key"])):
        x, y = data["points"][k]
        ax.annotate("", xy=(x, y), xytext=(0, 0), arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 2})
        ax.text(x * 1.08, y * 1.08 + 0.15, f"{name} = ({x}, {y})", color=colour, fontsize=9, ha="center")
    _, sum_line, cos_line = data["text"]["numbers"]  # the model's lines: the drawing prints what the page lists
    text = fig.add_axes([0.6, 0.05, 0.4, 0.9])
    text.axis("off")
    text.text(0, 0.6, sum_line.replace(": ", ":\n"), fontsize=9, va="center")
    text.text(0, 0.35, cos_line.replace(": ", ":\n", 1).replace(" = ", "\n= ", 1), fontsize=9, va="center")
