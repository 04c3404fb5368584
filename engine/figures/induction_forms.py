"""induction-forms: a two-layer attention-only model grows an induction head (engine/tasks/induction.py).

The run for `seed` is trained once at build time and embedded: the loss of every step, and at every
checkpoint (the start, then every `every` steps) its scores on held-out sequences and the weights of
all four heads on one repeated sequence, so the slider works before Python loads. State i is
checkpoint i; `text.states` is indexed the same way, and `text.fixed` holds the run's phase change.
The job "train" trains another seed in the worker's slices: each snapshot holds the scores and head
weights of the model so far (same shapes as one checkpoint), the last slice the whole figure.
Head weights are stored as causal rows: row i holds the weights on positions 0..i.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..jobs import TrainingJob
from ..tasks import induction
from .fmt import fixed, rounded
from .letters import CONFIG, LETTERS, START
from .params import ParamError, field

FIRST = "KCFNAH"  # the first half of the repeated sequence drawn (distinct letters: one earlier copy each)
WEIGHT_DECIMALS = 2  # head weights: only their colour is drawn
SCORE_DECIMALS = 4
FORMED = 0.5  # the prefix-matching score at which a layer-2 head counts as an induction head


@dataclass(frozen=True)
class Params:
    seed: int = field(0, lo=0, hi=2 ** 31 - 1, doc="seeds the starting weights and the training sequences")
    sequence: str = field(FIRST, doc="the first half of the sequence whose heads are drawn")
    step: int = field(CONFIG.steps, lo=0, hi=CONFIG.steps, step=CONFIG.checkpoint_every, doc="the step shown first")

    def __post_init__(self):
        if self.step % CONFIG.checkpoint_every:
            raise ParamError("step", f"option 'step' must be a multiple of {CONFIG.checkpoint_every}, not {self.step}")
        s = self.sequence
        if set(s) - set(LETTERS) or len(set(s)) != len(s) or not CONFIG.half_min <= len(s) <= CONFIG.half_max:
            raise ParamError("sequence", f"option 'sequence' must be {CONFIG.half_min} to {CONFIG.half_max} different "
                                         f"letters from {LETTERS[0]} to {LETTERS[-1]}, not {s[:60]!r}")


EXAMPLE = {"seed": 1, "sequence": "PONMLKJIHG", "step": 300}
BROKEN = ({"step": 7}, "step")  # options that break a rule of Params' own, and the option it names


def _shown(p: Params):
    return induction.repeated([LETTERS.index(c) for c in p.sequence], CONFIG)


def _targets(seqs) -> dict:
    """Per input position, the column each kind of head should read (None where there is none):
    layer 1's previous token, layer 2's token after the earlier copy."""
    match = induction.prefix_match(seqs)[0]  # (T, T)
    T = match.shape[0]
    return {"previous": [None] + list(range(T - 1)),
            "induction": [int(np.flatnonzero(row)[0]) if row.any() else None for row in match]}


def _look(params, seqs, held_out) -> dict:
    """What one state draws: the held-out scores and each head's causal rows on the shown sequence."""
    s = induction.scores(params, held_out)
    maps = induction.head_maps(params, seqs)[:, 0]  # (L, H, T, T)
    return {
        "in_context": round(s["in_context"], SCORE_DECIMALS), "loss": round(s["loss"], SCORE_DECIMALS),
        "loss_first": round(s["loss_first"], SCORE_DECIMALS), "loss_repeat": round(s["loss_repeat"], SCORE_DECIMALS),
        "previous_token": [rounded(v, SCORE_DECIMALS) for v in s["previous_token"]],
        "prefix_matching": [rounded(v, SCORE_DECIMALS) for v in s["prefix_matching"]],
        "source": [rounded(v, SCORE_DECIMALS) for v in s["source"]],
        "heads": [[[rounded(row[:i + 1], WEIGHT_DECIMALS) for i, row in enumerate(head)] for head in layer]
                  for layer in maps],
    }


def _data(p: Params, run, one_layer=None) -> dict:
    """The figure's data for a finished run; ``one_layer``, the same seed's one-layer run, is drawn beside
    it where given (the build's run; a run trained in the browser has none)."""
    seqs = _shown(p)
    start, end, fall = run.sharpest_fall(window=100)
    return {
        "seed": run.seed,
        "steps": len(run.losses),
        "every": CONFIG.checkpoint_every,
        "losses": rounded(run.losses, SCORE_DECIMALS),
        "checkpoints": run.checkpoint_steps,
        "states": [_look(c, seqs, run.held_out) for c in run.checkpoints],
        "one_layer": None if one_layer is None else [round(s["in_context"], SCORE_DECIMALS) for s in one_layer.scores],
        "tokens": [START] + [LETTERS[t] for t in seqs.inputs[0, 1:]],
        "targets": _targets(seqs),
        "phase_change": run.phase_change_step(),
        "phase_head": run.first_formed()[1],
        "sharpest_fall": {"start": start, "end": end, "fall": round(fall, SCORE_DECIMALS)},
        "chance": round(math.log(CONFIG.n_vocab), SCORE_DECIMALS),
        "axis": _axis(run, None if one_layer is None else [s["in_context"] for s in one_layer.scores]),
        "start": run.checkpoint_steps.index(p.step) if p.step in run.checkpoint_steps else len(run.checkpoint_steps) - 1,
    }


