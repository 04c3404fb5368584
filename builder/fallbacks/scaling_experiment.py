"""Fallback for scaling-experiment: mean largest weight against width, scaled and unscaled."""
from __future__ import annotations

from . import COLOURS


def draw(fig, data):
    ax = fig.subplots()
    d = [r["d"] for r in data["rows"]]
    ax.plot(d, [r["unscaled"] for r in data["rows"]], "o-", color=COLOURS["prediction"], label="scores as they are")
    ax.plot(d, [r["scaled"] for r in data["rows"]], "s-", color=COLOURS["key"], label="scores divided by √d")
    ax.axhline(data["uniform"], color=COLOURS["axis"], ls="--", lw=1, label="all keys equal")
    ax.set_xscale("log", base=2)
    ax.set_xticks(d, [str(x) for x in d])
    ax.set_ylim(0, 1)
    ax.set_xlabel("width d of queries and keys")
    ax.set_ylabel("mean largest weight")
    ax.legend(frameon=False, loc="center right")

