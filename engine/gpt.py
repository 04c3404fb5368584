"""A small GPT as forward/backward pairs of pure functions, built from block.py's pre-norm blocks.

Tokens enter as learned token and position embeddings; L pre-norm blocks (attention, layer norm,
a GELU feed-forward layer) each add to the residual stream; a final layer norm and the
unembedding turn the stream into next-token logits: the decoder-only shape of GPT-2 (Radford et
al. 2019), without dropout and with an unembedding of its own (not tied to the embedding).

Parameters are one dict of arrays: ``w_e`` (N, D), ``w_p`` (P, D), per block ``l`` = 1, 2, ...
``b{l}.{name}`` for each name of block.BLOCK_PARAMS, ``lnf_gain``, ``lnf_bias`` (D,) and ``w_u``
(D, N). Shapes: B batch, T positions (T <= P), D model width, N vocabulary, H heads.

Generation keeps each layer's keys and values (attention.KVCache), so a new token costs one row of
scores per layer and head instead of the whole triangle (chapter 6).
"""
import math
from dataclasses import dataclass

import numpy as np

from .attention import decode_step
from .block import BLOCK_PARAMS, block_backward, block_forward, ffn_forward, layernorm_backward, layernorm_forward
from .decoder import EmbedCache, embed_backward, embed_forward


@dataclass(frozen=True)
class GPTConfig:
    """The model's sizes. The defaults (about 60k numbers for a vocabulary of 80 characters) are
    what numpy without BLAS in a browser's one thread can train to well below the bigram baseline
    in a couple of minutes: each step's work grows with D^2 per position, so width is the cost."""
    vocab: int              # N: distinct tokens (characters)
    context: int = 64       # P: the most positions the model reads, about a dozen words of prose
    d_model: int = 48       # D: residual stream width
    layers: int = 2         # L: blocks; two let one head's output steer another's query (chapter 13)
    heads: int = 4          # H: heads per block, each of width d_model / heads
    d_ff: int = 192         # F: the feed-forward layer's width, four times d_model as in GPT-2

    def __post_init__(self):
        if self.d_model % self.heads:
            raise ValueError(f"d_model ({self.d_model}) must be a multiple of heads ({self.heads})")

    @property
    def d_head(self) -> int:
        return self.d_model // self.heads

    @property
    def parameters(self) -> int:
        """How many numbers the model holds: both embeddings, the blocks, the final norm, the unembedding."""
        N, P, D = self.vocab, self.context, self.d_model
        per_block = 4 * D * D + 2 * D * self.d_ff + self.d_ff + D + 4 * D  # no biases in attention (block.py)
        return N * D + P * D + self.layers * per_block + 2 * D + D * N


def block_params(params, layer):
    """Block ``layer``'s (from 1) weights under block.py's names."""
    return {n: params[f"b{layer}.{n}"] for n in BLOCK_PARAMS}


def n_blocks(params):
    """How many blocks ``params`` holds."""
    return sum(1 for name in params if name.endswith(".wq"))


def init_params(config, rng):
    """Random starting weights as GPT-2 draws them: normal with std 0.02, the two matrices that
    write into the stream (W_O, W_2) scaled down by sqrt(2L) so the stream's size does not grow with
    depth; layer-norm gains 1, biases 0."""
    N, P, D, F, H, K = config.vocab, config.context, config.d_model, config.d_ff, config.heads, config.d_head
    std, out_std = 0.02, 0.02 / math.sqrt(2 * config.layers)
    p = {"w_e": rng.normal(0.0, std, (N, D)), "w_p": rng.normal(0.0, std, (P, D))}
    for layer in range(1, config.layers + 1):
        b = {"ln1_gain": np.ones(D), "ln1_bias": np.zeros(D),
             "wq": rng.normal(0.0, std, (H, D, K)), "wk": rng.normal(0.0, std, (H, D, K)),
             "wv": rng.normal(0.0, std, (H, D, K)), "wo": rng.normal(0.0, out_std, (H * K, D)),
             "ln2_gain": np.ones(D), "ln2_bias": np.zeros(D),
             "w1": rng.normal(0.0, std, (D, F)), "b1": np.zeros(F),
             "w2": rng.normal(0.0, out_std, (F, D)), "b2": np.zeros(D)}
        p.update({f"b{layer}.{n}": b[n] for n in BLOCK_PARAMS})
    p.update({"lnf_gain": np.ones(D), "lnf_bias": np.zeros(D), "w_u": rng.normal(0.0, std, (D, N))})
    return p


