"""intervention: test what chapter 9's attention map suggests, by ablating a head or changing a word.

The trained two-head model (engine/tasks/grammar.py `trained(seed)`) is run on its 300 held-out
sentences with no head, head 1, head 2 or both mean-ablated: the head's slice of the attention
output is replaced by its average over the held-out words before the readouts, so the readouts
still get an input of the usual size but no word-specific information from that head. One
sentence is shown too, as written and with any one word swapped for another of its kind (an
"edit"), each under every ablation.

Precomputed states: edit e (0 is the sentence as written; `edit_of[p][k]` is the edit putting
`choices[p][k]` at position p) under ablation a is text state `a * len(edits) + e`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tasks import grammar
from .fmt import percent
from .params import field
from .sentences import LEGEND, check_sentence

SENTENCE = "the old dog slept under a box"
HELD_OUT = 300  # chapter 9's held-out sentences (engine/figures/two_heads.py HELD_OUT)
ABLATIONS = ("none", "head1", "head2", "both")
ABLATED = {"none": (), "head1": (0,), "head2": (1,), "both": (0, 1)}
LABELS = {"none": "No head ablated", "head1": "Head 1 mean-ablated", "head2": "Head 2 mean-ablated",
          "both": "Both heads mean-ablated"}
VOCAB = grammar.VOCAB
SHORT = {"none": "none", "head1": "head 1", "head2": "head 2", "both": "both"}  # the radio buttons
READOUTS = {"attached": "the word it attaches to", "previous": "the previous word"}


@dataclass(frozen=True)
class Params:
    seed: int = field(0, lo=0, hi=2 ** 31 - 1, doc="which training run of chapter 9's model")
    sentence: str = field(SENTENCE, doc="must follow the toy grammar")
    ablate: str = field("none", choices=ABLATIONS, doc="the ablation shown first")

    def __post_init__(self):
        check_sentence(self.sentence)


EXAMPLE = {"seed": 1, "sentence": "a bird hid behind the big tree", "ablate": "head2"}
BROKEN = ({"sentence": "the the"}, "sentence")  # options that break a rule of Params' own, and the option it names


def _held_out(run):
    """The held-out sentences as the model reads them, and each head's mean output over their words."""
    s = run.held_out(HELD_OUT)
    x = grammar.encode(s.words)  # (N, T, D)
    return s, x, grammar.head_means(run.params, x, s.valid)  # means (H, V)


def _accuracy(run, s, x, means, heads) -> dict:
    """Each readout's accuracy over the held-out words with `heads` mean-ablated."""
    logits, _ = grammar.ablated_forward(run.params, x, s.valid, heads, means)  # (2, W, N*T)
    return grammar.readout_accuracy(grammar.named_words(logits, s.words.shape), s)


def _short(v: float):
    """A weight to 2 decimals, 0 and 1 as whole numbers (the page carries 30 sentences' grids)."""
    r = round(float(v), 2) + 0.0  # + 0.0 turns -0.0 into 0.0
    return int(r) if r.is_integer() else r


def _edits(words: list[str]):
    """The sentence as written, then every sentence with one word swapped for another of its kind."""
    slots = grammar.SLOT_OF_POS[[s for s in range(4) if grammar.SHAPE_LENGTHS[s] == len(words)
                                 and all(w in grammar.SLOT_POOLS[k] for w, k in
                                         zip(words, grammar.SLOT_OF_POS[s]))][0], :len(words)]
    choices = [list(grammar.SLOT_POOLS[k]) for k in slots]
    edits = [(-1, None, list(words))]
    edit_of = []
    for p, pool in enumerate(choices):
        row = []
        for w in pool:
            if w == words[p]:
                row.append(0)
            else:
                row.append(len(edits))
                edits.append((p, w, words[:p] + [w] + words[p + 1:]))
        edit_of.append(row)
    return choices, edit_of, edits


