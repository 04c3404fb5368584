"""Full builds of the real content into tmp_path."""
import json
import re
import sys
import zipfile

import pytest

from builder import lockfile
from builder.build import Paths, build, check
from engine.figures import compute, parse
from tests.conftest import ROOT
from tests.site_layout import pyodide_folder, runtime_config, shipped_lock, theme_folder


@pytest.fixture(scope="module")
def site(series_build):
    return series_build[1]


def test_pages_and_runtime_files(site):
    for rel in ["index.html", "04-scores-to-weights.html", ".nojekyll", "runtime.json"]:
        assert (site / rel).is_file(), rel
    for rel in ["pyodide.mjs", "pyodide.asm.wasm", runtime_config(site)["lock"]]:
        assert (pyodide_folder(site) / rel).is_file(), rel
    for rel in ["runtime/worker.js", "figures/softmax-temperature.js", "css/site.css"]:
        assert (theme_folder(site) / rel).is_file(), rel
    index = (site / "index.html").read_text()
    assert 'href="04-scores-to-weights.html"' in index


def test_figure_embeds_the_engine_output(site):
    html = (site / "04-scores-to-weights.html").read_text()
    for name in ("softmax-bars", "softmax-temperature", "scaling-experiment"):
        m = re.search(rf'data-figure="{name}"[^>]*>\s*<div class="figure-body"><script type="application/json" '
                      r'class="figure-data">(.*?)</script>', html)
        assert m, name
        assert json.loads(m.group(1)) == json.loads(json.dumps(compute(parse(name))))
    assert html.count('data-state="static"') == 3
    assert "Figure 4.1" in html and "Figure 4.2" in html and "Figure 4.3" in html


def test_every_figure_on_every_page_embeds_the_engine_output_for_its_options(site, series_given):
    """The data in a page is what browser tests compare a view with: it is the engine's own, given
    what the build gives it (the series' prose, and chapter 14's model made from it)."""
    names = set()
    for page in sorted(site.glob("*.html")):
        for raw in re.findall(r'class="figure-data">(.*?)</script>', page.read_text()):
            data = json.loads(raw)
            names.add(data["figure"])
            want = compute(parse(data["figure"], data["params"]), series_given)
            assert data == json.loads(json.dumps(want)), (page.name, data["figure"])
    assert len(names) >= 30, names  # every figure of the series (engine.figures.FIGURES)


def test_fallbacks_are_svg_with_alt_text_and_numbers(site):
    html = (site / "04-scores-to-weights.html").read_text()
    imgs = re.findall(r'<img src="(figures/[^"]+\.svg)" alt="([^"]+)"', html)
    assert len(imgs) == 3
    for src, alt in imgs:
        svg = (site / src).read_text()
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg
        assert len(alt) > 40
    assert re.search(r'<ul class="figure-numbers"[^>]*>(<li>[^<]*</li>)*<li>d = 512: 0\.\d\d unscaled', html)


def test_prose_numbers_come_from_the_engine(site):
    html = (site / "04-scores-to-weights.html").read_text()
    by_d = compute(parse("scaling-experiment"))["by_d"]
    for value in (by_d["2"]["unscaled"], by_d["512"]["unscaled"], by_d["512"]["scaled"]):
        assert f"{value:.2f}" in html
    assert "{=" not in html


def test_links_are_relative(site):
    for page in site.glob("*.html"):
        text = re.sub(r'xmlns="[^"]*"', "", page.read_text())  # MathML's namespace is a name, not a link
        assert not re.search(r'(?:href|src)="/', text), page.name
        assert "http://" not in text and "//localhost" not in text


def test_engine_wheel_imports_with_numpy_alone(site, tmp_path):
    (wheel,) = pyodide_folder(site).glob("*/attention_engine-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        assert "engine/figures/softmax_temperature.py" in names
        assert any(n.endswith(".dist-info/RECORD") for n in names)
        zf.extractall(tmp_path)
    import subprocess
    code = "import engine.figures as f, json; print(json.loads(f.compute_json('scaling-experiment', '{\"widths\": [2]}'))['ok'])"
    out = subprocess.run([sys.executable, "-I", "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr


def test_runtime_config_names_the_engine_and_the_cdn(site):
    config = json.loads((site / "runtime.json").read_text())
    assert config["engine"] == "attention-engine" and config["shipped"] == ["attention-engine"]
    assert config["vendored"] == []
    assert config["packageBaseUrl"] == f"https://cdn.jsdelivr.net/pyodide/v{config['pyodideVersion']}/full/"


def test_runtime_config_lists_every_file_the_boot_fetches_with_its_size(site):
    """What the worker's progress counts (theme/runtime/worker.js): each file of Pyodide's folder
    but the modules it imports, at its size in the output."""
    folder = pyodide_folder(site)
    files = {p.relative_to(folder).as_posix(): p.stat().st_size for p in folder.rglob("*") if p.is_file()}
    modules = {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.js"}
    assert runtime_config(site)["downloads"] == {name: size for name, size in files.items() if name not in modules}
    assert "pyodide.asm.wasm" in runtime_config(site)["downloads"]


@pytest.mark.skipif(not lockfile.available(Paths.at(ROOT).pyodide_cli), reason="pyodide-build is not installed (no Python >= 3.12 here): "
                    "the build loads the engine by its URL instead (tests/builder/test_lockfile.py)")
def test_the_engine_is_registered_in_the_shipped_lock(site):
    """pyodide lockfile add-wheels wrote its entry: numpy resolved as its dependency, the hash of
    the wheel shipped beside it; every entry of Pyodide's own lock is left as it was."""
    import hashlib

    shipped = json.loads(shipped_lock(site).read_text())
    original = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text())
    entry = shipped["packages"].pop("attention-engine")
    assert shipped == original
    wheel = pyodide_folder(site) / entry["file_name"]
    assert entry["depends"] == ["numpy"] and entry["imports"] == ["engine"]
    assert entry["sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()


def test_build_is_reproducible(site, tmp_path):
    again = tmp_path / "again"
    build(Paths.at(ROOT), again)
    first = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    assert [k for k in first if first[k] != second[k]] == []


def test_check_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    site = check(Paths.at(ROOT))
    assert "04-scores-to-weights.html" in site.files
    assert list(tmp_path.iterdir()) == []
