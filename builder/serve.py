"""`build.py serve`: build, serve dist/ on 127.0.0.1, rebuild on change, reload open pages.

Content and theme changes rebuild in this process with the figure cache kept warm; a change
to engine/ or builder/ re-executes the process, since Python code cannot be reloaded safely.
"""
from __future__ import annotations

import functools
import http.server
import os
import sys
import threading
import time
from pathlib import Path

from .build import Paths, build
from .errors import BuildError
from .figures import FigureCache


class _Reloader:
    """A build counter that /__reload clients wait on (server-sent events)."""

    def __init__(self):
        self.version = 0
        self.cond = threading.Condition()

    def bump(self):
        with self.cond:
            self.version += 1
            self.cond.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        with self.cond:
            self.cond.wait_for(lambda: self.version != seen, timeout=timeout)
            return self.version


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
                      ".whl": "application/zip", ".json": "application/json", ".svg": "image/svg+xml"}
    reloader: _Reloader = None

    def log_message(self, fmt, *args):  # quiet: the console is for build messages
        pass

    def do_GET(self):
        if self.path != "/__reload":
            return super().do_GET()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        seen = self.reloader.version
        try:
            self.wfile.write(b"retry: 500\n\n")
            self.wfile.flush()
            while True:
                now = self.reloader.wait(seen, timeout=15)
                self.wfile.write(b"data: reload\n\n" if now != seen else b": ping\n\n")
                self.wfile.flush()
                seen = now
        except (BrokenPipeError, ConnectionResetError):
            return


def _rebuild(paths, out, pyodide_dist, cache) -> bool:
    t0 = time.perf_counter()
    try:
        build(paths, out, pyodide_dist, cache, live_reload=True)
    except BuildError as err:
        print(err, file=sys.stderr, flush=True)
        return False
    print(f"built {out} in {time.perf_counter() - t0:.2f} s", flush=True)
    return True


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A page closed mid-download resets its connection: expected, not worth a traceback.
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


def static_server(folder: Path, port: int = 0, reloader: _Reloader | None = None) -> http.server.ThreadingHTTPServer:
    """Serve `folder` on 127.0.0.1 from a daemon thread, with the MIME types Pyodide needs."""
    handler = functools.partial(type("Handler", (_Handler,), {"reloader": reloader or _Reloader()}),
                                directory=str(folder))
    server = _Server(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def serve(paths: Paths, out: Path, port: int, pyodide_dist: Path | None) -> int:
    import watchfiles  # build-time only; imported here so `build.py build` never needs it

    cache = FigureCache()
    _rebuild(paths, out, pyodide_dist, cache)
    reloader = _Reloader()
    server = static_server(out, port, reloader)
    print(f"serving {out} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C stops)", flush=True)
    code_dirs = (paths.engine.resolve(), (paths.root / "builder").resolve())
    try:
        for changes in watchfiles.watch(paths.content, paths.theme, *code_dirs, debounce=200):
            changed = [Path(p).resolve() for _, p in changes]
            if any(d in p.parents for p in changed for d in code_dirs):
                print("engine or builder changed: restarting", flush=True)
                server.server_close()
                os.execv(sys.executable, [sys.executable, *sys.argv])
            if _rebuild(paths, out, pyodide_dist, cache):
                reloader.bump()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
    return 0
