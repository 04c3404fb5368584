"""Fallback for colour-tokens: the table of shares and the worked arithmetic for one gathering token."""
from __future__ import annotations

import numpy as np

from engine.figures.colour_tokens import num, start_case, worked as worked_lines

from . import COLOURS, cells


def draw(fig, data):
    tokens, names, case = start_case(data)
    heads = case["heads"]
    n = len(tokens)
    if len(heads) == 1:  # table left, arithmetic right
        grid = fig.add_gridspec(1, 2, width_ratios=(1, 1.15), wspace=0.35)
        tables, worked = [grid[0, 0]], grid[0, 1]
    else:  # the two heads' tables side by side, arithmetic below
        fig.set_size_inches(6.4, 6.4)
        grid = fig.add_gridspec(2, 2, height_ratios=(1, 1.1), wspace=0.45, hspace=0.35)
        tables, worked = [grid[0, 0], grid[0, 1]], grid[1, :]
    size = 8 if n <= 3 else 7 if n == 4 else 6
    for h, (head, cell) in enumerate(zip(heads, tables)):
        ax = fig.add_subplot(cell)
        shares = np.array(head["shares"])
        cells(ax, shares * 0.45, "prediction")  # as the view's table: ink stays readable on the deepest cell
        ax.set_xticks(range(n), names, fontsize=size, rotation=35 if n > 3 else 0, ha="right" if n > 3 else "center")
        ax.set_yticks(range(n), names, fontsize=size)
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        for r in range(n):
            for c in range(n):
                ax.text(c, r, num(shares[r, c]), ha="center", va="center", fontsize=size, color=COLOURS["ink"])
        title = "shares (row reads columns)" if len(heads) == 1 else f"head {h + 1} shares"
        ax.set_title(title, fontsize=9, color=COLOURS["prediction"])
    text = fig.add_subplot(worked)
    text.axis("off")
    text.text(0, 1, "\n".join(worked_lines(data)), va="top", ha="left", fontsize=8.5, family="DejaVu Sans Mono",
              color=COLOURS["data"], linespacing=1.5, transform=text.transAxes)

