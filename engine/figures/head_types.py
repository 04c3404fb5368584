"""head-types: a previous-word, a same-word and an induction head, built by hand, on one sentence.

Each token enters as a vector of three slots: a one-hot of its token (tokens keep their leading
space, as real tokenisers do), a one-hot of its position, and an empty "previous" slot as wide as
the token slot. The heads are designed query and key matrices on those features and run through
`attention_forward` with the causal mask, so every pattern is real attention arithmetic. The
induction head sits in a second layer. Between the layers the previous-word head's output goes
through its output matrix W_O, which places it in the "previous" slot, and is *added* to each
token's vector, as a residual connection does (chapter 10): the sum leaves the token and position
slots as they were, and the induction head's keys read the slot (the token before each position).
Text states are indexed head-major: state h * T + i is head `heads[h]` with token i gathering.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..attention import attention_forward
from .fmt import fill
from .params import field

# The sentence as a tokeniser would cut it: a leading space belongs to the token after it,
# so "The" at the start and " the" later are different tokens.
TOKENS = ("The", " dog", " chased", " the", " ball", ",", " then", " the", " dog", " chased", " the", " cat", ".")
HEADS = ("previous", "same", "induction")
NAMES = {"previous": "previous-word head", "same": "same-word head", "induction": "induction head"}
TARGETS = {  # what each head is built to find, as the figure's text says it
    "previous": "the word just before",
    "same": "an earlier copy of the same word",
    "induction": "the word that followed an earlier copy of the same word",
}
GAP = 6.0  # the scaled score a head gives its target above the rest: e^6 ≈ 403 times the weight
REST = 3.0  # the scaled score of the first token, where a head with nothing to find rests
SPACE = "·"  # how a chip shows a leading space


@dataclass(frozen=True)
class Params:
    head: str = field("previous", choices=HEADS, doc="the head shown first (the chapter's order)")
    row: int = field(8, lo=0, hi=len(TOKENS) - 1, doc="the token whose attention is shown first (the second \" dog\")")


EXAMPLE = {"head": "same", "row": 3}


def _features():
    """x = [token one-hot | position one-hot | previous slot, empty]: (T, V + T + V), with the
    vocabulary in order of first use."""
    vocab = list(dict.fromkeys(TOKENS))
    t, v = len(TOKENS), len(vocab)
    x = np.zeros((t, v + t + v))  # (T, V+T+V)
    for i, tok in enumerate(TOKENS):
        x[i, vocab.index(tok)] = 1.0
        x[i, v + i] = 1.0
    return vocab, x


def _write(v: int, t: int):
    """The previous-word head's output matrix W_O: (V, V+T+V), its output into the "previous" slot."""
    w_o = np.zeros((v, v + t + v))  # (V, D)
    w_o[:, v + t:] = np.eye(v)
    return w_o


def _previous(v: int, t: int):
    """Layer 1: position i's query matches position i - 1's key; the value copies the token one-hot."""
    d = v + t + v
    wq = np.zeros((1, d, t))  # (1, D, K=T)
    wk = np.zeros((1, d, t))
    for i in range(1, t):
        wq[0, v + i, i - 1] = GAP * math.sqrt(t)  # the engine divides by sqrt(K): the scaled gap is GAP
    wk[0, v:v + t, :] = np.eye(t)  # each key is its position
    wv = np.zeros((1, d, v))  # (1, D, V)
    wv[0, :v, :] = np.eye(v)  # each value is its token
    return wq, wk, wv


def _rest_column(wq, wk, v: int, t: int, col: int, k: int):
    """Every query puts REST into column `col`, which only the first token's key holds: where a head
    finds nothing it rests on the first token."""
    wq[0, v:v + t, col] = REST * math.sqrt(k)  # every position row: a constant for every query
    wk[0, v, col] = 1.0  # position 0 only


def _same(v: int, t: int):
    """Layer 1: a token's query matches keys of the same token, minus its own position."""
    d, k = v + t + v, v + t + 1
    wq = np.zeros((1, d, k))  # (1, D, K)
    wk = np.zeros((1, d, k))
    wq[0, :v, :v] = GAP * math.sqrt(k) * np.eye(v)  # token matches token
    wq[0, v:v + t, v:v + t] = -GAP * math.sqrt(k) * np.eye(t)  # ... but not at its own position
    wk[0, :v + t, :v + t] = np.eye(v + t)
    _rest_column(wq, wk, v, t, k - 1, k)
    return wq, wk, np.zeros((1, d, 1))


def _induction(v: int, t: int):
    """Layer 2, on x + layer 1's output: a token's query matches keys whose previous token it is."""
    d, k = v + t + v, v + 1
    wq = np.zeros((1, d, k))
    wk = np.zeros((1, d, k))
    wq[0, :v, :v] = GAP * math.sqrt(k) * np.eye(v)  # the query reads the token itself
    wk[0, v + t:, :v] = np.eye(v)  # the key reads the previous slot, written there by layer 1
    _rest_column(wq, wk, v, t, k - 1, k)
    return wq, wk, np.zeros((1, d, 1))


def _targets(head: str, i: int) -> list[int]:
    """The positions a head is built to find for token i (possibly none)."""
    if head == "previous":
        return [i - 1] if i > 0 else []
    if head == "same":
        return [j for j in range(i) if TOKENS[j] == TOKENS[i]]
    return [j for j in range(1, i + 1) if TOKENS[j - 1] == TOKENS[i] and j - 1 < i]


