import numpy as np
import pytest

from engine.attention import softmax_forward
from engine.figures import ParamError, compute, facts, parse
from engine.tasks import winograd


@pytest.mark.parametrize("last", ["tired", "wide"])
def test_the_grid_is_softmax_of_q_kt_over_root_dk_and_the_outputs_are_av(last):
    data = compute(parse("attention-matrix", {"last": last}))
    q, k, v = (np.array(data[n]) for n in ("queries", "keys", "values"))
    a, _ = softmax_forward(q @ k.T / np.sqrt(data["d_k"]))  # row by row
    np.testing.assert_allclose(data["weights"], a, atol=1e-12)
    np.testing.assert_allclose(data["outputs"], a @ v, atol=1e-12)
    np.testing.assert_allclose(data["row_sums"], 1.0)
    np.testing.assert_allclose(data["column_sums"], a.sum(axis=0))


def test_column_sums_are_not_one():
    f = facts(parse("attention-matrix"))
    assert f["top_column_word"] == "animal"
    assert f["top_column_sum"] > 2.5  # "it" and "tired" both look hard at animal
    assert 0.8 < f["other_column_min"] <= f["other_column_max"] < 0.9
    assert f["column_total"] == pytest.approx(f["size"])  # all rows together hand out one each
    assert facts(parse("attention-matrix", {"last": "wide"}))["top_column_word"] == "street"
    np.testing.assert_allclose(f["it_output"], (0.76, 0.02), atol=0.005)
    assert f["d_k"] == f["d_v"] == 2


def test_states_follow_the_rows():
    data = compute(parse("attention-matrix", {"row": 1}))
    text = data["text"]
    assert len(text["states"]) == len(data["words"]) == 11
    assert text["numbers"] == text["states"][1]["numbers"] + text["fixed"]
    it = text["states"][winograd.IT]
    assert it["numbers"][1] == "Output of “it” (row 8 of AV): (0.76, 0.02)"
    assert text["fixed"][0].startswith("Column sums: The 0.84, animal 2.52, ")


@pytest.mark.parametrize("raw, words", [({"row": 11}, "between"), ({"last": "big"}, "must be one of")])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute(parse("attention-matrix", raw))
