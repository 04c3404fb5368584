import pytest

from builder.expressions import ExpressionError, evaluate, read
from builder.figures import FigureCache
from engine.figures import compute, parse

lookup = FigureCache().lookup  # what the build reads: a figure's data and its build-time facts


def test_reads_and_formats_a_figure_value():
    want = compute(parse("scaling-experiment"))["by_d"]["512"]["unscaled"]
    assert evaluate(read("scaling-experiment.by_d.512.unscaled :.2f"), lookup) == f"{want:.2f}"


def test_list_index_and_default_format():
    data = compute(parse("softmax-temperature"))
    assert evaluate(read("softmax-temperature.labels.0"), lookup) == data["labels"][0]
    assert evaluate(read("softmax-temperature.params.steps"), lookup) == str(data["params"]["steps"])


def test_options_change_the_model_run():
    assert evaluate(read("scaling-experiment{keys: 2, widths: [4]}.params.keys"), lookup) == "2"


@pytest.mark.parametrize("source, words", [
    ("no-such-figure.a", "unknown figure 'no-such-figure'"),
    ("scaling-experimnt.uniform", "unknown figure 'scaling-experimnt' (did you mean 'scaling-experiment'?)"),
    ("scaling-experiment{kyes: 2}.uniform", "unknown option 'kyes' (did you mean 'keys'?)"),
    ("scaling-experiment.by_d.3", "has no '3'"),
    ("scaling-experiment.rows", "is a list"),
    ("scaling-experiment.uniform :.2q", "cannot format"),
    ("scaling-experiment{keys: many}.uniform", "must be a number"),
    ("scaling-experiment{keys: [}.uniform", "bad options"),
    ("scaling-experiment{keys: [2}.uniform", "the '[' opened here is not closed: end it with ']'"),
    ("scaling-experiment{keys: 2.uniform", "the options of inline expression '{= scaling-experiment{keys: 2.uniform =}'"
                                           " are not closed: end them with '}' before the path"),
    ("just words", "cannot read inline expression"),
])
def test_errors_say_what_is_wrong(source, words):
    with pytest.raises(ExpressionError) as err:
        evaluate(read(source), lookup)
    assert words in str(err.value)


@pytest.mark.parametrize("source, words", [
    ("scaling-experiment.params.kyes", "'scaling-experiment.params' has no 'kyes' (did you mean 'keys'?)"),
    ("scaling-experiment.facts.x", "figure 'scaling-experiment' quotes no facts"),
])
def test_a_path_wrong_without_data_is_refused_as_it_is_read(source, words):
    """Read with the chapter, before any figure is computed (builder/build.py check_prose)."""
    with pytest.raises(ExpressionError) as err:
        read(source)
    assert words in str(err.value)


@pytest.mark.parametrize("source, words", [
    ("softmax-temperature{1: 2, temperature: 3}.facts.t_min", "option names must be words"),
    ("softmax-temperature{temperature: 2001-01-01}.facts.t_min", "dates are not option values"),
    ("softmax-temperature{temperature: &a 2, t_min: *a}.facts.t_min", "anchors (&a) are not allowed"),
    ("softmax-temperature{scores: !!set {a}}.facts.t_min", "sets are not option values"),
    ("softmax-temperature{[1]}.facts.t_min", "option names must be words"),
    ("softmax-temperature{steps: 1" + "0" * 5000 + "}.facts.t_min", "number too large"),
    ("softmax-temperature{scores: " + "[" * 500 + "]" * 500 + "}.facts.t_min", "nested more than 20 deep"),
    ("softmax-temperature{scores: [1, 2, 3], labels: [a, b]}.facts.t_min", "one label per score"),
    ("softmax-temperature.facts.t_min :300000000", "asks for 300000000 characters"),
    ("softmax-temperature.facts.t_min :.999999999f", "(at most 100)"),
    ("softmax-temperature.facts.t_min :>" + "9" * 5000, "(at most 100)"),
])
def test_hostile_options_and_formats_are_clean_errors(source, words):
    with pytest.raises(ExpressionError) as err:
        evaluate(read(source), lookup)
    assert words in str(err.value)
    assert len(str(err.value)) < 300  # never the whole input


def test_mixed_key_types_do_not_reach_the_cache():
    """The build's cache serialises options with sorted keys; mixed key types would crash it."""
    with pytest.raises(ExpressionError, match="option names must be words"):
        evaluate(read("softmax-temperature{1: 2, a: 3}.facts.t_min"), lookup)


def test_widths_within_the_bound_still_format():
    assert evaluate(read("softmax-temperature.facts.t_max :>8.2f"), lookup) == "    5.00"


@pytest.mark.parametrize("value, words", [(0, "gives U+0000"), (0xD800, "gives U+D800"), (0x110000, "not in range"),
                                          (-1, "not in range")])
def test_the_c_format_never_writes_what_no_page_can_hold(value, words):
    with pytest.raises(ExpressionError, match=words.replace("+", r"\+")):
        evaluate(read("softmax-bars.x :c"), lambda params: {"x": value})


def test_the_c_format_writes_text_escaped():
    assert [evaluate(read("softmax-bars.x :c"), lambda params: {"x": ord(c)}) for c in "<$[\"'"] == [
        "&lt;", "&#36;", "&#91;", "&#34;", "&#39;"]
