#!/usr/bin/env python3
"""What the grading cage costs the build: each exercise of the content graded in-process (as the
browser does) and in the cage (builder/grading.py: solution and starter side by side), median of 5.

    .venv/bin/python benchmarks/grading.py
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from builder import grading  # noqa: E402
from builder.cache import BuildCache  # noqa: E402  (a fresh one per run: a kept verdict would make it free)
from builder.directives import REGISTRY  # noqa: E402
from builder.directives.base import Page  # noqa: E402
from builder.errors import read_source  # noqa: E402
from builder.source import scan  # noqa: E402
from engine.exercises import grade  # noqa: E402


def _median_ms(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def main() -> int:
    print(f"cage: {grading.TIME_LIMIT:g} s wall time, {grading.MEMORY_LIMIT >> 20} MB of address space, "
          f"{grading.FILE_LIMIT >> 10} KB per file written, standard output discarded")
    for path in sorted((ROOT / "content").glob("*.md")):
        exercise = REGISTRY["exercise"]
        for use in scan(path, read_source(path), tuple(REGISTRY)).directives:
            if use.name != "exercise":
                continue
            exercise.parse(use, path)
            inproc = _median_ms(lambda: [grade(use.argument, use.options[k]) for k in ("solution", "starter")])
            caged = _median_ms(lambda: exercise.compute(use, Page(path, 0, path.stem, BuildCache())))
            print(f"{path.name} {use.argument}: in-process {inproc:.0f} ms, caged {caged:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
