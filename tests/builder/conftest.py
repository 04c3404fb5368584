"""Builder tests: what runs build.py in a real process starts from the figures this test run
has already computed (the shared figure cache is in tests/conftest.py)."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _figures_computed_once(shared_figure_cache):
    """Every build in these tests computes and draws a figure once per session (tests/conftest.py)."""


@pytest.fixture(scope="session")
def prewarmed(shared_figure_cache, tmp_path_factory):
    """A prewarmed.Saved: this repository's figures already computed, for build.py and pytest run in
    real processes (tests/prewarmed.py says when they do not use them)."""
    from builder.build import Paths, check
    from tests import prewarmed as launcher
    from tests.conftest import ROOT

    saved = launcher.Saved(tmp_path_factory.mktemp("prewarmed") / "figures.pickle")
    check(Paths.at(ROOT))  # fills the shared cache: every figure of the series, its fallback and its facts
    launcher.save(shared_figure_cache, ROOT, saved.file)
    return saved


@pytest.fixture(scope="session")
def series_build(tmp_path_factory):
    """The series built from this repository as `build.py` builds it, once per test process, for the
    tests that only read it: (the Site, its output folder). A test that changes a build makes its own."""
    from builder.build import Paths, build
    from tests.conftest import ROOT

    out = tmp_path_factory.mktemp("series") / "dist"
    return build(Paths.at(ROOT), out), out
