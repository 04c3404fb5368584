"""query-drag: a two-number query against the hand-set keys of the pronoun sentence.

The keys come from the hand-set head of chapter 1 (engine.tasks.winograd): "animal" points right,
"street" points up, the other words have short keys near the middle. The reader drags the
query; each word's raw score is the dot product q·k, its scaled score is q·k / √2 (√ of the key
width, as in chapter 4), and its weight is the softmax of the scaled scores. The figure shows all three
columns so that the reader sees the scaling step and the weights can be checked from what is on screen.

Why a grid rather than live requests: a drag produces dozens of positions a second, and
the view must not compute scores itself. A round trip to the worker per position would
lag behind the pointer and does nothing at all when Python is unavailable, so the model
precomputes every position on a square grid (step 0.5 from -4 to 4 by default: 289
positions, about as fine as a finger can aim on a phone) and the view snaps the query to
the nearest one. Raw scores, scaled scores and weights in the grid
keep the 2 decimals the view shows (so no number is rounded twice, and the embedded data
stays near 60 kB); the facts quoted in the text keep full precision.
Text: 289 states of three lines would weigh some 90 kB of words and numbers already in the data, so
the text has `templates`, filled for the grid point on screen, i = row * len(axis) + column, from
`text.scope` (SCOPE below, read by engine/figures/fmt.py `scope_at`; "{scores.3:2}" is item 3 to
2 decimals, `fill`). The first
line is also the readout and the handle's valuetext; `parts` are the templates of the raw score,
scaled score and weight columns' cells, filled from {v}.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import softmax_forward
from ..tasks import winograd as head
from .fmt import fill_all, fixed, rounded, scope_at
from .params import ParamError, field

DECIMALS = 2  # scores and weights are embedded rounded to this, and printed with it
MAX_SIDE = 61  # grid positions per axis at most, so no option can make the page huge
ANIMAL, STREET = 1, 5  # positions of the two candidates in the sentence
PROBES = {  # named query positions quoted in the text
    "right": (3.0, 0.0),  # the query "it" gets from the head at its defaults
    "up": (0.0, 3.0),
    "away": (-2.0, -2.0),
    "short_right": (1.0, 0.0),
    "long_right": (4.0, 0.0),
}


@dataclass(frozen=True)
class Params:
    last_word: str = field("tired", choices=head.LAST_WORDS, doc="the sentence's last word (the keys are the same)")
    query: tuple[float, ...] = field((3.0, 0.0), lo=-6, hi=6, length=(2, 2), doc="where the query starts")
    extent: float = field(4.0, lo=1.0, hi=6.0, doc="the grid runs from -extent to extent on both axes")
    step: float = field(0.5, lo=0.05, hi=1.0, doc="distance between neighbouring grid positions")

    def __post_init__(self):
        n = int(round(self.extent / self.step))
        if 2 * n + 1 > MAX_SIDE:
            raise ParamError("step", f"extent / step must stay at most {(MAX_SIDE - 1) // 2}, not {self.extent / self.step:g}")
        if abs(n * self.step - self.extent) > 1e-9:
            raise ParamError("step", f"option 'step' ({self.step:g}) must divide 'extent' ({self.extent:g}) evenly")
        if max(abs(c) for c in self.query) > self.extent:
            raise ParamError("query", f"option 'query' must lie inside the grid, within ±{self.extent:g}")


EXAMPLE = {"extent": 2, "step": 1, "query": [1, -1], "last_word": "wide"}
BROKEN = ({"step": 0.3}, "step")  # options that break a rule of Params' own, and the option it names


def scores_and_weights(queries, k):
    """Raw scores q·k, scaled scores q·k / √d and the head's weights softmax(q·k / √d), per query row."""
    scores = np.asarray(queries, dtype=float) @ k.T  # (N, T)
    scaled = scores / np.sqrt(k.shape[1])  # (N, T) d = 2, the width of the keys
    weights, _ = softmax_forward(scaled)  # (N, T)
    return scores, scaled, weights


