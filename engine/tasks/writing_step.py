"""The writing model's training step, fused: gpt_forward, the cross-entropy and gpt_backward of
writing.loss_and_grads in the same float64 arithmetic, on buffers allocated once per run.

numpy in Pyodide has no BLAS, so its matmul is a plain loop, slow when an operand is read across
rows. Here every activation is stored features first, (width, positions), so each dense product
is an einsum whose innermost loop runs along the 512 positions of a batch, contiguous in every
operand: a product's columns, a weight gradient's dot products. Per-position reductions (layer
norm, softmax over classes) then run over the outer axis as whole-array additions, and the
embedding's gradient is summed by one gather and one np.add.reduceat (grammar_step.scatter_plan).
Attention runs in spans of queries, each reading the keys up to its last, so most of the scores
a causal mask would hide are never computed. With `dropout`, each block's two sublayer outputs
lose that share of their entries before they join the stream, the rest scaled up to keep its
size (Srivastava et al. 2014; where GPT-2 drops its residual branches), by a mask drawn from the
step's own seed, so a step gives the same numbers whenever it runs. The buffers take the dtype of
the weights they are bound to: float32 halves the time of a step on CPython.
Shapes: S steps, B windows, T positions, N = B*T, D width, F feed-forward width, H heads, K head
width, C = 3HK (queries, keys, values of every head), V vocabulary.
"""
import functools
import math

import numpy as np

from engine.block import LN_EPS
from engine.gpt import n_blocks
from engine.tasks.grammar_step import HAS_BLAS, scatter_plan
from engine.train import FusedStep, pack

_GELU_C = math.sqrt(2.0 / math.pi)


def product(spec, a, b, out):
    """The product of two matrices that einsum's ``spec`` names (the result's rows from ``a``, its
    columns from ``b``), into ``out``: by einsum without BLAS, whose loops run along the contiguous
    positions; by matmul with BLAS, which takes transposed operands as they are."""
    if not HAS_BLAS:
        return np.einsum(spec, a, b, out=out)
    operands, result = spec.split("->")
    sa, sb = operands.split(",")
    return np.matmul(a if sa[0] == result[0] else a.T, b if sb[1] == result[1] else b.T, out=out)


class _Block:
    """One block's buffers: what its forward pass leaves for the backward pass, and scratch."""

    def __init__(self, D, F, H, K, B, T, spans, dtype):
        N = B * T
        empty = functools.partial(np.empty, dtype=dtype)
        self.xhat1, self.n1 = empty((D, N)), empty((D, N))  # (D, N) normalised input, LN1's output
        self.rstd1 = empty((1, N))
        self.w_all = empty((D, 3, H, K))  # (D, 3, H, K) wq / sqrt(K), wk, wv side by side
        self.qkv = empty((3, H, K, B, T))  # (C, N) as (3, H, K, B, T)
        # matmul without BLAS is fast only on contiguous operands: the heads' matrices get a copy each
        self.qkv_h = empty((3, H, B, T, K))
        self.q, self.k, self.v = self.qkv_h  # (H, B, T, K)
        self.k_t, self.v_t = self.k.swapaxes(-1, -2), self.v.swapaxes(-1, -2)  # (H, B, K, T) views
        # per span of queries, the scores and then attention weights over the keys up to its last
        self.weights = [empty((H, B, b - a, b)) for a, b in spans]  # (H, B, R, <=T)
        self.heads_h = empty((H, B, T, K))  # (H, B, T, K) the heads' outputs
        self.heads = empty((H, K, B, T))  # (HK, N) the same, side by side
        self.mid = empty((D, N))  # (D, N) the stream after attention
        self.xhat2, self.n2 = empty((D, N)), empty((D, N))
        self.rstd2 = empty((1, N))
        self.h, self.s, self.a = empty((F, N)), empty((F, N)), empty((F, N))  # pre-activation, σ(2u), GELU
        self.out = empty((D, N))  # (D, N) the stream after the block
        self.keep = empty((2, D, N))  # (2, D, N) dropout's masks on the two sublayers' outputs, 0 or 1 / (1 - p)


