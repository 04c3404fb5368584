import numpy as np
import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.tasks.corpus import word_space


@pytest.fixture(scope="module")
def data():
    return compute(parse("word-map"))


def test_corpus_words_and_vector_length(data):
    f = facts(parse("word-map"))
    assert f["n_sentences"] == 27
    assert f["n_words"] == len(data["words"]) == 16
    assert f["vector_length"] == data["vector_length"] == 148
    assert (word_space().vectors < 0).sum() == 0  # PMI below zero was clipped


def test_sparsity_facts():
    f, space = facts(parse("word-map")), word_space()
    zeros = (space.vectors == 0).sum()
    assert f["zero_share"] == pytest.approx(zeros / space.vectors.size)
    assert f["clipped"] + (space.counts == 0).sum() == zeros
    assert f["unseen_zero_share"] == pytest.approx(1 - f["clipped"] / zeros)
    assert f["seen_pairs"] == (space.vectors > 0).sum() + f["clipped"]
    assert 0 < f["empty_columns"] < f["vector_length"]


def test_map_is_the_corpus_pca(data):
    np.testing.assert_allclose(data["coords"], word_space().coords, atol=1e-4)
    assert facts(parse("word-map"))["explained_both"] == pytest.approx(sum(data["explained"]))
    assert facts(parse("word-map"))["explained_both"] < 0.5  # two directions keep well under half the spread


def test_every_grid_point_lists_its_nearest_words(data):
    xs, ys = data["grid"]["xs"], data["grid"]["ys"]
    coords = np.array(data["coords"])
    rng = np.random.default_rng(0)
    for cell in rng.choice(len(xs) * len(ys), 40, replace=False):
        iy, ix = divmod(int(cell), len(xs))
        d = np.linalg.norm(coords - (xs[ix], ys[iy]), axis=1)
        assert data["grid"]["nearest"][cell] == list(np.argsort(d, kind="stable")[:3])
        assert data["grid"]["distance"][cell] == [round(x, 2) for x in np.sort(d)[:3]]  # as shown
    assert xs[0] < coords[:, 0].min() and xs[-1] > coords[:, 0].max()


def test_the_map_loses_some_neighbours(data):
    space = word_space()
    assert space.nearest_on_map(space.coords[space.words.index("tired")], 2)[1][0] == "sleepy"
    assert facts(parse("word-map"))["map_nearest_animal"] == "field"  # in the full vectors it is dog


def test_start_snaps_to_the_grid():
    d = compute(parse("word-map", {"probe": [-0.35, -0.7]}))
    ix, iy = d["start"]
    cell = iy * len(d["grid"]["xs"]) + ix
    assert d["words"][d["grid"]["nearest"][cell][0]] in {"cat", "dog", "horse"}


@pytest.mark.parametrize("raw, words", [
    ({"probe": [1.0]}, "2 to 2 items"),
    ({"steps": 2}, "between"),
])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute(parse("word-map", raw))


def test_text_template_filled_at_a_grid_cell(data):
    from engine.figures.fmt import fill, fill_all, scope_at
    xs, ys = data["grid"]["xs"], data["grid"]["ys"]
    cell = 7 * len(xs) + 3
    words = [data["words"][i] for i in data["grid"]["nearest"][cell]]
    dist = data["grid"]["distance"][cell]
    assert "states" not in data["text"]
    assert fill_all(data["text"]["templates"], scope_at(data["text"]["scope"], data, cell)) == [f"Probe at ({xs[3]:.2f}, {ys[7]:.2f}), nearest: "
                                       + ", ".join(f"{w} {d:.2f}" for w, d in zip(words, dist))]
    assert data["text"]["fixed"][0].startswith(f"Map positions: {data['words'][0]} ({data['coords'][0][0]:.2f}, ")
    assert f"from {data['vector_length']} numbers" in data["text"]["alt"]
    assert fill(data["text"]["parts"]["near"], {"word": words[0], "v": dist[0]}) == f"{words[0]} (distance {dist[0]:.2f})"
