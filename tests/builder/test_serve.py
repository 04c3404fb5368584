"""`build.py serve`: serves the build, rebuilds on change and tells open pages to reload; shows
every failure (bad content, a crashing builder, code that does not import) and keeps serving;
answers malformed requests without a traceback; drops idle connections but keeps event streams."""
import json
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import builder.serve
from builder.build import Paths, build
from builder.cache import BuildCache
from builder.serve import static_server
from tests.builder.helpers import one_chapter_site
from tests.conftest import ROOT
from tests.site_layout import theme_folder

CHAPTER = "04-scores-to-weights.html"


def _start(command: list[str], content: Path, out: Path):
    """`build.py serve` in a real process (restarting is an exec), reading the figures this run
    computed from its store (which the environment names): the tests are about serving."""
    proc = subprocess.Popen(
        [*command, "serve", "--port", "0", "--content", str(content), "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    return proc, lines


def _first_build(lines) -> str:
    """The server's address, once it has said it and finished its first build."""
    url = re.search(r"at (http://127\.0\.0\.1:\d+/)", wait_for(lines, r"at http://127\.0\.0\.1:\d+/", 60)).group(1)
    wait_for(lines, r"^built ", 120)
    return url


def _stop(proc) -> None:
    proc.terminate()
    proc.wait(timeout=10)


# A series of one chapter, named as the series' chapter 4 and holding two of its figures: for tests
# about code breaking and mending, where building all the chapters at every start of the server
# would add seconds and test nothing more (`served` serves the whole series).
SMALL = """# From scores to weights

Softmax turns scores into weights.

/// figure | softmax-temperature

Softmax at a chosen temperature.
///

/// figure | softmax-bars

Scores and the weights they become.
///
"""


@pytest.fixture
def small_content(tmp_path) -> Path:
    return one_chapter_site(tmp_path / "content", SMALL, name="04-scores-to-weights.md")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`serve` on a copy of the whole series, started once for the module's tests of prose edits, as
    one author's session goes on: (its output's lines, its address, the content folder it watches)."""
    folder = tmp_path_factory.mktemp("served")
    content = shutil.copytree(ROOT / "content", folder / "content")
    proc, lines = _start([sys.executable, "-u", str(ROOT / "build.py")], content, folder / "dist")
    try:
        yield lines, _first_build(lines), content
    finally:
        _stop(proc)


def wait_for(lines, pattern, seconds):
    """Read serve's output until a line matches. An edit is saved once: serve's watcher is up before
    its first build and across a restart (builder/serve.py `_watch`, `_saved_since`), so a save is
    never missed, and saving again while a loaded machine builds would make a build more than the
    test counts."""
    deadline, said = time.time() + seconds, []
    while time.time() < deadline:
        try:
            said.append(lines.get(timeout=max(0.1, deadline - time.time())))
        except queue.Empty:
            continue
        if re.search(pattern, said[-1]):
            return said[-1]
    raise AssertionError(f"no line matching {pattern!r} in {seconds} s; serve said: {''.join(said)}")


class Events:
    """The /__reload stream as a page sees it: build states, and pings between them."""

    def __init__(self, url: str):
        self.stream = urllib.request.urlopen(url + "__reload", timeout=30)
        assert self.stream.readline().startswith(b"retry:")

    def next_state(self, seconds: float = 60, want=lambda state: True) -> dict:
        deadline = time.time() + seconds
        while time.time() < deadline:
            line = self.stream.readline()
            assert line, "the event stream ended"
            if line.startswith(b"data: "):
                state = json.loads(line[6:])
                if want(state):
                    return state
        raise AssertionError(f"no wanted state in {seconds} s")

    def close(self):
        self.stream.close()


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, ""


# --- rebuilds and reloads --------------------------------------------------------------------

def test_serves_rebuilds_and_reloads(served):
    lines, url, content = served
    status, html = _get(url + CHAPTER)
    assert status == 200 and "From scores to weights" in html and re.search(r"assets/[0-9a-f]{12}/js/livereload.js", html)
    with urllib.request.urlopen(url + json.loads(_get(url + "runtime.json")[1])["indexURL"] + "pyodide.asm.wasm") as r:
        assert r.headers["Content-Type"] == "application/wasm"
    events = Events(url)
    first = events.next_state()
    assert first["error"] is None and first["build"] >= 1 and first["views"] == first["build"], first
    chapter = content / "04-scores-to-weights.md"
    text = chapter.read_text().replace("# From scores to weights", "# From scores to weights, edited", 1)
    chapter.write_text(text)
    wait_for(lines, r"^built .* in [\d.]+ s", 30)
    after = events.next_state(want=lambda s: s["build"] > first["build"])
    assert after["session"] == first["session"] and after["error"] is None, after
    events.close()
    assert "From scores to weights, edited" in _get(url + CHAPTER)[1]


def test_a_broken_edit_shows_its_error_and_the_next_good_save_recovers(served):
    lines, url, content = served
    events = Events(url)
    first = events.next_state()
    chapter = content / "04-scores-to-weights.md"
    good = chapter.read_text()
    bad = good + "\n/// figure | nope\n///\n"
    chapter.write_text(bad)
    wait_for(lines, r"04-scores-to-weights\.md:\d+: unknown figure 'nope'", 30)
    failed = events.next_state(want=lambda s: s["error"] is not None)
    assert re.search(r"04-scores-to-weights\.md:\d+: unknown figure 'nope'", failed["error"]), failed
    assert _get(url + CHAPTER)[0] == 200  # the last good build is still served
    chapter.write_text(good)
    wait_for(lines, r"^built ", 30)
    recovered = events.next_state(want=lambda s: s["error"] is None)
    assert recovered["build"] > first["build"], recovered
    events.close()


@pytest.fixture
def repo_copy(tmp_path):
    """A copy of the code (build.py, builder/, engine/, theme/) that a test may break."""
    repo = tmp_path / "repo"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("builder", "engine", "theme"):
        shutil.copytree(ROOT / name, repo / name, ignore=ignore)
    shutil.copy(ROOT / "build.py", repo / "build.py")
    (repo / "node_modules").symlink_to(ROOT / "node_modules")
    (repo / ".venv-pyodide").symlink_to(ROOT / ".venv-pyodide")  # pyodide-build's lockfile tool
    return repo


def test_code_that_fails_to_import_or_crashes_never_stops_the_server(repo_copy, small_content, tmp_path):
    """A builder change that does not import is shown and the server stays; one that imports
    but crashes the build restarts the server, whose build error is shown; the fix reloads."""
    proc, lines = _start([sys.executable, "-u", str(repo_copy / "build.py")], small_content, tmp_path / "dist")
    try:
        url = _first_build(lines)
        events = Events(url)
        first = events.next_state()
        links = repo_copy / "builder" / "links.py"
        good = links.read_text()

        broken = good + "\ndef broken(:\n"
        links.write_text(broken)
        shown = wait_for(lines, r"links\.py:\d+: SyntaxError", 30)
        line = len(good.splitlines()) + 2
        assert f"links.py:{line}: SyntaxError" in shown, shown
        state = events.next_state(want=lambda s: s["error"] is not None)
        assert f"links.py:{line}: SyntaxError" in state["error"] and state["session"] == first["session"], state
        assert proc.poll() is None and _get(url + CHAPTER)[0] == 200

        crashing = good.replace("def check_links(", "def check_links(*args, **kwargs):\n    raise RuntimeError('boom')\n\n\ndef _unused(", 1)
        assert crashing != good
        links.write_text(crashing)
        wait_for(lines, r"restarting", 30)
        shown = wait_for(lines, r"links\.py:\d+: RuntimeError: boom", 120)
        assert proc.poll() is None and _get(url + CHAPTER)[0] == 200  # same port, last good build
        events = Events(url)
        state = events.next_state()
        assert state["session"] != first["session"] and "RuntimeError: boom" in state["error"], state

        links.write_text(good)
        wait_for(lines, r"restarting", 30)
        wait_for(lines, r"^built ", 120)
        events = Events(url)
        state = events.next_state()
        assert state["error"] is None and state["build"] >= 1 and state["session"] != first["session"], state
        events.close()
    finally:
        _stop(proc)


# --- dev-only files --------------------------------------------------------------------------

def test_only_serve_builds_carry_the_live_reload_script(small_content, tmp_path):
    paths = Paths.at(ROOT, small_content)
    for live_reload in (False, True):
        out = tmp_path / f"dist-{live_reload}"
        build(paths, out, live_reload=live_reload)
        pages = [p.read_text() for p in out.glob("*.html")]
        assert pages
        assert (theme_folder(out) / "js" / "livereload.js").is_file() == live_reload
        assert all(("livereload.js" in html) == live_reload for html in pages)
        # sw.js is written for real builds only; a served page does not ask for it (no 404 per page)
        assert (out / "sw.js").is_file() == any("offline.js" in html for html in pages) == (not live_reload)


def test_serve_writes_its_own_folder_not_the_real_build(monkeypatch):
    import build as cli

    served = []
    monkeypatch.setattr(builder.serve, "serve", lambda paths, out, port, dist, store=None: served.append((out, port)) or 0)
    assert cli.main(["serve", "--port", "8123"]) == 0
    assert served == [(ROOT / ".cache" / "serve", 8123)]


@pytest.mark.parametrize("breaks", [False, True], ids=["built", "failed"])
def test_a_build_is_in_the_pages_state_before_serve_says_so(breaks, small_content, tmp_path, shared_figure_cache, capsys):
    """Whoever reads serve's line for a build, "built" or its error, (an author, a test, a script)
    and then asks the state open pages follow finds that build in it: the state changes first."""
    if breaks:
        chapter = small_content / "04-scores-to-weights.md"
        chapter.write_text(chapter.read_text() + "\n/// figure | nope\n///\n")
    said_before = []

    class Reloader(builder.serve._Reloader):
        def _change(self, error, built):
            said_before.append(capsys.readouterr())
            super()._change(error, built)

    reloader = Reloader()
    ok = builder.serve._rebuild(Paths.at(ROOT, small_content), tmp_path / "dist", None, BuildCache(shared_figure_cache),
                                reloader)
    said_after = capsys.readouterr()
    assert ok is not breaks and len(said_before) == 1
    assert (reloader.builds, reloader.error is not None) == ((0, True) if breaks else (1, False))
    assert said_before[0].out == said_before[0].err == ""
    line = said_after.err if breaks else said_after.out
    assert line.startswith(reloader.error.rstrip("…") if breaks else "built "), said_after  # the state's is clipped


def test_the_message_over_the_page_lists_every_figure_and_cuts_nothing_mid_word():
    from engine.figures import FIGURES

    known = f"content/01.md:3: unknown figure 'zzz' (known: {', '.join(FIGURES)})"
    assert builder.serve._clip(known) == known
    text = known + " and then" * 100
    long = builder.serve._clip(text)
    assert long.endswith("…") and len(long) <= builder.serve.MESSAGE_LIMIT
    assert text.startswith(long[:-1]) and text[len(long) - 1] == " "  # cut where a word ends


# --- the HTTP server itself ------------------------------------------------------------------

@pytest.fixture
def folder(tmp_path):
    (tmp_path / "index.html").write_text("home")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "page.html").write_text("page")
    return tmp_path


def _raw(port: int, request: bytes, timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
        return data


MALFORMED = [
    b"GARBAGE\r\n\r\n",
    b"GET\r\n\r\n",
    b"GET / HTTP/9.9\r\n\r\n",
    b"GET / HTTP/1.0 extra words\r\n\r\n",
    b"\x00\xff\xfe binary\r\n\r\n",
    b"GET /%zz HTTP/1.0\r\n\r\n",
    b"GET /%00 HTTP/1.0\r\n\r\n",
    b"GET /index.html%00.txt HTTP/1.0\r\n\r\n",
    b"GET /a\x00b HTTP/1.0\r\n\r\n",
    b"GET /%ed%a0%80 HTTP/1.0\r\n\r\n",
    b"GET /%ff%fe HTTP/1.0\r\n\r\n",
    b"GET /../../../etc/passwd HTTP/1.0\r\n\r\n",
    b"GET /" + b"a" * 5000 + b" HTTP/1.0\r\n\r\n",
    b"GET /" + b"a/" * 40000 + b" HTTP/1.0\r\n\r\n",
    b"GET / HTTP/1.0\r\n" + b"X: " + b"y" * 70000 + b"\r\n\r\n",
    b"GET / HTTP/1.0\r\n" + b"X: y\r\n" * 200 + b"\r\n",
]


def test_malformed_requests_get_an_error_status_and_no_traceback(folder, capfd):
    server = static_server(folder)
    port = server.server_address[1]
    try:
        for request in MALFORMED:
            answer = _raw(port, request)
            # A request line of under three words is HTTP/0.9, answered with the error page only.
            assert re.match(rb"HTTP/1\.[01] [45]\d\d ", answer) or re.search(rb"Error code: [45]\d\d", answer), \
                (request[:60], answer[:200])
            assert b"a" * 100 not in answer, "the error page echoes the whole request"
        assert _raw(port, b"GET / HTTP/1.0\r\n\r\n").endswith(b"home")  # still serving
    finally:
        server.shutdown()
        server.server_close()
    err = capfd.readouterr().err
    assert "Traceback" not in err, err


def test_a_folder_without_index_is_not_listed(folder):
    server = static_server(folder)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        assert _get(url + "sub/") == (404, "")
        assert _get(url + "sub") == (404, "")  # redirected to sub/, then not found
        assert _get(url + "sub/page.html") == (200, "page")
        assert _get(url) == (200, "home")
    finally:
        server.shutdown()
        server.server_close()


def test_idle_connections_time_out_but_the_event_stream_stays(folder, monkeypatch):
    monkeypatch.setattr(builder.serve, "PING", 0.2)
    server = static_server(folder, idle_timeout=0.5)
    port = server.server_address[1]
    try:
        for request in (b"", b"GET / HTT"):  # silent, and stalled half way through the request line
            t0 = time.monotonic()
            assert _raw(port, request, timeout=10) == b""  # closed without an answer
            assert time.monotonic() - t0 < 5, "an idle connection was kept"
        events = Events(f"http://127.0.0.1:{port}/")
        events.next_state()
        t0, pings = time.monotonic(), 0
        while time.monotonic() - t0 < 2:  # four times the idle timeout
            pings += events.stream.readline().startswith(b": ping")
        assert pings >= 3, pings
        events.close()
    finally:
        server.shutdown()
        server.server_close()


def test_a_fix_saved_while_the_server_restarts_is_built(repo_copy, small_content, tmp_path):
    """Builder code that imports but breaks every build restarts the server; its fix, saved the
    moment the restarted process is up (while it builds), is seen: no later save is needed."""
    proc, lines = _start([sys.executable, "-u", str(repo_copy / "build.py")], small_content, tmp_path / "dist")
    try:
        url = _first_build(lines)
        links = repo_copy / "builder" / "links.py"
        good = links.read_text()
        broken = good.replace("def check_links(", "def check_links(*args, **kwargs):\n    raise RuntimeError('boom')\n\n\ndef _unused(", 1)
        assert broken != good
        links.write_text(broken)
        saved = time.time()
        wait_for(lines, r"restarting", 30)
        wait_for(lines, r"at http://127\.0\.0\.1:\d+/", 60)  # the new process has imported the broken code
        links.write_text(good)  # and builds with it now: this save must be seen
        between = time.time() - saved
        wait_for(lines, r"restarting", 60)
        wait_for(lines, r"^built ", 120)
        state = Events(url).next_state(want=lambda s: s["build"] >= 1 or s["error"] is not None)
        assert state["error"] is None, (state, between)
    finally:
        _stop(proc)


def test_a_model_edit_recomputes_its_own_figures_in_the_same_process(repo_copy, small_content, tmp_path):
    """Saving a figure's model reloads it in the running server (the same session: open pages keep
    their place) and drops only that model's figures; an exception in it reaches the page as one
    `path:line` message; the fix builds again, with the model's new output in the page. The print
    edition and the search index follow the pages, and the pages' state says when (`views`)."""
    proc, lines = _start([sys.executable, "-u", str(repo_copy / "build.py")], small_content, tmp_path / "dist")
    try:
        url = _first_build(lines)
        events = Events(url)
        first = events.next_state()
        built_first = _build_of(_get(url + CHAPTER)[1])
        model = repo_copy / "engine" / "figures" / "softmax_temperature.py"
        good = model.read_text()
        broken = good.replace("def compute(p: Params) -> dict:\n", "def compute(p: Params) -> dict:\n    {}['oops']\n", 1)
        assert broken != good
        model.write_text(broken)
        said = wait_for(lines, r"^reloaded ", 30)
        # the model alone, and its figures alone: chapter 4's one use (its expressions read the same)
        assert said.strip() == "reloaded engine.figures.softmax_temperature: 1 figure(s) to compute again", said
        line = broken.splitlines().index("    {}['oops']") + 1
        shown = wait_for(lines, rf"softmax_temperature\.py:{line}: KeyError", 120)
        assert shown.startswith("content/04-scores-to-weights.md:") or "04-scores-to-weights.md:" in shown, shown
        state = events.next_state(want=lambda s: s["error"] is not None)
        assert f"softmax_temperature.py:{line}: KeyError: 'oops'" in state["error"] and "\n" not in state["error"], state
        assert state["session"] == first["session"], state  # no restart

        edited = good.replace("steps: int = field(50,", "steps: int = field(40,", 1)
        assert edited != good
        model.write_text(edited)
        wait_for(lines, r"^reloaded engine\.figures\.softmax_temperature:", 30)
        wait_for(lines, r"^built ", 120)
        state = events.next_state(want=lambda s: s["error"] is None)
        assert state["session"] == first["session"] and state["build"] > first["build"], state
        page = _get(url + CHAPTER)[1]
        assert re.search(r'"figure":"softmax-temperature","params":\{[^}]*"steps":40', page)
        views = events.next_state(want=lambda s: s["views"] >= state["build"])
        assert views["build"] == state["build"] and views["error"] is None, views
        assert _build_of(_get(url + "print.html")[1]) == _build_of(page) != built_first  # the print edition is of it
        events.close()
        assert all("restarting" not in x for x in list(lines.queue))
    finally:
        _stop(proc)


def _build_of(page: str) -> str:
    """Which build a page is of (theme/templates/base.html)."""
    return re.search(r'<meta name="attention-build" content="([^"]+)">', page).group(1)


def test_a_busy_port_is_one_line_naming_the_option(tmp_path, capsys):
    from builder.serve import serve

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert serve(Paths.at(ROOT), tmp_path / "dist", port, None) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"127.0.0.1:{port}" in err[0] and "--port" in err[0], err
    assert not (tmp_path / "dist").exists()