def _axis(run, one_layer=None) -> dict:
    """Both charts' scales and tick labels: steps along x; the loss from 0 to above its start, marked at
    an even guess; the in-context score from below its lowest to 0, marked at every whole nat."""
    chance = math.log(CONFIG.n_vocab)
    lowest = min([s["in_context"] for s in run.scores] + (one_layer or []))
    lo = math.floor(min(lowest, -1.0))
    steps = len(run.losses)
    return {
        "x": [[s, str(s)] for s in range(0, steps + 1, 200)],
        "loss": {"lo": 0, "hi": round(1.05 * max(max(run.losses), chance), 2),
                 "ticks": [[0, "0"], [round(chance, SCORE_DECIMALS), f"ln {CONFIG.n_vocab}"]]},
        "in_context": {"lo": lo, "hi": 0.5, "ticks": [[v, "0" if v == 0 else f"−{-v}"] for v in range(lo, 1)]},
    }


def compute(p: Params) -> dict:
    return _data(p, induction.trained(p.seed), induction.trained(p.seed, n_layers=1))


def _best(scores: list[float]) -> str:
    h = int(np.argmax(scores))
    return f"head {h + 1}"


def _state_lines(data: dict, i: int) -> list[str]:
    s = data["states"][i]
    return [
        f"Step {data['checkpoints'][i]} of {data['steps']}: held-out loss {fixed(s['loss_first'], 2)} on the first half, "
        f"{fixed(s['loss_repeat'], 2)} on the repeat; in-context score {fixed(s['in_context'], 2)}",
        "Layer 1, weight on the previous token: " + ", ".join(
            f"head {h + 1} {fixed(v, 2)}" for h, v in enumerate(s["previous_token"][0])),
        "Layer 2, weight on the letters after earlier copies of the current letter (prefix matching): " + ", ".join(
            f"head {h + 1} {fixed(v, 2)}" for h, v in enumerate(s["prefix_matching"][-1]))
        + "; on the one letter after its own earlier copy: " + ", ".join(
            f"head {h + 1} {fixed(v, 2)}" for h, v in enumerate(s["source"][-1])),
    ]


def phase_line(data: dict) -> str:
    """The run's phase change in words (what the status line states after a live run)."""
    f = data["sharpest_fall"]
    if data["phase_change"] is None:
        return (f"Seed {data['seed']}: no layer-2 head reached a prefix-matching score of 0.5 in "
                f"{data['steps']} steps")
    return (f"Seed {data['seed']}: an induction head formed at step {data['phase_change']}, the first checkpoint "
            f"where a layer-2 head (head {data['phase_head'] + 1}) put half its weight on letters after earlier "
            f"copies; the in-context score fell fastest between steps {f['start']} and {f['end']}, by {fixed(f['fall'], 2)}")


def one_layer_line(data: dict) -> list[str]:
    """The one-layer run drawn beside the two-layer one, in words (none after a run in the browser)."""
    one = data["one_layer"]
    if one is None:
        return []
    return [f"The same model with one layer, from the same seed: in-context score {fixed(one[0], 2)} at step 0, "
            f"{fixed(one[-1], 2)} at step {data['steps']}, against {fixed(data['states'][-1]['in_context'], 2)} "
            f"with two layers"]


