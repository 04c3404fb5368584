"""What several figure models' tests share."""
from __future__ import annotations

import pytest

from engine.tasks import writing
from tests.conftest import give_series


@pytest.fixture(scope="module")
def shipped():
    """Chapter 14's trained model as the site ships it (writing-sample and writing-training draw it).
    The series' prose is given first: a module fixture is set up before the function-scoped gift."""
    give_series()
    return writing.shipped()
