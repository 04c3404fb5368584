"""chain-rule: the softmax weights of a few scores, multiplied by a sharpness the reader sets.

(A skeleton from `python3 dev.py new-figure`: replace what it shows, keep the shape.)
Precomputed states: state i of text.states holds the key numbers at sharpnesses[i], the slider's stop i.
`text.parts` are the templates of the short texts the view places: a bar's label (`weight`) and the
slider's readout (`sharpness`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import softmax_forward
from .fmt import fill, fixed, rounded
from .params import field

LABELS = ["cat", "sat", "mat"]  # one word per score
SCORES = [2.0, 1.0, 0.5]
LO, HI, STEP = 0.0, 4.0, 0.25  # the sharpness slider: its ends and its step
PARTS = {"weight": "{v:2}", "sharpness": "sharpness {v:2}"}  # shipped as text.parts: the view prints by them


@dataclass(frozen=True)
class Params:
    sharpness: float = field(1.0, lo=LO, hi=HI, step=STEP)  # the slider's starting position


def compute(p: Params) -> dict:
    """Every stop of the slider, so the view needs no Python to move it."""
    sharpnesses = np.linspace(LO, HI, round((HI - LO) / STEP) + 1)  # (S,)
    scores = np.asarray(SCORES)  # (n,)
    weights, _ = softmax_forward(sharpnesses[:, None] * scores[None, :])  # (S, n); the cache is for backward
    return {
        "labels": LABELS,
        "scores": SCORES,
        "sharpnesses": sharpnesses.tolist(),
        "weights": rounded(weights, 4),
        "start": int(np.argmin(np.abs(sharpnesses - p.sharpness))),
    }


def _line(data: dict, i: int) -> str:
    """The key numbers at stop i, each weight as the view labels its bar."""
    weights = ", ".join(f"{label} {fill(PARTS['weight'], {'v': w})}" for label, w in zip(data["labels"], data["weights"][i]))
    return f"Sharpness {fixed(data['sharpnesses'][i])}: {weights}"


def text(p: Params, data: dict) -> dict:
    states = [{"numbers": [_line(data, i)]} for i in range(len(data["sharpnesses"]))]
    fixed_lines = ["Scores: " + ", ".join(f"{label} {s:g}" for label, s in zip(data["labels"], data["scores"]))]
    opening = states[data["start"]]["numbers"]
    return {
        "alt": (f"Bars of the softmax weights of the words {', '.join(data['labels'])} with scores "
                f"{', '.join(f'{s:g}' for s in data['scores'])}. {opening[0]}."),
        "numbers": opening + fixed_lines,  # a state's key numbers are its own lines, then the fixed ones
        "states": states,
        "fixed": fixed_lines,
        "parts": PARTS,
    }
