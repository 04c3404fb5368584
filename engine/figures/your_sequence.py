"""your-sequence: the reader's own letters through chapter 13's trained two-layer model (engine/tasks/induction.py).

The reader types letters from the model's vocabulary; the model reads them after its start token,
and for every position the figure shows layer 2's two heads (causal rows) and the model's guesses
for the next letter. Only the reader's sequence needs Python: the default sequence is embedded.
State i is the position the reader looks from (its row of both heads, its guesses); `text.states`
is indexed the same way and `start` is the last position, whose guess is the sequence's next letter.
A sequence the model cannot read is refused with a one-line reason in the reader's words (ParamError).
The model is trained once per process (induction.trained), so the worker's first request trains it
(about 1 s on CPython, a few in Pyodide: benchmarks/induction.py); the view sends that request when
the reader first focuses the text box, so the training overlaps the typing.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..decoder import decoder_forward, head_weights
from ..tasks import induction
from .fmt import fixed, rounded
from .letters import CONFIG, LETTERS, START
from .params import ParamError, field

MAX_LETTERS = CONFIG.length - 1  # the start token takes the first of the model's positions
TOP = 3  # guesses listed per position
WEIGHT_DECIMALS = 2
PROB_DECIMALS = 4
NAMES = LETTERS + START  # the model's outputs: every letter, and the start token (never a target, seldom guessed)


@dataclass(frozen=True)
class Params:
    sequence: str = field("PANCAKEPAN", doc="the reader's letters (spaces ignored, either case)")
    seed: int = field(0, lo=0, hi=4, doc="which of chapter 13's reported runs reads it")

    def __post_init__(self):
        self.read  # a sequence the model cannot read is refused here, and read only here

    @cached_property
    def read(self) -> str:
        """The letters the model reads, read once as the Params is built (a value of its frozen fields, not state)."""
        return letters(self.sequence)


EXAMPLE = {"seed": 1, "sequence": "dog bag dog"}
BROKEN = ({"sequence": "123"}, "sequence")  # options that break a rule of Params' own, and the option it names


def letters(text: str) -> str:
    """The letters the model reads, or ParamError with the reason a reader is told."""
    if len(text) > 10 * MAX_LETTERS:  # nothing longer can be fixed by dropping spaces: say so without scanning it
        raise ParamError("sequence", f"The model reads at most {MAX_LETTERS} letters.")
    seq = "".join(text.split()).upper()
    bad = next((c for c in seq if c not in LETTERS), None)
    if bad is not None:
        raise ParamError("sequence", f"“{bad}” is not one of the model's letters: it knows only {LETTERS[0]} to "
                                     f"{LETTERS[-1]}.")
    if not seq:
        raise ParamError("sequence", f"Type at least one letter from {LETTERS[0]} to {LETTERS[-1]}.")
    if len(seq) > MAX_LETTERS:
        raise ParamError("sequence", f"The model reads at most {MAX_LETTERS} letters; this has {len(seq)}.")
    return seq


def copies(tokens) -> list[list[int]]:
    """Per position, the positions that follow an earlier copy of its token (up to itself): where an
    induction head should look, and whose letters it would predict."""
    x = list(tokens)
    return [[j for j in range(1, i + 1) if x[j - 1] == x[i]] for i in range(len(x))]


def compute(p: Params) -> dict:
    seq = p.read
    run = induction.trained(p.seed)
    tokens = np.array([[CONFIG.bos] + [LETTERS.index(c) for c in seq]])  # (1, T)
    logits, cache = decoder_forward(run.params, tokens)  # (N, T)
    z = logits - logits.max(axis=0)
    probs = np.exp(z) / np.exp(z).sum(axis=0)  # (N, T)
    heads = head_weights(cache, 2)[0]  # (H, T, T)
    head = run.induction_head()[0]
    guesses = []
    for i in range(tokens.shape[1]):
        order = np.argsort(-probs[:, i], kind="stable")[:TOP]
        guesses.append([[NAMES[t], round(float(probs[t, i]), PROB_DECIMALS), fixed(float(probs[t, i]), 2)]
                        for t in order])  # letter, probability, as the bar labels it
    return {
        "seed": p.seed,
        "sequence": seq,
        "letters": LETTERS,
        "max_letters": MAX_LETTERS,
        "tokens": [START] + list(seq),
        "head": head,
        "heads": [[rounded(row[:i + 1], WEIGHT_DECIMALS) for i, row in enumerate(h)] for h in heads],
        "copies": copies(tokens[0]),
        "guesses": guesses,
        "start": len(seq),
    }


def _where(data: dict, i: int) -> str:
    """Where the induction head looks from position i, and how that compares with the earlier copies."""
    row, tokens, head = data["heads"][data["head"]][i], data["tokens"], data["head"]
    j = int(np.argmax(row))
    on = sum(row[k] for k in data["copies"][i])
    lead = f"Layer 2, head {head + 1} reads position {j} ({tokens[j]}) most, with weight {fixed(row[j], 2)}"
    if not data["copies"][i]:
        return f"{lead}; {tokens[i]} has no earlier copy here, so there is nothing to copy"
    after = ", ".join(f"{k} ({tokens[k]})" for k in data["copies"][i])
    return f"{lead}; it puts {fixed(on, 2)} on the letters after earlier copies of {tokens[i]}: position {after}"


def _state_lines(data: dict, i: int) -> list[str]:
    g = data["guesses"][i]
    seen = " ".join(data["tokens"][:i + 1])
    return [f"After {seen} (position {i}): next letter {g[0][0]} with probability {g[0][2]}, then "
            + ", ".join(f"{c} {label}" for c, _, label in g[1:]),
            _where(data, i)]


def text(p: Params, data: dict) -> dict:
    fixed_lines = [f"Sequence: {' '.join(data['tokens'])}, read by the trained model of seed {data['seed']}; "
                   f"an even guess gives each of the {len(data['letters'])} letters {fixed(1 / len(data['letters']), 2)}"]
    last = opening_state(p, data)
    return {
        "alt": (f"The trained two-layer model reading {' '.join(data['tokens'])}: both layer-2 heads' attention "
                f"weights, and its guesses for each next letter. " + ". ".join(_state_lines(data, last)) + "."),
        "numbers": _state_lines(data, last) + fixed_lines,
        "states": [{"numbers": _state_lines(data, i), "label": f"{data['tokens'][i]} (position {i})"}
                   for i in range(len(data["tokens"]))],
        "fixed": fixed_lines,
        "heads": [f"Layer 2, head {h + 1}" + (" (the induction head): its weights" if h == data["head"] else ": its weights")
                  + " from the letter looking; outlined, the letters after earlier copies of it"
                  for h in range(len(data["heads"]))],
        "hint": (f"Letters {data['letters'][0]} to {data['letters'][-1]}, at most {data['max_letters']}; try a "
                 f"sequence that repeats part of itself, then press Read."),
        "reading": "Reading your letters… (the first time, Python trains the model first)",
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per position."""
    return len(data["tokens"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the last position."""
    return data["start"]


LIVE = True  # the reader's sequence is computed by the worker


def facts(p: Params, data: dict) -> dict:
    """The last letter of the sequence shown: where the induction head reads, and the model's guess."""
    k = data["start"]
    after = data["copies"][k]
    row = data["heads"][data["head"]][k]
    top = data["guesses"][k][0]
    return {"last": data["tokens"][k], "head": data["head"] + 1,
            "copied": data["tokens"][after[-1]] if after else None,
            "weight": sum(row[j] for j in after), "guess": top[0], "probability": top[1]}
