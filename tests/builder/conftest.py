"""Builder tests build the series many times: share one figure cache across the session.

The engine does not change while tests run, so a model's output and its fallback SVG for the
same options are the same in every build; recomputing them per test only costs minutes.
Tests that need a cold cache pass their own FigureCache.
"""
from __future__ import annotations

import sys

import pytest

import builder.build
from builder.figures import FigureCache


@pytest.fixture(scope="session", autouse=True)
def shared_figure_cache():
    shared = FigureCache()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.build, "FigureCache", lambda: shared)
        yield shared


@pytest.fixture(scope="session")
def prewarmed(shared_figure_cache, tmp_path_factory):
    """prewarmed(build_py) -> the command line that runs that build.py with this repository's
    figures already computed (tests/builder/prewarmed.py says when it does not use them)."""
    from builder.build import Paths, check
    from tests.builder import prewarmed as launcher
    from tests.conftest import ROOT

    folder = tmp_path_factory.mktemp("prewarmed")
    check(Paths.at(ROOT))  # fills the shared cache: every figure of the series, its fallback and its facts
    launcher.save(shared_figure_cache, ROOT, folder / "figures.pickle")

    def argv(build_py: Path) -> list[str]:
        return [sys.executable, "-u", launcher.__file__, str(folder / "figures.pickle"), str(build_py)]
    return argv
