"""Figure models: one module per figure, each a pure seeded function from parameters to JSON-able data.

Every module defines
- `Params`, a frozen dataclass: the options, their defaults (the figure as printed) and ranges; rules
  that tie options together live in its `__post_init__` (raising ParamError), so a Params that
  exists is valid: `parse(name, options)` checks a figure's options once, and everything after
  takes the Params;
- `compute(params) -> dict`: what the view draws; a model that reads more than its options lists the
  names in `GIVEN` (engine/given.py) and is called `compute(params, given)`, as are its JOBS and WARM
  factories and its `facts`: what it reads is handed in, never held by the engine; `READER_GIVEN`
  names files a reader made in the browser (chapter 14's model trained in the page), which the
  given holds only when the page hands them in, and never at build time;
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
A figure is its module: FIGURES, the registry the builder and the browser share, is found from the
modules of this package (the same in the wheel the worker imports), less SHARED, the modules the
figures share. Adding a figure edits no list, so it changes no other figure's key in the builder's
store; the reading order is the chapters' (the catalogue lists figures in it).
"""
from __future__ import annotations

import importlib
import json
import pkgutil

from ..given import NOTHING, Given
from .params import ParamError, schema, to_json, validate

SHARED = frozenset({"fmt", "letters", "params", "sentences"})  # modules here that are not figures: what they share
FIGURES = tuple(sorted(m.name.replace("_", "-") for m in pkgutil.iter_modules(__path__)
                       if not m.ispkg and not m.name.startswith("_") and m.name not in SHARED))  # by name


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


def given_names(params) -> tuple[str, ...]:
    """What the figure's model reads beyond its options (its GIVEN, engine/given.py)."""
    return tuple(getattr(module(name_of(params)), "GIVEN", ()))


def reader_given_names(params) -> tuple[str, ...]:
    """The files a reader makes in the browser that the figure's model reads when handed them (its READER_GIVEN)."""
    return tuple(getattr(module(name_of(params)), "READER_GIVEN", ()))


def _given(mod, params, given: Given) -> tuple:
    """The extra argument a model with GIVEN takes: the part of `given` it declares, all of it there."""
    names = getattr(mod, "GIVEN", ())
    if not names:
        return ()
    missing = [name for name in names if name not in given]
    if missing:
        raise KeyError(f"figure '{name_of(params)}' reads '{missing[0]}', which it was not given")
    return (given.only((*names, *getattr(mod, "READER_GIVEN", ()))),)


def compute(params, given: Given = NOTHING) -> dict:
    """Run the figure model: its data, the params it used, the options' schema and the text a
    reader reads. Everything a view shows comes from here; `given` holds at least its GIVEN."""
    mod = module(name_of(params))
    return _output(mod, params, mod.compute(params, *_given(mod, params, given)))


def _output(mod, params, data: dict) -> dict:
    """A model's data as every view receives it: with its params, schema and text."""
    return {"figure": name_of(params), "params": to_json(params), "schema": schema(mod.Params), **data,
            "text": mod.text(params, data)}


def facts(params, data: dict | None = None, given: Given = NOTHING) -> dict:
    """The numbers a chapter quotes about the figure (build time only); `data` is its compute()
    output when the caller already has it."""
    mod = module(name_of(params))
    if not hasattr(mod, "facts"):
        return {}
    return mod.facts(params, data if data is not None else compute(params, given), *_given(mod, params, given))


def _message(err: Exception) -> str:
    """What the reader is told: a KeyError's str() would wrap its message in quotes."""
    return str(err.args[0]) if isinstance(err, KeyError) and err.args else str(err)


def _as_given(files) -> Given:
    """What the worker hands in (a Given it keeps, or a dict of bytes; None: nothing)."""
    return files if isinstance(files, Given) else Given(files or {})


def prepare_json(name: str, params_json: str, given=None) -> None:
    """The browser worker's: figure `name`'s model imported before the reader's first change; with
    PREPARE = True, its page's options (JSON) computed once too, the result dropped, for what that
    change reuses (the model's cache, the interpreter's hot code). Options it refuses are left for
    the compute that follows to say so."""
    mod = module(name)
    if getattr(mod, "PREPARE", False):
        try:
            compute(parse(name, json.loads(params_json)), _as_given(given))
        except (ParamError, KeyError, ValueError):
            pass


def compute_json(name: str, params_json: str, given=None) -> str:
    """The browser worker's entry point: JSON in, JSON out, so no proxies cross the boundary
    (`given`: the files the worker fetched for the figure, by name)."""
    try:
        return json.dumps({"ok": True, "data": compute(parse(name, json.loads(params_json)), _as_given(given))})
    except (ParamError, KeyError) as err:
        return json.dumps({"ok": False, "error": _message(err)})


class FigureJob:
    """A long job of a figure model (its JOBS[job], engine/jobs.py): the last slice's result is the
    figure for the new model, as compute() would give it, so the view redraws it like any data.
    With `warm`, the model's WARM[job] instead: a throwaway run whose output nobody draws."""

    error = None  # set only by from_json, for options it refused

    def __init__(self, params, job: str, warm: bool = False, given: Given = NOTHING):
        self.params, self.mod, self.warm = params, module(name_of(params)), warm
        factory = getattr(self.mod, "WARM" if warm else "JOBS", {}).get(job)
        if factory is None:
            raise KeyError(f"figure '{name_of(params)}' has no {'warm-up for job' if warm else 'job'} '{job}'")
        self.job = factory(params, *_given(self.mod, params, given))

    @classmethod
    def from_json(cls, name: str, job: str, params_json: str, warm: bool = False, given=None) -> FigureJob:
        """The worker's start, JSON in like compute_json. Options refused here are not raised but
        answered by the first advance_json, so the worker meets every failure of a job in one place."""
        try:
            return cls(parse(name, json.loads(params_json)), job, warm, _as_given(given))
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


__all__ = ["FIGURES", "SHARED", "FigureJob", "ParamError", "compute", "compute_json", "facts", "given_names",
           "reader_given_names",
           "is_live", "module", "name_of", "parse"]
