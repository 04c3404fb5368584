"""weight-norms: one row of chapter 9's trained model, each word's attention weight beside the length
of what it adds to the output, ‖w_j v_j‖ (Kobayashi et al. 2020), as shares of the row's total.

Precomputed states: head h (0-based) and row i are text state `h * len(words) + i`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tasks import grammar
from .fmt import fixed, rounded
from .params import check_index, field
from .sentences import check_sentence

SENTENCE = "a box stood behind the small bed"  # seed 1 (chapter 9's blurrier run): head 2's row of "box" splits


@dataclass(frozen=True)
class Params:
    seed: int = field(1, lo=0, hi=2 ** 31 - 1, doc="which training run of chapter 9's model")
    sentence: str = field(SENTENCE, doc="must follow the toy grammar")
    head: int = field(2, choices=(1, 2), doc="the head shown first")
    row: int = field(1, lo=0, hi=grammar.MAX_LEN - 1, doc="the word whose row is shown first")

    def __post_init__(self):
        check_index("row", self.row, check_sentence(self.sentence), "words")


EXAMPLE = {"seed": 0, "sentence": "the cat sat on the mat", "head": 1, "row": 5}
BROKEN = ({"row": 9}, "row")  # options that break a rule of Params' own, and the option it names


def compute(p: Params) -> dict:
    run = grammar.trained(p.seed)
    words, targets, weights = grammar.sentence_attention(run.params, p.sentence)  # weights (H, n, n)
    x = grammar.encode(grammar.parse(p.sentence).words[:, :len(words)])[0]  # (n, D)
    lengths = np.linalg.norm(x @ run.params["wv"], axis=-1)  # (H, n) each value vector's length
    weighted = weights * lengths[:, None, :]  # (H, n, n) ‖w_ij v_j‖
    shares = weighted / weighted.sum(axis=-1, keepdims=True)  # (H, n, n) each row's lengths as shares
    return {
        "seed": p.seed,
        "words": words,
        "targets": targets,
        "heads": [{"weights": rounded(weights[h], 3, float), "value_lengths": rounded(lengths[h], 3, float),
                   "weighted": rounded(weighted[h], 3, float), "shares": rounded(shares[h], 3, float)}
                  for h in range(len(weights))],
        "start": {"head": p.head - 1, "row": p.row},
    }


def _top(values, words) -> str:
    return words[max(range(len(values)), key=values.__getitem__)]


def _state(data: dict, h: int, i: int) -> list[str]:
    words, head = data["words"], data["heads"][h]
    w, s, v = head["weights"][i], head["shares"][i], head["value_lengths"]
    return [
        f"Head {h + 1}, row of “{words[i]}”: weights " + ", ".join(f"{a} {fixed(b)}" for a, b in zip(words, w)),
        "Shares of the weighted-vector lengths ‖w·v‖: " + ", ".join(f"{a} {fixed(b)}" for a, b in zip(words, s)),
        f"Value-vector lengths ‖v‖ in head {h + 1}: " + ", ".join(f"{a} {fixed(b, 1)}" for a, b in zip(words, v)),
        f"Largest weight: {_top(w, words)}; largest weighted vector: {_top(s, words)}",
    ]


def text(p: Params, data: dict) -> dict:
    n = len(data["words"])
    states = [{"numbers": _state(data, h, i)} for h in range(len(data["heads"])) for i in range(n)]
    start = opening_state(p, data)
    opening = states[start]["numbers"]
    return {
        "alt": (f"Two bars per word for one row of the trained model of chapter 9 (seed {data['seed']}) on "
                f"“{' '.join(data['words'])}”: the attention weight, and the share of the row's weighted-vector "
                "lengths. " + ". ".join(opening) + "."),
        "numbers": opening,
        "states": states,
        "parts": {"value": "{v:2}"},
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per head and row."""
    return len(data["heads"]) * len(data["words"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the options' head and row."""
    return data["start"]["head"] * len(data["words"]) + data["start"]["row"]
