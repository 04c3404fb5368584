"""residual-stream: a two-layer decoder with hand-set weights, run by engine/block.py's block_forward.

Each word's stream starts as its embedding: a one-hot of its token next to a one-hot of its
position. Layer 1's attention head looks one word back and writes that word into a "previous"
slot; layer 1's feed-forward layer is a small memory of word pairs, writing a guess into a "next"
slot; layer 2's head is an induction head (chapter 7): its query is the current word, its keys the
"previous" slots layer 1 wrote, and it copies the word found into the "next" slot; layer 2's
feed-forward layer strengthens a clear guess. A final layer norm and unembedding read the "next"
slot. Every feature is stored twice, once negated, so that each row's mean is exactly 0 and layer
norm only rescales the stream (a design choice of this toy, not of real models).
Sizes are lengths of the features, the negated copy left out.
Text states are indexed stage-major: state s * T + i is stage `STAGES[s]` at word i.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import block
from ..attention import softmax_forward
from .fmt import fixed
from .params import field

TOKENS = ("<s>", "Ada", "Lovelace", "wrote", "notes", ",", "so", "Ada")
WORDS = ("Ada", "Lovelace", "wrote", "notes", ",", "so", "and", "the")  # what the readout can predict
VOCAB = ("<s>",) + WORDS  # what the embedding knows: the words and the start marker
MEMORY = {"wrote": "the", ",": "and"}  # the word pairs layer 1's feed-forward layer stores
STAGES = ("embedding", "attention 1", "FFN 1", "attention 2", "FFN 2")
STAGE_LABELS = ("the embedding", "+ attention 1", "+ FFN 1", "+ attention 2", "+ FFN 2")
SLOTS = ("token", "position", "previous", "next")
GAP1 = 8.0   # layer 1: the scaled score of the word just before, above the rest
GAP2 = 9.0   # layer 2: the scaled score of a key whose previous word is the query's word
REST = 5.0   # layer 2: the scaled score of <s>, where the head rests when it finds nothing
FIRE = 3.0   # a feed-forward unit's pre-activation when its pattern is present (and -FIRE when not)
AMP = 1.5    # how much layer 2's feed-forward layer adds to a clear guess in the next slot
UNEMBED = 1.0  # the readout's gain on the normalised next slot
SHOWN = 0.05  # a slot entry smaller than this is not named in the text
EVEN = 0.01  # a readout whose probabilities differ by less than this has no preference

V, T, W = len(VOCAB), len(TOKENS), len(WORDS)
OFF = {"token": 0, "position": V, "previous": V + T, "next": V + T + V}
N = V + T + V + W  # features; the stream is twice as wide (each feature and its negation)
D = 2 * N


@dataclass(frozen=True)
class Params:
    stage: int = field(0, lo=0, hi=len(STAGES) - 1, doc="the stage shown first")
    word: int = field(len(TOKENS) - 1, lo=0, hi=len(TOKENS) - 1, doc="the word shown first (the last \"Ada\")")


EXAMPLE = {"stage": 3, "word": 5}


def _write(u):
    """A vector of features written into the stream: the features, then their negations."""
    u = np.asarray(u, dtype=np.float64)
    return np.concatenate([u, -u], axis=-1)  # (..., D)


def _scale(norm2: float) -> float:
    """What layer norm multiplies a stream's features by when their squared length is norm2."""
    return math.sqrt(N / norm2)


def _embedding():
    u = np.zeros((T, N))  # (T, N)
    for i, tok in enumerate(TOKENS):
        u[i, OFF["token"] + VOCAB.index(tok)] = 1.0
        u[i, OFF["position"] + i] = 1.0
    return _write(u)  # (T, D)


def _norms():
    return {"ln1_gain": np.ones(D), "ln1_bias": np.zeros(D), "ln2_gain": np.ones(D), "ln2_bias": np.zeros(D)}


