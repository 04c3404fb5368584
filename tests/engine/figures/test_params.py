import json
from dataclasses import dataclass

import pytest

from engine.figures import FIGURES, compute, compute_json, module, parse
from engine.figures.params import REQUIRED, ParamError, field, validate


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


@dataclass(frozen=True)
class Q:  # the shapes quiz and exercise options take: required, text or a list, a mapping with checked keys
    pick: str | tuple[str, ...] = field(REQUIRED, numbers_as_text=True)
    names: dict[str, str] = field(REQUIRED, keys=(r"[a-z]", "one letter"), chars=(1, 3), length=(1, 2))


def test_required_options_unions_and_mappings():
    assert validate(Q, {"pick": 1, "names": {"a": "x"}}) == Q(pick="1", names={"a": "x"})  # YAML's `1` as text
    assert validate(Q, {"pick": ["a", 2], "names": {"a": "y"}}) == Q(pick=("a", "2"), names={"a": "y"})
    for raw, option, words in [
        ({"names": {"a": "x"}}, "pick", "needs option 'pick'"),
        ({"pick": {"a": 1}, "names": {"a": "x"}}, "pick", "must be text, not dict"),
        ({"pick": "a", "names": ["a"]}, "names", "must be a mapping"),
        ({"pick": "a", "names": {"a": "x", "b": "y", "c": "z"}}, "names", "1 to 2 items, not 3"),
        ({"pick": "a", "names": {"ab": "x"}}, "names", "'ab' is not one letter"),
        ({"pick": "a", "names": {"a": " "}}, "names[a]", "must not be blank"),
        ({"pick": "a", "names": {"a": "long"}}, "names[a]", "has 4 characters (at most 3)"),
    ]:
        with pytest.raises(ParamError) as err:
            validate(Q, raw)
        assert err.value.option == option and words in str(err.value), str(err.value)


def test_registry_modules_are_pure_and_json_able(series_given):  # chapter 14's models learn the series' prose
    for name in FIGURES:
        mod = module(name)
        first, second = compute(parse(name), series_given), compute(parse(name), series_given)
        assert first == second  # seeded: same params, same numbers
        assert json.loads(json.dumps(first)) == first
        assert first["params"] == json.loads(json.dumps(first["params"]))
        assert mod.Params.__dataclass_params__.frozen


def test_worker_entry_point_reports_errors_as_data():
    assert json.loads(compute_json("scaling-experiment", '{"keys": 2, "widths": [2]}'))["ok"] is True
    bad = json.loads(compute_json("scaling-experiment", '{"keys": "two"}'))
    assert bad == {"ok": False, "error": "option 'keys' must be a number, not str 'two'"}
    assert json.loads(compute_json("nope", "{}"))["ok"] is False


@pytest.mark.parametrize("name", FIGURES)
def test_a_params_that_exists_is_valid(name):
    """Rules across options live in Params itself: a model whose Params has rules of its own states BROKEN,
    options that break one and the option the error names; parse refuses them, and so does building one.
    This is the one test of those options: a figure's own tests refuse its other bad options."""
    mod = module(name)
    if "__post_init__" not in vars(mod.Params):
        assert not hasattr(mod, "BROKEN"), f"{name}: BROKEN, but Params has no rule of its own"
        return
    assert hasattr(mod, "BROKEN"), f"{name}: Params has rules (__post_init__): state BROKEN = (options, option)"
    raw, option = mod.BROKEN
    with pytest.raises(ParamError) as err:
        parse(name, raw)
    assert err.value.option == option, str(err.value)
    with pytest.raises(ParamError):
        mod.Params(**{k: tuple(v) if isinstance(v, list) else v for k, v in raw.items()})


def test_the_engine_takes_params_and_knows_their_figure():
    p = parse("softmax-bars", {"scores": [1, 2], "labels": ["a", "b"]})
    data = compute(p)
    assert data["figure"] == "softmax-bars" and data["params"]["labels"] == ["a", "b"]
    with pytest.raises(KeyError):
        parse("nope")


@pytest.mark.parametrize("name, reader, options", [
    ("your-sentence", "read", {"sentence": "a fox hid under the box"}),
    ("your-sequence", "letters", {"sequence": "ab ab"}),
    ("writing-sample", "read", {"prompt": "A head "}),
])
def test_the_readers_input_is_read_once_per_request(monkeypatch, name, reader, options, series_given):
    """Params reads it to refuse it; compute takes what Params read, as the worker's one request does."""
    mod, calls = module(name), []
    original = getattr(mod, reader)
    monkeypatch.setattr(mod, reader, lambda text: calls.append(text) or original(text))
    assert json.loads(compute_json(name, json.dumps(options), series_given))["ok"]
    assert calls == [next(iter(options.values()))]
