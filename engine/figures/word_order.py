"""word-order: "dog bites man" and "man bites dog" through one hand-set head, positions off and on.

Each word is three numbers (dog, man, bites: one each) followed by room for a 16-number
sinusoidal position code (`sinusoidal_positions`); with positions on, the code of the word's
place is added into that room. The head is set by hand: the verb's query asks for nouns and the
nouns' queries ask for the verb; with positions on, the query matrix also turns each position's
code into the code one place earlier (a fixed rotation of every sine-cosine pair), so every word
leans toward the word before it. Values are the three word numbers, so a word's output says how
much of dog, man and bites it gathered. Both settings are computed every time; text states are
indexed like `settings` (off, on), each with a "label" for the view; `parts` print a weight
("cell", from {v}), one number of an output ("share", from {word} and {v}) and the verdicts "same" and "differs".
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import attention_forward, sinusoidal_positions
from .fmt import pairs
from .params import field

WORDS = ("dog", "man", "bites")  # the word numbers, in this order; values read them back out
NOUNS = ("dog", "man")
VERB = "bites"
SENTENCES = (("dog", "bites", "man"), ("man", "bites", "dog"))
WIDTH = 16  # numbers in a position code, as in the sinusoids figure
SETTINGS = ("off", "on")
TOL = 1e-12  # outputs closer than this count as the same


@dataclass(frozen=True)
class Params:
    positions: bool = field(False, doc="shown first: positions off (False) or on (True)")
    pull: float = field(6.0, lo=0.0, hi=10.0, doc="how strongly the verb asks for nouns and nouns for the verb")
    lean: float = field(2.0, lo=0.0, hi=5.0, doc="how strongly, with positions on, a word leans to the one before it")


EXAMPLE = {"positions": True, "lean": 1.0}


def step_back(width: int) -> np.ndarray:
    """The (width, width) matrix taking position p's sinusoidal code to position p-1's (row vectors).

    Each (sin, cos) pair at frequency w is turned back by the angle w: a rotation that is the
    same for every p, which is why a fixed linear map can express "one place earlier".
    """
    freq = 10000.0 ** (-np.arange(0, width, 2, dtype=np.float64) / width)  # as sinusoidal_positions
    m = np.zeros((width, width))
    for i, w in enumerate(freq):
        c, s = np.cos(w), np.sin(w)
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]  # (sin, cos) @ m = (sin(a-w), cos(a-w))
    return m


def head(p: Params):
    """The hand-set head: wq, wk (1, 3+WIDTH, 2+WIDTH) and wv (1, 3+WIDTH, 3)."""
    d, k = len(WORDS) + WIDTH, 2 + WIDTH
    wq, wk, wv = np.zeros((1, d, k)), np.zeros((1, d, k)), np.zeros((1, d, len(WORDS)))
    verb = WORDS.index(VERB)
    wq[0, verb, 0] = p.pull  # the verb asks for a noun (key slot 0) ...
    for noun in NOUNS:
        wk[0, WORDS.index(noun), 0] = 1.0
        wq[0, WORDS.index(noun), 1] = p.pull  # ... and each noun asks for the verb (slot 1)
    wk[0, verb, 1] = 1.0
    wq[0, len(WORDS):, 2:] = p.lean * step_back(WIDTH)  # the query holds the code one place back
    wk[0, len(WORDS):, 2:] = np.eye(WIDTH)  # the key holds the code of its own place
    wv[0, :len(WORDS), :] = np.eye(len(WORDS))  # the value: the word's own three numbers
    return wq, wk, wv


def inputs(sentence, positions: bool) -> np.ndarray:
    """(T, 3+WIDTH): each word's three numbers, plus its position code when positions are on."""
    x = np.zeros((len(sentence), len(WORDS) + WIDTH))
    for t, word in enumerate(sentence):
        x[t, WORDS.index(word)] = 1.0
    if positions:
        x[:, len(WORDS):] += sinusoidal_positions(len(sentence), WIDTH)
    return x


