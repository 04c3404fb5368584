"""What several figure models' tests share."""
from __future__ import annotations

import pytest

from engine.tasks import writing


@pytest.fixture(scope="module")
def shipped(series_given):
    """Chapter 14's trained model as the site ships it (writing-sample and writing-training draw it)."""
    return writing.shipped(series_given)
