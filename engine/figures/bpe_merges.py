"""bpe-merges: byte-pair merges (engine/bpe.py) learned on the series' own prose, the text chapter 14's
model learns from, and what they do to one sentence and to the whole text.

The build gives the engine the prose (engine/given.py); nothing here is live, so every state is
precomputed. The slider stops at the merge counts `stops()` gives: every count from 0 to 6, then 8, 10, 15, 20, 30,
40, 50, 60, 80, 100, 150, ... (1, 1.5, 2, 3, 4, 5, 6 and 8 times a power of ten), up to the merges
learned, which is always the last stop. State i is stop i: `stops[i]` merges, `tokens[i]` the sentence
cut by them, `text.states[i]` its key numbers; `lengths[k]` is the whole text's length in tokens after
k merges, for every k (the curve), and `merges[k]` merge k + 1 in words, as learned. Tokens and merges show a
space as a dot (`text.space`).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from ..given import SERIES, Given
from ..bpe import apply_merges, learn_merges
from ..tasks.writing import WritingConfig
from .fmt import fixed
from .params import ParamError, field

GIVEN = (SERIES,)

SENTENCE = "Keys and values belong to the same word but do different jobs."  # chapter 3's, in its prose
MERGES = 500  # enough for the common short words of the series to become one token each
MAX_MERGES = 2000  # learning them takes about a second on CPython
MAX_CHARS = 120  # the sentence: a line of token boxes or two
MANTISSAS = (1, 1.5, 2, 3, 4, 5, 6, 8)  # the stops past the first few: these times a power of ten
LATEST = 5  # merges listed, the latest first
SPACE = "·"  # a token's space, as chapter 7's chips show it
SHOWN = str.maketrans({" ": SPACE, "\n": "↵"})

# GPT-2's byte-level BPE starts from the 256 values of a byte (Radford et al. 2019, section 2.2) and
# ends with a vocabulary of 50,257 tokens (section 2.3). GPT before it learned 40,000 merges
# (Radford et al. 2018, section 4.1).
GPT2 = {"base": 256, "vocabulary": 50_257}
GPT_MERGES = 40_000


@dataclass(frozen=True)
class Params:
    merges: int = field(MERGES, lo=1, hi=MAX_MERGES,
                        doc="the most merges learned (fewer if the text runs out of pairs)")
    sentence: str = field(SENTENCE, chars=(1, MAX_CHARS),
                          doc="the sample cut into tokens: one line of the series' characters")
    start: int = field(MERGES, lo=0, hi=MAX_MERGES, doc="the merges shown first: one of the slider's stops")

    def __post_init__(self):
        if any(not c.isprintable() for c in self.sentence):
            raise ParamError("sentence", "option 'sentence' must be one line of printable text")
        if self.start > self.merges or self.start not in stops(self.merges):
            raise ParamError("start", f"option 'start' must be one of the slider's stops up to {self.merges} merges "
                                      f"({', '.join(map(str, stops(self.merges)))}), not {self.start}")


EXAMPLE = {"merges": 120, "sentence": "The model writes one character at a time.", "start": 30}
BROKEN = ({"merges": 40, "start": 35}, "start")  # options that break a rule of Params' own, and the option it names


def stops(merges: int) -> list[int]:
    """The merge counts the slider steps through: 0 to 6 one by one, then MANTISSAS times powers of ten,
    then `merges` itself."""
    out, scale = set(range(min(merges, 6) + 1)), 1
    while scale <= merges:
        out.update(int(m * scale) for m in MANTISSAS if m * scale == int(m * scale) and m * scale <= merges)
        scale *= 10
    return sorted(out | {merges})


def shown(token: str) -> str:
    """A token as the figure shows it: a space as a dot, a line break as ↵."""
    return token.translate(SHOWN)


def series(given: Given) -> str:
    """The series' prose, as the figure is given it."""
    return given[SERIES].decode()


@functools.lru_cache(maxsize=4)
def _learned(text: str, merges: int):
    return learn_merges(text, merges)


def compute(p: Params, given: Given) -> dict:
    text = series(given)
    missing = "".join(dict.fromkeys(c for c in p.sentence if c not in text))
    if missing:
        raise ParamError("sentence", f"option 'sentence' has characters the series' text never uses: {missing!r}")
    learned = _learned(text, p.merges)
    n = len(learned.pairs)
    at = stops(n)
    return {
        "characters": len(text),
        "base": len(set(text)),
        "sentence": p.sentence,
        "merges": [_merge(pair) for pair in learned.pairs],  # in the order learned
        "lengths": list(learned.lengths),
        "stops": at,
        "tokens": [[shown(t) for t in apply_merges(p.sentence, learned.pairs[:k])] for k in at],
        "start": at.index(p.start) if p.start in at else len(at) - 1,
        "axis": _axis(len(text), n),
        "latest": LATEST,
    }


