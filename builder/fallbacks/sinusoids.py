"""Fallback for sinusoids: the codes as a heat map, and the picked position's dot product with each."""
from __future__ import annotations

import numpy as np

from . import COLOURS, cells


def draw(fig, data):
    codes, dots, i = np.asarray(data["codes"]), np.asarray(data["dots"]), data["position"]
    ax_c, ax_d = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.3]})
    cells(ax_c, codes, "query", negative="key", aspect="auto")
    ax_c.axhline(i, color=COLOURS["ink"], linewidth=0.8)
    ax_c.set_xlabel("number in the code")
    ax_c.set_ylabel("position")
    ax_c.set_title("codes (−1 blue, +1 orange)", fontsize=9)
    n = len(dots)
    colours = [COLOURS["prediction"] if j == i else COLOURS["axis"] for j in range(n)]
    ax_d.bar(np.arange(n), dots[i], color=colours)
    ax_d.set_ylim(0, codes.shape[1] / 2 * 1.1)
    ax_d.set_xlabel("position")
    ax_d.set_title(f"dot product with position {i}: {data['text']['states'][i]['bars'][i]} with itself", fontsize=9)
    fig.subplots_adjust(wspace=0.35)
