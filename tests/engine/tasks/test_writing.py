"""Chapter 14's writing task: the vocabulary, the split, the batches, the baselines, and a short
training run that must beat counting pairs on a text with structure a pair cannot see."""
import dataclasses
import math

import numpy as np
import pytest

from engine.gpt import init_params
from engine.ngram import NGram
from engine.tasks import writing
from engine.tasks.writing import (
    FORMAT,
    Corpus,
    WritingConfig,
    baselines,
    draw_windows,
    held_out_loss,
    position_losses,
    reading_windows,
    pack,
    spread_windows,
    train_writing_model,
    unpack,
    writing_job,
    writing_training,
)

# Our own words; the same three sentences again and again, so that each character follows from the
# few before it, where a bigram sees only one.
PARAGRAPH = ("A model reads the words so far and guesses the next one. "
             "It is wrong at first, and learns from each mistake. "
             "Later it writes a little, one letter at a time.\n")
TEXT = PARAGRAPH * 12
SMALL = dataclasses.replace(WritingConfig(), context=24, d_model=16, layers=2, heads=2, d_ff=32, steps=200,
                            batch_size=8, lr=0.01, checkpoint_every=50, eval_windows=8, prompt="A ",
                            sample_length=30)


def test_one_paragraph_in_ten_is_held_out_whole_from_every_part_of_the_text():
    paragraphs = [f"paragraph {i}.\n" for i in range(30)]
    corpus = Corpus.of("".join(paragraphs))
    held = [paragraphs[i] for i in (5, 15, 25)]
    assert corpus.vocab.decode(corpus.held_out) == "".join(held)
    assert corpus.vocab.decode(corpus.train) == "".join(p for p in paragraphs if p not in held)
    windows = draw_windows(np.random.default_rng(0), corpus.train, 200, 8)
    assert not any(h.strip() in corpus.vocab.decode(w) for w in windows for h in held)  # no window reaches into one


def test_windows_are_seeded_and_cut_from_the_text():
    corpus = Corpus.of(TEXT)
    a = draw_windows(np.random.default_rng(1), corpus.train, 16, 10)
    assert np.array_equal(a, draw_windows(np.random.default_rng(1), corpus.train, 16, 10))
    assert not np.array_equal(a, draw_windows(np.random.default_rng(2), corpus.train, 16, 10))
    train = corpus.vocab.decode(corpus.train)
    assert all(corpus.vocab.decode(w) in train for w in a)
    s = spread_windows(corpus.train, 4, 10)
    assert np.array_equal(s[0], corpus.train[:10]) and np.array_equal(s[-1], corpus.train[-10:])


def test_reading_windows_score_every_token_but_the_first_once_each_after_half_a_context():
    for n, length in [(11, 5), (12, 5), (40, 9), (5, 9), (9, 9)]:
        starts, first = reading_windows(n, length)
        scored = [s + j + 1 for s, f in zip(starts, first) for j in range(f, min(length, n) - 1)]  # the tokens predicted
        assert sorted(scored) == scored == list(range(1, n)), (n, length)
        half = (length - 1) // 2
        read = [j + 1 for s, f in zip(starts, first) for j in range(f, min(length, n) - 1)]  # tokens each reads
        assert all(r >= min(t, half + 1) for r, t in zip(read, scored))
        assert all(s + length <= max(n, length) for s in starts)
    assert reading_windows(11, 5)[0].tolist() == [0, 2, 4, 6] and reading_windows(11, 5)[1].tolist() == [0, 2, 2, 2]


def test_held_out_loss_scores_each_held_out_character_once_with_its_window():
    corpus = Corpus.of(TEXT)
    params = init_params(SMALL.model(len(corpus.vocab)), np.random.default_rng(0))
    tokens, length = corpus.held_out, SMALL.context + 1
    starts, first = reading_windows(len(tokens), length)
    one_by_one = [position_losses(params, tokens[None, s:s + length])[0, f:] for s, f in zip(starts, first)]
    assert sum(map(len, one_by_one)) == len(tokens) - 1
    assert held_out_loss(params, corpus, SMALL.context, batch=3) == pytest.approx(
        float(np.concatenate(one_by_one).mean()), rel=1e-12)


def test_the_yardsticks_are_an_even_guess_and_the_counting_models_of_engine_ngram():
    corpus = Corpus.of(TEXT)
    V = len(corpus.vocab)
    b = baselines(corpus)
    assert list(b) == ["even", "n1", "n2", "n3", "n4", "n5"]
    assert b["even"] == pytest.approx(math.log(V))
    for n in range(1, 6):
        assert b[f"n{n}"] == NGram.fit(corpus.train, n, V).loss(corpus.held_out)


