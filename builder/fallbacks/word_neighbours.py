"""Fallback for word-neighbours: the nearest words of a few words, by cosine of the full vectors."""
from __future__ import annotations

from . import COLOURS

SHOWN = 5  # neighbours per panel


def _panels(data):
    first = data["words"][data["start"]]
    picks = [first] + [w for w in ("tired", "wide", "cat", "street") if w != first]
    return [(w, data["rankings"][data["words"].index(w)]) for w in picks[:4]]


def draw(fig, data):
    axes = fig.subplots(2, 2).ravel()
    for ax, (word, ranking) in zip(axes, _panels(data)):
        top = ranking[:SHOWN]
        y = range(len(top))
        ax.barh(list(y), [s for _, s in top], color=COLOURS["data"])
        ax.set_yticks(list(y), [w for w, _ in top], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_title(f"nearest to “{word}”", fontsize=9, loc="left")
        ax.tick_params(axis="x", labelsize=7)
        for yi, (_, s) in zip(y, top):
            ax.text(s + 0.02, yi, f"{s:.2f}", va="center", fontsize=7)
    fig.subplots_adjust(hspace=0.6, wspace=0.5)


def alt(data):
    return ("Bar charts of cosine similarity of the full word vectors: " + "; ".join(
        f"nearest to “{word}” are " + ", ".join(f"{w} ({s:.2f})" for w, s in ranking[:3])
        for word, ranking in _panels(data)) + ".")


def line(data, index):
    return f"Nearest to “{data['words'][index]}”: " + ", ".join(f"{w} {s:.2f}" for w, s in data["rankings"][index])


def numbers(data):
    return [line(data, data["start"])]
