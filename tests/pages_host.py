"""A stand-in for GitHub Pages: sites served under sub-paths of one origin (user.github.io/a/, /b/),
every file with `Cache-Control: max-age=600` and no header of ours, and a deploy that swaps a
site's folder whole between two requests, as Pages does."""
from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

from builder.serve import _Handler

MAX_AGE = "max-age=600"  # what Pages sends for every file, with no way to change it


class _PagesHandler(_Handler):
    host: "PagesHost" = None

    def translate_path(self, path):
        """/<site>/<file>: the file in the folder that site is deployed from now."""
        site, _, rest = path.lstrip("/").partition("/")
        self.directory = str(self.host.sites.get(site, self.host.nowhere))
        return super().translate_path("/" + rest)

    def end_headers(self):
        self.send_header("Cache-Control", MAX_AGE)
        super().end_headers()

    def send_head(self):
        """The file, even when asked only if modified: Pages answers that by the file's content (its
        ETag), but http.server by its time to the second, which two quick builds share, so it would
        answer 304 Not Modified for a changed sw.js and the browser would keep the old worker."""
        del self.headers["If-Modified-Since"]
        return super().send_head()


class PagesHost:
    """host = PagesHost(tmp); host.deploy("a", folder) -> the site's base URL; later deploys swap it."""

    def __init__(self, scratch: Path):
        self.sites: dict[str, Path] = {}
        self.nowhere = scratch / "nowhere"  # what an unknown site's files resolve to: nothing
        handler = functools.partial(type("Handler", (_PagesHandler,), {"host": self}), directory=str(scratch))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def deploy(self, site: str, folder: Path) -> str:
        self.sites[site] = folder
        return f"http://127.0.0.1:{self.server.server_address[1]}/{site}/"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
