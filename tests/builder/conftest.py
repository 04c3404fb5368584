"""Builder tests: what runs build.py in a real process reads the figures this test run has already
computed from the run's store, which the environment names (tests/conftest.py `figure_store`)."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _figures_computed_once(shared_figure_cache):
    """Every build in these tests computes and draws a figure once per session (tests/conftest.py)."""


@pytest.fixture(scope="session")
def series_build(tmp_path_factory):
    """The series built from this repository as `build.py` builds it, once per test process, for the
    tests that only read it: (the Site, its output folder). A test that changes a build makes its own."""
    from builder.build import Paths, build
    from tests.conftest import ROOT

    out = tmp_path_factory.mktemp("series") / "dist"
    return build(Paths.at(ROOT), out), out
