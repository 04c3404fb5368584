"""Fixtures shared by every test folder.

Builder and browser tests build the series many times: every test process, and every build.py or
pytest a test starts, reads and fills one figure store of the run's (builder/figure_store.py, keyed
by the code and inputs each value is made of), filled first with the series' figures; in a process,
builds share one BuildCache over it. Tests that need a cold cache pass their own BuildCache.
"""
from __future__ import annotations

import contextlib
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


def once_per_run(request, tmp_path_factory, name: str, make) -> Path:
    """A folder of this test run's, made once by make(folder): the first test process (xdist worker)
    to ask makes it while the others wait for it, then all read it. With one process, made here."""
    from filelock import FileLock

    if not hasattr(request.config, "workerinput"):  # one process: no one to share with
        folder = tmp_path_factory.mktemp(name)
        make(folder)
        return folder
    folder = tmp_path_factory.getbasetemp().parent / name  # this run's, beside its workers'
    done = folder.with_name(f"{name}.done")
    with FileLock(f"{folder}.lock"):
        if not done.is_file():
            folder.mkdir(exist_ok=True)
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def figure_store(request, tmp_path_factory):
    """The run's figure store (builder/figure_store.py), which every test process and every build.py
    or pytest they start (through the environment) reads and fills: what one computed, the others
    find. Filled first with every figure of the series, the cores computing its chapters side by side.
    A pytest that a test starts uses its parent run's."""
    import build
    from builder.figure_store import FigureStore

    folder = Path(os.environ.get(build.STORE_ENV) or once_per_run(request, tmp_path_factory, "figure-store",
                                                                   _compute_series_figures))
    os.environ[build.STORE_ENV] = str(folder)
    return FigureStore(folder, ROOT, kept=ROOT / "models")  # read, never written: a build's


@pytest.fixture(scope="session")
def shared_figure_cache(figure_store):
    """The FigureCache of the BuildCache every build of the session that passes none uses (builder and
    browser tests ask for it in their conftest), reading the run's store."""
    import builder.build
    from builder.cache import BuildCache
    from builder.figures import FigureCache

    cache = BuildCache(FigureCache(figure_store))  # its other tables are keyed by every input too, so the session shares them
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.build, "BuildCache", lambda: cache)
        yield cache.figures


@pytest.fixture(scope="session")
def series_given(figure_store):
    """What a build of the series gives its figures beyond their options (builder/inputs.py): the
    prose, and chapter 14's model made from it, read from the run's store."""
    from builder.build import read_chapter
    from builder.figures import FigureCache
    from builder.inputs import given_for
    from builder.site_config import load_site_config
    from engine.given import MADE

    sources = [read_chapter(entry) for entry in load_site_config(ROOT / "content").chapters]
    return given_for(sources, FigureCache(figure_store), names=set(MADE))


@pytest.fixture(autouse=True, scope="session")
def no_figure_store():
    """build.py's command line, run in-process, keeps nothing in .cache/figures: its builds use the
    session's cache, and a test that patches a model passes a cache of its own (the store has its own
    tests, tests/builder/test_figure_store.py)."""
    import build

    build.FIGURE_STORE = None


def _compute_series_figures(folder: Path) -> None:
    """Every figure of the series into the store at `folder`: one process per core, a chapter at a
    time (spawned: a test process may already run threads)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from builder.build import read_chapter
    from builder.inputs import series_prose
    from builder.site_config import load_site_config

    entries = load_site_config(ROOT / "content").chapters
    prose = series_prose([read_chapter(entry) for entry in entries])  # once, not in every chapter's task
    n = len(entries)
    with ProcessPoolExecutor(os.cpu_count(), mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(_chapter_figures, [folder] * n, reversed(range(n)), [prose] * n))  # the last, longest first


def _chapter_figures(folder: Path, index: int, prose: bytes) -> None:
    """The figures and inline values of the series' chapter `index` (the series' prose `prose`),
    kept in the store at `folder`."""
    from builder.build import compute_chapter, read_chapter
    from builder.cache import BuildCache
    from builder.figure_store import FigureStore
    from builder.figures import FigureCache
    from builder.inputs import given_of, needed
    from builder.site_config import load_site_config

    source = read_chapter(load_site_config(ROOT / "content").chapters[index])
    cache = BuildCache(FigureCache(FigureStore(folder, ROOT, kept=ROOT / "models")))
    compute_chapter(source, cache, given_of(prose, cache.figures, needed([source])))


@contextlib.contextmanager
def drafting(cache):
    """For builds whose prose edits are beside the point (a block or a link in chapter 4, a sentence
    for an update to carry): chapter 14's model stays the one made from the series' prose, as under
    `serve` (FigureCache.drafting), instead of training again on the edited prose (12 s of CPU)."""
    cache.drafting = True
    try:
        yield
    finally:
        cache.drafting = False


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
