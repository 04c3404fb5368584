#!/usr/bin/env python3
"""Print how fast chapter 14's model writes in Chromium, with the real Pyodide and numpy (a benchmark,
not a test: nothing is asserted): milliseconds per character of a 200-character sample, in a web
worker as the site's figures run, with the key-value cache (engine/gpt.py `generate`) and without it
(`generate_uncached`: a full forward pass over the window before every character, the same
characters); the first sample (numpy's code not yet compiled by the browser) apart from a second;
and the machine's load average before and after.

The model is the chapter's: the one kept in models/, or trained here on the series' prose as the build trains it.
Pyodide and numpy come from ATTN_PYODIDE_DIST (or --dist, or .cache/pyodide-kit); the page and
worker are this benchmark's own, served from a temporary folder beside the kit.

    .venv/bin/python benchmarks/writing_generate_browser.py [--dist DIR] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import chromium  # noqa: E402 (the tests' launch: /usr/bin/chromium, the features no page uses off)

LENGTH = 200  # characters written per sample
PROMPT = "The model "  # the figure's default prompt (engine/figures/writing_sample.py)

PAGE = "<!doctype html><meta charset=utf-8><title>writing benchmark</title><script type=module src=page.mjs></script>"
PAGE_SCRIPT = """
const worker = new Worker("worker.mjs", { type: "module" });
window.result = new Promise((resolve, reject) => {
  worker.onmessage = (e) => resolve(e.data);
  worker.onerror = (e) => reject(new Error(e.message));
});
"""
WORKER = """
const { loadPyodide } = await import("./kit/pyodide.mjs");
const t0 = performance.now();
const pyodide = await loadPyodide({ indexURL: new URL("./kit/", import.meta.url).href });
await pyodide.loadPackage(new URL("./kit/" + WHEEL, import.meta.url).href, { messageCallback: () => {} });
const files = await (await fetch("engine.json")).json();
for (const [path, text] of Object.entries(files)) {
  pyodide.FS.mkdirTree("/home/pyodide/" + path.split("/").slice(0, -1).join("/"));
  pyodide.FS.writeFile("/home/pyodide/" + path, text);
}
pyodide.FS.writeFile("/home/pyodide/model.bin", new Uint8Array(await (await fetch("model.bin")).arrayBuffer()));
const boot = performance.now() - t0;
postMessage({ boot_ms: boot, ...JSON.parse(await pyodide.runPythonAsync(SCRIPT)) });
"""
# Runs in the worker's Python: a first sample, then each way once more, timed on the page's clock.
SCRIPT = """
import json, time
from engine.given import Given
from engine.gpt import generate, generate_uncached
from engine.tasks import writing
with open("/home/pyodide/model.bin", "rb") as f:
    model = writing.shipped(Given({"writing-model": f.read()}))
prompt = model.vocab.encode(PROMPT).tolist()

def timed(write):
    t0 = time.perf_counter()
    tokens = write()
    return 1000 * (time.perf_counter() - t0) / LENGTH, tokens

first, _ = timed(lambda: generate(model.params, prompt, LENGTH, seed=0).tokens)
cached, with_cache = timed(lambda: generate(model.params, prompt, LENGTH, seed=0).tokens)
uncached, without = timed(lambda: generate_uncached(model.params, prompt, LENGTH, seed=0))
gen = generate(model.params, prompt, LENGTH, seed=0)
json.dumps({"first_cached_ms_per_char": first, "cached_ms_per_char": cached, "uncached_ms_per_char": uncached,
            "same_text": with_cache == without, "cached_scores": gen.cached_scores,
            "recomputed_scores": gen.recomputed_scores, "sample": model.vocab.decode(gen.tokens)})
"""


def model_file() -> bytes:
    """The chapter's model: the one kept in models/ for the prose and code as they are, else trained
    on the series' prose as the build does (minutes)."""
    from builder.corpus import read_corpus
    from builder.figure_store import FigureStore
    from builder.site_config import load_site_config
    from engine.given import SERIES, Given
    from engine.tasks.writing import model_file as train

    prose = read_corpus(load_site_config(ROOT / "content").chapters).text.encode()
    kept = FigureStore(ROOT / ".cache" / "figures", ROOT, kept=ROOT / "models").kept_file("writing-model", Given({SERIES: prose}))
    return kept.read_bytes() if kept.is_file() else train(prose)


def engine_files() -> dict[str, str]:
    """The engine's modules, by path under the worker's home (what the site's wheel holds, in source)."""
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
            for p in sorted((ROOT / "engine").rglob("*.py")) if "__pycache__" not in p.parts}


def measure(kit: Path) -> dict:
    from playwright.sync_api import sync_playwright

    from builder.serve import static_server

    wheel = next(p.name for p in kit.iterdir() if p.name.startswith("numpy-") and p.name.endswith(".whl"))
    script = SCRIPT.replace("PROMPT", repr(PROMPT)).replace("LENGTH", str(LENGTH))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "kit").symlink_to(kit.resolve())
        (folder / "index.html").write_text(PAGE)
        (folder / "page.mjs").write_text(PAGE_SCRIPT)
        (folder / "worker.mjs").write_text(WORKER.replace("WHEEL", json.dumps(wheel))
                                           .replace("SCRIPT", json.dumps(script)))
        (folder / "engine.json").write_text(json.dumps(engine_files()))
        (folder / "model.bin").write_bytes(model_file())
        server = static_server(folder)
        try:
            load_before = os.getloadavg()
            with sync_playwright() as p:
                browser = chromium.launch(p)
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
                out = page.evaluate("() => window.result")
                browser.close()
            load_after = os.getloadavg()
        finally:
            server.shutdown()
            server.server_close()
    return {**out, "length": LENGTH, "prompt": PROMPT, "load_average_before": load_before,
            "load_average_after": load_after, "cores": os.cpu_count()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=os.environ.get("ATTN_PYODIDE_DIST") or ROOT / ".cache" / "pyodide-kit")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not (args.dist / "pyodide.mjs").is_file():
        print(f"writing generation: needs a Pyodide distribution with numpy (--dist or ATTN_PYODIDE_DIST; "
              f"../shared/pyodide-kit/make-kit.sh makes one); {args.dist} has none, nothing measured")
        return 0
    out = measure(args.dist)
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{out['length']} characters after {out['prompt']!r}, in a worker in Chromium (Pyodide boot {out['boot_ms']:,.0f} ms)")
    print(f"  with the key-value cache, first sample  {out['first_cached_ms_per_char']:8.2f} ms per character")
    print(f"  with the key-value cache                {out['cached_ms_per_char']:8.2f} ms per character")
    print(f"  without it (a full pass per character)  {out['uncached_ms_per_char']:8.2f} ms per character "
          f"({out['uncached_ms_per_char'] / out['cached_ms_per_char']:.1f} times as long; the same text: {out['same_text']})")
    print(f"  scores per head: {out['cached_scores']:,} with the cache, {out['recomputed_scores']:,} without")
    print(f"  load average {out['load_average_before'][0]:.2f} before, {out['load_average_after'][0]:.2f} after "
          f"(1 min), on {out['cores']} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
