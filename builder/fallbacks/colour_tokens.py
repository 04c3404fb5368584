"""Fallback for colour-tokens: the table of shares and the worked arithmetic for one gathering token."""
from __future__ import annotations

import numpy as np

from . import COLOURS


def num(x) -> str:
    """Whole numbers as they are, others to 4 decimals, blocked scores as −∞ (the view does the same)."""
    if x is None:
        return "−∞"
    return str(int(x)) if float(x).is_integer() else f"{x:.4f}"


def vec(xs) -> str:
    return "[" + ", ".join(num(x) for x in xs) + "]"


def _start(data):
    s = data["start"]
    seq = data["sequences"][s["sequence"]]
    case = seq["cases"][s["heads"] - 1][int(s["causal"])][int(s["positions"])]
    names = [f"{t} ({i + 1})" for i, t in enumerate(seq["tokens"])]
    return s, seq["tokens"], names, case


def _settings(s) -> str:
    return ", ".join([
        "one head" if s["heads"] == 1 else "two heads",
        "future tokens blocked" if s["causal"] else "future tokens readable",
        "positional encoding added" if s["positions"] else "no positional encoding",
    ])


def numbers(data):
    s, tokens, names, case = _start(data)
    lines = [f"Tokens: {', '.join(tokens)} ({_settings(s)})"]
    for h, head in enumerate(case["heads"]):
        prefix = "Shares" if len(case["heads"]) == 1 else f"Head {h + 1} shares"
        lines += [f"{prefix} of {name}: {', '.join(num(x) for x in row)}" for name, row in zip(names, head["shares"])]
    lines += [f"Result for {name}: {vec(row)}" for name, row in zip(names, case["out"])]
    return lines


def _worked(data) -> list[str]:
    s, tokens, names, case = _start(data)
    i = s["row"]
    lines = [f"{names[i]} gathers"]
    for h, head in enumerate(case["heads"]):
        if len(case["heads"]) > 1:
            lines.append(f"head {h + 1} (coordinates {head['coords'][0] + 1}–{head['coords'][1] + 1})")
        lines += [
            "scores: " + ", ".join(num(x) for x in head["raw"][i]),
            f"÷ √{head['d_k']}: " + ", ".join(num(x) for x in head["scaled"][i]),
            "exp: " + ", ".join(num(x) for x in head["exps"][i]) + f"  (total {num(head['sums'][i])})",
            "shares: " + ", ".join(num(x) for x in head["shares"][i]),
        ]
    lines.append("result: " + vec(case["out"][i]))
    return lines


def draw(fig, data):
    s, tokens, names, case = _start(data)
    heads = case["heads"]
    n = len(tokens)
    if len(heads) == 1:  # table left, arithmetic right
        grid = fig.add_gridspec(1, 2, width_ratios=(1, 1.15), wspace=0.35)
        tables, worked = [grid[0, 0]], grid[0, 1]
    else:  # the two heads' tables side by side, arithmetic below
        fig.set_size_inches(6.4, 6.4)
        grid = fig.add_gridspec(2, 2, height_ratios=(1, 1.1), wspace=0.45, hspace=0.35)
        tables, worked = [grid[0, 0], grid[0, 1]], grid[1, :]
    size = 8 if n <= 3 else 7 if n == 4 else 6
    for h, (head, cell) in enumerate(zip(heads, tables)):
        ax = fig.add_subplot(cell)
        shares = np.array(head["shares"])
        ax.imshow(shares, cmap="Oranges", vmin=0, vmax=1.6)
        ax.set_xticks(range(n), names, fontsize=size, rotation=35 if n > 3 else 0, ha="right" if n > 3 else "center")
        ax.set_yticks(range(n), names, fontsize=size)
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        for r in range(n):
            for c in range(n):
                ax.text(c, r, num(shares[r, c]), ha="center", va="center", fontsize=size, color=COLOURS["data"])
        title = "shares (row reads columns)" if len(heads) == 1 else f"head {h + 1} shares"
        ax.set_title(title, fontsize=9, color=COLOURS["prediction"])
    text = fig.add_subplot(worked)
    text.axis("off")
    text.text(0, 1, "\n".join(_worked(data)), va="top", ha="left", fontsize=8.5, family="DejaVu Sans Mono",
              color=COLOURS["data"], linespacing=1.5, transform=text.transAxes)


def alt(data):
    s, tokens, names, case = _start(data)
    parts = []
    for h, head in enumerate(case["heads"]):
        label = "" if len(case["heads"]) == 1 else f"head {h + 1}: "
        parts.append(label + "; ".join(f"{name} gives shares {', '.join(num(x) for x in row)}"
                                      for name, row in zip(names, head["shares"])))
    results = "; ".join(f"{name} ends as {vec(row)}" for name, row in zip(names, case["out"]))
    return (f"Self-attention over the colour tokens {', '.join(tokens)} with identity projections "
            f"({_settings(s)}). Table of attention shares, one row per gathering token: " + ". ".join(parts)
            + f". Results: {results}. Beside it, the arithmetic for {names[s['row']]}: "
            + "; ".join(_worked(data)[1:]) + ".")
