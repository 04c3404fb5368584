"""Fallback for query-matrix: the weight on the right word against the query matrix strength, and the start's weights."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fill

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
        bars.text(wi + 0.02, yi, fill(data["text"]["parts"]["weight"], {"v": wi}), va="center", fontsize=8)

