"""your-sentence: the reader's own sentence through chapter 9's trained two-head model (engine/tasks/grammar.py).

The reader builds a sentence of the toy grammar from menus (one per slot of the grammar) or types
one; the model reads it and the figure shows both heads' weights and what both readouts name for
every word. Only the reader's sentence needs Python: the default sentence is embedded.
State i is the word the reader looks from (its row in both heads, its readouts); `text.states` is
indexed the same way and `start` is the verb. A sentence the grammar does not allow is refused with
a one-line reason in the reader's words that names the word and why (ParamError), found in one pass
over the words. The model is trained once per process (grammar.trained), so the worker's first
request trains it (0.1 s on CPython, a few seconds in Pyodide: docs/retrain-speed.md); the view sends
that request when the reader first focuses a control, so the training overlaps the choosing.
Trained in the worker, the weights are chapter 9's run to float32 rounding (about 1e-6), so the
worker's numbers agree with the build's to that, not bit for bit.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..tasks import grammar
from .fmt import fixed, rounded
from .params import ParamError, field
from .sentences import LEGEND

SENTENCE = "a big fox hid under the red box"
TOP = 3  # words listed per readout
WEIGHT_DECIMALS = 2
PROB_DECIMALS = 4
MAX_WORDS = grammar.MAX_LEN
MAX_CHARS = 16 * MAX_WORDS  # longer text cannot be a sentence of the grammar, whatever its spaces: refused unread
SHOWN_CHARS = 20  # a word quoted in a reason is cut to this
KINDS = {"det": "determiner", "adj": "adjective", "noun": "noun", "verb": "verb", "prep": "preposition"}
ARTICLE = {"det": "a", "adj": "an", "noun": "a", "verb": "a", "prep": "a"}
READOUTS = {"attached": "the word it attaches to", "previous": "the previous word"}
KIND_OF = {w: slot for slot, pool in zip(grammar.SLOTS, grammar.SLOT_POOLS) for w in pool}


@dataclass(frozen=True)
class Params:
    sentence: str = field(SENTENCE, doc="the reader's sentence: det [adj] noun verb prep det [adj] noun")
    seed: int = field(0, lo=0, hi=3, doc="which of chapter 9's reported runs reads it")

    def __post_init__(self):
        self.read  # a sentence the grammar does not allow is refused here, and read only here

    @cached_property
    def read(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The words and their slots, read once as the Params is built (a value of its frozen fields, not state)."""
        words, slots = read(self.sentence)
        return tuple(words), tuple(slots)


EXAMPLE = {"seed": 1, "sentence": "The small cat slept near a tree."}
BROKEN = ({"sentence": "the cat sat on the"}, "sentence")  # breaks a rule of Params' own; names that option


def _quoted(word: str) -> str:
    """A word as a reason quotes it: cut short, anything unprintable shown as '?'."""
    shown = "".join(c if c.isprintable() else "?" for c in word[:SHOWN_CHARS])
    return f"“{shown}{'…' if len(word) > SHOWN_CHARS else ''}”"


def _expected(slot: int) -> str:
    """What may stand at `slot`: its kind with its words, and the next kind when the slot is optional."""
    kinds = [slot] + ([slot + 1] if slot in grammar.OPTIONAL_SLOTS else [])
    return " or ".join(f"{ARTICLE[grammar.SLOTS[s]]} {KINDS[grammar.SLOTS[s]]} ({', '.join(grammar.SLOT_POOLS[s])})"
                       for s in kinds)


def _kind(word: str) -> str:
    return f"{ARTICLE[KIND_OF[word]]} {KINDS[KIND_OF[word]]}"


def read(text: str) -> tuple[list[str], list[int]]:
    """The words of `text` and the grammar slot of each, or ParamError with the one-line reason a reader
    is told. Upper case and a full stop at the end are allowed; each word is checked once, in order."""
    if len(text) > MAX_CHARS:
        raise ParamError("sentence", f"The model reads one sentence of at most {MAX_WORDS} words.")
    words = text.strip().rstrip(".").lower().split()
    if not words:
        raise ParamError("sentence", "Type a sentence, or pick its words from the menus.")
    slots, slot = [], 0  # slot: the first slot the next word may fill
    for i, w in enumerate(words):
        if slot == MAX_WORDS:
            raise ParamError("sentence", f"{_quoted(w)} comes after the sentence is complete: it ends with its "
                                         "second noun.")
        if w not in KIND_OF:
            raise ParamError("sentence", f"{_quoted(w)} is not one of the model's {len(grammar.VOCAB)} words: "
                                         f"here it needs {_expected(slot)}.")
        fits = [s for s in (slot, slot + 1) if s < MAX_WORDS and w in grammar.SLOT_POOLS[s]
                and (s == slot or slot in grammar.OPTIONAL_SLOTS)]
        if not fits:
            where = "a sentence starts with" if i == 0 else f"after {_quoted(words[i - 1])} comes"
            raise ParamError("sentence", f"{_quoted(w)} is {_kind(w)}, but {where} {_expected(slot)}.")
        slots.append(fits[0])
        slot = fits[0] + 1
    if slot < MAX_WORDS:
        raise ParamError("sentence", f"The sentence stops too soon: after {_quoted(words[-1])} comes "
                                     f"{_expected(slot)}.")
    return words, slots


