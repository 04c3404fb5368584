"""Every figure model here may read the series' prose (chapter 14's learn from it: engine/given.py),
so the tests that run every figure have it, as a build gives it before computing any figure."""
import pytest


@pytest.fixture(scope="session", autouse=True)
def _the_series_given(series_given):
    """The prose given once per test process; a chapter-14 model trains on it when first computed."""
