import json

import numpy as np
import pytest

from engine.tasks.corpus import CORPUS, TARGETS, context_counts, cosine_matrix, ppmi, tokenize, word_space


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


def test_wide_is_nearest_busy(space):
    assert names(space.neighbours("wide", 1)) == ["busy"]


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
    x = space.coords[:, 0]
    assert x[g == "describing"].min() > max(x[g == "animal"].max(), x[g == "place"].max())
    assert x[g == "animal"].mean() < x[g == "place"].mean()
    assert np.all(space.coords[g == "animal"].mean(axis=0) < 0)  # orientation rule


def test_map_is_the_best_2d_projection(space):
    centred = space.vectors - space.vectors.mean(axis=0)
    s = np.linalg.svd(centred, compute_uv=False)
    np.testing.assert_allclose(space.explained, s[:2] ** 2 / (s ** 2).sum())
    np.testing.assert_allclose(np.linalg.norm(space.coords, axis=0), s[:2])


def test_probe_finds_the_nearest_words_on_the_map(space):
    i = space.words.index("busy")
    assert space.nearest_on_map(space.coords[i], 1)[0][0] == "busy"


def test_json(space):
    data = json.loads(json.dumps(space.to_json()))
    assert len(data["coords"]) == 16 and len(data["vectors"][0]) == 148
