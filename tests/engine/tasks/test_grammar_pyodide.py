"""The grammar training as readers run it: in Pyodide with real numpy (no BLAS, so the fused step's
einsum products), held to the same recorded losses as on CPython. Needs ATTN_PYODIDE_DIST (a Pyodide
folder with numpy's wheel, see ../shared/pyodide-kit) and Node, which runs Pyodide here."""
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import pyodide_kit

ROOT = Path(__file__).resolve().parents[3]
RUNNER = ROOT / "benchmarks" / "pyodide_run.mjs"  # boots Pyodide, copies engine/ in, runs a script
SCRIPT = """
import json
from engine.tasks import grammar_step
from engine.tasks.grammar import train_grammar_model
print(json.dumps({"blas": grammar_step.HAS_BLAS, "losses": train_grammar_model(seed=0).losses}))
"""


def test_pyodide_trains_the_recorded_losses(tmp_path):
    dist = str(pyodide_kit())  # skips, or fails where the live tests must run
    if shutil.which("node") is None:
        pytest.skip("needs Node on PATH to run Pyodide")
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    out = subprocess.run(["node", str(RUNNER), dist, str(ROOT / "engine"), str(script)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["blas"] is False  # the einsum products, as in the browser
    recorded = json.loads((Path(__file__).with_name("data") / "grammar_losses.json").read_text())["losses"]["0"]
    np.testing.assert_allclose(result["losses"], recorded, rtol=0, atol=1e-6)
