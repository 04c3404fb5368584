"""query-matrix: where the query of "it" comes from, in the hand-set head of the pronoun sentence.

The query of "it" is its six-number description times the query matrix W_Q (6 x 2) of the
head of chapter 1 (engine.tasks.winograd). Two knobs: how much of the describing word at
the end (tired or wide) an earlier layer copied into "it", and the strength of W_Q. The
model precomputes every slider position for both last words (11 copy amounts x 11
strengths x 2 words by default), so the view only looks results up.
Text: 242 states of two lines would repeat the data's words and numbers, so the text has
`templates`, filled for the state on screen from `text.scope` (SCOPE below: the words, query and
weights of sentences[last_words[w]] at copies[c] and strengths[s], read by engine/figures/fmt.py
`scope_at`; states are flattened as (w * len(copies) + c) * len(strengths) + s; "{weights.3:2}" is
item 3 to 2 decimals, `fill`). `parts` are the templates of the short texts the view places in
the tables, at the bars and by the sliders, each filled from {v} (a slider's from the scope).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tasks import winograd as head
from .fmt import fill_all, fixed, rounded, scope_at
from .params import ParamError, field

MAX_STOPS = 41  # slider positions per slider at most
TARGET = {"tired": 1, "wide": 5}  # the word "it" should find: animal, street


@dataclass(frozen=True)
class Params:
    last_word: str = field("tired", choices=head.LAST_WORDS, doc="the sentence the figure opens on")
    copy: float = field(head.COPIED, lo=0.0, hi=1.0, doc="where the copy slider starts")
    strength: float = field(head.STRENGTH, lo=0.0, hi=20.0, doc="where the strength slider starts")
    copy_stops: int = field(11, lo=2, hi=MAX_STOPS, doc="copy slider positions, evenly from 0 to 1")
    max_strength: float = field(10.0, lo=1.0, hi=20.0, doc="right end of the strength slider")
    strength_stops: int = field(11, lo=2, hi=MAX_STOPS, doc="strength slider positions, evenly from 0")

    def __post_init__(self):
        if self.strength > self.max_strength:
            raise ParamError("strength", f"option 'strength' ({self.strength:g}) must not exceed 'max_strength' "
                                         f"({self.max_strength:g})")


EXAMPLE = {"last_word": "wide", "copy_stops": 3, "strength_stops": 4, "copy": 0.25}
BROKEN = ({"strength": 15}, "strength")  # options that break a rule of Params' own, and the option it names


def _grid(lo, hi, stops, start):
    """Slider stops, kept to 4 decimals: they print as written ("0.6", "0.025"), and a template prints a
    number as written only from 0.0001 up (engine/figures/fmt.py `fill`)."""
    values = np.round(np.linspace(lo, hi, stops), 4)  # (S,)
    values = np.unique(np.append(values, round(start, 4)))  # (S',) the start is always a stop
    return values, int(np.argmin(np.abs(values - start)))


def query_matrix(strength: float) -> np.ndarray:
    return head.matrices(strength)[0][0]  # (6, 2)


def compute(p: Params) -> dict:
    copies, copy_start = _grid(0.0, 1.0, p.copy_stops, p.copy)
    strengths, strength_start = _grid(0.0, p.max_strength, p.strength_stops, p.strength)
    sentences = {}
    for last in head.LAST_WORDS:
        described = np.stack([head.embeddings(last, c)[head.IT] for c in copies])  # (C, 6) "it" per copy
        queries = np.empty((len(copies), len(strengths), 2))  # (C, S, 2)
        weights = np.empty((len(copies), len(strengths), len(head.words(last))))  # (C, S, T)
        for i, c in enumerate(copies):
            for j, s in enumerate(strengths):
                run = head.run(last, c, s)
                queries[i, j] = run["queries"][head.IT]  # (2,)
                weights[i, j] = run["weights"][head.IT]  # (T,)
        sentences[last] = {
            "words": list(head.words(last)),
            "target": TARGET[last],
            "described": described.tolist(),
            "queries": rounded(queries, 2),  # as shown: 2 decimals
            "weights": np.round(weights, 2).tolist(),
        }
    return {
        "features": list(head.FEATURES),
        "query_matrices": [np.round(query_matrix(s), 4).tolist() for s in strengths],  # (S, 6, 2) one per stop, as printed (parts.matrix)
        "last_words": list(head.LAST_WORDS),
        "copies": copies.tolist(),
        "strengths": strengths.tolist(),
        "start": {"last_word": p.last_word, "copy": copy_start, "strength": strength_start},
        "sentences": sentences,
    }


def state_index(data: dict, last: str, c: int, s: int) -> int:
    """The text state of sentence `last` at copies[c] and strengths[s]."""
    return (data["last_words"].index(last) * len(data["copies"]) + c) * len(data["strengths"]) + s


SCOPE = {  # the values the templates name in state i (flattened like `state_index`)
    "index": [["w", "last_words"], ["c", "copies"], ["s", "strengths"]],
    "values": {"last": "last_words[w]", "copy": "copies[c]", "strength": "strengths[s]",
               "words": "sentences[last].words", "query": "sentences[last].queries[c][s]",
               "weights": "sentences[last].weights[c][s]"},
}


def templates(n_words: int) -> list[str]:
    """The key-number lines, with a slot for each of the sentence's n_words weights."""
    return ["Copied {copy} of {last} into it, query matrix strength {strength}: query ({query.0:2}, {query.1:2})",
            "Weights of it: " + ", ".join(f"{{words.{j}}} {{weights.{j}:2}}" for j in range(n_words))]


