import json

import numpy as np
import pytest

from engine.tasks.grammar import (
    MAX_LEN,
    VOCAB,
    GrammarConfig,
    encode,
    grammar_training,
    init_params,
    loss_and_grads,
    model_forward,
    parse,
    sample_sentences,
    train_grammar_model,
)
from engine.attention import attention_forward
from tests.engine.gradcheck import assert_close_grad, numerical_grad


@pytest.fixture(scope="module")
def run0():
    return train_grammar_model(seed=0, steps=400)


@pytest.fixture(scope="module")
def eval0(run0):
    return run0.evaluate(n=300)


def words(s, i):
    return s.text(i).split()


# ---- the grammar ------------------------------------------------------------------

def test_parse_gives_both_targets_of_the_example_sentence():
    s = parse("The cat sat on the mat.")
    assert s.text(0) == "the cat sat on the mat"
    # the->cat, cat->sat, sat->cat, on->mat, the->mat, mat->sat
    assert s.targets[0, :6, 0].tolist() == [1, 2, 1, 5, 5, 2]
    # previous word; the first word names itself
    assert s.targets[0, :6, 1].tolist() == [0, 0, 1, 2, 3, 4]
    assert [VOCAB[w] for w in s.target_words[0, :6, 0]] == ["cat", "sat", "cat", "mat", "mat", "sat"]


def test_parse_with_both_adjectives():
    s = parse("the old dog slept under a red box")
    assert s.targets[0, :, 0].tolist() == [2, 2, 3, 2, 7, 7, 7, 3]


@pytest.mark.parametrize("bad", ["the cat sat on the", "cat the sat on the mat", "the unicorn sat on the mat"])
def test_parse_rejects_sentences_outside_the_grammar(bad):
    with pytest.raises(ValueError):
        parse(bad)


def test_sampled_sentences_follow_the_grammar_and_vary_in_length():
    s = sample_sentences(np.random.default_rng(1), 400)
    assert set(s.lengths.tolist()) == {6, 7, 8}
    for i in range(50):
        again = parse(s.text(i))
        np.testing.assert_array_equal(again.targets[0], s.targets[i])
    assert np.all(s.words[s.words >= 0] < len(VOCAB))
    assert np.all((s.words == -1) == (np.arange(MAX_LEN) >= s.lengths[:, None]))


def test_encoding_is_one_hot_word_then_one_hot_position():
    s = parse("a fox ran by the bed")
    x = encode(s.words)
    assert x.shape == (1, MAX_LEN, len(VOCAB) + MAX_LEN)
    assert x[0, 2, VOCAB.index("ran")] == 1 and x[0, 2, len(VOCAB) + 2] == 1
    assert x[0, :6].sum() == 12 and x[0, 6:].sum() == 0


def test_model_gradients_match_finite_differences():
    cfg = GrammarConfig(d_k=3, d_v=2)
    rng = np.random.default_rng(2)
    params = init_params(rng, cfg)
    s = sample_sentences(rng, 3)
    x, valid = encode(s.words), s.valid
    tw = s.target_words.reshape(-1, 2).T
    _, grads = loss_and_grads(params, x, valid, tw)
    for name, p in params.items():
        num = numerical_grad(lambda: loss_and_grads(params, x, valid, tw)[0], p)
        assert_close_grad(grads[name], num)


# ---- training -------------------------------------------------------------------------

def test_run_has_a_loss_per_step_and_21_checkpoints(run0):
    assert len(run0.losses) == 400 and all(isinstance(v, float) for v in run0.losses)
    assert len(run0.checkpoints) == 21
    assert run0.checkpoint_steps == list(range(0, 401, 20))
    assert set(run0.checkpoints[0]) == {"wq", "wk", "wv", "readout", "bias"}
    assert run0.checkpoints[0]["wq"].shape == (2, len(VOCAB) + MAX_LEN, 6)


def test_loss_starts_near_chance_and_falls(run0):
    assert abs(run0.losses[0] - np.log(len(VOCAB))) < 0.5
    assert np.mean(run0.losses[-20:]) < 0.05


def test_default_seed_names_both_targets(eval0):
    assert eval0["n_sentences"] == 300
    assert eval0["accuracy_attached"] >= 0.97
    assert eval0["accuracy_previous"] >= 0.97


def test_default_seed_splits_the_questions_between_the_heads(eval0):
    heads = eval0["head_argmax"]
    attached = max(range(2), key=lambda h: heads[h]["attached"])
    previous = 1 - attached
    assert heads[attached]["attached"] >= 0.75 and heads[attached]["attached"] > heads[attached]["previous"]
    assert heads[previous]["previous"] >= 0.75 and heads[previous]["previous"] > heads[previous]["attached"]


@pytest.mark.parametrize("seed", [1, 2])
def test_other_seeds_train_too(seed):
    ev = train_grammar_model(seed=seed).evaluate(n=300)
    assert ev["accuracy_attached"] >= 0.90 and ev["accuracy_previous"] >= 0.90


def test_the_random_start_does_not_know_the_answers(run0):
    ev = run0.evaluate(n=100, checkpoint=0)
    assert ev["accuracy_attached"] < 0.5 and ev["accuracy_previous"] < 0.5


