import json
from dataclasses import dataclass

import pytest

from engine.figures import FIGURES, compute, compute_json, module
from engine.figures.params import ParamError, field, validate


@dataclass(frozen=True)
class P:
    n: int = field(3, lo=1, hi=5)
    x: float = field(0.5, lo=0, hi=1)
    flag: bool = field(False)
    words: tuple[str, ...] = field(("a",), length=(1, 2))


def test_defaults_and_coercion():
    assert validate(P, None) == P()
    assert validate(P, {"n": 2.0, "x": 1, "words": ["b", "c"]}) == P(n=2, x=1.0, words=("b", "c"))


@pytest.mark.parametrize("raw, option, words", [
    ({"m": 1}, "m", "unknown option 'm'"),
    ({"n": 2.5}, "n", "whole number"),
    ({"n": True}, "n", "must be a number"),
    ({"n": 9}, "n", "between 1 and 5"),
    ({"x": float("nan")}, "x", "finite"),
    ({"flag": "yes"}, "flag", "true or false"),
    ({"words": "a"}, "words", "must be a list"),
    ({"words": ["a", "b", "c"]}, "words", "1 to 2 items"),
    ({"words": [1]}, "words[0]", "must be text"),
])
def test_errors_name_the_option(raw, option, words):
    with pytest.raises(ParamError) as err:
        validate(P, raw)
    assert err.value.option == option and words in str(err.value)


def test_registry_modules_are_pure_and_json_able():
    for name in FIGURES:
        mod = module(name)
        first, second = compute(name), compute(name)
        assert first == second  # seeded: same params, same numbers
        assert json.loads(json.dumps(first)) == first
        assert first["params"] == json.loads(json.dumps(first["params"]))
        assert mod.Params.__dataclass_params__.frozen


def test_worker_entry_point_reports_errors_as_data():
    assert json.loads(compute_json("scaling-experiment", '{"keys": 2, "widths": [2]}'))["ok"] is True
    bad = json.loads(compute_json("scaling-experiment", '{"keys": "two"}'))
    assert bad == {"ok": False, "error": "option 'keys' must be a number, not str 'two'"}
    assert json.loads(compute_json("nope", "{}"))["ok"] is False
