"""writing-training: the shipped run of chapter 14's model as the figure draws it, its facts, its text,
and Train from scratch as a job whose last slice is the figure compute(, series_given) gives for the same options."""
from __future__ import annotations

import base64
import dataclasses
import math

import numpy as np
import pytest

from engine.figures import FigureJob, ParamError, compute, facts, module, parse
from engine.figures.fmt import fixed
from engine.figures.writing_training import CONFIG, LABEL_GAP, LOSS_POINTS, TABLES, WARM_STEPS, state_lines
from engine.tasks.writing import NEWLINE, one_line
from engine.gpt import init_params
from engine.ngram import NGram
from engine.tasks import writing, writing_kept

NAME = "writing-training"
FACTS = {"characters", "train_characters", "held_out_characters", "vocabulary", "parameters", "layers", "heads",
         "d_model", "d_head", "d_ff", "context", "steps", "batch_size", "checkpoint_every", "even_loss",
         *(f"n{n}_loss" for n in writing.NGRAM_ORDERS), "held_out_loss", "held_out_bits", "passes",
         *(f"n{n}_{part}" for n in TABLES for part in ("entries", "unseen", "loss")), "first_sample",
         "last_sample", "lr", "warmup", "final_lr", "dropout_percent",
         "measured_reading", "n5_margin", "gap", "page_parameters", "page_d_model",
         "page_layers"}  # what chapter 14 quotes, by these names
SHORT = {"seed": 3, "steps": 2 * CONFIG.checkpoint_every}  # a run trained in a second or two


@pytest.fixture(scope="module")
def data(shipped, series_given):
    return compute(parse(NAME), series_given)


def _run_to_the_end(job: FigureJob, budget: float = 0.05) -> tuple[list[dict], dict]:
    slices = []
    while not (out := job.advance(budget))["done"]:
        slices.append(out)
    return slices, out


def test_the_facts_are_the_shipped_models_and_runs(shipped, data, series_given):
    f = facts(parse(NAME), data, series_given)
    assert set(f) == FACTS
    corpus = writing.Corpus.of(shipped.text, shipped.config.held_out_every)
    c = shipped.config
    assert (f["characters"], f["train_characters"], f["held_out_characters"]) == (
        len(shipped.text), len(corpus.train), len(corpus.held_out))
    assert f["train_characters"] + f["held_out_characters"] == f["characters"]
    assert f["vocabulary"] == len(shipped.vocab) == len(set(shipped.text))
    fresh = init_params(c.model(len(shipped.vocab)), np.random.default_rng(0))
    assert f["parameters"] == sum(a.size for a in fresh.values())
    assert (f["layers"], f["heads"], f["d_model"], f["d_ff"], f["context"]) == (c.layers, c.heads, c.d_model, c.d_ff, c.context)
    assert f["d_head"] * f["heads"] == f["d_model"]
    assert (f["steps"], f["batch_size"], f["checkpoint_every"]) == (c.steps, c.batch_size, c.checkpoint_every)
    run = shipped.run
    assert [f["even_loss"], *(f[f"n{n}_loss"] for n in writing.NGRAM_ORDERS)] == list(run["baselines"].values())
    assert f["even_loss"] == pytest.approx(math.log(f["vocabulary"]))
    assert f["held_out_loss"] == run["final_held_out"]
    assert f["held_out_bits"] == pytest.approx(f["held_out_loss"] / math.log(2))
    assert f["passes"] == c.steps * c.batch_size * c.context / f["train_characters"]
    assert (f["lr"], f["warmup"]) == (c.lr, c.warmup) and c.weight_decay == 0
    assert f["final_lr"] == c.lr * c.lr_final and f["dropout_percent"] == 100 * c.dropout
    assert f["measured_reading"] == c.context // 2 and f["n5_margin"] == f["n5_loss"] - f["held_out_loss"]
    last = run["checkpoints"][-1]
    assert f["gap"] == last["held_out"] - last["train"]
    page = CONFIG
    assert f["page_parameters"] == sum(a.size for a in init_params(page.model(f["vocabulary"]), np.random.default_rng(0)).values())
    assert (f["page_d_model"], f["page_layers"]) == (page.d_model, page.layers)
    assert f["page_parameters"] < f["parameters"] and page.steps < f["steps"]
    for n in TABLES:
        model = NGram.fit(corpus.train, n, f["vocabulary"])
        assert (f[f"n{n}_entries"], f[f"n{n}_unseen"], f[f"n{n}_loss"]) == (
            model.entries, 100 * model.unseen_contexts(corpus.held_out), model.loss(corpus.held_out))
    assert f["first_sample"] == one_line(run["checkpoints"][0]["sample"])
    assert f["last_sample"] == one_line(run["checkpoints"][-1]["sample"])
    assert f["first_sample"].startswith(c.prompt) and len(f["last_sample"]) == len(c.prompt) + c.sample_length


