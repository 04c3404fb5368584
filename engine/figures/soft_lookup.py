"""soft-lookup: a hard and a soft lookup of one query word against a few keys.

A key's score is the number of letter pairs (bigrams) it shares with the query, counting a
start mark "^" and an end mark "$", so "cat" has ^c, ca, at, t$. A hard lookup gives all
the weight to the key equal to the query (none if there is none); a soft lookup gives
softmax(scores). Both modes are in the data, so switching between them needs no Python.
Text states are indexed like `modes`: state m has no key numbers of its own (both modes list the
same `text.fixed` lines) and its "label" is the result sentence under the table. `text.details`
is indexed like `entries`: the sentence about key i when the reader points at it. `text.parts[mode]`
is the template of a weight's label in that mode (whole numbers when hard, two decimals when soft).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..attention import softmax_forward
from .fmt import fill
from .params import ParamError, field

START, END = "^", "$"
MODES = ("hard", "soft")
WORD = re.compile(r"[a-z]{1,12}")
DECIMALS = {"hard": 0, "soft": 2}  # a hard weight is 0 or 1; a soft one needs its decimals
PARTS = {mode: f"{{v:{d}}}" for mode, d in DECIMALS.items()}  # shipped as text.parts: each mode's weight label


@dataclass(frozen=True)
class Params:
    query: str = field("cat", doc="the word looked up")
    keys: tuple[str, ...] = field(("cat", "coat", "cow", "dog", "hat"), length=(2, 8), doc="the entries, in order")
    values: tuple[str, ...] = field((
        "a small animal that purrs",
        "a warm thing to wear outside",
        "a farm animal that gives milk",
        "an animal that barks",
        "something worn on the head",
    ), length=(2, 8), doc="what each entry holds, one per key")
    mode: str = field("hard", choices=MODES, doc="the mode the figure opens in")

    def __post_init__(self):
        for name, word in [("query", self.query), *((f"keys[{i}]", k) for i, k in enumerate(self.keys))]:
            if not WORD.fullmatch(word):
                raise ParamError(name.split("[")[0], f"option '{name}' must be 1 to 12 lower-case letters a-z, not {word!r}")
        if len(set(self.keys)) != len(self.keys):
            raise ParamError("keys", "option 'keys' must not repeat a key (a dictionary has one entry per word)")
        if len(self.values) != len(self.keys):
            raise ParamError("values", f"option 'values' needs one value per key ({len(self.keys)}), not {len(self.values)}")


EXAMPLE = {"query": "dot", "keys": ["dog", "dot"], "values": ["a", "b"], "mode": "soft"}
BROKEN = ({"values": ["x"]}, "values")  # options that break a rule of Params' own, and the option it names


def bigrams(word: str) -> list[str]:
    """The letter pairs of word, with start and end marks: cat -> ^c, ca, at, t$."""
    marked = START + word + END
    return [marked[i:i + 2] for i in range(len(marked) - 1)]


def shared_bigrams(query: str, key: str) -> list[str]:
    """The key's letter pairs that the query also has (each pair counted as often as both have it)."""
    left = Counter(bigrams(query))
    out = []
    for pair in bigrams(key):
        if left[pair] > 0:
            left[pair] -= 1
            out.append(pair)
    return out


def compute(p: Params) -> dict:
    shared = [shared_bigrams(p.query, k) for k in p.keys]
    scores = np.array([len(s) for s in shared], dtype=float)  # (n,) letter pairs in common
    soft, _ = softmax_forward(scores)  # (n,)
    hard = np.array([1.0 if k == p.query else 0.0 for k in p.keys])  # (n,) all or nothing
    entries = [{
        "key": k, "bigrams": bigrams(k), "shared": s, "score": int(sc),
        "hard": float(h), "soft": float(w), "value": v,
    } for k, s, sc, h, w, v in zip(p.keys, shared, scores, hard, soft, p.values)]
    return {
        "query": p.query,
        "query_bigrams": bigrams(p.query),
        "entries": entries,
        "modes": list(MODES),
        "mode": p.mode,
    }


def _weight(e: dict, mode: str) -> str:
    """Key e's weight in mode, as the view labels its bar."""
    return fill(PARTS[mode], {"v": e[mode]})


def _result(data: dict, mode: str) -> str:
    entries = data["entries"]
    if mode == "hard":
        hit = next((e for e in entries if e["hard"] == 1), None)
        return (f"Result: the value of {hit['key']} and nothing else: “{hit['value']}”." if hit
                else f"Result: nothing, since no key is exactly {data['query']}.")
    blend = sorted(entries, key=lambda e: -e["soft"])  # stable: equal weights keep the keys' order
    return "Result: a blend of every value, " + ", ".join(f"{_weight(e, 'soft')} of {e['key']}" for e in blend) + "."


def _detail(data: dict, e: dict) -> str:
    pairs = f" ({', '.join(e['shared'])})" if e["shared"] else ""
    return (f"{e['key']} shares {e['score']} of the {len(data['query_bigrams'])} letter pairs of "
            f"{data['query']}{pairs}: score {e['score']}, weight {_weight(e, 'soft')} in the soft lookup, "
            f"{_weight(e, 'hard')} in the hard one.")


def text(p: Params, data: dict) -> dict:
    entries = data["entries"]
    lines = [
        f"Scores (letter pairs shared with {data['query']}): " + ", ".join(f"{e['key']} {e['score']}" for e in entries),
        "Hard lookup weights: " + ", ".join(f"{e['key']} {_weight(e, 'hard')}" for e in entries),
        "Soft lookup weights: " + ", ".join(f"{e['key']} {_weight(e, 'soft')}" for e in entries),
    ]
    match = next((e["key"] for e in entries if e["hard"] == 1), None)
    hard = f"the hard lookup gives all the weight to {match}" if match else "the hard lookup finds no exact match"
    soft = ", ".join(f"{e['key']} {_weight(e, 'soft')}" for e in entries)
    return {
        "alt": (f"Two bar charts of lookup weights for the query {data['query']} against the keys "
                + ", ".join(e["key"] for e in entries) + f": {hard}; the soft lookup spreads it as {soft}."),
        "numbers": lines,
        "states": [{"numbers": [], "label": _result(data, m)} for m in data["modes"]],
        "fixed": lines,
        "details": [_detail(data, e) for e in entries],
        "parts": PARTS,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per mode."""
    return len(data["modes"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's mode."""
    return data["modes"].index(data["mode"])


def facts(p: Params, data: dict) -> dict:
    entries = data["entries"]
    top = max(entries, key=lambda e: e["soft"])
    return {
        "scores": {e["key"]: e["score"] for e in entries},
        "soft": {e["key"]: e["soft"] for e in entries},
        "query_pairs": len(data["query_bigrams"]),
        "soft_elsewhere": 1.0 - top["soft"],
        "exp_sum": float(np.exp([e["score"] for e in entries]).sum()),
    }
