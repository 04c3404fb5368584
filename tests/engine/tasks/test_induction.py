"""Chapter 13's induction task: the data, the scores, and the claims the chapter makes about training.

The training tests run the default settings (600 steps, 1 to 3 s per run on our shared machine);
the runs are cached per process by `trained`, so the whole file trains 8 models (10 to 25 s).
"""
import dataclasses

import numpy as np
import pytest

from engine.tasks.induction import (
    InductionConfig,
    Sequences,
    best_copy_rule,
    copy_rule_losses,
    copy_shares,
    ideal_losses,
    loss_and_grads,
    init_params,
    prefix_match,
    sample_sequences,
    scores,
    several_copies,
    source,
    train_induction_model,
    trained,
)
from tests.engine.gradcheck import assert_close_grad, numerical_grad

REPORTED_SEEDS = (0, 1, 2, 3, 4)  # the seeds the chapter's numbers come from
CONFIG = InductionConfig()


# ---- the data -----------------------------------------------------------------------

def test_second_half_repeats_the_first_then_padding():
    seqs = sample_sequences(np.random.default_rng(0), 200, CONFIG)
    assert seqs.tokens.shape == (200, 2 * CONFIG.half_max + 1)
    assert set(np.unique(seqs.halves)) == set(range(CONFIG.half_min, CONFIG.half_max + 1))
    for row, n in zip(seqs.tokens, seqs.halves):
        assert row[0] == CONFIG.bos
        assert np.array_equal(row[1:n + 1], row[n + 1:2 * n + 1])
        assert np.all(row[1:2 * n + 1] < CONFIG.n_vocab)
        assert np.all(row[2 * n + 1:] == CONFIG.bos)


def test_parts_mark_the_predictions_of_each_half():
    seqs = Sequences(np.array([[16, 3, 5, 3, 5, 16, 16, 16]]), np.array([2]))
    assert seqs.part("first")[0].tolist() == [True, True, False, False, False, False, False]
    assert seqs.part("repeat")[0].tolist() == [False, False, True, True, False, False, False]


def test_prefix_match_marks_the_token_after_each_earlier_copy():
    # BOS a b a | a b a (n = 3): the inputs are positions 0-5, the repeat's queries 4 and 5
    seqs = Sequences(np.array([[9, 0, 1, 0, 0, 1, 0]]), np.array([3]))
    m = prefix_match(seqs)[0]  # (6, 6)
    assert not m[:4].any()  # no query of the first half (or the repeat's first token) counts
    # the query at 4 holds a: its copies at 1 and 3 are followed by positions 2 and 4 (itself)
    assert np.flatnonzero(m[4]).tolist() == [2, 4]
    # the query at 5 holds b, whose earlier copy at 2 is followed by position 3
    assert np.flatnonzero(m[5]).tolist() == [3]


def test_source_marks_only_the_token_after_the_querys_own_copy():
    seqs = Sequences(np.array([[9, 0, 1, 0, 0, 1, 0]]), np.array([3]))  # BOS a b a | a b a
    s = source(seqs)[0]  # (6, 6)
    # the query at 4 (a, the repeat's first a) copies position 1, so reads 2; prefix_match also counts 4
    assert np.flatnonzero(s[4]).tolist() == [2] and np.flatnonzero(s[5]).tolist() == [3]
    assert not s[:4].any()
    assert (s <= prefix_match(seqs)[0]).all()
    assert several_copies(seqs) == 0.5  # a has two earlier copies at 4, b one at 5


def test_baselines_of_the_repeat():
    # BOS a b c a b c (n = 3 is below half_min here: use a config that allows it)
    config = dataclasses.replace(CONFIG, n_vocab=4, half_min=2, half_max=3)
    seqs = Sequences(np.array([[4, 0, 1, 2, 0, 1, 2]]), np.array([3]))
    ideal = ideal_losses(seqs, config)[0]
    assert np.allclose(ideal[:2], np.log(4))  # every half length allows an even guess
    # after a b, a half of 2 would repeat a next (wrong: c comes), a half of 3 guesses evenly; both equally likely
    assert np.isclose(ideal[2], -np.log(0.5 * 0.25))
    # after a b c, a half of 2 is ruled out (c is not a), so the repeat is certain from here
    assert np.allclose(ideal[3:6], 0.0)
    shares = copy_shares(seqs)[0]
    assert np.isnan(shares[:4]).all() and np.allclose(shares[4:6], 1.0)  # a and b each followed once, rightly
    assert np.allclose(copy_rule_losses(copy_shares(seqs), config, 0.1)[0, 4:6], -np.log(0.9 + 0.1 / 4))
    assert 0 < best_copy_rule(CONFIG, count=64) < 0.5


