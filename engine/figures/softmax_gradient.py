"""softmax-gradient: the gradient through softmax by its formula, checked by finite differences.

One row of scores s goes through softmax to weights A; a later step hands back G = dL/dA, the
gradient of the loss with respect to the weights. The engine's softmax_backward gives
dL/ds = A ⊙ (G − Σ G ⊙ A); beside it, each score is nudged by ±h and the loss L = G · A measured
again (a central difference), which needs no formula at all. The reader drags scores and G; each
change is recomputed in the worker, so the check runs live. No text states: `text.cells` holds the
table's rows as printed, `text.parts` the templates of a bar's label and valuetext.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import softmax_backward, softmax_forward
from .fmt import fill, fixed
from .params import ParamError, field

LIVE = True  # its view asks the worker for options the page has no data for: the page loads Python

H = 1e-5  # the nudge of a central difference: its error is about h² (1e-10) times the third derivative
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
PARTS = {"bar": "{v:1}"}  # a score's or a G entry's label and valuetext


@dataclass(frozen=True)
class Params:
    scores: tuple[float, ...] = field((2.0, 1.0, 0.0, -1.0), lo=-5, hi=5, length=(2, 6), step=0.5,
                                      doc="the scores the softmax turns into weights")
    upstream: tuple[float, ...] = field((1.0, 0.0, 0.0, 0.0), lo=-5, hi=5, length=(2, 6), step=0.5, doc="the gradient arriving at each weight (G = dL/dA)")
    labels: tuple[str, ...] = field(("cat", "sat", "on", "mat"), length=(2, 6), doc="one word per score")

    def __post_init__(self):
        n = len(self.scores)
        for name in ("upstream", "labels"):
            if len(getattr(self, name)) != n:
                raise ParamError(name, f"option '{name}' needs one entry per score ({n}), not {len(getattr(self, name))}")


EXAMPLE = {"scores": [5, -5], "upstream": [1, 0.5], "labels": ["a", "b"]}
BROKEN = ({"upstream": [1, 0]}, "upstream")  # options that break a rule of Params' own, and the option it names


def _loss(scores: np.ndarray, g: np.ndarray) -> float:
    return float(g @ softmax_forward(scores)[0])  # L = G · A: a loss whose gradient in A is G


def compute(p: Params) -> dict:
    n = len(p.scores)
    s = np.asarray(p.scores, dtype=float)  # (n,)
    g = np.asarray(p.upstream, dtype=float)  # (n,)
    a, cache = softmax_forward(s)  # (n,)
    formula = softmax_backward(g, cache)  # (n,) A ⊙ (G − Σ G ⊙ A)
    eye = np.eye(n) * H  # (n, n) one nudge per score
    numeric = np.array([(_loss(s + e, g) - _loss(s - e, g)) / (2 * H) for e in eye])  # (n,)
    return {
        "labels": list(p.labels),
        "scores": s.tolist(),
        "upstream": g.tolist(),
        "weights": a.tolist(),
        "mean_upstream": float(g @ a),  # Σ G ⊙ A: what the weights' average of G takes from every entry
        "formula": formula.tolist(),
        "numeric": numeric.tolist(),
        "largest_difference": float(np.max(np.abs(formula - numeric))),
        "h": H,
    }


def _sci(x: float) -> str:
    """A tiny difference in scientific notation, as 3.2 × 10⁻¹¹ reads in print."""
    if x == 0:
        return "0"
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPT)}"


def text(p: Params, data: dict) -> dict:
    words = data["labels"]

    def row(values, digits=4):
        return [fixed(v, digits) for v in values]

    cells = {
        "weights": row(data["weights"]),
        "formula": row(data["formula"], 6),
        "numeric": row(data["numeric"], 6),
    }
    def pairs(values):
        return ", ".join(f"{w} {v}" for w, v in zip(words, values))

    return {
        "alt": ("Scores and the gradient G handed back to the weights, as bars; below them a table of the "
                f"weights ({pairs(cells['weights'])}), the gradient of the loss with respect to each score by the "
                f"formula A ⊙ (G − Σ G ⊙ A) ({pairs(cells['formula'])}) and by finite differences "
                f"({pairs(cells['numeric'])}); the largest difference between the two is {_sci(data['largest_difference'])}."),
        "numbers": [
            "Scores: " + ", ".join(f"{w} {fill(PARTS['bar'], {'v': v})}" for w, v in zip(words, data["scores"])),
            "G = dL/dA: " + ", ".join(f"{w} {fill(PARTS['bar'], {'v': v})}" for w, v in zip(words, data["upstream"])),
            "Weights A: " + pairs(cells["weights"]),
            f"Σ G ⊙ A = {fixed(data['mean_upstream'], 4)}",
            "dL/ds by the formula: " + pairs(cells["formula"]),
            f"dL/ds by central differences (h = {_sci(data['h'])}): " + pairs(cells["numeric"]),
            f"Largest difference: {_sci(data['largest_difference'])}",
        ],
        "cells": cells,
        "total": f"Σ G ⊙ A = {fixed(data['mean_upstream'], 4)}; largest difference between the two rows: "
                 f"{_sci(data['largest_difference'])}",
        "parts": PARTS,
    }


NUDGE = 0.01  # chapter 9's worked example: the first score raised by this much


def _nudge(data: dict) -> dict:
    """The first score raised by NUDGE: each weight's change, beside the slope times the nudge
    (w_0 (1 - w_0) for its own weight, -w_i w_0 for another), for chapter 9's worked example."""
    s = np.asarray(data["scores"], dtype=float)  # (n,)
    a = np.asarray(data["weights"])  # (n,)
    after = softmax_forward(s + NUDGE * np.eye(len(s))[0])[0]  # (n,)
    slopes = a * ((np.arange(len(s)) == 0) - a[0])  # (n,) dw_i/ds_0 = w_i (delta_i0 - w_0)
    return {"by": NUDGE, "after": after.tolist(), "change": (after - a).tolist(), "slopes": slopes.tolist(),
            "predicted": (slopes * NUDGE).tolist()}


def facts(p: Params, data: dict) -> dict:
    eps = float(np.finfo(np.float64).eps)  # the relative rounding unit of 64-bit numbers
    return {"largest_difference": data["largest_difference"], "h": data["h"], "eps": eps,
            "nudge": _nudge(data),
            "truncation": data["h"] ** 2,  # the order of a central difference's error from the curve's bend
            "rounding": eps / data["h"]}  # the order of its error from subtracting two rounded losses