def menus() -> list[dict]:
    """The grammar's slots as the view's menus: each one's kind and words; optional ones may stay empty."""
    optional = grammar.OPTIONAL_SLOTS
    return [{"kind": KINDS[k], "words": list(pool), "none": "(none)" if s in optional else None,
             "label": f"Place {s + 1}: {ARTICLE[k]} {KINDS[k]}" + (", or none" if s in optional else "")}
            for s, (k, pool) in enumerate(zip(grammar.SLOTS, grammar.SLOT_POOLS))]


def compute(p: Params) -> dict:
    words, slots = map(list, p.read)
    run = grammar.trained(p.seed)
    s = grammar.parse(" ".join(words))
    n = len(words)
    x = grammar.encode(s.words[:, :n])  # (1, n, D)
    logits, (_, att) = grammar.model_forward(run.params, x, np.ones((1, n), dtype=bool))  # (2, W, n)
    z = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)  # (2, W, n)
    targets = {t: s.targets[0, :n, j].tolist() for j, t in enumerate(grammar.TARGETS)}
    readouts = {}
    for j, t in enumerate(grammar.TARGETS):
        rows = []
        for i in range(n):
            order = np.argsort(-probs[j, :, i], kind="stable")[:TOP]
            rows.append([[grammar.VOCAB[v], round(float(probs[j, v, i]), PROB_DECIMALS), fixed(float(probs[j, v, i]), 2)]
                         for v in order])  # word, probability, as the page prints it
        readouts[t] = rows
    chosen = [-1] * MAX_WORDS  # per menu, the index of its word, -1 for an empty optional slot
    for w, slot in zip(words, slots):
        chosen[slot] = grammar.SLOT_POOLS[slot].index(w)
    return {
        "seed": p.seed,
        "sentence": " ".join(words),
        "words": words,
        "slots": slots,
        "menus": menus(),
        "columns": ["Word", "Attached word", "Previous word"],  # the readouts' table: what each names
        "chosen": chosen,
        "targets": targets,
        "heads": [rounded(h, WEIGHT_DECIMALS) for h in att.weights[0]],  # (H, n, n)
        "readouts": readouts,
        "right": {t: [int(readouts[t][i][0][0] == words[targets[t][i]]) for i in range(n)] for t in grammar.TARGETS},
        "start": next(i for i, slot in enumerate(slots) if grammar.SLOTS[slot] == "verb"),
    }


def _state_lines(data: dict, i: int) -> list[str]:
    words = data["words"]
    lines = []
    for h, head in enumerate(data["heads"]):
        j = int(np.argmax(head[i]))
        lines.append(f"Head {h + 1}: {words[i]} (word {i + 1}) reads {words[j]} (word {j + 1}) most, "
                     f"with weight {fixed(head[i][j], 2)}")
    for t in grammar.TARGETS:
        top = data["readouts"][t][i]
        want = words[data["targets"][t][i]]
        verdict = "right" if data["right"][t][i] else f"wrong: the grammar says {want}"
        lines.append(f"Readout for {READOUTS[t]}: {top[0][0]} with probability {top[0][2]} ({verdict}), then "
                     + ", ".join(f"{w} {label}" for w, _, label in top[1:]))
    return lines


def text(p: Params, data: dict) -> dict:
    n = len(data["words"])
    fixed_lines = [f"Sentence: {data['sentence']}, read by the trained two-head model (seed {data['seed']}); "
                   f"the readouts name {sum(data['right']['attached'])} of {n} attached words and "
                   f"{sum(data['right']['previous'])} of {n} previous words as the grammar does"]
    k = opening_state(p, data)
    return {
        "alt": (f"The trained two-head model of chapter 9 reading “{data['sentence']}”: both heads' attention weights, "
                "one grid per head with a row per word and each word's targets outlined, and the word each readout "
                f"names for every word. Looking from {data['words'][k]}: " + ". ".join(_state_lines(data, k)) + ". "
                + fixed_lines[0] + "."),
        "numbers": _state_lines(data, k) + fixed_lines,
        "states": [{"numbers": _state_lines(data, i), "label": f"{w} (word {i + 1})"} for i, w in enumerate(data["words"])],
        "fixed": fixed_lines,
        "legend": LEGEND,  # the grids are two-heads' grids: one legend for both figures, views and fallbacks
        "cells": {t: [f"{top[0][0]} {top[0][2]}" + ("" if ok else " ✗") for top, ok in zip(data["readouts"][t], data["right"][t])]
                  for t in grammar.TARGETS},  # the readouts' table: the word each names, how sure, ✗ where wrong
        "hint": ("Pick a word for each place, or type a sentence and press Read: a determiner, perhaps an adjective, "
                 "a noun, a verb, a preposition, a determiner, perhaps an adjective, a noun."),
        "reading": "Reading your sentence… (the first time, Python trains the model first)",
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per word."""
    return len(data["words"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's word."""
    return data["start"]


LIVE = True  # the reader's sentence is computed by the worker


def facts(p: Params, data: dict) -> dict:
    """For the prose: how many sentences the grammar allows against how many training saw, and where
    each head looks from the verb, whose two targets are one word."""
    run = grammar.trained(p.seed)
    k = data["start"]
    words = data["words"]
    looks = [int(np.argmax(h[k])) for h in data["heads"]]
    return {"sentences": int(np.prod([len(pool) + (s in grammar.OPTIONAL_SLOTS) for s, pool in enumerate(grammar.SLOT_POOLS)])),
            "trained_on": len(run.seen()), "verb": words[k], "sentence": data["sentence"],
            "subject": words[data["targets"]["attached"][k]],
            "looks": [{"word": words[j], "weight": data["heads"][h][k][j]} for h, j in enumerate(looks)],
            "named": data["readouts"]["attached"][k][0][0]}
