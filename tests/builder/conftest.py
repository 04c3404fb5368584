"""Builder tests: what runs build.py in a real process starts from the figures this test run
has already computed (the shared figure cache is in tests/conftest.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def _figures_computed_once(shared_figure_cache):
    """Every build in these tests computes and draws a figure once per session (tests/conftest.py)."""


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