def test_counting_longer_strings_guesses_better_and_the_facts_say_which_the_model_beats(data, series_given):
    b = list(data["baselines"].values())
    assert b == sorted(b, reverse=True) and len(set(b)) == len(b)  # even guess first, then 1 to 5 characters
    f = facts(parse(NAME), data, series_given)
    # chapter 14 says the shipped model edges past counting up to five characters, and that its
    # training loss ends below its held-out loss: a run that changes either changes what it must say
    assert 0 < f["n5_margin"] < 0.1 and f["gap"] > 0
    # and that counting stops paying as its contexts go unseen
    assert f["n5_unseen"] < 10 < f["n9_unseen"] and f["n9_entries"] > f["n5_entries"]
    assert 0 < f["n5_loss"] - f["n9_loss"] < 0.1


def test_the_yardsticks_labels_keep_their_order_and_a_gap_on_the_log_scale(data):
    y = data["axis"]["y"]
    assert y["log"] and 0 < y["lo"] < min(data["losses"] + list(data["baselines"].values()))
    assert max(data["losses"] + list(data["baselines"].values())) < y["hi"]
    places = [math.log(y["labels"][key]) for key in data["baselines"]]
    gap = (math.log(y["hi"]) - math.log(y["lo"])) * LABEL_GAP
    assert all(a - b >= gap - 1e-9 for a, b in zip(places, places[1:]))
    assert all(p >= math.log(v) - 1e-12 for p, v in zip(places, data["baselines"].values()))  # on or above its own line
    assert max(places) <= math.log(y["hi"]) and [v for v, _ in y["ticks"]] == sorted(v for v, _ in y["ticks"])
    assert all(y["lo"] <= v <= y["hi"] for v, _ in y["ticks"]) and 1 in [v for v, _ in y["ticks"]]


def test_a_long_run_s_losses_are_drawn_as_means_of_equal_runs_of_steps(shipped, data):
    every, losses = data["loss_every"], shipped.run["losses"]
    assert every > 1 and len(data["losses"]) == math.ceil(len(losses) / every) <= LOSS_POINTS
    assert data["losses"][1] == round(sum(losses[every:2 * every]) / every, 3)


def test_the_data_is_the_shipped_run_rounded_for_the_page(shipped, data):
    run = shipped.run
    assert data["seed"] == shipped.seed and data["steps"] == len(run["losses"]) == shipped.config.steps
    assert [c["step"] for c in data["checkpoints"]] == list(range(0, data["steps"] + 1, data["every"]))
    for got, want in zip(data["checkpoints"], run["checkpoints"], strict=True):
        assert got == {"step": want["step"], "train": round(want["train"], 4), "held_out": round(want["held_out"], 4),
                       "sample": want["sample"]}
    assert data["start"] == len(data["checkpoints"]) - 1  # it opens on the trained model
    assert data["checkpoints"][-1]["held_out"] < data["checkpoints"][0]["held_out"] - 1  # it learned


