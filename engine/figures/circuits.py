"""circuits: a head read from its weights (Elhage et al. 2021): W_Q W_Kᵀ says which features attend to
which, W_V W_O what gets written; W_Q and W_K alone are not fixed by what the head does.

Three views, each a list of grids (`panels`) the view draws as tables:
- "hand-set": chapter 3's head (engine/tasks/winograd.py): W_Q, W_K, their product over the six
  features, and W_V (one head with no output matrix, so W_O is the identity);
- "refactored": the same head with W_Q M and W_K M⁻ᵀ for an invertible M: other queries and keys,
  the same product, so the same score for every pair of words;
- "trained": chapter 9's trained head (seed `seed`, head `head`) on the word part of its input:
  W_Q W_Kᵀ between words, and W_V followed by the attached-word readout (the model has no W_O: the
  readout is what reads the head's output), the word each input word pushes that readout towards.
Text states are indexed like `views`; `fixed` lists every view's summary, so the page without
JavaScript reads all three; `parts.cell` prints a cell the reader picks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..tasks import grammar, winograd
from .fmt import fixed, rounded
from .params import field

VIEWS = ("hand-set", "refactored", "trained")
LABELS = {"hand-set": "chapter 3's head", "refactored": "same product, other factors",
          "trained": "chapter 9's trained head"}
M = np.array([[1.5, 0.5], [-0.5, 1.0]])  # (2, 2) any invertible matrix: a rotation and a stretch of the query space
CLASSES = (("determiner", grammar.DETS), ("adjective", grammar.ADJS), ("noun", grammar.NOUNS),
           ("verb", grammar.VERBS), ("preposition", grammar.PREPS))
LAST = "tired"  # the pronoun sentence whose scores the hand-set views compare


@dataclass(frozen=True)
class Params:
    view: str = field("hand-set", choices=VIEWS, doc="the view shown first")
    seed: int = field(0, lo=0, hi=2 ** 31 - 1, doc="which training run of chapter 9's model")
    head: int = field(1, choices=(1, 2), doc="which of its heads")


EXAMPLE = {"view": "trained", "seed": 1, "head": 2}


def _panel(title: str, rows, cols, values, kind: str, digits: int = 2) -> dict:
    v = np.asarray(values, dtype=np.float64)
    return {"title": title, "rows": list(rows), "cols": list(cols), "kind": kind,
            "values": rounded(v, digits), "scale": float(np.abs(v).max()) or 1.0}


def _hand_set(wq, wk, wv) -> dict:
    """Panels of a two-number head over the six features, and the scores of "it" in the pronoun sentence."""
    features, x = winograd.FEATURES, winograd.embeddings(LAST)  # (T, 6)
    scores = (x @ wq) @ (x @ wk).T / math.sqrt(wq.shape[1])  # (T, T) scaled scores, as attention computes them
    return {
        "panels": [_panel("W_Q", features, ("1", "2"), wq, "factor"),
                   _panel("W_K", features, ("1", "2"), wk, "factor"),
                   _panel("W_Q W_Kᵀ", features, features, wq @ wk.T, "qk"),
                   _panel("W_V W_O", features, ("animal", "place"), wv, "ov")],
        "words": list(winograd.words(LAST)),
        "it_query": rounded(x[winograd.IT] @ wq, 2),
        "it_scores": (scores[winograd.IT]).tolist(),
    }


def _trained(seed: int, head: int):
    """The word blocks of the trained head's two circuits: (W, W) each, rows the input word."""
    p = grammar.trained(seed).params
    h, n_words, d_v = head - 1, len(grammar.VOCAB), p["wv"].shape[2]
    wq, wk, wv = (p[k][h].astype(np.float64) for k in ("wq", "wk", "wv"))  # (D, K), (D, K), (D, V)
    readout = p["readout"][0][:, h * d_v:(h + 1) * d_v].astype(np.float64)  # (W, V) the attached-word readout's part
    qk = (wq @ wk.T)[:n_words, :n_words]  # (W, W) query word against key word
    ov = (wv @ readout.T)[:n_words]  # (W, W) input word against the word the readout is pushed to
    return qk, ov


def _class_means(qk: np.ndarray) -> list[list[float]]:
    idx = [[grammar.WORD_INDEX[w] for w in words] for _, words in CLASSES]
    return [[float(qk[np.ix_(a, b)].mean()) for b in idx] for a in idx]


def _attachable() -> list[int]:
    """Every word that can be some word's attached target (nouns and verbs in this grammar)."""
    return sorted({grammar.WORD_INDEX[w] for s in grammar.ATTACHED_SLOT for w in grammar.SLOT_POOLS[s]})


