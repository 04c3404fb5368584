"""Fallback for word-neighbours: the nearest words of a few words, by cosine of the full vectors."""
from __future__ import annotations

from engine.figures.word_neighbours import SHOWN, panels, similarity

from . import COLOURS


def draw(fig, data):
    axes = fig.subplots(2, 2).ravel()
    for ax, (word, ranking) in zip(axes, panels(data)):
        top = ranking[:SHOWN]
        y = range(len(top))
        ax.barh(list(y), [s for _, s in top], color=COLOURS["data"])
        ax.set_yticks(list(y), [w for w, _ in top], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_title(f"nearest to “{word}”", fontsize=9, loc="left")
        ax.tick_params(axis="x", labelsize=7)
        for yi, (_, s) in zip(y, top):
            ax.text(s + 0.02, yi, similarity(s), va="center", fontsize=7)
    fig.subplots_adjust(hspace=0.6, wspace=0.5)
