"""`build.py serve`: build, serve dist/ on 127.0.0.1, rebuild on change, reload open pages.

Content and theme changes rebuild in this process with the build cache kept warm. Open pages
reload once the pages are written; the print edition and the search index follow (_Finisher).
A change to a figure model, or to engine code only models import, reloads that code here
(builder/reload.py) and recomputes only the figures of the models it touched. Any other change to
engine/ or builder/ re-executes the process (the builder's own code cannot be reloaded safely), but
only once the new code imports. Nothing a build does stops the server: a failed build, a crashing
builder or code that does not import shows its `path:line: message` over the open pages (through
/__reload) while the last good build stays served, and the next good save reloads them.
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import re
import secrets
import subprocess
import sys
import threading
import time
from dataclasses import replace
from http import HTTPStatus
from pathlib import Path


from . import reload
from .build import Paths, finish_site, gather_pages, load_runtime, write
from .errors import BuildError, clip, describe, display_path
from .cache import BuildCache
from .figures import FigureCache

IDLE_TIMEOUT = 30.0  # seconds a connection may stay silent before the server drops it
PING = 15.0  # seconds between keep-alive comments on the /__reload stream
# Characters of an error message shown: every figure's name, the longest list a message gives,
# fits whole; a longer message (an exception quoting input) is cut at a space.
MESSAGE_LIMIT = 800


def _clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return clip(text, limit, words=True)


class _Reloader:
    """The build state open pages follow on /__reload: this process, its good builds, the last error."""

    def __init__(self):
        self.session = secrets.token_hex(8)  # a restarted server is a new session: pages reload
        self.builds = 0
        self.views = 0  # the build whose print edition and search index are served (_Finisher)
        self.error: str | None = None
        self.version = 0
        self.cond = threading.Condition()

    def _change(self, error: str | None, built: bool) -> None:
        with self.cond:
            self.builds += built
            self.error = error
            self.version += 1
            self.cond.notify_all()

    def built(self, finished: bool = True) -> None:
        """A good build is written; `finished` when its print edition and search index are in it too."""
        with self.cond:  # reentrant: the views and the build change in one step
            self.views = self.builds + 1 if finished else self.views
            self._change(None, True)

    def finished(self, build: int) -> None:
        """Build number `build`'s print edition and search index are written beside its pages."""
        with self.cond:
            self.views = max(self.views, build)  # a slower finishing of an older build says nothing new
            self._change(self.error, False)

    def failed(self, message: str) -> None:
        self._change(_clip(message), False)

    def event(self) -> tuple[int, bytes]:
        """The current version and its server-sent event."""
        with self.cond:
            data = json.dumps({"session": self.session, "build": self.builds, "views": self.views, "error": self.error})
            return self.version, f"event: state\ndata: {data}\n\n".encode()

    def wait(self, seen: int, timeout: float) -> int:
        with self.cond:
            self.cond.wait_for(lambda: self.version != seen, timeout=timeout)
            return self.version


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
                      ".whl": "application/zip", ".json": "application/json", ".svg": "image/svg+xml"}
    reloader: _Reloader = None
    timeout = IDLE_TIMEOUT  # socket timeout: an idle or stalled connection ends instead of holding a thread

    def log_message(self, fmt, *args):  # quiet: the console is for build messages
        pass

    def send_error(self, code, message=None, explain=None):
        # http.server quotes parts of a malformed request in its messages: keep them short.
        super().send_error(code, _clip(message, 60) if message else None, explain)

    def list_directory(self, path):
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")  # a folder without index.html
        return None

    def send_head(self):
        try:
            return super().send_head()
        except (ValueError, UnicodeError):  # a NUL byte or an undecodable %-escape: no such file
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None

    def do_GET(self):
        if self.path != "/__reload":
            return super().do_GET()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        try:
            self.wfile.write(b"retry: 500\n\n")
            seen = None
            while True:
                version, event = self.reloader.event()
                self.wfile.write(event if version != seen else b": ping\n\n")
                self.wfile.flush()
                seen = version
                self.reloader.wait(seen, timeout=PING)
        except OSError:  # the page went away (reset, broken pipe, timeout)
            return


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # One line, never a traceback: a page closed mid-download is expected, anything else is
        # worth a note but must not stop the server.
        err = sys.exc_info()[1]
        if not isinstance(err, (ConnectionError, TimeoutError)):
            print(_clip(f"serve: request from {client_address[0]} failed: {type(err).__name__}: {err}"),
                  file=sys.stderr, flush=True)


