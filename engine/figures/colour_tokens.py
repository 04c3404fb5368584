"""colour-tokens: self-attention over a few coloured tokens, with every step of the arithmetic.

Each colour is a one-hot vector of four numbers and every projection is the identity, so a
token's query, key and value all equal its input row and each number can be checked by hand.
The model computes every combination of the reader's toggles (one or two heads, causal mask,
positional encoding) for the offered token sequences, so the view only looks numbers up.
Text states are indexed like the cases, flattened: state ((q * 2 + heads - 1) * 2 + causal) * 2 +
positions is sequences[q]["cases"][heads - 1][causal][positions] (causal, positions as 0 or 1).
`text.parts` is how every number of the figure prints (`num`): "number" (a whole number as written,
others to 4 decimals), a blocked score as "blocked". The view prints the arithmetic of any token in
any case with them: as lines of text that would be some 100 kB for all cases, so it is not shipped.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from ..attention import attention_forward, sinusoidal_positions
from .fmt import fill
from .params import ParamError, check_index, field


WIDTH = 4  # numbers per token vector
PALETTE = {  # colour name -> its input vector, one coordinate per colour
    "red": (1.0, 0.0, 0.0, 0.0),
    "blue": (0.0, 1.0, 0.0, 0.0),
    "green": (0.0, 0.0, 1.0, 0.0),
    "yellow": (0.0, 0.0, 0.0, 1.0),
}
MAX_TOKENS = 6
# The output projection of the two-head case: half a 4x4 Hadamard matrix. Every output coordinate
# reads every coordinate of both heads, and the matrix is orthogonal, so nothing the heads found is lost.
W_O = 0.5 * np.array([[1.0, 1.0, 1.0, 1.0],
                      [1.0, -1.0, 1.0, -1.0],
                      [1.0, 1.0, -1.0, -1.0],
                      [1.0, -1.0, -1.0, 1.0]])  # (H*K, D) concatenated heads -> model width
CONTROLS = ("tokens", "heads", "causal", "positions")  # a chapter offers only the toggles it has explained


@dataclass(frozen=True)
class Params:
    tokens: tuple[str, ...] = field(("red", "blue", "red"), length=(1, MAX_TOKENS), choices=PALETTE,
                                    doc="the sequence shown first")
    choices: tuple[str, ...] = field(
        ("red blue red", "blue red red", "red green red green", "blue green yellow red"), length=(0, 6),
        doc="sequences offered in the menu, colours separated by spaces")
    heads: int = field(1, lo=1, hi=2, doc="head count shown first: 1 head of width 4, or 2 of width 2")
    causal: bool = field(False, doc="start with future tokens blocked")
    positions: bool = field(False, doc="start with sinusoidal position codes added to the inputs")
    row: int = field(0, lo=0, hi=MAX_TOKENS - 1, doc="the gathering token whose arithmetic is shown first")
    controls: tuple[str, ...] = field(CONTROLS, length=(0, len(CONTROLS)), choices=CONTROLS,
                                      doc="which controls the reader gets")

    def __post_init__(self):
        for c in self.choices:
            _sequence("choices", c.split())
        check_index("row", self.row, len(self.tokens), "tokens")


EXAMPLE = {"tokens": ["yellow"], "choices": ["red blue"], "heads": 2, "positions": True}
BROKEN = ({"row": 5}, "row")  # options that break a rule of Params' own, and the option it names


# The worker computes the page's options as the figure nears (engine.figures.prepare_json): the offered
# sequences' cases are then kept, and the reader's first edit computes only its own sequence's.
PREPARE = True


def LIVE(p: Params) -> bool:
    """Only the token editor asks the worker (for a sequence the page has no data for): with it
    hidden, every state is precomputed and the page loads no Python for this figure."""
    return "tokens" in p.controls


def _sequence(option: str, words) -> tuple[str, ...]:
    words = tuple(words)
    bad = [w for w in words if w not in PALETTE]
    if bad:
        raise ParamError(option, f"option '{option}' names unknown colour {bad[0]!r} (allowed: {', '.join(PALETTE)})")
    if not 1 <= len(words) <= MAX_TOKENS:
        raise ParamError(option, f"option '{option}' needs 1 to {MAX_TOKENS} colours, not {len(words)}")
    return words


def _short(a):
    """Nested lists of floats kept to 10 significant digits (the page shows 4 decimals and the
    JSON stays small), with -0.0 turned into 0.0 so every reader formats zero the same way."""
    if isinstance(a, np.ndarray) and a.ndim:
        return [_short(row) for row in a]
    return float(f"{float(a):.10g}") + 0.0


def _exact(a):
    """Nested lists of floats at full precision (for the facts the prose quotes)."""
    return (np.asarray(a, dtype=np.float64) + 0.0).tolist()


def _projections(heads: int):
    """Identity projections split among the heads: head h reads coordinates h*w .. h*w + w - 1."""
    w = WIDTH // heads
    wq = np.zeros((heads, WIDTH, w))  # (H, D, K)
    for h in range(heads):
        wq[h, h * w:(h + 1) * w] = np.eye(w)
    return wq


def _case(tokens, heads: int, causal: bool, positions: bool, tidy=_short) -> dict:
    """One toggle combination: the inputs and, per head, scores, scaled scores, exps, sums, shares, results."""
    n = len(tokens)
    colours = np.array([PALETTE[t] for t in tokens])  # (T, D)
    pe = sinusoidal_positions(n, WIDTH) if positions else np.zeros((n, WIDTH))  # (T, D)
    x = colours + pe  # (T, D)
    wq = _projections(heads)  # (H, D, K) identities, so Q = K = V = X within each head's coordinates
    out, cache = attention_forward(x, wq, wq, wq, causal=causal)  # out (T, D)
    allowed = np.tril(np.ones((n, n), dtype=bool)) if causal else np.ones((n, n), dtype=bool)  # (T, T)
    k_width = wq.shape[2]
    per_head = []
    for h in range(heads):
        cols = slice(h * k_width, (h + 1) * k_width)
        q = x[:, cols]  # (T, K) query rows before scaling: the identity leaves the inputs as they are
        k = cache.k[0, h]  # (T, K)
        if not (np.array_equal(k, q) and np.array_equal(cache.v[0, h], q)):
            raise AssertionError("identity projections changed a key or value")  # so the view reads them from inputs
        raw = q @ k.T  # (T, T) dot products of every query with every key
        scaled = cache.q[0, h] @ k.T  # (T, T) the engine's scores: queries arrive divided by sqrt(K)
        exps = np.where(allowed, np.exp(np.where(allowed, scaled, 0.0)), 0.0)  # (T, T) e^score, 0 where blocked
        sums = exps.sum(axis=1)  # (T,) each row's total
        shares = cache.weights[h]  # (T, T) the engine's softmax
        if not np.allclose(shares, exps / sums[:, None], rtol=1e-12, atol=1e-15):
            raise AssertionError("softmax weights disagree with exps / sums")  # a bug, not a bad option
        per_head.append({
            "coords": [h * k_width, (h + 1) * k_width - 1],
            "d_k": k_width,
            "sqrt_d": math.sqrt(k_width),
            "raw": tidy(raw),
            "scaled": [[tidy(s) if ok else None for s, ok in zip(srow, arow)]  # None: blocked (-inf)
                       for srow, arow in zip(scaled, allowed)],
            "exps": tidy(exps),
            "sums": tidy(sums),
            "shares": tidy(shares),
        })
    # One head keeps the identity everywhere; two heads are concatenated and projected by W_O,
    # which equals each head writing its own result through its own rows of W_O, added up.
    projected = out @ W_O if heads == 2 else None  # (T, D)
    if projected is not None:
        for h, head in enumerate(per_head):
            rows = slice(h * k_width, (h + 1) * k_width)
            head["written"] = tidy(out[:, rows] @ W_O[rows])  # (T, D) this head's share of the projected result
    return {
        "positions": tidy(pe) if positions else None,
        "inputs": tidy(x),
        "heads": per_head,
        "out": tidy(out),  # one head: the result; two heads: the concatenation, before W_O
        "w_o": tidy(W_O) if projected is not None else None,
        "projected": tidy(projected) if projected is not None else None,  # the two heads' result after W_O
    }


@functools.lru_cache(maxsize=16)
def _all_cases(tokens, tidy=_short) -> list:
    """cases[heads - 1][causal][positions] for every toggle combination. Kept per sequence (shared:
    every caller only reads them), so a reader's edit computes its own sequence's cases, not the
    offered ones again."""
    return [[[_case(tokens, h, bool(c), bool(p), tidy) for p in (0, 1)] for c in (0, 1)] for h in (1, 2)]


def compute(p: Params) -> dict:
    tokens = tuple(p.tokens)  # each a colour of PALETTE: Params checked it
    offered = [tuple(c.split()) for c in p.choices]
    sequences = list(dict.fromkeys(offered))  # menu order, repeats dropped
    if tokens not in sequences:
        sequences.append(tokens)  # a reader's own edit joins the menu at the end
    cases = {seq: _all_cases(seq) for seq in sequences}

    return {
        "palette": {name: list(vec) for name, vec in PALETTE.items()},
        "width": WIDTH,
        "sequences": [{"tokens": list(seq), "cases": cases[seq]} for seq in sequences],
        "start": {"sequence": sequences.index(tokens), "heads": p.heads, "causal": p.causal,
                  "positions": p.positions, "row": p.row, "controls": list(dict.fromkeys(p.controls))},
    }


PARTS = {"number": "{v:~4}", "blocked": "−∞"}  # shipped as text.parts: the view prints by them


def num(x) -> str:
    """Whole numbers as they are, others to 4 decimals (PARTS["number"]), blocked scores (None) as −∞."""
    return PARTS["blocked"] if x is None else fill(PARTS["number"], {"v": x})


def vec(xs) -> str:
    return "[" + ", ".join(num(x) for x in xs) + "]"


def _settings(heads: int, causal: bool, positions: bool) -> str:
    return ", ".join([
        "one head" if heads == 1 else "two heads",
        "future tokens blocked" if causal else "future tokens readable",
        "positional encoding added" if positions else "no positional encoding",
    ])


def _names(tokens) -> list[str]:
    return [f"{t} ({i + 1})" for i, t in enumerate(tokens)]


def _lines(tokens, case, settings: str) -> list[str]:
    names = _names(tokens)
    lines = [f"Tokens: {', '.join(tokens)} ({settings})"]
    for h, head in enumerate(case["heads"]):
        prefix = "Shares" if len(case["heads"]) == 1 else f"Head {h + 1} shares"
        lines += [f"{prefix} of {name}: {', '.join(num(x) for x in row)}" for name, row in zip(names, head["shares"])]
    if case["projected"] is None:
        lines += [f"Result for {name}: {vec(row)}" for name, row in zip(names, case["out"])]
    else:
        lines += [f"Result for {name}: concatenated {vec(row)}, after W_O {vec(proj)}"
                  for name, row, proj in zip(names, case["out"], case["projected"])]
    return lines


def start_case(data: dict):
    """The tokens, their names and the case the figure opens on."""
    s = data["start"]
    seq = data["sequences"][s["sequence"]]
    return seq["tokens"], _names(seq["tokens"]), seq["cases"][s["heads"] - 1][int(s["causal"])][int(s["positions"])]


def worked(data: dict) -> list[str]:
    """The arithmetic for the gathering token the figure opens on, one step a line."""
    tokens, names, case = start_case(data)
    i = data["start"]["row"]
    lines = [f"{names[i]} gathers"]
    for h, head in enumerate(case["heads"]):
        if len(case["heads"]) > 1:
            lines.append(f"head {h + 1} (coordinates {head['coords'][0] + 1}–{head['coords'][1] + 1})")
        lines += [
            "raw scores: " + ", ".join(num(x) for x in head["raw"][i]),
            f"scaled scores, ÷ √{head['d_k']}: " + ", ".join(num(x) for x in head["scaled"][i]),
            "exp: " + ", ".join(num(x) for x in head["exps"][i]) + f"  (total {num(head['sums'][i])})",
            "shares: " + ", ".join(num(x) for x in head["shares"][i]),
        ]
    if case["projected"] is None:
        lines.append("result: " + vec(case["out"][i]))
    else:
        lines.append("concatenated: " + vec(case["out"][i]))
        lines.append("after W_O: " + vec(case["projected"][i]))
    return lines


@functools.lru_cache(maxsize=16)
def _states(tokens: tuple[str, ...]) -> list:
    """The text states of one sequence's cases (compute's: _all_cases(tokens)), kept like them."""
    cases = _all_cases(tokens)
    return [{"numbers": _lines(list(tokens), cases[h][c][q], _settings(h + 1, bool(c), bool(q)))}
            for h in (0, 1) for c in (0, 1) for q in (0, 1)]


def text(p: Params, data: dict) -> dict:
    states = [state for seq in data["sequences"] for state in _states(tuple(seq["tokens"]))]
    s = data["start"]
    tokens, names, case = start_case(data)
    settings = _settings(s["heads"], s["causal"], s["positions"])
    parts = []
    for h, head in enumerate(case["heads"]):
        label = "" if len(case["heads"]) == 1 else f"head {h + 1}: "
        parts.append(label + "; ".join(f"{name} gives shares {', '.join(num(x) for x in row)}"
                                      for name, row in zip(names, head["shares"])))
    ends = case["out"] if case["projected"] is None else case["projected"]
    results = "; ".join(f"{name} ends as {vec(row)}" for name, row in zip(names, ends))
    if case["projected"] is not None:
        results = ("the heads' results are concatenated and multiplied by the output projection W_O, rows "
                   + "; ".join(vec(r) for r in case["w_o"]) + "; " + results)
    start = opening_state(p, data)
    return {
        "alt": (f"Self-attention over the colour tokens {', '.join(tokens)} with identity projections "
                f"({settings}). Table of attention shares, one row per gathering token: " + ". ".join(parts)
                + f". Results: {results}. Beside it, the arithmetic for {names[s['row']]}: "
                + "; ".join(worked(data)[1:]) + "."),
        "numbers": states[start]["numbers"],
        "states": states,
        "heads": [f"one, {WIDTH} wide", f"two, {WIDTH // 2} wide each"],  # the heads menu, indexed like heads - 1
        "parts": PARTS,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: per sequence, heads (one, two) by causal by positions."""
    return len(data["sequences"]) * 8


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the options' sequence and settings."""
    s = data["start"]
    return ((s["sequence"] * 2 + s["heads"] - 1) * 2 + int(s["causal"])) * 2 + int(s["positions"])


