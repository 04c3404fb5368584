"""Search across chapters: a Pagefind index built at build time from the rendered pages.

Pagefind (npm `pagefind`, maintained) indexes static HTML into small binary chunks that its own
script and WebAssembly search in the reader's browser, from the site's files alone: no server and
no third-party host, so search works offline. Only what `theme/js/search.js` loads is kept (the
search script, its worker, the English WebAssembly and the index), not Pagefind's UI bundles.
"""
from __future__ import annotations

import base64
import contextlib
import json
import os
import subprocess
from pathlib import Path

from .errors import BuildError
from .math_text import linear_math

SCRIPT = Path(__file__).with_name("search_index.mjs")
PREFIX = "pagefind/"
UNUSED = ("pagefind-ui", "pagefind-modular-ui", "pagefind-component-ui", "pagefind-highlight", "playground/")


BACKGROUND_NICENESS = 10  # `serve` makes the index after its answer: the next save's build goes first


def search_index(pages: dict[str, bytes], node_modules: Path, background: bool = False) -> dict[str, bytes]:
    """dist-relative path -> bytes of the Pagefind bundle indexing `pages` (url -> HTML). Pages
    mark what is indexed with data-pagefind-body; pages without it are left out. Formulas are
    indexed as lines of text (builder/math_text.py), so excerpts read `QKᵀ/√dₖ`, not `QK⊤dk`.
    With `background`, Pagefind runs at a lower priority than the build."""
    library = node_modules / "pagefind" / "lib" / "index.js"
    if not library.is_file():
        raise BuildError(library, None, "pagefind is missing (the search index is built with it): run 'npm ci'")
    payload = json.dumps([{"url": url, "content": linear_math(html.decode())} for url, html in sorted(pages.items())])
    try:
        with subprocess.Popen(["node", str(SCRIPT), str(library)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) as proc:
            if background and hasattr(os, "setpriority"):
                with contextlib.suppress(OSError):  # it may have ended already
                    os.setpriority(os.PRIO_PROCESS, proc.pid, BACKGROUND_NICENESS)
            try:
                stdout, stderr = proc.communicate(payload, timeout=300)
            except subprocess.TimeoutExpired:
                proc.kill()
                raise
        result = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise BuildError(SCRIPT, None, f"could not run Pagefind with node: {err}") from None
    try:
        out = json.loads(result.stdout) if result.returncode == 0 else None
    except ValueError:
        out = None
    if out is None:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1][:200]
        raise BuildError(SCRIPT, None, f"Pagefind failed (exit {result.returncode}): {last}")
    if out["errors"]:
        raise BuildError(SCRIPT, None, f"Pagefind: {str(out['errors'][0])[:200]}")
    return {PREFIX + f["path"]: base64.b64decode(f["base64"]) for f in out["files"]
            if not f["path"].startswith(UNUSED) and not f["path"].startswith("wasm.unknown")}