def test_same_seed_same_run():
    config = dataclasses.replace(SMALL, steps=6, checkpoint_every=3)
    a, b = train_writing_model(TEXT, 3, config), train_writing_model(TEXT, 3, config)
    assert a["losses"] == b["losses"] and a["checkpoints"] == b["checkpoints"]
    assert a["losses"] != train_writing_model(TEXT, 4, config)["losses"]


def test_a_short_run_beats_counting_pairs_on_held_out_text():
    run, b = train_writing_model(TEXT, 0, SMALL), baselines(Corpus.of(TEXT, SMALL.held_out_every))
    first, last = run["checkpoints"][0], run["checkpoints"][-1]
    assert [c["step"] for c in run["checkpoints"]] == [0, 50, 100, 150, 200]
    assert first["held_out"] == pytest.approx(b["even"], abs=0.05)  # untrained: close to an even guess
    assert last["held_out"] < b["n2"] and run["final_held_out"] < b["n2"]
    for c in run["checkpoints"]:
        assert c["sample"].startswith("A ") and len(c["sample"]) == 2 + SMALL.sample_length


def test_the_job_streams_the_checkpoints_and_leaves_its_start_alone():
    config = dataclasses.replace(SMALL, steps=20, checkpoint_every=5)
    job, seen, out = writing_job(TEXT, 0, config), [], {"done": False}
    while not out["done"]:
        out = job.advance(0.0)  # one step a slice
        seen += out.get("snapshot", {}).get("checkpoints", [])
    result = out["result"]
    assert [c["step"] for c in result["checkpoints"]] == [0, 5, 10, 15, 20]
    assert seen == result["checkpoints"][:len(seen)] and len(seen) == 4  # the last arrives with the result
    whole = train_writing_model(TEXT, 0, config)
    assert all(result[k] == whole[k] for k in ("losses", "checkpoints", "final_held_out", "vocab"))
    assert all(np.array_equal(result["params"][n], whole["params"][n]) for n in whole["params"])
    start = {n: a.copy() for n, a in result["params"].items()}
    training, _ = writing_training(TEXT, 1, config, params=result["params"])
    training.run()
    assert all(np.array_equal(result["params"][n], start[n]) for n in start)


def test_the_shipped_file_holds_the_run_with_float32_weights():
    config = dataclasses.replace(SMALL, steps=6, checkpoint_every=3)
    run = train_writing_model(TEXT, 2, config)
    data = pack(TEXT, config, 2, run)
    assert data == pack(TEXT, config, 2, train_writing_model(TEXT, 2, config))  # same run, same bytes
    model = unpack(data)
    assert (model.text, model.config, model.seed, model.vocab.characters) == (TEXT, config, 2, run["vocab"])
    assert model.run == {k: v for k, v in run.items() if k not in ("params", "vocab")}
    for name, w in run["params"].items():
        assert model.params[name].dtype == np.float64
        np.testing.assert_array_equal(model.params[name], w.astype(np.float32))
    with pytest.raises(ValueError, match="cut short"):
        unpack(data[:-4])
    with pytest.raises(ValueError, match="format"):
        unpack(data.replace(f'"format": {FORMAT}'.encode(), f'"format": {FORMAT + 1}'.encode(), 1))


def test_the_shipped_recipe_reads_a_short_text_a_few_times_and_a_long_one_for_its_steps():
    long, short = writing.fitted(writing.SHIPPED, 10 ** 7), writing.fitted(writing.SHIPPED, 1500)
    assert long.steps == writing.SHIPPED.steps and long.checkpoint_every * writing.CHECKPOINTS == long.steps
    assert short.steps % writing.CHECKPOINTS == 0 and short.checkpoint_every * writing.CHECKPOINTS == short.steps
    assert short.steps * short.batch_size * short.context >= writing.PASSES * 1500 > (
        (short.steps - writing.CHECKPOINTS) * short.batch_size * short.context)
    assert short.warmup <= short.steps // 10


def test_checkpoints_can_measure_the_whole_held_out_text_as_the_final_loss_does():
    config = dataclasses.replace(SMALL, steps=4, checkpoint_every=2, eval_all_held_out=True)
    run = train_writing_model(TEXT, 0, config)
    assert run["checkpoints"][-1]["held_out"] == run["final_held_out"]
