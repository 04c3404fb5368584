"""Graded coding exercises: the reader's NumPy code, checked against the engine on several shapes.

Each exercise module names the FUNCTION the reader writes and has `check(fn) -> Verdict | None`:
None when every case passes, else what went wrong on the first failing case, named as the
attention-specific mistake it looks like where the grader can tell. `grade(name, code)` runs the
reader's code in a fresh namespace (numpy as np) and turns every outcome, a Python error included,
into one JSON-able verdict with the line of the reader's code where an error was raised.

The worker runs this in Pyodide; the build runs it on CPython to check each exercise's solution.
A runaway loop cannot be stopped from here: the page stops the worker after its time limit.
"""
from __future__ import annotations

import importlib
import json
import traceback

from .cases import FILENAME, Verdict

EXERCISES = ("softmax", "attention", "softmax-backward")


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
    return {"state": "error", "message": f"{where}{at}: {type(err).__name__}: {err}", "line": line, "case": None}


def _restore(namespace: dict, saved: dict) -> None:
    """Put back the names a module had (the reader's code may have replaced np.exp). Names added
    since are kept: numpy adds submodules lazily, and removing them would break its imports."""
    for key, value in saved.items():
        if namespace.get(key) is not value:
            namespace[key] = value


def grade(name: str, code: str) -> dict:
    """{"state": passed | failed | error, "message", "line" (of the reader's code, or None), "case"}.
    numpy's and the builtins' top-level names are restored afterwards, so one run cannot break the next."""
    import builtins

    import numpy as np

    mod = module(name)
    saved = [(vars(m), dict(vars(m))) for m in (np, builtins)]
    try:
        return _grade(mod, code, np)
    finally:
        for namespace, names in saved:
            _restore(namespace, names)


def _grade(mod, code: str, np) -> dict:

    namespace = {"np": np, "numpy": np, "__name__": "exercise"}
    try:
        exec(compile(code, FILENAME, "exec"), namespace)  # the reader's own code, in the reader's own browser
    except BaseException as err:  # noqa: BLE001: any error in the reader's code is feedback, not a crash
        if isinstance(err, (KeyboardInterrupt, SystemExit)):
            return {"state": "error", "message": f"Your code stopped the run ({type(err).__name__}).", "line": None, "case": None}
        return _python_error(err, "Your code raised an error while it was defined")
    fn = namespace.get(mod.FUNCTION)
    if not callable(fn):
        return {"state": "error", "message": f"Define a function named {mod.FUNCTION}.", "line": None, "case": None}
    try:
        with np.errstate(all="ignore"):  # overflow is judged by the result (inf or nan), not by warnings
            verdict = mod.check(fn)
    except BaseException as err:  # noqa: BLE001
        if isinstance(err, (KeyboardInterrupt, SystemExit)):
            return {"state": "error", "message": f"Your code stopped the run ({type(err).__name__}).", "line": None, "case": None}
        return _python_error(err, f"{mod.FUNCTION} raised an error")
    if verdict is None:
        return {"state": "passed", "message": mod.PASSED, "line": None, "case": None}
    return {"state": "failed", "message": verdict.message, "line": None, "case": verdict.case}


def grade_json(name: str, code: str) -> str:
    """The worker's entry point: JSON out, so no proxies cross the boundary."""
    try:
        return json.dumps({"ok": True, "data": grade(name, code)})
    except KeyError:
        return json.dumps({"ok": False, "error": f"no exercise named '{name}'"})


__all__ = ["EXERCISES", "Verdict", "grade", "grade_json", "module"]
