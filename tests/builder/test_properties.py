"""Hypothesis feeds malformed Markdown and options to the builder: a clean BuildError or a page, never a traceback."""
import json
import os
import re

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from builder.build import gather_chapter
from builder.cache import BuildCache
from builder.errors import BuildError
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
        chapter = gather_chapter(entry, BuildCache(), load_bibliography(folder, BuildCache()))
    except BuildError as err:
        assert err.path == entry.path and err.line is not None and 1 <= err.line <= text.count("\n") + 1, str(err)
        return
    outside_code = re.sub(r"(?s)<pre.*?</pre>|<code.*?</code>", "", chapter.html)
    assert "/// figure" not in outside_code


# --- YAML tags, surrogates and control characters, format codes, site.toml file names ----------

tags = st.sampled_from(["!!float", "!!int", "!!bool", "!!null", "!!str", "!!seq", "!!map", "!!binary", "!!timestamp", ""])
escaped_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0xDFFF), max_size=4).map(
    lambda t: '"' + "".join(f"\\u{ord(c):04x}" for c in t) + '"')  # YAML escapes: controls and lone surrogates too
tagged_value = st.builds(lambda tag, v: f"{tag} {v}".strip(), tags,
                         st.one_of(escaped_text, st.sampled_from(["x", "1", "1.5", "maybe", "[1]", "{a: 1}", "''"])))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["scores", "labels", "temperature", "steps"]), tagged_value, st.booleans())
def test_yaml_tags_surrogates_and_controls_fail_cleanly(tmp_path_factory, option, value, as_expression):
    folder = tmp_path_factory.mktemp("c")
    (folder / "site.toml").write_text('[site]\ntitle = "T"\n[[chapters]]\nfile = "01-x.md"\n')
    body = (f"A {{= softmax-temperature{{{option}: {value}}}.facts.t_min =}}.\n" if as_expression
            else f"/// figure | softmax-bars\n    {option}: {value}\n\nCaption.\n///\n")
    (folder / "01-x.md").write_text("# T\n\n" + body)
    try:
        chapter = gather_chapter(load_site_config(folder).chapters[0], BuildCache())
    except BuildError as err:
        assert err.line == 3 or (not as_expression and err.line == 4), str(err)
        return
    chapter.html.encode("utf-8")  # no lone surrogate reached the page
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f]", chapter.html)


format_codes = st.builds(lambda flags, code: ":" + flags + code, st.sampled_from(["", "#", "+", "<10", "^9", "_", ",", "010.2"]),
                         st.sampled_from(list("bcdeEfFgGnosxX%") + [""]))


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.one_of(st.integers(-10, 0x11_0010), st.floats(allow_nan=True), st.text(max_size=6)), format_codes)
def test_every_format_code_writes_text_or_fails_cleanly(value, fmt):
    from builder.expressions import ExpressionError, evaluate, read

    try:
        out = evaluate(read(f"softmax-bars.x {fmt}"), lambda params: {"x": value})
    except ExpressionError:
        return
    out.encode("utf-8")
    assert not re.search("[<>\x00-\x08\x0b-\x1f\ud800-\udfff]", out), out


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(min_size=1, max_size=12))
def test_site_toml_file_names_are_plain_or_refused(tmp_path_factory, stem):
    folder = tmp_path_factory.mktemp("c")
    name = stem + ".md"
    (folder / "site.toml").write_text('[site]\ntitle = "T"\n[[chapters]]\nfile = ' + json.dumps(name) + "\n",
                                      encoding="utf-8", errors="surrogatepass")
    try:
        (folder / name).write_text("# T\n")
    except (OSError, ValueError):
        pass
    try:
        config = load_site_config(folder)
    except BuildError as err:
        assert err.line is not None, str(err)
        return
    assert re.fullmatch(r"[A-Za-z0-9_-]+\.md", config.chapters[0].path.name)


patches = st.lists(st.sampled_from([
    "np.allclose = lambda *a, **k: True", "np.isclose = lambda *a, **k: np.True_", "np.asarray = lambda *a, **k: 0",
    "import engine.attention as a\na.softmax_forward = lambda x: (x, None)",
    "import engine.exercises.cases as c\nc.first_failure = lambda *a, **k: None",
    "import engine.exercises.cases as c\nc.judge = lambda *a, **k: None",
    "import engine.exercises.softmax as s\ns.verdict = lambda *a, **k: None",
    "import engine.exercises.cases as c\nc.close.__code__ = (lambda *a, **k: True).__code__",
    "import builtins\ndel builtins.len", "import builtins\ndel builtins.isinstance", "import builtins\nbuiltins.type = None",
    "import sys\nsys.modules['numpy'] = None", "import json\njson.dumps = None", "raise SystemExit",
    "import traceback\ntraceback.extract_tb = None"]), min_size=1, max_size=3)


@settings(max_examples=EXAMPLES, deadline=None)
@given(patches, st.sampled_from(["return x", "return x * 0 + 0.2", "return np.exp(x)", "return x.T"]))
def test_no_patch_makes_a_wrong_softmax_pass(patch, wrong):
    from engine.exercises import grade

    code = "\n".join(patch) + f"\ndef softmax(x):\n    {wrong}\n"
    assert grade("softmax", code)["state"] != "passed"
    assert grade("softmax", f"def softmax(x):\n    {wrong}\n")["state"] == "failed"  # nothing persisted


@settings(max_examples=max(10, EXAMPLES // 10), deadline=None)
@given(st.lists(st.text(alphabet=st.characters(max_codepoint=0x2FFF, blacklist_categories=("Cs", "Cc")),
                        min_size=1, max_size=8),
                min_size=5, max_size=5, unique=True))
def test_every_fallback_of_any_label_is_well_formed_svg(labels):
    import xml.etree.ElementTree as etree

    from builder.fallbacks import render_svg
    from engine.figures import compute, parse

    svg = render_svg("softmax-bars", compute(parse("softmax-bars", {"labels": labels})))
    assert etree.fromstring(svg) is not None