def test_loss_gradients_skip_padding():
    config = dataclasses.replace(CONFIG, n_vocab=4, half_min=2, half_max=3, d_model=4, n_heads=2, d_head=2)
    rng = np.random.default_rng(3)
    p = init_params(rng, config)
    seqs = sample_sequences(rng, 3, config)
    assert (seqs.halves < config.half_max).any()  # some padding to skip
    _, grads = loss_and_grads(p, seqs)
    for name, a in p.items():
        assert_close_grad(grads[name], numerical_grad(lambda: loss_and_grads(p, seqs)[0], a))


# ---- training -----------------------------------------------------------------------

@pytest.mark.parametrize("seed", REPORTED_SEEDS)
def test_induction_head_forms_with_a_sharp_fall(seed):
    run = trained(seed)
    step = run.phase_change_step()
    assert step is not None and step <= CONFIG.steps, f"seed {seed}: no layer-2 head reached 0.5"
    start, end, fall = run.sharpest_fall(window=100)
    assert start <= step <= end, (seed, step, start, end)  # the score falls fastest as the head forms
    assert fall >= 0.6, (seed, fall)
    final = run.scores[-1]
    assert max(final["prefix_matching"][1]) >= 0.8
    assert final["in_context"] <= -2.0  # the repeat is predicted far better than chance
    _, prev = run.previous_token_head()
    assert prev >= 0.5


@pytest.mark.parametrize("seed", REPORTED_SEEDS[:2])
def test_ablating_the_previous_token_head_removes_induction(seed):
    run = trained(seed)
    head, _ = run.previous_token_head()
    cut = run.ablated_scores(1, [head])
    assert max(cut["prefix_matching"][1]) < 0.4  # no layer-2 head finds the copy any more
    assert cut["in_context"] > -0.8  # most of the in-context gain is gone
    other = run.ablated_scores(1, [1 - head])  # the other layer-1 head does not matter
    assert max(other["prefix_matching"][1]) >= 0.8
    assert other["in_context"] < -1.8


def test_only_the_keys_road_carries_the_previous_token_head():
    run = trained(0)
    head, _ = run.previous_token_head()
    full = run.scores[-1]["in_context"]
    for mean in (True, False):
        by = {road: run.path_scores(1, [head], road, mean=mean)["in_context"] for road in "qkv"}
        assert by["k"] > -0.8 and abs(by["q"] - full) < 0.1 and abs(by["v"] - full) < 0.1, by


def test_the_literal_rule_and_the_ideal_bracket_the_trained_model():
    run = trained(0)
    repeat = run.held_out.part("repeat")
    ideal = ideal_losses(run.held_out, CONFIG)[repeat].mean()
    rule = copy_rule_losses(copy_shares(run.held_out), CONFIG, best_copy_rule(CONFIG))[repeat].mean()
    assert ideal < run.scores[-1]["loss_repeat"] < rule
    final = run.scores[-1]
    assert all(s < p for s, p in zip(final["source"][1], final["prefix_matching"][1]))  # one copy < every copy


@pytest.mark.parametrize("seed", REPORTED_SEEDS[:2])
def test_one_layer_never_forms_an_induction_head(seed):
    one, two = trained(seed, n_layers=1), trained(seed)
    assert one.phase_change_step() is None
    assert max(max(s["prefix_matching"][0]) for s in one.scores) < 0.45
    # one layer still learns which tokens are in context, but no more than that
    assert -1.5 < one.scores[-1]["in_context"] < -0.5
    assert two.scores[-1]["in_context"] < one.scores[-1]["in_context"] - 0.8
    assert one.sharpest_fall(window=100)[2] < two.sharpest_fall(window=100)[2]


def test_losses_are_reproducible_per_seed():
    again = train_induction_model(0)
    assert again.losses == trained(0).losses
    assert again.phase_change_step() == trained(0).phase_change_step()
    assert again.losses != trained(1).losses


def test_scores_of_an_untrained_model_are_near_chance():
    rng = np.random.default_rng(0)
    s = scores(init_params(rng, CONFIG), sample_sequences(rng, 64, CONFIG))
    assert abs(s["in_context"]) < 0.6
    assert max(s["prefix_matching"][1]) < 0.3
