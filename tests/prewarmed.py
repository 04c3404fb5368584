"""`python prewarmed.py CACHE BUILD_PY ARGS...`: build.py ARGS with the figures already computed.

The serve and new-figure tests run build.py and pytest in real processes (a restart is an exec),
and a fresh process computes and draws every figure of the series again: ~10 s of CPU each time,
for output the test run already holds. CACHE is that output (a pickled FigureCache, `save`), with a
digest of the code figures are made from. A process uses it only where that code is as it was (a
test that breaks a model gets the model run), and restarts keep it: serve re-executes this command
line. A test run started with ENV naming a CACHE starts from it (tests/conftest.py).
"""
from __future__ import annotations

import hashlib
import os
import pickle
import re
import runpy
import sys
from dataclasses import dataclass
from pathlib import Path

# What a figure's data and fallback are made of; the registry's list of names is not (a new figure
# added to it changes no other figure's output).
SOURCES = ("engine/**/*.py", "builder/fallbacks/**/*.py", "builder/figures.py")
_REGISTRY = re.compile(r"^FIGURES = \(.*?^\)", re.S | re.M)


def digest(root: Path, manifest: list[str] | None = None) -> tuple[list[str], str]:
    """(files hashed, their digest): every source file, or the files `manifest` lists (a file added
    since cannot change what the cached figures were made of)."""
    files = manifest if manifest is not None else sorted(
        {p.relative_to(root).as_posix() for pattern in SOURCES for p in root.glob(pattern) if "__pycache__" not in p.parts})
    h = hashlib.sha256()
    for name in files:
        path = root / name
        data = path.read_bytes() if path.is_file() else b"\0missing"
        if name == "engine/figures/__init__.py":
            data = _REGISTRY.sub("FIGURES = ()", data.decode()).encode()
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return files, h.hexdigest()


ENV = "ATTN_TEST_FIGURES"


def save(cache, root: Path, path: Path) -> None:
    files, hexdigest = digest(root)
    path.write_bytes(pickle.dumps((files, hexdigest, cache)))


def load(path: Path, root: Path):
    """The FigureCache saved at `path`, or None where the code under `root` has changed since."""
    files, hexdigest, cache = pickle.loads(path.read_bytes())
    return cache if digest(root, files)[1] == hexdigest else None


@dataclass(frozen=True)
class Saved:
    """A saved cache, and how a real process starts from it."""
    file: Path

    def argv(self, build_py: Path) -> list[str]:
        """The command line that runs that build.py with these figures."""
        return [sys.executable, "-u", __file__, str(self.file), str(build_py)]

    def env(self) -> dict[str, str]:
        """The environment in which a test run starts from these figures."""
        return {**os.environ, ENV: str(self.file)}


def main() -> None:
    cache_file, build_py, *args = sys.argv[1:]
    root = Path(build_py).resolve().parent
    sys.path[0] = str(root)  # as `python build.py` would have it: that repository's builder/ and engine/
    cache = load(Path(cache_file), root)
    if cache is not None:
        import builder.build
        import builder.serve
        from builder.cache import BuildCache

        from engine import given

        given.remember(cache.made)  # chapter 14's trained model, not trained again
        builder.build.BuildCache = builder.serve.BuildCache = lambda: BuildCache(cache)
    sys.argv = [build_py, *args]
    runpy.run_path(build_py, run_name="__main__")


if __name__ == "__main__":
    main()
