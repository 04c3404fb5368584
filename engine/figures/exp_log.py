"""exp-log: scores → exponentials → shares (softmax) → the loss −ln p of the right answer.

The exponential makes every score positive and turns a difference of scores into a ratio of
shares, e^(a − b) = eᵃ / eᵇ; dividing by the total makes the shares add up to one; the loss is
−ln p, the negative natural logarithm of the right answer's share, in nats (÷ ln 2 for bits).

Precomputed states: state i of text.states holds the key numbers when the right answer's score is
stops[i] (the slider's stop i; the other scores stay as given). The option's own score is added to
the grid, so a worker's answer for scores the reader dragged opens on a stop of its own.
`exps[i]`, `shares[i]` and `loss[i]` are the exponentials, shares and loss at stop i. `curve` is
−ln p over p in (0, 1] for the loss plot. `text.parts` holds the templates of a score bar's label
and valuetext (`score`), of an exponential's and a share's labels (`exp`, `share`) and of the
slider's readout and valuetext (`right`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import softmax_forward
from .fmt import fixed, rounded
from .params import ParamError, field

LIVE = True  # the other words' scores, dragged by the reader, are computed in the worker


LO, HI, STEP = -4.0, 6.0, 0.5  # the right answer's score on the slider: its ends and step
PARTS = {"score": "{v:1}", "exp": "{v:2}", "share": "{v:2}", "right": "score {v:1}"}


@dataclass(frozen=True)
class Params:
    scores: tuple[float, ...] = field((2.0, 1.0, 0.0), lo=LO, hi=HI, length=(2, 5), step=STEP, doc="one score per word")
    labels: tuple[str, ...] = field(("cat", "sat", "mat"), length=(2, 5), doc="the word each score belongs to")
    answer: int = field(0, lo=0, hi=4, doc="which word is the right answer (its index)")

    def __post_init__(self):
        if len(self.labels) != len(self.scores):
            raise ParamError("labels", f"option 'labels' needs one label per score ({len(self.scores)}), not {len(self.labels)}")
        if self.answer >= len(self.scores):
            raise ParamError("answer", f"option 'answer' must be the index of a word (below {len(self.scores)}), not {self.answer}")


EXAMPLE = {"scores": [1, 3.5], "labels": ["a", "b"], "answer": 1}
BROKEN = ({"answer": 3}, "answer")  # options that break a rule of Params' own, and the option it names


def compute(p: Params) -> dict:
    s = np.asarray(p.scores, dtype=float)  # (n,)
    k = p.answer
    grid = np.linspace(LO, HI, round((HI - LO) / STEP) + 1)  # (S,)
    stops = np.unique(np.round(np.append(grid, s[k]), 10))  # (S',) the grid and the option's score
    scores = np.repeat(s[None, :], len(stops), axis=0)  # (S', n)
    scores[:, k] = stops
    exps = np.exp(scores)  # (S', n) every one positive
    shares, _ = softmax_forward(scores)  # (S', n) exps / their total, computed without overflow
    loss = -np.log(shares[:, k])  # (S',) in nats
    p_curve = np.geomspace(0.003, 1.0, 60)  # (C,) shares from 0.3% up, denser where the loss climbs
    return {
        "labels": list(p.labels),
        "answer": k,
        "scores": s.tolist(),
        "stops": stops.tolist(),
        "exps": exps.tolist(),
        "totals": exps.sum(axis=1).tolist(),
        "shares": shares.tolist(),
        "loss": loss.tolist(),
        "bits": (loss / np.log(2)).tolist(),
        "curve": {"p": rounded(p_curve, 5), "loss": rounded(-np.log(p_curve), 5)},
        "start": int(np.argmin(np.abs(stops - s[k]))),
    }


def _ratio_line(data: dict, i: int) -> str:
    """The right answer against the next word: the ratio of their shares is e to their difference."""
    k, labels = data["answer"], data["labels"]
    j = (k + 1) % len(labels)
    a, b = data["stops"][i], data["scores"][j]
    ratio = data["shares"][i][k] / data["shares"][i][j]
    return (f"{labels[k]}'s share ÷ {labels[j]}'s = e^({fixed(a, 1)} − {fixed(b, 1)}) = "
            f"{fixed(data['exps'][i][k], 3)} ÷ {fixed(data['exps'][i][j], 3)} = {fixed(ratio, 3)}")


def _lines(data: dict, i: int) -> list[str]:
    labels, k = data["labels"], data["answer"]

    def pairs(values, digits):
        return ", ".join(f"{w} {fixed(v, digits)}" for w, v in zip(labels, values))

    return [
        "Scores: " + pairs([data["stops"][i] if j == k else s for j, s in enumerate(data["scores"])], 1),
        f"e to each score: {pairs(data['exps'][i], 3)} (total {fixed(data['totals'][i], 3)})",
        "Shares: " + pairs(data["shares"][i], 3),
        _ratio_line(data, i),
        f"Loss −ln p({labels[k]}) = {fixed(data['loss'][i], 3)} nats = {fixed(data['bits'][i], 3)} bits",
    ]


def text(p: Params, data: dict) -> dict:
    states = [{"numbers": _lines(data, i)} for i in range(len(data["stops"]))]
    i, k = opening_state(p, data), data["answer"]
    right = data["labels"][k]
    return {
        "alt": (f"Three rows of bars for the words {', '.join(data['labels'])}: their scores, the exponential of each "
                f"(all positive) and their shares of the total; below, the loss −ln p against the share p of the right "
                f"answer, {right}, whose share is {fixed(data['shares'][i][k], 3)} and loss "
                f"{fixed(data['loss'][i], 3)} nats."),
        "numbers": states[i]["numbers"],
        "states": states,
        "legend": f"Rows: each word's score, e to that score, and its share of the total; {right} is the right answer. "
                  "The curve is the loss −ln p against the right answer's share p; the dot is where it stands.",
        "parts": PARTS,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per stop."""
    return len(data["stops"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's stop."""
    return data["start"]


def facts(p: Params, data: dict) -> dict:
    i, k = data["start"], data["answer"]
    j = (k + 1) % len(data["labels"])
    lowest = int(np.argmin(data["stops"]))
    return {
        "exps": data["exps"][i], "total": data["totals"][i], "shares": data["shares"][i],
        "difference": data["stops"][i] - data["scores"][j],
        "ratio": data["shares"][i][k] / data["shares"][i][j],
        "e": float(np.e),
        "loss": data["loss"][i], "bits": data["bits"][i],
        "ln2": float(np.log(2)),  # one bit in nats
        "lowest_score": data["stops"][lowest], "lowest_exp": data["exps"][lowest][k],
        "lowest_share": data["shares"][lowest][k], "lowest_loss": data["loss"][lowest],
        "even_loss": float(np.log(len(data["labels"]))),  # −ln(1/n): the loss of spreading the bet evenly
    }
