"""The build's order (builder/build.py check_prose): a mistake in prose stops the build before any
figure's model runs; a wrong path in an inline expression before any figure is drawn; and what a
draft cannot settle (ids of figures and headings, lines holding an expression) raises no false error."""
from __future__ import annotations

import pytest

import engine.figures
from builder import fallbacks
from builder.build import Options, check_prose, gather, load_runtime, read_chapters, read_config
from builder.cache import BuildCache
from builder.errors import BuildError
from tests.builder.helpers import one_chapter_site, paths_for

FIGURE = """
/// figure | softmax-temperature

Caption.
///
"""


@pytest.fixture
def no_model(monkeypatch):
    """Every figure model fails the test if it runs."""
    calls = []

    def compute(params):
        calls.append(params)
        raise AssertionError("a model ran before the prose was checked")

    monkeypatch.setattr(engine.figures, "compute", compute)
    return calls


def _error(tmp_path, markdown: str) -> BuildError:
    """The build's error, from a cache of its own: the session's holds every figure already."""
    paths = paths_for(one_chapter_site(tmp_path / "content", markdown))
    with pytest.raises(BuildError) as err:
        gather(paths, load_runtime(paths, None), BuildCache())
    return err.value


@pytest.mark.parametrize("prose, line, says", [
    ("See [there](02-missing.md).", 3, "broken link '02-missing.md'"),
    ("See [the figure](#figure-1-9).", 3, "has no '#figure-1-9' (did you mean '#figure-1-1'?)"),
    ("The weight $w_i is small.", 3, "'$' opens a formula that is never closed"),
    ("A note.[^x]\n\n[^x]: A list:\n\n    - one\n    - two\n", 5, "note [^x] holds a <ul>"),
])
def test_a_mistake_in_prose_is_reported_before_any_model_runs(tmp_path, no_model, prose, line, says):
    err = _error(tmp_path, f"# Title\n\n{prose}\n{FIGURE}\nThe top weight is {{= softmax-temperature.facts.t_max :g =}}.\n")
    assert says in err.message and err.line == line, str(err)
    assert no_model == []


def test_the_drafts_ids_are_the_pages(tmp_path, no_model):
    """Links to a figure's, a heading's and a quiz's id pass before any figure is computed."""
    content = one_chapter_site(tmp_path / "content", f"""
        # Title

        See [the figure](#figure-1-1), [the part](#a-part), [the question](#quiz-q1) and [the top](01-test.md#title).
        {FIGURE}
        ## A part

        /// quiz | q1
            choices:
              a: One.
              b: Two.
            answer: a
            explain:
              a: One is the answer.
              b: Not so.

        Which?
        ///
        """.replace("\n        ", "\n"))
    config = read_config(Options(paths_for(content), load_runtime(paths_for(content), None), BuildCache()))
    check_prose(read_chapters(config))
    assert no_model == []


def test_an_anchor_on_a_heading_holding_an_expression_waits_for_its_value(tmp_path, no_model):
    """Its id is made from the value: the draft's stand-in cannot say the link is broken."""
    content = one_chapter_site(tmp_path / "content", f"""
        # Title

        See [the part](#top-weight-0-64).
        {FIGURE}
        ## Top weight {{= softmax-temperature.facts.top_weight_at_1 :.2f =}}
        """.replace("\n        ", "\n"))
    config = read_config(Options(paths_for(content), load_runtime(paths_for(content), None), BuildCache()))
    check_prose(read_chapters(config))
    assert no_model == []


def test_a_wrong_path_in_an_expression_is_reported_before_any_figure_is_drawn(tmp_path, monkeypatch):
    def draw(name, data):
        raise AssertionError("a figure was drawn before the expressions were evaluated")

    monkeypatch.setattr(fallbacks, "render_svg", draw)
    err = _error(tmp_path, f"# Title\n{FIGURE}\nIt is {{= softmax-temperature.facts.tmax :g =}}.\n")
    assert err.line == 8 and "has no 'tmax'" in err.message and "t_max" in err.message, str(err)
