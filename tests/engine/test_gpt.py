"""The small GPT: its backward pass against central differences, and generation with the key-value
cache against a full forward pass at every step, before and after the context fills."""
import numpy as np
import pytest

from engine.gpt import GPTConfig, generate, generate_uncached, gpt_backward, gpt_forward, head_weights, init_params

from .gradcheck import assert_close_grad, numerical_grad

TINY = GPTConfig(vocab=5, context=6, d_model=4, layers=2, heads=2, d_ff=6)


def _params(config=TINY, seed=3, scale=0.5):
    """Weights larger than GPT-2's 0.02, so every road carries a gradient a finite difference can see."""
    p = init_params(config, np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    return {n: a + scale * rng.normal(size=a.shape) for n, a in p.items()}


def test_parameter_count_is_what_init_draws():
    for config in (TINY, GPTConfig(vocab=90)):
        p = init_params(config, np.random.default_rng(0))
        assert config.parameters == sum(a.size for a in p.values())
    assert 50_000 <= GPTConfig(vocab=90).parameters <= 200_000  # the range, for a vocabulary of prose


def test_config_refuses_heads_that_do_not_divide_the_width():
    with pytest.raises(ValueError, match="multiple of heads"):
        GPTConfig(vocab=5, d_model=10, heads=4)


def test_gpt_backward_matches_finite_differences():
    p = _params()
    tokens = np.array([[0, 3, 1, 4], [2, 2, 0, 1]])
    logits, cache = gpt_forward(p, tokens)
    assert logits.shape == (TINY.vocab, tokens.size)
    up = np.random.default_rng(9).normal(size=logits.shape)
    grads = gpt_backward(up, cache)
    assert set(grads) == set(p)

    def loss():
        return float((gpt_forward(p, tokens)[0] * up).sum())

    for name in p:
        assert grads[name].shape == p[name].shape, name
        assert_close_grad(grads[name], numerical_grad(loss, p[name]))


def test_forward_is_causal_and_refuses_more_than_the_context():
    p = _params()
    tokens = np.array([[0, 3, 1, 4, 2]])
    logits, _ = gpt_forward(p, tokens)
    changed = tokens.copy()
    changed[0, -1] = 0
    logits2, _ = gpt_forward(p, changed)
    assert np.allclose(logits2[:, :-1], logits[:, :-1]) and not np.allclose(logits2[:, -1], logits[:, -1])
    with pytest.raises(ValueError, match="do not fit a context of 6"):
        gpt_forward(p, np.zeros((1, TINY.context + 1), dtype=int))


def test_cached_generation_equals_a_full_pass_at_every_step_past_the_context():
    p = _params()
    prompt = [1, 0, 3]
    gen = generate(p, prompt, 20, temperature=1.0, seed=4)
    assert len(gen.tokens) == len(prompt) + 20
    assert max(gen.starts) > 0  # the window slid more than once: 23 tokens in a context of 6
    for i, start in enumerate(gen.starts):
        window = np.array([gen.tokens[start:len(prompt) + i]])  # what the step that chose token i read
        assert window.shape[1] <= TINY.context
        logits, cache = gpt_forward(p, window)
        assert np.allclose(gen.logits[i], logits[:, -1], atol=1e-12)
        for layer in range(1, TINY.layers + 1):
            assert np.allclose(gen.weights[i][layer - 1], head_weights(cache, layer)[0, :, -1], atol=1e-12)


@pytest.mark.parametrize("temperature, top_k, seed", [(1.0, 0, 4), (1.5, 3, 7), (0.0, 0, 0)])
def test_without_the_cache_the_same_seed_draws_the_same_tokens(temperature, top_k, seed):
    # the logits agree (the test above), so the same draws pick the same tokens, past the context too
    p = _params()
    gen = generate(p, [1, 0, 3], 20, temperature, top_k, seed)
    assert generate_uncached(p, [1, 0, 3], 20, temperature, top_k, seed) == gen.tokens
    if temperature > 0:  # and the seed decides them: another seed draws others
        assert generate_uncached(p, [1, 0, 3], 20, temperature, top_k, seed + 1) != gen.tokens


def test_a_full_window_keeps_its_newer_half():
    gen = generate(_params(), [1, 0, 3], 12, seed=0)
    # token i (from 3) is chosen after reading tokens[start:i]; at 7 tokens the window of 6 is full,
    # so from then on the model reads the last 3 again and grows until it is full once more
    assert gen.starts == [0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8]


def test_score_counts_with_and_without_the_cache():
    # one token of prompt, three written: with the cache 1 (the prompt) + 2 + 3 scores; without it
    # a full pass before each draw over 1, 2 and 3 tokens computes 1 + 4 + 9, or 1 + 3 + 6 of them unmasked
    gen = generate(_params(), [2], 3, seed=0)
    assert (gen.cached_scores, gen.recomputed_scores, gen.recomputed_allowed) == (6, 14, 10)


def test_sampling_temperature_top_k_and_seed():
    p = _params()
    greedy = generate(p, [1, 0], 8, temperature=0)
    assert all(t == int(np.argmax(lg)) for t, lg in zip(greedy.tokens[2:], greedy.logits))
    assert generate(p, [1, 0], 8, top_k=1, seed=5).tokens == greedy.tokens
    assert generate(p, [1, 0], 8, seed=5).tokens == generate(p, [1, 0], 8, seed=5).tokens
    two = generate(p, [1, 0], 30, top_k=2, seed=1)
    for t, lg, top in zip(two.tokens[2:], two.logits, two.top):
        assert t in np.argsort(-lg)[:2]
        assert sum(prob for _, prob in top) == pytest.approx(1.0) and top[2][1] == 0.0
    with pytest.raises(ValueError, match="1 to 6 tokens"):
        generate(p, [0] * 7, 1)
