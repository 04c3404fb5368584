"""Graded coding exercises: the reader's NumPy code, checked against the engine on several shapes.

Each exercise module names the FUNCTION the reader writes, its `trials()` (inputs and expected
results) and `verdict(trials, results) -> Verdict | None`: None when every case passes, else what
went wrong on the first failing case, named as the attention-specific mistake it looks like where
the grader can tell. `grade(name, code)` computes the trials, runs the reader's code in a fresh
namespace (numpy as np) on them (`run`), restores every module the code could patch, then judges
(`judge`), turning every outcome, a Python error included, into one JSON-able verdict with the line
of the reader's code where an error was raised.

The worker runs this in Pyodide; the build runs `run` in a separate process (builder/grading.py)
and judges in its own. A runaway loop cannot be stopped from here: the page stops the worker after
its time limit.
"""
from __future__ import annotations

import builtins
import importlib
import json
import sys
import traceback
import types

from . import cases
from .cases import FILENAME, Verdict

EXERCISES = ("softmax", "attention", "softmax-backward")
GUARDED = ("builtins", "numpy", "engine", "json", "traceback", "linecache", "math")  # modules restored after every run


def module(name: str):
    if name not in EXERCISES:
        raise KeyError(name)
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def _error_line(err: BaseException) -> int | None:
    """The last line of the reader's code in the traceback (None if the error arose elsewhere)."""
    lines = [f.lineno for f in traceback.extract_tb(err.__traceback__) if f.filename == FILENAME]
    if isinstance(err, SyntaxError) and err.filename == FILENAME:
        lines.append(err.lineno)
    return lines[-1] if lines else None


def _python_error(err: BaseException, where: str) -> dict:
    line = _error_line(err)
    at = f" (line {line})" if line else ""
    return {"message": f"{where}{at}: {type(err).__name__}: {err}", "line": line}


class _Snapshot:
    """What a reader's code could patch to fool the judge or a later run: every top-level name of
    numpy's, the engine's and the grader's own modules and the builtins (and which module each
    import name gives), the code of the engine's functions and the attributes of its classes.
    restore() puts all of it back and keeps names added since (numpy adds submodules lazily)."""

    def __init__(self):
        self.entries = {k: m for k, m in sys.modules.items() if k.split(".")[0] in GUARDED}
        mods = [m for m in self.entries.values() if isinstance(m, types.ModuleType)]
        mods.sort(key=lambda m: m is not builtins)  # builtins first: restoring the rest may need them
        self.modules = [(vars(m), dict(vars(m))) for m in mods]
        ours = [saved for ns, saved in self.modules if str(ns.get("__name__", "")).startswith("engine")]
        objs = [v for saved in ours for v in saved.values()]
        self.functions = [(f, f.__code__, f.__defaults__, f.__kwdefaults__) for f in objs
                          if isinstance(f, types.FunctionType)]
        self.classes = [(c, dict(vars(c))) for c in objs
                        if isinstance(c, type) and str(c.__module__).startswith("engine")]

    def restore(self) -> None:
        for namespace, saved in self.modules:  # no builtin is looked up here: the reader may have deleted any
            for key, value in saved.items():
                if namespace.get(key) is not value:
                    namespace[key] = value
        for f, code, defaults, kwdefaults in self.functions:
            f.__code__, f.__defaults__, f.__kwdefaults__ = code, defaults, kwdefaults
        for cls, saved in self.classes:
            for key in [k for k in vars(cls) if k not in saved]:
                delattr(cls, key)
            for key, value in saved.items():
                if key not in ("__dict__", "__weakref__") and vars(cls).get(key) is not value:
                    setattr(cls, key, value)
        sys.modules.update(self.entries)


def run(mod, trials, code: str) -> dict:
    """The reader's code on every trial: {"got": results made plain, "error": {message, line} or None}.
    Every guarded module is restored before this returns, and before any error is formatted."""
    import numpy as np

    snapshot = _Snapshot()
    restore, outputs, is_callable = snapshot.restore, cases.outputs, callable  # bound before the reader's code runs
    got, where, err = [], None, None
    try:
        namespace = {"np": np, "numpy": np, "__name__": "exercise"}
        try:
            exec(compile(code, FILENAME, "exec"), namespace)  # the reader's own code
        except BaseException as e:  # noqa: BLE001: any error in the reader's code is feedback, not a crash
            where, err = "Your code raised an error while it was defined", e
        else:
            fn = namespace.get(mod.FUNCTION)
            if not is_callable(fn):
                where = "define"
            else:
                with np.errstate(all="ignore"):  # overflow is judged by the result (inf or nan), not by warnings
                    got, err = outputs(fn, trials)
                where = f"{mod.FUNCTION} raised an error"
    except BaseException as e:  # noqa: BLE001: the grader's own code, broken by the reader's (del builtins.len)
        where, err = "Your code broke the grader", e
    finally:
        restore()
    if where == "define":
        return {"got": got, "error": {"message": f"Define a function named {mod.FUNCTION}.", "line": None}}
    if err is None:
        return {"got": got, "error": None}
    if isinstance(err, (KeyboardInterrupt, SystemExit)):
        return {"got": got, "error": {"message": f"Your code stopped the run ({type(err).__name__}).", "line": None}}
    try:
        return {"got": got, "error": _python_error(err, where)}
    except Exception:  # noqa: BLE001: an exception whose str() raises
        return {"got": got, "error": {"message": f"{where}: {type(err).__name__}", "line": None}}


def judge(mod, trials, outcome: dict) -> dict:
    """The verdict on results already computed: no code of the reader's runs here. A wrong result on
    an earlier case is named before an error raised on a later one."""
    verdict = mod.verdict(trials, outcome["got"])
    if verdict is not None:
        return {"state": "failed", "message": verdict.message, "line": None, "case": verdict.case}
    if outcome["error"] is not None:
        return {"state": "error", **outcome["error"], "case": None}
    if len(outcome["got"]) < len(trials):
        return {"state": "error", "message": "The run ended before every case was tried.", "line": None, "case": None}
    return {"state": "passed", "message": mod.PASSED, "line": None, "case": None}


def grade(name: str, code: str) -> dict:
    """{"state": passed | failed | error, "message", "line" (of the reader's code, or None), "case"}.
    The expected results are computed before the reader's code runs, and judged after every module it
    could patch is restored, so no patch makes a wrong answer pass, now or in a later run."""
    mod = module(name)
    trials = mod.trials()
    return judge(mod, trials, run(mod, trials, code))


def grade_json(name: str, code: str) -> str:
    """The worker's entry point: JSON out, so no proxies cross the boundary."""
    try:
        return json.dumps({"ok": True, "data": grade(name, code)})
    except KeyError:
        return json.dumps({"ok": False, "error": f"no exercise named '{name}'"})


__all__ = ["EXERCISES", "Verdict", "grade", "grade_json", "judge", "module", "run"]