def _layer1():
    s = _scale(2.0)  # the embedding holds two features of size 1
    k = T
    wq, wk = np.zeros((1, D, k)), np.zeros((1, D, k))
    for i in range(1, T):
        wq[0, OFF["position"] + i, i - 1] = GAP1 * math.sqrt(k) / s ** 2  # position i asks for position i - 1
    for j in range(T):
        wk[0, OFF["position"] + j, j] = 1.0
    wv = np.zeros((1, D, V))
    wv[0, OFF["token"]:OFF["token"] + V, :] = np.eye(V)  # the value is the token
    wo = np.zeros((V, N))  # written into the previous slot, at size 1 once multiplied by the norm's scale
    wo[:, OFF["previous"]:OFF["previous"] + V] = np.eye(V) / s
    p = _norms() | {"wq": wq, "wk": wk, "wv": wv, "wo": _write(wo)}
    s2 = _scale(3.0)  # token, position and previous word
    # one unit per word; units with nothing stored sit so far below zero that GELU gives exactly 0
    w1, b1, w2 = np.zeros((D, W)), np.full(W, -4 * FIRE), np.zeros((W, N))
    fire = block.gelu_forward(np.array(FIRE))[0]
    for word, guess in MEMORY.items():
        u = WORDS.index(word)
        w1[OFF["token"] + VOCAB.index(word), u] = 2 * FIRE / s2
        b1[u] = -FIRE
        w2[u, OFF["next"] + WORDS.index(guess)] = 1.0 / fire
    return p | {"w1": w1, "b1": b1, "w2": _write(w2), "b2": np.zeros(D)}


def _layer2():
    s = _scale(3.0)  # token, position and previous word
    k = W + 1
    wq, wk = np.zeros((1, D, k)), np.zeros((1, D, k))
    for w, word in enumerate(WORDS):
        wq[0, OFF["token"] + VOCAB.index(word), w] = GAP2 * math.sqrt(k) / s ** 2  # the query is the word ...
        wk[0, OFF["previous"] + VOCAB.index(word), w] = 1.0  # ... the key the word before
    wq[0, OFF["position"]:OFF["position"] + T, W] = REST * math.sqrt(k) / s ** 2  # every query ...
    wk[0, OFF["token"] + VOCAB.index("<s>"), W] = 1.0  # ... also matches <s> a little
    wv = np.zeros((1, D, W))
    for w, word in enumerate(WORDS):
        wv[0, OFF["token"] + VOCAB.index(word), w] = 1.0  # the value is the word; <s> has none
    wo = np.zeros((W, N))
    wo[:, OFF["next"]:OFF["next"] + W] = np.eye(W) / s
    p = _norms() | {"wq": wq, "wk": wk, "wv": wv, "wo": _write(wo)}
    s2 = _scale(4.0)  # token, position, previous and next
    fire = block.gelu_forward(np.array(FIRE))[0]
    w1, w2 = np.zeros((D, W)), np.zeros((W, N))
    for w in range(W):
        w1[OFF["next"] + w, w] = 2 * FIRE / s2  # fires when the guess is about 1, not when it is faint
        w2[w, OFF["next"] + w] = AMP / fire
    return p | {"w1": w1, "b1": np.full(W, -FIRE), "w2": _write(w2), "b2": np.zeros(D)}


def _readout(x):
    """Final layer norm, then the unembedding reads the next slot: (T, D) -> probabilities (T, W)."""
    n, _ = block.layernorm_forward(x, np.ones(D), np.zeros(D))  # (T, D)
    logits = UNEMBED * n[:, OFF["next"]:OFF["next"] + W]  # (T, W)
    probs, _ = softmax_forward(logits)
    return probs


def run(layers=None):
    """The stream after each stage, what each stage added, and the two attention patterns."""
    layers = layers or (_layer1(), _layer2())
    x = _embedding()
    streams, adds, patterns = [x], [x], []
    for p in layers:
        out, cache = block.block_forward(x, p)
        streams += [cache.mid, out]
        adds += [cache.attn_out, cache.ffn_out]
        patterns.append(cache.attn.attn.weights[0])  # (T, T) one head per layer
        x = out
    return streams, adds, patterns


def run_replacing(layers=None):
    """The same sublayers with each output replacing the stream instead of adding to it: the
    stream after the last one, (T, D). For comparison only; no real model works this way."""
    layers = layers or (_layer1(), _layer2())
    x = _embedding()
    for p in layers:
        n1, _ = block.layernorm_forward(x, p["ln1_gain"], p["ln1_bias"])
        x, _ = block.self_attention_forward(n1, p["wq"], p["wk"], p["wv"], p["wo"])
        n2, _ = block.layernorm_forward(x, p["ln2_gain"], p["ln2_bias"])
        x, _ = block.ffn_forward(n2, p["w1"], p["b1"], p["w2"], p["b2"])
    return x


def _label(slot: str, f: int) -> str:
    if slot == "position":
        return str(f + 1)
    return (WORDS if slot == "next" else VOCAB)[f]