@dataclass(frozen=True)
class GPTCache:
    """Every block's cache (``blocks[i].attn.attn.weights`` is what figures draw), the final norm's,
    and the normalised stream the unembedding read."""
    embed: EmbedCache
    blocks: tuple        # one block.BlockCache per block
    lnf: object          # block.LayerNormCache
    stream: np.ndarray   # (B*T, D) after the final layer norm
    w_u: np.ndarray      # (D, N)
    context: int         # P: rows of w_p, of which the first T were read


def gpt_forward(params, tokens):
    """Next-token logits at every position, classes first: (N, B*T), the layout cross_entropy_forward
    reduces fastest (give it logits[None] with axis=1). ``tokens`` is (B, T) with T <= context."""
    tokens = np.asarray(tokens)  # (B, T)
    if tokens.shape[-1] > params["w_p"].shape[0]:
        raise ValueError(f"{tokens.shape[-1]} tokens do not fit a context of {params['w_p'].shape[0]}")
    x, embed = embed_forward(tokens, params["w_e"], params["w_p"])  # (B, T, D)
    blocks = []
    for layer in range(1, n_blocks(params) + 1):
        x, cache = block_forward(x, block_params(params, layer))  # (B, T, D)
        blocks.append(cache)
    stream, lnf = layernorm_forward(x.reshape(-1, x.shape[-1]), params["lnf_gain"], params["lnf_bias"])  # (B*T, D)
    logits = params["w_u"].T @ stream.T  # (N, B*T)
    return logits, GPTCache(embed, tuple(blocks), lnf, stream, params["w_u"], params["w_p"].shape[0])


def gpt_backward(dlogits, cache):
    """Gradients for every parameter, given dLoss/dlogits (N, B*T)."""
    grads = {"w_u": cache.stream.T @ dlogits.T}  # (D, N)
    g = layernorm_backward(dlogits.T @ cache.w_u.T, cache.lnf)  # (B*T, D)
    grads["lnf_gain"], grads["lnf_bias"] = g["gain"], g["bias"]
    dx = g["x"].reshape(cache.embed.tokens.shape + (-1,))  # (B, T, D)
    for layer in range(len(cache.blocks), 0, -1):
        g = block_backward(dx, cache.blocks[layer - 1])
        grads.update({f"b{layer}.{n}": g[n] for n in BLOCK_PARAMS})
        dx = g["x"]  # (B, T, D) the residual road and the sublayers' together (block_backward)
    grads.update(embed_backward(dx, cache.embed))
    w_p = np.zeros((cache.context, dx.shape[-1]))  # (P, D) positions past T were not read
    w_p[:dx.shape[-2]] = grads["w_p"]
    grads["w_p"] = w_p
    return grads


def head_weights(cache, layer):
    """Attention weights of every head of block ``layer`` (from 1): (B, H, T, T)."""
    w = cache.blocks[layer - 1].attn.attn.weights
    return w.reshape((-1,) + w.shape[-3:])  # (B, H, T, T)


# ---- generation with the key-value cache ---------------------------------------------

def _step(params, token, position, kvs):
    """One token through every block, reusing each block's cached keys and values: the next-token
    logits (N,), each block's head weights over the positions so far [(H, t)] and the grown caches."""
    x = params["w_e"][token] + params["w_p"][position]  # (D,)
    weights, grown = [], []
    for layer in range(1, n_blocks(params) + 1):
        p = block_params(params, layer)
        n1, _ = layernorm_forward(x, p["ln1_gain"], p["ln1_bias"])  # (D,)
        heads, w, kv = decode_step(n1, p["wq"], p["wk"], p["wv"], kvs[layer - 1])  # (H*V,), (H, t)
        x = x + heads @ p["wo"]  # (D,)
        n2, _ = layernorm_forward(x, p["ln2_gain"], p["ln2_bias"])  # (D,)
        x = x + ffn_forward(n2, p["w1"], p["b1"], p["w2"], p["b2"])[0]  # (D,)
        weights.append(w)
        grown.append(kv)
    out, _ = layernorm_forward(x, params["lnf_gain"], params["lnf_bias"])  # (D,)
    return out @ params["w_u"], weights, grown  # (N,)


def prefill(params, tokens):
    """The key-value caches after reading ``tokens`` one at a time, and the logits (N,) and head
    weights after the last: how generation starts, and restarts when the context is full."""
    kvs = [None] * n_blocks(params)
    for position, token in enumerate(tokens):
        logits, weights, kvs = _step(params, token, position, kvs)
    return logits, weights, kvs


def next_probabilities(logits, temperature, top_k):
    """softmax(logits / temperature) over the top_k largest logits (all when top_k is 0): (N,).
    Temperature must be above 0 here; at 0, sampling takes the largest logit instead."""
    z = logits / temperature  # (N,)
    if 0 < top_k < len(z):
        z = np.where(z >= np.sort(z)[-top_k], z, -np.inf)  # ties with the k-th largest stay in
    probs = np.exp(z - z.max())
    return probs / probs.sum()  # (N,)


