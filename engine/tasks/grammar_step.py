"""The grammar model's training step, fused: both heads, every sentence and both readouts in a few
whole-array numpy calls writing into buffers allocated once per run.

The arrays are small (32 sentences of 8 words, 2 heads of width 6), so the time goes to the fixed
cost of each numpy call, which wasm (Pyodide) multiplies several times over. This is the model and
loss of grammar.loss_and_grads in the same precision, in 54 calls a step instead of 139: a word's
input is one-hot (word, position), so its queries, keys and values are two rows of the projection
matrices added, gathered by index instead of a matrix product, and the projections' gradient is
the same rows summed back by one gather and one np.add.reduceat.
Shapes use H heads, B sentences, T positions, K query/key width, V value width, C = 2K + V,
D input width (W words + T positions), R = D + 1 (a zero row for padding), N = B*T, F = H*V.
"""
import math
import sys

import numpy as np

from engine.train import FusedStep

LOG2_E = 1.0 / math.log(2.0)  # exp(x) = exp2(x * LOG2_E); wasm's float32 exp is several times slower than its exp2
# numpy in Pyodide has no BLAS: its matmul is a plain loop, slow when the summed axis is strided, while
# einsum's axpy and dot loops run these readout products several times faster; with BLAS, matmul wins.
HAS_BLAS = sys.platform != "emscripten"


def step_rows(words, n_words, zero_row):
    """Per step, the two projection rows each word adds: its word's and its position's; words past
    the end of a sentence (-1) read the zero row twice. words (S, B, T) -> (S, 2, N)."""
    S, B, T = words.shape
    real = words >= 0  # (S, B, T)
    word_row = np.where(real, words, zero_row)  # (S, B, T)
    pos_row = np.where(real, n_words + np.arange(T), zero_row)  # (S, B, T)
    return np.stack((word_row, pos_row), axis=1).reshape(S, 2, B * T)  # (S, 2, N)


def scatter_plan(rows, n_rows):
    """How to sum each position's gradient back onto the table rows it read, as one gather and one
    np.add.reduceat (np.add.at is many times slower): per step, the entries of a gradient with a zero
    row appended (N + 1, ...) in table-row order, each row's run starting with one zero entry so that
    no run is empty. rows (S, G, N), G reads per position -> order (S, GN + R), starts (S, R)."""
    S, G, N = rows.shape
    target = np.concatenate((np.arange(n_rows)[None].repeat(S, 0), rows.reshape(S, G * N)), axis=1)  # (S, R + GN)
    source = np.concatenate((np.full(n_rows, N), np.tile(np.arange(N), G)))  # (R + GN,) the zero row, then each position G times
    small = target.astype(np.int16 if n_rows < 2 ** 15 else np.intp)  # numpy radix-sorts 16-bit keys, 10x faster
    order = np.argsort(small, axis=1, kind="stable")  # (S, R + GN) table-row order; each row's zero entry first
    counts = np.bincount((target + n_rows * np.arange(S)[:, None]).ravel(), minlength=S * n_rows).reshape(S, n_rows)  # (S, R)
    starts = np.concatenate((np.zeros((S, 1), np.intp), np.cumsum(counts, axis=1)[:, :-1]), axis=1)  # (S, R)
    return source[order], starts


