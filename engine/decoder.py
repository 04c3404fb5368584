"""An attention-only decoder as forward/backward pairs of pure functions, built on block.py.

Tokens enter as learned embeddings (plus learned position embeddings, optionally); each layer's
multi-head causal self-attention, mapped back by W_O, is added into the residual stream; the
unembedding turns the last stream into next-token logits. No MLPs and no layer norm: the setting
in which Elhage et al. (2021) and Olsson et al. (2022) study induction heads.

Parameters are one dict of arrays: ``w_e`` (N, D), optionally ``w_p`` (P, D), per layer
``l`` = 1, 2, ... ``wq{l}``, ``wk{l}`` (H, D, K), ``wv{l}`` (H, D, V), ``wo{l}`` (H*V, D), and
``w_u`` (D, N). Shapes: B batch, T positions, D model width, N vocabulary, H heads.
"""
from dataclasses import dataclass

import numpy as np

from .attention import attention_forward
from .block import self_attention_backward, self_attention_forward

LAYER_PARAMS = ("wq", "wk", "wv", "wo")


def n_layers(params):
    """How many attention layers ``params`` holds."""
    return sum(1 for name in params if name.startswith("wq"))


@dataclass(frozen=True)
class EmbedCache:
    """The token indices and the table sizes: all the backward pass needs."""
    tokens: np.ndarray  # (B, T) ints
    n_vocab: int
    positional: bool


def embed_forward(tokens, w_e, w_p=None):
    """Each token's row of w_e, plus its position's row of w_p when given."""
    tokens = np.asarray(tokens)  # (B, T)
    x = w_e[tokens]  # (B, T, D)
    if w_p is not None:
        x += w_p[:tokens.shape[-1]]  # (B, T, D)
    return x, EmbedCache(tokens, w_e.shape[0], w_p is not None)


def embed_backward(dx, cache):
    """Gradients with respect to w_e (and w_p): each row collects the gradient of every place it was used."""
    D = dx.shape[-1]
    dx2 = dx.reshape(-1, D)  # (B*T, D)
    # A one-hot matrix product sums rows by token: one BLAS call, faster than np.add.at for these sizes.
    one_hot = (cache.tokens.reshape(-1, 1) == np.arange(cache.n_vocab)).astype(dx.dtype)  # (B*T, N)
    grads = {"w_e": one_hot.T @ dx2}  # (N, D)
    if cache.positional:
        grads["w_p"] = dx.reshape((-1,) + dx.shape[-2:]).sum(axis=0)  # (T, D)
    return grads


@dataclass(frozen=True)
class DecoderCache:
    """Every layer's attention cache (``layers[i].attn.weights`` is what figures draw) and the final stream."""
    embed: EmbedCache
    layers: tuple      # one SelfAttentionCache per layer
    stream: np.ndarray  # (B*T, D) the residual stream after the last layer
    w_u: np.ndarray     # (D, N)


def decoder_forward(params, tokens):
    """Next-token logits for every position, classes first: (N, B*T), the layout cross_entropy_forward
    reduces fastest (give it logits[None] with axis=1)."""
    x, embed = embed_forward(tokens, params["w_e"], params.get("w_p"))  # (B, T, D)
    layers = []
    for layer in range(1, n_layers(params) + 1):
        out, cache = self_attention_forward(x, *(params[f"{n}{layer}"] for n in LAYER_PARAMS))  # (B, T, D)
        x = x + out  # (B, T, D) the layer writes into the residual stream
        layers.append(cache)
    stream = x.reshape(-1, x.shape[-1])  # (B*T, D)
    logits = params["w_u"].T @ stream.T  # (N, B*T)
    return logits, DecoderCache(embed, tuple(layers), stream, params["w_u"])


def decoder_backward(dlogits, cache):
    """Gradients for every parameter, given dLoss/dlogits (N, B*T). The gradient reaches each
    layer's input by two roads: straight along the residual stream, and back through the layer."""
    grads = {"w_u": cache.stream.T @ dlogits.T}  # (D, N)
    dx = (dlogits.T @ cache.w_u.T).reshape(cache.embed.tokens.shape + (-1,))  # (B, T, D)
    for layer in range(len(cache.layers), 0, -1):
        g = self_attention_backward(dx, cache.layers[layer - 1])
        for n in LAYER_PARAMS:
            grads[f"{n}{layer}"] = g[n]
        dx = dx + g["x"]  # (B, T, D) the residual road plus the layer's
    grads.update(embed_backward(dx, cache.embed))
    return grads


