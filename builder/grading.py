"""Build-time grading in a cage: an exercise's solution or starter is author code, run in a process
of its own with a time limit, a memory limit and its output discarded or capped.

The child only runs the code on the trials (engine.exercises.run) and writes the results to a file;
this process, which never runs the code, judges them against expected results it computed itself.
So nothing the code does (a hang, os._exit, a thread, printing without end, patching numpy or the
engine) reaches the build, and no patch makes a wrong solution pass.
"""
from __future__ import annotations

import io
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIME_LIMIT = 10.0  # seconds of wall time per run; the real solutions take about 0.3 s, numpy's import included
MEMORY_LIMIT = 1 << 30  # bytes of address space (numpy's import takes about 150 MB)
FILE_LIMIT = 1 << 20  # bytes any file the child writes may hold: its results, its error output


class CageError(Exception):
    """The run ended without results: a timeout, a crash, a silent exit. str() says which."""


def _child() -> None:
    """The caged side: limits first, then the trials, then the author's code with output discarded."""
    try:
        import resource
    except ImportError:  # not a POSIX system: the time limit (kept by the parent) still holds
        resource = None
    for name, limit in (("RLIMIT_AS", MEMORY_LIMIT), ("RLIMIT_FSIZE", FILE_LIMIT), ("RLIMIT_CPU", math.ceil(TIME_LIMIT) + 1)):
        try:
            resource.setrlimit(getattr(resource, name), (limit, limit))
        except (AttributeError, ValueError, OSError):  # macOS enforces no RLIMIT_AS, for one
            pass
    request = json.loads(sys.stdin.read())
    from engine.exercises import module, run

    mod = module(request["name"])
    trials = mod.trials()
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)  # print() in the author's code goes nowhere
    sys.stdout = _Discard()  # nor through a /dev/null that an installer left a regular file (RLIMIT_FSIZE holds there)
    outcome = run(mod, trials, request["code"])
    with open(request["out"], "w", encoding="utf-8") as f:
        json.dump({"got": [_encode(g) for g in outcome["got"]], "error": outcome["error"]}, f)
    os._exit(0)  # no atexit handler, no thread of the author's can hold the process


class _Discard(io.TextIOBase):
    """A text stream that keeps nothing."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


def _encode(got) -> dict:
    import numpy as np

    if isinstance(got, np.ndarray):
        return {"shape": list(got.shape), "data": got.ravel().tolist()}
    return {"kind": str(got.kind), "shape": None if got.shape is None else list(got.shape)}


def _decode(item):
    """One result from the child's file, checked: the child ran untrusted code, so its file is data."""
    import numpy as np

    from engine.exercises.cases import MAX_OUTPUT, NotNumbers

    if not isinstance(item, dict):
        raise ValueError("not a result")
    shape = item.get("shape")
    if shape is not None and not (isinstance(shape, list) and len(shape) <= 32
                                  and all(isinstance(n, int) and 0 <= n for n in shape)):
        raise ValueError("bad shape")
    if "data" not in item:
        kind = item.get("kind")
        if not isinstance(kind, str):
            raise ValueError("bad kind")
        return NotNumbers(kind[:80], None if shape is None else tuple(shape))
    data = item["data"]
    if shape is None or not isinstance(data, list) or len(data) > MAX_OUTPUT or math.prod(shape) != len(data) \
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in data):
        raise ValueError("bad data")
    return np.array(data, dtype=float).reshape(shape)


def _outcome(text: str) -> dict:
    raw = json.loads(text)
    error = raw["error"]
    if error is not None and not (isinstance(error, dict) and isinstance(error.get("message"), str)
                                  and (error.get("line") is None or type(error.get("line")) is int)):
        raise ValueError("bad error")
    if not isinstance(raw["got"], list):
        raise ValueError("bad results")
    if error is not None:
        error = {"message": error["message"][:2000], "line": error.get("line")}
    return {"got": [_decode(g) for g in raw["got"]], "error": error}


