"""The exercises' code editor (theme/editor/editor.js, CodeMirror 6 from npm) bundled by esbuild.

esbuild is the maintained bundler the project uses rather than hand-copying CodeMirror's ES
modules (a dozen packages that import each other by bare name, which browsers cannot resolve).
The bundle is kept on disk (Paths.cache) by the digest of the entry and package-lock.json, so a build
runs esbuild only when either changes.
"""
from __future__ import annotations

import hashlib
import os
import subprocess

from .errors import BuildError
from .paths import Paths


def editor_bundle(paths: Paths) -> bytes:
    entry = paths.theme / "editor" / "editor.js"
    lock = paths.root / "package-lock.json"
    digest = hashlib.sha256(entry.read_bytes() + (lock.read_bytes() if lock.is_file() else b"")).hexdigest()[:16]
    cached = paths.cache / f"editor-{digest}.js"
    if cached.is_file():
        return cached.read_bytes()
    esbuild = paths.node_modules / ".bin" / "esbuild"
    if not esbuild.exists():
        raise BuildError(esbuild, None, "esbuild is missing (the exercises' editor is bundled with it): run 'npm ci'")
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(f".{os.getpid()}.tmp.js")  # builds running at once (tests, serve) each write their own
    result = subprocess.run([str(esbuild), str(entry), "--bundle", "--format=esm", "--minify", "--target=es2020",
                             f"--outfile={tmp}", "--log-level=error"], capture_output=True, text=True, cwd=paths.root)
    if result.returncode != 0:
        raise BuildError(entry, None, "esbuild could not bundle the editor: " + (result.stderr.strip().splitlines() or ["?"])[-1])
    tmp.replace(cached)
    return cached.read_bytes()