def _entries(u, min_size=SHOWN):
    """The features of u (N,) that are at least min_size, by slot, largest first within a slot."""
    out = []
    for slot in SLOTS:
        lo = OFF[slot]
        hi = lo + (W if slot == "next" else T if slot == "position" else V)
        part = u[lo:hi]
        for f in np.argsort(-np.abs(part), kind="stable"):
            if abs(part[f]) >= min_size:
                out.append({"slot": slot, "label": _label(slot, int(f)), "value": float(part[f])})
    return out


def compute(p: Params) -> dict:
    streams, adds, patterns = run()
    probs = [_readout(x) for x in streams]  # per stage (T, W)
    # (S, T) the size of what each stage added: the length of its features (the negated copy left out)
    norms = [[float(np.linalg.norm(a[i, :N])) for i in range(T)] for a in adds]
    totals = [sum(norms[s][i] for s in range(len(STAGES))) for i in range(T)]
    layer_of = {1: 0, 3: 1}  # stage -> attention layer
    looks = []
    for s in range(len(STAGES)):
        row = []
        for i in range(T):
            if s in layer_of:
                w = patterns[layer_of[s]][i]
                j = int(w.argmax())
                row.append({"at": j, "weight": float(w[j])})
            else:
                row.append(None)
        looks.append(row)
    return {
        "tokens": list(TOKENS),
        "words": list(WORDS),
        "stages": list(STAGES),
        "stage_labels": list(STAGE_LABELS),
        "slots": list(SLOTS),
        "width": D,
        "features": N,
        "adds": [[_entries(a[i, :N]) for i in range(T)] for a in adds],  # what each stage wrote, per word
        "streams": [[_entries(x[i, :N]) for i in range(T)] for x in streams],  # the stream after each stage
        "norms": norms,
        "bar_max": max(totals),
        "looks": looks,  # where each attention stage's head put its largest weight, per word
        "probs": [pr.tolist() for pr in probs],  # (S, T, W) the readout if the stream stopped here
        "top": [[int(np.argmax(pr[i])) for i in range(T)] for pr in probs],
        "even": [[bool(pr[i].max() - pr[i].min() < EVEN) for i in range(T)] for pr in probs],  # no preference
        "start": {"stage": p.stage, "word": p.word},
    }


PARTS = {"norm": "{v:2}", "prob": "{v:2}", "value": "{v:2}"}


def _chip(data, i: int) -> str:
    return f"“{data['tokens'][i]}” ({i + 1})"


def _describe(entries) -> str:
    return "; ".join(f"{e['slot']} {e['label']} {fixed(e['value'])}" for e in entries) or "nothing"


def _state(data, s: int, i: int) -> dict:
    stage = data["stages"][s]
    added = data["adds"][s][i]
    look = data["looks"][s][i]
    if s == 0:
        first = f"{_chip(data, i)} enters as its embedding (size {fixed(data['norms'][0][i])}): {_describe(added)}"
    else:
        first = f"{stage} added {fixed(data['norms'][s][i])} to {_chip(data, i)}: {_describe(added)}"
        if look is not None:
            first += f" (its head read {_chip(data, look['at'])}, weight {fixed(look['weight'])})"
    stream = f"Stream of {_chip(data, i)} now: {_describe(data['streams'][s][i])}"
    probs = data["probs"][s][i]
    order = sorted(range(len(probs)), key=lambda w: -probs[w])[:3]
    readout = f"Readout at {_chip(data, i)} after {data['stage_labels'][s].lstrip('+ ')}: "
    if max(probs) - min(probs) < EVEN:
        readout += f"no preference, every word about {fixed(1 / len(probs))}"
    else:
        readout += ", ".join(f"{data['words'][w]} {fixed(probs[w])}" for w in order)
    return {"numbers": [first, stream, readout], "label": first[0].upper() + first[1:]}


