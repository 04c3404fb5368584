import pytest

from builder.expressions import ExpressionError, evaluate
from engine.figures import compute


def test_reads_and_formats_a_figure_value():
    want = compute("scaling-experiment")["by_d"]["512"]["unscaled"]
    assert evaluate("scaling-experiment.by_d.512.unscaled :.2f", compute) == f"{want:.2f}"


def test_list_index_and_default_format():
    data = compute("softmax-temperature")
    assert evaluate("softmax-temperature.labels.0", compute) == data["labels"][0]
    assert evaluate("softmax-temperature.params.steps", compute) == str(data["params"]["steps"])


def test_options_change_the_model_run():
    assert evaluate("scaling-experiment{keys: 2, widths: [4]}.params.keys", compute) == "2"


@pytest.mark.parametrize("source, words", [
    ("no-such-figure.a", "unknown figure 'no-such-figure'"),
    ("scaling-experiment.by_d.3", "has no '3'"),
    ("scaling-experiment.rows", "is a list"),
    ("scaling-experiment.uniform :.2q", "cannot format"),
    ("scaling-experiment{keys: many}.uniform", "must be a number"),
    ("scaling-experiment{keys: [}.uniform", "bad options"),
    ("just words", "cannot read inline expression"),
])
def test_errors_say_what_is_wrong(source, words):
    with pytest.raises(ExpressionError) as err:
        evaluate(source, compute)
    assert words in str(err.value)
