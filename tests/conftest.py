"""Fixtures shared by every test folder.

Builder and browser tests build the series many times: they share one figure cache across the
session. The engine does not change while tests run, so a model's output and its fallback SVG for
the same options are the same in every build; recomputing them per build only costs minutes.
Tests that need a cold cache pass their own FigureCache.
"""
from __future__ import annotations

import os

# One BLAS thread, set before anything imports numpy: the engine's matrices are small, and on a
# shared machine OpenBLAS's threads wait on each other (the induction tests ran 13x slower with two).
# Every figure's compute() gives byte-identical data with one thread and with two.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import shutil  # noqa: E402
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def content(tmp_path) -> Path:
    """A private copy of content/ that a test may break."""
    dest = tmp_path / "content"
    shutil.copytree(ROOT / "content", dest)
    return dest


@pytest.fixture(scope="session")
def shared_figure_cache():
    """The FigureCache every build.build() of the session uses (builder and browser tests ask for
    it in their conftest)."""
    import builder.build
    from builder.figures import FigureCache

    shared = FigureCache()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.build, "FigureCache", lambda: shared)
        yield shared


def pyodide_kit() -> Path:
    """The Pyodide distribution with a real numpy that ATTN_PYODIDE_DIST names (.ci/run makes one
    from ../shared/pyodide-kit). Without it the test skips, saying why; with ATTN_REQUIRE_LIVE set
    (as .ci/run sets it wherever the kit exists) it fails instead: there, a live test may not skip."""
    dist = os.environ.get("ATTN_PYODIDE_DIST")
    if not dist:
        reason = ("needs a Pyodide distribution with a real numpy in ATTN_PYODIDE_DIST "
                  "(../shared/pyodide-kit/make-kit.sh makes one); no Pyodide numpy can be downloaded here")
        if os.environ.get("ATTN_REQUIRE_LIVE"):
            pytest.fail(reason + " (ATTN_REQUIRE_LIVE is set, so the live tests must run)")
        pytest.skip(reason)
    return Path(dist)
