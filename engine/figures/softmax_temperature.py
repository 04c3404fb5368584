"""softmax-temperature: how dividing scores by a temperature sharpens or flattens the weights.

The model returns the weights over a grid of temperatures, so the slider works on the
embedded data before Python loads; the reader's own scores are recomputed live.
Text states are indexed like `temperatures`: state i describes the weights at temperatures[i].
`text.parts` are the templates of the short texts the view places: a score bar's label and valuetext
(`score`), a weight bar's label (`weight`), the slider's valuetext (`temperature`) and readout (`readout`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import softmax_forward
from .fmt import fill, fixed
from .params import ParamError, field

LIVE = True  # its view asks the worker for options the page has no data for: the page loads Python

PARTS = {"score": "{v:1}", "weight": "{v:2}",  # shipped as text.parts: the view prints by them
         "temperature": "temperature {v:2}", "readout": "T = {v:2}"}


@dataclass(frozen=True)
class Params:
    scores: tuple[float, ...] = field((2.0, 1.0, 0.5, -1.0), lo=-10, hi=10, length=(2, 8), step=0.5,
                                      doc="one score per word")
    labels: tuple[str, ...] = field(("cat", "sat", "mat", "the"), length=(2, 8), doc="the word each score belongs to")
    temperature: float = field(1.0, lo=0.1, hi=10.0, doc="the slider's starting position")
    t_min: float = field(0.1, lo=0.05, hi=1.0, doc="left end of the slider")
    t_max: float = field(5.0, lo=1.0, hi=20.0, doc="right end of the slider")
    steps: int = field(50, lo=2, hi=200, doc="slider stops between the ends, spaced evenly on a log scale")

    def __post_init__(self):
        if len(self.labels) != len(self.scores):
            raise ParamError("labels", f"option 'labels' needs one label per score ({len(self.scores)}), not {len(self.labels)}")
        if self.t_min >= self.t_max:
            raise ParamError("t_min", f"option 't_min' ({self.t_min}) must be below 't_max' ({self.t_max})")


EXAMPLE = {"steps": 4, "temperature": 2.5}
BROKEN = ({"t_min": 1.0, "t_max": 1.0}, "t_min")  # options that break a rule of Params' own, and the option it names


def compute(p: Params) -> dict:
    scores = np.asarray(p.scores, dtype=float)  # (n,)
    grid = np.geomspace(p.t_min, p.t_max, p.steps)  # (S,)
    temps = np.unique(np.round(np.append(grid, [1.0, p.temperature]), 6))  # (S',) the grid plus T = 1 and the start
    weights, _ = softmax_forward(scores[None, :] / temps[:, None])  # (S', n)
    return {
        "labels": list(p.labels),
        "scores": scores.tolist(),
        "temperatures": temps.tolist(),
        "weights": weights.tolist(),
        "start": int(np.argmin(np.abs(temps - p.temperature))),
        "shown": sorted({0, int(np.argmin(np.abs(temps - 1.0))), len(temps) - 1}),  # static: coldest, T = 1, hottest
    }


def _pairs(labels, values, spec):
    return ", ".join(f"{label} {v:{spec}}" for label, v in zip(labels, values))


def _weight(w: float) -> str:
    """A weight as the view labels its bar."""
    return fill(PARTS["weight"], {"v": w})


def _weights(labels, weights) -> str:
    """"cat 0.64, sat 0.24": each word's weight as the view labels its bar."""
    return ", ".join(f"{label} {_weight(w)}" for label, w in zip(labels, weights))


def text(p: Params, data: dict) -> dict:
    labels, temps, weights = data["labels"], data["temperatures"], data["weights"]
    scores_line = "Scores: " + _pairs(labels, data["scores"], "g")
    shown = data["shown"]
    return {
        "alt": ("Bar charts of softmax weights for the words " + ", ".join(labels) + " with scores "
                + ", ".join(f"{s:g}" for s in data["scores"]) + ": "
                + "; ".join(f"at temperature {temps[i]:g} the largest weight is {_weight(max(weights[i]))}"
                            for i in shown)
                + "."),
        "numbers": [scores_line] + [f"Temperature {temps[i]:g}: " + _weights(labels, weights[i]) for i in shown],
        "states": [{"numbers": [scores_line, f"Temperature {fixed(t)}: " + _weights(labels, w)]}
                   for t, w in zip(temps, weights)],
        "parts": PARTS,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per temperature."""
    return len(data["temperatures"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's temperature."""
    return data["start"]


def facts(p: Params, data: dict) -> dict:
    temps, weights = np.array(data["temperatures"]), np.array(data["weights"])
    return {
        "top_weight_at_1": float(weights[np.argmin(np.abs(temps - 1.0))].max()),
        "top_weight_at_min": float(weights[0].max()),
        "top_weight_at_max": float(weights[-1].max()),
        "t_min": float(temps[0]),
        "t_max": float(temps[-1]),
    }
