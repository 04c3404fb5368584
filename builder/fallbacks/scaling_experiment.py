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


def alt(data):
    first, last = data["rows"][0], data["rows"][-1]
    if len(data["rows"]) == 1:
        return (f"Chart of the mean largest softmax weight at width d = {first['d']}: "
                f"{first['unscaled']:.2f} unscaled, {first['scaled']:.2f} divided by √d.")
    return (f"Line chart of the mean largest softmax weight against width. Unscaled, it climbs from "
            f"{first['unscaled']:.2f} at d = {first['d']} to {last['unscaled']:.2f} at d = {last['d']}; "
            f"divided by √d it stays between {min(r['scaled'] for r in data['rows']):.2f} and "
            f"{max(r['scaled'] for r in data['rows']):.2f}.")


def numbers(data):
    return [f"d = {r['d']}: {r['unscaled']:.2f} unscaled, {r['scaled']:.2f} scaled" for r in data["rows"]]
