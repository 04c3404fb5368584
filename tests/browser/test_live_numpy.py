"""The vendored path with a stand-in numpy: everything a vendored build does that needs no numpy
code, and how a worker that cannot compute says so. Real numpy in Pyodide is test_real_python.py's."""
from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import CHAPTER, ROOT, SETTLE_MS, expect


def _stand_in_distribution(folder: Path) -> Path:
    """A Pyodide distribution folder: the npm core, and a lock whose numpy entry is a tiny pure-Python
    wheel. It exercises everything on the vendored path that does not need numpy's code."""
    import base64
    import hashlib
    import json
    import shutil
    import zipfile

    from builder.runtime import loaded_files

    core = ROOT / "node_modules" / "pyodide"
    folder.mkdir(parents=True)
    for name in loaded_files(core):
        shutil.copyfile(core / name, folder / name)
    lock = json.loads((core / "pyodide-lock.json").read_text())
    entry = lock["packages"]["numpy"]
    files = {"numpy/__init__.py": b"__version__ = '0.0+stand-in'\nSTAND_IN = True\n",
             f"numpy-{entry['version']}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: numpy\nVersion: {entry['version']}\n".encode(),
             f"numpy-{entry['version']}.dist-info/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = "".join(f"{n},sha256={base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b'=').decode()},{len(d)}\n"
                     for n, d in files.items()) + f"numpy-{entry['version']}.dist-info/RECORD,,\n"
    files[f"numpy-{entry['version']}.dist-info/RECORD"] = record.encode()
    wheel = folder / entry["file_name"]
    with zipfile.ZipFile(wheel, "w") as zf:
        for n, d in files.items():
            zf.writestr(n, d)
    entry["sha256"] = hashlib.sha256(wheel.read_bytes()).hexdigest()
    (folder / "pyodide-lock.json").write_text(json.dumps(lock))
    return folder


@pytest.fixture(scope="module")
def stand_in_url(tmp_path_factory, serve_folder) -> str:
    from builder.build import Paths, build

    tmp = tmp_path_factory.mktemp("browser-site-stand-in")
    out = tmp / "dist"
    build(Paths.at(ROOT), out, pyodide_dist=_stand_in_distribution(tmp / "pyodide"))
    return serve_folder(out)


def test_vendored_runtime_installs_the_engine_from_the_same_origin(open_chapter, stand_in_url):
    """With numpy vendored (here a stand-in), Python gets to "ready" without the CDN: the lock,
    the wheel and the engine all come from the site. A recompute then reaches the engine in the
    worker, which fails on the stand-in numpy and must say so while the figure keeps its data."""
    chapter = open_chapter(stand_in_url + CHAPTER)
    chapter.wait_prerendered()
    chapter.start_runtime()
    status = chapter.wait_settled(timeout=SETTLE_MS)
    assert status["state"] == "ready", status
    assert chapter.stages()[-3:] == ["python", "engine", "ready"], chapter.stages()
    assert chapter.cdn_requests == []

    figure = chapter.figure("softmax-temperature")
    before = chapter.numbers("softmax-temperature")
    bar = figure.locator("g.score-bar").first
    bar.focus()
    bar.press("ArrowUp")
    note = figure.locator(".figure-note")
    expect(note).to_contain_text("Could not recompute", timeout=30_000)
    assert "Traceback" not in note.text_content() and len(note.text_content()) < 300, note.text_content()
    expect(figure).to_have_attribute("data-state", "prerendered")
    assert chapter.numbers("softmax-temperature") == before
