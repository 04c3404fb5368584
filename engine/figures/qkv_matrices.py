"""qkv-matrices: the queries, keys and values of one head of chapter 9's trained model for one sentence.

Rows are words, six columns each (d_k = d_v = 6). The reader selects a word's query; the figure shows
the bars of softmax(q·k/√6) over the sentence with the raw and scaled scores. Every query's row of
scores and weights is precomputed (the trained run of seed 0, engine/tasks/grammar.py `trained`), so
the view only looks up: text state i is query word i (`states` indexed like `words`); `parts` are the
templates of a matrix cell, a score and a weight, filled from {v}.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tasks import grammar
from .fmt import fixed, pairs, rounded
from .params import check_index, field
from .sentences import SEED, check_sentence

DECIMALS = {"matrix": 2, "score": 2, "weight": 3}  # digits printed; the data keeps one more
ROLES = (("q", "Q", "queries"), ("k", "K", "keys"), ("v", "V", "values"))


@dataclass(frozen=True)
class Params:
    sentence: str = field("The cat sat on the mat", doc="must follow the toy grammar")
    head: int = field(1, choices=(1, 2), doc="which of the model's two heads")
    query: int = field(1, lo=0, hi=grammar.MAX_LEN - 1, doc="the word whose query is selected first")

    def __post_init__(self):
        check_index("query", self.query, check_sentence(self.sentence), "words")


EXAMPLE = {"sentence": "a small bird hid behind the big tree", "head": 2, "query": 7}
BROKEN = ({"query": 7}, "query")  # options that break a rule of Params' own, and the option it names


def compute(p: Params) -> dict:
    run = grammar.trained(SEED)
    e = run.export(p.sentence, -1)
    h = e["heads"][p.head - 1]
    mats = {r: np.asarray(h[r]) for r, _, _ in ROLES}
    return {
        "words": e["words"],
        "head": p.head,
        "seed": SEED,
        "step": e["step"],
        "d_k": run.config.d_k,
        "root_d": float(np.sqrt(run.config.d_k)),
        **{r: rounded(m, DECIMALS["matrix"] + 1) for r, m in mats.items()},
        "extent": round(float(max(np.abs(m).max() for m in mats.values())), 3),  # the shading's full scale
        "scores": rounded(h["scores"], DECIMALS["score"] + 1),
        "scaled": rounded(h["scaled"], DECIMALS["score"] + 1),
        "weights": rounded(h["weights"], DECIMALS["weight"] + 1),
        "top": np.asarray(h["weights"]).argmax(axis=1).tolist(),  # each query's largest weight, marked in the bars
        "start": p.query,
    }


def _label(words, i: int) -> str:
    """A word and its place, since a sentence may hold a word twice ("the", 1st and 5th)."""
    return f"{words[i]} (word {i + 1})"


def _lines(data: dict, i: int) -> list[str]:
    words, d = data["words"], data["d_k"]
    return [f"Query of {_label(words, i)}: weights softmax(q·k/√{d}) "
            + pairs(words, data["weights"][i], DECIMALS["weight"]),
            "Raw scores q·k: " + pairs(words, data["scores"][i], DECIMALS["score"]),
            f"Scaled scores q·k/√{d} (÷ {fixed(data['root_d'], 3)}): " + pairs(words, data["scaled"][i], DECIMALS["score"])]


def text(p: Params, data: dict) -> dict:
    words, i, d = data["words"], opening_state(p, data), data["d_k"]
    top = int(np.argmax(data["weights"][i]))
    fixed_lines = [f"Head {data['head']} of the model trained for {data['step']} steps (seed {data['seed']}): "
                   f"{d} numbers per word in each of Q, K and V"]
    states = [{"numbers": _lines(data, j), "label": _label(words, j)} for j in range(len(words))]
    return {
        "alt": (f"Three small matrices for “{' '.join(words)}”, one row per word and {d} columns: queries Q "
                f"(orange), keys K (blue) and values V (green) of head {data['head']}. Below, bars of the weights "
                f"softmax(q·k/√{d}) for the query of {_label(words, i)}: the largest, "
                f"{fixed(data['weights'][i][top], DECIMALS['weight'])}, falls on {_label(words, top)}."),
        "numbers": states[i]["numbers"] + fixed_lines,
        "states": states,
        "fixed": fixed_lines,
        "parts": {"matrix": f"{{v:{DECIMALS['matrix']}}}", "score": f"{{v:{DECIMALS['score']}}}",
                  "weight": f"{{v:{DECIMALS['weight']}}}"},
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per word."""
    return len(data["words"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's query."""
    return data["start"]


def facts(p: Params, data: dict) -> dict:
    """The selected query's numbers at full precision, for the prose."""
    e = grammar.trained(SEED).export(p.sentence, -1)
    h, i = e["heads"][p.head - 1], data["start"]
    top = int(np.argmax(h["weights"][i]))
    return {"d_k": data["d_k"], "root_d": float(np.sqrt(data["d_k"])), "query_word": e["words"][i],
            "top_word": e["words"][top], "top_weight": float(h["weights"][i][top]),
            "top_score": float(h["scores"][i][top]), "top_scaled": float(h["scaled"][i][top])}