def test_same_seed_same_numbers(run0):
    again = train_grammar_model(seed=0, steps=40)
    assert again.losses == run0.losses[:40]
    for name in run0.checkpoints[2]:
        np.testing.assert_array_equal(again.checkpoints[2][name], run0.checkpoints[2][name])
    other = train_grammar_model(seed=5, steps=40)
    assert other.losses != again.losses


def test_held_out_sentences_are_new_and_distinct(run0):
    train_rows = {tuple(r) for r in run0._train_words.tolist()}
    held = run0.held_out(300)
    rows = [tuple(r) for r in held.words.tolist()]
    assert len(set(rows)) == 300 and not (set(rows) & train_rows)


def test_a_run_finished_part_way_keeps_the_steps_it_did():
    training, finish = grammar_training(seed=0)
    for _ in range(30):
        training.step()
    run = finish()
    assert len(run.losses) == 30 and run.checkpoint_steps == [0, 20]


# ---- export -------------------------------------------------------------------------

def test_export_is_json_and_consistent_with_the_model(run0):
    data = run0.export("The cat sat on the mat", checkpoint=-1)
    json.dumps(data)
    assert data["step"] == 400 and data["words"] == ["the", "cat", "sat", "on", "the", "mat"]
    h = data["heads"][0]
    q, k = np.array(h["q"]), np.array(h["k"])
    np.testing.assert_allclose(np.array(h["scaled"]), q @ k.T / np.sqrt(6))
    w = np.array(h["weights"])
    e = np.exp(np.array(h["scaled"]) - np.array(h["scaled"]).max(1, keepdims=True))
    np.testing.assert_allclose(w, e / e.sum(1, keepdims=True), rtol=1e-10)
    assert data["named"]["attached"] == ["cat", "sat", "cat", "mat", "mat", "sat"]
    assert data["named"]["previous"] == ["the", "the", "cat", "sat", "on", "the"]
    assert len(json.loads(json.dumps(run0.checkpoints_json()))) == 21


def test_export_at_the_start_differs_from_the_end(run0):
    a = run0.export(checkpoint=0)["heads"][0]["weights"]
    b = run0.export(checkpoint=-1)["heads"][0]["weights"]
    assert not np.allclose(a, b)


def test_readouts_agree_with_model_forward(run0):
    s = parse("a small bird hid behind the old bed")
    logits, _ = model_forward(run0.params, encode(s.words), s.valid)
    named = logits.argmax(axis=1)[:, :8]
    np.testing.assert_array_equal(named.T, s.target_words[0])


# ---- ablation (chapter 12's intervention figure) ------------------------------------

def test_ablating_no_head_is_the_model_itself():
    from engine.tasks.grammar import ablated_forward, head_means, trained
    run = trained(0)
    s = run.held_out(20)
    x = encode(s.words)
    means = head_means(run.params, x, s.valid)
    logits, _ = model_forward(run.params, x, s.valid)
    ablated, att = ablated_forward(run.params, x, s.valid, (), means)
    np.testing.assert_allclose(ablated, logits, rtol=1e-12, atol=1e-12)
    assert means.shape == (2, GrammarConfig().d_v)


def test_an_ablated_head_reads_the_same_for_every_word_and_keeps_its_weights():
    from engine.tasks.grammar import _readouts, ablated_forward, head_means, trained
    run = trained(0)
    s = run.held_out(20)
    x = encode(s.words)
    means = head_means(run.params, x, s.valid)
    _, (_, att) = model_forward(run.params, x, s.valid)
    logits, att2 = ablated_forward(run.params, x, s.valid, (0,), means)
    np.testing.assert_array_equal(att2.weights, att.weights)  # ablation acts after attention
    V = means.shape[1]
    out = np.concatenate([np.broadcast_to(means[0], x.shape[:2] + (V,)), att.weights[:, 1] @ att.v[:, 1]], axis=-1)
    np.testing.assert_allclose(logits, _readouts(run.params, out.reshape(-1, 2 * V)), rtol=1e-10, atol=1e-10)
    # The mean is over real words only: padding rows (all-zero inputs) would pull it elsewhere.
    full, _ = attention_forward(x, run.params["wq"], run.params["wk"], run.params["wv"], mask=s.valid[:, None, :])
    np.testing.assert_allclose(means, full.reshape(full.shape[:-1] + (2, V))[s.valid].mean(axis=0))


# ---- the losses are the engine's own, step for step -----------------------------------

def _recorded_losses():
    """Per-step losses written by record_grammar_losses.py from the engine before the fused step."""
    from pathlib import Path
    return json.loads((Path(__file__).with_name("data") / "grammar_losses.json").read_text())


@pytest.mark.parametrize("blas", [True, False], ids=["matmul", "einsum as in Pyodide"])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_losses_match_the_recorded_run_to_1e_6(seed, blas, monkeypatch):
    from engine.tasks import grammar_step
    monkeypatch.setattr(grammar_step, "HAS_BLAS", blas)
    recorded = _recorded_losses()
    assert recorded["config"] == GrammarConfig().__dict__, "the default config changed: rerun the recorder"
    losses = train_grammar_model(seed=seed).losses
    np.testing.assert_allclose(losses, recorded["losses"][str(seed)], rtol=0, atol=1e-6)
