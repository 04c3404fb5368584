"""What the figures of chapter 13's induction task (engine/tasks/induction.py) share: its configuration
and its tokens as the reader sees them."""
from __future__ import annotations

from ..tasks import induction

CONFIG = induction.InductionConfig()
LETTERS = "ABCDEFGHIJKLMNOP"[:CONFIG.n_vocab]  # the random tokens, as the reader sees them
START = "▸"  # the start token's label
