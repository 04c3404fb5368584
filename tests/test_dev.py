"""dev.py, the one entry point a newcomer runs: it checks its own interpreter before anything else,
and sets up without pyodide-build where no Python >= 3.12 can be found (the build then says what
differs: tests/builder/test_lockfile.py)."""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT


def _load_dev():
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _lone_dev(tmp_path: Path) -> Path:
    """dev.py alone in a folder: whatever it set up would appear there."""
    shutil.copyfile(ROOT / "dev.py", tmp_path / "dev.py")
    return tmp_path / "dev.py"


def _assert_stops_at_once(done, version: str, folder: Path):
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"dev.py needs Python 3.11 or newer; this is {version}"), done.stderr
    assert done.stdout == "" and sorted(p.name for p in folder.iterdir()) == ["dev.py"]


def test_an_old_python_stops_at_once_with_one_line(tmp_path):
    dev = _lone_dev(tmp_path)
    pretend = ("import runpy, sys; sys.version_info = (3, 10, 12); sys.version = '3.10.12 (pretend)'; "
               f"runpy.run_path({str(dev)!r}, run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", pretend, "build"], capture_output=True, text=True, cwd=tmp_path)
    _assert_stops_at_once(done, "3.10.12", tmp_path)


def test_a_real_python_310_stops_at_once(tmp_path):
    found = [*Path.home().glob(".pyenv/versions/3.10*/bin/python3")]  # not pyenv's shim: it may refuse
    if not found:
        pytest.skip("no Python 3.10 on this machine to run dev.py with (the pretend test above covers the check)")
    dev = _lone_dev(tmp_path)
    done = subprocess.run([str(found[0]), str(dev), "build"], capture_output=True, text=True, cwd=tmp_path)
    _assert_stops_at_once(done, "3.10", tmp_path)


def test_without_python_312_setup_goes_on_and_says_where_it_looked(tmp_path, monkeypatch, capsys):
    dev = _load_dev()
    empty_bin, pyenv_root = tmp_path / "bin", tmp_path / "pyenv"
    empty_bin.mkdir()
    (pyenv_root / "versions").mkdir(parents=True)
    monkeypatch.setenv("PATH", str(empty_bin))
    monkeypatch.setenv("PYENV_ROOT", str(pyenv_root))
    monkeypatch.delenv("ATTN_PYODIDE_CLI", raising=False)
    monkeypatch.setattr(dev, "TOOLS", tmp_path / ".venv-pyodide")
    assert dev._python_312() is None
    dev.pyodide_env()  # no SystemExit: the build goes on without pyodide-build
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "no Python >= 3.12" in out[0] and str(pyenv_root / "versions") in out[0], out
    assert not (tmp_path / ".venv-pyodide").exists()


def test_a_python_312_from_pyenv_is_found(tmp_path, monkeypatch):
    real = sorted(Path.home().glob(".pyenv/versions/3.1[2-9]*/bin/python3"))
    if not real:
        pytest.skip("no Python >= 3.12 installed by pyenv on this machine")
    dev = _load_dev()
    fake = tmp_path / "pyenv" / "versions" / "3.12.9" / "bin"
    fake.mkdir(parents=True)
    (fake / "python3").symlink_to(real[0])
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "pyenv"))
    assert dev._python_312() == str(fake / "python3")


def test_build_installs_what_building_needs_and_test_adds_the_test_tools(tmp_path, monkeypatch):
    """pip's test extras and npm's devDependencies only for `test`; a test set-up serves a build."""
    dev = _load_dev()
    ran = []
    monkeypatch.setattr(dev, "_run", lambda cmd, **kw: ran.append([str(c) for c in cmd]))
    monkeypatch.setattr(dev, "ROOT", tmp_path)
    monkeypatch.setattr(dev, "VENV", tmp_path / ".venv")
    monkeypatch.setattr(dev, "PY", tmp_path / ".venv" / "bin" / "python")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").touch()
    (tmp_path / "node_modules").mkdir()
    for name in ("pyproject.toml", "package-lock.json"):
        (tmp_path / name).write_text("{}")

    def setup(need):
        ran.clear()
        dev.python_env(need)
        dev.node_env(need)
        return [cmd[-1] if "pip" in cmd else " ".join(cmd[1:]) for cmd in ran]

    assert setup("build") == [".", "ci --no-audit --no-fund --omit=dev"]
    assert setup("build") == []
    assert setup("test") == [".[test]", "ci --no-audit --no-fund"]
    assert setup("build") == [] and setup("test") == []
    (tmp_path / "package-lock.json").write_text('{"changed": 1}')
    assert setup("build") == ["ci --no-audit --no-fund --omit=dev"]
