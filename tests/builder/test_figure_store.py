"""The store of computed figures (builder/figure_store.py): a second run computes nothing it holds, and
an edit to any code a figure is made of, its options or the prose it reads makes it computed again."""
from __future__ import annotations

import os
import shutil
import time

import pytest

from builder import fallbacks
from builder.figure_store import KEEP_DAYS, FigureStore
from builder.figures import FigureCache
from engine import figures as models
from engine import given
from engine.given import SERIES, Given
from tests.conftest import ROOT

from .helpers import one_chapter_site


@pytest.fixture
def tree(tmp_path):
    """A copy of the code a store's keys read (engine/, builder/), to edit as an author would."""
    for part in ("engine", "builder"):
        shutil.copytree(ROOT / part, tmp_path / "tree" / part, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path / "tree"


def _edit(tree, rel: str, old: str = "", new: str = "\n# edited\n") -> None:
    path = tree / rel
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1) if old else text + new)


def test_a_second_run_computes_nothing_and_gives_what_the_first_computed(tmp_path, monkeypatch):
    asked = [models.parse("matrix-product"), models.parse("matrix-product", {"seed": 3}),
             models.parse("softmax-temperature")]
    first = FigureCache(FigureStore(tmp_path / "store", ROOT))
    made = [(first.lookup(p), first.svg(first.data(p))) for p in asked]
    assert first.store.computed == 9 and first.store.found == 0  # data, facts and a drawing each

    def never(*args):
        raise AssertionError("computed again")

    for name in ("compute", "facts"):
        monkeypatch.setattr(models, name, never)
    monkeypatch.setattr(fallbacks, "render_svg", never)
    again = FigureCache(FigureStore(tmp_path / "store", ROOT))  # another run: nothing in memory
    assert [(again.lookup(p), again.svg(again.data(p))) for p in asked] == made
    assert again.store.computed == 0 and again.store.found == 9


def test_an_edit_recomputes_only_the_figures_made_of_that_code(tmp_path, tree):
    """The model, a module it imports, its fallback, the maker of a file it is given; never another
    figure's model, nor the list of figures."""
    store = FigureStore(tmp_path / "store", tree, follows_edits=True)  # as serve's, which reloads the code
    matrix, temperature = models.parse("matrix-product"), models.parse("softmax-temperature")
    sample = models.parse("writing-sample")

    def computed() -> set[str]:
        """What a run computes again (stand-ins for the values: the keys are under test)."""
        out = set()
        for name, params in (("matrix", matrix), ("temperature", temperature), ("sample", sample)):
            for what, ask in (("data", lambda: store.data(params, WRITING, lambda: {})),
                              ("drawing", lambda: store.svg(models.name_of(params), "{}", lambda: b"<svg/>"))):
                count = store.computed
                ask()
                if store.computed > count:
                    out.add(f"{name} {what}")
        return out

    assert len(computed()) == 6
    assert computed() == set()
    _edit(tree, "engine/figures/matrix_product.py")
    assert computed() == {"matrix data"}
    _edit(tree, "builder/fallbacks/matrix_product.py")
    assert computed() == {"matrix drawing"}
    _edit(tree, "engine/attention.py")  # softmax-temperature's, and the writing model's, not matrix-product's
    assert computed() == {"temperature data", "sample data"}
    _edit(tree, "engine/tasks/writing.py")  # what unpacks the model writing-sample is given
    assert computed() == {"sample data"}
    _edit(tree, "builder/fallbacks/__init__.py")  # every drawing's
    assert computed() == {"matrix drawing", "temperature drawing", "sample drawing"}
    (tree / "engine/figures/a_new_figure.py").write_text((tree / "engine/figures/matrix_product.py").read_text())
    assert computed() == set()  # a figure added (engine.figures finds it: no list is edited) changes no other


def test_a_run_that_imports_its_code_once_keys_by_the_code_it_first_read(tmp_path, tree):
    """An edit saved while a build runs must not key what the old code makes by the new code."""
    store = FigureStore(tmp_path / "store", tree)
    params = models.parse("matrix-product")
    store.data(params, WRITING, lambda: "made by the code as first read")
    _edit(tree, "engine/figures/matrix_product.py")
    assert store.data(params, WRITING, lambda: "not made again in this run") == "made by the code as first read"
    assert FigureStore(tmp_path / "store", tree).data(params, WRITING, lambda: "the next run's") == "the next run's"


# Stand-ins for what a build gives: the store keys on their digests, never reads them.
WRITING = Given({SERIES: b"The prose of the series.", "writing-model": b"weights learnt from it"})