PARTS = {
    "described": "{v:2}",  # a number of the description of "it"
    "matrix": "{v}",  # an entry of the query matrix, as embedded (whole or one decimal at the default stops)
    "query": "{v:2}",
    "weight": "{v:2}",  # the label at a weight bar
    "copy": "{copy} of {last}",  # the copy slider's output and valuetext
    "strength": "{strength}",  # the strength slider's output ("strength " before it in its valuetext)
}


def text(p: Params, data: dict) -> dict:
    lengths = {len(s["words"]) for s in data["sentences"].values()}
    assert len(lengths) == 1, "every ending's sentence has the same number of words"  # one set of templates
    lines = templates(lengths.pop())
    start = data["start"]
    sentence = data["sentences"][start["last_word"]]
    target = sentence["target"]
    curve = [w[target] for w in sentence["weights"][start["copy"]]]
    copy, strength = data["copies"][start["copy"]], data["strengths"][start["strength"]]
    return {
        "alt": (f"Line chart of how much attention it pays to {sentence['words'][target]} as the query matrix gets "
                f"stronger, from {fixed(curve[0])} at strength 0 to {fixed(curve[-1])} at strength "
                f"{data['strengths'][-1]:g} with copy {copy:g}; at strength {strength:g} the weight is "
                f"{fixed(curve[start['strength']])}, and bars show every word's weight there."),
        "numbers": fill_all(lines, scope_at(SCOPE, data, opening_state(p, data))),
        "templates": lines,
        "scope": SCOPE,
        "parts": PARTS,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per last word, copy and strength."""
    return len(data["last_words"]) * len(data["copies"]) * len(data["strengths"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the options' last word, copy and strength (`state_index`)."""
    return state_index(data, data["start"]["last_word"], data["start"]["copy"], data["start"]["strength"])


def _weights_of_it(last, copied, strength):
    return head.run(last, copied, strength)["weights"][head.IT]  # (T,)


def facts(p: Params, data: dict) -> dict:
    """The numbers the prose quotes, at the head's own settings (copied 0.6, strength 5) unless named."""
    animal, street = TARGET["tired"], TARGET["wide"]
    at = {s: _weights_of_it("tired", head.COPIED, s) for s in (1.0, head.STRENGTH, 8.0)}
    others_1 = np.delete(at[1.0], animal)  # (T-1,)
    nothing = _weights_of_it("tired", 0.0, head.STRENGTH)  # (T,)
    return {
        "copy": head.COPIED,
        "strength": head.STRENGTH,
        "query": head.run("tired")["queries"][head.IT].tolist(),
        "animal_default": float(at[head.STRENGTH][animal]),
        "street_default_wide": float(_weights_of_it("wide", head.COPIED, head.STRENGTH)[street]),
        "animal_at_8": float(at[8.0][animal]),
        "animal_at_1": float(at[1.0][animal]),
        "others_at_1_min": float(others_1.min()),
        "others_at_1_max": float(others_1.max()),
        "nothing_copied_weight": float(nothing.max()),
    }
