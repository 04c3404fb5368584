"""writing-training: chapter 14's small GPT learning to write the series' own prose (engine/tasks/writing.py).

Seed 0 is the run the site ships (writing.shipped(given): its per-step losses, its checkpoints and their
samples, of the larger model the build trains), embedded so the replay works before Python loads;
another seed is a run of the recipe a reader trains in the page (CONFIG) for `steps`
steps, trained on CPython at build time. State i is checkpoint i (the start, then every
`every` steps); `text.states` is indexed the same way, and `text.fixed` holds the baselines and the
final model's held-out loss. The job "train" trains a run from `seed` in the worker's slices: each
snapshot carries the checkpoints reached since the last, with their state lines, and the last slice
the whole figure for the new run, as compute() gives it for the same options. A run trained in the
page carries its model ("model_file": writing_kept's file, base64: the model and its optimiser), which
the page keeps in the browser and hands back as READER_GIVEN's file, to figure 14.2 (writing_sample,
model "yours") to write with and to this figure's job "keep", which trains it `more` steps on from
where it was kept, exactly as the run would have gone on uninterrupted; each of its slices carries
the run so far ("before", in its first) and the axis it spans ("axis"), and its last the whole run.
The job "tune" fine-tunes (engine/tasks/writing_own.py) the page's model or the reader's for `tune`
steps, on the reader's own text (READER_GIVEN's second file, refused in one line when the model
cannot read it) or on the series' prose (Keep training with no model of their own); its run is
kept as the reader's model, as a run from scratch is, and drawn over its own text's yardsticks.
"""
from __future__ import annotations

import base64
import dataclasses
import functools
import math
from dataclasses import dataclass

from ..given import Given
from ..jobs import TrainingJob
from ..ngram import NGram
from ..tasks import writing, writing_kept, writing_own
from ..tasks.writing import one_line
from ..vocabulary import Vocabulary
from .fmt import fixed
from .params import ParamError, field

GIVEN = ("writing-model",)
# what the reader keeps in their browser: their own run (what Keep training takes on), and their own
# text (what the job "tune" fine-tunes a model on)
READER_GIVEN = ("reader-model", "reader-text")
BASES = {"page": "the model that came with the page", "yours": "your model"}  # what "tune" fine-tunes
TUNE_TEXTS = ("yours", "series")  # what it fine-tunes on: the reader's text, or the series' prose
CONFIG = writing_kept.IN_THE_PAGE  # the recipe of every run but the shipped one: what a reader trains in the page
LOSS_DECIMALS = 3  # per-step losses: hundreds of them, drawn as one line a few hundred pixels wide
CHECKPOINT_DECIMALS = 4
# each yardstick's label on the chart (writing.baselines' keys), filled from its value {v}
PARTS = {"even": "even guess {v:2}", "n1": "1 character {v:2}",
         **{f"n{n}": f"{n} characters {{v:2}}" for n in writing.NGRAM_ORDERS if n > 1}}
LABEL_GAP = 0.075  # the least distance between two yardsticks' labels, as a share of the chart's height


@dataclass(frozen=True)
class Params:
    seed: int = field(writing.MODEL_SEED, lo=0, hi=2 ** 31 - 1,
                      doc="the run's starting weights and batches: 0 is the model the site ships, another a run trained in the page")
    steps: int = field(CONFIG.steps, lo=CONFIG.checkpoint_every, hi=CONFIG.steps,
                       step=CONFIG.checkpoint_every,
                       doc="Adam steps of a run trained in the page (a shorter run for tests and slow machines)")
    more: int = field(CONFIG.steps // 2, lo=CONFIG.checkpoint_every, hi=CONFIG.steps, step=CONFIG.checkpoint_every,
                      doc="the steps Keep training adds to the reader's own model")
    tune: int = field(writing_own.STEPS[0] * 4, lo=writing_own.STEPS[0], hi=writing_own.STEPS[1],
                      step=writing_own.STEPS[2], doc="the steps of a fine-tuning run (the job 'tune')")
    base: str = field("page", choices=tuple(BASES), doc="the model a fine-tuning run starts from")
    tune_text: str = field("yours", choices=TUNE_TEXTS,
                           doc="what a fine-tuning run trains on: the reader's own text (in the page only) or the series' prose")

    def __post_init__(self):
        for option, every in (("steps", CONFIG.checkpoint_every), ("more", CONFIG.checkpoint_every),
                              ("tune", writing_own.CHECKPOINT_EVERY)):
            if getattr(self, option) % every:
                raise ParamError(option, f"option '{option}' must be a multiple of {every}, not {getattr(self, option)}")