def compute(p: Params) -> dict:
    wq, wk, wv = (m[0] for m in winograd.matrices())  # (6, 2) each
    hand = _hand_set(wq, wk, wv)
    other = _hand_set(wq @ M, wk @ np.linalg.inv(M).T, wv)
    other["panels"][0]["title"], other["panels"][1]["title"] = "W_Q M", "W_K M⁻ᵀ"
    qk, ov = _trained(p.seed, p.head)
    words = list(grammar.VOCAB)
    copied = [i for i in _attachable() if int(np.argmax(ov[i])) == i]
    trained = {
        "panels": [_panel("W_Q W_Kᵀ", words, words, qk, "qk"),
                   _panel("W_V, then the attached-word readout", words, words, ov, "ov")],
        "classes": [c for c, _ in CLASSES],
        "class_means": _class_means(qk),
        "copied": len(copied), "attachable": len(_attachable()),
    }
    return {"views": [dict(hand, id="hand-set"), dict(other, id="refactored"), dict(trained, id="trained")],
            "labels": [LABELS[v] for v in VIEWS], "m": M.tolist(), "seed": p.seed, "head": p.head,
            "start": VIEWS.index(p.view)}


def _top_entries(panel: dict, k: int = 2) -> str:
    v = np.asarray(panel["values"])
    order = np.argsort(-np.abs(v), axis=None)[:k]
    return ", ".join(f"{panel['rows'][i]} × {panel['cols'][j]} {fixed(v[i, j])}"
                     for i, j in (np.unravel_index(o, v.shape) for o in order))


def _scores_line(view: dict) -> str:
    return ("Scaled scores of “it”: " + ", ".join(f"{w} {fixed(s)}" for w, s in zip(view["words"], view["it_scores"])))


def _trained_lines(data: dict) -> list[str]:
    t = data["views"][2]
    best = [f"{c} → {t['classes'][int(np.argmax(row))]} {fixed(max(row))}" for c, row in zip(t["classes"], t["class_means"])]
    return [f"Trained head {data['head']} (seed {data['seed']}), W_Q W_Kᵀ averaged by word class, each query class's "
            "highest key class: " + "; ".join(best),
            f"W_V then the attached-word readout: for {t['copied']} of the {t['attachable']} words that can be an "
            "attached word, the largest entry of its row is the word itself"]


def _class_lines(data: dict) -> list[str]:
    t = data["views"][2]
    return [f"{c} queries, mean W_Q W_Kᵀ with: " + ", ".join(f"{k} {fixed(v)}" for k, v in zip(t["classes"], row))
            for c, row in zip(t["classes"], t["class_means"])]


def text(p: Params, data: dict) -> dict:
    hand, other, _ = data["views"]
    q0, q1 = hand["it_query"], other["it_query"]
    gap = max(abs(a - b) for a, b in zip(hand["it_scores"], other["it_scores"]))
    states = [
        {"numbers": [_scores_line(hand)], "label": LABELS["hand-set"]},
        {"numbers": [f"M = {data['m']}: the query of “it” is ({fixed(q1[0])}, {fixed(q1[1])}) instead of "
                     f"({fixed(q0[0])}, {fixed(q0[1])}), W_Q W_Kᵀ is unchanged",
                     _scores_line(other) + f" (largest change {gap:.0e})"], "label": LABELS["refactored"]},
        {"numbers": _class_lines(data), "label": LABELS["trained"]},
    ]
    fixed_lines = [f"Chapter 3's head: W_Q W_Kᵀ pairs {_top_entries(hand['panels'][2])}",
                   f"Other factors, same product: every score of “it” within {gap:.0e}"] + _trained_lines(data)
    return {
        "alt": ("Grids of a head's two circuits. Chapter 3's hand-set head: W_Q and W_K, their product W_Q W_Kᵀ "
                "over six features, and W_V. The same head with other factors and the same product. "
                f"Chapter 9's trained head {data['head']}: W_Q W_Kᵀ between words, and W_V followed by the "
                "attached-word readout. " + ". ".join(fixed_lines) + "."),
        "numbers": states[opening_state(p, data)]["numbers"] + fixed_lines,
        "states": [{"numbers": s["numbers"], "label": s["label"]} for s in states],
        "fixed": fixed_lines,
        "parts": {"cell": "{v:2}"},  # a cell's value, after its panel's title, row and column
        "legend": ("Rows: the feature or word of the query (W_Q W_Kᵀ) or of the input (W_V W_O). "
                   "Purple: positive, grey: negative."),
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per view."""
    return len(data["views"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's view."""
    return data["start"]


def facts(p: Params, data: dict) -> dict:
    hand, other, trained = data["views"]
    qk = np.asarray(hand["panels"][2]["values"])
    cls = dict(zip(trained["classes"], trained["class_means"]))
    col = {c: i for i, c in enumerate(trained["classes"])}
    return {
        "hand_peak": float(qk.max()),  # describes animals x animal, and describes places x place
        "strength": winograd.STRENGTH, "key_length": winograd.KEY_LENGTH,
        "factor_change": float(np.abs(np.asarray(other["panels"][0]["values"])  # the largest change of an entry of W_Q
                                      - np.asarray(hand["panels"][0]["values"])).max()),
        "it_query_0": hand["it_query"], "it_query_1": other["it_query"],
        "score_gap": max(abs(a - b) for a, b in zip(hand["it_scores"], other["it_scores"])),
        "det_noun": cls["determiner"][col["noun"]], "adj_noun": cls["adjective"][col["noun"]],
        "noun_verb": cls["noun"][col["verb"]], "prep_noun": cls["preposition"][col["noun"]],
        "verb_best": trained["classes"][int(np.argmax(cls["verb"]))],  # where the verb's queries point instead
        "copied": trained["copied"], "attachable": trained["attachable"],
    }
