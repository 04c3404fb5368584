"""quadratic-cost: how many attention scores one head of one layer computes for a text of n tokens.

A causal decoder scores each query against itself and the keys before it, n(n+1)/2 scores; a
bidirectional encoder scores every pair, n². Each score is held as a 4-byte (32-bit) number. The
slider steps through LENGTHS (10 to 1,000,000 on a 1-2-5 log scale); text states are indexed like
`lengths`, and every label the view shows (readouts, ticks, the grid's legend) is written here.
The facts add the key–value cache of GPT-3 175B (Brown et al. 2020, Table 2.1), whose memory
grows with n rather than n².
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .fmt import fixed
from .params import field

LENGTHS = tuple(m * 10 ** e for e in range(1, 7) for m in (1, 2, 5) if m * 10 ** e <= 1_000_000)
BYTES_PER_SCORE = 4  # a 32-bit float
GRID = 10  # the picture's grid is GRID × GRID cells; each cell stands for (n / GRID)² scores
COUNT_NAMES = ((10 ** 12, "trillion"), (10 ** 9, "billion"), (10 ** 6, "million"), (10 ** 3, "thousand"))
BYTE_UNITS = ((10 ** 12, "TB"), (10 ** 9, "GB"), (10 ** 6, "MB"), (10 ** 3, "kB"))  # decimal: 1 GB = 10⁹ bytes

# GPT-3 175B as Brown et al. (2020) list it in Table 2.1: layers, d_model, heads, d_head; context 2,048 tokens.
GPT3 = {"layers": 96, "d_model": 12288, "heads": 96, "d_head": 128, "context": 2048}
KV_BYTES_PER_NUMBER = 2  # 16-bit numbers, as large models are usually run


@dataclass(frozen=True)
class Params:
    length: int = field(1000, choices=LENGTHS, doc="tokens at first")


EXAMPLE = {"length": 50_000}


def causal_scores(n: int) -> int:
    """Query i scores keys 1..i: 1 + 2 + ... + n."""
    return n * (n + 1) // 2


def bidirectional_scores(n: int) -> int:
    return n * n


def approx(count: int) -> str:
    """"500.5 thousand", "5.0 billion": a count in words, to one decimal."""
    for unit, name in COUNT_NAMES:
        if count >= unit:
            return f"{fixed(count / unit, 1)} {name}"
    return f"{count:,}"


def about(count: int) -> str:
    """" (≈ 500.5 thousand)" after a count of a thousand or more; nothing for a smaller one."""
    return f" (≈ {approx(count)})" if count >= 1000 else ""


def power_name(e: int) -> str:
    """10**e in words for a tick: "100", "10 thousand", "1 million"."""
    for unit, name in COUNT_NAMES:
        if 10 ** e >= unit:
            return f"{10 ** e // unit:,} {name}"
    return f"{10 ** e:,}"


def size(n_bytes: float) -> str:
    """"2.0 MB", "20.0 GB": bytes in decimal units, to one decimal."""
    for unit, name in BYTE_UNITS:
        if n_bytes >= unit:
            return f"{fixed(n_bytes / unit, 1)} {name}"
    return f"{fixed(n_bytes, 0)} bytes"


def _row(n: int) -> dict:
    c, b = causal_scores(n), bidirectional_scores(n)
    block = n // GRID
    return {
        "n": n, "causal": c, "bidirectional": b,
        "causal_bytes": c * BYTES_PER_SCORE, "bidirectional_bytes": b * BYTES_PER_SCORE,
        "log_n": math.log10(n), "log_causal": math.log10(c), "log_bidirectional": math.log10(b),
        "steps": min(n, 100),  # stairs of the causal triangle the view draws: one per token up to 100
        "n_label": f"{n:,} tokens",
        "cell_label": ("each cell: 1 score" if block == 1 else
                       f"each cell: a block of {block:,} × {block:,} = {block * block:,} scores"),
    }


def compute(p: Params) -> dict:
    rows = [_row(n) for n in LENGTHS]
    lo, hi = rows[0], rows[-1]
    return {
        "lengths": list(LENGTHS),
        "rows": rows,
        "start": LENGTHS.index(p.length),
        "grid": GRID,
        "x_ticks": [{"at": e, "label": f"{10 ** e:,}"} for e in range(1, 7)],
        "y_ticks": [{"at": e, "label": power_name(e)} for e in range(2, 13, 2)],
        "x_range": [lo["log_n"], hi["log_n"]],
        "y_range": [math.floor(lo["log_causal"]), math.ceil(hi["log_bidirectional"])],
        "labels": {"x": "tokens (log scale)", "y": "scores per head per layer (log scale)",
                   "causal": "causal decoder, n(n+1)/2", "bidirectional": "bidirectional encoder, n²",
                   "half": "first half of the text: a quarter of the grid"},
    }


def _state(rows: list, i: int) -> dict:
    r = rows[i]
    n = r["n"]
    twice = causal_scores(2 * n)
    lines = [
        f"Length: {n:,} tokens",
        f"Causal decoder: {r['causal']:,} scores per head per layer{about(r['causal'])}, "
        f"{size(r['causal_bytes'])} at {BYTES_PER_SCORE} bytes each",
        f"Bidirectional encoder: {r['bidirectional']:,} scores{about(r['bidirectional'])}, "
        f"{size(r['bidirectional_bytes'])}",
        f"Twice the length, {2 * n:,} tokens: {twice:,} causal scores, {fixed(twice / r['causal'], 2)} times as many",
    ]
    return {"numbers": lines, "label": f"The score grid of {n:,} tokens, {r['cell_label']}. " + lines[1]}


def text(p: Params, data: dict) -> dict:
    states = [_state(data["rows"], i) for i in range(len(data["rows"]))]
    fixed_lines = [f"Memory at {BYTES_PER_SCORE} bytes a score (32-bit numbers); 1 GB = 10⁹ bytes"]
    start = opening_state(p, data)
    return {
        "alt": ("A square grid of scores, query tokens down and key tokens across, with the lower triangle "
                "shaded for a causal decoder, and a log-log chart of the number of scores against the length "
                f"of the text, a line of slope 2. {states[start]['numbers'][1]}."),
        "numbers": states[start]["numbers"] + fixed_lines,
        "states": states,
        "fixed": fixed_lines,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per length."""
    return len(data["lengths"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's length."""
    return data["start"]


def kv_cache(layers: int, d_model: int, bytes_per_number: int) -> int:
    """Bytes the key–value cache keeps per token: a key and a value (2) of d_model numbers per layer."""
    return 2 * layers * d_model * bytes_per_number


def facts(p: Params, data: dict) -> dict:
    at = {r["n"]: r for r in data["rows"]}
    per_token = kv_cache(GPT3["layers"], GPT3["d_model"], KV_BYTES_PER_NUMBER)
    context = GPT3["context"]
    return {
        "bytes_per_score": BYTES_PER_SCORE,
        "causal_1000": at[1000]["causal"],
        "bidirectional_1000": at[1000]["bidirectional"],
        "causal_100000": at[100_000]["causal"],
        "causal_100000_words": approx(at[100_000]["causal"]),
        "causal_gb_100000": at[100_000]["causal_bytes"] / 1e9,
        "bidirectional_gb_100000": at[100_000]["bidirectional_bytes"] / 1e9,
        "doubling_ratio_1000": causal_scores(2000) / causal_scores(1000),
        "causal_tb_1000000": at[1_000_000]["causal_bytes"] / 1e12,
        "gpt3_layers": GPT3["layers"],
        "gpt3_d_model": GPT3["d_model"],
        "gpt3_heads": GPT3["heads"],
        "gpt3_d_head": GPT3["d_head"],
        "gpt3_context": context,
        "kv_bytes_per_number": KV_BYTES_PER_NUMBER,
        "kv_bytes_per_token": per_token,
        "kv_mb_per_token": per_token / 1e6,
        "kv_gb_context": per_token * context / 1e9,
        "gpt3_causal_context": causal_scores(context),  # scores per head per layer at the full context
    }
