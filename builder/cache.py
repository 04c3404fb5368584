"""What a build computes that the next build from the same inputs can reuse: `serve` keeps one
BuildCache across rebuilds; the command line's build and each test start from an empty one."""
from __future__ import annotations

import functools
import hashlib
from typing import Callable, TypeVar

from .figures import FigureCache

T = TypeVar("T")
KEEP = 4  # values kept per table: the latest inputs, and a few to undo back to while serve runs all day
# Tables whose values the figure store keeps too, when the build has one (builder/figure_store.py):
# seconds of a first build (serve's on a built clone) that depend only on their key and the code of
# the module named, and the files named (the pinned tool that writes the lock).
DURABLE = {
    "engine files": ("builder.wheel", ()),  # every engine module parsed, facts stripped
    "engine lock": ("builder.lockfile", ("builder/pyodide-tools.txt",)),  # pyodide-build, a process
    "parsed scripts": ("builder.views", ("package-lock.json",)),  # esbuild over every view, a process
    "math font": ("builder.math_font", ()),  # fontTools' subset of STIX Two Math
}


def digest(*parts: bytes) -> str:
    """One key for several inputs, each hashed apart so that no two ways of splitting them collide."""
    return hashlib.sha256(b"".join(hashlib.sha256(p).digest() for p in parts)).hexdigest()


class BuildCache:
    def __init__(self, figures: FigureCache | None = None):
        self.figures = figures or FigureCache()  # model outputs, facts and fallback drawings by their Params
        self._tables: dict[str, dict] = {}

    def get(self, table: str, key, make: Callable[[], T]) -> T:
        """`make()`, made once per key of `table`: a key must name every input the value depends on.
        A `make` that raises stores nothing, so the next build tries again."""
        values = self._tables.setdefault(table, {})
        store = self.figures.store
        if key not in values and store is not None and table in DURABLE:
            module, files = DURABLE[table]
            make = functools.partial(store.value, table, key, module, files, make)
        if key not in values:
            value = make()
            if len(values) >= KEEP:
                del values[next(iter(values))]  # the oldest
            values[key] = value
        return values[key]

    def table(self, name: str) -> dict:
        """A table the caller fills itself, kept whole: for values keyed by many inputs that all stay
        current (every exercise's graded code), where `get` keeps only the latest few."""
        return self._tables.setdefault(name, {})
