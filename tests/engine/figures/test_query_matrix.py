import numpy as np
import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.tasks import winograd


def test_the_facts_of_the_text():
    f = facts(parse("query-matrix"))
    assert (f["copy"], f["strength"]) == (0.6, 5.0)
    assert f"{f['animal_default']:.0%}" == "75%"
    assert f"{f['street_default_wide']:.0%}" == "75%"
    assert f"{f['animal_at_8']:.0%}" == "96%"
    assert f"{f['animal_at_1']:.0%}" == "17%"
    assert f"{f['others_at_1_min']:.0%}" == "8%" and f"{f['others_at_1_max']:.0%}" == "9%"
    assert f["query"] == [3.0, 0.0]


def test_nothing_copied_means_a_zero_query_and_even_weights():
    data = compute(parse("query-matrix"))
    sentence = data["sentences"]["tired"]
    for j in range(len(data["strengths"])):
        assert sentence["queries"][0][j] == [0.0, 0.0]
        assert sentence["weights"][0][j] == [round(1 / 11, 2)] * 11
    assert np.ptp(winograd.run("tired", 0.0, winograd.STRENGTH)["weights"][winograd.IT]) == 0.0  # exactly even


def test_query_is_the_description_times_the_matrix():
    data = compute(parse("query-matrix"))
    for last in ("tired", "wide"):
        sentence = data["sentences"][last]
        for i, c in enumerate(data["copies"]):
            described = np.array(sentence["described"][i])
            assert described[2 if last == "tired" else 3] == pytest.approx(c)
            for j, s in enumerate(data["strengths"]):
                wq = np.array(data["query_matrices"][j])
                assert wq[2, 0] == wq[3, 1] == s
                assert sentence["queries"][i][j] == pytest.approx(np.round(described @ wq, 2).tolist())


def test_grid_matches_the_head_and_strength_sharpens():
    data = compute(parse("query-matrix"))
    sentence = data["sentences"]["tired"]
    start = data["start"]
    assert data["copies"][start["copy"]] == 0.6 and data["strengths"][start["strength"]] == 5
    w = np.array(sentence["weights"])  # (C, S, T)
    assert w[start["copy"], start["strength"]].tolist() == pytest.approx(
        winograd.run("tired")["weights"][winograd.IT].tolist(), abs=0.005 + 1e-9)
    animal = w[start["copy"], :, sentence["target"]]
    assert sentence["words"][sentence["target"]] == "animal"
    assert all(np.diff(animal) >= 0) and animal[-1] > 0.98
    wide = data["sentences"]["wide"]
    assert wide["words"][wide["target"]] == "street"
    assert np.array(wide["weights"])[start["copy"], start["strength"]].argmax() == wide["target"]


def test_start_positions_join_the_grid():
    data = compute(parse("query-matrix", {"copy": 0.55, "strength": 2.5}))
    assert data["copies"][data["start"]["copy"]] == 0.55
    assert data["strengths"][data["start"]["strength"]] == 2.5


@pytest.mark.parametrize("raw, option, words", [
    ({"last_word": "sleepy"}, "last_word", "one of tired, wide"),
    ({"strength": 12}, "strength", "must not exceed"),
    ({"copy": 1.5}, "copy", "between 0.0 and 1.0"),
    ({"copy_stops": 100}, "copy_stops", "between 2 and 41"),
])
def test_bad_options(raw, option, words):
    with pytest.raises(ParamError, match=words) as err:
        compute(parse("query-matrix", raw))
    assert err.value.option == option


def test_text_templates_filled_at_a_slider_position():
    from engine.figures.fmt import fill, fill_all, scope_at
    from engine.figures.query_matrix import state_index
    data = compute(parse("query-matrix"))
    assert data["last_words"] == ["tired", "wide"] == data["schema"]["last_word"]["choices"]
    c, s = 3, 8
    wide = data["sentences"]["wide"]
    values = scope_at(data["text"]["scope"], data, state_index(data, "wide", c, s))
    q = wide["queries"][c][s]
    assert fill_all(data["text"]["templates"], values) == [
        f"Copied {data['copies'][c]:g} of wide into it, query matrix strength {data['strengths'][s]:g}: "
        f"query ({q[0]:.2f}, {q[1]:.2f})",
        "Weights of it: " + ", ".join(f"{w} {x:.2f}" for w, x in zip(wide["words"], wide["weights"][c][s]))]
    parts = data["text"]["parts"]
    assert fill(parts["copy"], values) == f"{data['copies'][c]:g} of wide"
    assert fill(parts["strength"], values) == f"{data['strengths'][s]:g}"
    assert fill(parts["matrix"], {"v": data["query_matrices"][s][2][0]}) == f"{data['query_matrices'][s][2][0]:g}"
    assert fill(parts["described"], {"v": wide["described"][c][2]}) == f"{wide['described'][c][2]:.2f}"


@pytest.mark.parametrize("raw", [{"copy": 0.00005}, {"copy": 0.00004}, {"copy_stops": 7, "strength": 0.0004},
                                 {"strength_stops": 41, "max_strength": 1, "strength": 0.0004}])
def test_odd_starts_and_stops_still_print(raw):
    """Stops and matrix entries are kept to 4 decimals, so every slider value and every entry prints as
    written (no template refuses one)."""
    from engine.figures.fmt import fill
    data = compute(parse("query-matrix", raw))
    assert data["text"]["numbers"][0].startswith("Copied ")
    parts = data["text"]["parts"]
    for matrix in data["query_matrices"]:
        assert all(fill(parts["matrix"], {"v": v}) for row in matrix for v in row)
