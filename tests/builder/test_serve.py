"""`build.py serve`: serves the build, rebuilds on a chapter edit, and tells open pages to reload."""
import queue
import re
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from tests.conftest import ROOT


@pytest.fixture
def server(content, tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-u", str(ROOT / "build.py"), "serve", "--port", "0",
         "--content", str(content), "--out", str(tmp_path / "dist")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    try:
        seen = wait_for(lines, r"at (http://127\.0\.0\.1:\d+/)", 60)
        yield lines, re.search(r"at (http://127\.0\.0\.1:\d+/)", seen).group(1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def wait_for(lines, pattern, seconds, poke=None):
    """Read serve's output until a line matches; `poke()` re-touches the input every 2 s, since an
    edit made before the file watcher has started is (rightly) not seen."""
    deadline, said = time.time() + seconds, []
    while time.time() < deadline:
        try:
            said.append(lines.get(timeout=2))
        except queue.Empty:
            if poke:
                poke()
            continue
        if re.search(pattern, said[-1]):
            return said[-1]
    raise AssertionError(f"no line matching {pattern!r} in {seconds} s; serve said: {''.join(said)}")


def test_serves_rebuilds_and_reloads(server, content):
    lines, url = server
    page = url + "04-scores-to-weights.html"
    with urllib.request.urlopen(page) as r:
        html = r.read().decode()
    assert "From scores to weights" in html and "assets/js/livereload.js" in html
    with urllib.request.urlopen(url + "pyodide/pyodide.asm.wasm") as r:
        assert r.headers["Content-Type"] == "application/wasm"
    events = urllib.request.urlopen(url + "__reload", timeout=30)
    assert events.readline().startswith(b"retry:")
    events.readline()
    chapter = content / "04-scores-to-weights.md"
    text = chapter.read_text().replace("# From scores to weights", "# From scores to weights, edited", 1)
    chapter.write_text(text)
    wait_for(lines, r"^built .* in [\d.]+ s", 30, poke=lambda: chapter.write_text(text))
    line = b""
    while line.strip() in (b"", b": ping"):
        line = events.readline()
    assert line.strip() == b"data: reload"
    events.close()
    with urllib.request.urlopen(page) as r:
        assert "From scores to weights, edited" in r.read().decode()


def test_a_broken_edit_keeps_serving_the_last_good_build(server, content):
    lines, url = server
    chapter = content / "04-scores-to-weights.md"
    text = chapter.read_text() + "\n/// figure | nope\n///\n"
    chapter.write_text(text)
    wait_for(lines, r"04-scores-to-weights\.md:\d+: unknown figure 'nope'", 30, poke=lambda: chapter.write_text(text))
    with urllib.request.urlopen(url + "04-scores-to-weights.html") as r:
        assert r.status == 200