def test_one_state_per_checkpoint_and_the_text_says_what_the_data_holds(data):
    text = data["text"]
    mod = module(NAME)
    assert mod.state_count(data) == len(text["states"]) == len(data["checkpoints"])
    for state, c in zip(text["states"], data["checkpoints"]):
        assert state["label"] == f"step {c['step']}"
        assert state["numbers"] == state_lines(c, data["steps"], data["prompt"])
        assert f"Step {c['step']} of {data['steps']}" in state["numbers"][0]
        assert fixed(c["train"], 2) in state["numbers"][0] and fixed(c["held_out"], 2) in state["numbers"][0]
        assert state["numbers"][1].endswith(f"“{one_line(c['sample'])}”") and "\n" not in state["numbers"][1]
    assert text["numbers"] == text["states"][data["start"]]["numbers"] + text["fixed"]
    b = data["baselines"]
    baselines, final = text["fixed"]
    for v in b.values():
        assert fixed(v, 2) in baselines
    assert f"among {data['corpus']['vocabulary']} characters" in baselines
    assert f"{fixed(data['final_held_out'], 2)} nats per character ({fixed(data['final_held_out'] / math.log(2), 2)} bits)" in final
    for line in text["numbers"]:
        assert line in text["alt"]
    best = min(b[f"n{n}"] for n in writing.NGRAM_ORDERS)
    assert fixed(data["final_held_out"], 2) in text["status"] and fixed(best, 2) in text["status"]
    assert set(text["parts"]) == {*b, "sample"}


def test_a_line_break_the_model_wrote_reads_as_a_mark_in_one_line():
    c = {"step": 50, "train": 2.5, "held_out": 2.6, "sample": "The a\nb"}
    assert state_lines(c, 600, "The ")[1] == f"Sample at step 50, from “The ”: “The a{NEWLINE}b”"


def test_seed_0_names_the_shipped_model_and_the_reader_trains_from_another(data, series_given):
    with pytest.raises(ParamError, match="seed 0 names the model the site ships") as err:
        FigureJob(parse(NAME), "train", given=series_given).advance(0.05)
    assert err.value.option == "seed" and data["first_trained_seed"] == 1


def test_the_job_streams_each_checkpoint_once_in_order_then_ends_as_compute(series_given):
    params = parse(NAME, SHORT)
    slices, out = _run_to_the_end(FigureJob(params, "train", given=series_given))
    want = compute(params, series_given)
    assert out["result"] == want
    streamed = [c for s in slices for c in s["snapshot"]["checkpoints"]]
    assert streamed == want["checkpoints"][:len(streamed)]  # the last may come only with the finished run
    assert len(streamed) >= len(want["checkpoints"]) - 1
    assert [st for s in slices for st in s["snapshot"]["states"]] == want["text"]["states"][:len(streamed)]
    steps = [s["step"] for s in slices]
    assert steps == sorted(steps) and all(0 < s < SHORT["steps"] for s in steps)
    assert [v for s in slices for v in s["losses"]] + out["losses"] == pytest.approx(want["losses"], abs=5e-4)
    last = slices[-1]
    assert last["snapshot"]["progress"] == f"Training step {last['step']} of {SHORT['steps']}: loss {fixed(last['losses'][-1], 3)}"


def test_other_seeds_learn_the_smaller_model_in_the_page_against_the_same_baselines(data, series_given):
    other = compute(parse(NAME, SHORT), series_given)
    assert other["baselines"] == data["baselines"] and other["corpus"] == data["corpus"]
    page = CONFIG
    assert (other["model"]["d_model"], other["model"]["layers"]) == (page.d_model, page.layers)
    assert other["model"]["parameters"] < data["model"]["parameters"] and other["loss_every"] == 1
    assert other["checkpoints"][0]["sample"] != data["checkpoints"][0]["sample"]
    assert [c["step"] for c in other["checkpoints"]] == [0, CONFIG.checkpoint_every, SHORT["steps"]]
    assert len(other["losses"]) == SHORT["steps"]