def _sentence_states(run, means, words: list[str]):
    choices, edit_of, edits = _edits(words)
    s = grammar.parse(" ".join(words))
    n = len(words)
    targets = {t: s.targets[0, :n, j].tolist() for j, t in enumerate(grammar.TARGETS)}
    x = grammar.encode(np.array([grammar.WORD_INDEX[w] for e in edits for w in e[2]]).reshape(len(edits), n))
    valid = np.ones((len(edits), n), dtype=bool)
    out = [{"position": p, "word": w, "words": ws, "named": [], "right": []} for p, w, ws in edits]
    for a in ABLATIONS:
        logits, att = grammar.ablated_forward(run.params, x, valid, ABLATED[a], means)  # (2, W, E*n)
        named = grammar.named_words(logits, (len(edits), n))  # (2, E, n)
        for e, edit in enumerate(out):
            names = {t: named[j, e].tolist() for j, t in enumerate(grammar.TARGETS)}  # indices into `vocab`
            edit["named"].append(names)
            edit["right"].append({t: [int(grammar.VOCAB[names[t][i]] == edit["words"][targets[t][i]]) for i in range(n)]
                                  for t in grammar.TARGETS})  # 1 where the readout names the target
    for e, edit in enumerate(out):  # ablation acts after attention: the weights are the same under all four
        edit["weights"] = [[[_short(v) for v in row] for row in head] for head in att.weights[e]]  # (H, n, n)
    return choices, edit_of, targets, out


def compute(p: Params) -> dict:
    run = grammar.trained(p.seed)
    s, x, means = _held_out(run)
    words = [grammar.VOCAB[w] for w in grammar.parse(p.sentence).words[0] if w >= 0]
    choices, edit_of, targets, edits = _sentence_states(run, means, words)
    accuracy = [_accuracy(run, s, x, means, ABLATED[a]) for a in ABLATIONS]
    return {
        "seed": p.seed,
        "n_heads": run.config.n_heads,
        "ablations": [{"key": a, "label": LABELS[a], "short": SHORT[a], "heads": list(ABLATED[a])} for a in ABLATIONS],
        "readouts": READOUTS,
        "held_out": {"n_sentences": HELD_OUT, "n_words": int(s.valid.sum()),
                     "accuracy": accuracy,
                     "shown": [{t: percent(acc[t]) for t in acc} for acc in accuracy]},  # what the bars print
        "vocab": list(grammar.VOCAB),
        "words": words,
        "targets": targets,
        "choices": choices,
        "edit_of": edit_of,
        "edits": edits,
        "start": {"ablation": ABLATIONS.index(p.ablate), "edit": 0},
    }


def _named_line(edit: dict, a: int, target: str) -> str:
    names = [VOCAB[i] for i in edit["named"][a][target]]
    right = edit["right"][a][target]
    listed = ", ".join(v + ("" if ok else " ✗") for v, ok in zip(names, right))
    return f"{READOUTS[target].capitalize()}, as named: {listed} ({sum(right)} of {len(right)} right)"


def _state(data: dict, a: int, e: int) -> list[str]:
    acc = data["held_out"]["accuracy"][a]
    edit = data["edits"][e]
    changed = "" if edit["position"] < 0 else f" ({data['words'][edit['position']]} → {edit['word']})"
    return [
        f"{data['ablations'][a]['label']}: held-out accuracy {percent(acc['attached'])} ({READOUTS['attached']}), "
        f"{percent(acc['previous'])} ({READOUTS['previous']})",
        f"Sentence: {' '.join(edit['words'])}{changed}",
        _named_line(edit, a, "attached"),
        _named_line(edit, a, "previous"),
    ]