def head_weights(cache, layer):
    """Attention weights of every head of ``layer`` (counted from 1): (B, H, T, T)."""
    w = cache.layers[layer - 1].attn.weights
    return w.reshape((-1,) + w.shape[-3:])  # (B, H, T, T)


def ablate(params, layer, heads):
    """A copy of ``params`` in which the given heads of ``layer`` write nothing into the stream:
    their rows of W_O are zero, which is the same as zeroing their outputs."""
    out = dict(params)
    wo = params[f"wo{layer}"].copy()  # (H*V, D)
    H, V = params[f"wv{layer}"].shape[0], params[f"wv{layer}"].shape[2]
    rows = wo.reshape(H, V, -1)  # (H, V, D) view
    rows[list(heads)] = 0.0
    out[f"wo{layer}"] = wo
    return out


def head_output(cache, layer, head):
    """What one head of ``layer`` (from 1) wrote into the residual stream: its output times its rows of W_O, (B, T, D)."""
    c = cache.layers[layer - 1]
    V = c.attn.v.shape[-1]
    heads = c.heads.reshape((-1,) + c.heads.shape[-2:])  # (B, T, H*V)
    return heads[..., head * V:(head + 1) * V] @ c.wo[head * V:(head + 1) * V]  # (B, T, D)


def _attend(xq, xk, xv, wq, wk, wv):
    """Causal multi-head attention whose queries, keys and values read three different streams
    (forward only): heads side by side (B, T, H*V) and the weights (B, H, T, T)."""
    K = wq.shape[2]
    q = np.einsum("btd,hdk->bhtk", xq, wq) / np.sqrt(K)  # (B, H, T, K)
    k = np.einsum("btd,hdk->bhtk", xk, wk)  # (B, H, T, K)
    v = np.einsum("btd,hdv->bhtv", xv, wv)  # (B, H, T, V)
    T = xq.shape[1]
    scores = q @ k.swapaxes(-1, -2) + np.where(np.tril(np.ones((T, T), dtype=bool)), 0.0, -np.inf)  # (B, H, T, T)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))  # (B, H, T, T)
    w /= w.sum(axis=-1, keepdims=True)
    out = (w @ v).transpose(0, 2, 1, 3)  # (B, T, H, V)
    return out.reshape(out.shape[:2] + (-1,)), w


def path_forward(params, tokens, sender, reads, replacement=0.0, direct=False):
    """Logits (N, B*T) and every layer's head weights [(B, H, T, T)] when the queries, keys or values
    (the letters of ``reads``, from "qkv") of the layers after ``sender`` = (layer, heads) read the
    stream with those heads' output swapped for ``replacement`` ((T, D), or 0 to remove it); with
    ``direct``, the stream that reaches the unembedding carries the swap too. Every other road is
    untouched: this tells Q-, K- and V-composition apart (Elhage et al. 2021), where ablate() cuts
    every road at once."""
    s_layer, s_heads = sender
    x, _ = embed_forward(tokens, params["w_e"], params.get("w_p"))  # (B, T, D)
    weights, swap = [], None
    for layer in range(1, n_layers(params) + 1):
        wq, wk, wv, wo = (params[f"{n}{layer}"] for n in LAYER_PARAMS)
        if swap is None:
            heads, cache = attention_forward(x, wq, wk, wv, causal=True)  # (B, T, H*V)
            w = cache.weights
        else:
            xs = {c: x + swap if c in reads else x for c in "qkv"}  # (B, T, D) each
            heads, w = _attend(xs["q"], xs["k"], xs["v"], wq, wk, wv)
        x = x + heads @ wo  # (B, T, D)
        if layer == s_layer:
            V = wv.shape[2]
            own = sum(heads[..., h * V:(h + 1) * V] @ wo[h * V:(h + 1) * V] for h in s_heads)  # (B, T, D)
            swap = replacement - own  # (B, T, D) added to what later layers read
        weights.append(w)
    if direct and swap is not None:
        x = x + swap  # (B, T, D) the stream is a sum: the road to the unembedding carries the swap too
    logits = params["w_u"].T @ x.reshape(-1, x.shape[-1]).T  # (N, B*T)
    return logits, weights
