"""winograd-head: where "it" looks in "The animal didn't cross the street because it was too tired/wide".

The head is the hand-set one in `engine/tasks/winograd.py` (six numbers per word); the
weights come from `attention_forward`. Both last words are computed every time, so the
toggle only switches between them in the view; changing the head's options asks the worker.
Text states are indexed like `last_words`: state i describes `modes[last_words[i]]`, with the
SVG's aria-label as its "label" and the label at each weight bar as its "bars"; `parts.cell` is the
template of a cell of the table of each word's numbers, filled from {v}.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..tasks import winograd
from .fmt import pairs, percent
from .params import field


@dataclass(frozen=True)
class Params:
    last: str = field("tired", choices=winograd.LAST_WORDS, doc="the last word shown first")
    copied: float = field(winograd.COPIED, lo=0.0, hi=1.0, doc="share of the last word copied into \"it\"")
    strength: float = field(winograd.STRENGTH, lo=0.0, hi=10.0, doc="scale of the query matrix")


EXAMPLE = {"last": "wide", "strength": 2}


def _mode(last: str, p: Params) -> dict:
    r = winograd.run(last, p.copied, p.strength)
    row = r["weights"][winograd.IT]  # (T,) where "it" looks
    top = int(row.argmax())
    return {
        "words": list(r["words"]),
        "vectors": r["x"].tolist(),  # (T, 6) the six numbers per word
        "weights": row.tolist(),
        "top": top,
    }


def compute(p: Params) -> dict:
    return {
        "features": list(winograd.FEATURES),
        "it": winograd.IT,
        "last_words": list(winograd.LAST_WORDS),
        "modes": {last: _mode(last, p) for last in winograd.LAST_WORDS},
    }


def _state(last: str, mode: dict) -> dict:
    top = mode["top"]
    return {
        "numbers": [f"Last word “{last}”, attention from “it”: " + pairs(mode["words"], mode["weights"])],
        "label": f"With “{last}”, “it” puts {percent(mode['weights'][top])} of its attention on “{mode['words'][top]}”",
        "bars": [percent(w) for w in mode["weights"]],
    }


def text(p: Params, data: dict) -> dict:
    modes = [(last, data["modes"][last]) for last in data["last_words"]]
    parts = []
    for last, mode in modes:
        top, w = mode["top"], mode["weights"]
        parts.append(f"with “{last}”, “it” puts {w[top]:.2f} of its attention on “{mode['words'][top]}” "
                     f"and at most {max(x for i, x in enumerate(w) if i != top):.2f} on any other word")
    states = [_state(last, mode) for last, mode in modes]
    return {
        "alt": ("Two bar charts of the attention weights of the word “it” over the sentence "
                "“The animal didn't cross the street because it was too …”: " + "; ".join(parts) + "."),
        "numbers": states[opening_state(p, data)]["numbers"],
        "states": states,
        "parts": {"cell": "{v:1}"},  # the hand-set numbers have one decimal
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per last word."""
    return len(data["last_words"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the last word the options name."""
    return data["last_words"].index(p.last)


def facts(p: Params, data: dict) -> dict:
    tired, wide = data["modes"]["tired"], data["modes"]["wide"]
    animal, street = tired["words"].index("animal"), wide["words"].index("street")
    return {
        "numbers_per_word": len(data["features"]),
        # The sentences as text, so the prose quotes the very words the figure uses.
        "sentence_tired": " ".join(tired["words"]),
        "sentence_wide": " ".join(wide["words"]),
        "words_after_it": len(tired["words"]) - 1 - data["it"],  # how far the deciding word sits after "it"
        "tired_animal_weight": tired["weights"][animal],
        "wide_street_weight": wide["weights"][street],
        # The largest weight on any word other than animal and street, over both sentences.
        "largest_other_weight": max(w for m in (tired, wide) for i, w in enumerate(m["weights"])
                                    if i not in (animal, street)),
        "copied": p.copied,
    }