class GrammarStep(FusedStep):
    """``loss_and_grads(views, step)`` for Training on one run's Batches: the mean cross-entropy of
    both readouts and its gradient, returned as one flat vector in the packed parameter order."""

    def __init__(self, data, dtype, blas=None):
        self.dtype = dt = np.dtype(dtype)
        self.blas = HAS_BLAS if blas is None else blas  # readout products by matmul (BLAS) or einsum (none)
        S, B, T = data.rows.shape
        D = data.table.shape[1]
        W = D - T
        self.shape = (S, B, T, D, W)
        self.rows = step_rows(data.sentences.words.reshape(S, B, T), W, D)  # (S, 2, N) rows of the (R, H, C) table
        self.order, self.starts = scatter_plan(self.rows, D + 1)  # (S, 2N + R), (S, R)
        valid = data.valid.reshape(S, 1, B * T)  # (S, 1, N)
        self.valid = valid.astype(dt)  # (S, 1, N) 1 for real words: the rows the loss counts
        self.count = [max(2.0 * n, 1.0) for n in valid.sum(axis=(1, 2)).tolist()]  # both readouts of each real word
        hide = np.where(data.valid, 0.0, -np.inf).astype(dt)  # (S, B, T) -inf on padding keys
        self.key_bias = np.ascontiguousarray(hide.transpose(0, 2, 1)).reshape(S, T, 1, B, 1)  # (S, T, 1, B, 1) as scores lie in memory
        tw = data.target_words.reshape(S, 2, B * T)  # (S, 2, N)
        self.at = (np.arange(2)[:, None] * W + tw) * (B * T) + np.arange(B * T)  # (S, 2, N) flat index of each target logit

    def _bind(self, views):
        """Allocate the buffers and the views into them that every step reuses."""
        dt = self.dtype
        S, B, T, D, W = self.shape
        H, _, K = views["wq"].shape
        V = views["wv"].shape[2]
        C, N, F = 2 * K + V, B * T, H * V
        self.views, self.scale = views, 1.0 / math.sqrt(K)
        self.src = [views[n].transpose(1, 0, 2) for n in ("wq", "wk", "wv")]  # (D, H, K|K|V)
        self.table = np.zeros((D + 1, H, C), dt)  # (R, H, C) wq/sqrt(K), wk, wv side by side per head; row D stays 0
        self.dst = [self.table[:D, :, :K], self.table[:D, :, K:2 * K], self.table[:D, :, 2 * K:]]  # (D, H, K|K|V)
        self.gathered = np.empty((2, N, H, C), dt)  # (2, N, H, C) word rows, position rows
        self.word_part, self.pos_part = self.gathered  # (N, H, C) views
        self.qkv = np.empty((N, H, C), dt)  # (N, H, C)
        qkv = self.qkv.reshape(B, T, H, C).transpose(2, 0, 1, 3)  # (H, B, T, C) view
        self.q, self.k, self.v = qkv[..., :K], qkv[..., K:2 * K], qkv[..., 2 * K:]  # (H, B, T, K|K|V)
        self.k_t, self.v_t = self.k.swapaxes(-1, -2), self.v.swapaxes(-1, -2)  # (H, B, K|V, T) views
        # Score-shaped buffers keep the key axis outermost in memory: a max or sum over each row's 8
        # keys then runs as 8 whole-array steps, not 512 tiny reductions (10x faster on CPython).
        self.scores = np.empty((T, H, B, T), dt)  # (T, H, B, T) keys, heads, sentences, queries
        self.weights = self.scores.transpose(1, 2, 3, 0)  # (H, B, T, T) view: scores, then attention weights
        self.weights_t = self.weights.swapaxes(-1, -2)  # (H, B, T, T) view
        self.row = np.empty((H, B, T, 1), dt)  # (H, B, T, 1) a max or a sum per row
        # The readouts contract over F or N; with both operands and the output contiguous along N,
        # einsum runs them as axpy and dot loops, several times faster in wasm than matmul's loops.
        self.out = np.empty((F, N), dt)  # (F, N) = (H, V, B, T) heads' outputs, one column per word
        self.out_h = self.out.reshape(H, V, B, T).transpose(0, 2, 3, 1)  # (H, B, T, V) view
        self.out_t = self.out.T  # (N, F) view
        self.readout = views["readout"].reshape(2 * W, F)  # (2W, F) view of the weights
        self.readout_t = self.readout.T  # (F, 2W) view
        self.bias = views["bias"].reshape(2 * W, 1)  # (2W, 1) view of the weights
        self.logits = np.empty((2 * W, N), dt)  # (2W, N) logits, then logits minus each column's max
        self.logits3 = self.logits.reshape(2, W, N)  # (2, W, N) view, classes in the middle
        self.probs = np.empty((2, W, N), dt)  # (2, W, N) softmax, then dLoss/dlogits
        self.probs2 = self.probs.reshape(2 * W, N)  # (2W, N) view
        self.probs_flat = self.probs.reshape(-1)  # (2*W*N,) view
        self.col = np.empty((2, 1, N), dt)  # (2, 1, N) a max or a sum over classes
        self.col2 = self.col.reshape(2, N)  # (2, N) view
        self.nll = np.empty((2, N), dt)  # (2, N)
        self.picked = np.empty((2, N), dt)  # (2, N) the shifted logit of each target
        self.w = np.empty((1, 1, N), dt)  # (1, 1, N) dLoss/dnll per word
        self.w1 = self.w[0]  # (1, N) view
        # gradients: one flat vector in the packed order (wq, wk, wv, readout, bias), with views
        sizes = [views[n].size for n in views]
        self.grad = np.empty(sum(sizes), dt)  # (P,)
        offsets = np.cumsum([0] + sizes)
        g = {n: self.grad[a:b].reshape(views[n].shape) for n, a, b in zip(views, offsets[:-1], offsets[1:])}
        self.g_qkv = [g[n].transpose(1, 0, 2) for n in ("wq", "wk", "wv")]  # (D, H, K|K|V) views
        self.g_readout = g["readout"].reshape(2 * W, F)  # (2W, F) view
        self.g_bias = g["bias"]  # (2, W) view
        self.dout = np.empty((F, N), dt)  # (F, N)
        self.dout_h = self.dout.reshape(H, V, B, T).transpose(0, 2, 3, 1)  # (H, B, T, V) view
        self.dqkv = np.zeros((N + 1, H * C), dt)  # (N + 1, H*C) laid out like qkv, and a zero row
        dqkv = self.dqkv[:N].reshape(B, T, H, C).transpose(2, 0, 1, 3)  # (H, B, T, C) view
        self.dq, self.dk, self.dv = dqkv[..., :K], dqkv[..., K:2 * K], dqkv[..., 2 * K:]  # (H, B, T, K|K|V)
        self.dscores = np.empty((T, H, B, T), dt).transpose(1, 2, 3, 0)  # (H, B, T, T)
        self.dscores_t = self.dscores.swapaxes(-1, -2)  # (H, B, T, T) view
        self.tmp = np.empty((T, H, B, T), dt).transpose(1, 2, 3, 0)  # (H, B, T, T)
        self.sorted = np.empty((self.order.shape[1], H * C), dt)  # (2N + R, H*C) dqkv rows in table-row order
        self.g_table = np.empty((D + 1, H * C), dt)  # (R, H*C) gradient of the table
        g_table = self.g_table.reshape(D + 1, H, C)[:D]  # (D, H, C) view
        self.g_src = [g_table[..., :K], g_table[..., K:2 * K], g_table[..., 2 * K:]]  # (D, H, K|K|V)

    def forward(self, step):
        """The loss of one step's batch; leaves what backward needs in the buffers."""
        # attention: queries, keys and values are two table rows per word, added
        np.multiply(self.src[0], self.scale, out=self.dst[0])  # (D, H, K) dividing queries by sqrt(K) divides every score
        np.copyto(self.dst[1], self.src[1])  # (D, H, K)
        np.copyto(self.dst[2], self.src[2])  # (D, H, V)
        self.table.take(self.rows[step], axis=0, out=self.gathered, mode="clip")  # (2, N, H, C) rows in range: no checked copy
        np.add(self.word_part, self.pos_part, out=self.qkv)  # (N, H, C)
        s = self.weights
        np.matmul(self.q, self.k_t, out=s)  # (H, B, T, T) already scaled
        self.scores += self.key_bias[step]  # (T, H, B, T) padding keys -inf
        np.maximum.reduce(s, axis=-1, keepdims=True, out=self.row)  # (H, B, T, 1)
        s -= self.row  # every row's largest entry is now 0
        s *= LOG2_E
        np.exp2(s, out=s)
        np.add.reduce(s, axis=-1, keepdims=True, out=self.row)  # (H, B, T, 1) row sums
        s /= self.row  # (H, B, T, T) attention weights
        np.matmul(s, self.v, out=self.out_h)  # (H, B, T, V) into (F, N)
        # both readouts, then the cross-entropy over the classes axis
        if self.blas:
            np.matmul(self.readout, self.out, out=self.logits)  # (2W, N)
        else:
            np.einsum("af,fn->an", self.readout, self.out, out=self.logits)  # (2W, N)
        self.logits += self.bias  # (2W, N)
        z, e = self.logits3, self.probs
        np.maximum.reduce(z, axis=1, keepdims=True, out=self.col)  # (2, 1, N)
        z -= self.col  # (2, W, N) largest logit of each column is 0
        np.multiply(z, LOG2_E, out=e)
        np.exp2(e, out=e)  # (2, W, N)
        np.add.reduce(e, axis=1, keepdims=True, out=self.col)  # (2, 1, N)
        self.logits.take(self.at[step], out=self.picked, mode="clip")  # (2, N)
        np.log(self.col2, out=self.nll)  # (2, N)
        self.nll -= self.picked  # (2, N) -log softmax at each target
        self.nll *= self.valid[step]  # (2, N) padding counts 0
        e /= self.col  # (2, W, N) probabilities
        return float(np.add.reduce(self.nll, axis=None)) / self.count[step]

    def backward(self, step):
        """The flat gradient of forward(step)'s loss, written into self.grad."""
        # dLoss/dlogits = (softmax - one_hot(target)) / count on real words, 0 on padding
        np.multiply(self.valid[step], 1.0 / self.count[step], out=self.w1)  # (1, N)
        d = self.probs
        d *= self.w  # (2, W, N)
        np.subtract.at(self.probs_flat, self.at[step], self.w1)  # (2, W, N) minus w at each target
        if self.blas:
            np.matmul(self.probs2, self.out_t, out=self.g_readout)  # (2W, F)
            np.matmul(self.readout_t, self.probs2, out=self.dout)  # (F, N)
        else:
            np.einsum("an,fn->af", self.probs2, self.out, out=self.g_readout)  # (2W, F)
            np.einsum("af,an->fn", self.readout, self.probs2, out=self.dout)  # (F, N)
        np.add.reduce(d, axis=2, out=self.g_bias)  # (2, W)
        # attention, every head and sentence at once
        w = self.weights  # (H, B, T, T)
        np.matmul(self.weights_t, self.dout_h, out=self.dv)  # (H, B, T, V)
        ds = self.dscores
        np.matmul(self.dout_h, self.v_t, out=ds)  # (H, B, T, T) dLoss/dweights
        np.multiply(ds, w, out=self.tmp)
        np.add.reduce(self.tmp, axis=-1, keepdims=True, out=self.row)  # (H, B, T, 1) <dweights, weights> per row
        ds -= self.row
        ds *= w  # (H, B, T, T) through the softmax; padding keys get 0
        np.matmul(ds, self.k, out=self.dq)  # (H, B, T, K)
        np.matmul(self.dscores_t, self.q, out=self.dk)  # (H, B, T, K)
        # each word's gradient back onto the two table rows it read
        self.dqkv.take(self.order[step], axis=0, out=self.sorted, mode="clip")  # (2N + R, H*C)
        np.add.reduceat(self.sorted, self.starts[step], axis=0, out=self.g_table)  # (R, H*C)
        np.multiply(self.g_src[0], self.scale, out=self.g_qkv[0])  # (D, H, K) through the scaled queries
        np.copyto(self.g_qkv[1], self.g_src[1])  # (D, H, K)
        np.copyto(self.g_qkv[2], self.g_src[2])  # (D, H, V)
        return self.grad