def text(p: Params, data: dict) -> dict:
    t = len(data["tokens"])
    states = [_state(data, s, i) for s in range(len(data["stages"])) for i in range(t)]
    last = t - 1
    final = data["probs"][-1][last]
    top = data["top"][-1][last]
    fixed_lines = [f"Prediction after the last word, {_chip(data, last)}: {data['words'][top]}, "
                   f"probability {fixed(final[top])}"]
    opening = states[opening_state(p, data)]["numbers"]
    sizes = "; ".join(f"{data['tokens'][i]} " + ", ".join(fixed(data["norms"][k][i]) for k in range(len(data["stages"])))
                      for i in range(t))
    return {
        "alt": ("A two-layer decoder on the words " + " ".join(data["tokens"]) + ". Sizes of what the embedding, "
                "attention 1, FFN 1, attention 2 and FFN 2 add to each word's stream: " + sizes + ". "
                + fixed_lines[0] + "."),
        "numbers": opening + fixed_lines,
        "states": states,
        "fixed": fixed_lines,
        "stages": list(data["stage_labels"]),
        "parts": PARTS,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per stage and word."""
    return len(data["stages"]) * len(data["tokens"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the options' stage and word."""
    return data["start"]["stage"] * len(data["tokens"]) + data["start"]["word"]


LN_EXAMPLE = (2.0, 4.0, 6.0, 8.0)  # chapter 10's worked layer normalisation, on four numbers
LN_FACTOR = 10  # ... and on the same numbers this many times larger


def _layer_norm_example() -> dict:
    """Layer normalisation of LN_EXAMPLE (gain 1, bias 0) by the engine, step by step, and of
    LN_FACTOR times it, which comes out the same: the layer fixes the scale of a vector, whatever it was."""
    x = np.array(LN_EXAMPLE)  # (4,)
    out, _ = block.layernorm_forward(x, np.ones(len(x)), np.zeros(len(x)))  # (4,)
    scaled, _ = block.layernorm_forward(LN_FACTOR * x, np.ones(len(x)), np.zeros(len(x)))  # (4,)
    mean = float(x.mean())
    var = float(((x - mean) ** 2).mean())
    return {"x": list(LN_EXAMPLE), "n": len(x), "mean": mean, "deviations": (x - mean).tolist(), "variance": var,
            "std": math.sqrt(var), "out": out.tolist(), "factor": LN_FACTOR, "out_scaled": scaled.tolist(),
            "eps": block.LN_EPS}


def facts(p: Params, data: dict) -> dict:
    last = len(data["tokens"]) - 1
    target = data["words"].index("Lovelace")
    by_stage = {name.replace(" ", "_"): data["probs"][s][last][target] for s, name in enumerate(data["stages"])}
    probs_none = _readout(run_replacing())
    gpt3 = {"layers": 96, "d_model": 12288, "heads": 96, "d_head": 128}  # Brown et al. 2020, Table 2.1
    base = {"layers": 6, "d_model": 512, "heads": 8, "d_ff": 2048}  # Vaswani et al. 2017, Table 3 (base)
    return {
        "tokens": len(data["tokens"]),
        "words": len(data["words"]),
        "features": data["features"],
        **{f"p_{k}": v for k, v in by_stage.items()},
        "prediction": data["words"][data["top"][-1][last]],
        "previous_written": data["streams"][1][last][2]["label"],  # what attention 1 wrote at the last word
        "induction_weight": data["looks"][3][last]["weight"],
        "induction_at": data["looks"][3][last]["at"] + 1,
        "norm_attn1": data["norms"][1][last],
        "norm_ffn1": data["norms"][2][last],
        "norm_attn2": data["norms"][3][last],
        "norm_ffn2": data["norms"][4][last],
        "memory_wrote": data["words"][data["top"][2][data["tokens"].index("wrote")]],
        "memory_wrote_p": max(data["probs"][2][data["tokens"].index("wrote")]),
        "no_residual_p": float(probs_none[last][target]),
        # The cross-entropy a training step would score at the last word, where "Lovelace" comes next.
        "loss_final": -math.log(by_stage["FFN_2"]),
        "loss_even": math.log(len(data["words"])),
        "gpt3_layers": gpt3["layers"],
        "gpt3_d_model": gpt3["d_model"],
        "gpt3_heads": gpt3["heads"],
        "gpt3_d_head": gpt3["d_head"],
        "gpt3_head_product": gpt3["heads"] * gpt3["d_head"],
        "gpt3_d_ff": 4 * gpt3["d_model"],
        "gpt3_estimate_billions": block.rough_parameters(gpt3["layers"], gpt3["d_model"]) / 1e9,
        "gpt3_exact_billions": gpt3["layers"] * block.block_parameters(
            gpt3["d_model"], 4 * gpt3["d_model"], gpt3["heads"], gpt3["d_head"]) / 1e9,
        "base_layers": base["layers"],
        "base_d_model": base["d_model"],
        "base_heads": base["heads"],
        "base_d_ff": base["d_ff"],
        "base_d_head": base["d_model"] // base["heads"],
        "layer_norm": _layer_norm_example(),
    }
