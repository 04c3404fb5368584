import json
import math

import numpy as np
import pytest

from engine.figures import ParamError, compute, compute_json, facts, parse, prepare_json
from engine.figures import colour_tokens


def _case(data, tokens, heads=1, causal=False, positions=False):
    seq = next(s for s in data["sequences"] if s["tokens"] == tokens)
    return seq["cases"][heads - 1][int(causal)][int(positions)]


def _r4(values):
    return [round(v, 4) for v in values]


def test_reproduces_the_course_rows_for_red_blue_red():
    data = compute(parse("colour-tokens"))
    case = _case(data, ["red", "blue", "red"])
    head = case["heads"][0]
    assert head["raw"][0] == [1, 0, 1] and head["raw"][1] == [0, 1, 0]
    assert head["scaled"][0] == [0.5, 0, 0.5] and head["scaled"][1] == [0, 0.5, 0]
    assert _r4(head["shares"][0]) == [0.3837, 0.2327, 0.3837]  # the first red token's row
    assert _r4(head["shares"][1]) == [0.2741, 0.4519, 0.2741]  # blue's row
    assert _r4(head["shares"][2]) == [0.3837, 0.2327, 0.3837]  # the last red repeats the first
    assert _r4(case["out"][0]) == [0.7673, 0.2327, 0, 0]
    assert _r4(case["out"][1]) == [0.5481, 0.4519, 0, 0]
    assert round(sum(row[1] for row in head["shares"]), 4) == 0.9173  # blue's column
    f = facts(parse("colour-tokens"))
    assert round(f["red_share_red"], 4) == 0.3837 and round(f["red_share_blue"], 4) == 0.2327
    assert round(f["blue_share_red"], 4) == 0.2741 and round(f["blue_share_blue"], 4) == 0.4519


def test_shares_are_the_shown_exps_over_the_shown_sums():
    data = compute(parse("colour-tokens"))
    for seq in data["sequences"]:
        for by_heads in seq["cases"]:
            for by_causal in by_heads:
                for case in by_causal:
                    for head in case["heads"]:
                        for i, (exps, total, shares) in enumerate(zip(head["exps"], head["sums"], head["shares"])):
                            assert total == pytest.approx(sum(exps), rel=1e-9)
                            assert shares == pytest.approx([e / total for e in exps], rel=1e-9, abs=1e-12)
                            for j, s in enumerate(head["scaled"][i]):
                                if s is None:
                                    assert exps[j] == 0 and shares[j] == 0
                                else:
                                    assert exps[j] == pytest.approx(math.exp(s), rel=1e-9)
                                    assert s == pytest.approx(head["raw"][i][j] / head["sqrt_d"], rel=1e-9, abs=1e-12)


def test_block_future_tokens():
    case = _case(compute(parse("colour-tokens")), ["red", "blue", "red"], causal=True)
    head = case["heads"][0]
    assert head["scaled"][0] == [0.5, None, None]
    assert _r4(head["shares"][0]) == [1, 0, 0]
    assert _r4(head["shares"][1]) == [0.3775, 0.6225, 0]
    assert _r4(head["shares"][2]) == [0.3837, 0.2327, 0.3837]
    assert _r4(case["out"][1]) == [0.3775, 0.6225, 0, 0]


def test_two_heads_split_the_coordinates():
    case = _case(compute(parse("colour-tokens")), ["red", "blue", "red"], heads=2)
    first, second = case["heads"]
    assert first["d_k"] == second["d_k"] == 2 and first["coords"] == [0, 1] and second["coords"] == [2, 3]
    assert _r4(first["scaled"][0]) == [0.7071, 0, 0.7071]
    assert _r4(first["shares"][0]) == [0.4011, 0.1978, 0.4011]
    assert _r4(second["shares"][0]) == [0.3333] * 3
    assert _r4(case["out"][0]) == [0.8022, 0.1978, 0, 0]  # the concatenation of the two heads' results


def test_two_heads_are_concatenated_and_projected_by_w_o():
    data = compute(parse("colour-tokens"))
    one = _case(data, ["red", "blue", "red"])
    assert one["w_o"] is None and one["projected"] is None  # one head: every projection the identity
    case = _case(data, ["red", "blue", "red"], heads=2)
    w_o = np.array(case["w_o"])
    assert np.allclose(w_o @ w_o.T, np.eye(4))  # orthogonal: the projection loses nothing
    assert np.all(np.abs(w_o) == 0.5)  # every output coordinate reads every coordinate of both heads
    concat = np.array(case["out"])
    assert np.allclose(case["projected"], concat @ w_o)
    assert _r4(case["projected"][0]) == [0.5, 0.3022, 0.5, 0.3022]
    # concatenating then projecting is each head writing through its own rows of W_O, added up
    assert np.allclose(sum(np.array(h["written"]) for h in case["heads"]), case["projected"])
    for seq in data["sequences"]:  # in every sequence and toggle combination
        for by_causal in seq["cases"][1]:
            for c in by_causal:
                assert np.allclose(np.array(c["out"]) @ w_o, c["projected"])
                assert np.allclose(sum(np.array(h["written"]) for h in c["heads"]), c["projected"])
    f = facts(parse("colour-tokens"))
    assert f["w_o_entry"] == 0.5 and f["two_head_second_written_max"] == 0  # head 2's values are all zero
    assert (f["w_o_negative"], f["w_o_entries"]) == (6, 16)  # half a 4 x 4 Sylvester Hadamard: 6 signs of 16 are minus
    assert [round(f[f"two_head_out_red_{j}"], 4) for j in range(2)] == [0.5, 0.3022]
    assert f["two_head_out_red_0"] == pytest.approx((f["two_head_concat_red_0"] + f["two_head_concat_red_1"]) / 2)
    assert f["two_head_out_red_1"] == pytest.approx((f["two_head_concat_red_0"] - f["two_head_concat_red_1"]) / 2)