def facts(p: Params, data: dict) -> dict:
    """The worked example the prose quotes, at full precision, whatever the options."""
    rb = _all_cases(("red", "blue", "red"), _exact)
    one = rb[0][0][0]  # one head, nothing blocked, no positions
    two = rb[1][0][0]  # two heads
    masked = rb[0][1][0]  # future tokens blocked
    placed = rb[0][0][1]  # positions added
    moved = _all_cases(("blue", "red", "red"), _exact)[0][0][0]
    h1 = one["heads"][0]
    return {
        "width": WIDTH,
        "sqrt_width": math.sqrt(WIDTH),
        "red_score_red": h1["raw"][0][0],
        "red_score_blue": h1["raw"][0][1],
        "red_scaled_red": h1["scaled"][0][0],
        "exp_half": h1["exps"][0][0],
        "red_sum": h1["sums"][0],
        "red_share_red": h1["shares"][0][0],
        "red_share_blue": h1["shares"][0][1],
        "blue_share_red": h1["shares"][1][0],
        "blue_share_blue": h1["shares"][1][1],
        "red_result_red": one["out"][0][0],
        "red_result_blue": one["out"][0][1],
        "blue_result_red": one["out"][1][0],
        "blue_result_blue": one["out"][1][1],
        "two_head_width": two["heads"][0]["d_k"],
        "two_head_red_share_red": two["heads"][0]["shares"][0][0],
        "two_head_second_share": two["heads"][1]["shares"][0][0],
        "w_o_entry": float(abs(W_O[0][0])),
        "w_o_negative": int((W_O < 0).sum()),
        "w_o_entries": int(W_O.size),
        "two_head_concat_red_0": two["out"][0][0],
        "two_head_concat_red_1": two["out"][0][1],
        "two_head_out_red_0": two["projected"][0][0],
        "two_head_out_red_1": two["projected"][0][1],
        "two_head_second_written_max": float(np.abs(two["heads"][1]["written"]).max()),
        "masked_first_share": masked["heads"][0]["shares"][0][0],
        "masked_blue_share_blue": masked["heads"][0]["shares"][1][1],
        "moved_blue_result_red": moved["out"][0][0],
        "placed_last_red_input_0": placed["inputs"][2][0],
        "placed_last_red_input_1": placed["inputs"][2][1],
    }