def _sample(logits, temperature, top_k, rng):
    """One token drawn from next_probabilities(logits, temperature, top_k), and the probabilities it
    was drawn from (N,). Temperature 0 takes the largest."""
    if temperature < 0:
        raise ValueError(f"temperature must be 0 or more, not {temperature}")
    if temperature == 0:
        probs = np.zeros_like(logits)
        probs[int(np.argmax(logits))] = 1.0
        return int(np.argmax(logits)), probs
    probs = next_probabilities(logits, temperature, top_k)  # (N,)
    return int(rng.choice(len(probs), p=probs)), probs


@dataclass
class Generation:
    """What generate() wrote and what a figure draws for each new token (all lists, one item per token)."""
    tokens: list         # the prompt followed by the generated tokens
    weights: list        # item i: per block, the head weights (H, t) of the step that chose token i
    starts: list         # item i: the position in ``tokens`` of the first token that step could read
    top: list            # item i: [(token, probability)] of the most likely next tokens, largest first
    logits: list         # item i: (N,) the logits token i was drawn from
    cached_scores: int = 0      # scores computed with the cache, per block and head
    recomputed_scores: int = 0  # scores a model without one computes for the same text, per block and head
    recomputed_allowed: int = 0  # the same, counting only the scores its mask lets through


def generate(params, prompt_tokens, n, temperature=1.0, top_k=0, seed=0, show=5):
    """``n`` tokens after ``prompt_tokens``, drawn one at a time with the key-value cache.

    The model reads at most ``context`` tokens. When its window is full, it keeps the newer half,
    reads that again from position 0 (new positions, so new keys and values) and goes on: its logits
    equal a full forward pass over the same window at every step (tests/engine/test_gpt.py). The count
    beside is a program without a cache, which runs that full pass before every token: it computes
    the whole square of the window's scores, then masks it; recomputed_allowed counts only the
    scores the mask lets through, as a program that skipped the rest would (chapter 6 gives both).
    """
    context = params["w_p"].shape[0]
    if not 0 < len(prompt_tokens) <= context:
        raise ValueError(f"the prompt must hold 1 to {context} tokens, not {len(prompt_tokens)}")
    rng = np.random.default_rng(seed)
    tokens = [int(t) for t in prompt_tokens]
    start = 0
    logits, weights, kvs = prefill(params, tokens)
    w = len(tokens)
    out = Generation(tokens, [], [], [], [], cached_scores=w * (w + 1) // 2)
    for i in range(n):
        m = len(tokens) - start  # the window a full pass would read
        out.recomputed_scores += m * m
        out.recomputed_allowed += m * (m + 1) // 2
        token, probs = _sample(logits, temperature, top_k, rng)
        out.weights.append(weights)
        out.starts.append(start)
        out.top.append([(int(j), float(probs[j])) for j in np.argsort(-probs, kind="stable")[:show]])
        out.logits.append(logits)
        tokens.append(token)
        if i == n - 1:
            break  # nothing more to draw: the last token's keys and values are never needed
        if len(tokens) - start > context:  # the window is full: keep its newer half and read it again
            start = len(tokens) - context // 2
            logits, weights, kvs = prefill(params, tokens[start:])
            w = len(tokens) - start
            out.cached_scores += w * (w + 1) // 2
        else:
            logits, weights, kvs = _step(params, token, len(tokens) - 1 - start, kvs)
            out.cached_scores += len(tokens) - start
    return out


def generate_uncached(params, prompt_tokens, n, temperature=1.0, top_k=0, seed=0):
    """The tokens generate() writes, written as a program without a key-value cache does: a full
    forward pass over the window before every token (the work generate() counts as recomputed_scores).
    The same window, draws and seed, so the same tokens; what it is for is timing the two."""
    context = params["w_p"].shape[0]
    if not 0 < len(prompt_tokens) <= context:
        raise ValueError(f"the prompt must hold 1 to {context} tokens, not {len(prompt_tokens)}")
    rng = np.random.default_rng(seed)
    tokens, start = [int(t) for t in prompt_tokens], 0
    for _ in range(n):
        logits, _ = gpt_forward(params, np.array([tokens[start:]]))  # (N, T)
        token, _ = _sample(logits[:, -1], temperature, top_k, rng)
        tokens.append(token)
        if len(tokens) - start > context:  # the window is full: keep its newer half, as generate() does
            start = len(tokens) - context // 2
    return tokens