def test_positions_make_the_two_reds_differ():
    case = _case(compute(parse("colour-tokens")), ["red", "blue", "red"], positions=True)
    assert _r4(case["inputs"][0]) == [1, 1, 0, 1]
    assert _r4(case["inputs"][2]) == [1.9093, -0.4161, 0.02, 0.9998]
    shares = case["heads"][0]["shares"]
    assert _r4(shares[0]) == [0.3349, 0.4053, 0.2599]
    assert _r4(shares[2]) == [0.2013, 0.1547, 0.6440]


def test_results_move_with_their_tokens_without_positions():
    data = compute(parse("colour-tokens"))
    moved = _case(data, ["blue", "red", "red"])
    assert _r4(moved["out"][0]) == [0.5481, 0.4519, 0, 0]
    assert _r4(moved["out"][1]) == _r4(moved["out"][2]) == [0.7673, 0.2327, 0, 0]


RAW = {"tokens": ["green", "red"], "heads": 2, "causal": True, "row": 1}


def test_every_toggle_combination_is_precomputed_and_an_edit_joins_the_menu():
    data = compute(parse("colour-tokens", RAW))
    assert data["sequences"][data["start"]["sequence"]]["tokens"] == ["green", "red"]
    assert len(data["sequences"]) == 5
    for seq in data["sequences"]:
        n = len(seq["tokens"])
        assert [len(c) for c in seq["cases"]] == [2, 2] and all(len(p) == 2 for c in seq["cases"] for p in c)
        for h, by_heads in enumerate(seq["cases"]):
            for by_causal in by_heads:
                for case in by_causal:
                    assert len(case["heads"]) == h + 1 and len(case["out"]) == n
    green_red = _case(data, ["green", "red"], heads=2)
    assert green_red["heads"][1]["raw"][0] == [1, 0]  # green lives in the second head's coordinates
    assert facts(parse("colour-tokens", RAW)) == facts(parse("colour-tokens"))  # the prose's example, whatever the options


def test_an_edit_after_the_worker_prepared_the_page_gives_what_a_fresh_compute_gives():
    """The worker computes the page's options first (PREPARE) and keeps each sequence's cases and
    text: an edit then reuses them, and answers exactly what it answers with nothing kept."""
    edit = json.dumps({"tokens": ["yellow", "red", "red"], "heads": 2})
    colour_tokens._all_cases.cache_clear()
    colour_tokens._states.cache_clear()
    fresh = compute_json("colour-tokens", edit)
    colour_tokens._all_cases.cache_clear()
    colour_tokens._states.cache_clear()
    prepare_json("colour-tokens", "{}")
    kept = colour_tokens._all_cases.cache_info().currsize
    assert kept == len(colour_tokens.Params().choices)  # the offered sequences', computed ahead
    assert compute_json("colour-tokens", edit) == fresh
    assert colour_tokens._all_cases.cache_info().currsize == kept + 1  # the edit's own sequence only
    prepare_json("colour-tokens", '{"row": 9}')  # refused options: left for the compute to refuse
    assert json.loads(compute_json("colour-tokens", '{"row": 9}'))["ok"] is False


@pytest.mark.parametrize("raw, words", [
    ({"tokens": ["red", "purple"]}, "must be one of red, blue, green, yellow, not 'purple'"),
    ({"choices": ["red  blue", "red orange"]}, "unknown colour 'orange'"),
    ({"choices": [""]}, "1 to 6 colours"),
    ({"tokens": []}, "1 to 6 items"),
    ({"row": 3}, "one of the 3 tokens"),
    ({"heads": 3}, "between 1 and 2"),
    ({"causal": "yes"}, "true or false"),
])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute(parse("colour-tokens", raw))


def test_text_state_of_a_toggle_combination():
    from engine.figures.colour_tokens import vec
    data = compute(parse("colour-tokens"))
    q = next(i for i, s in enumerate(data["sequences"]) if s["tokens"] == ["blue", "red", "red"])
    state = data["text"]["states"][((q * 2 + 1) * 2 + 1) * 2 + 0]  # two heads, causal, no positions
    case = data["sequences"][q]["cases"][1][1][0]
    assert state["numbers"][0] == "Tokens: blue, red, red (two heads, future tokens blocked, no positional encoding)"
    row = case["heads"][1]["shares"][2]
    assert f"Head 2 shares of red (3): {', '.join(str(int(x)) if x == int(x) else f'{x:.4f}' for x in row)}" \
        in state["numbers"]
    assert state["numbers"][-1] == ("Result for red (3): concatenated " + vec(case["out"][2])
                                    + ", after W_O " + vec(case["projected"][2]))
    one = data["text"]["states"][((q * 2 + 0) * 2 + 1) * 2 + 0]  # one head: no projection step
    assert one["numbers"][-1] == "Result for red (3): " + vec(data["sequences"][q]["cases"][0][1][0]["out"][2])
    assert len(state["numbers"]) == 1 + 2 * 3 + 3


def test_numbers_print_by_the_parts_the_view_uses():
    from engine.figures.colour_tokens import num
    parts = compute(parse("colour-tokens"))["text"]["parts"]
    assert parts == {"number": "{v:~4}", "blocked": "−∞"}
    assert [num(None), num(2.0), num(-1), num(0.5), num(-0.00001)] == ["−∞", "2", "-1", "0.5000", "0.0000"]
