"""Search across chapters: a Pagefind index built at build time from the rendered pages.

Pagefind (npm `pagefind`, maintained) indexes static HTML into small binary chunks that its own
script and WebAssembly search in the reader's browser, from the site's files alone: no server and
no third-party host, so search works offline. Only what `theme/js/search.js` loads is kept (the
search script, its worker, the English WebAssembly and the index), not Pagefind's UI bundles.
"""
from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path

from .errors import BuildError
from .math_text import linear_math

SCRIPT = Path(__file__).with_name("search_index.mjs")
PREFIX = "pagefind/"
UNUSED = ("pagefind-ui", "pagefind-modular-ui", "pagefind-component-ui", "pagefind-highlight", "playground/")


def search_index(pages: dict[str, bytes], node_modules: Path) -> dict[str, bytes]:
    """dist-relative path -> bytes of the Pagefind bundle indexing `pages` (url -> HTML). Pages
    mark what is indexed with data-pagefind-body; pages without it are left out. Formulas are
    indexed as lines of text (builder/math_text.py), so excerpts read `QKᵀ/√dₖ`, not `QK⊤dk`."""
    library = node_modules / "pagefind" / "lib" / "index.js"
    if not library.is_file():
        raise BuildError(library, None, "pagefind is missing (the search index is built with it): run 'npm ci'")
    payload = json.dumps([{"url": url, "content": linear_math(html.decode())} for url, html in sorted(pages.items())])
    try:
        result = subprocess.run(["node", str(SCRIPT), str(library)], input=payload, capture_output=True,
                                text=True, timeout=300)
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
