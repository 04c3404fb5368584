"""The service worker for offline reading: sw.js at the site's root, carrying the exact precache
manifest of this build (every file, its size and sha256) and a version that hashes them all, so
any change to any file is a new service worker and a new cache (theme/sw/service-worker.js)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .runtime import sha256

SW = "sw.js"
NOT_PRECACHED = (".nojekyll", "runtime.json", SW)  # no page fetches them


def manifest(files: dict[str, bytes], copies: dict[str, Path]) -> dict:
    """{"version": ..., "files": {path: [size, sha256]}} over everything the build writes."""
    entries = {rel: [len(data), hashlib.sha256(data).hexdigest()] for rel, data in files.items()}
    entries.update({rel: [src.stat().st_size, sha256(src)] for rel, src in copies.items()})
    entries = {rel: entries[rel] for rel in sorted(entries) if rel not in NOT_PRECACHED}
    version = hashlib.sha256(json.dumps(entries, sort_keys=True).encode()).hexdigest()[:16]
    return {"version": version, "files": entries}


def service_worker(theme: Path, files: dict[str, bytes], copies: dict[str, Path], offline: bool = True) -> bytes:
    """sw.js: the manifest as a constant, then the worker's code; without offline reading, the
    worker that retires the one readers registered (sw.js must stay: browsers keep running a worker
    whose script is gone)."""
    if not offline:
        return (theme / "sw" / "retire.js").read_bytes()
    head = "const MANIFEST = " + json.dumps(manifest(files, copies), separators=(",", ":")) + ";\n"
    return head.encode() + (theme / "sw" / "service-worker.js").read_bytes()
