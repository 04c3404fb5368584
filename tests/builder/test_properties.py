"""Hypothesis feeds malformed Markdown and options to the builder: a clean BuildError or a page, never a traceback."""
import os
import re

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from builder.build import gather_chapter
from builder.errors import BuildError
from builder.figures import FigureCache
from builder.references import load as load_bibliography
from builder.site_config import load_site_config
from engine.figures import FIGURES

EXAMPLES = int(os.environ.get("HYPOTHESIS_EXAMPLES", "150"))  # raise it for a deeper search

names = st.sampled_from([*FIGURES, "", "nope", "softmax_temperature", "a b"])
values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
              st.text(max_size=8)),
    lambda inner: st.lists(inner, max_size=4), max_leaves=6)
option_names = st.sampled_from(["scores", "labels", "temperature", "steps", "t_min", "widths", "queries",
                                "keys", "seed", "attrs", "x"])
hostile_option = st.sampled_from([
    "    scores: &a [1, 2]", "    labels: *a", "    steps: 1" + "0" * 400, "    steps: 1" + "0" * 5000,
    "    temperature: 2001-01-01", "  temperature: 2.0", "    scores: " + "[" * 100 + "]" * 100,
    "    1: 2", "    scores: !!set {a}", "    temperature: 1.0e999", "    labels: [cat, sat]"])
option_line = st.one_of(st.builds(lambda k, v: "    " + yaml.safe_dump({k: v}, default_flow_style=True).strip()[1:-1],
                                  option_names, values), hostile_option)
raw_line = st.sampled_from(["", "Some prose.", "    indented", "- item", "> quote", "```", "~~~", "///",
                            "////", "/// figure", "/// figuer | x", "`{= code =}`", "{=", "=}", "    - 1",
                            "    key: [1, 2", "# Heading", "| a | b |",
                            "    /// figure | softmax-temperature", "> /// figure | scaling-experiment", "    ///",
                            "> ///", "1. item", "        /// figure | scaling-experiment",
                            "See [@alpha2001].", "[@", "[@nope]", "[@alpha2001; gamma]", "[@]", "Note[^n].",
                            "[^n]: A note.", "[^m]: Another.", "    - in a note", "$x^2$", "$\\frac{a}{b$", "$$",
                            "$\\query{q}\\cdot k$", "$a^$", "\\$5 and $6", "$\\nope$",
                            "$x", "$$x$$", "a\u2028b", "\x01", "\ufeff", "- " * 300 + "x", ">" * 300, "[" * 3000,
                            "`` `" * 2000, "```python", "{=" * 1000, "[@" * 1000, "[^" * 1000])
expression = st.builds(lambda n, path, fmt: f"value {{= {n}{path} {fmt} =}}",
                       names, st.sampled_from(["", ".params.seed", ".facts.t_max", ".by_d.2.scaled", ".rows.0", ".x.y"]),
                       st.sampled_from(["", ":.2f", ":d", ":%", ":{}", ":300000000", ":.999f"]))
hostile_expression = st.sampled_from([
    "{= softmax-temperature{1: 2, a: 3}.facts.t_min =}", "{= softmax-temperature{a: &x 1, b: *x}.facts.t_min =}",
    "{= softmax-temperature{temperature: 2001-01-01}.facts.t_min =}", "{= softmax-temperature{[1]}.facts.t_min =}",
    "{= softmax-temperature{scores: [1, 2, 3], labels: [a, b]}.facts.t_min =}"])
figure = st.builds(lambda n, opts, close: "\n".join([f"/// figure | {n}", *opts, "", "Caption.", *close]),
                   names, st.lists(option_line, max_size=3), st.sampled_from([["///"], [], ["////"]]))
document = st.lists(st.one_of(raw_line, expression, hostile_expression, figure), max_size=8).map(lambda parts: "# T\n\n" + "\n".join(parts))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document)
def test_malformed_chapters_fail_cleanly(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("c")
    (folder / "site.toml").write_text('[site]\ntitle = "T"\n[[chapters]]\nfile = "01-x.md"\n')
    (folder / "01-x.md").write_text(text)
    (folder / "references.bib").write_text(
        "@misc{alpha2001, author={Alpha, A.}, title={T}, year={2001}, url={https://example.org}}\n")
    entry = load_site_config(folder).chapters[0]
    try:
        chapter = gather_chapter(entry, FigureCache(), load_bibliography(folder))
    except BuildError as err:
        assert err.path == entry.path and err.line is not None and 1 <= err.line <= text.count("\n") + 1, str(err)
        return
    outside_code = re.sub(r"(?s)<pre.*?</pre>|<code.*?</code>", "", chapter.html)
    assert "/// figure" not in outside_code