def _setting(p: Params, positions: bool) -> dict:
    wq, wk, wv = head(p)
    runs = []
    for sentence in SENTENCES:
        out, cache = attention_forward(inputs(sentence, positions), wq, wk, wv)
        runs.append({"weights": cache.weights[0].tolist(),  # (T, T) rows: queries, columns: keys
                     "outputs": out.tolist()})  # (T, 3) each word's output: dog, man, bites
    # Each word's output in each sentence, found by the word (every word occurs once).
    by_word = [[runs[s]["outputs"][SENTENCES[s].index(w)] for s in range(len(SENTENCES))] for w in WORDS]
    same = [bool(np.max(np.abs(np.subtract(*o))) < TOL) for o in by_word]
    return {"sentences": runs, "by_word": by_word, "same": same}


def compute(p: Params) -> dict:
    return {
        "words": list(WORDS),
        "sentences": [list(s) for s in SENTENCES],
        "settings": list(SETTINGS),
        "width": WIDTH,
        "modes": {name: _setting(p, name == "on") for name in SETTINGS},
    }


def _output(o) -> str:
    return pairs(WORDS, o)


def _state(name: str, mode: dict, data: dict) -> dict:
    sentences = [" ".join(s) for s in data["sentences"]]
    numbers = [f"Positions {name}."]
    for s, run in zip(sentences, mode["sentences"]):
        words = s.split()
        rows = "; ".join(f"{q} → " + pairs(words, w) for q, w in zip(words, run["weights"]))
        numbers.append(f"“{s}”, attention weights: {rows}")
    for w, outs, same in zip(data["words"], mode["by_word"], mode["same"]):
        verdict = "the same in both" if same else "different"
        numbers.append(f"Output of {w} ({verdict}): " + "; ".join(
            f"in “{s}” {_output(o)}" for s, o in zip(sentences, outs)))
    differ = [w for w, same in zip(data["words"], mode["same"]) if not same]
    label = (f"Positions {name}: " + ("every word's output is the same in both orders"
             if not differ else "the outputs of " + ", ".join(differ) + " differ between the two orders"))
    return {"numbers": numbers, "label": label}


def text(p: Params, data: dict) -> dict:
    states = [_state(name, data["modes"][name], data) for name in data["settings"]]
    bites = data["words"].index(VERB)
    off, on = (data["modes"][n]["by_word"][bites] for n in data["settings"])
    return {
        "alt": ("Attention weights of one head over “dog bites man” and “man bites dog”. Without "
                f"positions, bites gathers {_output(off[0])} in both orders. With sinusoidal positions "
                f"added, it gathers {_output(on[0])} in the first and {_output(on[1])} in the second."),
        "numbers": states[opening_state(p, data)]["numbers"],
        "states": states,
        "parts": {
            "cell": "{v:2}",  # a weight in the tables
            "share": "{word} {v:2}",  # one number of an output; the view lists them as pairs() does, ", " between
            "same": "same",  # the verdict on a word whose output is the same in both orders
            "differs": "differs",
        },
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per setting (positions off, on)."""
    return len(data["settings"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's setting."""
    return data["settings"].index("on" if p.positions else "off")


def facts(p: Params, data: dict) -> dict:
    bites = data["words"].index(VERB)
    dog, man = data["words"].index("dog"), data["words"].index("man")
    off, on = data["modes"]["off"], data["modes"]["on"]
    return {
        "off_bites_dog": off["by_word"][bites][0][dog],
        "off_bites_man": off["by_word"][bites][0][man],
        "off_bites_self": off["by_word"][bites][0][bites],
        # With positions, bites' share of the noun before it and of the noun after it.
        "on_bites_before": on["by_word"][bites][0][dog],
        "on_bites_after": on["by_word"][bites][0][man],
        "on_differ_count": sum(not s for s in on["same"]),
        "on_bites_lean": _lean(p),
    }


def _lean(p: Params) -> float:
    """How much higher bites scores the noun before it than the noun after it, positions on (scaled scores)."""
    sentence = SENTENCES[0]
    _, cache = attention_forward(inputs(sentence, True), *head(p))
    scores = (cache.q @ cache.k.swapaxes(-1, -2))[0, 0]  # (T, T) already divided by sqrt(d_k)
    row = scores[sentence.index(VERB)]
    return float(row[0] - row[2])
