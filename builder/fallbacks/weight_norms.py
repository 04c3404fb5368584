"""Fallback for weight-norms: the opening row's weights beside its shares of weighted-vector lengths."""
from __future__ import annotations

import numpy as np

from . import COLOURS


def draw(fig, data):
    head, row = data["start"]["head"], data["start"]["row"]
    words = data["words"]
    h = data["heads"][head]
    y = np.arange(len(words))
    ax = fig.add_subplot()
    ax.barh(y - 0.2, h["weights"][row], 0.38, color=COLOURS["prediction"], label="weight w")
    ax.barh(y + 0.2, h["shares"][row], 0.38, color=COLOURS["value"], label="share of ‖w·v‖")
    ax.set_yticks(y, words, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_title(f"head {head + 1}, row of “{words[row]}”", fontsize=10, loc="left")
    ax.legend(fontsize=8, frameon=False, loc="lower right")
