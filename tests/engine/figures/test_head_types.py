import numpy as np
import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.figures.head_types import HEADS, TOKENS


@pytest.fixture(scope="module")
def data():
    return compute(parse("head-types"))


def test_tokens_keep_their_leading_space(data):
    assert data["tokens"][0] == "The" and data["tokens"][3] == " the"  # different tokens
    assert data["chips"][3] == "·the" and data["chips"][0] == "The"
    assert data["vocab_size"] == len(set(TOKENS))


def test_rows_are_causal_softmaxes(data):
    for head in data["heads"]:
        w = np.array(head["weights"])
        assert np.allclose(w.sum(axis=1), 1)
        assert np.all(w[np.triu_indices(len(TOKENS), 1)] == 0)  # later tokens get exactly nothing


def test_each_head_finds_what_it_was_built_for(data):
    by = {h["name"]: h for h in data["heads"]}
    prev, same, ind = by["previous"], by["same"], by["induction"]
    assert prev["top"][1:] == list(range(len(TOKENS) - 1))  # every token but the first looks one back
    dog = TOKENS.index(" dog", 2)
    assert same["top"][dog] == TOKENS.index(" dog")  # the second " dog" finds the first
    assert ind["top"][dog] == TOKENS.index(" chased")  # ... and the induction head the word after it
    assert same["targets"][TOKENS.index(" the")] == []  # "The" at the start is another token
    for head in data["heads"]:
        with_target = [i for i, t in enumerate(head["targets"]) if t]
        assert head["rows_with_target"] == len(with_target)
        assert head["hits"] == sum(head["top"][i] in head["targets"][i] for i in with_target)
        assert head["share"] == head["hits"] / head["rows_with_target"]
        for i, t in enumerate(head["targets"]):  # with nothing to find, a head rests on the first token
            if not t and i > 0 and head["name"] != "previous":
                assert head["top"][i] == 0


def test_the_induction_keys_read_what_layer_one_wrote(data):
    written = np.array(data["previous_written"])
    vocab = list(dict.fromkeys(TOKENS))
    for i in range(1, len(TOKENS)):
        assert int(written[i].argmax()) == vocab.index(TOKENS[i - 1])
        assert data["written_chip"][i] == TOKENS[i - 1].replace(" ", "·")
    # break layer 1's copy and the induction head no longer finds its target: it depends on the composition
    from engine.attention import attention_forward
    from engine.figures import head_types as ht
    _, x = ht._features()
    v, t = len(vocab), len(TOKENS)
    _, cache = attention_forward(x, *ht._induction(v, t), causal=True)  # the stream without layer 1's addition
    dog = TOKENS.index(" dog", 2)
    assert int(cache.weights[0][dog].argmax()) == 0


def test_layer_one_adds_its_output_to_the_stream(data):
    """Between the layers the previous-word head's output is added to each vector through W_O, as a
    residual connection adds (chapter 10): the token and position slots are unchanged, and the
    "previous" slot, empty before, holds what the head wrote."""
    from engine.attention import attention_forward
    from engine.figures import head_types as ht
    vocab, x = ht._features()
    v, t = len(vocab), len(TOKENS)
    assert x.shape == (t, v + t + v) and np.all(x[:, v + t:] == 0)  # the previous slot starts empty
    out, _ = attention_forward(x, *ht._previous(v, t), causal=True)  # (T, V)
    x2 = x + out @ ht._write(v, t)
    assert np.array_equal(x2[:, :v + t], x[:, :v + t])
    np.testing.assert_allclose(x2[:, v + t:], data["previous_written"])
    assert data["slots"] == {"token": v, "position": t, "previous": v} and data["width"] == v + t + v


def test_facts(data):
    f = facts(parse("head-types"))
    v = len(set(TOKENS))
    assert f["tokens"] == len(TOKENS) and f["features"] == v + len(TOKENS) + v
    assert (f["token_slot"], f["position_slot"], f["previous_slot"]) == (v, len(TOKENS), v)
    assert f["previous_share"] == f["same_share"] == f["induction_share"] == 1.0
    assert (f["previous_rows"], f["same_rows"], f["induction_rows"]) == (12, 4, 4)
    assert (f["previous_hits"], f["same_hits"], f["induction_hits"]) == (12, 4, 4)
    assert f["induction_dog_target"] == "chased" and f["induction_dog_weight"] > 0.9
    assert 0.4 < f["last_the_ball"] < 0.5 and 0.4 < f["last_the_dog"] < 0.5  # two earlier " the", two successors


def test_text_states_follow_the_heads_and_rows(data):
    t = len(TOKENS)
    states = data["text"]["states"]
    assert len(states) == len(HEADS) * t
    s = states[HEADS.index("induction") * t + 8]
    assert s["numbers"][0].startswith("induction head, “·dog” (9) looks at: The ")
    assert "its target" in s["numbers"][1] and "“·chased” (3)" in s["numbers"][1]
    assert s["numbers"][0].count(",") >= 8  # nine tokens listed: the later ones are masked
    opening = states[HEADS.index("previous") * t + 8]  # the figure opens on the head the chapter starts with
    assert data["start"] == {"head": HEADS.index("previous"), "row": 8}
    assert data["text"]["numbers"] == opening["numbers"] + data["text"]["fixed"]
    assert data["text"]["fixed"][0] == ("Previous-word head: largest weight on the word just before in 12 of 12 "
                                        "tokens that have one (100%)")
    first = states[HEADS.index("same") * t + 0]
    assert first["numbers"][1].startswith("No target")


@pytest.mark.parametrize("raw, words", [({"head": "copy"}, "must be one of"), ({"row": 13}, "between 0 and 12")])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute(parse("head-types", raw))
