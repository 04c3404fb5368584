import math

import pytest

from engine.figures import ParamError, compute, facts, parse

R2 = math.sqrt(2)


def test_head_one_is_the_worked_example():
    data = compute(parse("worked-mixture"))
    assert data["labels"] == ["fisherman", "net", "bank"]
    head = data["heads"][0]
    assert head["query"] == pytest.approx([R2, 0])
    assert head["d"] == 2 and head["root_d"] == pytest.approx(R2)
    # The dot product with fisherman's key, term by term: sqrt2 * 2 + 0 * 0 = 2 sqrt2.
    assert head["products"][0] == pytest.approx([2 * R2, 0])
    assert head["dots"] == pytest.approx([2 * R2, R2, 0])
    assert head["scores"] == pytest.approx([2, 1, 0], abs=1e-12)
    assert head["exps"] == pytest.approx([math.e ** 2, math.e, 1])
    assert head["exp_sum"] == pytest.approx(11.1073, abs=5e-5)
    assert [round(w, 4) for w in head["weights"]] == [0.6652, 0.2447, 0.0900]
    assert sum(head["weights"]) == pytest.approx(1, abs=1e-12)
    # The mixture: 0.6652 (2, 0) + 0.2447 (0, 2) + 0.0900 (1, 1), with unrounded weights.
    assert [round(x, 4) for x in head["output"]] == [1.4205, 0.5795]
    assert head["weighted"][0] == pytest.approx([2 * head["weights"][0], 0])
    assert head["top"] == "fisherman"


def test_head_two_swaps_the_scores_and_so_the_weights():
    data = compute(parse("worked-mixture"))
    one, two = data["heads"]
    assert two["scores"] == pytest.approx([1, 2, 0], abs=1e-12)
    assert [round(w, 4) for w in two["weights"]] == [0.2447, 0.6652, 0.0900]
    assert two["weights"] == pytest.approx([one["weights"][1], one["weights"][0], one["weights"][2]], rel=1e-12)
    assert [round(x, 4) for x in two["output"]] == [0.5795, 1.4205]
    assert two["top"] == "net"


def test_facts_the_prose_quotes():
    data, f = compute(parse("worked-mixture")), facts(parse("worked-mixture"))
    assert round(f["head1"]["weight"]["fisherman"], 4) == 0.6652
    assert round(f["head1"]["weight"]["net"], 4) == 0.2447
    assert round(f["head1"]["weight"]["bank"], 4) == 0.0900
    assert round(f["head2"]["weight"]["net"], 4) == 0.6652
    assert f["head1"]["score"] == pytest.approx({"fisherman": 2, "net": 1, "bank": 0})
    assert f["head2"]["score"] == pytest.approx({"fisherman": 1, "net": 2, "bank": 0})
    assert round(f["head1"]["exp_sum"], 4) == 11.1073
    assert f["even_output"] == [1.0, 1.0]  # equal weights would average the values
    concat = data["heads"][0]["output"] + data["heads"][1]["output"]  # both heads side by side
    assert [round(x, 4) for x in concat] == [1.4205, 0.5795, 0.5795, 1.4205]


def test_other_vectors_are_recomputed():
    data = compute(parse("worked-mixture", {"query1": [1, 1, 0], "keys1": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                                      "values1": [[1], [2], [3]]}))
    head = data["heads"][0]
    assert head["d"] == 3
    assert head["scores"] == pytest.approx([1 / math.sqrt(3), 1 / math.sqrt(3), 0])
    assert head["output"] == pytest.approx([sum(w * v for w, v in zip(head["weights"], (1, 2, 3)))])
    assert compute(parse("worked-mixture", {"head": 2}))["start"] == 1


@pytest.mark.parametrize("raw, words", [
    ({"keys1": [[1, 0], [0, 1]]}, "one vector per label"),
    ({"values2": [[1, 0], [0, 1]]}, "one vector per label"),
    ({"keys1": [[1, 0, 0], [0, 1], [1, 1]]}, "as many numbers as 'query1'"),
    ({"values1": [[1, 0], [0, 1, 2], [1, 1]]}, "numbers like the first value"),
    ({"head": 3}, "between 1 and 2"),
    ({"query1": [11, 0]}, "between -10 and 10"),
    ({"keys1": "fisherman"}, "must be a list"),
])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute(parse("worked-mixture", raw))


def test_text_lists_both_heads_and_labels_each_plot():
    data = compute(parse("worked-mixture"))
    text = data["text"]
    assert text["fixed"] == text["numbers"] and len(text["numbers"]) == 6
    assert text["numbers"][1] == "Head 1 weights: " + ", ".join(
        f"{w} {x:.4f}" for w, x in zip(data["labels"], data["heads"][0]["weights"]))
    h1, h2 = data["heads"]
    assert [s["numbers"] for s in text["states"]] == [[], []]
    assert text["states"][1]["label"] == (
        "Values and output of head 2 as points: value of fisherman at (2, 0), value of net at (0, 2), "
        f"value of bank at (1, 1); output at ({h2['output'][0]:.4f}, {h2['output'][1]:.4f}); "
        f"the other head's output at ({h1['output'][0]:.4f}, {h1['output'][1]:.4f}).")


def _read(pieces) -> str:
    """A line of pieces as a reader reads it (an exponent follows its "e")."""
    return "".join(p if isinstance(p, str) else p[0] for p in pieces)


def test_the_worked_arithmetic_is_the_heads_numbers_formatted():
    data = compute(parse("worked-mixture"))
    for h, (head, worked) in enumerate(zip(data["heads"], data["text"]["worked"])):
        steps = [[_read(line) for line in step["lines"]] for step in worked["steps"]]
        given = ", ".join(f"{q:g}" if q == int(q) else f"{q:.4f}" for q in head["query"])
        assert _read(worked["lead"]) == f"Head {h + 1}, at bank: query ({given}), d = 2."
        assert steps[0][0].endswith(f"= {head['dots'][0]:.4f}; ÷ {head['root_d']:.4f} = {head['scores'][0]:.4f}")
        assert steps[1][1] == f"net: e{head['scores'][1]:.4f} = {head['exps'][1]:.4f}"
        assert steps[1][-1] == "total: " + " + ".join(f"{e:.4f}" for e in head["exps"]) + f" = {head['exp_sum']:.4f}"
        assert steps[2][2] == f"bank: {head['exps'][2]:.4f} ÷ {head['exp_sum']:.4f} = {head['weights'][2]:.4f}"
        assert len(steps[3]) == len(head["output"])
        assert _read(worked["result"]).startswith(f"Output of head {h + 1}: ({head['output'][0]:.4f}, ")
        assert worked["points"] == [f"{w} {x:.2f}" for w, x in zip(data["labels"], head["weights"])]
        lines = [worked["lead"], worked["result"], *worked["given"]]
        lines += [line for step in worked["steps"] for line in [step["title"], *step["lines"]]]
        classes = {"sup", "wm-word", "wm-q", "wm-k", "wm-v", "wm-s", "wm-w"}  # what the view knows how to show
        assert all(isinstance(p, str) or (len(p) == 2 and p[1] in classes) for line in lines for p in line)
