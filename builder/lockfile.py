"""Register the engine wheel in the shipped pyodide-lock.json the Pyodide way: with
`pyodide lockfile add-wheels` (pyodide-lock's command, installed with pyodide-build), which
reads the wheel's metadata, resolves its dependencies against the lock and writes its entry.

The tool needs Python >= 3.12, so it lives in a venv of its own (.venv-pyodide, made by
`python3 dev.py setup` from builder/pyodide-tools.txt; Paths.pyodide_cli); ATTN_PYODIDE_CLI may name another
`pyodide` executable. Where neither exists (no Python >= 3.12 on the machine), the build ships
the lock untouched and the worker loads the engine wheel by its URL (`available()`, WITHOUT).
"""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

from .cache import BuildCache, digest
from .errors import BuildError

WITHOUT = ("note: pyodide-build is not installed (it needs Python >= 3.12), so pyodide-lock.json ships "
           "untouched and pages load the engine wheel by its URL, numpy by name; for the lockfile path "
           "install Python 3.12+ and rerun 'python3 dev.py setup', or set ATTN_PYODIDE_CLI")


def cli(installed: Path) -> Path:
    """The tool to run: ATTN_PYODIDE_CLI's, else the one `python3 dev.py setup` installed (Paths.pyodide_cli)."""
    return Path(os.environ.get("ATTN_PYODIDE_CLI") or installed)


def available(installed: Path) -> bool:
    """Whether to register the engine in the lock: the tool is installed, or ATTN_PYODIDE_CLI names
    one (then a missing file is add_wheel's error, not a silent change of path)."""
    return bool(os.environ.get("ATTN_PYODIDE_CLI")) or installed.is_file()


def add_wheel(lock_path: Path, rel: str, wheel: bytes, installed: Path, cache: BuildCache) -> bytes:
    """The lock at `lock_path` with the wheel `wheel` added, its file_name `rel` (relative to the lock)."""
    lock = lock_path.read_bytes()
    return cache.get("engine lock", digest(lock, wheel, rel.encode()),
                     lambda: _add_wheel(lock_path, lock, rel, wheel, cli(installed)))


def _add_wheel(lock_path: Path, lock: bytes, rel: str, wheel: bytes, tool: Path) -> bytes:
    if not tool.is_file():
        raise BuildError(tool, None, "pyodide-build's 'pyodide lockfile add-wheels' is not installed: run "
                                     "'python3 dev.py setup' (it needs a Python >= 3.12) or set ATTN_PYODIDE_CLI")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "in.json").write_bytes(lock)
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_bytes(wheel)
        done = subprocess.run([str(tool), "lockfile", "add-wheels", "--input", str(tmp / "in.json"),
                               "--output", str(tmp / "out.json"), "--base-path", str(tmp), str(tmp / rel)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
            raise BuildError(lock_path, None, f"pyodide lockfile add-wheels failed: {last[:200]}")
        return _only_new_entries(lock, (tmp / "out.json").read_bytes())


def _only_new_entries(lock: bytes, written: bytes) -> bytes:
    """Pyodide's lock with just the entries the tool added: the tool rewrites what it reads (on
    Pyodide 0.29's lock it drops `info.version` and adds `tool`), and the site must ship Pyodide's
    own entries as Pyodide wrote them."""
    original, new = json.loads(lock), json.loads(written)
    for name, entry in new["packages"].items():
        if name not in original["packages"]:
            original["packages"][name] = entry
    return json.dumps(original, separators=(",", ":")).encode()