def text(p: Params, data: dict) -> dict:
    ho = data["held_out"]
    fixed = [f"Held-out accuracy is over {ho['n_sentences']} sentences ({ho['n_words']:,} words) the model "
             "never saw in training. A mean-ablated head's output is replaced by its average over those words; "
             "the attention weights do not change."]
    states = [{"numbers": _state(data, a, e)} for a in range(len(data["ablations"])) for e in range(len(data["edits"]))]
    start = opening_state(p, data)
    opening = states[start]["numbers"]
    return {
        "alt": ("Attention weights of both heads of chapter 9's trained model for “" + " ".join(data["words"])
                + "”, one grid per head with a row per word and each word's targets outlined, beside bars of the "
                "held-out accuracy of both readouts and the words each readout names. " + ". ".join(opening)
                + ". " + fixed[0]),
        "numbers": opening + fixed,
        "states": states,
        "fixed": fixed,
        "legend": LEGEND + " Ablation acts after attention, so it leaves the weights as they are.",
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per ablation and edit."""
    return len(data["ablations"]) * len(data["edits"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the options' ablation and edit."""
    return data["start"]["ablation"] * len(data["edits"]) + data["start"]["edit"]


def _named_everywhere(run, s, x, means) -> dict:
    """With both heads replaced, every word gets the same input: the one word each readout then names."""
    logits, _ = grammar.ablated_forward(run.params, x, s.valid, (0, 1), means)  # (2, W, N*T)
    named = grammar.named_words(logits, s.words.shape)  # (2, N, T)
    return {t: VOCAB[named[j][s.valid][0]] for j, t in enumerate(grammar.TARGETS)}  # the first word's is everyone's


def _norm_facts(run, s, x) -> dict:
    """Weights against weighted-vector lengths (Kobayashi et al. 2020), per head over the held-out words."""
    P = run.params
    _, att = grammar.attention_forward(x, P["wq"], P["wk"], P["wv"], mask=s.valid[:, None, :])
    w = att.weights  # (N, H, T, T)
    lengths = np.linalg.norm(att.v, axis=-1)  # (N, H, T) each value vector's length
    top_w = w.argmax(axis=-1)  # (N, H, T)
    top_n = (w * lengths[:, :, None, :]).argmax(axis=-1)  # (N, H, T) largest weighted vector
    rows = s.valid  # (N, T)
    return {
        "disagree": [float((top_w[:, h] != top_n[:, h])[rows].mean()) for h in range(w.shape[1])],
        "value_length_min": [float(lengths[:, h][rows].min()) for h in range(w.shape[1])],
        "value_length_max": [float(lengths[:, h][rows].max()) for h in range(w.shape[1])],
    }


def _verb_row(p: Params, data: dict) -> dict:
    """Head 1's row for the verb of the sentence as written: weights, weighted-vector lengths, and
    what the attached-word readout names for the verb under each ablation."""
    run = grammar.trained(p.seed)
    words, targets, weights = grammar.sentence_attention(run.params, " ".join(data["words"]))
    verb = next(i for i, w in enumerate(words) if w in grammar.VERBS)
    x = grammar.encode(grammar.parse(" ".join(words)).words[:, :len(words)])[0]  # (n, D)
    row = weights[0, verb]  # (n,)
    contribution = row * np.linalg.norm(x @ run.params["wv"][0], axis=-1)  # (n,) lengths of alpha_j v_j
    top, subject = int(row.argmax()), targets["attached"][verb]
    named = {a: VOCAB[data["edits"][0]["named"][k]["attached"][verb]] for k, a in enumerate(ABLATIONS)}
    return {"verb": words[verb], "top": words[top], "top_weight": float(row[top]), "subject": words[subject],
            "subject_weight": float(row[subject]), "top_length": float(contribution[top]),
            "subject_length": float(contribution[subject]), "named": named}


def facts(p: Params, data: dict) -> dict:
    """Ablation accuracies for seeds 0 and 1 (mean and, for comparison, zero), edit counts, weights vs norms."""
    out = {"held_out": HELD_OUT, "n_words": data["held_out"]["n_words"], "seeds": {}}
    for seed in (0, 1):
        run = grammar.trained(seed)
        s, x, means = _held_out(run)
        out["seeds"][str(seed)] = {
            "mean": {a: _accuracy(run, s, x, means, ABLATED[a]) for a in ABLATIONS},
            "zero": {a: _accuracy(run, s, x, np.zeros_like(means), ABLATED[a]) for a in ABLATIONS},
            "norms": _norm_facts(run, s, x),
        }
    run = grammar.trained(p.seed)
    s, x, means = _held_out(run)
    out["both_named"] = {mode: _named_everywhere(run, s, x, m) for mode, m in (("mean", means), ("zero", 0 * means))}
    edits = data["edits"][1:]
    a1 = ABLATIONS.index("head1")
    out["edits"] = len(edits)
    out["edits_all_right"] = sum(all(all(r) for r in e["right"][0].values()) for e in edits)
    out["edits_attached_right_head1"] = sum(all(e["right"][a1]["attached"]) for e in edits)
    noun = next(e for e in edits if e["position"] == data["words"].index("dog") and e["word"] == "cat") \
        if "dog" in data["words"] else edits[0]
    adj = data["words"].index("old") if "old" in data["words"] else 0
    out["verb_row"] = _verb_row(p, data)
    out["example"] = {"from": data["words"][noun["position"]], "to": noun["word"], "reader": data["words"][adj],
                      "named": VOCAB[noun["named"][0]["attached"][adj]],
                      "named_head1": VOCAB[noun["named"][a1]["attached"][adj]]}
    return out
