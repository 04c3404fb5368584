import json

import numpy as np
import pytest

from engine.tasks.corpus import CORPUS, TARGETS, context_counts, cosine_matrix, ppmi, tokenize, unit_rows, word_space


@pytest.fixture(scope="module")
def space():
    return word_space()


def names(pairs):
    return [w for w, _ in pairs]


def test_corpus_size_and_vector_length(space):
    assert len(CORPUS) == 27
    assert len(TARGETS) == 16
    assert space.vectors.shape == (16, 148)  # 74 words (with the boundary mark), before and after


def test_counts_of_a_hand_checked_sentence():
    counts, features = context_counts(["the cat sat", "a cat", "cat cat"], ["cat"])
    got = {f: c for f, c in zip(features, counts[0]) if c}
    assert got == {"before:the": 1, "before:a": 1, "before:.": 1, "before:cat": 1,
                   "after:sat": 1, "after:.": 2, "after:cat": 1}
    assert tokenize("The Cat") == [".", "the", "cat", "."]


def test_ppmi_is_never_negative_and_zero_where_never_seen():
    counts = np.array([[4.0, 0.0, 1.0], [1.0, 3.0, 1.0]])
    p = ppmi(counts)
    assert np.all(p >= 0) and p[0, 1] == 0
    expected = np.log((4 / 10) / ((5 / 10) * (5 / 10)))
    assert p[0, 0] == pytest.approx(expected)


def test_tired_is_nearest_sleepy(space):
    assert names(space.neighbours("tired", 1)) == ["sleepy"]


def test_wide_is_nearest_busy_then_hungry(space):
    # The full vectors do not split place-describers (wide, busy, quiet) from animal-describers.
    assert names(space.neighbours("wide", 2)) == ["busy", "hungry"]


def test_cat_is_nearest_horse_and_dog(space):
    assert set(names(space.neighbours("cat", 2))) == {"horse", "dog"}


def test_street_is_near_river_road_and_park(space):
    assert set(names(space.neighbours("street", 3))) == {"river", "road", "park"}


def test_cosine_is_symmetric_with_ones_on_the_diagonal(space):
    c = cosine_matrix(space.vectors)
    np.testing.assert_allclose(c, c.T)
    np.testing.assert_allclose(np.diag(c), 1.0)


def test_map_separates_describing_words_from_nouns(space):
    g = np.array(space.groups)
    x, y = space.coords[:, 0], space.coords[:, 1]
    assert x[g == "describing"].min() > max(x[g == "animal"].max(), x[g == "place"].max())
    assert y[g == "animal"].mean() < y[g == "place"].mean()  # the second axis parts animals from places
    assert np.all(space.coords[g == "animal"].mean(axis=0) < 0)  # orientation rule


def test_map_is_the_best_2d_projection_of_unit_rows(space):
    unit = unit_rows(space.vectors)
    np.testing.assert_allclose(np.linalg.norm(unit, axis=1), 1.0)
    centred = unit - unit.mean(axis=0)
    s = np.linalg.svd(centred, compute_uv=False)
    np.testing.assert_allclose(space.explained, s[:2] ** 2 / (s ** 2).sum())
    np.testing.assert_allclose(np.linalg.norm(space.coords, axis=0), s[:2])


def test_map_ignores_vector_length():
    # Doubling every sentence doubles the counts but leaves PMI, and so the map, unchanged;
    # scaling one word's row leaves it unchanged too, as it leaves cosine.
    once, twice = word_space(), word_space(CORPUS * 2)
    np.testing.assert_allclose(once.coords, twice.coords, atol=1e-9)
    from engine.tasks.corpus import pca_2d
    scaled = once.vectors.copy()
    scaled[0] *= 5.0
    np.testing.assert_allclose(pca_2d(unit_rows(scaled), once.groups)[0], once.coords, atol=1e-9)


def test_zeros_come_from_pairs_never_seen(space):
    zeros = space.vectors == 0
    unseen = space.counts == 0
    assert np.all(zeros[unseen])  # every unseen pair is 0 ...
    assert (zeros & ~unseen).sum() < 0.01 * zeros.sum()  # ... and clipping adds under 1% of the zeros
    assert zeros.all(axis=0).sum() > space.vectors.shape[1] / 2  # most columns are 0 for every word


def test_probe_finds_the_nearest_words_on_the_map(space):
    i = space.words.index("busy")
    assert space.nearest_on_map(space.coords[i], 1)[0][0] == "busy"


def test_json(space):
    data = json.loads(json.dumps(space.to_json()))
    assert len(data["coords"]) == 16 and len(data["vectors"][0]) == 148