class WritingStep(FusedStep):
    """``loss_and_grads(views, step)`` for Training on one run's batches (S, B, T+1): the mean
    next-character cross-entropy and its gradient as one flat vector in the packed parameter order."""

    def __init__(self, batches, query_spans=2, dropout=0.0, seed=0):
        self.query_spans = query_spans  # causal attention in spans of queries: the later keys' scores are never computed
        self.dropout, self.seed = dropout, seed  # step s's masks come from the generator seeded (seed, s)
        S, B, T1 = batches.shape
        T = T1 - 1
        self.shape = (S, B, T)
        N = B * T
        self.inputs = np.ascontiguousarray(batches[:, :, :-1]).reshape(S, N)  # (S, N)
        self.targets = np.ascontiguousarray(batches[:, :, 1:]).reshape(S, N)  # (S, N)

    def _bind(self, views):
        """Allocate the buffers and views every step reuses."""
        S, B, T = self.shape
        N = B * T
        V, D = views["w_e"].shape
        L = n_blocks(views)
        H, _, K = views["b1.wq"].shape
        F = views["b1.w1"].shape[1]
        self.views, self.sizes = views, (N, V, D, L, H, K, F)
        dtype = views["w_e"].dtype  # the run's: float64, or float32 where a recipe trains in it
        empty = functools.partial(np.empty, dtype=dtype)
        self.scale = 1.0 / math.sqrt(K)
        self.at = self.targets * N + np.arange(N)  # (S, N) flat index of each target logit in (V, N)
        self.order, self.starts = scatter_plan(self.inputs[:, None, :], V)  # (S, N + V), (S, V)
        R = -(-T // self.query_spans)
        self.spans = [(a, min(a + R, T)) for a in range(0, T, R)]  # queries [a, b) read keys [0, b)
        causal = np.where(np.tril(np.ones((T, T), bool)), 0.0, -np.inf).astype(dtype)  # (Tq, Tk)
        self.causal = [causal[a:b, :b] for a, b in self.spans]
        self.blocks = [_Block(D, F, H, K, B, T, self.spans, dtype) for _ in range(L)]
        self.x0 = empty((D, N))  # (D, N) the embeddings
        self.rows = empty((B, T, D))  # (B, T, D) token rows plus position rows
        self.xhatf, self.nf = empty((D, N)), empty((D, N))
        self.rstdf = empty((1, N))
        self.logits = empty((V, N))  # (V, N) logits, then minus each column's max
        self.probs = empty((V, N))  # (V, N) softmax, then dLoss/dlogits
        self.col = empty((1, N))  # (1, N) a max, sum or mean over the outer axis
        self.col2 = empty((1, N))
        self.row = empty((H, B, T, 1))  # (H, B, T, 1) a max or sum per attention row
        self.part = empty((H, B, T, K))  # (H, B, T, K) a span's share of dk or dv
        self.nll = empty(N)
        self.picked = empty(N)
        self.wide = empty((D, N)), empty((D, N)), empty((D, N))  # (D, N) scratch
        self.ff = empty((F, N)), empty((F, N)), empty((F, N))  # (F, N) scratch
        self.dx, self.dmid = empty((D, N)), empty((D, N))  # (D, N) dLoss/dstream after and inside a block
        self.dbranch = empty((D, N))  # (D, N) dLoss/d(a sublayer's output before dropout)
        self.dqkv = empty((3, H, K, B, T))  # (C, N)
        self.dqkv_h = empty((3, H, B, T, K))
        self.dq, self.dk, self.dv = self.dqkv_h  # (H, B, T, K)
        self.dheads = empty((H, K, B, T))  # (HK, N)
        self.dheads_h = empty((H, B, T, K))
        self.dscores = [np.empty_like(w) for w in self.blocks[0].weights]  # (H, B, R, <=T)
        self.tmp = [np.empty_like(w) for w in self.blocks[0].weights]
        self.g_all = empty((D, 3, H, K))  # (D, C) gradient of w_all
        self.dx_rows = empty((N + 1, D))  # (N + 1, D) dLoss/dembeddings per position, and a zero row
        self.dx_rows[N] = 0.0
        self.sorted = empty((self.order.shape[1], D))  # (N + V, D) rows in token order
        self.grad, self.g = pack(views, dtype)  # (P,) the gradient in the packed order, and views of it by name

    # ---- pieces, each on (width, N) arrays -------------------------------------------------

    def _layernorm(self, x, gain, bias, xhat, rstd, out):
        """Layer norm of every column of x (D, N): as block.layernorm_forward, features first."""
        D = x.shape[0]
        np.add.reduce(x, axis=0, keepdims=True, out=self.col)
        self.col /= D  # (1, N) mean
        np.subtract(x, self.col, out=xhat)  # (D, N) centred
        np.multiply(xhat, xhat, out=out)
        np.add.reduce(out, axis=0, keepdims=True, out=rstd)
        rstd /= D  # (1, N) the biased variance
        rstd += LN_EPS
        np.sqrt(rstd, out=rstd)
        np.divide(1.0, rstd, out=rstd)  # (1, N)
        xhat *= rstd  # (D, N)
        np.multiply(xhat, gain[:, None], out=out)
        out += bias[:, None]  # (D, N)

    def _layernorm_backward(self, dout, gain, xhat, rstd, g_gain, g_bias, dx):
        """As block.layernorm_backward: dx (D, N) written, gain and bias gradients into their views."""
        D = xhat.shape[0]
        dxhat, prod = self.wide[1], self.wide[2]
        np.multiply(dout, xhat, out=prod)
        np.add.reduce(prod, axis=1, out=g_gain)  # (D,)
        np.add.reduce(dout, axis=1, out=g_bias)  # (D,)
        np.multiply(dout, gain[:, None], out=dxhat)  # (D, N)
        np.add.reduce(dxhat, axis=0, keepdims=True, out=self.col)
        self.col /= D  # (1, N) mean of dxhat
        np.multiply(dxhat, xhat, out=prod)
        np.add.reduce(prod, axis=0, keepdims=True, out=self.col2)
        self.col2 /= D  # (1, N) mean of dxhat * xhat
        np.multiply(xhat, self.col2, out=prod)
        np.subtract(dxhat, self.col, out=dx)
        dx -= prod
        dx *= rstd  # (D, N)

    # ---- the step ---------------------------------------------------------------------------

    def forward(self, step):
        """The loss of one step's batch; leaves what backward needs in the buffers."""
        p = self.views
        N, V, D, L, H, K, F = self.sizes
        S, B, T = self.shape
        p["w_e"].take(self.inputs[step], axis=0, out=self.rows.reshape(N, D), mode="clip")  # (N, D)
        self.rows += p["w_p"][:T]  # (B, T, D)
        np.copyto(self.x0, self.rows.reshape(N, D).T)  # (D, N)
        x = self.x0
        if self.dropout:
            rng = np.random.default_rng([self.seed, step])
            for c in self.blocks:
                rng.random(out=c.keep, dtype=c.keep.dtype)
                np.greater_equal(c.keep, self.dropout, out=c.keep)  # 1.0 kept, 0.0 dropped
                c.keep *= 1.0 / (1.0 - self.dropout)
        for layer, c in enumerate(self.blocks, 1):
            b = f"b{layer}."
            self._layernorm(x, p[b + "ln1_gain"], p[b + "ln1_bias"], c.xhat1, c.rstd1, c.n1)
            np.multiply(p[b + "wq"].transpose(1, 0, 2), self.scale, out=c.w_all[:, 0])  # (D, H, K)
            np.copyto(c.w_all[:, 1], p[b + "wk"].transpose(1, 0, 2))
            np.copyto(c.w_all[:, 2], p[b + "wv"].transpose(1, 0, 2))
            product("dc,dn->cn", c.w_all.reshape(D, -1), c.n1, out=c.qkv.reshape(-1, N))  # (C, N)
            np.copyto(c.qkv_h, c.qkv.transpose(0, 1, 3, 4, 2))  # (3, H, B, T, K)
            for (a, e), s, causal in zip(self.spans, c.weights, self.causal):
                row = self.row[:, :, a:e]  # (H, B, R, 1)
                np.matmul(c.q[:, :, a:e], c.k_t[..., :e], out=s)  # (H, B, R, e) already scaled
                s += causal  # later keys -inf
                np.maximum.reduce(s, axis=-1, keepdims=True, out=row)
                s -= row
                np.exp(s, out=s)
                np.add.reduce(s, axis=-1, keepdims=True, out=row)
                s /= row  # (H, B, R, e) attention weights
                np.matmul(s, c.v[:, :, :e], out=c.heads_h[:, :, a:e])  # (H, B, R, K)
            np.copyto(c.heads, c.heads_h.transpose(0, 3, 1, 2))  # (HK, N)
            product("cd,cn->dn", p[b + "wo"], c.heads.reshape(-1, N), out=c.mid)  # (D, N)
            if self.dropout:
                c.mid *= c.keep[0]
            c.mid += x
            self._layernorm(c.mid, p[b + "ln2_gain"], p[b + "ln2_bias"], c.xhat2, c.rstd2, c.n2)
            product("df,dn->fn", p[b + "w1"], c.n2, out=c.h)  # (F, N)
            c.h += p[b + "b1"][:, None]
            # GELU's tanh form, 0.5 h (1 + tanh u) with u = c (h + 0.044715 h^3), computed as h σ(2u)
            # (the same function): one exp in place of the tanh, which costs twice an exp in Pyodide's numpy
            u = self.ff[0]
            np.multiply(c.h, c.h, out=u)
            u *= -2 * _GELU_C * 0.044715
            u -= 2 * _GELU_C
            u *= c.h  # (F, N) -2u
            with np.errstate(over="ignore"):  # far below 0, exp(-2u) is inf and σ(2u) 0, as it should be
                np.exp(u, out=c.s)
            c.s += 1.0
            np.divide(1.0, c.s, out=c.s)  # (F, N) σ(2u)
            np.multiply(c.h, c.s, out=c.a)  # (F, N) GELU
            product("fd,fn->dn", p[b + "w2"], c.a, out=c.out)  # (D, N)
            c.out += p[b + "b2"][:, None]
            if self.dropout:
                c.out *= c.keep[1]
            c.out += c.mid
            x = c.out
        self._layernorm(x, p["lnf_gain"], p["lnf_bias"], self.xhatf, self.rstdf, self.nf)
        z, e = self.logits, self.probs
        product("dv,dn->vn", p["w_u"], self.nf, out=z)  # (V, N)
        np.maximum.reduce(z, axis=0, keepdims=True, out=self.col)
        z -= self.col  # (V, N) each column's largest logit is 0
        np.exp(z, out=e)
        np.add.reduce(e, axis=0, keepdims=True, out=self.col)  # (1, N)
        z.take(self.at[step], out=self.picked, mode="clip")  # (N,)
        np.log(self.col[0], out=self.nll)
        self.nll -= self.picked  # (N,) -log softmax at each target
        e /= self.col  # (V, N) probabilities
        return float(np.add.reduce(self.nll)) / N

    def backward(self, step):
        """The flat gradient of forward(step)'s loss, written into self.grad."""
        p, g = self.views, self.g
        N, V, D, L, H, K, F = self.sizes
        S, B, T = self.shape
        d = self.probs
        d.ravel()[self.at[step]] -= 1.0  # a column's targets are distinct entries, so no repeats to sum
        d *= 1.0 / N  # (V, N) dLoss/dlogits
        product("dn,vn->dv", self.nf, d, out=g["w_u"])  # (D, V)
        dnf, dx, dmid = self.wide[0], self.dx, self.dmid
        product("dv,vn->dn", p["w_u"], d, out=dnf)  # (D, N)
        self._layernorm_backward(dnf, p["lnf_gain"], self.xhatf, self.rstdf, g["lnf_gain"], g["lnf_bias"], dx)
        for layer in range(L, 0, -1):
            c, b = self.blocks[layer - 1], f"b{layer}."
            # the feed-forward layer; dx is dLoss/dout, and becomes dLoss/dmid
            branch = np.multiply(dx, c.keep[1], out=self.dbranch) if self.dropout else dx  # (D, N)
            np.add.reduce(branch, axis=1, out=g[b + "b2"])
            product("fn,dn->fd", c.a, branch, out=g[b + "w2"])  # (F, D)
            dh, u, tt = self.ff
            product("fd,dn->fn", p[b + "w2"], branch, out=dh)  # (F, N) dLoss/da
            # GELU's slope, block.gelu_backward's 0.5 (1 + t) + 0.5 h (1 - t^2) du/dh with t = tanh u
            # = 2σ(2u) - 1: σ(2u) + 2 h σ(2u) (1 - σ(2u)) du/dh
            np.multiply(c.h, c.h, out=u)
            u *= 3 * 0.044715
            u += 1.0
            u *= 2 * _GELU_C  # (F, N) 2 du/dh
            u *= c.h
            np.subtract(1.0, c.s, out=tt)
            tt *= c.s  # (F, N) σ(2u) (1 - σ(2u))
            u *= tt
            u += c.s
            dh *= u  # (F, N) dLoss/dh
            np.add.reduce(dh, axis=1, out=g[b + "b1"])
            product("dn,fn->df", c.n2, dh, out=g[b + "w1"])  # (D, F)
            dn2 = self.wide[0]
            product("df,fn->dn", p[b + "w1"], dh, out=dn2)  # (D, N)
            self._layernorm_backward(dn2, p[b + "ln2_gain"], c.xhat2, c.rstd2, g[b + "ln2_gain"], g[b + "ln2_bias"], dmid)
            dmid += dx  # (D, N) the residual road and the sublayer's
            # attention
            branch = np.multiply(dmid, c.keep[0], out=self.dbranch) if self.dropout else dmid  # (D, N)
            product("cn,dn->cd", c.heads.reshape(-1, N), branch, out=g[b + "wo"])  # (HK, D)
            product("cd,dn->cn", p[b + "wo"], branch, out=self.dheads.reshape(-1, N))  # (HK, N)
            np.copyto(self.dheads_h, self.dheads.transpose(0, 2, 3, 1))  # (H, B, T, K)
            self.dk.fill(0.0)
            self.dv.fill(0.0)
            for (a, e), w, ds, tmp in zip(self.spans, c.weights, self.dscores, self.tmp):
                dh, row, part = self.dheads_h[:, :, a:e], self.row[:, :, a:e], self.part[:, :, :e]  # (H, B, R, .)
                np.matmul(w.swapaxes(-1, -2), dh, out=part)  # (H, B, e, K)
                self.dv[:, :, :e] += part
                np.matmul(dh, c.v_t[..., :e], out=ds)  # (H, B, R, e) dLoss/dweights
                np.multiply(ds, w, out=tmp)
                np.add.reduce(tmp, axis=-1, keepdims=True, out=row)
                ds -= row
                ds *= w  # (H, B, R, e) through the softmax; masked entries get 0
                np.matmul(ds, c.k[:, :, :e], out=self.dq[:, :, a:e])  # (H, B, R, K)
                np.matmul(ds.swapaxes(-1, -2), c.q[:, :, a:e], out=part)  # (H, B, e, K)
                self.dk[:, :, :e] += part
            np.copyto(self.dqkv, self.dqkv_h.transpose(0, 1, 4, 2, 3))  # (3, H, K, B, T)
            dqkv = self.dqkv.reshape(-1, N)  # (C, N)
            product("dn,cn->dc", c.n1, dqkv, out=self.g_all.reshape(D, -1))  # (D, C)
            np.multiply(self.g_all[:, 0].transpose(1, 0, 2), self.scale, out=g[b + "wq"])  # (H, D, K)
            np.copyto(g[b + "wk"], self.g_all[:, 1].transpose(1, 0, 2))
            np.copyto(g[b + "wv"], self.g_all[:, 2].transpose(1, 0, 2))
            dn1 = self.wide[0]
            product("dc,cn->dn", c.w_all.reshape(D, -1), dqkv, out=dn1)  # (D, N)
            self._layernorm_backward(dn1, p[b + "ln1_gain"], c.xhat1, c.rstd1, g[b + "ln1_gain"], g[b + "ln1_bias"], dx)
            dx += dmid  # (D, N) dLoss/dx of the block
        # the embeddings: positions summed over windows, tokens summed onto their rows
        g["w_p"][T:] = 0.0  # positions past T were not read
        np.add.reduce(dx.reshape(D, B, T), axis=1, out=g["w_p"][:T].T)  # (D, T)
        np.copyto(self.dx_rows[:N], dx.T)  # (N, D)
        self.dx_rows.take(self.order[step], axis=0, out=self.sorted, mode="clip")
        np.add.reduceat(self.sorted, self.starts[step], axis=0, out=g["w_e"])  # (V, D)
        return self.grad
