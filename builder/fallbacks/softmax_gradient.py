"""Fallback for softmax-gradient: the gradient by the formula and by finite differences, bar by bar."""
from __future__ import annotations

import numpy as np

from . import COLOURS


def draw(fig, data):
    x = np.arange(len(data["labels"]))
    top, bottom = fig.subplots(2, 1, sharex=True)
    top.bar(x - 0.2, data["scores"], width=0.4, color=COLOURS["data"], label="score s")
    top.bar(x + 0.2, data["upstream"], width=0.4, color=COLOURS["model"], label="G = dL/dA")
    top.axhline(0, color=COLOURS["axis"], linewidth=0.8)
    top.legend(fontsize=8, frameon=False, loc="upper right")
    bottom.bar(x - 0.2, data["formula"], width=0.4, color=COLOURS["prediction"], label="dL/ds by the formula")
    bottom.scatter(x + 0.2, data["numeric"], color=COLOURS["ink"], marker="x", zorder=3,
                   label="dL/ds by finite differences")
    bottom.axhline(0, color=COLOURS["axis"], linewidth=0.8)
    bottom.legend(fontsize=8, frameon=False, loc="upper right")
    bottom.set_xticks(x, data["labels"])
    bottom.set_title(data["text"]["total"], fontsize=8, loc="left", color=COLOURS["muted"])
