"""intervention: ablating chapter 9's heads and swapping words, reproduced by the engine."""
from __future__ import annotations

import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.figures.intervention import ABLATIONS
from engine.tasks import grammar


@pytest.fixture(scope="module")
def data():
    return compute(parse("intervention"))


@pytest.fixture(scope="module")
def f():
    return facts(parse("intervention"))


def test_each_readout_depends_on_the_head_the_map_assigns_it(f):
    """Seed 0's map: head 1 on attached words, head 2 on previous words. Ablation tests it."""
    acc = f["seeds"]["0"]["mean"]
    assert acc["none"] == {"attached": 1.0, "previous": 1.0}
    assert acc["head1"]["attached"] < 0.3 < 0.7 < acc["head1"]["previous"] < 0.95  # mostly, not only
    assert acc["head2"]["previous"] < 0.3 < 0.85 < acc["head2"]["attached"] < 1.0
    assert acc["both"]["attached"] < 0.15 and acc["both"]["previous"] < 0.25


def test_seed_1_spreads_both_jobs_over_both_heads(f):
    acc = f["seeds"]["1"]["mean"]
    for a in ("head1", "head2"):
        assert 0.3 < acc[a]["attached"] < 0.9 and 0.25 < acc[a]["previous"] < 0.9


def test_with_both_heads_replaced_each_readout_names_one_word_everywhere(f):
    run = grammar.trained(0)
    s = run.held_out(300)
    tw = s.target_words[..., 1][s.valid]  # the previous words
    x = grammar.encode(s.words)
    means = grammar.head_means(run.params, x, s.valid)
    for mode in ("mean", "zero"):
        logits, _ = grammar.ablated_forward(run.params, x, s.valid, (0, 1), means * (mode == "mean"))
        named = logits.argmax(axis=1).reshape((2,) + s.words.shape)  # (2, N, T)
        assert [{grammar.VOCAB[i] for i in named[j][s.valid]} for j in range(2)] == \
            [{f["both_named"][mode][t]} for t in grammar.TARGETS]  # one word everywhere, per readout
        word = f["both_named"][mode]["previous"]
        share = float((tw == grammar.WORD_INDEX[word]).mean())
        assert share == pytest.approx(f["seeds"]["0"][mode]["both"]["previous"])  # its accuracy is how often it is right
    assert f["both_named"]["mean"]["previous"] in grammar.DETS  # a common previous word


def test_zero_ablation_differs_from_mean_ablation(f):
    mean, zero = f["seeds"]["0"]["mean"], f["seeds"]["0"]["zero"]
    assert zero["both"]["previous"] < mean["both"]["previous"]  # zeros push the readout off its usual inputs
    assert zero["none"] == mean["none"]


def test_held_out_accuracies_in_the_data_are_the_facts(data, f):
    assert data["held_out"]["accuracy"] == [f["seeds"]["0"]["mean"][a] for a in ABLATIONS]
    assert data["held_out"]["n_words"] == f["n_words"] == grammar.trained(0).evaluate(300)["n_words"]


def test_every_one_word_edit_is_there_once(data):
    words = data["words"]
    assert data["edits"][0]["words"] == words and data["edits"][0]["position"] == -1
    seen = set()
    for p, (pool, row) in enumerate(zip(data["choices"], data["edit_of"])):
        assert words[p] in pool
        for w, e in zip(pool, row):
            edit = data["edits"][e]
            assert edit["words"] == words[:p] + [w] + words[p + 1:]
            seen.add(e)
    assert seen == set(range(len(data["edits"])))
    assert len(data["edits"]) == 1 + sum(len(pool) - 1 for pool in data["choices"])


def test_edits_are_the_model_run_on_the_edited_sentence(data):
    run = grammar.trained(0)
    for edit in data["edits"][::7]:
        words, targets, weights = grammar.sentence_attention(run.params, " ".join(edit["words"]))
        assert targets == data["targets"]
        for h in range(2):
            for i, row in enumerate(weights[h]):
                assert edit["weights"][h][i] == pytest.approx(row.tolist(), abs=0.0051)
        logits, _ = grammar.model_forward(run.params, grammar.encode(grammar.parse(" ".join(words)).words[:, :len(words)]),
                                          grammar.parse(" ".join(words)).valid[:, :len(words)])
        named = logits.argmax(axis=1)  # (2, n)
        assert edit["named"][0] == {t: named[j].tolist() for j, t in enumerate(grammar.TARGETS)}
        for a in range(len(ABLATIONS)):
            for t in grammar.TARGETS:
                want = [int(data["vocab"][v] == edit["words"][data["targets"][t][i]]) for i, v in enumerate(edit["named"][a][t])]
                assert edit["right"][a][t] == want


def test_the_model_follows_a_swapped_word_until_its_head_is_ablated(f):
    assert f["edits_all_right"] == f["edits"] == 29
    assert f["edits_attached_right_head1"] == 0
    ex = f["example"]
    assert (ex["from"], ex["to"], ex["reader"], ex["named"]) == ("dog", "cat", "old", "cat")
    assert ex["named_head1"] not in "the old cat slept under a box".split()  # the prose: "not in the sentence at all"


def test_the_verb_row_of_head_1_misleads(f):
    """Head 1's largest weight for the verb is not on its subject, yet the readout names the subject."""
    v = f["verb_row"]
    assert v["top"] != v["subject"] and v["top_weight"] > 0.5 > v["subject_weight"]
    assert v["top_length"] > 2 * v["subject_length"]  # the weighted vectors favour the same wrong word
    assert [v["named"][a] for a in ("none", "head1", "head2")] == [v["subject"]] * 3  # either head suffices
    assert v["named"]["both"] != v["subject"]


def test_weights_and_weighted_norms_agree_where_rows_are_sharp(f):
    assert f["seeds"]["0"]["norms"]["disagree"] == [0.0, 0.0]
    assert all(0.02 < d < 0.2 for d in f["seeds"]["1"]["norms"]["disagree"])
    lo, hi = f["seeds"]["0"]["norms"]["value_length_min"], f["seeds"]["0"]["norms"]["value_length_max"]
    assert all(b > 2 * a for a, b in zip(lo, hi))  # value vectors differ in length: weights alone miss that


def test_states_cover_every_ablation_and_edit(data):
    states = data["text"]["states"]
    assert len(states) == len(ABLATIONS) * len(data["edits"])
    e = data["edit_of"][2][data["choices"][2].index("cat")]
    lines = states[1 * len(data["edits"]) + e]["numbers"]
    assert lines[0].startswith("Head 1 mean-ablated: held-out accuracy 21%")
    assert lines[1] == "Sentence: the old cat slept under a box (dog → cat)"


@pytest.mark.parametrize("params, message", [
    ({"sentence": "cat the sat"}, "option 'sentence' must follow the grammar"),
    ({"ablate": "head3"}, "option 'ablate'"),
])
def test_bad_options_name_the_option(params, message):
    with pytest.raises(ParamError, match=message):
        compute(parse("intervention", params))
