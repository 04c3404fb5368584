"""value-sum: the output of "it" built term by term, each weight times its word's value, largest weight first.

The head is chapter 1's hand-set one (`engine/tasks/winograd.py`); both last words are computed
every time, so the tired/wide toggle and the step control only choose what the view shows. Text
states are indexed like `last_words`; `parts` are the templates of one weight and of one coordinate.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tasks import winograd
from .fmt import fixed
from .params import field


@dataclass(frozen=True)
class Params:
    last: str = field("tired", choices=winograd.LAST_WORDS, doc="the last word shown first")


EXAMPLE = {"last": "wide"}


def _mode(last: str) -> dict:
    r = winograd.run(last)
    w = r["weights"][winograd.IT]  # (T,) where "it" looks
    v = r["values"]  # (T, 2)
    order = [int(i) for i in np.argsort(-w, kind="stable")]  # largest weight first
    terms = w[order, None] * v[order]  # (T, 2) weight times value, in that order
    running = np.vstack([np.zeros((1, 2)), np.cumsum(terms, axis=0)])  # (T+1, 2) the sum after k terms
    return {
        "words": list(r["words"]),
        "weights": w.tolist(),
        "values": v.tolist(),
        "order": order,
        "terms": terms.tolist(),
        "running": running.tolist(),
        "output": r["outputs"][winograd.IT].tolist(),  # the engine's own output row
    }


def compute(p: Params) -> dict:
    return {
        "it": winograd.IT,
        "last_words": list(winograd.LAST_WORDS),
        "modes": {last: _mode(last) for last in winograd.LAST_WORDS},
    }


def _pair(v) -> str:
    return f"({fixed(v[0])}, {fixed(v[1])})"


def _state(last: str, mode: dict) -> dict:
    out = _pair(mode["output"])
    terms = ", ".join(f"{fixed(mode['weights'][i])} × {mode['words'][i]} {_pair(mode['values'][i])}"
                      for i in mode["order"])
    top = mode["words"][mode["order"][0]]
    return {
        "numbers": [f"Last word “{last}”: the output of “it” is {out}",
                    f"Weight × value, largest weight first: {terms}"],
        "label": f"With “{last}”, the output of “it” is {out}, almost all of it from the value of “{top}”",
    }


def text(p: Params, data: dict) -> dict:
    states = [_state(last, data["modes"][last]) for last in data["last_words"]]
    parts = [f"with “{last}” it ends at {_pair(data['modes'][last]['output'])}" for last in data["last_words"]]
    return {
        "alt": ("A plane with the two-number values of the eleven words of “The animal didn't cross the street "
                "because it was too …”, and the output of “it” drawn as a chain of arrows, one per word, "
                "each its weight times its value, largest first: " + "; ".join(parts) + "."),
        "numbers": states[opening_state(p, data)]["numbers"],
        "states": states,
        "parts": {"weight": "{v:2}", "number": "{v:2}"},
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per last word."""
    return len(data["last_words"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the last word the options name."""
    return data["last_words"].index(p.last)


def facts(p: Params, data: dict) -> dict:
    tired, wide = data["modes"]["tired"], data["modes"]["wide"]
    first = tired["order"][0]
    return {
        "tired_output": tired["output"],
        "wide_output": wide["output"],
        "tired_top_word": tired["words"][first],
        "tired_top_weight": tired["weights"][first],
        "tired_first_term": tired["terms"][0],
        # What the other ten terms add together, after the largest.
        "tired_rest": (np.array(tired["output"]) - np.array(tired["terms"][0])).tolist(),
        "tired_largest_other_term": float(np.abs(tired["terms"][1:]).max()),
        "other_terms": len(tired["words"]) - 1,
        "animal_value": tired["values"][tired["words"].index("animal")],
        "street_value": tired["values"][tired["words"].index("street")],
    }
