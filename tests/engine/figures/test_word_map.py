import numpy as np
import pytest

from engine.figures import ParamError, compute
from engine.tasks.corpus import word_space


@pytest.fixture(scope="module")
def data():
    return compute("word-map")


def test_corpus_words_and_vector_length(data):
    facts = data["facts"]
    assert facts["n_sentences"] == 27
    assert facts["n_words"] == 16
    assert facts["vector_length"] == 148
    assert facts["negative_entries"] == 0  # PMI below zero was clipped


def test_map_is_the_corpus_pca(data):
    np.testing.assert_allclose(data["coords"], word_space().coords, atol=1e-4)
    assert data["facts"]["explained_both"] == pytest.approx(sum(data["explained"]))
    assert data["facts"]["explained_both"] < 0.5  # two directions keep well under half the spread


def test_every_grid_point_lists_its_nearest_words(data):
    xs, ys = data["grid"]["xs"], data["grid"]["ys"]
    coords = np.array(data["coords"])
    rng = np.random.default_rng(0)
    for cell in rng.choice(len(xs) * len(ys), 40, replace=False):
        iy, ix = divmod(int(cell), len(xs))
        d = np.linalg.norm(coords - (xs[ix], ys[iy]), axis=1)
        assert data["grid"]["nearest"][cell] == list(np.argsort(d, kind="stable")[:3])
        np.testing.assert_allclose(data["grid"]["distance"][cell], np.sort(d)[:3], atol=1e-4)
    assert xs[0] < coords[:, 0].min() and xs[-1] > coords[:, 0].max()


def test_the_map_loses_some_neighbours(data):
    assert data["facts"]["map_nearest_tired"] == "sleepy"
    assert data["facts"]["map_nearest_animal"] == "field"  # in the full vectors it is dog


def test_start_snaps_to_the_grid():
    d = compute("word-map", {"probe": [-1.8, -0.3]})
    ix, iy = d["start"]
    cell = iy * len(d["grid"]["xs"]) + ix
    assert d["words"][d["grid"]["nearest"][cell][0]] in {"cat", "dog", "horse"}


@pytest.mark.parametrize("raw, words", [
    ({"nearest": 20}, "between"),
    ({"probe": [1.0]}, "2 to 2 items"),
    ({"steps": 2}, "between"),
])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute("word-map", raw)
