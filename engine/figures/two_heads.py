"""two-heads: the trained two-head model of chapter 9, both heads side by side on a few sentences.

The run for `seed` is trained once (400 Adam steps, engine/tasks/grammar.py) and embedded, so the
figure draws before Python loads. Its job "retrain" trains a new run from another seed, on other
sentences, in slices in the browser's worker (engine/jobs.py): each slice's snapshot is the same
drawing for the weights so far, so the heads are redrawn as they learn; the last slice is the whole
figure for the new run.
Text states are indexed like `sentences`: state i lists the rows of sentence i whose largest weight
falls on each target; `text.fixed` holds the held-out accuracy and the run's loss, and `text.status`
says both in one line, which the view shows in sight when a run ends.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..jobs import TrainingJob
from ..tasks import grammar
from .fmt import fixed, percent
from .params import check_index, field
from .sentences import LEGEND, TARGET_NAMES, check_sentence

SENTENCES = ("the old dog slept under a box", "the cat sat on the mat",
             "a small bird hid behind the big tree", "the fox ran by a red bed")
HELD_OUT = 300  # sentences the readouts are scored on, none seen in training


@dataclass(frozen=True)
class Params:
    seed: int = field(0, lo=0, hi=2 ** 31 - 1, doc="seeds the starting weights and the training sentences")
    sentences: tuple[str, ...] = field(SENTENCES, length=(1, 6), doc="each must follow the toy grammar")
    sentence: int = field(0, lo=0, hi=5, doc="the sentence shown first")

    def __post_init__(self):
        check_index("sentence", self.sentence, len(self.sentences), "sentences")
        for i, s in enumerate(self.sentences):
            check_sentence(s, f"sentences[{i}]")


EXAMPLE = {"seed": 1, "sentences": ["the cat sat on the mat", "a dog ran by the box"], "sentence": 1}
BROKEN = ({"sentences": ["the cat sat on the mat", "cat the"]}, "sentences")  # breaks a rule of Params' own; names that option


def _looks(params, sentences) -> list[dict]:
    """Per sentence: words, targets, each head's weights and how many rows' largest weight hits each target."""
    out = []
    for s in sentences:
        words, targets, weights = grammar.sentence_attention(params, s)  # weights (H, n, n)
        top = weights.argmax(axis=-1)  # (H, n)
        out.append({
            "words": words,
            "targets": targets,
            "heads": [{"weights": np.round(w, 4).tolist(),
                       "hits": {t: int((top[h] == np.array(targets[t])).sum()) for t in grammar.TARGETS}}
                      for h, w in enumerate(weights)],
        })
    return out


def _data(p: Params, run) -> dict:
    ev = run.evaluate(HELD_OUT)
    return {
        "seed": run.seed,
        "steps": len(run.losses),
        "losses": [round(v, 5) for v in run.losses],
        "sentences": _looks(run.params, p.sentences),
        "held_out": {"n_sentences": ev["n_sentences"], "n_words": ev["n_words"],
                     "accuracy": {t: ev[f"accuracy_{t}"] for t in grammar.TARGETS},
                     "head_argmax": ev["head_argmax"]},
        "start": p.sentence,
    }


def compute(p: Params) -> dict:
    return _data(p, grammar.trained(p.seed))


def _hit_lines(sentence: dict) -> list[str]:
    n = len(sentence["words"])
    return [f"Head {h + 1}: the largest weight falls on {TARGET_NAMES['attached']} in {head['hits']['attached']} "
            f"of {n} rows, on {TARGET_NAMES['previous']} in {head['hits']['previous']}"
            for h, head in enumerate(sentence["heads"])]


def _progress(step: int, steps: int, loss: float) -> str:
    return f"Training step {step} of {steps}: loss {fixed(loss, 3)}"


def text(p: Params, data: dict) -> dict:
    ho = data["held_out"]
    acc = ho["accuracy"]
    split = "; ".join(f"head {h + 1} on {TARGET_NAMES['attached']} in {percent(a['attached'])} of rows and on "
                      f"{TARGET_NAMES['previous']} in {percent(a['previous'])}" for h, a in enumerate(ho["head_argmax"]))
    fixed_lines = [
        f"Readout accuracy on {ho['n_sentences']} held-out sentences ({ho['n_words']:,} words): "
        f"{TARGET_NAMES['attached']} {percent(acc['attached'])}, {TARGET_NAMES['previous']} {percent(acc['previous'])}",
        f"Largest weight over those sentences: {split}",
        f"Seed {data['seed']}: " + _progress(data["steps"], data["steps"], data["losses"][-1]).lower(),
    ]
    shown = data["sentences"][opening_state(p, data)]
    status = (f"Seed {data['seed']}, {data['steps']} steps: held-out accuracy {percent(acc['attached'])} for "
              f"{TARGET_NAMES['attached']} and {percent(acc['previous'])} for {TARGET_NAMES['previous']}; "
              f"final loss {fixed(data['losses'][-1], 3)}")
    return {
        "alt": (f"Attention weights of both heads of the trained model for “{' '.join(shown['words'])}”, "
                "one grid per head with a row per word; outlines mark each word's targets (solid: the word it "
                "attaches to, dashed: the previous word). " + ". ".join(_hit_lines(shown)) + ". "
                + ". ".join(fixed_lines) + "."),
        "numbers": _hit_lines(shown) + fixed_lines,
        "states": [{"numbers": _hit_lines(s), "label": " ".join(s["words"])} for s in data["sentences"]],
        "fixed": fixed_lines,
        "status": status,
        "legend": LEGEND,
        "training": "Training a new model…",
        "stopped": "Retraining stopped: the figure shows the previous model again.",
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per sentence."""
    return len(data["sentences"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's sentence."""
    return data["start"]


def facts(p: Params, data: dict) -> dict:
    """Accuracy and head split per seed, for the prose (seeds 0 to 3 train in well under a second each)."""
    seeds = {}
    for seed in range(4):
        ev = grammar.trained(seed).evaluate(HELD_OUT)
        seeds[str(seed)] = {"accuracy": {t: ev[f"accuracy_{t}"] for t in grammar.TARGETS}, "head_argmax": ev["head_argmax"],
                            "head_argmax_differ": ev["head_argmax_differ"], "targets_coincide": ev["targets_coincide"]}
    config = grammar.GrammarConfig()
    worst = min(a for v in seeds.values() for a in v["accuracy"].values())  # over every seed and both readouts
    example = data["sentences"][0]  # the first sentence, with the grammar's attached word for each word
    attached = ", ".join(f"{w} → {example['words'][j]}" for w, j in zip(example["words"], example["targets"]["attached"]))
    return {"seeds": seeds, "worst_accuracy": worst,
            "targets_coincide": seeds["0"]["targets_coincide"],  # the verbs' share of seed 0's held-out words
            "words_per_coincidence": 1 / seeds["0"]["targets_coincide"], "example_sentence": " ".join(example["words"]),
            "example_attached": attached, "first_loss": data["losses"][0], "last_loss": data["losses"][-1],
            "vocabulary": len(grammar.VOCAB), "chance_loss": math.log(len(grammar.VOCAB)),  # a guess spread evenly
            "steps": config.steps, "batch_size": config.batch_size, "d_k": config.d_k, "held_out": HELD_OUT}


def _snapshot(p: Params, t) -> dict:
    """The heads on p's sentences for the weights so far, and the progress line."""
    loss = float(t.result.losses[-1])
    return {"sentences": _looks(t.views, p.sentences), "text": {"progress": _progress(t.done_steps, t.steps, loss)}}


def retrain(p: Params) -> TrainingJob:
    """400 steps from p.seed in slices; snapshots redraw the heads on p's sentences as they learn."""
    training, finish = grammar.grammar_training(p.seed)
    return TrainingJob(training, lambda t: _snapshot(p, t), lambda: _data(p, finish()))


WARM_STEPS = 32  # enough for V8 to optimise numpy's hot code before the reader's Retrain (docs/retrain-speed.md)


def warm_retrain(p: Params) -> TrainingJob:
    """retrain's code path on a throwaway run of WARM_STEPS steps (its own weights and batches: a
    Retrain's numbers are the same after it), one snapshot at the end; the worker discards it all."""
    training, _ = grammar.grammar_training(p.seed, steps=WARM_STEPS)
    return TrainingJob(training, lambda t: {}, lambda: _snapshot(p, training))


JOBS = {"retrain": retrain}
WARM = {"retrain": warm_retrain}
