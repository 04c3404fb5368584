"""causal-mask: the hand-set head of chapter 1 writing its sentence word by word, with the mask on or off.

The head is `engine/tasks/winograd.py`'s, with nothing copied into "it" (``copied = 0``): that
copy assumed a layer that had already read the last word, which a causal model cannot have done.
For every prefix of the sentence (1 to 11 words) and both settings, the model runs
`attention_forward` on the prefix alone and keeps the whole weight matrix, so the view only
looks states up. Text states are indexed
``mode * n + (shown - 1)``: mode 0 is the mask on, 1 the mask off, and ``shown`` the number
of words written; `parts.readout` is the slider's readout, filled from {v} (words written)
and {word} (the newest). A row counts as changed when any
of its weights moves by more than TOLERANCE from the previous step (floating-point rounding
alone moves weights by about 1e-17).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import attention_forward, decode_step
from ..tasks import winograd
from .fmt import fixed, pairs
from .params import field

TOLERANCE = 1e-12  # a weight that moves less than this has not changed (rounding is ~1e-17)
MODES = ("on", "off")  # the mask on (causal) or off (every word reads every word)


@dataclass(frozen=True)
class Params:
    last: str = field("tired", choices=winograd.LAST_WORDS, doc="the sentence's last word")
    causal: bool = field(True, doc="start with the mask on")
    shown: int = field(len(winograd.SENTENCE) + 1, lo=1, hi=len(winograd.SENTENCE) + 1, step=1,
                       doc="words written at first")
    strength: float = field(winograd.STRENGTH, lo=0.0, hi=10.0, doc="scale of the query matrix")


EXAMPLE = {"last": "wide", "causal": False, "shown": 4, "strength": 2}


def _inputs(p: Params):
    x = winograd.embeddings(p.last, copied=0.0)  # (T, 6) nothing borrowed from later words
    return x, winograd.matrices(p.strength)


def _steps(p: Params, causal: bool) -> list[np.ndarray]:
    """The weight matrix after each word is written: item t-1 is (t, t)."""
    x, (wq, wk, wv) = _inputs(p)
    return [attention_forward(x[:t], wq, wk, wv, causal=causal)[1].weights[0] for t in range(1, len(x) + 1)]


def _changes(steps: list[np.ndarray]) -> list[list[float]]:
    """For each step, how far each earlier row moved (largest change of a weight, the new column included)."""
    out = [[]]
    for before, after in zip(steps, steps[1:]):
        t = before.shape[0]
        grown = np.pad(before, ((0, 0), (0, 1)))  # (t, t+1) an earlier row had weight 0 on the new word
        out.append(np.abs(after[:t] - grown).max(axis=1).tolist())
    return out


def _split(steps: list[np.ndarray]) -> tuple[list[list[float]], list[list[float]]]:
    """For each step, each earlier row's change in two parts: the weight it gives the new word (it had
    none before), and the largest change among the weights it already had."""
    new, old = [[]], [[]]
    for before, after in zip(steps, steps[1:]):
        t = before.shape[0]
        new.append(after[:t, t].tolist())  # (t,) the new column
        old.append(np.abs(after[:t, :t] - before).max(axis=1).tolist())  # (t,)
    return new, old


def compute(p: Params) -> dict:
    words = list(winograd.words(p.last))
    modes = {}
    for mode in MODES:
        steps = _steps(p, mode == "on")
        moved = _changes(steps)
        new, old = _split(steps)
        modes[mode] = {
            "weights": [np.round(w, 6).tolist() for w in steps],  # item t-1: (t, t)
            "changed": [[m > TOLERANCE for m in row] for row in moved],  # item t-1: (t-1,) earlier rows that moved
            "moved": [[round(m, 6) for m in row] for row in moved],
            "new": [[round(m, 6) for m in row] for row in new],  # item t-1: (t-1,) weight each earlier row gives word t
            "old": [[round(m, 6) for m in row] for row in old],  # item t-1: (t-1,) largest change of a weight it had
        }
    return {"words": words, "modes": modes, "mode_names": list(MODES), "kv": _kv_counts(p)}


def _kv_counts(p: Params) -> dict:
    """Scores computed to write the sentence word by word, with a key-value cache and without one.

    With the cache each new word scores its query against the keys so far (decode_step); without
    it every step reruns attention on the whole prefix, which computes the full square of scores
    before masking. The cached outputs are checked against the full causal run."""
    x, (wq, wk, wv) = _inputs(p)
    full, _ = attention_forward(x, wq, wk, wv, causal=True)  # (T, 2)
    kv, cached, gap = None, 0, 0.0
    for t in range(len(x)):
        out, w, kv = decode_step(x[t], wq, wk, wv, kv)
        cached += w.size  # one score per word so far (one head)
        gap = max(gap, float(np.abs(out - full[t]).max()))
    recomputed = recomputed_allowed = key_rows = 0
    for t in range(1, len(x) + 1):
        _, c = attention_forward(x[:t], wq, wk, wv, causal=True)
        recomputed += c.weights.size  # the full (t, t) square is computed, then masked
        recomputed_allowed += int(np.count_nonzero(np.tril(np.ones((t, t)))))
        key_rows += t
    return {"n": len(x), "cached_scores": cached, "recomputed_scores": recomputed,
            "recomputed_allowed": recomputed_allowed, "cached_key_rows": int(kv.k.shape[1]),
            "recomputed_key_rows": key_rows, "largest_difference": gap}


def _state(words: list[str], mode: str, shown: int, data: dict) -> dict:
    m = data["modes"][mode]
    w = m["weights"][shown - 1]
    changed, moved = m["changed"][shown - 1], m["moved"][shown - 1]
    newest = words[shown - 1]
    so_far = " ".join(words[:shown])
    lines = [f"Mask {mode}, {shown} of {len(words)} words written: “{so_far}”"]
    if shown == 1:
        what = "The first word has no earlier rows to change."
    elif mode == "on":
        what = (f"Adding “{newest}” leaves all {shown - 1} earlier rows unchanged"
                if not any(changed) else f"Adding “{newest}” changes {sum(changed)} of {shown - 1} earlier rows")
    else:
        new, old = m["new"][shown - 1], m["old"][shown - 1]
        big = int(np.argmax(new))
        what = (f"Adding “{newest}” changes {sum(changed)} of {shown - 1} earlier rows. The new word takes up to "
                f"{fixed(new[big], 3)} of an earlier row's weight (in the row of “{words[big]}”), and no weight "
                f"an earlier row already had moves by more than {fixed(max(old), 3)}")
    lines.append(what if what.endswith(".") else what + ".")
    lines.append(f"Row of “{newest}”: " + pairs(words[:shown], w[-1]))
    return {"numbers": lines, "label": f"Attention weights of the first {shown} words, mask {mode}. " + lines[1]}


def text(p: Params, data: dict) -> dict:
    words, n = data["words"], len(data["words"])
    states = [_state(words, mode, shown, data) for mode in data["mode_names"] for shown in range(1, n + 1)]
    kv = data["kv"]
    start = opening_state(p, data)
    fixed_lines = [f"Writing all {kv['n']} words: {kv['cached_scores']} scores with a key–value cache, "
                   f"{kv['recomputed_scores']} when every step recomputes the whole grid"]
    return {
        "alt": (f"Grids of attention weights for “{' '.join(words)}” written word by word. With the mask on, "
                "each row keeps its weights as later words are added; with it off, every earlier row changes "
                "when a word is added. " + states[start]["numbers"][1]),
        "numbers": states[start]["numbers"] + fixed_lines,
        "states": states,
        "parts": {"readout": "{v}, up to “{word}”"},  # the slider's readout: words shown, the last of them
        "fixed": fixed_lines,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per mask (on, off) and words shown."""
    return len(data["mode_names"]) * len(data["words"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the options' mask and words shown."""
    return (0 if p.causal else 1) * len(data["words"]) + p.shown - 1


def facts(p: Params, data: dict) -> dict:
    words, on, off = data["words"], data["modes"]["on"], data["modes"]["off"]
    steps_on, steps_off = _steps(p, True), _steps(p, False)
    moved_on, moved_off = _changes(steps_on), _changes(steps_off)
    new_off, old_off = _split(steps_off)
    n = len(words)
    last_moved = moved_off[-1]
    big = int(np.argmax(new_off[-1]))  # the row that gives the last word the most weight
    full = steps_on[-1]
    it, last = winograd.IT, n - 1
    return {
        "n_words": n,
        "earlier_rows": sum(len(m) for m in moved_on),  # earlier rows over all steps: 1 + 2 + ... + (n-1)
        "masked_rows_changed": sum(sum(c) for c in on["changed"]),
        "masked_largest_change": max(max(m) for m in moved_on if m),
        "open_rows_changed": sum(sum(c) for c in off["changed"]),
        "open_second_change": moved_off[1][0],  # the first word's row when the second is added
        "first_word": words[0],
        "second_word": words[1],
        "open_last_rows_changed": sum(m > TOLERANCE for m in last_moved),
        # adding the last word: the most weight an earlier row gives it (none before), in whose row,
        # and the largest change among the weights the earlier rows already had
        "open_last_new_weight": new_off[-1][big],
        "open_last_new_word": words[big],
        "open_last_old_largest": max(old_off[-1]),
        "last_word": words[-1],
        "masked_last_on_animal": float(full[last, words.index("animal")]),
        "masked_it_share": float(full[it, 0]),  # "it" has no query of its own: an even share of what it can see
        "masked_it_sees": it + 1,
        **{f"kv_{k}": v for k, v in data["kv"].items()},
    }
