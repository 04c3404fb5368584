"""Long jobs in slices (engine/jobs.py): every slice makes progress, the losses of all slices are
the run's losses in order, and only the last slice carries the result."""
from __future__ import annotations

import json

import numpy as np
import pytest

from engine.figures import FigureJob, compute, parse
from engine.jobs import TrainingJob
from engine.tasks import grammar
from engine.train import SGD, SGDConfig, Training


def _quadratic(steps=25):
    """Gradient descent on |w - 3|²: a run small enough to check by hand."""
    def loss_and_grads(views, step):
        d = views["w"] - 3.0
        return float((d ** 2).sum()), {"w": 2 * d}
    return Training(loss_and_grads, {"w": np.zeros(2)}, SGD(2, SGDConfig(lr=0.1, momentum=0.0)), steps)


def test_slices_partition_the_run_and_only_the_last_has_the_result():
    training = _quadratic()
    job = TrainingJob(training, snapshot=lambda t: {"w": t.views["w"].tolist()}, finish=lambda: {"final": True})
    slices = []
    while not slices or not slices[-1]["done"]:
        slices.append(job.advance(0.0))  # a zero budget still makes one step
    assert [s["step"] for s in slices] == list(range(1, 26))
    assert [v for s in slices for v in s["losses"]] == training.result.losses
    assert all("snapshot" in s and "result" not in s for s in slices[:-1])
    assert slices[-1]["result"] == {"final": True} and "snapshot" not in slices[-1]
    assert slices[1]["snapshot"]["w"] == pytest.approx([3 - 3 * 0.8 ** 2] * 2)


def test_a_generous_budget_finishes_in_one_slice():
    out = TrainingJob(_quadratic(), lambda t: {}, lambda: {}).advance(60.0)
    assert out["done"] and out["step"] == 25 and len(out["losses"]) == 25


def test_training_stepped_by_hand_equals_the_whole_run():
    """The Retrain job and the build-time run are one computation: same seed, same weights."""
    training, finish = grammar.grammar_training(seed=3)
    job = TrainingJob(training, lambda t: {}, finish)
    while not (out := job.advance(0.01))["done"]:
        pass
    stepped = out["result"]
    whole = grammar.train_grammar_model(seed=3)
    assert stepped.losses == whole.losses
    for name in whole.params:
        np.testing.assert_array_equal(stepped.params[name], whole.params[name])


def test_a_figure_job_ends_in_the_figure_compute_gives():
    job = FigureJob(parse("two-heads", {"seed": 2}), "retrain")
    while not (out := job.advance(1.0))["done"]:
        pass
    assert out["result"] == compute(parse("two-heads", {"seed": 2}))


@pytest.mark.parametrize("name, job, params, message", [
    ("two-heads", "nope", {}, "figure 'two-heads' has no job 'nope'"),
    ("no-such-figure", "retrain", {}, "no-such-figure"),
    ("two-heads", "retrain", {"seed": -1}, "option 'seed' must lie between 0"),
    ("two-heads", "retrain", {"sentences": ["the cat sat"]}, "option 'sentences[0]' must follow the grammar"),
])
def test_a_bad_start_is_one_message_on_the_first_slice(name, job, params, message):
    out = json.loads(FigureJob.from_json(name, job, json.dumps(params)).advance_json(0.0))
    assert out["ok"] is False and message in out["error"]


def test_a_warm_up_is_asked_for_by_job_name_and_a_job_without_one_is_an_error():
    warmed = json.loads(FigureJob.from_json("two-heads", "retrain", json.dumps({}), True).advance_json(60.0))
    assert warmed["ok"] and warmed["data"]["done"]
    missing = json.loads(FigureJob.from_json("induction-forms", "train", json.dumps({}), True).advance_json(0.0))
    assert missing == {"ok": False, "error": "figure 'induction-forms' has no warm-up for job 'train'"}
