"""What a reader does to make each live figure's view ask Python for data its page lacks, which the
tests of the real worker act out (test_real_python.py in Chromium, test_engines.py in Firefox and
WebKitGTK). Test data: it names the theme's controls and selectors, so it lives here, not in the
engine's models, which ship to every reader.

`ASK[name]`, one entry per live figure (tests/builder/test_live_figures.py fails for a live figure
without one, and for an entry whose figure is not live), is a dict, or a function of the figure's data
returning one, naming a target (`"button"`: its name, `"label"`: a field's label, or `"on"`: a CSS
selector, with `"nth"`) and an action (`"press"`: a key, `"select"`: an option, `"fill"`: text entered,
`"at"`: a press at that fraction of the target's box; none: a click).

`REFUSE[name](data)`, for a view a reader types into: what to type that Python refuses (`"label"`,
`"fill"`) and what the note then `"says"`.
"""
from __future__ import annotations

import string

NUDGE = {"on": "g.score-bar", "press": "ArrowUp"}  # a score nudged off the precomputed ones


def _exp_log(data: dict) -> dict:
    """Another word's score than the right answer's (whose stops are precomputed), nudged up."""
    return {"on": "g.score-bar", "nth": 1 if data["answer"] == 0 else 0, "press": "ArrowUp"}


def _colour_tokens(data: dict) -> dict:
    """The first token recoloured into a sequence the page has no data for."""
    offered = [s["tokens"] for s in data["sequences"]]
    shown = offered[data["start"]["sequence"]]
    return {"on": ".ct-edit select", "select": next(c for c in data["palette"] if [c, *shown[1:]] not in offered)}


def _your_sentence(data: dict) -> dict:
    """The last slot's menu set to a word the sentence shown does not hold."""
    nouns = data["menus"][data["slots"][-1]]["words"]
    return {"on": ".ysn-menu select", "nth": -1, "select": next(w for w in nouns if w not in data["words"])}


def _your_sequence(data: dict) -> dict:
    """Letters the page has no data for: the sequence reversed, then its last three again."""
    return {"label": "Your letters", "fill": data["sequence"][::-1] + data["sequence"][-3:]}


ASK = {  # in the order of FIGURES
    "matrix-product": {"button": "New numbers"},
    "sum-spread": {"label": "One term:", "select": "uniform"},  # another kind of term
    "chain-rule": {"on": "rect.hit", "at": [0.63, 0.5]},  # a press on the plot between two stops
    "exp-log": _exp_log,
    "softmax-bars": NUDGE,
    "softmax-temperature": NUDGE,
    "scaling-experiment": {"button": "Draw new random vectors"},
    "colour-tokens": _colour_tokens,
    "softmax-gradient": NUDGE,
    "lookup-training": {"button": "Play"},
    "two-heads": {"button": "Retrain"},
    "your-sentence": _your_sentence,
    "induction-forms": {"button": "Train"},
    "your-sequence": _your_sequence,
    "writing-training": {"button": "Train from scratch"},
    "writing-sample": {"label": "Your prompt", "fill": "Each head reads "},
}


def _refuse_your_sentence(data: dict) -> dict:
    """A sentence typed without its last word, and the start of the reason Python gives for refusing it."""
    words = data["sentence"].split()
    return {"label": "Or type one", "fill": " ".join(words[:-1]), "says": f"The sentence stops too soon: after “{words[-2]}”"}


def _refuse_your_sequence(data: dict) -> dict:
    """Letters ending in one the model does not know, and the start of the reason Python gives for refusing them."""
    bad = next(c for c in string.ascii_uppercase if c not in data["letters"])
    return {"label": "Your letters", "fill": data["sequence"][:3] + bad, "says": f"“{bad}” is not one of the model's letters"}


def _refuse_writing_sample(data: dict) -> dict:
    """A prompt holding a character the model does not know, and the start of the reason Python gives."""
    bad = next(c for c in "<>{}~^@#%&|" if c not in data["vocab"])
    return {"label": "Your prompt", "fill": f"a {bad} b", "says": f"The model does not know “{bad}”"}


REFUSE = {
    "your-sentence": _refuse_your_sentence,
    "your-sequence": _refuse_your_sequence,
    "writing-sample": _refuse_writing_sample,
}


def ask(name: str, data: dict) -> dict:
    """What a reader does to figure `name`, showing `data`, to make it ask Python: its ASK, applied
    to the data where it is a function of it."""
    if name not in ASK:
        raise KeyError(f"live figure '{name}' has no ASK in tests/browser/asks.py: what a reader does to make it ask Python")
    entry = ASK[name]
    return entry(data) if callable(entry) else entry
