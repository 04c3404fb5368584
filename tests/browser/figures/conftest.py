"""What every per-figure browser test module opens: a one-chapter site showing its figure."""
from __future__ import annotations

import pytest


def alone(name: str) -> str:
    """A chapter that holds figure `name` alone, with its default options and a caption."""
    return f"# A page\n\n/// figure | {name}\n\nA caption.\n///\n"


@pytest.fixture(scope="module")
def url(request, scratch_page) -> str:
    """The URL of a one-chapter site built once per module for its figure NAME: the module's SCRATCH
    chapter where it needs one of its own, else the figure alone."""
    return scratch_page(getattr(request.module, "SCRATCH", None) or alone(request.module.NAME))
