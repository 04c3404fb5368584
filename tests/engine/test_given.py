"""What a figure is given beyond its options (engine/given.py): files by name, each hashed once, equal
and hashable by their digests; a model is handed only what it declares, and a missing one is named."""
import pytest

from engine.figures import compute, parse
from engine.given import MADE, NOTHING, SERIES, Given, digest_of


def test_given_files_are_equal_and_hashable_by_their_digests():
    one, again = Given({SERIES: b"one", "model": b"weights"}), Given({"model": b"weights", SERIES: b"one"})
    assert one == again and hash(one) == hash(again) and dict(one) == {SERIES: b"one", "model": b"weights"}
    assert one.digest(SERIES) == digest_of(b"one") != one.digest("model")
    assert one != Given({SERIES: b"two", "model": b"weights"}) != NOTHING
    assert "Given(model=" in repr(one) and "weights" not in repr(one)  # a digest, not hundreds of KB


def test_only_and_with_file_make_new_values_and_keep_the_old():
    given = Given({SERIES: b"one"})
    more = given.with_file("model", b"weights")
    assert list(given) == [SERIES] and set(more) == {SERIES, "model"}
    assert more.only(["model", "absent"]) == Given({"model": b"weights"})
    with pytest.raises(TypeError):
        given["model"] = b"other"  # a Mapping, not a dict


def test_a_model_is_handed_what_it_declares_and_a_missing_input_is_named():
    params = parse("bpe-merges", {"merges": 3, "start": 3, "sentence": "the cat"})
    with pytest.raises(KeyError, match="figure 'bpe-merges' reads 'series', which it was not given"):
        compute(params)
    text = b"the cat sat on the mat. the cat ate. " * 3
    data = compute(params, Given({SERIES: text, "writing-model": b"not read by this figure"}))
    assert data["characters"] == len(text)
    assert set(MADE) == {"writing-model"}  # the files the build makes: builder/inputs.py
