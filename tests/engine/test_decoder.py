"""The attention-only decoder: forward values against direct formulas, every backward against
central differences (gradcheck.py)."""
import numpy as np
import pytest

from engine import decoder
from engine.attention import attention_forward
from engine.block import self_attention_backward, self_attention_forward
from engine.train import cross_entropy_backward, cross_entropy_forward

from .gradcheck import assert_close_grad, numerical_grad


def _params(rng, layers=2, n=5, d=6, h=2, k=3, t=4, positional=True):
    p = {"w_e": rng.normal(size=(n, d))}
    if positional:
        p["w_p"] = rng.normal(size=(t, d))
    for layer in range(1, layers + 1):
        p[f"wq{layer}"] = rng.normal(size=(h, d, k))
        p[f"wk{layer}"] = rng.normal(size=(h, d, k))
        p[f"wv{layer}"] = rng.normal(size=(h, d, k))
        p[f"wo{layer}"] = rng.normal(size=(h * k, d)) / 2
    p["w_u"] = rng.normal(size=(d, n)) / 2
    return p


def test_embedding_is_token_row_plus_position_row():
    rng = np.random.default_rng(1)
    w_e, w_p = rng.normal(size=(5, 3)), rng.normal(size=(4, 3))
    tokens = np.array([[4, 0, 4], [1, 2, 3]])
    x, _ = decoder.embed_forward(tokens, w_e, w_p)
    assert np.allclose(x[1, 2], w_e[3] + w_p[2])
    assert np.allclose(x[0, 0] - x[0, 2], w_p[0] - w_p[2])  # same token, different places
    x_np, _ = decoder.embed_forward(tokens, w_e)
    assert np.allclose(x_np[0, 0], x_np[0, 2])  # without positions, a token looks the same everywhere


@pytest.mark.parametrize("positional", [True, False])
def test_embed_backward(positional):
    rng = np.random.default_rng(2)
    w_e, w_p = rng.normal(size=(5, 3)), rng.normal(size=(4, 3)) if positional else None
    tokens = np.array([[4, 0, 4, 1], [1, 1, 3, 0]])  # repeats, so rows collect several gradients
    up = rng.normal(size=(2, 4, 3))
    _, cache = decoder.embed_forward(tokens, w_e, w_p)
    grads = decoder.embed_backward(up, cache)
    f = lambda: float((decoder.embed_forward(tokens, w_e, w_p)[0] * up).sum())  # noqa: E731
    assert_close_grad(grads["w_e"], numerical_grad(f, w_e))
    assert set(grads) == ({"w_e", "w_p"} if positional else {"w_e"})
    if positional:
        assert_close_grad(grads["w_p"], numerical_grad(f, w_p))


def test_forward_adds_each_layer_into_the_stream():
    rng = np.random.default_rng(3)
    p = _params(rng)
    tokens = rng.integers(0, 5, (2, 4))
    logits, cache = decoder.decoder_forward(p, tokens)
    x, _ = decoder.embed_forward(tokens, p["w_e"], p["w_p"])
    for layer in (1, 2):
        out, _ = self_attention_forward(x, p[f"wq{layer}"], p[f"wk{layer}"], p[f"wv{layer}"], p[f"wo{layer}"])
        x = x + out
    assert logits.shape == (5, 8)  # classes first
    assert np.allclose(logits, (x.reshape(-1, 6) @ p["w_u"]).T)
    assert decoder.head_weights(cache, 2).shape == (2, 2, 4, 4)
    assert np.all(np.triu(decoder.head_weights(cache, 1), 1) == 0)  # causal


@pytest.mark.parametrize("layers, positional", [(2, True), (1, True), (2, False)])
def test_decoder_backward_through_cross_entropy(layers, positional):
    rng = np.random.default_rng(4)
    p = _params(rng, layers=layers, positional=positional)
    tokens = rng.integers(0, 5, (2, 4))
    targets = rng.integers(0, 5, (1, 8))

    def loss():
        return cross_entropy_forward(decoder.decoder_forward(p, tokens)[0][None], targets, axis=1)[0]

    logits, cache = decoder.decoder_forward(p, tokens)
    _, ce = cross_entropy_forward(logits[None], targets, axis=1)
    grads = decoder.decoder_backward(cross_entropy_backward(1.0, ce)[0], cache)
    assert set(grads) == set(p)
    for name, a in p.items():
        assert_close_grad(grads[name], numerical_grad(loss, a), rtol=1e-5, atol=1e-7)


