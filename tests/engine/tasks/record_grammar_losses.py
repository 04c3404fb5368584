#!/usr/bin/env python3
"""Write grammar_losses.json: every step's loss of the default grammar run for seeds 0-3, as the
engine computes them now. It was run once on the engine before the fused training step (commit
007df47), so test_grammar_losses.py checks that faster code trains the same model; rerun it only
when a change to the losses is intended and explained (``python3 tests/engine/tasks/record_grammar_losses.py``).
"""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from engine.tasks.grammar import GrammarConfig, train_grammar_model  # noqa: E402

SEEDS = (0, 1, 2, 3)
OUT = Path(__file__).with_name("data") / "grammar_losses.json"


def main():
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "engine"], cwd=ROOT, capture_output=True, text=True).stdout
    record = {
        "about": "losses per step of train_grammar_model(seed) with the default GrammarConfig",
        "engine_commit": commit + (" (engine/ modified)" if dirty.strip() else ""),
        "numpy": np.__version__,
        "config": GrammarConfig().__dict__,
        "losses": {str(s): train_grammar_model(seed=s).losses for s in SEEDS},
    }
    OUT.write_text(json.dumps(record) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