def test_other_options_and_other_inputs_are_other_entries(tmp_path):
    store = FigureStore(tmp_path / "store", ROOT)
    for params in (models.parse("matrix-product"), models.parse("bpe-merges"), models.parse("writing-sample")):
        store.data(params, WRITING, lambda: "first")
    assert store.data(models.parse("matrix-product", {"seed": 3}), WRITING, lambda: "seed 3") == "seed 3"
    assert store.data(models.parse("matrix-product"), WRITING, lambda: "again") == "first"
    edited = WRITING.with_file(SERIES, b"Other prose, as after an edit to a chapter.")
    assert store.data(models.parse("matrix-product"), edited, lambda: "again") == "first"  # reads no prose
    assert store.data(models.parse("bpe-merges"), edited, lambda: "other prose") == "other prose"
    assert store.data(models.parse("writing-sample"), edited, lambda: "again") == "first"  # reads the model, not the prose
    retrained = WRITING.with_file("writing-model", b"other weights")
    assert store.data(models.parse("writing-sample"), retrained, lambda: "other model") == "other model"


def test_every_figure_s_options_are_named_whole_by_their_repr():
    """The key holds the Params' repr: it must tell any two apart, as it does if it reads back equal."""
    for name in models.FIGURES:
        mod = models.module(name)
        for options in ({}, getattr(mod, "EXAMPLE", {})):
            params = models.parse(name, options)
            assert eval(repr(params), vars(mod)) == params, (name, repr(params))  # noqa: S307 (our own repr)


def test_an_entry_that_cannot_be_read_is_made_again(tmp_path):
    store = FigureStore(tmp_path / "store", ROOT)
    params = models.parse("matrix-product")
    store.data(params, WRITING, lambda: "first")
    (entry,) = [path for path in (tmp_path / "store").iterdir() if path.suffix == ".data"]
    entry.write_bytes(entry.read_bytes()[:5])  # a run stopped mid-write by another tool, or a disk full
    assert store.data(params, WRITING, lambda: "made again") == "made again"
    assert FigureStore(tmp_path / "store", ROOT).data(params, WRITING, lambda: "not called") == "made again"


MADE = []


def made_probe(series: bytes) -> bytes:
    MADE.append(series)
    return b"weights learnt from " + series[:10]


@pytest.fixture
def probe(monkeypatch):
    """A made file whose making is counted (MADE): what it was made from."""
    monkeypatch.setitem(given.MADE, "probe-weights", f"{__name__}:made_probe")
    MADE.clear()
    return lambda prose: Given({SERIES: prose})


def test_a_file_made_from_the_prose_is_made_once_per_prose_across_runs(tmp_path, probe):
    one, two = probe(b"Some prose to learn from."), probe(b"Other prose.")
    first = FigureCache(FigureStore(tmp_path / "store", ROOT))
    data = first.made("probe-weights", one)
    assert first.made("probe-weights", one) == data and len(MADE) == 1
    again = FigureCache(FigureStore(tmp_path / "store", ROOT))  # another run: found, not made
    assert again.made("probe-weights", one) == data and len(MADE) == 1
    assert again.made("probe-weights", two) != data and MADE == [b"Some prose to learn from.", b"Other prose."]
    assert again.made("probe-weights", one) == data and len(MADE) == 2  # earlier prose back: kept


def test_a_kept_file_is_read_before_the_store_and_the_series_build_keeps_what_it_makes(tmp_path, probe):
    one, two = probe(b"The prose."), probe(b"Prose, edited.")
    kept = tmp_path / "models"
    build = FigureStore(tmp_path / "store", ROOT, kept=kept, keep=True)
    data = build.made("probe-weights", one)
    assert [p.name for p in kept.iterdir()] == [build.kept_file("probe-weights", one).name] and len(MADE) == 1
    assert build.kept_file("probe-weights", one).read_bytes() == data
    clone = FigureStore(tmp_path / "a fresh clone's store", ROOT, kept=kept)  # nothing stored: read from models/
    assert clone.made("probe-weights", one) == data and clone.find_made("probe-weights", one) == data and len(MADE) == 1
    assert clone.find_made("probe-weights", two) is None
    assert clone.made("probe-weights", two) != data and len(MADE) == 2
    assert [p.name for p in kept.iterdir()] == [build.kept_file("probe-weights", one).name]  # a test's: not kept
    build.made("probe-weights", two)  # the prose edited, and built: its file replaces the old one
    assert [p.name for p in kept.iterdir()] == [build.kept_file("probe-weights", two).name] and len(MADE) == 3
    assert build.kept_file("probe-weights", one) != build.kept_file("probe-weights", two)


