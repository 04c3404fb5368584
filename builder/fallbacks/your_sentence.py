"""Fallback for your-sentence: both heads on the default sentence (as two-heads draws them), and beside
them what each readout names for every word, a wrong name marked with ✗."""
from __future__ import annotations

from . import COLOURS, legend
from .grids import head_grid


def draw(fig, data):
    words = data["words"]
    fig.set_size_inches(7.2, 3.0)
    grid = fig.add_gridspec(1, 3, width_ratios=[1, 1, 1.15], wspace=0.25)
    for h, head in enumerate(data["heads"]):
        head_grid(fig.add_subplot(grid[0, h]), head, words, data["targets"], h, fontsize=7)
    ax = fig.add_subplot(grid[0, 2])
    ax.axis("off")
    columns = data["columns"]
    rows = [[w] + [data["readouts"][t][i][0][0] + ("" if data["right"][t][i] else " ✗") for t in ("attached", "previous")]
            for i, w in enumerate(words)]
    table = ax.table(cellText=rows, colLabels=columns, colWidths=[0.3, 0.35, 0.35],
                     loc="center", cellLoc="left", colLoc="left", edges="horizontal")
    table.auto_set_font_size(False)
    table.set_fontsize(7)
    table.scale(1, 1.15)
    for (r, _), cell in table.get_celld().items():
        cell.set_edgecolor(COLOURS["grid"])
        cell.set_facecolor("none")  # the page shows through, in either scheme
        cell.get_text().set_color(COLOURS["muted"] if r == 0 else COLOURS["ink"])
    ax.set_title("what the readouts name", fontsize=10, loc="left")
    fig.text(0.02, -0.02, legend(data), fontsize=7, color=COLOURS["muted"], va="top")
