"""writing-sample: chapter 14's model writing after the reader's prompt; what each step read and was
drawn from (against a full forward pass of its window), the cache's counts by chapter 6's formulas,
and a reason in reader words for a prompt it cannot read."""
from __future__ import annotations

import base64

import numpy as np
import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.figures.fmt import fill_all, scope_at
from engine.figures.writing_sample import LEVELS
from engine.gpt import generate, gpt_forward, head_weights
from engine.tasks import writing_kept
from engine.tasks.writing import one_line

NAME = "writing-sample"


@pytest.fixture(scope="module")
def data(shipped, series_given):
    return compute(parse(NAME), series_given)


def _window(data, i):
    """The tokens the step that wrote character i read."""
    return data["tokens"][data["starts"][i]:data["prompt_length"] + i]


def _weights(data, i) -> np.ndarray:
    """State i's shipped weights, decoded: (layers * heads, window)."""
    levels = np.array([data["alphabet"].index(c) for c in data["attention"][i]]) / data["levels"]
    return levels.reshape(data["layers"] * data["heads"], -1)


def test_the_default_text_is_the_prompt_and_what_the_model_wrote(data, shipped):
    assert data["prompt"] == "The model " and len(data["written"]) == data["params"]["length"]
    assert shipped.vocab.decode(data["tokens"]) == data["prompt"] + data["written"]
    assert data["prompt_length"] == len(data["prompt"]) and data["start"] == len(data["written"]) - 1
    assert len(data["starts"]) == len(data["attention"]) == len(data["top"]) == len(data["drawn"]) == len(data["written"])


def test_every_step_shows_what_a_full_pass_over_its_window_reads_and_predicts(data, shipped):
    for i in range(len(data["written"])):
        window = _window(data, i)
        assert 0 < len(window) <= shipped.config.context
        logits, cache = gpt_forward(shipped.params, np.array([window]))  # (N, T)
        weights = np.concatenate([head_weights(cache, layer)[0, :, -1] for layer in range(1, data["layers"] + 1)])
        assert np.abs(_weights(data, i) - weights).max() <= 0.5 / LEVELS + 1e-9  # (L*H, T): the nearest level
        most = data["most"][i]
        assert [data["starts"][i] + int(j) for j in weights.argmax(axis=1)] == most[0::2]
        assert most[1::2] == pytest.approx(weights.max(axis=1), abs=0.005)
        probs = np.exp(logits[:, -1] - logits[:, -1].max())
        probs /= probs.sum()  # at temperature 1 from all characters, what the default draws from
        order = np.argsort(-probs, kind="stable")
        assert [t for t, _ in data["top"][i]] == order[:len(data["top"][i])].tolist()
        assert [q for _, q in data["top"][i]] == pytest.approx(probs[order[:len(data["top"][i])]], abs=5e-4)
        drawn = data["tokens"][data["prompt_length"] + i]
        assert data["drawn"][i] == [int(np.flatnonzero(order == drawn)[0]) + 1, pytest.approx(probs[drawn], abs=5e-4)]


def test_the_key_numbers_are_the_last_characters_lines(data):
    text = data["text"]
    k = data["start"]
    lines = fill_all(text["templates"], scope_at(text["scope"], data, k))
    assert text["numbers"] == lines + text["fixed"]
    top = data["top"][k]
    assert lines[0].startswith(f"Character {k + 1} of {k + 1}: {data['names'][data['tokens'][-1]]}, drawn with "
                               f"probability {data['drawn'][k][1]:.3f} (rank {data['drawn'][k][0]} of {len(data['names'])})")
    assert lines[1].startswith("Most likely next characters at temperature 1.0: " + data["names"][top[0][0]])
    assert [line.split(",")[0] for line in lines[2:]] == [f"Layer {n}" for n in range(1, data["layers"] + 1)]
    assert data["written"].replace("\n", "↵") in text["fixed"][0]
    assert f"{data['cached_scores']} with the key-value cache, {data['recomputed_scores']} without it" in text["fixed"][1]


def _triangle(n):
    return n * (n + 1) // 2


def _squares(n):
    return n * (n + 1) * (2 * n + 1) // 6


def test_the_counts_are_chapter_6s_for_each_stretch_of_the_window(data):
    # The window keeps its newer half when it is full, so the text is read in stretches, each from the
    # start of its window: with the cache a stretch that ends reading b characters computes 1 + 2 + ... + b
    # scores per head, without it each step a..b computes its whole square: a² + ... + b², of which the
    # mask lets through the triangles: T(a) + ... + T(b).
    windows = [len(_window(data, i)) for i in range(len(data["written"]))]
    stretches, first = [], 0
    for i in range(1, len(windows) + 1):
        if i == len(windows) or data["starts"][i] != data["starts"][first]:
            stretches.append((windows[first], windows[i - 1]))
            first = i
    assert len(stretches) > 1  # the default writes past the context
    assert data["cached_scores"] == sum(_triangle(b) for _, b in stretches)
    assert data["recomputed_scores"] == sum(_squares(b) - _squares(a - 1) for a, b in stretches)
    assert data["recomputed_allowed"] == sum(_triangle(m) for a, b in stretches for m in range(a, b + 1))


