"""two-heads: the trained model's facts as P3 states them, reproduced by the engine."""
from __future__ import annotations

import pytest

from engine.figures import ParamError, compute, facts, parse


def test_seed_0_reads_both_targets_perfectly_with_one_head_per_target():
    f = facts(parse("two-heads"))["seeds"]["0"]
    assert f["accuracy"] == {"attached": 1.0, "previous": 1.0}
    first, second = f["head_argmax"]
    assert first["attached"] > 0.8 and first["previous"] < 0.05  # head 1: the attached word
    assert second["previous"] > 0.95 and second["attached"] < 0.2  # head 2: the previous word


def test_the_split_between_heads_varies_with_the_seed():
    seeds = facts(parse("two-heads"))["seeds"]
    splits = {s: round(v["head_argmax"][0]["attached"], 2) for s, v in seeds.items()}
    assert len(set(splits.values())) == len(splits), splits
    assert all(v["accuracy"]["attached"] > 0.95 and v["accuracy"]["previous"] > 0.95 for v in seeds.values())
    assert facts(parse("two-heads"))["worst_accuracy"] == min(a for v in seeds.values() for a in v["accuracy"].values())
    assert facts(parse("two-heads"))["worst_accuracy"] == 1.0  # chapter 9: every run names both targets of every held-out word


def test_the_example_names_each_words_attached_word():
    f = facts(parse("two-heads"))
    assert f["example_sentence"] == "the old dog slept under a box"
    # determiner and adjective -> noun; noun -> verb; verb -> subject; preposition -> the noun after it
    assert f["example_attached"] == ("the → dog, old → dog, dog → slept, slept → dog, under → box, a → box, "
                                     "box → slept")


def test_the_loss_falls_from_about_the_vocabulary_guess():
    data = compute(parse("two-heads"))
    assert len(data["losses"]) == data["steps"] == 400
    f = facts(parse("two-heads"))
    assert f["first_loss"] > 2.5 and f["last_loss"] < 0.01


def test_hits_count_the_rows_whose_largest_weight_is_on_the_target():
    data = compute(parse("two-heads"))
    for s in data["sentences"]:
        for head in s["heads"]:
            top = [max(range(len(row)), key=row.__getitem__) for row in head["weights"]]
            for target in ("attached", "previous"):
                assert head["hits"][target] == sum(t == j for t, j in zip(top, s["targets"][target]))
    assert len(data["text"]["states"]) == len(data["sentences"])


def test_a_bad_option_is_named():
    with pytest.raises(ParamError, match="option 'sentence' must name one of the 4 sentences"):
        compute(parse("two-heads", {"sentence": 4}))


def test_the_warm_up_is_a_short_throwaway_run_that_leaves_retrain_unchanged():
    """The worker warms Retrain's code path while the reader reads (WARM): a few steps, one step per
    zero-budget slice as the worker advances it, ending in one snapshot; the Retrain after it is bit
    for bit the figure compute() gave before it."""
    from engine.figures import FigureJob, module

    params = parse("two-heads", {"seed": 2})
    before = compute(params)
    warm = FigureJob(params, "retrain", warm=True)
    slices = []
    while not slices or not slices[-1]["done"]:
        slices.append(warm.advance(0.0))
    steps = module("two-heads").WARM_STEPS
    assert [s["step"] for s in slices] == list(range(1, steps + 1))
    assert slices[-1]["steps"] == steps < 400
    assert len(slices[-1]["result"]["sentences"]) == len(params.sentences)  # the snapshot's drawing, warmed too
    job = FigureJob(params, "retrain")
    while not (out := job.advance(60.0))["done"]:
        pass
    assert out["result"] == before


def test_the_two_targets_are_one_word_for_each_verb_about_one_word_in_seven():
    """A verb attaches to its subject, which stands just before it: there the two targets coincide,
    and a head that hits one hits both (chapters 9 and 12 say so where they give the head shares)."""
    from engine.tasks import grammar

    f = facts(parse("two-heads"))
    run = grammar.trained(0)
    s = run.held_out(300)
    words = [grammar.VOCAB[w] for w in s.words[s.valid]]
    verbs = sum(w in grammar.VERBS for w in words) / len(words)
    assert f["targets_coincide"] == f["seeds"]["0"]["targets_coincide"] == pytest.approx(verbs)  # one verb a sentence
    assert 6.5 < f["words_per_coincidence"] < 7.5  # sentences of 6 to 8 words, 7 on average
    for seed, v in f["seeds"].items():
        for whole, differ in zip(v["head_argmax"], v["head_argmax_differ"]):
            c = v["targets_coincide"]
            # over all words = over the words whose targets differ, plus the coinciding words' hits
            assert whole["attached"] - whole["previous"] == pytest.approx((1 - c) * (differ["attached"] - differ["previous"]))
    first, second = f["seeds"]["0"]["head_argmax_differ"]
    assert first == {"attached": 1.0, "previous": 0.0}  # seed 0: head 1 finds every attached word but the verbs'
    assert second == {"attached": 0.0, "previous": 1.0}
    assert f["seeds"]["0"]["head_argmax"][0]["attached"] == pytest.approx(1 - f["targets_coincide"])