def test_the_warm_up_is_a_short_throwaway_run_that_leaves_train_unchanged(series_given):
    params = parse(NAME, SHORT)
    before = compute(params, series_given)
    warm = FigureJob(params, "train", warm=True, given=series_given)
    slices, out = _run_to_the_end(warm, 0.0)
    assert [s["step"] for s in slices] + [out["step"]] == list(range(1, WARM_STEPS + 1))
    assert out["steps"] == WARM_STEPS < params.steps
    assert len(out["result"]["checkpoints"]) == 2  # the sample's and the losses' code warmed too
    _, again = _run_to_the_end(FigureJob(params, "train", given=series_given))
    assert again["result"] == before


@pytest.mark.parametrize("options, message", [
    ({"steps": CONFIG.checkpoint_every + 20}, f"option 'steps' must be a multiple of {CONFIG.checkpoint_every}"),
    ({"steps": 0}, "option 'steps'"),
    ({"steps": CONFIG.steps + CONFIG.checkpoint_every}, "option 'steps'"),
    ({"seed": -1}, "option 'seed'"),
])
def test_bad_options_name_the_option(options, message):
    with pytest.raises(ParamError, match=message):
        parse(NAME, options)


def test_a_run_trained_in_the_page_carries_its_model_in_the_shipped_format(series_given):
    params = parse(NAME, SHORT)
    out = compute(params, series_given)
    kept = writing_kept.model_of(base64.b64decode(out["model_file"]))
    run = writing.train_writing_model(writing.shipped(series_given).text, SHORT["seed"],
                                      dataclasses.replace(CONFIG, steps=SHORT["steps"]))
    assert (kept.seed, kept.config) == (SHORT["seed"], dataclasses.replace(CONFIG, steps=SHORT["steps"]))
    assert kept.text == writing.shipped(series_given).text and kept.vocab.characters == run["vocab"]
    for name, weights in run["params"].items():  # kept as float32, as the shipped model is
        assert np.array_equal(kept.params[name], weights.astype(np.float32))
    assert kept.run["final_held_out"] == run["final_held_out"] == pytest.approx(out["final_held_out"], abs=1e-4)
    assert "model_file" not in compute(parse(NAME), series_given)  # the shipped run's is the site's own file


def test_keep_training_takes_the_readers_run_on_as_if_it_had_never_stopped(series_given):
    first = compute(parse(NAME, SHORT), series_given)
    given = series_given.with_file("reader-model", base64.b64decode(first["model_file"]))
    more = CONFIG.checkpoint_every
    slices, out = _run_to_the_end(FigureJob(parse(NAME, {**SHORT, "more": more}), "keep", given=given))
    before = slices[0]["snapshot"]["before"]  # the run so far, once, for the curve to go on from
    assert before["losses"] == first["losses"] and before["checkpoints"] == first["checkpoints"]
    assert all("before" not in s["snapshot"] for s in slices[1:])
    assert slices[0]["snapshot"]["axis"]["steps"] == SHORT["steps"] + more == out["result"]["steps"]
    result = out["result"]
    assert [c["step"] for c in result["checkpoints"]] == list(range(0, SHORT["steps"] + more + 1, CONFIG.checkpoint_every))
    assert result["checkpoints"][:len(first["checkpoints"])] == first["checkpoints"]
    kept = writing_kept.unpack_kept(base64.b64decode(result["model_file"]))
    assert (kept.t, kept.schedule_steps, kept.model.seed) == (SHORT["steps"] + more, SHORT["steps"], SHORT["seed"])
    text = writing.shipped(series_given).text
    longer, run = writing.writing_training(text, SHORT["seed"], dataclasses.replace(CONFIG, steps=SHORT["steps"]),
                                           steps=SHORT["steps"] + more)
    longer.run()
    for name, weights in run.finish()["params"].items():  # what an uninterrupted run reaches, bit for bit
        assert np.array_equal(kept.model.params[name], weights.astype(np.float32)), name


