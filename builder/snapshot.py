"""Python's start-up, made once at build time: a memory snapshot of Pyodide's core with Python
started (builder/snapshot.mjs, in Node from the very files the site ships), gzipped.

The worker restores it instead of starting Python, and boots as before if it fails. Kept on disk
(Paths.cache) by the digest of the core's files and the script, so a build runs Node only when
either changes; the snapshot is the same bytes however often it is made.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from .paths import Paths

SCRIPT = Path(__file__).with_name("snapshot.mjs")
SNAPSHOT_TIMEOUT_S = 300  # a busy machine takes tens of seconds


def make_snapshot(core: dict[str, Path], paths: Paths) -> tuple[bytes | None, str]:
    """The gzipped snapshot of the core `core` names (file name -> file: pyodide.mjs and what it
    loads), or None with one line saying why it could not be made (the site then boots without)."""
    h = hashlib.sha256(SCRIPT.read_bytes())
    for name, src in sorted(core.items()):
        h.update(name.encode() + b"\0" + hashlib.sha256(src.read_bytes()).digest())
    cached = paths.cache / f"snapshot-{h.hexdigest()[:16]}.bin.gz"
    if cached.is_file():
        return cached.read_bytes(), ""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, src in core.items():
            shutil.copyfile(src, folder / name)
        raw = folder / "snapshot.bin"
        try:
            done = subprocess.run(["node", str(SCRIPT), str(folder), str(raw)], capture_output=True, text=True,
                                  timeout=SNAPSHOT_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as err:
            return None, f"Python's start-up snapshot was not made ({err}): live figures start Python themselves"
        if done.returncode != 0 or not raw.is_file():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1][:200]
            return None, f"Python's start-up snapshot was not made ({last}): live figures start Python themselves"
        data = gzip.compress(raw.read_bytes(), compresslevel=9, mtime=0)
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp_file = cached.with_suffix(f".{os.getpid()}.tmp")  # builds running at once each write their own
    tmp_file.write_bytes(data)
    tmp_file.replace(cached)
    return data, ""
