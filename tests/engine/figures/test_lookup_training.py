"""lookup-training: HAW's lookup facts reproduced by the engine, the precomputed runs' invariants, and
the live job giving the very numbers the page embeds."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from engine.figures import FigureJob, ParamError, compute, facts, module, parse
from engine.figures.fmt import fill_all, scope_at
from engine.tasks.lookup import grid as lookup_grid, lookup_training

NAME = "lookup-training"
lt = module(NAME)


@pytest.fixture(scope="module")
def data():
    return compute(parse(NAME))


def test_the_first_loss_is_an_even_guess_among_four_pairs(data):
    f = facts(parse(NAME))
    assert f["ln4"] == pytest.approx(math.log(4))
    assert abs(f["first_loss"] - f["ln4"]) < 0.01  # small random start: the weights are near even
    for run in data["runs"]:
        assert abs(run["losses"][0] - math.log(4)) < 0.01


def test_the_loss_falls_towards_zero_within_about_a_hundred_steps(data):
    f = facts(parse(NAME))
    assert f["rate"] == 0.2
    assert f["loss_at_100"] < 0.05 and f["last_loss"] < f["loss_at_100"]
    assert 50 <= f["first_step_below_0_1"] <= 100
    assert f["last_loss_smallest_rate"] > 0.3  # the smallest step size has not finished by the end


def test_larger_step_sizes_learn_faster_here(data):
    rates = data["rates"]
    assert rates == sorted(rates)
    at_100 = [run["losses"][100] for run in data["runs"]]
    assert at_100 == sorted(at_100, reverse=True), at_100


def test_the_learned_grid_has_a_dominant_diagonal(data):
    f = facts(parse(NAME))
    assert f["rows_on_diagonal_at_end"] == f["letters"] == len(data["letters"]) == 8
    assert f["mean_diagonal_at_end"] > 5 and f["mean_off_diagonal_at_end"] < 0
    start = data["runs"][data["start"]["run"]]
    assert start["rows"][0] < 4  # at step 0 the grid is noise: no diagonal yet
    g = np.array(start["grids"][-1])
    assert (g.argmax(axis=1) == np.arange(8)).all()


def test_the_trained_weights_are_the_query_and_key_matrices():
    assert facts(parse(NAME))["trained_weights"] == lookup_training().flat.size == 2 * 16 * 4 == 128


def test_runs_hold_a_loss_per_step_and_a_state_every_few_steps(data):
    states = data["steps"] // data["every"] + 1
    for rate, run in zip(data["rates"], data["runs"]):
        assert run["rate"] == rate and run["from"] == 0
        assert len(run["losses"]) == data["steps"] + 1
        for key in ("grids", "top", "rows", "diag", "off"):
            assert len(run[key]) == states, key
        for grid, top, rows in zip(run["grids"], run["top"], run["rows"]):
            assert rows == sum(t == i for i, t in enumerate(top))
            assert np.abs(grid).max() <= data["scale"]
        assert max(run["losses"]) < data["axis"]["top"]  # the plot has room for every loss


def test_a_state_matches_the_trainer_after_that_many_steps(data):
    """State k is the model after k * every steps, with the loss of its next batch."""
    k = 7
    r = data["start"]["run"]
    t = lookup_training(lr=data["rates"][r])
    for _ in range(k * data["every"]):
        t.step()
    g = lookup_grid(t.views)
    t.step()
    run = data["runs"][r]
    assert run["losses"][k * data["every"]] == round(t.result.losses[-1], 4)
    assert run["grids"][k] == (np.round(g, 1) + 0.0).tolist()
    assert run["top"][k] == g.argmax(axis=1).tolist()


def test_templates_read_each_state(data):
    states = data["steps"] // data["every"] + 1
    first = fill_all(data["text"]["templates"], scope_at(data["text"]["scope"], data, 0))
    assert first[0].startswith(f"Step 0 of {data['steps']}, step size {data['rates'][0]}: loss 1.38")
    last = fill_all(data["text"]["templates"], scope_at(data["text"]["scope"], data, data["start"]["run"] * states + states - 1))
    assert last + data["text"]["fixed"] == data["text"]["numbers"]
    assert "8 of 8 rows" in last[1]


def _run_job(params, budget=0.0):
    job = FigureJob(parse(NAME, params), "train")
    slices = [job.advance(budget)]
    while not slices[-1]["done"]:
        slices.append(job.advance(budget))
    return slices


@pytest.mark.parametrize("rate", [0.05, 0.4])
def test_the_live_job_gives_the_precomputed_numbers(data, rate):
    slices = _run_job({"rate": rate, "start": 0}, budget=0.001)
    assert len(slices) > 1 and all("result" not in s for s in slices)
    live = slices[-1]["snapshot"]
    assert live == data["runs"][data["rates"].index(rate)]
    assert [round(v, 4) for v in sum((s["losses"] for s in slices), [])] == live["losses"]
    assert [s["step"] for s in slices] == sorted(s["step"] for s in slices)
    assert slices[-1]["step"] == slices[-1]["steps"] == data["steps"] + 1  # steps 0 to 150, each with its loss


def test_a_job_from_a_later_step_replays_to_it_and_continues_alike(data):
    slices = _run_job({"rate": 0.2, "start": 40})
    live = slices[-1]["snapshot"]
    run = data["runs"][data["rates"].index(0.2)]
    assert live["from"] == 8
    assert live["losses"] == run["losses"]  # the whole curve: the replayed steps' losses too
    assert live["grids"] == run["grids"][8:] and live["diag"] == run["diag"][8:]
    live_data = {**data, "runs": [run]}
    scope = data["text"]["scope"]
    assert scope_at(scope, live_data, 10, {"run": live}) == scope_at(scope, live_data, 10)  # alike from either run


def test_each_slice_steps_at_least_once_and_the_snapshot_is_json():
    job = FigureJob.from_json(NAME, "train", json.dumps({"rate": 0.1, "start": 145}))
    out = json.loads(job.advance_json(0.0))
    assert out["ok"] and out["data"]["step"] == 146 and len(out["data"]["losses"]) == 1
    assert len(out["data"]["snapshot"]["grids"]) == 1


@pytest.mark.parametrize("params, message", [
    ({"start": 42}, "option 'start' must be a multiple of 5"),
    ({"rates": [0.1, 0.1], "rate": 0.1}, "option 'rates' must not offer the same step size twice"),
    ({"start": 155}, "option 'start' must lie between 0 and 150"),
])
def test_bad_options_name_the_option(params, message):
    with pytest.raises(ParamError, match=message):
        compute(parse(NAME, params))
    assert json.loads(FigureJob.from_json(NAME, "train", json.dumps(params)).advance_json(0.1))["ok"] is False
