"""Builder tests build the series many times: share one figure cache across the session.

The engine does not change while tests run, so a model's output and its fallback SVG for the
same options are the same in every build; recomputing them per test only costs minutes.
Tests that need a cold cache pass their own FigureCache.
"""
from __future__ import annotations

import pytest

import builder.build
from builder.figures import FigureCache


@pytest.fixture(scope="session", autouse=True)
def shared_figure_cache():
    shared = FigureCache()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.build, "FigureCache", lambda: shared)
        yield shared
