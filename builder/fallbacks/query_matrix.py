"""Fallback for query-matrix: the weight on the right word against the query matrix strength, and the start's weights."""
from __future__ import annotations

import numpy as np

from . import COLOURS


def _start(data):
    s = data["start"]
    sentence = data["sentences"][s["last_word"]]
    return s["last_word"], data["copies"][s["copy"]], data["strengths"][s["strength"]], sentence, s


def draw(fig, data):
    last, copy, strength, sentence, s = _start(data)
    curve, bars = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.2, 1], "wspace": 0.45})
    target = sentence["target"]
    weights = np.array(sentence["weights"])  # (C, S, T)
    picks = sorted({0, s["copy"], len(data["copies"]) - 1})
    styles = {0: (COLOURS["axis"], "--"), s["copy"]: (COLOURS["prediction"], "-")}
    for i in picks:
        shade, line = styles.get(i, (COLOURS["prediction"], ":"))
        curve.plot(data["strengths"], weights[i, :, target], marker="o", ls=line, ms=3, color=shade,
                   label=f"copy {data['copies'][i]:g}")
    curve.set_ylim(0, 1)
    curve.set_xlabel("query matrix strength")
    curve.set_ylabel(f"weight of it on {sentence['words'][target]}")
    curve.legend(frameon=False)
    w = weights[s["copy"], s["strength"]]
    y = np.arange(len(w))[::-1]
    bars.barh(y, w, color=COLOURS["prediction"], height=0.6)
    bars.set_yticks(y, sentence["words"])
    bars.set_xlim(0, 1)
    bars.set_title(f"copy {copy:g}, strength {strength:g}")
    for yi, wi in zip(y, w):
        bars.text(wi + 0.02, yi, f"{wi:.2f}", va="center", fontsize=8)


def alt(data):
    last, copy, strength, sentence, s = _start(data)
    target = sentence["target"]
    weights = np.array(sentence["weights"])[s["copy"], :, target]
    return (f"Line chart of how much attention it pays to {sentence['words'][target]} as the query matrix gets "
            f"stronger, from {weights[0]:.2f} at strength 0 to {weights[-1]:.2f} at strength "
            f"{data['strengths'][-1]:g} with copy {copy:g}; at strength {strength:g} the weight is "
            f"{weights[s['strength']]:.2f}, and bars show every word's weight there.")


def numbers(data):
    last, copy, strength, sentence, s = _start(data)
    q = sentence["queries"][s["copy"]][s["strength"]]
    w = sentence["weights"][s["copy"]][s["strength"]]
    return [
        f"Copied {copy:g} of {last} into it, query matrix strength {strength:g}: query ({q[0]:.2f}, {q[1]:.2f})",
        "Weights of it: " + ", ".join(f"{word} {wi:.2f}" for word, wi in zip(sentence["words"], w)),
    ]
