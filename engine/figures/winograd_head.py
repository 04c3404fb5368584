"""winograd-head: where "it" looks in "The animal didn't cross the street because it was too tired/wide".

The head is the hand-set one in `engine/tasks/winograd.py` (six numbers per word); the
weights come from `attention_forward`. Both last words are computed every time, so the
toggle only switches between them in the view; changing the head's options asks the worker.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..tasks import winograd
from .params import ParamError, field


@dataclass(frozen=True)
class Params:
    last: str = field("tired")  # the last word shown first: "tired" or "wide"
    copied: float = field(winograd.COPIED, lo=0.0, hi=1.0)  # share of the last word copied into "it"
    strength: float = field(winograd.STRENGTH, lo=0.0, hi=10.0)  # scale of the query matrix


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
    if p.last not in winograd.LAST_WORDS:
        raise ParamError("last", f"option 'last' must be one of {', '.join(winograd.LAST_WORDS)}, not {p.last!r}")
    modes = {last: _mode(last, p) for last in winograd.LAST_WORDS}
    tired, wide = modes["tired"], modes["wide"]
    animal, street = tired["words"].index("animal"), wide["words"].index("street")
    return {
        "features": list(winograd.FEATURES),
        "it": winograd.IT,
        "last_words": list(winograd.LAST_WORDS),
        "modes": modes,
        "facts": {
            "numbers_per_word": len(winograd.FEATURES),
            # The sentences as text, so the prose quotes the very words the figure uses.
            "sentence_tired": " ".join(tired["words"]),
            "sentence_wide": " ".join(wide["words"]),
            "words_after_it": len(tired["words"]) - 1 - winograd.IT,  # how far the deciding word sits after "it"
            "n_words": len(tired["words"]),
            "tired_top_word": tired["words"][tired["top"]],
            "wide_top_word": wide["words"][wide["top"]],
            "tired_animal_weight": tired["weights"][animal],
            "wide_street_weight": wide["weights"][street],
            "tired_street_weight": tired["weights"][street],
            "wide_animal_weight": wide["weights"][animal],
            # The largest weight on any word other than animal and street, over both sentences.
            "largest_other_weight": max(w for m in (tired, wide) for i, w in enumerate(m["weights"])
                                        if i not in (animal, street)),
            "copied": p.copied,
            "strength": p.strength,
        },
    }