def test_the_series_model_is_kept_for_the_prose_and_code_as_they_are(series_given):
    """A fresh clone's build reads chapter 14's model from models/ instead of training it for minutes:
    after an edit to the prose or to the model's code, the build trains it again and keeps it there,
    and the change is not whole until that file is committed with it."""
    store = FigureStore(ROOT / ".cache" / "unused", ROOT, kept=ROOT / "models")
    kept = store.kept_file("writing-model", series_given)
    assert kept.is_file(), (f"{kept.relative_to(ROOT)} is missing: the prose or the model's code changed since "
                            "models/ was committed; build the site and commit the file it keeps")
    assert kept.read_bytes() == series_given["writing-model"]


def test_while_drafting_a_made_file_outlives_new_prose_until_its_code_changes(tmp_path, probe):
    cache = FigureCache(FigureStore(tmp_path / "store", ROOT))
    cache.drafting = True  # as serve's
    data = cache.made("probe-weights", probe(b"one"), drafting=True)
    assert cache.made("probe-weights", probe(b"two"), drafting=True) == data and len(MADE) == 1  # a sentence saved
    cache.forget({__name__})  # its maker's code changed (serve reloaded it): made from the prose as it is
    assert cache.made("probe-weights", probe(b"two"), drafting=True) != data and MADE[-1] == b"two"
    assert FigureCache().made("probe-weights", probe(b"three")) == b"weights learnt from three"  # a build: no store, no drafting


def test_check_and_the_catalogue_share_the_store(tmp_path, monkeypatch, capsys):
    """A catalogue after a check reads the check's data, facts and drawing of a figure at its defaults
    (a second run of either computes nothing: test_a_second_run_... above)."""
    import build
    import builder.build
    from builder.cache import BuildCache

    monkeypatch.setattr(build, "FIGURE_STORE", tmp_path / "store")
    monkeypatch.setattr(builder.build, "BuildCache", BuildCache)  # not the session's: its figures are computed
    monkeypatch.setattr(models, "FIGURES", ("matrix-product",))
    content = one_chapter_site(tmp_path / "content", "# T\n\n/// figure | matrix-product\n\nA caption.\n///\n")
    assert build.main(["check", "--content", str(content)]) == 0
    assert "figures: 3 computed, 0 found" in capsys.readouterr().out  # data, facts (unused_facts), drawing
    assert build.main(["catalogue", "--content", str(content), "--out", str(tmp_path / "cat")]) == 0
    assert "figures: 0 computed, 3 found" in capsys.readouterr().out


def test_the_builds_slow_values_and_verdicts_are_found_by_the_next_run(tmp_path, monkeypatch):
    """A first build on a built clone (serve's) reads the math font, the engine's parsed files, the
    lock, the views' parse and each exercise's verdict instead of making them again."""
    from builder import grading
    from builder.cache import DURABLE, BuildCache

    solution = ("def softmax(x):\n    e = np.exp(x - x.max(axis=-1, keepdims=True))\n"
                "    return e / e.sum(axis=-1, keepdims=True)\n")
    made = []
    for run in range(2):
        cache = BuildCache(FigureCache(FigureStore(tmp_path / "store", ROOT)))  # a new process each time
        for table in DURABLE:
            assert cache.get(table, "the key", lambda: made.append(table) or f"{table} made") == f"{table} made"
        verdict = grading.Run("softmax", solution, cache).verdict()
        assert verdict["state"] == "passed", verdict
        monkeypatch.setattr(grading.subprocess, "Popen", lambda *a, **k: pytest.fail("graded again"))
    assert made == list(DURABLE)


def test_entries_and_locks_no_run_read_for_keep_days_are_deleted(tmp_path):
    store = FigureStore(tmp_path / "store", ROOT)
    read, unread = (models.parse("matrix-product", {"seed": seed}) for seed in (1, 2))
    store.data(read, WRITING, lambda: "made")
    (kept,) = (tmp_path / "store").glob("*.data")
    store.data(unread, WRITING, lambda: "made")
    (gone,) = set((tmp_path / "store").glob("*.data")) - {kept}
    locks = list((tmp_path / "store" / "locks").iterdir())
    assert len(locks) == 2
    long_ago = time.time() - (KEEP_DAYS + 1) * 86400
    for path in (kept, gone, *locks):
        os.utime(path, (long_ago, long_ago))
    assert store.data(read, WRITING, lambda: "not called") == "made"  # read: kept another KEEP_DAYS
    assert store.prune() == 1
    assert kept.exists() and not gone.exists()
    assert not any(path.exists() for path in locks)
