"""Figure models: one module per figure, each a pure seeded function from parameters to JSON-able data.

Every module defines
- `Params`, a frozen dataclass: the options, their defaults (the figure as printed) and ranges; rules
  that tie options together live in its `__post_init__` (raising ParamError), so a Params that
  exists is valid: `parse(name, options)` checks a figure's options once, and everything after
  takes the Params;
- `compute(params) -> dict`: what the view draws;
- `text(params, data) -> dict`: what a reader reads about it, `{"alt": str, "numbers": [str]}`
  for the state the figure opens in, plus `"states": [{"numbers": [...], "label"?: str}]` when the
  view steps through precomputed states (the module's docstring says how they are indexed). The
  key numbers of state i are `states[i]["numbers"] + text.get("fixed", [])`: lines that never
  change while stepping are listed once, in "fixed". Where states would weigh too much, "templates"
  replace them: lines with slots the view fills from the data where "scope" says they lie (fmt.py
  `fill` and `scope_at`);
- beside `text`, when it has "states" or "templates": `state_count(data) -> int`, how many states the
  view steps through, and `opening_state(params, data) -> int`, the one it opens in (text() lists that
  state's numbers), so the shared tests check every figure's states without a table of their own;
- `EXAMPLE`, a dict of options other than the defaults: the shared tests run every figure with it
  too, so a count that matches the defaults by chance is caught;
- beside `EXAMPLE`, when `Params` has rules of its own (`__post_init__`): `BROKEN = (options, option)`,
  options that break one and the option its ParamError names, which the shared tests give it;
- each option's `doc=` (params.field): what it does, in an author's words, as the catalogue lists it;
- optionally `facts(params, data) -> dict`: numbers quoted only in the prose, computed at build
  time and never shipped to the page or the worker;
- `LIVE = True` when its view asks the worker for anything (ctx.request), or a function
  `LIVE(params) -> bool` when it asks only under some options; a model with `JOBS` (ctx.job) is
  live too. Only pages with a live figure (or an exercise) load Python. What a reader does to make a
  live view ask Python, which the tests of the real worker act out, is test data: it names the
  theme's controls, so it is kept in tests/browser/asks.py (one entry per live figure), not here.
- optionally `WARM = {"job": factory}` beside `JOBS`: a few steps of that job's code path on a
  throwaway model of its own, which the worker runs while the reader reads (ctx.warm), so that the
  reader's first run does not pay the browser's first compiling of numpy's hot code
  (docs/retrain-speed.md). It returns a Job like the real one's; the worker discards its output.
FIGURES is the one ordered registry the builder and the browser share.
"""
from __future__ import annotations

import importlib
import json

from .params import ParamError, schema, to_json, validate

FIGURES = (  # in reading order
    "matrix-product",
    "sum-spread",
    "chain-rule",
    "exp-log",
    "winograd-head",
    "word-map",
    "word-neighbours",
    "dot-product",
    "soft-lookup",
    "query-drag",
    "query-matrix",
    "softmax-bars",
    "softmax-temperature",
    "scaling-experiment",
    "worked-mixture",
    "value-sum",
    "attention-matrix",
    "colour-tokens",
    "causal-mask",
    "access-chart",
    "head-types",
    "word-order",
    "sinusoids",
    "qkv-matrices",
    "attention-stages",
    "softmax-gradient",
    "lookup-training",
    "two-heads",
    "your-sentence",
    "residual-stream",
    "quadratic-cost",
    "tiled-attention",
    "intervention",
    "weight-norms",
    "circuits",
    "induction-forms",
    "your-sequence",
    "writing-training",
    "writing-sample",
    "bpe-merges",
)


def module(name: str):
    """The model module of figure `name` (KeyError for a name not in FIGURES)."""
    if name not in FIGURES:
        raise KeyError(name)
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def parse(name: str, options: dict | None = None):
    """Figure `name`'s options (a mapping from YAML or JSON) as its valid Params: KeyError for an
    unknown figure, ParamError naming the first bad option. The one check; the rest take Params."""
    return validate(module(name).Params, options)


