"""The service worker's precache manifest: every file the build writes is listed with its size
and sha256 (nothing missing, nothing extra), and the version changes with any file."""
import json

from builder.build import Paths, build
from builder.offline import NOT_PRECACHED, SW, manifest
from tests.conftest import ROOT


def _manifest(out):
    head = (out / SW).read_text().split("\n", 1)[0]
    assert head.startswith("const MANIFEST = ") and head.endswith(";")
    return json.loads(head.removeprefix("const MANIFEST = ").rstrip(";"))


def test_every_file_is_listed_with_its_size_and_hash(series_build):
    import hashlib

    out = series_build[1]
    listed = _manifest(out)
    on_disk = {p.relative_to(out).as_posix(): p for p in out.rglob("*") if p.is_file()}
    assert set(listed["files"]) == set(on_disk) - set(NOT_PRECACHED)
    for rel, (size, digest) in listed["files"].items():
        data = on_disk[rel].read_bytes()
        assert (size, digest) == (len(data), hashlib.sha256(data).hexdigest()), rel
    assert any(rel.startswith("pyodide/") for rel in listed["files"])  # the runtime too
    assert any(rel.startswith("pyodide/") and rel.endswith(".whl") for rel in listed["files"])  # the engine wheel


def test_the_version_follows_the_content(tmp_path):
    a = tmp_path / "a.txt"
    a.write_bytes(b"one")
    first = manifest({"index.html": b"<p>x</p>"}, {"a.txt": a})
    assert manifest({"index.html": b"<p>x</p>"}, {"a.txt": a}) == first  # reproducible
    a.write_bytes(b"two")
    assert manifest({"index.html": b"<p>x</p>"}, {"a.txt": a})["version"] != first["version"]
    assert manifest({"index.html": b"<p>y</p>"}, {})["version"] != first["version"]


def test_a_site_without_offline_reading_retires_the_worker_readers_registered(tmp_path):
    """[site] offline = false: sw.js stays (a browser keeps a worker whose script is gone) and becomes
    the worker that deletes the site's caches and unregisters; no page offers or registers one, and
    every page removes what the old worker left."""
    from tests.builder.helpers import one_chapter_site

    content = one_chapter_site(tmp_path / "content", "# Online\n\nText.\n")
    toml = content / "site.toml"
    toml.write_text(toml.read_text().replace('title = "Test"', 'title = "Test"\noffline = false'))
    out = tmp_path / "dist"
    build(Paths.at(ROOT, content), out)
    assert (out / SW).read_bytes() == (ROOT / "theme" / "sw" / "retire.js").read_bytes()
    for page in out.glob("*.html"):
        html = page.read_text()
        assert "offline.js" not in html and "data-offline" not in html, page.name
        assert "/js/offline-off.js" in html, page.name
