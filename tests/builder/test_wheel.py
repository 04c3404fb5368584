import ast
import base64
import csv
import hashlib
import io
import json
import shutil
import subprocess
import sys
import zipfile

from builder.cache import BuildCache
from builder.wheel import build_wheel
from tests.conftest import ROOT


def test_wheel_is_byte_identical_and_its_record_is_right():
    name, first = build_wheel(ROOT / "engine", BuildCache())
    assert name == "attention_engine-0.1.0-py3-none-any.whl"
    assert build_wheel(ROOT / "engine", BuildCache())[1] == first  # made again from the files, in a new cache
    with zipfile.ZipFile(io.BytesIO(first)) as zf:
        record = zf.read("attention_engine-0.1.0.dist-info/RECORD").decode()
        rows = list(csv.reader(io.StringIO(record)))
        assert {r[0] for r in rows} == set(zf.namelist())
        for path, digest, size in rows:
            if digest:
                data = zf.read(path)
                want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                assert digest == f"sha256={want}" and int(size) == len(data)
        assert not any("__pycache__" in n for n in zf.namelist())


def test_a_changed_engine_file_changes_the_wheel(tmp_path):
    """The wheel's files are kept in the build cache by their bytes (serve rebuilds on every save): an
    edit is never served from what was kept."""
    engine = shutil.copytree(ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    cache = BuildCache()
    before = build_wheel(engine, cache)[1]
    model = engine / "figures" / "softmax_temperature.py"
    model.write_text(model.read_text() + "\nEDITED = True\n")
    with zipfile.ZipFile(io.BytesIO(build_wheel(engine, cache)[1])) as zf:
        assert zf.read("engine/figures/softmax_temperature.py").endswith(b"EDITED = True\n")
    assert build_wheel(engine, cache)[1] != before


def _shipped() -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(build_wheel(ROOT / "engine", BuildCache())[1])) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def _functions(source: str) -> set[str]:
    return {n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)}


def test_the_wheel_holds_no_build_only_code():
    """No benchmark and no model's facts() (nor a helper only facts() used), and what stays stands
    on the line it has in engine/, so a traceback from the worker points at the right line."""
    shipped = _shipped()
    assert (ROOT / "engine/bench.py").is_file() and "engine/bench.py" not in shipped
    models = [n for n in shipped if n.startswith("engine/figures/") and not n.endswith("__init__.py")]
    helpers_gone = 0
    for name in models:
        source, lines = (ROOT / name).read_text(), shipped[name].decode()
        gone = _functions(source) - _functions(lines)
        assert "facts" not in _functions(lines), name
        assert gone <= {"facts"} | {f for f in gone if f.startswith("_") and f"{f}(" in source}, (name, gone)
        helpers_gone += len(gone - {"facts"})
        assert len(lines.splitlines()) == len(source.splitlines()), name
        assert all(ln == src for ln, src in zip(lines.splitlines(), source.splitlines()) if ln), name
    assert sum("\ndef facts(" in (ROOT / n).read_text() for n in models) >= 10  # the models checked have facts
    assert helpers_gone >= 1  # a helper that only facts() called goes with it


def test_every_figure_computes_the_same_from_the_wheel(tmp_path, series_given):
    """The wheel alone, unpacked, computes every figure as engine/ does, given the same files as a
    page's worker is, and has no facts to give."""
    with zipfile.ZipFile(io.BytesIO(build_wheel(ROOT / "engine", BuildCache())[1])) as zf:
        zf.extractall(tmp_path)
    for name, data in series_given.items():
        (tmp_path / f"given-{name}").write_bytes(data)
    script = ("import json, sys; from engine import figures as f\n"
              "from engine.given import Given\n"
              "assert f.__file__.startswith(sys.argv[1]), f.__file__\n"
              f"given = Given({{name: open('given-' + name, 'rb').read() for name in {sorted(series_given)!r}}})\n"
              "assert not any(hasattr(f.module(n), 'facts') for n in f.FIGURES)\n"
              "print(json.dumps({n: f.compute(f.parse(n), given) for n in f.FIGURES}))\n")
    run = subprocess.run([sys.executable, "-c", script, str(tmp_path)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    from engine.figures import FIGURES, compute, parse

    assert json.loads(run.stdout) == {n: json.loads(json.dumps(compute(parse(n), series_given))) for n in FIGURES}
