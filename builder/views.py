"""Every script the site ships must parse, checked at build time: a figure's view with a syntax
error would otherwise pass the build and fail only in the reader's browser, with no file or line.

esbuild (npm, already the build's bundler) parses each file as the ES module the browser loads;
a file set that parsed is kept in the build cache, so `serve`'s rebuilds parse only after a change.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .cache import BuildCache, digest
from .errors import BuildError

SCRIPT = Path(__file__).with_name("parse_views.mjs")


def check_scripts(files: list[Path], node_modules: Path, cache: BuildCache) -> None:
    """A BuildError `theme/figures/x.js:12:5: message` for the first file that does not parse."""
    if files:
        key = digest(*(part for f in files for part in (str(f).encode(), f.read_bytes())))
        cache.get("parsed scripts", key, lambda: _parse(files, node_modules))


def _parse(files: list[Path], node_modules: Path) -> None:
    package = node_modules / "esbuild"
    if not (package / "package.json").is_file():
        raise BuildError(package, None, "esbuild is missing (it checks that every view parses): run 'npm ci'")
    try:
        done = subprocess.run(["node", str(SCRIPT), str(package), *map(str, files)], capture_output=True,
                              text=True, timeout=120)
        problems = json.loads(done.stdout) if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError) as err:
        raise BuildError(SCRIPT, None, f"could not parse the views with esbuild: {err}") from None
    if problems is None:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1][:200]
        raise BuildError(SCRIPT, None, f"could not parse the views with esbuild (exit {done.returncode}): {last}")
    if problems:
        p = problems[0]
        raise BuildError(Path(p["file"]), p["line"], p["text"], p["column"])