def test_float32_stays_float32_through_self_attention():
    """The decoder trains in float32; block.py's self-attention must not widen it to float64."""
    rng = np.random.default_rng(5)
    x = rng.normal(size=(2, 4, 6)).astype(np.float32)
    wq, wk, wv = (rng.normal(size=(2, 6, 3)).astype(np.float32) for _ in range(3))
    wo = rng.normal(size=(6, 6)).astype(np.float32)
    out, cache = self_attention_forward(x, wq, wk, wv, wo)
    grads = self_attention_backward(np.ones_like(out), cache)
    assert out.dtype == np.float32
    assert all(g.dtype == np.float32 for g in grads.values())
    out64, _ = self_attention_forward(x.astype(np.float64), wq, wk, wv, wo)
    assert out64.dtype == np.float64 and np.allclose(out, out64, atol=1e-5)


def test_ablate_zeroes_one_heads_output_only():
    rng = np.random.default_rng(6)
    p = _params(rng)
    tokens = rng.integers(0, 5, (2, 4))
    cut = decoder.ablate(p, 1, [1])
    assert np.array_equal(p["wo1"], _params(np.random.default_rng(6))["wo1"])  # the original is untouched
    x, _ = decoder.embed_forward(tokens, p["w_e"], p["w_p"])
    heads, att = attention_forward(x, p["wq1"], p["wk1"], p["wv1"], causal=True)
    heads = heads.reshape(2, 4, 2, 3)
    heads[..., 1, :] = 0.0  # head 1 of layer 1 writes nothing
    x1 = x + heads.reshape(2, 4, 6) @ p["wo1"]
    out2, _ = self_attention_forward(x1, p["wq2"], p["wk2"], p["wv2"], p["wo2"])
    expected = ((x1 + out2).reshape(-1, 6) @ p["w_u"]).T
    assert np.allclose(decoder.decoder_forward(cut, tokens)[0], expected)


def test_path_forward_cuts_only_the_roads_it_is_given():
    rng = np.random.default_rng(7)
    p = _params(rng)
    tokens = rng.integers(0, 5, (2, 4))
    logits, _ = decoder.decoder_forward(p, tokens)
    same, _ = decoder.path_forward(p, tokens, (1, [1]), "")  # no road cut: the ordinary forward pass
    assert np.allclose(same, logits)
    _, cache = decoder.decoder_forward(p, tokens)
    own = decoder.head_output(cache, 1, 1)  # (B, T, D)
    kept, _ = decoder.path_forward(p, tokens, (1, [1]), "qkv", replacement=own)  # swapped for itself
    assert np.allclose(kept, logits)
    # every road cut, the stream included, is ablate(): zeros in place of the head's output
    every, _ = decoder.path_forward(p, tokens, (1, [1]), "qkv", direct=True)
    assert np.allclose(every, decoder.decoder_forward(decoder.ablate(p, 1, [1]), tokens)[0])
    # cutting all three reads but not the stream: layer 2 sees the ablated stream, the unembedding the real one
    _, weights = decoder.path_forward(p, tokens, (1, [1]), "qkv")
    _, cut_cache = decoder.decoder_forward(decoder.ablate(p, 1, [1]), tokens)
    assert np.allclose(weights[1], decoder.head_weights(cut_cache, 2))
    # keys alone: layer 2's weights change, and differ from cutting the queries alone
    _, by_k = decoder.path_forward(p, tokens, (1, [1]), "k")
    _, by_q = decoder.path_forward(p, tokens, (1, [1]), "q")
    assert not np.allclose(by_k[1], by_q[1]) and np.allclose(by_k[0], by_q[0])  # layer 1 is never touched
