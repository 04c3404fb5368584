"""The figure contract as the builder enforces it: three parts per figure, JSON output with text,
inert embedded data, one palette, and facts that stay at build time."""
from __future__ import annotations

import json
import re
import shutil
import types
from dataclasses import replace

import pytest

from builder import fallbacks, figures, palette
from builder.cache import BuildCache
from builder.build import Paths, check, gather_chapter
from builder.errors import BuildError
from builder.figures import FigureCache, embed_json
from engine import figures as models
from builder.site_config import load_site_config
from tests.builder.helpers import one_chapter_site, paths_for
from tests.conftest import PALETTE, ROOT
from tests.site_layout import theme_file

HOSTILE = "</script><!--<script>&\u2028\u2029>"


def test_embedded_json_has_no_markup_characters_and_round_trips():
    data = {"labels": [HOSTILE], "n": 1}
    out = embed_json(data)
    assert not set("<>&\u2028\u2029") & set(out)
    assert json.loads(out) == data


def test_a_hostile_label_cannot_end_the_data_script(tmp_path):
    content = one_chapter_site(tmp_path / "content", f"""
        # Labels

        /// figure | softmax-temperature
            labels: ["{HOSTILE[:-3]}", b]
            scores: [1, 2]

        Caption.
        ///
        """)
    site = check(paths_for(content))
    page = site.files["01-test.html"].decode()
    script = page.split('class="figure-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in script and json.loads(script)["labels"][0] == HOSTILE[:-3]


def test_a_figure_without_its_view_names_the_figure_and_the_file(tmp_path):
    theme = tmp_path / "theme"
    shutil.copytree(ROOT / "theme", theme)
    (theme / "figures" / "dot-product.js").unlink()
    paths = replace(Paths.at(ROOT), theme=theme)
    with pytest.raises(BuildError) as err:
        check(paths)
    assert err.value.path == theme / "figures" / "dot-product.js"
    assert "figure 'dot-product' has no view" in str(err.value)


def test_a_figure_without_its_fallback_names_the_figure_and_the_file(monkeypatch, tmp_path):
    monkeypatch.setattr(fallbacks, "source", lambda name: tmp_path / f"{name.replace('-', '_')}.py")
    with pytest.raises(BuildError) as err:
        figures.check_parts("dot-product", ROOT / "theme")
    assert err.value.path == tmp_path / "dot_product.py"
    assert "figure 'dot-product' has no fallback" in str(err.value)


@pytest.mark.parametrize("bad, words", [
    ({"x": {1, 2}}, "JSON-able"),
    ({"x": float("nan")}, "JSON-able"),
    ({"x": 1}, "text() must return"),
])
def test_model_output_that_is_not_json_or_lacks_text_is_a_build_error(monkeypatch, bad, words):
    real = models.module("dot-product")
    fake = types.SimpleNamespace(Params=real.Params, compute=lambda p: dict(bad),
                                 text=lambda p, d: {"alt": 1} if "x" in d and d["x"] == 1 else {"alt": "", "numbers": []})
    monkeypatch.setattr(models, "module", lambda name: fake)
    with pytest.raises(BuildError) as err:
        FigureCache().data(models.parse("dot-product"))
    assert words in str(err.value) and err.value.path.name == "dot_product.py"


def test_a_figure_s_options_are_parsed_once(tmp_path, monkeypatch):
    """The directive's check parses them into Params; the model, the facts, the page and the fallback
    all take that Params: nothing validates them again."""
    params = models.module("softmax-temperature").Params
    expected = [params(), params(temperature=2.0)]  # the expression's (none), read as it is found, then the figure's
    made = []
    check_rules = params.__post_init__
    monkeypatch.setattr(params, "__post_init__", lambda self: made.append(self) or check_rules(self))
    page = "# T\n\n/// figure | softmax-temperature\n    temperature: 2.0\n\nCaption {= softmax-temperature.start =}.\n///\n"
    chapter = gather_chapter(load_site_config(one_chapter_site(tmp_path / "content", page)).chapters[0], BuildCache())
    assert chapter.figures[0].live
    assert made == expected


def test_a_figure_s_layout_is_its_directive_s_and_changes_no_number(tmp_path):
    """`layout: wide` marks the figure's element for the stylesheet and is not handed to the model: the
    figure computes what it computes without it. A layout it does not know is an error at its line."""
    page = "# T\n\n/// figure | softmax-temperature\n    layout: wide\n    temperature: 2.0\n\nCaption.\n///\n"
    chapter = gather_chapter(load_site_config(one_chapter_site(tmp_path / "a", page)).chapters[0], BuildCache())
    assert '<figure class="figure figure-wide"' in chapter.html
    plain = gather_chapter(load_site_config(one_chapter_site(tmp_path / "b", page.replace("    layout: wide\n", ""))).chapters[0],
                           BuildCache())
    data = re.compile(r'<script type="application/json" class="figure-data">.*?</script>', re.S)
    assert data.findall(chapter.html) == data.findall(plain.html) and 'class="figure"' in plain.html
    bad = page.replace("layout: wide", "layout: huge")
    with pytest.raises(BuildError) as err:
        gather_chapter(load_site_config(one_chapter_site(tmp_path / "c", bad)).chapters[0], BuildCache())
    assert err.value.line == 4 and "one of body, wide, not 'huge'" in str(err.value), str(err.value)


def test_no_model_has_an_option_named_as_the_directive_s_own():
    from builder.directives.figure import Options

    clash = [(name, f) for name in models.FIGURES for f in models.module(name).Params.__dataclass_fields__
             if f in Options.__dataclass_fields__]
    assert clash == []


def test_embedded_data_carries_no_facts_and_the_schema_of_every_option(shared_figure_cache, series_given):
    for name in models.FIGURES:
        data = shared_figure_cache.data(models.parse(name), series_given)
        assert "facts" not in data, name
        assert set(data["schema"]) == set(data["params"]), name


def test_one_palette_feeds_css_and_matplotlib(tmp_path):
    """The theme's palette.toml colours the stylesheet and the fallbacks' drawings alike: a theme with
    another ink shows it in both (the drawings use var(--role): tests/builder/test_fallbacks.py)."""
    theme = shutil.copytree(ROOT / "theme", tmp_path / "theme")
    (theme / "palette.toml").write_text(PALETTE.read_text().replace('\nink = "', '\nink = "#123456" # was "', 1))
    content = one_chapter_site(tmp_path / "content", "# T\n\n/// figure | softmax-temperature\n\nA caption.\n///\n")
    site = check(replace(paths_for(content), theme=theme))
    assert "--ink: #123456;" in site.files[theme_file(site, "css/site.css")].decode()
    (drawing,) = [rel for rel in site.files if rel.startswith("figures/01-test-1.")]
    assert "--ink:#123456" in site.files[drawing].decode()
    colours = palette.load(PALETTE)
    assert {"query", "key", "value", "prediction"} <= set(colours)
    css = (ROOT / "theme" / "css" / "site.css").read_text()
    generated = palette.css(colours)
    for name, value in colours.items():
        assert f"--{name}: {value};" in generated
        # defined only in theme/palette.toml; a part of a page may point a role at another (the editor's
        # light card: --ink: var(--paper-ink)), never at a colour of its own
        assert not re.search(rf"--{name}:(?!\s*var\(--)", css), name


def test_a_malformed_palette_is_a_build_error(tmp_path):
    bad = tmp_path / "palette.toml"
    bad.write_text('[colours]\nquery = "orange"\n')
    with pytest.raises(BuildError) as err:
        palette.load(bad)
    assert "#rrggbb" in str(err.value)


def test_the_dark_scheme_gives_every_role_and_goes_into_a_media_query(tmp_path):
    dark = palette.load_dark(PALETTE)
    assert set(dark) == set(palette.load(PALETTE)) and dark["bg"] != palette.load(PALETTE)["bg"]
    css = palette.css(palette.load(PALETTE), dark)
    media = css[css.index("@media (prefers-color-scheme: dark)"):]
    assert all(f"--{name}: {value};" in media for name, value in dark.items())
    short = tmp_path / "palette.toml"
    short.write_text('[colours]\nink = "#000000"\nbg = "#ffffff"\n\n[dark]\nink = "#ffffff"\n')
    with pytest.raises(BuildError) as err:
        palette.load_dark(short)
    assert "missing: bg" in str(err.value)


def test_every_fact_a_model_computes_is_quoted_by_some_chapter():
    assert not [w for w in check(Paths.at(ROOT)).warnings if "fact '" in w]


def test_check_warns_of_facts_no_chapter_quotes(tmp_path):
    content = one_chapter_site(tmp_path / "content", """
        # Facts

        The top weight is {= softmax-temperature.facts.top_weight_at_1 :.2f =}.

        /// figure | softmax-temperature

        Caption.
        ///
        """)
    warnings = [w for w in check(paths_for(content)).warnings if "fact '" in w]
    assert warnings and all(w.startswith("engine/figures/softmax_temperature.py: warning: fact '") for w in warnings)
    assert not [w for w in warnings if "'top_weight_at_1'" in w] and [w for w in warnings if "'t_max'" in w]
