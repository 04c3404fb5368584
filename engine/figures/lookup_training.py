"""lookup-training: one head learning the key-value lookup of chapter 9 (engine/tasks/lookup.py), played step by step.

Each offered step size has its whole run precomputed (`STEPS` steps of gradient descent with momentum
from the same seeded start on the same batches), so Play, the step-size menu and Reset work before
Python loads and without it. A run's state k is the model after k * EVERY steps: the loss of those
weights on the next batch (state 0: the untrained guess, near ln 4) and the query-key grid
(tasks/lookup.py grid(): question letter against key letter) with its diagonal summary. `losses` has
one entry per step from step 0, so the plot streams step by step.
The job "train" runs the same Training live in the worker from option `start`, replaying the
steps before it (same seed, same batches, so the same numbers); each slice's snapshot is the run so
far in the same shape as a precomputed run: its states start at state `from`, its losses at step 0
(the replayed ones too), so a view draws the whole curve from the one run it shows.
Text: `templates` filled for state i = run * (STEPS // EVERY + 1) + k from `text.scope` (SCOPE
below, read by engine/figures/fmt.py `scope_at`; a view drawing a live run gives it as `run`);
`fixed` lines never change; `parts.rate` labels the step-size menu.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..jobs import TrainingJob
from ..tasks.lookup import LETTERS, LookupConfig, grid, lookup_training
from ..train import Training
from .fmt import fill_all, fixed, rounded, scope_at
from .params import ParamError, field

STEPS = 150  # steps each run goes: every offered step size has flattened out or clearly not by then
EVERY = 5    # a state (grid, summary, key numbers) every EVERY steps: the page weight stays small
RATES = (0.05, 0.1, 0.2, 0.4)  # step sizes offered: too small to finish, then faster and faster
LOSS_DECIMALS = 4  # losses embedded with these decimals
GRID_DECIMALS = 1  # grid scores: only their colour is drawn (1% of the colour scale)
SUMMARY_DECIMALS = 4


@dataclass(frozen=True)
class Params:
    seed: int = field(0, lo=0, hi=2 ** 31 - 1, doc="seeds the starting weights and the batches")
    rates: tuple[float, ...] = field(RATES, lo=0.001, hi=1.0, length=(1, 5), doc="step sizes the menu offers")
    rate: float = field(LookupConfig.lr, lo=0.001, hi=1.0, doc="the step size shown first; one of `rates`")
    start: int = field(STEPS, lo=0, hi=STEPS, step=EVERY, doc="the step shown first, and where a job starts")

    def __post_init__(self):
        if self.rate not in self.rates:
            raise ParamError("rate", f"option 'rate' must be one of the offered rates "
                                     f"({', '.join(map(str, self.rates))}), not {self.rate}")
        if len(set(self.rates)) != len(self.rates):
            raise ParamError("rates", "option 'rates' must not offer the same step size twice")
        if self.start % EVERY:
            raise ParamError("start", f"option 'start' must be a multiple of {EVERY}, not {self.start}")


EXAMPLE = {"seed": 1, "rates": [0.1, 0.3], "rate": 0.3, "start": 20}
BROKEN = ({"rate": 0.3}, "rate")  # options that break a rule of Params' own, and the option it names


def training(seed: int, rate: float) -> Training:
    """One step size's run: the loss of step s (s = 0..STEPS) is the weights' after s steps on the
    next batch, before it updates them; checkpoint k holds the weights after k * EVERY steps."""
    return lookup_training(seed, STEPS + 1, rate, EVERY)


def empty_run(rate: float, start: int = 0) -> dict:
    """A run with no states yet, starting at state start // EVERY (and no losses: they start at step 0)."""
    return {"rate": rate, "from": start // EVERY, "losses": [], "grids": [], "top": [], "rows": [], "diag": [], "off": []}


def record(run: dict, t: Training) -> dict:
    """Add to `run` what `t` has done since: each step's loss from step 0, and a state for each
    checkpoint from the run's start whose step's loss is known."""
    done = t.result.losses
    for loss in done[len(run["losses"]):]:
        run["losses"].append(round(float(loss), LOSS_DECIMALS))
    for k in range(run["from"] + len(run["grids"]), len(t.result.checkpoints)):
        if k * EVERY < len(done):
            _state(run, grid(t.result.checkpoints[k]))  # (L, L)
    return run


def _state(run: dict, grid) -> None:
    """A state: the grid, each row's largest entry, how many of those sit on the diagonal, and the
    mean diagonal and off-diagonal scores."""
    n = len(grid)
    top = grid.argmax(axis=1)  # (L,)
    off = (grid.sum() - np.trace(grid)) / (n * n - n)
    run["grids"].append(rounded(grid, GRID_DECIMALS))
    run["top"].append(top.tolist())
    run["rows"].append(int((top == np.arange(n)).sum()))
    run["diag"].append(round(float(np.diag(grid).mean()), SUMMARY_DECIMALS))
    run["off"].append(round(float(off), SUMMARY_DECIMALS))


@lru_cache(maxsize=16)
def _run(seed: int, rate: float) -> dict:
    t = training(seed, rate)
    t.run()
    return record(empty_run(rate), t)


def run(seed: int, rate: float) -> dict:
    """The whole precomputed run for one step size (a copy: callers may keep it)."""
    return {k: (list(v) if isinstance(v, list) else v) for k, v in _run(seed, rate).items()}


def _scale(runs) -> float:
    """The largest score magnitude over every grid shown: one colour scale for all runs and steps."""
    return round(max(max(abs(v) for g in r["grids"] for row in g for v in row) for r in runs), GRID_DECIMALS)


def compute(p: Params) -> dict:
    runs = [run(p.seed, r) for r in p.rates]
    c = LookupConfig()
    ln4 = math.log(c.n_pairs)
    return {
        "letters": LETTERS[:c.n_letters],
        "steps": STEPS,
        "every": EVERY,
        "rates": list(p.rates),
        "runs": runs,
        "scale": _scale(runs),
        "start": {"run": p.rates.index(p.rate), "state": p.start // EVERY},
        "trained": training(p.seed, p.rate).flat.size,
        "axis": {"x": [[s, str(s)] for s in range(0, STEPS + 1, 50)],
                 "y": [[0, "0"], [round(ln4, LOSS_DECIMALS), f"ln {c.n_pairs} = {fixed(ln4, 3)}"]],
                 "top": round(1.1 * max(ln4, *(max(r["losses"]) for r in runs)), LOSS_DECIMALS)},  # room above
    }


def _states(data: dict) -> int:
    return data["steps"] // data["every"] + 1


def templates(n_letters: int) -> list[str]:
    return ["Step {step} of {steps}, step size {rate}: loss {loss:3}",
            "Query–key grid: the largest score in {rows} of " + str(n_letters) + " rows is on the diagonal "
            "(the question's own letter); mean diagonal score {diag:2}, mean off-diagonal {off:2}"]


SCOPE = {  # the values the templates name in state i = run r * states per run + k, of `run`: runs[r], or
    # a live run from the worker given in its place, whose states start at state run.from (its losses at step 0)
    "index": [["r", "runs"], ["k", "runs.0.grids"]],
    "let": {"run": "runs[r]"},
    "values": {"step": "k * every", "steps": "steps", "rate": "run.rate", "loss": "run.losses[k * every]",
               "rows": "run.rows[k - run.from]", "diag": "run.diag[k - run.from]", "off": "run.off[k - run.from]"},
}


def _fixed(data: dict) -> list[str]:
    c = LookupConfig()
    return [f"Trained: {data['trained']} numbers, the query and key matrices ({2 * c.n_letters} → {c.d_k} each); "
            f"the value matrix is fixed; batches of {c.batch_size}, momentum {c.momentum}",
            f"An even guess among {c.n_pairs} pairs has loss ln {c.n_pairs} = {fixed(math.log(c.n_pairs), 3)}"]


def text(p: Params, data: dict) -> dict:
    start = opening_state(p, data)
    lines = templates(len(data["letters"]))
    now = scope_at(SCOPE, data, start)
    return {
        "alt": (f"Training one attention head on the lookup task with step size {now['rate']}: the loss curve "
                f"falls from {fixed(data['runs'][data['start']['run']]['losses'][0], 3)} at step 0 to "
                f"{fixed(now['loss'], 3)} at step {now['step']}, beside the {len(data['letters'])} by {len(data['letters'])} grid of query–key scores "
                f"(question letter against key letter) at that step, whose diagonal is the matching letter. "
                + " ".join(l + "." for l in fill_all(lines, now))),
        "numbers": fill_all(lines, now) + _fixed(data),
        "templates": lines,
        "scope": SCOPE,
        "fixed": _fixed(data),
        "parts": {"rate": "{v}"},  # the step-size menu's entries
        "legend": ("Grid: the score of each question letter (rows) against each key letter (columns); purple is high, "
                   "grey low, and each row’s largest score is outlined. The diagonal is the matching letter."),
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per run and checkpoint."""
    return len(data["runs"]) * _states(data)


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the options' run and checkpoint."""
    return data["start"]["run"] * _states(data) + data["start"]["state"]


def facts(p: Params, data: dict) -> dict:
    """The numbers chapter 9 quotes about the run at the step size shown first."""
    r = data["runs"][data["start"]["run"]]
    losses = r["losses"]
    below = next((s for s, v in enumerate(losses) if v < 0.1), None)
    c = LookupConfig()
    return {
        "ln4": math.log(c.n_pairs),
        "first_loss": losses[0],
        "loss_at_100": losses[100],
        "last_loss": losses[-1],
        "steps": STEPS,
        "first_step_below_0_1": below,
        "rate": r["rate"],
        "trained_weights": data["trained"],
        "batch_size": c.batch_size,
        "momentum": c.momentum,
        "rows_on_diagonal_at_end": r["rows"][-1],
        "letters": c.n_letters,
        "mean_diagonal_at_end": r["diag"][-1],
        "mean_off_diagonal_at_end": r["off"][-1],
        "last_loss_smallest_rate": data["runs"][data["rates"].index(min(data["rates"]))]["losses"][-1],
    }


def train(p: Params) -> TrainingJob:
    """The run for p.rate from step p.start, live; every slice's snapshot (the last one's too) is the
    run so far. The steps before p.start are replayed first: same seed, same numbers."""
    t = training(p.seed, p.rate)
    while t.done_steps < p.start:
        t.step()
    run = empty_run(p.rate, p.start)
    return TrainingJob(t, lambda t: record(run, t))


JOBS = {"train": train}