EXAMPLE = {"seed": 1, "steps": 100}
BROKEN = ({"steps": CONFIG.checkpoint_every + 10}, "steps")  # breaks a rule of Params' own; names that option


def _config(p: Params) -> writing.WritingConfig:
    """The recipe of p's run when it is not the shipped one."""
    return dataclasses.replace(CONFIG, steps=p.steps)


def _record(finished: dict, t, config: writing.WritingConfig, seed: int, schedule_steps: int, text: str,
            baselines: dict) -> dict:
    """A run trained in the page as the figure keeps it: its record (finish()'s), its recipe with
    the steps it made, its seed, its optimiser's state (Adam's moments, copied, and step count), the
    text it learned and that text's yardsticks (writing.baselines)."""
    return {**finished, "config": dataclasses.replace(config, steps=t.steps), "seed": seed,
            "optimiser": (t.optimizer.moments.copy(), t.optimizer.t), "schedule_steps": schedule_steps,
            "text": text, "baselines": baselines}


@functools.lru_cache(maxsize=4)
def _trained(text: str, seed: int, config: writing.WritingConfig) -> dict:
    """A run other than the shipped one, trained on CPython (the build's): its record, less the
    text's yardsticks (the shipped model's run holds them)."""
    t, run = writing.writing_training(text, seed, config)
    t.run()
    return _record(run.finish(), t, config, seed, config.steps, text, {})


def _run(p: Params, given: Given) -> dict:
    """The run for p's options: the shipped run's record, or a new run's, unrounded; either with its
    recipe ("config"), its text and its characters."""
    shipped = writing.shipped(given)
    if p.seed == shipped.seed:
        return {**shipped.run, "config": shipped.config, "text": shipped.text, "vocab": shipped.vocab.characters}
    return {**_trained(shipped.text, p.seed, _config(p)), "baselines": shipped.run["baselines"]}


def _packed(run: dict) -> str:
    """A run trained in the page as the file the reader keeps (writing_kept's: the model in the
    shipped model's format, then its optimiser), base64 for the JSON the page receives."""
    record = {k: run[k] for k in ("params", "vocab", "losses", "checkpoints", "final_held_out", "baselines")}
    moments, t = run["optimiser"]
    return base64.b64encode(writing_kept.kept_file(run["text"], run["config"], run["seed"], record, moments, t,
                                                   run["schedule_steps"])).decode("ascii")


def tuned_on(config: writing.WritingConfig) -> str | None:
    """What a run was fine-tuned on (TUNE_TEXTS), or None for a run from scratch."""
    if not writing_own.tuned(config):
        return None
    return "yours" if config.held_out_every == 0 else "series"


def _checkpoint(c: dict) -> dict:
    return {"step": c["step"], "train": round(float(c["train"]), CHECKPOINT_DECIMALS),
            "held_out": round(float(c["held_out"]), CHECKPOINT_DECIMALS), "sample": c["sample"]}


LOSS_POINTS = 600  # at most this many points of per-step loss on the chart: a longer run's are averaged
Y_TICKS = (1, 1.5, 2, 3, 4, 5, 6, 8)  # nats; those within the axis are ticked


def _axis(steps: int, every: int, top: float, bottom: float, baselines: dict) -> dict:
    """The chart's scales: steps along x, ticked about four times at checkpoints; nats on a log scale
    ("log": the view and the fallback place a value at its logarithm) from a little below the lowest
    loss or yardstick to a little above the highest, so the band where a trained model's learning
    happens, near 1 nat, gets as much room as the fall from an even guess. Each yardstick's label is
    placed at its value, moved up from its neighbour below where they are closer than LABEL_GAP of
    the chart's height."""
    hi, lo = top * 1.08, bottom / 1.08
    span = math.log(hi) - math.log(lo)
    places = {k: math.exp(v) for k, v in _label_places({k: math.log(v) for k, v in baselines.items()},
                                                        LABEL_GAP * span).items()}
    return {"x": _x_ticks(steps, every),
            "y": {"lo": lo, "hi": hi, "log": True,
                  "ticks": [[v, fixed(v, 1) if v % 1 else str(int(v))] for v in Y_TICKS if lo <= v <= hi],
                  "labels": places}}


