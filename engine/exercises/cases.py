"""What the graders share: seeded cases, a comparison that says how two arrays differ, and how a
case is described to the reader."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FILENAME = "<your code>"  # the reader's code in tracebacks, so errors can name its lines
RTOL, ATOL = 1e-6, 1e-8


@dataclass(frozen=True)
class Trial:
    """One case, computed before the reader's code runs: the inputs, the expected result, the case
    described, and what `diagnose` needs to name a mistake."""
    args: tuple  # passed to the reader's function (copied for each call)
    kwargs: dict
    want: np.ndarray
    case: str
    context: object


@dataclass(frozen=True)
class NotNumbers:
    """A result that is not an array of numbers (kept as its type's name), or one far larger than
    any case (kept as its shape): all the judge needs to say what is wrong."""
    kind: str
    shape: tuple | None = None


MAX_OUTPUT = 100_000  # numbers in one result: every case's expected result has fewer than 100


@dataclass(frozen=True)
class Verdict:
    message: str  # what is wrong, named as a mistake where the grader can tell
    case: str  # the first failing case, described


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def describe(**arrays) -> str:
    """"x: shape (2, 3), values from -1.2 to 3.4" for each input, short enough to read."""
    parts = []
    for name, a in arrays.items():
        a = np.asarray(a)
        if a.dtype == bool:
            parts.append(f"{name}={bool(a)}" if a.ndim == 0 else f"{name}: shape {a.shape}")
        elif a.size <= 8:
            parts.append(f"{name} = {np.array2string(a, precision=3, separator=', ')}")
        else:
            parts.append(f"{name}: shape {a.shape}, values from {a.min():.3g} to {a.max():.3g}")
    return "; ".join(parts)


def close(got, want, rtol=RTOL, atol=ATOL) -> bool:
    got = np.asarray(got)
    return got.shape == np.shape(want) and bool(np.all(np.isfinite(got))) and np.allclose(got, want, rtol=rtol, atol=atol)


def plain(got):
    """The reader's result as a plain float64 ndarray of our own, or NotNumbers: after this no code of
    the reader's (an ndarray subclass, an __array__ method) can run when the result is judged."""
    try:
        arr = np.array(got, dtype=float, copy=True, subok=False)
    except Exception:  # noqa: BLE001: whatever the reader returned, it is not an array of numbers
        return NotNumbers(type(got).__name__)
    if type(arr) is not np.ndarray or arr.dtype != np.float64:
        return NotNumbers(type(got).__name__)
    if arr.size > MAX_OUTPUT:
        return NotNumbers("array", tuple(int(n) for n in arr.shape))
    return arr


def shape_problem(got, want) -> str | None:
    """A message when the result is not an array of the right shape with finite numbers, else None."""
    if isinstance(got, NotNumbers) and got.shape is None:
        return f"the result should be an array of numbers, not {got.kind}"
    if isinstance(got, NotNumbers):
        return f"the result has shape {got.shape}; it should have shape {np.shape(want)}"
    try:
        got = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return f"the result should be an array of numbers, not {type(got).__name__}"
    if got.shape != np.shape(want):
        return f"the result has shape {got.shape}; it should have shape {np.shape(want)}"
    return None  # non-finite numbers are judged by the exercise: overflow is a named mistake


def first_failure(trials, diagnose, overflow: str | None = None, rtol=RTOL, atol=ATOL) -> Verdict | None:
    """The verdict on the first trial that fails, or None. `trials` yields (got, want, case, context)
    lazily, so an error in the reader's function stops here with its traceback; `diagnose(got,
    context)` names the mistake of a result of the right shape; `overflow` is the message for one
    holding inf or nan."""
    for got, want, case, context in trials:
        problem = shape_problem(got, want)
        if problem:
            return Verdict(f"Not yet: {problem}.", case)
        if close(got, want, rtol, atol):
            continue
        got = np.asarray(got, dtype=float)
        if overflow and not np.all(np.isfinite(got)):
            return Verdict(overflow, case)
        return Verdict(diagnose(got, context), case)
    return None


def outputs(fn, trials) -> tuple[list, BaseException | None]:
    """The reader's results on every trial, each made plain, up to the first error raised (returned,
    not raised, so the judge can still name a wrong result on an earlier case)."""
    got = []
    for t in trials:
        try:
            got.append(plain(fn(*(np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in t.args),
                                **t.kwargs)))
        except Exception as err:  # noqa: BLE001: the reader's error is feedback
            return got, err
    return got, None


def judge(trials, got, diagnose, overflow: str | None = None, rtol=RTOL, atol=ATOL) -> Verdict | None:
    """first_failure over results already computed: no code of the reader's runs here."""
    return first_failure(((g, t.want, t.case, t.context) for g, t in zip(got, trials)), diagnose, overflow, rtol, atol)


def softmax(x, axis=-1):
    """The engine's stable softmax along any axis, the reference the graders compare with."""
    from ..attention import softmax_forward

    moved = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    return np.moveaxis(softmax_forward(moved.copy())[0], -1, axis)