def test_keep_training_without_a_kept_run_says_so_in_one_line(series_given):
    with pytest.raises(ParamError, match="no model of your own is kept in this browser") as err:
        FigureJob(parse(NAME, SHORT), "keep", given=series_given).advance(0.05)
    assert err.value.option == "more"


TUNE = {"seed": 4, "tune": module(NAME).writing_own.STEPS[0]}  # the shortest fine-tuning a reader may choose


def test_fine_tuning_on_the_readers_text_draws_the_run_over_its_yardsticks_and_keeps_it(series_given):
    shipped = writing.shipped(series_given)
    own = "".join(shipped.text.splitlines(keepends=True)[::-1])[:1_500]  # the model's characters, another text
    given = series_given.with_file("reader-text", own.encode())
    slices, out = _run_to_the_end(FigureJob(parse(NAME, TUNE), "tune", given=given))
    result = out["result"]
    assert [c["step"] for c in result["checkpoints"]] == [0, TUNE["tune"]] and result["tuned"] == "yours"
    corpus = writing.Corpus.of(own, 0, vocab=shipped.vocab)
    assert result["corpus"]["train"] + result["corpus"]["held_out"] == len(own) == len(corpus.train) + len(corpus.held_out)
    assert result["baselines"]["n3"] == round(NGram.fit(corpus.train, 3, len(shipped.vocab)).loss(corpus.held_out), 4)
    status = result["text"]["status"]
    first, last = result["checkpoints"]
    assert status.startswith(f"Fine-tuned {TUNE['tune']} steps on your text: held-out loss {fixed(first['held_out'], 2)} "
                             f"before, {fixed(last['held_out'], 2)} after")
    assert "counted on your text" in result["text"]["fixed"][0] and "your text" in result["text"]["alt"]
    kept = writing_kept.unpack_kept(base64.b64decode(result["model_file"]))  # the reader's model now
    assert kept.model.text == own and kept.model.config.held_out_every == 0
    assert kept.model.config.d_model == shipped.config.d_model  # the page's model, fine-tuned
    # taken on again by Keep training, on the same text and split
    more = FigureJob(parse(NAME, {**TUNE, "more": CONFIG.checkpoint_every}), "keep",
                     given=series_given.with_file("reader-model", base64.b64decode(result["model_file"])))
    _, again = _run_to_the_end(more)
    assert again["result"]["corpus"] == result["corpus"] and again["result"]["steps"] == TUNE["tune"] + CONFIG.checkpoint_every


def test_keep_training_the_pages_model_fine_tunes_it_on_the_series_prose(series_given):
    _, out = _run_to_the_end(FigureJob(parse(NAME, {**TUNE, "tune_text": "series"}), "tune", given=series_given))
    result = out["result"]
    assert result["tuned"] == "series" and result["baselines"] == compute(parse(NAME), series_given)["baselines"]
    assert result["text"]["status"].startswith(f"Fine-tuned {TUNE['tune']} steps on the series' prose")
    assert result["checkpoints"][0]["held_out"] < result["baselines"]["n1"]  # it starts from the trained model


@pytest.mark.parametrize("files, option, reason", [
    ({}, "tune_text", "Paste a text of your own"),
    ({"reader-text": "The ~ model".encode()}, "tune_text", "fine-tuning needs at least 1,000"),
    ({"reader-text": b"x"}, "base", "no model of your own is kept"),
])
def test_fine_tuning_what_cannot_be_read_is_refused_in_one_line(series_given, files, option, reason):
    given = series_given
    for name, data in files.items():
        given = given.with_file(name, data)
    with pytest.raises(ParamError, match=reason) as err:
        FigureJob(parse(NAME, {**TUNE, "base": "yours" if option == "base" else "page"}), "tune", given=given).advance(0.05)
    assert err.value.option == option
