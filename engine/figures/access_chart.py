"""access-chart: which positions each query may read, causal (a decoder) or bidirectional (an encoder).

The grids are the engine's masks (`causal_mask`, or all True) for the first 1 to 11 words of
chapter 1's sentence, so the view only looks them up. Text states are indexed
``mode * n_max + (length - 1)``, mode 0 causal and 1 bidirectional; `parts.readout` is the
slider's readout, filled from {v} (words shown) and {word} (the last of them). The facts also hold the
chapter's two worked examples on the same hand-set head (engine/tasks/winograd.py): a padded
batch with and without a padding mask, and cross-attention from two describing words to a
shorter sentence.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import attention_forward, causal_mask, cross_attention_forward, padding_mask
from ..tasks import winograd
from .params import field

MODES = ("causal", "bidirectional")
N_MAX = len(winograd.SENTENCE) + 1
SHORT = ("the", "animal", "was", "too", "tired")  # the shorter sentence of the padded batch
SOURCE = 6  # cross-attention reads the first six words: "The animal didn't cross the street"
ASKING = ("tired", "wide")  # cross-attention's queries come from these two words


@dataclass(frozen=True)
class Params:
    causal: bool = field(True, doc="start with the causal grid")
    length: int = field(N_MAX, lo=1, hi=N_MAX, step=1, doc="words shown at first")


EXAMPLE = {"causal": False, "length": 3}


def _grid(mode: str, n: int) -> np.ndarray:
    return causal_mask(n) if mode == "causal" else np.ones((n, n), dtype=bool)  # (n, n)


def compute(p: Params) -> dict:
    words = list(winograd.words("tired"))
    grids = {m: [_grid(m, n).astype(int).tolist() for n in range(1, N_MAX + 1)] for m in MODES}
    counts = {m: [int(np.count_nonzero(_grid(m, n))) for n in range(1, N_MAX + 1)] for m in MODES}
    return {"words": words, "modes": list(MODES), "grids": grids, "counts": counts}


def _state(data: dict, mode: str, n: int) -> dict:
    c, other = data["counts"][mode][n - 1], n * n
    who = ("each word reads itself and the words before it" if mode == "causal"
           else "every word reads every word")
    line = f"{mode.capitalize()}, {n} word{'s' if n > 1 else ''}: {who}; {c} of {other} query–key pairs readable"
    return {"numbers": [line], "label": f"Grid of which words each query may read: {line}"}


def text(p: Params, data: dict) -> dict:
    states = [_state(data, m, n) for m in data["modes"] for n in range(1, N_MAX + 1)]
    start = opening_state(p, data)
    return {
        "alt": ("Two grids with a row per query and a column per key, shaded where the query may read the "
                "key: under a causal mask the lower triangle with the diagonal, without it every cell. "
                + states[start]["numbers"][0] + "."),
        "numbers": states[start]["numbers"],
        "states": states,
        "parts": {"readout": "{v}, up to “{word}”"},  # the slider's readout: words shown, the last of them
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per mode and length."""
    return len(data["modes"]) * len(data["words"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the options' mask and length."""
    return (0 if p.causal else 1) * N_MAX + p.length - 1


def _padding() -> dict:
    """Two sentences of unequal length in one batch: the short one padded with rows of zeros."""
    long_x = winograd.embeddings("tired", copied=0.0)  # (11, 6)
    short_x = np.array([winograd.WORD_VECTORS[w] for w in SHORT])  # (5, 6)
    T = len(long_x)
    batch = np.zeros((2, T, long_x.shape[1]))  # (2, T, 6) padding rows stay zero
    batch[0], batch[1, :len(SHORT)] = long_x, short_x
    wq, wk, wv = winograd.matrices()
    alone, _ = attention_forward(short_x, wq, wk, wv)  # (5, 2) the short sentence on its own
    open_out, open_c = attention_forward(batch, wq, wk, wv)
    m = padding_mask([T, len(SHORT)], T)
    masked_out, masked_c = attention_forward(batch, wq, wk, wv, mask=m)
    first_on_pads = float(open_c.weights[1, 0, 0, len(SHORT):].sum())
    return {
        "pad_short": " ".join(SHORT),
        "pad_short_len": len(SHORT),
        "pad_long_len": T,
        "pad_count": T - len(SHORT),
        "pad_first_word": SHORT[0],
        "pad_first_on_pads": first_on_pads,
        "pad_first_alone_animal": float(alone[0, 0]),
        "pad_first_open_animal": float(open_out[1, 0, 0]),
        "pad_last_on_pads": float(open_c.weights[1, 0, len(SHORT) - 1, len(SHORT):].sum()),
        "pad_largest_open_gap": float(np.abs(open_out[1, :len(SHORT)] - alone).max()),
        "pad_largest_masked_gap": float(np.abs(masked_out[1, :len(SHORT)] - alone).max()),
        "pad_masked_on_pads": float(masked_c.weights[1, 0, :, len(SHORT):].sum()),
    }


def _cross() -> dict:
    """Queries from two describing words, keys and values from the first six words of the sentence."""
    source = winograd.words("tired")[:SOURCE]
    xkv = winograd.embeddings("tired", copied=0.0)[:SOURCE]  # (6, 6)
    xq = np.array([winograd.WORD_VECTORS[w] for w in ASKING])  # (2, 6)
    wq, wk, wv = winograd.matrices()
    out, c = cross_attention_forward(xq, xkv, wq, wk, wv)  # (2, 2), weights (1, 2, 6)
    w = c.weights[0]  # (2, 6)
    animal, street = source.index("animal"), source.index("street")
    return {
        "cross_source": " ".join(source),
        "cross_rows": int(w.shape[0]),
        "cross_cols": int(w.shape[1]),
        "cross_tired_animal": float(w[0, animal]),
        "cross_wide_street": float(w[1, street]),
        "cross_tired_out_0": float(out[0, 0]),
        "cross_tired_out_1": float(out[0, 1]),
        "cross_wide_out_0": float(out[1, 0]),
        "cross_wide_out_1": float(out[1, 1]),
    }


# How BERT hides words in training (Devlin et al. 2019, section 3.1): a share of the positions is
# selected, and a selected word becomes [MASK], a random word, or stays as it is.
BERT_MASKING = {"bert_selected": 0.15, "bert_mask_token": 0.8, "bert_random_word": 0.1, "bert_unchanged": 0.1}


def facts(p: Params, data: dict) -> dict:
    n = p.length
    return {
        "n": n,
        "causal_pairs": data["counts"]["causal"][n - 1],
        "bidirectional_pairs": data["counts"]["bidirectional"][n - 1],
        **_padding(),
        **_cross(),
        **BERT_MASKING,
    }