def _x_ticks(steps: int, every: int) -> list:
    """Steps along x, ticked about four times at multiples of `every` (the checkpoints')."""
    every = every * max(1, steps // (4 * every))
    return [[s, str(s)] for s in range(0, steps + 1, every)]


def _label_places(values: dict, gap: float) -> dict:
    """Where each value's label goes (in the values' units): from the lowest up, each at its value or
    `gap` above the label below it, whichever is higher, so a label sits on or above its own line."""
    places, below = {}, -math.inf
    for key, v in sorted(values.items(), key=lambda kv: kv[1]):
        places[key] = max(v, below + gap)
        below = places[key]
    return places


def _thinned(losses: list, group: int) -> list:
    """Each run of `group` consecutive losses as its mean (the last run may be shorter)."""
    return [sum(losses[i:i + group]) / len(losses[i:i + group]) for i in range(0, len(losses), group)]


def _data(p: Params, run: dict) -> dict:
    config = run["config"]
    corpus = writing.Corpus.of(run["text"], config.held_out_every, vocab=Vocabulary(run["vocab"]))
    baselines = {k: round(float(v), CHECKPOINT_DECIMALS) for k, v in run["baselines"].items()}
    loss_every = max(1, math.ceil(len(run["losses"]) / LOSS_POINTS))
    losses = [round(float(v), LOSS_DECIMALS) for v in _thinned([float(v) for v in run["losses"]], loss_every)]
    checkpoints = [_checkpoint(c) for c in run["checkpoints"]]
    return {
        "seed": run.get("seed", p.seed),  # a run taken on is its first run's
        "tuned": tuned_on(config),  # what the run was fine-tuned on, or None
        "first_trained_seed": writing.MODEL_SEED + 1,  # the seeds below name the shipped model
        # a run the reader trains from another seed: its steps, and the x axis its curve is drawn on while it trains
        "train_steps": p.steps, "train_x": _x_ticks(p.steps, CONFIG.checkpoint_every),
        "steps": config.steps,
        "every": config.checkpoint_every,
        "losses": losses,
        "loss_every": loss_every,  # losses[i] is the mean of steps i * loss_every to (i + 1) * loss_every - 1
        "checkpoints": checkpoints,
        "baselines": baselines,
        "final_held_out": round(float(run["final_held_out"]), CHECKPOINT_DECIMALS),
        "prompt": config.prompt,
        "model": {"parameters": config.model(len(corpus.vocab)).parameters, "layers": config.layers,
                  "heads": config.heads, "d_model": config.d_model, "d_ff": config.d_ff, "context": config.context},
        "corpus": {"characters": len(corpus.train) + len(corpus.held_out), "train": len(corpus.train),
                   "held_out": len(corpus.held_out), "vocabulary": len(corpus.vocab)},
        "batch_size": config.batch_size,
        "axis": _axis(config.steps, config.checkpoint_every, max(losses + [c[k] for c in checkpoints for k in ("train", "held_out")]
                                   + [baselines["even"]]),
                      min(losses + [c[k] for c in checkpoints for k in ("train", "held_out")] + list(baselines.values())),
                      baselines),
        "start": len(checkpoints) - 1,
        # the bounds of a text the reader fine-tunes on (the job "tune")
        "own": {"min": writing_own.MIN_CHARACTERS, "max": writing_own.MAX_CHARACTERS},
    }


def compute(p: Params, given: Given) -> dict:
    run = _run(p, given)
    data = _data(p, run)
    return data if p.seed == writing.MODEL_SEED else {**data, "model_file": _packed(run)}


def state_lines(c: dict, steps: int, prompt: str) -> list[str]:
    """What a reader reads about one checkpoint: its losses and its sample."""
    return [f"Step {c['step']} of {steps}: loss {fixed(c['train'], 2)} on training text, {fixed(c['held_out'], 2)} "
            f"on held-out text (nats per character)",
            f"Sample at step {c['step']}, from “{one_line(prompt)}”: “{one_line(c['sample'])}”"]


def _progress(step: int, steps: int, loss: float) -> str:
    return f"Training step {step} of {steps}: loss {fixed(loss, 3)}"


def _bits(nats: float) -> float:
    return nats / math.log(2)


WHAT = {False: "the series' prose", True: "your text"}  # what a run learned to write: the series', or the reader's


def _lines(data: dict) -> dict:
    """The lines every state shows, and the run in one line."""
    b, final, v = data["baselines"], data["final_held_out"], data["corpus"]["vocabulary"]
    counts = ", ".join(f"{n} {'character' if n == 1 else 'characters'} {fixed(b[f'n{n}'], 2)}"
                       for n in writing.NGRAM_ORDERS)
    best = min(writing.NGRAM_ORDERS, key=lambda n: b[f"n{n}"])
    yours = data["tuned"] == "yours"
    fixed_lines = [
        f"Held-out loss of models that count instead of learning (nats per character"
        + ("; counted on your text less its held-out end" if yours else "")
        + f"): an even guess among {v} characters {fixed(b['even'], 2)}; counting strings of {counts}",
        f"Seed {data['seed']}, {data['steps']} steps: the final model's loss on all {data['corpus']['held_out']:,} "
        f"held-out characters {fixed(final, 2)} nats per character ({fixed(_bits(final), 2)} bits)",
    ]
    against = f"against {fixed(b[f'n{best}'], 2)} for counting strings of {best} characters"
    if data["tuned"]:
        first, last = data["checkpoints"][0], data["checkpoints"][-1]
        status = (f"Fine-tuned {last['step'] - first['step']} steps on {WHAT[yours]}: held-out loss {fixed(first['held_out'], 2)} "
                  f"before, {fixed(last['held_out'], 2)} after (nats per character), {against}"
                  + (" of it" if yours else ""))
    else:
        status = f"Seed {data['seed']}, {data['steps']} steps: held-out loss {fixed(final, 2)} nats per character, {against}"
    return {"fixed": fixed_lines, "status": status}


def text(p: Params, data: dict) -> dict:
    lines = _lines(data)
    start = opening_state(p, data)
    first, last = data["checkpoints"][0], data["checkpoints"][start]
    m, c = data["model"], data["corpus"]
    state = state_lines(last, data["steps"], data["prompt"])
    return {
        "alt": (f"Loss curve of a {m['layers']}-block transformer with {m['parameters']:,} parameters learning to "
                f"write {WHAT[data['tuned'] == 'yours']} one character at a time, "
                f"over {data['steps']} steps: the training loss "
                f"of every step, the held-out loss at each of {len(data['checkpoints'])} checkpoints, and "
                f"{len(data['baselines'])} counting models as horizontal lines. The held-out loss falls from {fixed(first['held_out'], 2)} at step "
                f"0 to {fixed(last['held_out'], 2)} at step {last['step']}. "
                + ". ".join(state + lines["fixed"]) + "."),
        "numbers": state + lines["fixed"],
        "states": [{"numbers": state_lines(s, data["steps"], data["prompt"]), "label": f"step {s['step']}"}
                   for s in data["checkpoints"]],
        "fixed": lines["fixed"],
        # each baseline's label on the chart, filled from its value {v}; the sample's heading, from its step
        "parts": {**PARTS, "sample": f"Written at step {{v}}, starting from “{one_line(data['prompt'])}”:"},
        "status": lines["status"],
        "legend": (("Thin line: the loss of each training step's batch" if data["loss_every"] == 1 else
                    f"Thin line: the mean loss of each {data['loss_every']} training steps' batches")
                   + f" of {data['batch_size']} stretches; dots: the loss on "
                   f"held-out text at each checkpoint; dashed: models that count instead of learning, for comparison. Trained on "
                   f"{c['train']:,} characters, {c['held_out']:,} held out."),
        "training": "Training a new model from scratch…",
        # the reader's model once a run ends, kept in the browser (theme/js/reader-files.js): what the page says of it
        "kept": "Your model is kept in this browser, and the next figure can write with it. ",
        "keep": "Keep training",
        "keeping": "Training your model further…",
        "forget": "Forget my model",
        "forgotten": "Your model is forgotten: this browser no longer keeps it.",
        "stopped": "Training stopped: the figure shows the previous run again.",
        # Keep training with no model of the reader's own: the page's model, fine-tuned on the series' prose
        "keeping_page": "Training the page's model further, with its optimiser started afresh…",
        "tuning": "Fine-tuning on your text…",
        # the part where the reader fine-tunes on a text of their own (writing_own's bounds)
        "own": {"summary": "Fine-tune on a text of your own",
                "label": "Your text",
                "hint": (f"Paste {writing_own.MIN_CHARACTERS:,} to {writing_own.MAX_CHARACTERS:,} characters. "
                         "The model learns to write like it; its last tenth is held out to measure how well. "
                         "Curly quotes and long dashes become the plain ones the model knows; it cannot learn "
                         "a character it has never seen. Your text stays in this browser."),
                "count": "{v} characters",
                "base": "Start from",
                "bases": BASES,
                "steps": "Steps",
                "tune": "Fine-tune"},
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per checkpoint."""
    return len(data["checkpoints"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the last checkpoint, the trained model."""
    return data["start"]


def facts(p: Params, data: dict, given: Given) -> dict:
    """The model, its text and its run as chapter 14 quotes them, unrounded."""
    run = _run(p, given)
    b = writing.shipped(given).run["baselines"]
    final = float(run["final_held_out"])
    m, c = data["model"], data["corpus"]
    return {"characters": c["characters"], "train_characters": c["train"], "held_out_characters": c["held_out"],
            "vocabulary": c["vocabulary"], "parameters": m["parameters"], "layers": m["layers"], "heads": m["heads"],
            "d_model": m["d_model"], "d_head": m["d_model"] // m["heads"], "d_ff": m["d_ff"], "context": m["context"],
            "steps": data["steps"], "batch_size": data["batch_size"], "checkpoint_every": data["every"],
            "even_loss": b["even"], **{f"n{n}_loss": b[f"n{n}"] for n in writing.NGRAM_ORDERS},
            "held_out_loss": final, "held_out_bits": _bits(final),
            "passes": data["steps"] * data["batch_size"] * m["context"] / c["train"],
            "lr": run["config"].lr, "warmup": run["config"].warmup,
            "final_lr": run["config"].lr * run["config"].lr_final,
            "dropout_percent": 100 * run["config"].dropout, "measured_reading": m["context"] // 2,
            "n5_margin": b["n5"] - final,
            "gap": run["checkpoints"][-1]["held_out"] - run["checkpoints"][-1]["train"],
            **_page_recipe(c["vocabulary"]),
            **_tables(writing.shipped(given)),
            "first_sample": one_line(run["checkpoints"][0]["sample"]),
            "last_sample": one_line(run["checkpoints"][-1]["sample"])}


def _page_recipe(vocabulary: int) -> dict:
    """The recipe a reader trains in the page, as the chapter describes it."""
    return {"page_parameters": CONFIG.model(vocabulary).parameters, "page_d_model": CONFIG.d_model,
            "page_layers": CONFIG.layers}


TABLES = (5, 9)  # the counting models whose tables chapter 14 describes: the chart's longest, and one far longer


def _tables(shipped: writing.Shipped) -> dict:
    """For counting models of TABLES characters on the shipped split: how many strings each keeps a
    count for, the percentage of held-out characters whose context it never saw, and the loss of
    those the chart does not already draw (the shipped run's baselines hold those)."""
    corpus = writing.Corpus.of(shipped.text, shipped.config.held_out_every)
    out = {}
    for n in TABLES:
        model = NGram.fit(corpus.train, n, len(corpus.vocab))
        out |= {f"n{n}_entries": model.entries, f"n{n}_unseen": 100 * model.unseen_contexts(corpus.held_out)}
        if n not in writing.NGRAM_ORDERS:
            out[f"n{n}_loss"] = model.loss(corpus.held_out)
    return out


def _states(checkpoints: list, steps: int) -> list:
    return [{"numbers": state_lines(c, steps, CONFIG.prompt), "label": f"step {c['step']}"} for c in checkpoints]


def _snapshot(run: writing.WritingRun, t, kept: dict | None) -> dict:
    """The checkpoints reached since the last slice (as the figure draws them, with their state lines),
    the progress line and the steps the run spans; with `kept` (the first slice of a run taken on:
    its checkpoints and steps when it was kept), the run so far, which later slices do not repeat."""
    new = [_checkpoint(c) for c in run.measure()]
    out = {"checkpoints": new, "states": _states(new, t.steps),
           "progress": _progress(t.done_steps, t.steps, float(t.result.losses[-1])),
           "axis": {"steps": t.steps, "x": _x_ticks(t.steps, run.config.checkpoint_every)}}
    if kept:
        old = [_checkpoint(c) for c in kept["checkpoints"]]
        out["before"] = {"losses": [round(float(v), LOSS_DECIMALS) for v in t.result.losses[:kept["steps"]]],
                         "checkpoints": old, "states": _states(old, t.steps)}
    return out


def _job(p: Params, t, run: writing.WritingRun, seed: int, schedule_steps: int, text: str, baselines: dict,
         kept: dict | None = None) -> TrainingJob:
    """A run in slices (its recipe run.config, its text and that text's yardsticks); its last slice
    is the whole figure for the run, with the file the reader keeps. `kept`: see _snapshot."""
    def snapshot(t_) -> dict:
        nonlocal kept
        out, kept = _snapshot(run, t_, kept), None  # the run so far goes in the first slice alone
        return out

    def finish() -> dict:
        record = _record(run.finish(), t, run.config, seed, schedule_steps, text, baselines)
        return {**_data(p, record), "model_file": _packed(record)}

    return TrainingJob(t, snapshot, finish)


def train(p: Params, given: Given) -> TrainingJob:
    """A run from p.seed on the shipped model's text, in slices."""
    if p.seed == writing.MODEL_SEED:
        raise ParamError("seed", f"seed {writing.MODEL_SEED} names the model the site ships: train from another")
    shipped = writing.shipped(given)
    t, run = writing.writing_training(shipped.text, p.seed, _config(p))
    return _job(p, t, run, p.seed, p.steps, shipped.text, shipped.run["baselines"])


def _unreadable(option: str, err: Exception) -> ParamError:
    """The refusal of a kept model that cannot be read or taken on, naming `option`."""
    return ParamError(option, f"the model kept in this browser could not be read ({err})")


def _kept(given: Given, option: str) -> writing_kept.Kept:
    """The reader's kept run (READER_GIVEN's), or ParamError naming `option` and why it cannot be had."""
    if READER_GIVEN[0] not in given:
        raise ParamError(option, "no model of your own is kept in this browser")
    try:
        return writing_kept.unpack_kept(given[READER_GIVEN[0]])  # a run of a recipe the page trains, or refused
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as err:
        raise _unreadable(option, err) from None


def keep(p: Params, given: Given) -> TrainingJob:
    """The reader's kept run trained p.more steps on, exactly as it would have gone on, in slices."""
    kept = _kept(given, "more")
    try:
        t, run = writing_kept.keep_training(kept, p.more)
    except (ValueError, KeyError, TypeError) as err:
        raise _unreadable("more", err) from None
    model = kept.model
    return _job(p, t, run, model.seed, kept.schedule_steps, model.text, model.run["baselines"],
                {"checkpoints": model.run["checkpoints"], "steps": kept.t})


def tune(p: Params, given: Given) -> TrainingJob:
    """p.base's model (the page's, or the reader's kept one) fine-tuned p.tune steps, from p.seed's
    batches, on the reader's own text (READER_GIVEN's) or on the series' prose, in slices."""
    shipped = writing.shipped(given)
    model = shipped if p.base == "page" else _kept(given, "base").model
    if p.tune_text == "series":
        t, run = writing_own.tuning(model, shipped.text, False, p.tune, p.seed)
        return _job(p, t, run, p.seed, p.tune, shipped.text, shipped.run["baselines"])
    if READER_GIVEN[1] not in given:
        raise ParamError("tune_text", "Paste a text of your own to fine-tune on.")
    try:
        text = writing_own.read_text(given[READER_GIVEN[1]], model)
    except ValueError as err:
        raise ParamError("tune_text", str(err)) from None
    t, run = writing_own.tuning(model, text, True, p.tune, p.seed)
    return _job(p, t, run, p.seed, p.tune, text, writing.baselines(run.corpus))


WARM_STEPS = 4  # a few steps and one short sample: numpy's hot code compiled before the reader's run


def warm_train(p: Params, given: Given) -> TrainingJob:
    """train's code path on a throwaway run of WARM_STEPS steps with a short sample at its end (its own
    weights and batches: a run's numbers are the same after it); the worker discards it all."""
    shipped = writing.shipped(given)
    config = dataclasses.replace(CONFIG, steps=WARM_STEPS, checkpoint_every=WARM_STEPS, sample_length=8,
                                 eval_windows=1)
    job = writing.writing_job(shipped.text, p.seed, config)
    return TrainingJob(job.training, lambda t: {}, lambda: job.snapshot(job.training))


JOBS = {"train": train, "keep": keep, "tune": tune}
WARM = {"train": warm_train}