def _probe(point, k, words):
    scores, scaled, weights = scores_and_weights(np.array([point]), k)  # (1, T) each
    unscaled, _ = softmax_forward(scores)  # (1, T) what the weights would be without the division
    out = {"query": list(point)}
    for name, i in (("animal", ANIMAL), ("street", STREET)):
        out[f"{name}_score"] = float(scores[0, i])
        out[f"{name}_scaled"] = float(scaled[0, i])
        out[f"{name}_weight"] = float(weights[0, i])
        out[f"{name}_weight_unscaled"] = float(unscaled[0, i])
    others = [j for j in range(len(words)) if j not in (ANIMAL, STREET)]
    out["other_weight_max"] = float(weights[0, others].max())
    return out


def compute(p: Params) -> dict:
    n = int(round(p.extent / p.step))
    words = list(head.words(p.last_word))
    k = head.run(p.last_word)["keys"]  # (T, 2) the key matrix ignores what was copied into "it"
    axis = np.round(np.arange(-n, n + 1) * p.step, 10)  # (G,) grid coordinates, shared by x and y
    gx, gy = np.meshgrid(axis, axis)  # (G, G) each; row = y index, column = x index
    grid_q = np.stack([gx.ravel(), gy.ravel()], axis=1)  # (G*G, 2) position i = row * G + column
    scores, scaled, weights = scores_and_weights(grid_q, k)  # (G*G, T) each
    start = [int(np.argmin(np.abs(axis - c))) for c in p.query]  # column, row of the start
    return {
        "words": words,
        "keys": np.round(k, 6).tolist(),
        "long_keys": (np.linalg.norm(k, axis=1) > 1).tolist(),  # keys the view names at their tip
        "axis": axis.tolist(),
        "start": start,
        "scores": rounded(scores, DECIMALS),
        "scaled": rounded(scaled, DECIMALS),
        "weights": np.round(weights, DECIMALS).tolist(),
    }


def templates(words, d: int) -> list[str]:
    """The key-number lines with a slot for each word's raw score, scaled score and weight (keys of width d)."""
    def each(values):
        return ", ".join(f"{{words.{j}}} {{{values}.{j}:{DECIMALS}}}" for j in range(len(words)))
    return [f"Query ({{x:{DECIMALS}}}, {{y:{DECIMALS}}})", "Raw scores q·k: " + each("scores"),
            f"Scaled scores q·k/√{d}: " + each("scaled"), "Weights, softmax of the scaled scores: " + each("weights")]


SCOPE = {  # the values the templates name at grid point i = row * len(axis) + column
    "index": [["row", "axis"], ["col", "axis"]],
    "values": {"x": "axis[col]", "y": "axis[row]", "words": "words", "scores": "scores[i]", "scaled": "scaled[i]",
               "weights": "weights[i]"},
}


def text(p: Params, data: dict) -> dict:
    axis, words = data["axis"], data["words"]
    col, row = data["start"]
    start = opening_state(p, data)
    scores, scaled, weights = data["scores"][start], data["scaled"][start], data["weights"][start]
    d = len(data["keys"][0])
    lines = templates(words, d)
    best = int(np.argmax(weights))
    return {
        "alt": (f"A plane with a blue key arrow for each word: animal points right, street points up, the others "
                f"are short arrows near the middle. The orange query at ({fixed(axis[col])}, {fixed(axis[row])}) "
                f"has raw score {fixed(scores[best])} against {words[best]}, scaled score {fixed(scaled[best])} "
                f"after dividing by √{d}, and {words[best]} gets weight {fixed(weights[best])}."),
        "numbers": fill_all(lines, scope_at(SCOPE, data, start)),
        "templates": lines,
        "scope": SCOPE,
        "parts": {"score": f"{{v:{DECIMALS}}}", "scaled": f"{{v:{DECIMALS}}}", "weight": f"{{v:{DECIMALS}}}"},
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per grid point."""
    return len(data["axis"]) ** 2


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the grid point nearest the query, row * len(axis) + column."""
    return data["start"][1] * len(data["axis"]) + data["start"][0]


def facts(p: Params, data: dict) -> dict:
    k = head.run(p.last_word)["keys"]  # (T, 2)
    return {"root_d": float(np.sqrt(k.shape[1])),
            **{name: _probe(point, k, data["words"]) for name, point in PROBES.items()}}
