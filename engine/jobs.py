"""Long jobs for the browser's worker: work done in slices of a time budget, so that between
slices the worker reads its messages (a cancel, a newer start, another figure's request).

A figure model offers jobs as `JOBS = {"name": factory}`, `factory(params) -> Job`, where a Job
has `advance(budget_seconds) -> dict`: it always makes progress (at least one step) and returns
what the figure draws now, with "done" true on the last slice. Past "done" the dict is the figure's
own: the worker passes it to the view untouched (theme/runtime/server.js). Cancelling is the
worker's: it stops advancing the job and drops it.
"""
from __future__ import annotations

import time


class TrainingJob:
    """A `train.Training` stepped in slices. Each slice returns the losses of its steps and
    `snapshot(training)` (what the figure redraws while the model learns); the last slice
    returns `finish()` (the trained model as the figure draws it) instead, if given."""

    def __init__(self, training, snapshot, finish=None):
        self.training, self.snapshot, self.finish = training, snapshot, finish

    def advance(self, budget: float) -> dict:
        t = self.training
        first = t.done_steps
        end = time.perf_counter() + budget
        while not t.done:
            t.step()
            if time.perf_counter() >= end:
                break
        out = {"step": t.done_steps, "steps": t.steps, "losses": [float(v) for v in t.result.losses[first:]],
               "done": t.done}
        if t.done and self.finish is not None:
            out["result"] = self.finish()
        else:
            out["snapshot"] = self.snapshot(t)
        return out