def compute(p: Params) -> dict:
    vocab, x = _features()
    t, v = len(TOKENS), len(vocab)
    prev_out, prev_cache = attention_forward(x, *_previous(v, t), causal=True)  # (T, V): the token before each
    x2 = x + prev_out @ _write(v, t)  # (T, V+T+V) the residual addition: layer 1 writes into the empty slot
    _, same_cache = attention_forward(x, *_same(v, t), causal=True)
    _, ind_cache = attention_forward(x2, *_induction(v, t), causal=True)
    weights = {"previous": prev_cache.weights[0], "same": same_cache.weights[0], "induction": ind_cache.weights[0]}
    heads = []
    for name in HEADS:
        w = weights[name]  # (T, T)
        targets = [_targets(name, i) for i in range(t)]
        tops = [int(row.argmax()) for row in w]
        with_target = [i for i in range(t) if targets[i]]
        hits = [i for i in with_target if tops[i] in targets[i]]
        heads.append({
            "name": name,
            "weights": w.tolist(),
            "targets": targets,
            "top": tops,
            "rows_with_target": len(with_target),
            "hits": len(hits),
            "share": len(hits) / len(with_target),
            "target_weight": [float(w[i, targets[i]].sum()) if targets[i] else None for i in range(t)],
        })
    return {
        "tokens": list(TOKENS),
        "chips": [tok.replace(" ", SPACE) for tok in TOKENS],
        "vocab_size": v,
        "width": x.shape[1],
        "slots": {"token": v, "position": t, "previous": v},  # the widths of the three slots, in order
        "previous_written": prev_out.tolist(),  # (T, V) what layer 1 writes for the induction head
        "written_chip": [vocab[int(r.argmax())].replace(" ", SPACE) for r in prev_out],  # its largest entry, as a chip
        "heads": heads,
        "start": {"head": HEADS.index(p.head), "row": p.row},
    }


PARTS = {"weight": "{v:2}", "share": "{v:0}%"}


def _chip(data, i: int) -> str:
    return f"“{data['chips'][i]}” ({i + 1})"


def _state(data, h: int, i: int) -> dict:
    head = data["heads"][h]
    w = head["weights"][i]
    seen = range(i + 1)  # the causal mask: later tokens get exactly nothing
    line = f"{NAMES[head['name']]}, {_chip(data, i)} looks at: " + ", ".join(
        f"{data['chips'][j]} {fill(PARTS['weight'], {'v': w[j]})}" for j in seen)
    top = head["top"][i]
    if head["targets"][i]:
        verdict = (f"Largest weight {fill(PARTS['weight'], {'v': w[top]})} on {_chip(data, top)}: "
                   + ("its target" if top in head["targets"][i] else "not its target")
                   + f" ({TARGETS[head['name']]}: " + ", ".join(_chip(data, j) for j in head["targets"][i]) + ")")
    else:
        verdict = (f"No target ({TARGETS[head['name']]}) for {_chip(data, i)}: largest weight "
                   f"{fill(PARTS['weight'], {'v': w[top]})} on {_chip(data, top)}")
    return {"numbers": [line, verdict], "label": verdict}


def _summary(data, head) -> str:
    pct = fill(PARTS["share"], {"v": 100 * head["share"]})
    return (f"{NAMES[head['name']].capitalize()}: largest weight on {TARGETS[head['name']]} in "
            f"{head['hits']} of {head['rows_with_target']} tokens that have one ({pct})")


def text(p: Params, data: dict) -> dict:
    t = len(data["tokens"])
    states = [_state(data, h, i) for h in range(len(data["heads"])) for i in range(t)]
    i = opening_state(p, data)
    summary = [_summary(data, head) for head in data["heads"]]
    return {
        "alt": ("Three hand-built attention heads on the tokens " + " | ".join(data["chips"])
                + " (a dot marks a leading space). " + ". ".join(summary) + ". Shown: "
                + " ".join(states[i]["numbers"])),
        "numbers": states[i]["numbers"] + summary,
        "states": states,
        "fixed": summary,
        "heads": [NAMES[h["name"]] for h in data["heads"]],  # the head buttons, indexed like heads
        "space": {"mark": SPACE, "name": "a leading space"},  # a chip starting with the mark shows it apart
        "parts": PARTS,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per head and row."""
    return len(data["heads"]) * len(data["tokens"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the options' head and row."""
    return data["start"]["head"] * len(data["tokens"]) + data["start"]["row"]


def facts(p: Params, data: dict) -> dict:
    by = {h["name"]: h for h in data["heads"]}
    second_dog = data["tokens"].index(" dog", 2)
    ind = by["induction"]
    last_the = len(data["tokens"]) - 1 - data["tokens"][::-1].index(" the")
    return {
        "tokens": len(data["tokens"]),
        "features": data["width"],
        "token_slot": data["slots"]["token"],
        "position_slot": data["slots"]["position"],
        "previous_slot": data["slots"]["previous"],
        "gap": GAP,
        "rest": REST,
        **{f"{n}_share": by[n]["share"] for n in HEADS},
        **{f"{n}_rows": by[n]["rows_with_target"] for n in HEADS},
        **{f"{n}_hits": by[n]["hits"] for n in HEADS},
        "second_dog": second_dog + 1,
        "induction_dog_weight": ind["weights"][second_dog][ind["top"][second_dog]],
        "induction_dog_target": data["chips"][ind["top"][second_dog]].strip("·"),
        "same_dog_weight": by["same"]["weights"][second_dog][by["same"]["top"][second_dog]],
        "previous_written_dog": data["previous_written"][second_dog][data["tokens"].index(" the")],
        # the last " the" follows two earlier copies, so the induction head splits between their successors
        "last_the": last_the + 1,
        "last_the_ball": ind["weights"][last_the][data["tokens"].index(" ball")],
        "last_the_dog": ind["weights"][last_the][second_dog],
    }
