"""Fixtures shared by every test folder."""
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
