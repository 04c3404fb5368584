"""quadratic-cost: the score counts and their memory, as the chapter quotes them, and the KV cache's bytes."""
from __future__ import annotations

from engine.figures import compute, facts, parse
from engine.figures.quadratic_cost import GPT3, LENGTHS, causal_scores


def test_counts_are_exact_for_causal_and_bidirectional():
    data = compute(parse("quadratic-cost"))
    for n, row in zip(data["lengths"], data["rows"]):
        allowed = sum(1 for i in range(min(n, 300)) for j in range(min(n, 300)) if j <= i)
        if n <= 300:
            assert row["causal"] == allowed  # counted cell by cell where that is cheap
        assert row["causal"] == n * (n + 1) // 2 and row["bidirectional"] == n * n
        assert row["causal_bytes"] == 4 * row["causal"]


def test_the_facts_the_chapter_quotes():
    f = facts(parse("quadratic-cost"))
    assert f["causal_1000"] == 500_500 and f["bidirectional_1000"] == 1_000_000
    assert f["causal_100000"] == 5_000_050_000
    assert f["causal_100000_words"] == "5.0 billion"
    assert round(f["causal_gb_100000"], 1) == 20.0  # GB = 10⁹ bytes
    assert 3.99 < f["doubling_ratio_1000"] < 4
    # GPT-3 175B: d_model is heads × d_head; a key and a value per layer, 2 bytes a number.
    assert GPT3["heads"] * GPT3["d_head"] == GPT3["d_model"]
    assert f["kv_bytes_per_token"] == 2 * 96 * 12288 * 2
    assert f["kv_gb_context"] == f["kv_bytes_per_token"] * 2048 / 1e9


def test_states_follow_the_slider_and_name_the_length():
    data = compute(parse("quadratic-cost", {"length": 100_000}))
    states = data["text"]["states"]
    assert len(states) == len(LENGTHS) and data["start"] == LENGTHS.index(100_000)
    assert data["text"]["numbers"][:4] == states[data["start"]]["numbers"]
    assert "5,000,050,000 scores" in data["text"]["numbers"][1] and "20.0 GB" in data["text"]["numbers"][1]
    # doubling the length about quadruples the count, at every length
    for n in LENGTHS:
        assert 3.8 < causal_scores(2 * n) / causal_scores(n) <= 4
