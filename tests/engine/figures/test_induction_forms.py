"""induction-forms: the embedded run is the engine's run, its states are the checkpoints, and the
live job ends in the same figure compute() gives for its seed."""
from __future__ import annotations

import numpy as np
import pytest

from engine.figures import FigureJob, ParamError, compute, parse
from engine.figures.induction_forms import one_layer_line
from engine.tasks.induction import InductionConfig, trained

NAME = "induction-forms"


@pytest.fixture(scope="module")
def data():
    return compute(parse(NAME))


def test_the_embedded_run_is_the_engines_run(data):
    run = trained(0)
    assert data["losses"] == pytest.approx(run.losses, abs=1e-4)
    assert data["checkpoints"] == list(range(0, InductionConfig().steps + 1, data["every"]))
    assert data["phase_change"] == run.phase_change_step() is not None
    assert [s["in_context"] for s in data["states"]] == pytest.approx([s["in_context"] for s in run.scores], abs=1e-4)
    assert data["start"] == len(data["checkpoints"]) - 1  # opens on the trained model


def test_heads_are_causal_rows_and_the_trained_heads_look_where_the_outlines_are(data):
    T = len(data["tokens"])
    assert data["tokens"][0] == "▸" and data["tokens"][1:7] == list("KCFNAH") and data["tokens"][7:] == list("KCFNA")
    final = data["states"][-1]
    layer1, layer2 = final["heads"]
    for head in layer1 + layer2:
        assert [len(r) for r in head] == list(range(1, T + 1))
        assert all(abs(sum(r) - 1) < 0.05 for r in head)
    prev_head = int(np.argmax(final["previous_token"][0]))
    on_prev = [layer1[prev_head][i][j] for i, j in enumerate(data["targets"]["previous"]) if j is not None]
    assert np.mean(on_prev) > 0.5
    ind_head = int(np.argmax(final["prefix_matching"][1]))
    rows = [(i, j) for i, j in enumerate(data["targets"]["induction"]) if j is not None]
    assert [j for _, j in rows] == [2, 3, 4, 5, 6]  # each repeated letter's earlier copy, one on
    assert np.mean([layer2[ind_head][i][j] for i, j in rows]) > 0.7
    first = data["states"][0]  # before training, nothing looks there
    assert np.mean([first["heads"][1][ind_head][i][j] for i, j in rows]) < 0.3


def test_states_text_and_phase_line(data):
    text = data["text"]
    assert len(text["states"]) == len(data["checkpoints"])
    assert text["states"][4]["numbers"][0].startswith("Step 100 of 600: held-out loss ")
    assert f"formed at step {data['phase_change']}" in text["fixed"][0]


def test_train_job_streams_states_and_ends_with_the_seeds_figure():
    job = FigureJob(parse(NAME, {"seed": 1}), "train")
    out, slices, steps = None, 0, 0
    while True:
        out = job.advance(0.05)
        steps += len(out["losses"])
        slices += 1
        if out["done"]:
            break
        assert set(out["snapshot"]["state"]) >= {"heads", "in_context", "prefix_matching"}
    assert slices >= 2 and steps == InductionConfig().steps
    want = compute(parse(NAME, {"seed": 1}))  # the build's figure, which also draws the one-layer run
    got = out["result"]
    assert got["one_layer"] is None and len(want["one_layer"]) == len(want["checkpoints"])
    assert got["losses"] == want["losses"] and got["states"] == want["states"]
    assert got["text"]["states"] == want["text"]["states"]
    assert got["text"]["fixed"] == [line for line in want["text"]["fixed"] if line not in one_layer_line(want)]


@pytest.mark.parametrize("params, option", [
    ({"step": 30}, "step"),
    ({"sequence": "KCFNAK"}, "sequence"),  # a letter twice
    ({"sequence": "KCFNAZ"}, "sequence"),  # not in the vocabulary
    ({"sequence": "KCF"}, "sequence"),  # too short
])
def test_bad_options_name_the_option(params, option):
    with pytest.raises(ParamError) as err:
        compute(parse(NAME, params))
    assert err.value.option == option


def test_facts_hold_what_chapter_13_says_of_them(data):
    from engine.figures import facts, parse

    f = facts(parse(NAME, None), data)
    assert f["formed"] == f["reported"] == 5 and [s["step"] for s in f["seeds"]][0] == data["phase_change"]
    assert {s["previous_head"] for s in f["seeds"]} == {1, 2}  # "a toss-up": both heads occur
    s0 = f["seeds"][0]
    assert s0["fall_start"] <= s0["step"] <= s0["fall_end"]
    assert f["loss_first"] > data["chance"] > f["loss_repeat"]  # the first half a little above the even guess
    cut, other = f["ablated"]["previous"], f["ablated"]["other"]
    assert cut["prefix_matching"] < 0.5 * s0["prefix_matching"]  # "collapses"
    assert cut["in_context"] > 0.5 * s0["in_context"]  # "most of what the model learned about the repeat is gone"
    assert other["prefix_matching"] >= 0.9 * s0["prefix_matching"] and other["in_context"] < 0.9 * s0["in_context"]
    one = f["one_layer"]
    assert one["best_prefix_matching"] < 0.5 and s0["in_context"] < one["in_context"] < 0  # favours seen letters, no more
