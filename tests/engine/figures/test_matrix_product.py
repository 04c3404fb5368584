"""matrix-product: every cell of the product is a row of Q times a column of Kᵀ, Kᵀ is K with rows and
columns swapped, and the text writes each cell out as its sum of products."""
from __future__ import annotations

import re

import numpy as np
import pytest

from engine.figures import ParamError, compute, facts, parse


@pytest.mark.parametrize("raw", [None, {"queries": 3, "keys": 5, "width": 4, "seed": 7}, {"width": 1, "keys": 1}])
def test_each_cell_is_the_dot_product_of_a_query_and_a_key(raw):
    data = compute(parse("matrix-product", raw))
    q, k, kt = np.array(data["q"]), np.array(data["k"]), np.array(data["kt"])
    assert (kt == k.T).all() and kt.shape == (k.shape[1], k.shape[0])  # rows become columns
    for i in range(len(q)):
        for j in range(len(k)):
            terms = [a * b for a, b in zip(q[i], kt[:, j])]  # row i of Q against column j of Kᵀ, term by term
            assert data["products"][i][j] == terms
            assert data["scores"][i][j] == sum(terms)
    assert q.min() >= -3 and q.max() <= 3 and k.min() >= -3 and k.max() <= 3


def test_states_write_out_every_cell_in_order():
    data = compute(parse("matrix-product"))
    n_k = len(data["k"])
    states = data["text"]["states"]
    assert len(states) == len(data["q"]) * n_k
    for s, line in enumerate(states):
        i, j = divmod(s, n_k)
        m = re.fullmatch(rf"Row {i + 1} of Q · column {j + 1} of Kᵀ \(query {i + 1} · key {j + 1}\): (.*) = (-?\d+)",
                         line["numbers"][0])
        assert m, line
        pairs = re.findall(r"\((-?\d+)\)\((-?\d+)\)", m.group(1))
        assert [int(a) for a, _ in pairs] == data["q"][i] and [int(b) for _, b in pairs] == data["k"][j]
        assert int(m.group(2)) == data["scores"][i][j]


def test_the_opening_cell_and_the_facts_the_primer_quotes():
    p = parse("matrix-product", {"row": 1, "col": 2})
    data, f = compute(p), facts(p)
    assert data["text"]["numbers"] == data["text"]["states"][1 * 4 + 2]["numbers"] + data["text"]["fixed"]
    cell = f["cell"]
    assert (cell["row"], cell["col"]) == (2, 3)
    assert cell["products"] == [a * b for a, b in zip(cell["query"], cell["key"])]
    assert cell["score"] == sum(cell["products"]) == data["scores"][1][2]
    assert f["cells"] == 2 * 4 and f["multiplications"] == 2 * 4 * 3


def test_another_seed_draws_other_numbers():
    assert compute(parse("matrix-product", {"seed": 3}))["q"] != compute(parse("matrix-product"))["q"]


@pytest.mark.parametrize("raw, words", [({"row": 2}, "'row' must be below queries"),
                                        ({"keys": 2, "col": 3}, "'col' must be below keys"),
                                        ({"width": 9}, "'width' must lie between")])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        parse("matrix-product", raw)
