"""Fallback for bpe-merges: the sentence cut into tokens at the shown stop, and the whole text's
length in tokens against the number of merges."""
from __future__ import annotations

from matplotlib.patches import Rectangle

from . import COLOURS, legend

WIDTH = 72  # characters of 10 pt DejaVu Sans Mono (0.6 em each) across the axes, 7.2 in x 0.85 wide
LINE = 64  # characters of tokens per row of boxes
PAD = 0.6  # a box is its token and this, in characters
GAP = 0.4  # between boxes


def _rows(tokens: list[str]) -> list[list[str]]:
    """The tokens in rows of at most LINE characters, as the view's boxes wrap."""
    rows, row, used = [], [], 0.0
    for t in tokens:
        if row and used + len(t) > LINE:
            rows.append(row)
            row, used = [], 0.0
        row.append(t)
        used += len(t) + PAD + GAP
    return rows + [row]


def draw(fig, data):
    i = data["start"]
    k = data["stops"][i]
    rows = _rows(data["tokens"][i])
    fig.set_size_inches(7.2, 2.4 + 0.42 * len(rows))
    top, curve = fig.subplots(2, 1, height_ratios=[0.55 * len(rows) + 0.4, 2.2])

    for r, row in enumerate(rows):
        x = 0.0
        for t in row:
            merged = len(t) > 1
            top.add_patch(Rectangle((x, -r - 0.4), len(t) + PAD, 0.8, facecolor=COLOURS["key"],
                                    alpha=0.18 if merged else 0.05, edgecolor=COLOURS["key"], linewidth=0.8))
            top.text(x + PAD / 2, -r, t, va="center", ha="left", fontsize=10, family="DejaVu Sans Mono")
            x += len(t) + PAD + GAP
    top.set_xlim(-0.2, WIDTH)
    top.set_ylim(-len(rows) + 0.45, 0.55)
    top.axis("off")
    top.set_title(f"The sentence after {k:,} merges: {len(data['tokens'][i])} tokens for "
                  f"{len(data['sentence'])} characters", fontsize=9, loc="left", color=COLOURS["muted"])

    lengths = data["lengths"]
    curve.plot(range(len(lengths)), lengths, color=COLOURS["prediction"], linewidth=1.5)
    curve.plot(data["stops"], [lengths[s] for s in data["stops"]], "o", markersize=2.5, color=COLOURS["prediction"])
    curve.plot([k], [lengths[k]], "o", markersize=6, color=COLOURS["prediction"])
    curve.annotate(data["text"]["states"][i]["label"], (k, lengths[k]), xytext=(-4, 18), textcoords="offset points",
                   ha="right", fontsize=8, color=COLOURS["ink"])
    for key, setter in (("x", curve.set_xticks), ("y", curve.set_yticks)):
        ticks = data["axis"][key]
        setter([v for v, _ in ticks], [label for _, label in ticks], fontsize=8)
    curve.set_ylim(0, data["axis"]["y"][-1][0] * 1.05)
    curve.set_xlabel("merges", fontsize=8)
    curve.set_ylabel("tokens in the whole text", fontsize=8)
    fig.subplots_adjust(left=0.12, right=0.97, top=0.93, bottom=0.14, hspace=0.35)
    fig.text(0.02, -0.02, legend(data), fontsize=8, color=COLOURS["muted"], va="top")