def name_of(params) -> str:
    """The figure a Params belongs to: the model module that defines it."""
    return type(params).__module__.rsplit(".", 1)[-1].replace("_", "-")


def is_live(params) -> bool:
    """Whether the figure's view, given these options, can ask the worker for anything: its page
    then loads Python. `LIVE` is True, or a function of the Params for a view that asks only under
    some options (a control the chapter hides never asks)."""
    mod = module(name_of(params))
    if getattr(mod, "JOBS", None):
        return True
    live = getattr(mod, "LIVE", False)
    return bool(live(params) if callable(live) else live)


def compute(params) -> dict:
    """Run the figure model: its data, the params it used, the options' schema and the text a
    reader reads. Everything a view shows comes from here."""
    mod = module(name_of(params))
    return _output(mod, params, mod.compute(params))


def _output(mod, params, data: dict) -> dict:
    """A model's data as every view receives it: with its params, schema and text."""
    return {"figure": name_of(params), "params": to_json(params), "schema": schema(mod.Params), **data,
            "text": mod.text(params, data)}


def facts(params, data: dict | None = None) -> dict:
    """The numbers a chapter quotes about the figure (build time only); `data` is its compute()
    output when the caller already has it."""
    mod = module(name_of(params))
    if not hasattr(mod, "facts"):
        return {}
    return mod.facts(params, data if data is not None else compute(params))


def _message(err: Exception) -> str:
    """What the reader is told: a KeyError's str() would wrap its message in quotes."""
    return str(err.args[0]) if isinstance(err, KeyError) and err.args else str(err)


def prepare_json(name: str, params_json: str) -> None:
    """The browser worker's: figure `name`'s model imported before the reader's first change; with
    PREPARE = True, its page's options (JSON) computed once too, the result dropped, for what that
    change reuses (the model's cache, the interpreter's hot code). Options it refuses are left for
    the compute that follows to say so."""
    mod = module(name)
    if getattr(mod, "PREPARE", False):
        try:
            compute(parse(name, json.loads(params_json)))
        except (ParamError, KeyError, ValueError):
            pass


def compute_json(name: str, params_json: str) -> str:
    """The browser worker's entry point: JSON in, JSON out, so no proxies cross the boundary."""
    try:
        return json.dumps({"ok": True, "data": compute(parse(name, json.loads(params_json)))})
    except (ParamError, KeyError) as err:
        return json.dumps({"ok": False, "error": _message(err)})


class FigureJob:
    """A long job of a figure model (its JOBS[job], engine/jobs.py): the last slice's result is the
    figure for the new model, as compute() would give it, so the view redraws it like any data.
    With `warm`, the model's WARM[job] instead: a throwaway run whose output nobody draws."""

    error = None  # set only by from_json, for options it refused

    def __init__(self, params, job: str, warm: bool = False):
        self.params, self.mod, self.warm = params, module(name_of(params)), warm
        factory = getattr(self.mod, "WARM" if warm else "JOBS", {}).get(job)
        if factory is None:
            raise KeyError(f"figure '{name_of(params)}' has no {'warm-up for job' if warm else 'job'} '{job}'")
        self.job = factory(params)

    @classmethod
    def from_json(cls, name: str, job: str, params_json: str, warm: bool = False) -> FigureJob:
        """The worker's start, JSON in like compute_json. Options refused here are not raised but
        answered by the first advance_json, so the worker meets every failure of a job in one place."""
        try:
            return cls(parse(name, json.loads(params_json)), job, warm)
        except (ParamError, KeyError) as err:
            refused = cls.__new__(cls)
            refused.error = _message(err)
            return refused

    def advance(self, budget: float) -> dict:
        out = self.job.advance(budget)
        if "result" in out and not self.warm:
            out["result"] = _output(self.mod, self.params, out["result"])
        return out

    def advance_json(self, budget: float) -> str:
        """advance() behind the worker's JSON boundary, so no proxies cross it."""
        if self.error is not None:
            return json.dumps({"ok": False, "error": self.error})
        return json.dumps({"ok": True, "data": self.advance(budget)})


__all__ = ["FIGURES", "FigureJob", "ParamError", "compute", "compute_json", "facts", "is_live", "module",
           "name_of", "parse"]