def _axis(characters: int, merges: int) -> dict:
    """The curve's scales and tick labels: merges along x, the text's length in tokens from 0 to its characters."""
    return {"x": [[0, "0"], [merges, f"{merges:,}"]],
            "y": [[0, "0"], [characters, f"{characters:,}"]]}


PARTS = {
    "readout": "{v}",  # the slider's readout: the stop's merge count
    "none": "No merges yet: every character is a token of its own",
}


def _merge(pair) -> str:
    """One merge as the figure lists it: "·t + he → ·the"."""
    left, right = shown(pair[0]), shown(pair[1])
    return f"{left} + {right} → {left}{right}"


def _label(data: dict, i: int) -> str:
    """Stop i's numbers in one line: what the view shows beside the curve."""
    k, length = data["stops"][i], data["lengths"][data["stops"][i]]
    return (f"{k:,} merge{'s' if k != 1 else ''}: the whole text is {length:,} tokens, "
            f"{fixed(data['characters'] / length, 2)} characters each; vocabulary {data['base'] + k:,}")


def _state(data: dict, i: int) -> dict:
    k, tokens = data["stops"][i], data["tokens"][i]
    latest = data["merges"][max(0, k - LATEST):k][::-1]
    return {"numbers": [
        f"After {k:,} merge{'s' if k != 1 else ''}, the sentence's {len(data['sentence'])} characters are "
        f"{len(tokens)} tokens ({' | '.join(tokens)})",
        _label(data, i)[0].upper() + _label(data, i)[1:],
        ("Latest merges, newest first: " + ", ".join(latest)) if latest else PARTS["none"],
    ], "label": _label(data, i)}


def text(p: Params, data: dict) -> dict:
    states = [_state(data, i) for i in range(len(data["stops"]))]
    start = opening_state(p, data)
    n = data["stops"][-1]
    fixed_lines = [f"{n:,} merges learned on the series' prose: {data['characters']:,} characters, "
                   f"{data['base']} different ones; a dot {SPACE} marks a space at the start of a token"]
    return {
        "alt": (f"Byte-pair merges learned on the series' prose. The sentence “{data['sentence']}” drawn as a row "
                f"of token boxes, a curve of the whole text's length in tokens falling as merges are added, and "
                f"the latest merges. " + ". ".join(states[start]["numbers"] + fixed_lines) + "."),
        "numbers": states[start]["numbers"] + fixed_lines,
        "states": states,
        "fixed": fixed_lines,
        "space": {"mark": SPACE, "name": "a leading space"},
        "parts": PARTS,
        "legend": (f"Each box is one token of the sentence; a dot {SPACE} marks a space at the start of a token. "
                   "The curve is the whole text's length in tokens against the number of merges, with the "
                   "number shown marked."),
    }


def state_count(data: dict) -> int:
    """How many states the slider steps through: one per stop."""
    return len(data["stops"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's stop."""
    return data["start"]


def facts(p: Params, data: dict, given: Given) -> dict:
    """The numbers chapter 14 quotes: the text, how many merges halve it and what the last stop makes of
    it, the first few merges, the sentence cut at the last stop, and GPT's and GPT-2's vocabularies."""
    n, chars = data["stops"][-1], data["characters"]
    tokens = data["lengths"][n]
    return {
        "characters": chars,
        "base": data["base"],
        "merges": n,
        "tokens": tokens,
        "ratio": chars / tokens,
        "vocabulary": data["base"] + n,
        "halving": next((k for k, n in enumerate(data["lengths"]) if 2 * n <= chars), None),  # fewest merges that halve the text
        "first_merges": ", ".join(shown("".join(pair)) for pair in _learned(series(given), p.merges).pairs[:LATEST]),
        "sentence": data["sentence"],
        "sentence_characters": len(data["sentence"]),
        "sentence_tokens": len(data["tokens"][-1]),
        "sentence_split": " | ".join(data["tokens"][-1]),
        "context_characters": WritingConfig().context * chars / tokens,  # what chapter 14's context would span in tokens
        "gpt_merges": GPT_MERGES,
        "gpt2": GPT2,
    }