class Run:
    """One caged run, started at once so that several can run side by side; `verdict()` waits for it."""

    def __init__(self, name: str, code: str, cache):
        """`cache` (a BuildCache) keeps verdicts and expected results: `serve`'s rebuilds grade once."""
        self.name, self.code, self.proc, self.cache = name, code, None, cache
        self.verdicts = cache.table("verdicts")  # (exercise, code) -> verdict
        self.store = cache.figures.store  # where an earlier build's verdicts are kept, if it has one
        if (name, code) not in self.verdicts and self.store is not None:
            found = self.store.found_value("verdict", (name, code), self._judged_by())
            if found is not None:
                self.verdicts[(name, code)] = found
        if (name, code) in self.verdicts:
            return
        self.dir = tempfile.TemporaryDirectory(prefix="attention-grade-")
        self.out = Path(self.dir.name) / "results.json"
        self.err = open(Path(self.dir.name) / "stderr", "w+b")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
               "MKL_NUM_THREADS": "1", "HOME": self.dir.name, "LC_ALL": "C.UTF-8"}
        boot = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from builder.grading import _child; _child()"
        self.proc = subprocess.Popen([sys.executable, "-I", "-c", boot], stdin=subprocess.PIPE,
                                     stdout=subprocess.DEVNULL, stderr=self.err, cwd=self.dir.name, env=env,
                                     start_new_session=True)  # its own process group: killed whole at the end
        self.started = time.monotonic()
        try:
            self.proc.stdin.write(json.dumps({"name": name, "code": code, "out": str(self.out)}).encode())
            self.proc.stdin.close()
        except OSError:
            pass  # it died already: verdict() says how

    def verdict(self) -> dict:
        """engine.exercises' verdict dict; CageError when the run gave no results."""
        if self.proc is None:
            return self.verdicts[(self.name, self.code)]
        try:
            try:
                status = self.proc.wait(max(0.0, TIME_LIMIT - (time.monotonic() - self.started)))
            except subprocess.TimeoutExpired:
                raise CageError(f"took longer than {TIME_LIMIT:g} s and was stopped (an endless loop?)") from None
            finally:
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)  # and anything it started
                except ProcessLookupError:
                    pass
                self.proc.wait()
            if status < 0:
                name = signal.Signals(-status).name
                why = {"SIGXCPU": "used too much processor time", "SIGXFSZ": f"wrote more than {FILE_LIMIT} bytes",
                       "SIGSEGV": "crashed"}.get(name, "was killed")
                raise CageError(f"{why} ({name}) before the grader had its results")
            if status != 0 or not self.out.is_file():
                raise CageError(f"ended the grading run (exit status {status}) before the grader had its results"
                                + self._last_error())
            try:
                outcome = _outcome(self.out.read_text(encoding="utf-8"))
            except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError) as err:
                raise CageError(f"left results the grader cannot read ({type(err).__name__})") from None
            from engine.exercises import judge, module

            mod = module(self.name)
            verdict = judge(mod, _trials(self.name, self.cache), outcome)
            self.verdicts[(self.name, self.code)] = verdict
            if self.store is not None:
                self.store.keep_value("verdict", (self.name, self.code), self._judged_by(), (), verdict)
            return verdict
        finally:
            self.err.close()
            self.dir.cleanup()

    def _judged_by(self) -> tuple[str, ...]:
        """The code a verdict is made of: this runner, the graders, and the exercise's own module."""
        return ("builder.grading", "engine.exercises", f"engine.exercises.{self.name.replace('-', '_')}")

    def stop(self) -> None:
        """End the run unjudged (another run of the same exercise failed): nothing is left running."""
        if self.proc is not None and not self.err.closed:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.err.close()
            self.dir.cleanup()

    def _last_error(self) -> str:
        self.err.seek(0)
        lines = [ln for ln in self.err.read(FILE_LIMIT).decode("utf-8", "replace").splitlines() if ln.strip()]
        return f": {lines[-1].strip()[:200]}" if lines else ""


def _trials(name: str, cache) -> list:
    """The expected results, computed here, where no author code ever runs."""
    trials = cache.table("trials")
    if name not in trials:
        from engine.exercises import module

        trials[name] = module(name).trials()
    return trials[name]