def text(p: Params, data: dict) -> dict:
    fixed_lines = [
        phase_line(data),
        *one_layer_line(data),
        f"{data['steps']} Adam steps on {CONFIG.batch_size} sequences each; scores on {CONFIG.eval_size} held-out "
        f"sequences; an even guess among {CONFIG.n_vocab} letters has loss ln {CONFIG.n_vocab} = {fixed(data['chance'], 2)}",
    ]
    start = opening_state(p, data)
    final = data["states"][-1]
    return {
        "alt": (f"Training a two-layer attention-only model on repeated random letters: the loss curve over "
                f"{data['steps']} steps with the phase change marked, the in-context score at every checkpoint, "
                f"and the attention weights of both heads of both layers on the sequence "
                f"{' '.join(data['tokens'])} at step {data['checkpoints'][start]}. After training, layer 1's "
                f"{_best(final['previous_token'][0])} looks at the previous token and layer 2's "
                f"{_best(final['prefix_matching'][-1])} at the token after the earlier copy. "
                + ". ".join(_state_lines(data, start) + fixed_lines) + "."),
        "numbers": _state_lines(data, start) + fixed_lines,
        "states": [{"numbers": _state_lines(data, i), "label": f"step {s}"} for i, s in enumerate(data["checkpoints"])],
        "fixed": fixed_lines,
        "status": phase_line(data),  # shown in sight when a run ends
        "training": "Training a new model…",
        "legend": "Grey: the same model with one layer, from the same seed." if data["one_layer"] else "",
        "stopped": "Training stopped: the figure shows the previous model again.",
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per checkpoint."""
    return len(data["checkpoints"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the checkpoint nearest the option's step."""
    return data["start"]


def train(p: Params) -> TrainingJob:
    """A new run from p.seed in slices; each snapshot is one state for the weights so far."""
    training, finish = induction.induction_training(p.seed)
    seqs, held_out = _shown(p), induction.held_out(p.seed, CONFIG)

    def snapshot(t) -> dict:
        return {"state": _look(t.views, seqs, held_out),
                "progress": f"Training step {t.done_steps} of {t.steps}: loss {fixed(float(t.result.losses[-1]), 3)}"}

    return TrainingJob(training, snapshot, lambda: _data(p, finish()))


JOBS = {"train": train}


REPORTED_SEEDS = range(5)  # the runs chapter 13 quotes (tests/engine/tasks/test_induction.py holds them)


def _run_facts(run) -> dict:
    """One run in the chapter's words: heads counted from 1, as the figure labels them."""
    prev, prev_score = run.previous_token_head()
    head, prefix = run.induction_head()
    step, first = run.first_formed(FORMED)
    start, end, fall = run.sharpest_fall(window=100)
    final = run.scores[-1]
    return {"step": step, "first_head": None if first is None else first + 1,
            "previous_head": prev + 1, "previous_score": prev_score,
            "induction_head": head + 1, "prefix_matching": prefix, "source": final["source"][-1][head],
            "layer2": [{"head": h + 1, "prefix_matching": v, "source": final["source"][-1][h],
                        "formed": run.formed_at(h, FORMED)}
                       for h, v in enumerate(final["prefix_matching"][-1])],
            "fall": fall, "fall_start": start, "fall_end": end, "in_context": final["in_context"]}


def _cut(s: dict, head: int) -> dict:
    """An ablation's result: the in-context score, and layer 2's prefix-matching score (its best head's, and
    the induction head's)."""
    return {"in_context": s["in_context"], "prefix_matching": max(s["prefix_matching"][-1]),
            "induction_head": s["prefix_matching"][-1][head]}


def facts(p: Params, data: dict) -> dict:
    """The five reported seeds; the shown run's layer-1 heads mean-ablated (and zero-ablated), on every road
    and on layer 2's queries, keys or values alone; baselines for the repeat's loss; the run with one layer."""
    run = induction.trained(p.seed)
    runs = [_run_facts(induction.trained(s)) for s in REPORTED_SEEDS]
    prev = run.previous_token_head()[0]
    head = run.induction_head()[0]
    other = [h for h in range(CONFIG.n_heads) if h != prev]
    ablated = {name: _cut(run.ablated_scores(1, heads), head) for name, heads in (("previous", [prev]), ("other", other))}
    zeroed = {name: _cut(run.ablated_scores(1, heads, mean=False), head)
              for name, heads in (("previous", [prev]), ("other", other))}
    paths = {road: _cut(run.path_scores(1, [prev], road), head) for road in "qkv"}
    zero_paths = {road: _cut(run.path_scores(1, [prev], road, mean=False), head) for road in "qkv"}
    one = induction.trained(p.seed, n_layers=1)
    final = run.scores[-1]
    repeat = run.held_out.part("repeat")
    hedge = induction.best_copy_rule(CONFIG)
    return {
        "config": {"vocabulary": CONFIG.n_vocab, "half_min": CONFIG.half_min, "half_max": CONFIG.half_max,
                   "d_model": CONFIG.d_model, "heads": CONFIG.n_heads, "d_head": CONFIG.d_head,
                   "steps": CONFIG.steps, "batch": CONFIG.batch_size, "lr": CONFIG.lr,
                   "held_out": CONFIG.eval_size, "every": CONFIG.checkpoint_every, "positions": CONFIG.length,
                   "parameters": sum(a.size for a in run.params.values())},
        "seeds": runs,
        "reported": len(runs), "first_seed": REPORTED_SEEDS[0], "last_seed": REPORTED_SEEDS[-1],
        "formed": sum(r["step"] is not None for r in runs),
        "loss_first": final["loss_first"], "loss_repeat": final["loss_repeat"],
        "several": induction.several_copies(run.held_out),
        "baselines": {"ideal": float(induction.ideal_losses(run.held_out, CONFIG)[repeat].mean()),
                      "copy_rule": float(induction.copy_rule_losses(induction.copy_shares(run.held_out), CONFIG,
                                                                    hedge)[repeat].mean()),
                      "hedge": hedge},
        "ablated": ablated, "zeroed": zeroed, "paths": paths, "zero_paths": zero_paths,
        "one_layer": {"best_prefix_matching": max(max(s["prefix_matching"][0]) for s in one.scores),
                      "in_context": one.scores[-1]["in_context"], "in_context_start": one.scores[0]["in_context"]},
    }