def test_temperature_0_always_takes_the_most_likely_whatever_the_seed(shipped, series_given):
    out = compute(parse(NAME, {"temperature": 0, "length": 30, "seed": 1}), series_given)
    for i in range(30):
        logits, _ = gpt_forward(shipped.params, np.array([_window(out, i)]))
        assert out["tokens"][out["prompt_length"] + i] == int(np.argmax(logits[:, -1]))
        assert out["drawn"][i][0] == 1
    assert compute(parse(NAME, {"temperature": 0, "length": 30, "seed": 7}), series_given)["written"] == out["written"]
    assert "the most likely (probability" in out["text"]["numbers"][0]
    assert compute(parse(NAME, {"top_k": 1, "length": 30, "seed": 5}), series_given)["written"] == out["written"]


def test_top_k_draws_from_the_k_most_likely_and_lists_only_them(series_given):
    out = compute(parse(NAME, {"top_k": 3, "temperature": 1.5, "length": 40}), series_given)
    assert all(rank <= 3 for rank, _ in out["drawn"])
    assert all(len(top) == 3 and sum(q for _, q in top) == pytest.approx(1, abs=2e-3) for top in out["top"])
    assert "at temperature 1.5, from the 3 most likely" in out["text"]["numbers"][1]


@pytest.mark.parametrize("prompt, reason", [
    ("", "Type a few words for the model to go on from."),
    ("x" * 65, "The model reads at most 64 characters; this has 65."),
    ("<b>x</b>", "The model does not know “<” or “>”: it learned only the 91 characters the series' text uses."),
    ("a\tb ~ {}\u00a0", "The model does not know U+0009, “~”, “{”, “}” or U+00A0 (no-break space): it learned "
                        "only the 91 characters the series' text uses."),
    ("@#$%^&*!", "The model does not know “@”, “#”, “$”, “^”, “&” and 2 more: it learned only the 91 characters "
                 "the series' text uses."),
])
def test_a_prompt_the_model_cannot_read_gets_one_reason_in_reader_words(shipped, prompt, reason, series_given):
    assert (len(shipped.vocab), shipped.config.context) == (91, 64)  # the series' text's characters, the model's window
    with pytest.raises(ParamError) as err:
        compute(parse(NAME, {"prompt": prompt}), series_given)
    assert str(err.value) == reason and err.value.option == "prompt"


def test_options_are_checked_before_the_model_is_given():
    # A build reads every chapter's options before it makes the model from the prose: what the options
    # alone decide is refused then, the characters only once the model is there (the test above).
    assert parse(NAME, {"prompt": "<b>"}).read == "<b>"
    with pytest.raises(ParamError, match="at most 64 characters"):
        parse(NAME, {"prompt": "x" * 65})
    with pytest.raises(KeyError, match="reads 'writing-model', which it was not given"):
        compute(parse(NAME, {"prompt": "The "}))


def test_facts_are_the_defaults_counts_and_three_temperatures(data, series_given):
    got = facts(parse(NAME), data, series_given)
    assert set(got) == {"prompt", "length", "cached_scores", "recomputed_scores", "saving", "recomputed_allowed",
                        "saving_allowed", "sample_cool", "sample_plain", "sample_hot", "temperature_cool",
                        "temperature_hot"}
    assert got["saving_allowed"] == data["recomputed_allowed"] / data["cached_scores"]
    assert got["sample_plain"] == one_line(data["written"]) and got["saving"] == data["recomputed_scores"] / data["cached_scores"]
    for kind in ("cool", "hot"):
        assert got[f"sample_{kind}"] == one_line(
            compute(parse(NAME, {"temperature": got[f"temperature_{kind}"]}), series_given)["written"])
    assert got["temperature_cool"] < 1 < got["temperature_hot"]


def test_the_readers_own_model_writes_when_the_page_hands_it_in(data, series_given):
    trained = compute(parse("writing-training", {"seed": 3, "steps": 200}), series_given)
    given = series_given.with_file("reader-model", base64.b64decode(trained["model_file"]))
    assert compute(parse(NAME), given) == data  # the page's model, unless asked for the reader's
    theirs = compute(parse(NAME, {"model": "yours"}), given)
    own = writing_kept.model_of(given["reader-model"])
    assert theirs["written"] != data["written"] and theirs["writer"]["seed"] == 3
    gen = generate(own.params, own.vocab.encode(theirs["prompt"]), len(theirs["written"]), 1.0, 0, 0, show=0)
    assert own.vocab.decode(gen.tokens) == theirs["prompt"] + theirs["written"]
    assert theirs["text"]["fixed"][0].startswith(f"After “The model ” the model you trained (seed 3, 200 steps, "
                                                 f"{theirs['writer']['parameters']:,} numbers) wrote")


@pytest.mark.parametrize("file, reason", [
    (None, "no model of your own is kept in this browser"),
    (b"not a model", "the model kept in this browser could not be read"),
])
def test_without_a_readable_model_of_their_own_the_option_is_refused_in_one_line(series_given, file, reason):
    given = series_given if file is None else series_given.with_file("reader-model", file)
    with pytest.raises(ParamError, match=reason) as err:
        compute(parse(NAME, {"model": "yours"}), given)
    assert err.value.option == "model" and "\n" not in str(err.value)
