"""Fixtures shared by every test folder.

Builder and browser tests build the series many times: they share one figure cache across the
session, and the test processes share its first filling. The engine does not change while tests
run, so a model's output and its fallback SVG for the same options are the same in every build;
recomputing them per build only costs minutes. Tests that need a cold cache pass their own BuildCache.
"""
from __future__ import annotations

import contextlib
import functools
import os

# One BLAS thread, set before anything imports numpy: the engine's matrices are small, and on a
# shared machine OpenBLAS's threads wait on each other (the induction tests ran 13x slower with two).
# Every figure's compute() gives byte-identical data with one thread and with two.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import shutil  # noqa: E402
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PALETTE = ROOT / "theme" / "palette.toml"  # the series' (Paths.at(ROOT).palette)


# The test modules that run longest (half a minute to two minutes of one process each, on 2 cores),
# handed out first and longest first; the rest follow in collection order, the browser's before the
# builder's, and the many short engine tests last, where they fill the gaps. xdist hands a process a
# whole module or class at a time (pyproject.toml: --dist loadscope), so one of these handed out
# late ran alone at the end while the other core idled: test_serve.py did, for half a minute.
LONGEST_FIRST = (
    "tests/browser/test_real_python.py",
    "tests/browser/test_every_page.py",  # a class per screen with scripts, about a minute each, and one without
    "tests/browser/test_engines.py",  # Firefox and WebKitGTK, each through every page with Python: about 2.5 minutes
    "tests/builder/test_serve.py",
    "tests/builder/test_errors.py",
    "tests/browser/test_offline.py",
    "tests/builder/test_new_figure.py",
)


def pytest_collection_modifyitems(items) -> None:
    rank = {module: i for i, module in enumerate(LONGEST_FIRST)}
    missing = [module for module in LONGEST_FIRST if not (ROOT / module).is_file()]
    assert not missing, f"LONGEST_FIRST names modules that are gone: {missing}"
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable: the rest keep their order


@pytest.fixture
def content(tmp_path) -> Path:
    """A private copy of content/ that a test may break."""
    dest = tmp_path / "content"
    shutil.copytree(ROOT / "content", dest)
    return dest


@pytest.fixture(scope="session")
def shared_figure_cache(request, tmp_path_factory):
    """The FigureCache of the BuildCache every build of the session that passes none uses (builder and
    browser tests ask for it in their conftest), holding every figure of the series from the start."""
    import builder.build
    from builder.cache import BuildCache

    from engine import given

    shared = _series_figures(request.config, tmp_path_factory)
    given.remember(shared.made)  # chapter 14's trained model: this process need not train it again
    cache = BuildCache(shared)  # its other tables are keyed by every input too, so the session shares them
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.build, "BuildCache", lambda: cache)
        yield shared


@functools.cache
def _series_prose() -> bytes:
    from builder.corpus import read_corpus
    from builder.site_config import load_site_config

    return read_corpus(load_site_config(ROOT / "content").chapters).text.encode()


def give_series() -> bytes:
    """Give the engine the series' prose, as a build does before it computes any figure
    (engine/given.py): chapter 14's models learn from it. Returns what was given."""
    from engine import given

    given.give(given.SERIES, _series_prose())
    return _series_prose()


@pytest.fixture(autouse=True, scope="session")
def no_figure_store():
    """build.py's command line, run in-process, computes every figure as a fresh checkout does: a test
    that patches a model must see it run, not what an earlier run kept in .cache/figures (the store
    has its own tests, tests/builder/test_figure_store.py)."""
    import build

    build.FIGURE_STORE = None


@pytest.fixture(autouse=True)
def series_given() -> bytes:
    """The series' prose given before every test, as a build gives it: a test that built a small
    site of its own left that site's prose given. Read once per process; giving it costs nothing,
    and the model made from it is kept (engine/given.py), so it trains once per process."""
    return give_series()


def _series_figures(config, tmp_path_factory):
    """Every figure the series' chapters use, computed once per test run: the first test process
    (xdist worker) to ask computes them while the others wait for its file, so the cores compute
    the chapters side by side instead of every process computing all of them. A run that a test
    starts (tests/prewarmed.py's ENV) takes its parent run's."""
    from filelock import FileLock

    from tests import prewarmed

    given = os.environ.get(prewarmed.ENV)
    if given and (cache := prewarmed.load(Path(given), ROOT)) is not None:
        return cache
    if not hasattr(config, "workerinput"):  # one process: no one to share with
        return _compute_series_figures()
    path = tmp_path_factory.getbasetemp().parent / "series-figures.pickle"  # this run's, beside its workers'
    with FileLock(f"{path}.lock"):
        if path.is_file() and (cache := prewarmed.load(path, ROOT)) is not None:
            return cache
        cache = _compute_series_figures()
        prewarmed.save(cache, ROOT, path)
        return cache


def _compute_series_figures():
    """One process per core, a chapter at a time (spawned: a test process may already run threads)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from builder.figures import FigureCache
    from builder.site_config import load_site_config

    cache = FigureCache()
    chapters = range(len(load_site_config(ROOT / "content").chapters))
    with ProcessPoolExecutor(os.cpu_count(), mp_context=multiprocessing.get_context("spawn")) as pool:
        for computed in pool.map(_chapter_figures, reversed(chapters)):  # the last, longest chapters first
            cache.update(computed)
    return cache


def _chapter_figures(index: int):
    """The figures and inline values of the series' chapter `index`, in a fresh FigureCache."""
    from builder.build import compute_chapter, read_chapter
    from builder.cache import BuildCache
    from builder.site_config import load_site_config

    cache = BuildCache()
    give_series()
    compute_chapter(read_chapter(load_site_config(ROOT / "content").chapters[index]), cache)
    from engine import given
    cache.figures.made = given.made()  # chapter 14's trained model: the other processes need not train it again
    return cache.figures


@contextlib.contextmanager
def drafting():
    """For builds whose prose edits are beside the point (a block or a link in chapter 4, a sentence
    for an update to carry): chapter 14's model stays the one made from the series' prose, as under
    `serve` (engine/given.keep_made), instead of training again on the edited prose (12 s of CPU)."""
    from engine import given

    given.keep_made()
    try:
        yield
    finally:
        given.keep_made(False)


def pyodide_kit() -> Path:
    """The Pyodide distribution with a real numpy that ATTN_PYODIDE_DIST names (.ci/run makes one
    from ../shared/pyodide-kit). Without it the test skips, saying why; with ATTN_REQUIRE_LIVE set
    (as .ci/run sets it wherever the kit exists) it fails instead: there, a live test may not skip."""
    dist = os.environ.get("ATTN_PYODIDE_DIST")
    if not dist:
        reason = ("needs a Pyodide distribution with a real numpy in ATTN_PYODIDE_DIST "
                  "(../shared/pyodide-kit/make-kit.sh makes one); no Pyodide numpy can be downloaded here")
        if os.environ.get("ATTN_REQUIRE_LIVE"):
            pytest.fail(reason + " (ATTN_REQUIRE_LIVE is set, so the live tests must run)")
        pytest.skip(reason)
    return Path(dist)
