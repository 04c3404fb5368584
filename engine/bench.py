"""Benchmark: seconds for the 400-step grammar training in numpy, and in PyTorch when importable.

Run as ``python -m engine.bench``; prints one JSON object. PyTorch is never a dependency:
it is imported lazily and skipped when missing.
"""
import dataclasses
import json
import sys
import time

import numpy as np

from engine.tasks.grammar import GrammarConfig, draw_batches, encode, init_params, train_grammar_model


def time_numpy(seed, config, repeats):
    """Best wall time of the whole run (batch drawing included), as the browser would do it."""
    best, run = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        run = train_grammar_model(seed=seed, config=config)
        best = min(best, time.perf_counter() - t0)
    return best, run


def time_torch(seed, config, repeats):
    """Same weights, same batches, same Adam settings, same precision, autograd for the gradients;
    on one thread, as the reader's Pyodide has one."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    start = init_params(rng, config)  # same draw order as train_grammar_model
    data = draw_batches(rng, config, config.steps).sentences
    x_all = torch.from_numpy(encode(data.words, np.dtype(config.dtype)))
    hidden_all = torch.from_numpy(~data.valid)[:, None, None, :]
    targets_all = torch.from_numpy(data.target_words)
    valid_all = torch.from_numpy(data.valid)
    b, W = config.batch_size, start["bias"].shape[1]

    def run_once():
        p = {n: torch.tensor(a.astype(config.dtype), requires_grad=True) for n, a in start.items()}
        opt = torch.optim.Adam(p.values(), lr=config.lr, betas=(0.9, 0.999), eps=1e-8)
        losses = []
        for step in range(config.steps):
            sl = slice(step * b, (step + 1) * b)
            x = x_all[sl].unsqueeze(1)  # (B, 1, T, D)
            q, k, v = x @ p["wq"], x @ p["wk"], x @ p["wv"]  # (B, H, T, K)
            scores = (q @ k.transpose(-1, -2)) / config.d_k ** 0.5  # (B, H, T, T)
            weights = scores.masked_fill(hidden_all[sl], float("-inf")).softmax(-1)
            out = (weights @ v).transpose(1, 2).flatten(2)  # (B, T, H*V)
            logits = (out @ p["readout"].flatten(0, 1).T + p["bias"].flatten()).unflatten(-1, (2, W))  # (B, T, 2, W)
            valid = valid_all[sl]
            loss = torch.nn.functional.cross_entropy(logits[valid].reshape(-1, W), targets_all[sl][valid].reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses

    best, losses = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        losses = run_once()
        best = min(best, time.perf_counter() - t0)
    return best, losses, torch.__version__, torch.get_num_threads()


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    repeats = int(args[0]) if args else 5
    config = GrammarConfig()
    np_seconds, run = time_numpy(0, config, repeats)
    report = {
        "task": "grammar two-head model",
        "steps": config.steps,
        "batch_size": config.batch_size,
        "repeats": repeats,
        "dtype": config.dtype,
        "numpy_seconds": round(np_seconds, 4),
        "numpy_version": np.__version__,
        "final_loss": run.losses[-1],
    }
    f64_seconds, _ = time_numpy(0, dataclasses.replace(config, dtype="float64"), repeats)
    report["numpy_float64_seconds"] = round(f64_seconds, 4)
    torch_result = time_torch(0, config, repeats)
    if torch_result is None:
        report["torch"] = "not importable; skipped"
    else:
        t_seconds, t_losses, version, threads = torch_result
        report.update({
            "torch_seconds": round(t_seconds, 4),
            "torch_version": version,
            "torch_threads": threads,
            "ratio_numpy_over_torch": round(np_seconds / t_seconds, 4),
            "max_loss_difference": float(np.max(np.abs(np.array(run.losses) - np.array(t_losses)))),
        })
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
