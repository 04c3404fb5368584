"""Python's start-up snapshot (builder/snapshot.py): the same bytes however often it is made, kept on
disk by its inputs, and a core it cannot start gives a reason in one line instead of a snapshot."""
from __future__ import annotations

import gzip
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from builder.paths import Paths
from builder.runtime import loaded_files
from builder.snapshot import make_snapshot

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "node_modules" / "pyodide"


def _core() -> dict[str, Path]:
    return {name: CORE / name for name in loaded_files(CORE)}


def _build_id() -> bytes:
    """The BUILD_ID Pyodide's loader checks a snapshot against (pyodide.mjs), as its header holds
    it: eight 32-bit words, little-endian."""
    import re

    hexed = re.search(r'BUILD_ID:"([0-9a-f]{64})"', (CORE / "pyodide.mjs").read_text()).group(1)
    return b"".join(int(hexed[i:i + 8], 16).to_bytes(4, "little") for i in range(0, 64, 8))


def test_made_twice_it_is_the_same_bytes_for_this_core_and_then_comes_from_the_cache(tmp_path, monkeypatch):
    first, why = make_snapshot(_core(), replace(Paths.at(ROOT), cache=tmp_path / "a"))
    assert first is not None, why
    second, _ = make_snapshot(_core(), replace(Paths.at(ROOT), cache=tmp_path / "b"))
    assert second == first
    raw = gzip.decompress(first)
    assert raw[16:48] == _build_id()  # Pyodide's header: its build id, which a restore checks
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("made again, not read from the cache"))
    assert make_snapshot(_core(), replace(Paths.at(ROOT), cache=tmp_path / "a")) == (first, "")


def test_a_core_it_cannot_start_gives_one_line_and_no_snapshot(tmp_path):
    core = _core()
    broken = tmp_path / "pyodide.mjs"
    broken.write_text("export const version = 'not Pyodide';\n")
    core["pyodide.mjs"] = broken
    snapshot, why = make_snapshot(core, replace(Paths.at(ROOT), cache=tmp_path / "cache"))
    assert snapshot is None
    assert why.startswith("Python's start-up snapshot was not made (") and "\n" not in why
    assert not list((tmp_path / "cache").glob("snapshot-*"))
