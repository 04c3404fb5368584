"""softmax-bars: the two steps of softmax, exponentials and then their shares of the total.

The reader drags the scores; every score change is recomputed here (in the worker), so the
exponentials, their total and the weights the view draws all come from one place.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..attention import softmax_forward
from .params import ParamError, field


@dataclass(frozen=True)
class Params:
    # One score per word: "it" looking back over its sentence, animal 3 points above the
    # unremarkable words and street 1 point above them (invented, round numbers).
    scores: tuple[float, ...] = field((3.0, 0.0, 1.0, 0.0, 0.0), lo=-10, hi=10, length=(2, 8))
    labels: tuple[str, ...] = field(("animal", "cross", "street", "because", "tired"), length=(2, 8))  # one word per score


def compute(p: Params) -> dict:
    if len(p.labels) != len(p.scores):
        raise ParamError("labels", f"option 'labels' needs one label per score ({len(p.scores)}), not {len(p.labels)}")
    if len(set(p.labels)) != len(p.labels):
        raise ParamError("labels", f"option 'labels' must not repeat a word: {list(p.labels)}")
    scores = np.asarray(p.scores, dtype=float)  # (n,)
    exps = np.exp(scores)  # (n,) step 1: e to the power of each score (scores are at most 10: no overflow)
    total = float(exps.sum())
    weights, _ = softmax_forward(scores)  # (n,) step 2, computed the stable way: equals exps / total
    top = int(np.argmax(weights))
    low = int(np.argmin(scores))
    return {
        "labels": list(p.labels),
        "scores": scores.tolist(),
        "exps": exps.tolist(),
        "exp_sum": total,
        "weights": weights.tolist(),
        "facts": {
            "score": dict(zip(p.labels, scores.tolist())),
            "exp": dict(zip(p.labels, exps.tolist())),
            "weight": dict(zip(p.labels, weights.tolist())),
            "exp_sum": total,
            "weight_sum": float(weights.sum()),
            "top_label": p.labels[top],
            "top_weight": float(weights[top]),
            "top_gap": float(scores[top] - scores[low]),  # how far the top score sits above the lowest
            "top_ratio": float(weights[top] / weights[low]),  # = e ** top_gap: the weight ratio that gap buys
            "even_share": 1.0 / len(p.scores),  # what every word gets when all scores are equal
            "e": math.e,  # one point of score multiplies the exponential by e
        },
    }
