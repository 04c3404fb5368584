"""builder/lockfile.py: the engine's lock entry comes from `pyodide lockfile add-wheels`; a tool
named by ATTN_PYODIDE_CLI that is missing or fails stops the build with one line that says what to
do; with no tool at all (no Python >= 3.12) the lock ships untouched and the engine goes by URL."""
import json
from dataclasses import replace

import pytest

from builder import lockfile
from builder.build import Paths
from builder.cache import BuildCache
from builder.errors import BuildError
from builder.wheel import build_wheel
from tests.conftest import ROOT
from tests.site_layout import pyodide_folder, shipped_lock

LOCK = ROOT / "node_modules" / "pyodide" / "pyodide-lock.json"
INSTALLED = Paths.at(ROOT).pyodide_cli


NO_TOOL = "pyodide-build is not installed (no Python >= 3.12 here): the path without it is tested below"


@pytest.mark.skipif(not lockfile.available(INSTALLED), reason=NO_TOOL)
def test_the_entry_is_the_tools():
    name, wheel = build_wheel(ROOT / "engine", BuildCache())
    lock = json.loads(lockfile.add_wheel(LOCK, f"abc/{name}", wheel, INSTALLED, BuildCache()))
    entry = lock["packages"]["attention-engine"]
    assert entry["file_name"] == f"abc/{name}" and entry["depends"] == ["numpy"]


def test_a_missing_or_failing_tool_is_one_clear_error(monkeypatch, tmp_path):
    name, wheel = build_wheel(ROOT / "engine", BuildCache())
    monkeypatch.setenv("ATTN_PYODIDE_CLI", str(tmp_path / "nowhere" / "pyodide"))
    with pytest.raises(BuildError, match="python3 dev.py setup"):
        lockfile.add_wheel(LOCK, name, wheel, INSTALLED, BuildCache())
    failing = tmp_path / "pyodide"
    failing.write_text("#!/bin/sh\necho 'Error: no such command lockfile' >&2\nexit 2\n")
    failing.chmod(0o755)
    monkeypatch.setenv("ATTN_PYODIDE_CLI", str(failing))
    with pytest.raises(BuildError, match="add-wheels failed: Error: no such command lockfile"):
        lockfile.add_wheel(LOCK, name, wheel, INSTALLED, BuildCache())


def test_without_the_tool_the_lock_ships_untouched_and_the_engine_goes_by_url(monkeypatch, tmp_path):
    """No Python >= 3.12 on the machine, so no .venv-pyodide: the build still writes the whole site,
    with Pyodide's own lock, the wheel beside it, its URL in the worker's config, and one note."""
    from builder.build import build
    from tests.builder.helpers import one_chapter_site, paths_for

    monkeypatch.delenv("ATTN_PYODIDE_CLI", raising=False)
    content = one_chapter_site(tmp_path / "content", "# Live\n\n/// figure | softmax-temperature\n\nA caption.\n///\n")
    out = tmp_path / "dist"
    site = build(replace(paths_for(content), pyodide_cli=tmp_path / "no-venv-pyodide" / "bin" / "pyodide"), out)
    assert site.notes == [lockfile.WITHOUT]
    assert shipped_lock(out).read_bytes() == LOCK.read_bytes()
    config = json.loads((out / "runtime.json").read_text())
    name, wheel = build_wheel(ROOT / "engine", BuildCache())
    assert config["engineWheel"].endswith("/" + name) and config["engineNeeds"] == ["numpy"]
    assert (pyodide_folder(out) / config["engineWheel"]).read_bytes() == wheel
    assert "01-test.html" in site.files


@pytest.mark.skipif(not lockfile.available(INSTALLED), reason=NO_TOOL)
def test_with_the_tool_there_is_no_note_and_no_wheel_url(monkeypatch, tmp_path):
    from builder.build import build
    from tests.builder.helpers import one_chapter_site, paths_for

    content = one_chapter_site(tmp_path / "content", "# Live\n\n/// figure | softmax-temperature\n\nA caption.\n///\n")
    site = build(paths_for(content), tmp_path / "dist")
    assert site.notes == []
    config = json.loads((tmp_path / "dist" / "runtime.json").read_text())
    assert "engineWheel" not in config
    assert "attention-engine" in json.loads(shipped_lock(tmp_path / "dist").read_text())["packages"]
