"""Fallback for matrix-product: Q on the left, Kᵀ above, QKᵀ where each row meets each column, with the
opening cell's row of Q and column of Kᵀ tinted and its sum of products written under the grid."""
from __future__ import annotations

from matplotlib.patches import Rectangle

from . import COLOURS

GAP = 0.3  # between Q and the product, and between Kᵀ and the product, in cells


def draw(fig, data):
    q, kt, scores = data["q"], data["kt"], data["scores"]
    n_q, d, n_k = len(q), len(kt), len(kt[0])
    i0, j0 = data["start"]["row"], data["start"]["col"]
    fig.set_size_inches(1.2 + 0.55 * (d + n_k), 1.3 + 0.55 * (d + n_q))
    ax = fig.add_axes([0, 0, 1, 1])
    ax.set_axis_off()
    xr, yp = d + GAP, d + GAP  # the product's left edge and top edge (y grows downwards)

    def block(x0, y0, values, tint):
        for r, row in enumerate(values):
            for c, v in enumerate(row):
                colour = tint(r, c)
                ax.add_patch(Rectangle((x0 + c, y0 + r), 1, 1, facecolor=colour[0], alpha=colour[1],
                                       edgecolor=COLOURS["rule"], lw=0.8))
                ax.text(x0 + c + 0.5, y0 + r + 0.5, str(v), ha="center", va="center", fontsize=11)

    plain = (COLOURS["surface"], 1.0)
    block(0, yp, q, lambda r, c: (COLOURS["query"], 0.3) if r == i0 else plain)
    block(xr, 0, kt, lambda r, c: (COLOURS["key"], 0.3) if c == j0 else plain)
    block(xr, yp, scores, lambda r, c: (COLOURS["selected"], 1.0) if (r, c) == (i0, j0) else plain)
    ax.add_patch(Rectangle((xr + j0, yp + i0), 1, 1, fill=False, edgecolor=COLOURS["ink"], lw=1.6))
    for r in range(n_q):
        ax.text(-0.15, yp + r + 0.5, f"q{r + 1}", ha="right", va="center", color=COLOURS["query"], fontsize=10)
    for c in range(n_k):
        ax.text(xr + c + 0.5, -0.15, f"k{c + 1}", ha="center", va="bottom", color=COLOURS["key"], fontsize=10)
    ax.text(d / 2, yp - 0.15, "Q", ha="center", va="bottom", fontsize=11, weight="bold")
    ax.text(xr - 0.15, d / 2, "Kᵀ", ha="right", va="center", fontsize=11, weight="bold")
    ax.text(xr + n_k / 2, yp + n_q + 0.15, "QKᵀ", ha="center", va="top", fontsize=11, weight="bold")
    ax.set_xlim(-0.9, xr + n_k + 0.1)
    ax.set_ylim(yp + n_q + 0.8, -0.7)