def static_server(folder: Path, port: int = 0, reloader: _Reloader | None = None,
                  idle_timeout: float = IDLE_TIMEOUT) -> http.server.ThreadingHTTPServer:
    """Serve `folder` on 127.0.0.1 from a daemon thread, with the MIME types Pyodide needs."""
    attrs = {"reloader": reloader or _Reloader(), "timeout": idle_timeout}
    handler = functools.partial(type("Handler", (_Handler,), attrs), directory=str(folder))
    server = _Server(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# --- building and restarting ---------------------------------------------------------------

class _Finisher:
    """Writes each good build once its pages are made (gather_pages), so that open pages reload
    then; its print edition and search index (finish_site: Pagefind alone takes seconds) are made
    after, on a thread, and the output is swapped again with them (whole, as every write is).

    Until then the output carries the last finished print edition and index, so for those seconds
    a search finds the pages as they were one save ago. We chose that over a search page with no
    index (an error for those seconds) and over waiting for it (every save answered seconds
    later, though the page being edited never reads the index). It is not silent: the pages'
    state says which build's views are served (`views`), and a page showing either one reloads
    when they are current (theme/js/livereload.js). A newer build makes an older one's views moot:
    they are written only while the output still holds their own build's pages."""

    def __init__(self, paths: Paths, out: Path, reloader: _Reloader):
        self.paths, self.out, self.reloader = paths, out, reloader
        self.lock = threading.Lock()  # one writer of the output at a time: a build, its finishing, a restart
        self.views: dict[str, bytes] | None = None  # the last finished print edition and search index
        self.written = 0  # how many builds this server has written: which one the output holds

    def write(self, site) -> bool:
        """The build's pages, with the last finished views; False when it had none to carry (the
        first build), so its own were made first and it is written whole."""
        with self.lock:
            if self.views is None:
                views = _finished(site)
                write(site, self.out, self.paths)
                self.views = views
                self.written += 1
                return False
            write(replace(site, files={**self.views, **site.files}), self.out, self.paths)
            self.written += 1
            return True

    def finish(self, site) -> threading.Thread:
        """Make the build just written's print edition and search index, and write them with its pages."""
        number, build = self.written, self.reloader.builds

        def run():
            try:
                views = _finished(site)
                with self.lock:
                    if self.written != number:  # a newer build is in: its own finishing follows
                        return
                    write(site, self.out, self.paths)
                    self.views = views
            except BuildError as err:
                message = str(err)
            except Exception as err:  # a bug in the builder: say where, keep serving
                message = _clip(describe(err, self.paths.root.resolve()))
            else:
                self.reloader.finished(build)
                return
            if self.written == number:
                _show_failure(self.reloader, message)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread


def _finished(site) -> dict[str, bytes]:
    """finish_site(site), and the files it added: the print edition and the search index."""
    pages = set(site.files)
    finish_site(site)
    return {rel: data for rel, data in site.files.items() if rel not in pages}


def _rebuild(paths: Paths, out: Path, pyodide_dist, cache: BuildCache, reloader: _Reloader,
             finisher: _Finisher | None = None) -> bool:
    t0 = time.perf_counter()
    finisher = finisher or _Finisher(paths, out, reloader)
    try:
        site = gather_pages(paths, load_runtime(paths, pyodide_dist), cache, live_reload=True)
        later = finisher.write(site)
    except BuildError as err:
        message = str(err)
    except Exception as err:  # a bug in the builder or the engine: say where, keep serving
        message = _clip(describe(err, paths.root.resolve()))
    else:
        first = reloader.builds == 0
        reloader.built(finished=not later)  # before saying so: whoever reads "built" finds the pages' state says it too
        print(f"built {out} in {time.perf_counter() - t0:.2f} s", flush=True)
        for note in site.notes if first else ():  # once per process, not per save
            print(note, flush=True)
        if later:
            finisher.finish(site)
        return True
    _show_failure(reloader, message)
    return False


def _show_failure(reloader: _Reloader, message: str) -> None:
    """Into the pages' state first, then on the console: whoever reads the line finds it there too."""
    reloader.failed(message)
    print(message, file=sys.stderr, flush=True)


# Imports modules in a fresh interpreter: does the code as saved import at all?
_IMPORT_CHECK = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"


def import_problem(root: Path, changed: list[Path]) -> str | None:
    """None when the entry points and every changed module import; else `path:line: message`."""
    modules = ["builder.build", "builder.serve", "engine.figures"]
    for p in changed:
        if p.suffix == ".py" and p.is_file() and p.is_relative_to(root):
            parts = p.relative_to(root).with_suffix("").parts
            modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    try:
        done = subprocess.run([sys.executable, "-c", _IMPORT_CHECK, *dict.fromkeys(modules)], cwd=root,
                              capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "importing the changed code took over 120 s"
    if done.returncode == 0:
        return None
    # The last frame of Python's traceback outside importlib, and its last line (the exception).
    frames = [m for m in re.finditer(r'^  File "([^"]+)", line (\d+)', done.stderr, re.M)
              if not m.group(1).startswith("<")]
    lines = [ln for ln in done.stderr.strip().splitlines() if ln.strip()]
    where = f"{display_path(Path(frames[-1].group(1)))}:{frames[-1].group(2)}" if frames else "import"
    return _clip(f"{where}: {lines[-1] if lines else 'the changed code does not import'}")


def _restart_argv(port: int) -> list[str]:
    """This process's command line with the port it serves on, so pages reconnect to the same one."""
    args, out, skip = sys.orig_argv[1:], [], False
    for a in args:
        if skip:
            skip = False
        elif a == "--port":
            skip = True
        elif not a.startswith("--port="):
            out.append(a)
    return [sys.executable, *out, "--port", str(port)]


RESTARTED = "ATTN_SERVE_RESTARTED_AT"  # set by a serve that restarts itself: when it saw the change


def _watch(dirs, debounce: int = 200):
    """Changes under `dirs`, as a queue filled by a watcher thread: returned once the watcher has
    started, so that a save made after this returns is never missed, even during a build."""
    import queue
    import watchfiles  # build-time only; imported here so `build.py build` never needs it

    changes, ready, failed = queue.Queue(), threading.Event(), []

    def run():
        try:  # yield_on_timeout: the first (empty) yield says the watcher is up
            for batch in watchfiles.watch(*dirs, debounce=debounce, rust_timeout=200, yield_on_timeout=True):
                ready.set()
                if batch:
                    changes.put(batch)
        except Exception as err:  # e.g. a folder that does not exist: said once, by serve
            failed.append(err)
            ready.set()

    threading.Thread(target=run, daemon=True).start()
    if not ready.wait(30) or failed:
        raise OSError(f"cannot watch {', '.join(map(str, dirs))} for changes: "
                      + (f"{type(failed[0]).__name__}: {failed[0]}" if failed else "the watcher did not start in 30 s"))
    return changes


def _next_changes(changes) -> list[Path]:
    """The next batch of changed paths, merged with any batches already waiting behind it."""
    batch = set(changes.get())
    while not changes.empty():
        batch |= changes.get_nowait()
    return [Path(p).resolve() for _, p in batch]


def _saved_since(dirs, since_ns: int) -> list[Path]:
    """Python files under `dirs` saved after `since_ns`: code a restarting process may have missed
    between seeing a change and its successor's watcher starting."""
    return [p for d in dirs for p in d.rglob("*.py") if ".venv" not in p.parts and p.stat().st_mtime_ns > since_ns]


def serve(paths: Paths, out: Path, port: int, pyodide_dist: Path | None, store=None) -> int:
    """Build, serve, and rebuild on every save until Ctrl+C. With a `store` (builder/figure_store.py),
    figures an earlier build, check or serve computed from the same code and inputs are read from
    it: a clone that has been built serves its first page in seconds."""
    reloader = _Reloader()
    try:
        server = static_server(out, port, reloader)  # up first: the last good build, while this one builds
    except OSError as err:
        print(f"serve: cannot listen on 127.0.0.1:{port} ({err.strerror or err}): another server may be "
              "using it; choose another port with --port N (--port 0 picks a free one)", file=sys.stderr)
        return 1
    port = server.server_address[1]
    print(f"serving {out} at http://127.0.0.1:{port}/ (Ctrl+C stops)", flush=True)
    cache = BuildCache(FigureCache(store))
    # A saved sentence is shown in a second, not after chapter 14's model trains again on the new
    # prose (seconds of CPU): the model made at the first build stays until its code changes.
    cache.figures.drafting = True
    root = paths.root.resolve()
    code_dirs = (paths.engine.resolve(), root / "builder")
    # Watch first, then build: a save during the build (or during this process's restart) is seen.
    changes = _watch((paths.content, paths.theme, *code_dirs))
    restarted_at = os.environ.pop(RESTARTED, None)
    missed = _saved_since(code_dirs, int(restarted_at)) if restarted_at else []
    unloaded: list[Path] = []  # engine files whose reload failed: retried before any build
    finisher = _Finisher(paths, out, reloader)
    rebuild = functools.partial(_rebuild, paths, out, pyodide_dist, cache, reloader, finisher)
    try:
        if not missed:
            rebuild()
        # the imports of every module, read now, beside the first edits, not on the first engine save
        threading.Thread(target=reload.plan, args=(root, []), daemon=True).start()
        while True:
            changed = missed or _next_changes(changes)
            missed = []
            seen_at = time.time_ns() - 20_000_000  # file times may lag the clock by a tick (~4 ms)
            code = list(dict.fromkeys(unloaded + [p for p in changed if any(d in p.parents for d in code_dirs)]))
            order = reload.plan(root, code) if code else None
            if order is not None:
                unloaded = code
                problem = reload.apply(order, root)
                if problem:
                    _show_failure(reloader, problem)
                    continue
                unloaded = []
                dropped = cache.figures.forget(set(order))
                if order:  # none: the saved modules were never imported here (their figures came from the store)
                    print(f"reloaded {', '.join(order)}: {dropped} figure(s) to compute again", flush=True)
                rebuild()
                continue
            if code:
                problem = import_problem(root, code)
                if problem:
                    _show_failure(reloader, problem)
                    continue
                print("engine or builder changed: restarting", flush=True)
                server.shutdown()
                server.server_close()
                finisher.lock.acquire()  # not in the middle of writing the output; the new process writes it next
                os.execve(sys.executable, _restart_argv(port), {**os.environ, RESTARTED: str(seen_at)})
            rebuild()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
    return 0
