"""`build.py fetch-runtime` against a local stand-in for the release archive, served over HTTP:
the kept files are checked against pinned hashes, and the result builds with --pyodide-dist."""
import hashlib
import io
import json
import shutil
import tarfile

import pytest

from builder.errors import BuildError
from builder.fetch import fetch_runtime, release_url
from builder.runtime import from_distribution, loaded_files, sha256
from builder.serve import static_server
from tests.conftest import ROOT

NPM_CORE = ROOT / "node_modules" / "pyodide"
CORE_FILES = loaded_files(NPM_CORE)


@pytest.fixture
def server(tmp_path):
    folder = tmp_path / "www"
    folder.mkdir()
    srv = static_server(folder)
    yield folder, f"http://127.0.0.1:{srv.server_address[1]}/"
    srv.shutdown()
    srv.server_close()


def _archive(path, members: dict[str, bytes]):
    with tarfile.open(path, "w:bz2") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


@pytest.fixture
def stand_in(tmp_path):
    """node_modules whose Pyodide lock pins a stand-in numpy wheel (and a pinned-hash file that
    matches that core), and the stand-in wheel's bytes."""
    core = tmp_path / "node_modules" / "pyodide"
    shutil.copytree(NPM_CORE, core)
    wheel = b"PK stand-in numpy wheel"
    lock = json.loads((core / "pyodide-lock.json").read_text())
    lock["packages"]["numpy"]["sha256"] = hashlib.sha256(wheel).hexdigest()
    (core / "pyodide-lock.json").write_text(json.dumps(lock))
    pinned = tmp_path / "pinned.json"
    pinned.write_text(json.dumps({"version": json.loads(
        (core / "package.json").read_text())["version"], "sha256": {n: sha256(core / n) for n in CORE_FILES}}))
    return tmp_path / "node_modules", pinned, lock["packages"]["numpy"]["file_name"], wheel


def test_fetch_keeps_the_core_and_the_checked_wheels(stand_in, server, tmp_path):
    node_modules, pinned, wheel_name, wheel = stand_in
    www, url = server
    _archive(www / "pyodide.tar.bz2", {"pyodide/README.md": b"x", f"pyodide/{wheel_name}": wheel,
                                       "pyodide/pandas-0-py3-none-any.whl": b"not wanted"})
    out = fetch_runtime(tmp_path / "cache" / "pyodide", node_modules, url + "pyodide.tar.bz2", pinned)
    assert sorted(p.name for p in out.iterdir()) == sorted([*CORE_FILES, wheel_name])
    runtime = from_distribution(out)  # what --pyodide-dist then takes
    assert runtime.vendored == ["numpy"] and runtime.package_base_url is None
    assert release_url("0.29.3").endswith("/0.29.3/pyodide-0.29.3.tar.bz2")


def test_a_changed_wheel_or_a_missing_one_is_refused_and_nothing_is_left(stand_in, server, tmp_path):
    node_modules, pinned, wheel_name, wheel = stand_in
    www, url = server
    _archive(www / "bad.tar.bz2", {f"pyodide/{wheel_name}": wheel + b"tampered"})
    _archive(www / "empty.tar.bz2", {"pyodide/README.md": b"x"})
    out = tmp_path / "cache" / "pyodide"
    with pytest.raises(BuildError, match="sha256 does not match"):
        fetch_runtime(out, node_modules, url + "bad.tar.bz2", pinned)
    with pytest.raises(BuildError, match=f"has no {wheel_name}"):
        fetch_runtime(out, node_modules, url + "empty.tar.bz2", pinned)
    with pytest.raises(BuildError, match="could not download"):
        fetch_runtime(out, node_modules, url + "missing.tar.bz2", pinned)
    assert not out.exists() and list(out.parent.iterdir()) == []

