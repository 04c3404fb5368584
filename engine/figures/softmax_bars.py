"""softmax-bars: the two steps of softmax, exponentials and then their shares of the total.

The reader drags the scores; every score change is recomputed here (in the worker), so the
exponentials, their total and the weights the view draws all come from one place.
No text states (every change is recomputed); besides the key numbers, `text.exps` holds the
label above each exponential's bar and `text.total` the sentence that adds them up. `text.parts` are
the templates of a score bar's label and valuetext (`score`) and of a weight bar's label (`weight`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..attention import softmax_forward
from .fmt import fill, fixed
from .params import ParamError, field

LIVE = True  # its view asks the worker for options the page has no data for: the page loads Python

PARTS = {"score": "{v:1}", "weight": "{v:2}"}  # shipped as text.parts: the view labels its bars by them


@dataclass(frozen=True)
class Params:
    # One score per word: "it" looking back over its sentence, animal 3 points above the
    # unremarkable words and street 1 point above them (invented, round numbers).
    scores: tuple[float, ...] = field((3.0, 0.0, 1.0, 0.0, 0.0), lo=-10, hi=10, length=(2, 8), step=0.5,
                                      doc="one score per word, which the reader can drag")
    labels: tuple[str, ...] = field(("animal", "cross", "street", "because", "tired"), length=(2, 8),
                                    doc="one word per score")

    def __post_init__(self):
        if len(self.labels) != len(self.scores):
            raise ParamError("labels", f"option 'labels' needs one label per score ({len(self.scores)}), not {len(self.labels)}")
        if len(set(self.labels)) != len(self.labels):
            raise ParamError("labels", f"option 'labels' must not repeat a word: {list(self.labels)}")


EXAMPLE = {"scores": [1, -1], "labels": ["a", "b"]}
BROKEN = ({"labels": ["a", "a", "b", "c", "d"]}, "labels")  # breaks a rule of Params' own; names that option


def compute(p: Params) -> dict:
    scores = np.asarray(p.scores, dtype=float)  # (n,)
    exps = np.exp(scores)  # (n,) step 1: e to the power of each score (scores are at most 10: no overflow)
    total = float(exps.sum())
    weights, _ = softmax_forward(scores)  # (n,) step 2, computed the stable way: equals exps / total
    return {
        "labels": list(p.labels),
        "scores": scores.tolist(),
        "exps": exps.tolist(),
        "exp_sum": total,
        "weights": weights.tolist(),
    }


def _exp(x: float) -> str:
    """An exponential as printed: two decimals while they fit under a bar, none past 1000."""
    return fixed(x, 0 if x >= 1000 else 2)


def _part(name: str, v: float) -> str:
    """v as the view labels its bar: a score or a weight."""
    return fill(PARTS[name], {"v": v})


def text(p: Params, data: dict) -> dict:
    words = data["labels"]
    parts = [f"{w}: score {_part('score', s)}, exponential {fixed(e)}, weight {_part('weight', x)}"
             for w, s, e, x in zip(words, data["scores"], data["exps"], data["weights"])]
    return {
        "alt": ("Three bar charts following softmax step by step. " + "; ".join(parts)
                + f". The exponentials add up to {fixed(data['exp_sum'])}, and each weight is its exponential "
                "divided by that total, so the weights add up to one."),
        "numbers": [
            "Scores: " + ", ".join(f"{w} {_part('score', s)}" for w, s in zip(words, data["scores"])),
            "Exponentials: " + ", ".join(f"{w} {fixed(e)}" for w, e in zip(words, data["exps"]))
            + f"; total {fixed(data['exp_sum'])}",
            "Weights: " + ", ".join(f"{w} {_part('weight', x)}" for w, x in zip(words, data["weights"])),
        ],
        "exps": [_exp(e) for e in data["exps"]],
        "exp_sum": _exp(data["exp_sum"]),
        "total": ("Total of the exponentials: " + " + ".join(_exp(e) for e in data["exps"]) + " = "
                  + _exp(data["exp_sum"]) + ". Each weight is its exponential divided by this total, "
                  "so the weights add up to 1."),
        "parts": PARTS,
    }


def facts(p: Params, data: dict) -> dict:
    scores, weights = np.array(data["scores"]), np.array(data["weights"])
    top, low = int(np.argmax(weights)), int(np.argmin(scores))
    return {
        "score": dict(zip(data["labels"], data["scores"])),
        "exp": dict(zip(data["labels"], data["exps"])),
        "weight": dict(zip(data["labels"], data["weights"])),
        "exp_sum": data["exp_sum"],
        "top_gap": float(scores[top] - scores[low]),  # how far the top score sits above the lowest
        "top_ratio": float(weights[top] / weights[low]),  # = e ** top_gap: the weight ratio that gap buys
        "even_share": 1.0 / len(scores),  # what every word gets when all scores are equal
        "e": math.e,  # one point of score multiplies the exponential by e
    }
