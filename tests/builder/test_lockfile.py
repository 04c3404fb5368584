"""builder/lockfile.py: the engine's lock entry comes from `pyodide lockfile add-wheels`; without
the tool, or when it fails, the build stops with one line that says what to do."""
import json

import pytest

from builder import lockfile
from builder.errors import BuildError
from builder.wheel import build_wheel
from tests.conftest import ROOT

LOCK = ROOT / "node_modules" / "pyodide" / "pyodide-lock.json"


def test_the_entry_is_the_tools():
    name, wheel = build_wheel(ROOT / "engine")
    lock = json.loads(lockfile.add_wheel(LOCK, f"abc/{name}", wheel))
    entry = lock["packages"]["attention-engine"]
    assert entry["file_name"] == f"abc/{name}" and entry["depends"] == ["numpy"]


def test_a_missing_or_failing_tool_is_one_clear_error(monkeypatch, tmp_path):
    name, wheel = build_wheel(ROOT / "engine")
    monkeypatch.setattr(lockfile, "_done", {})
    monkeypatch.setenv("ATTN_PYODIDE_CLI", str(tmp_path / "nowhere" / "pyodide"))
    with pytest.raises(BuildError, match="python3 dev.py setup"):
        lockfile.add_wheel(LOCK, name, wheel)
    failing = tmp_path / "pyodide"
    failing.write_text("#!/bin/sh\necho 'Error: no such command lockfile' >&2\nexit 2\n")
    failing.chmod(0o755)
    monkeypatch.setenv("ATTN_PYODIDE_CLI", str(failing))
    with pytest.raises(BuildError, match="add-wheels failed: Error: no such command lockfile"):
        lockfile.add_wheel(LOCK, name, wheel)
