#!/usr/bin/env python3
"""Print what reading the series as one session costs and saves, with the real worker and a real
numpy in Chromium (a benchmark, not a test: nothing is asserted), on a site built with Pyodide and
numpy vendored from ATTN_PYODIDE_DIST (or --dist), or on built sites (--site DIR, repeated: each
one's numbers in a column, e.g. a build before a change beside one after it). Boots and moves are
made --runs times, the sites in turn (so a change in the machine's load falls on each alike), and
their medians printed:

- boot: chapter 4 opened in a fresh tab, its first live figure scrolled to: ms from the runtime's
  start to each stage the status line shows (Pyodide's core loaded, numpy and the engine loaded,
  the engine imported: ready), when each file of the boot finished downloading (the worker's
  resource timings), the worker's own marks (worker.js: the snapshot unpacked, the wasm compiled
  and instantiated, Python restored, numpy and the engine imported), and the first answer: ms
  from ready to the figure drawn from the worker after a key press on it;
- next chapter: Python booted on chapter 4, then chapter 5's first live figure changed: ms from the
  new page appearing (in place: nav.js's mark; a full load: its first contentful paint) to the
  figure drawn from the worker, after an in-place move and after a full load, in the same tab;
- memory: the 14 chapters moved through in place in one tab, each one's first live figure scrolled
  to: the page's JS heap after a garbage collection, and the figures' worker's (its JS heap and
  the backing stores, which hold Python's WebAssembly memory), after each.

    .venv/bin/python benchmarks/navigation.py [--dist DIR | --site DIR [--site DIR ...]] [--runs N] [--network]
                                              [--parts boot,next,memory] [--json]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.live import chromium_on_sites, site_arguments  # noqa: E402

FOUR, FIVE = "04-scores-to-weights.html", "05-what-gets-passed-along.html"
TIMEOUT_MS = 240_000
# --network: a reader's broadband (40 Mbit/s down, 40 ms round trip) instead of the loopback, where
# every file arrives at once and only the CPU counts.
NETWORK = {"latency": 40, "downloadThroughput": 40e6 / 8, "uploadThroughput": 10e6 / 8}
VIEW = {"viewport": {"width": 1200, "height": 800}, "bypass_csp": True}  # wait_for_function evaluates code
# Every data-stage of the runtime's status line, with when (ms on the page's clock), and the
# workers the document starts (the first is the figures').
RECORD = """
window.__stages = [];
window.__workers = 0;
window.Worker = class extends window.Worker { constructor(...args) { super(...args); window.__workers++; } };
const watch = () => {
  const el = document.querySelector("[data-runtime-status]");
  if (!el || el.__watched) return;
  el.__watched = true;
  const note = () => {
    const s = el.dataset.stage;
    const last = window.__stages[window.__stages.length - 1];
    if (s && (!last || last[0] !== s)) window.__stages.push([s, performance.now()]);
  };
  note();
  new MutationObserver(note).observe(el, { attributes: true, attributeFilter: ["data-stage"] });
};
document.addEventListener("DOMContentLoaded", watch);
new MutationObserver(watch).observe(document, { childList: true, subtree: true });
"""
BOOT_FILES = {"pyodide.mjs": "core script", "pyodide.asm.js": "core loader", "pyodide.asm.wasm": "core wasm",
              "python_stdlib.zip": "standard library", "pyodide-lock.json": "lock", "numpy-": "numpy wheel",
              "attention_engine-": "engine wheel"}


def _live_figure(page):
    figure = page.locator("[data-figure][data-live]").first
    figure.scroll_into_view_if_needed()
    page.wait_for_function("f => f.dataset.state !== 'static'", arg=figure.element_handle(), timeout=TIMEOUT_MS)
    return figure


def _ready(page) -> None:
    page.wait_for_function("document.querySelector('[data-runtime-status]')?.dataset.state === 'ready'", timeout=TIMEOUT_MS)


def _change(figure) -> None:
    """Ask the worker: chapter 5's colour-tokens gets a new colour; another figure, its key control's key."""
    select = figure.locator(".ct-edit select")
    if select.count():
        select.first.select_option(select.first.evaluate("s => [...s.options].find((o) => o.value !== s.value).value"))
    else:
        control = figure.locator("[data-key-control]")
        control.press(control.get_attribute("data-key-control"))


def _drawn_live_at(page, figure) -> float:
    """The page's clock when `figure` shows the worker's answer."""
    page.wait_for_function("f => f.dataset.state === 'live'", arg=figure.element_handle(), timeout=TIMEOUT_MS)
    return page.evaluate("performance.now()")


def _throttle(context, page, network: dict | None) -> None:
    """The DevTools protocol's network emulation for the page (its workers' requests go through it too)."""
    if network:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {"offline": False, **network})


def boot(browser, base: str, network: dict | None = None) -> dict:
    context = browser.new_context(**VIEW)
    page = context.new_page()
    _throttle(context, page, network)
    page.add_init_script(RECORD)
    page.goto(base + FOUR, wait_until="load")
    figure = _live_figure(page)
    _ready(page)
    stages = dict(page.evaluate("window.__stages"))
    start = stages.get("start", 0)
    out = {f"stage {name}": round(at - start) for name, at in stages.items() if name != "start"}
    worker = page.workers[0]
    shift = worker.evaluate("performance.timeOrigin") - page.evaluate("performance.timeOrigin")
    for entry in worker.evaluate("performance.getEntriesByType('resource').map((e) => [e.name, e.startTime, e.responseEnd])"):
        for part, label in BOOT_FILES.items():
            if part in entry[0].rsplit("/", 1)[-1]:
                out[f"file {label}: fetched from-to"] = f"{round(entry[1] + shift - start)}-{round(entry[2] + shift - start)}"
    for name, at in worker.evaluate("performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])"):
        out[f"worker {name}"] = round(at + shift - start)
    t0 = page.evaluate("performance.now()")
    _change(figure)
    out["first answer after ready"] = round(_drawn_live_at(page, figure) - t0)
    context.close()
    return out


def next_chapter(browser, base: str) -> dict:
    context = browser.new_context(**VIEW)
    page = context.new_page()
    page.add_init_script(RECORD)
    page.goto(base + FOUR, wait_until="load")
    _live_figure(page)
    _ready(page)
    out = {}
    if page.locator('script[src$="nav.js"]').count():
        page.locator("a[rel=next]").click()
        page.wait_for_function("performance.getEntriesByName('attention:page-shown').length > 0", timeout=TIMEOUT_MS)
        shown = page.evaluate("performance.getEntriesByName('attention:page-shown')[0].startTime")
        figure = _live_figure(page)
        t0 = page.evaluate("performance.now()")
        _change(figure)
        live = _drawn_live_at(page, figure)
        out["in place: page shown to figure live"] = round(live - shown)
        out["in place: of which the recompute"] = round(live - t0)
        out["in place: workers started in all"] = page.evaluate("window.__workers")
    page.goto(base + FIVE, wait_until="load")  # a full load, the HTTP cache warm
    figure = _live_figure(page)
    t0 = page.evaluate("performance.now()")
    _change(figure)
    live = _drawn_live_at(page, figure)
    paint = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0")
    out["full load: first paint to figure live"] = round(live - paint)
    out["full load: of which the recompute (Python boots)"] = round(live - t0)
    context.close()
    return out


def _worker_memory(cdp, page) -> int | None:
    """The figures' worker's JS heap plus backing stores (bytes) after a garbage collection, by the
    DevTools protocol sent to the worker's target; None where Chromium does not say."""
    targets = cdp.send("Target.getTargets")["targetInfos"]
    workers = [t for t in targets if t["type"] == "worker"]
    if not workers:
        return None
    answers = []
    session = cdp.send("Target.attachToTarget", {"targetId": workers[0]["targetId"], "flatten": False})["sessionId"]
    cdp.on("Target.receivedMessageFromTarget", lambda e: answers.append(json.loads(e["message"])))
    for message in ({"id": 0, "method": "HeapProfiler.collectGarbage"}, {"id": 1, "method": "Runtime.getHeapUsage"}):
        cdp.send("Target.sendMessageToTarget", {"sessionId": session, "message": json.dumps(message)})
    for _ in range(100):
        if any(a.get("id") == 1 for a in answers):
            break
        page.wait_for_timeout(20)
    cdp.send("Target.detachFromTarget", {"sessionId": session})
    result = next((a.get("result") for a in answers if a.get("id") == 1), None)
    return None if not result else result["usedSize"] + result.get("backingStorageSize", 0)


def memory(browser, base: str, pages: list[str]) -> dict:
    context = browser.new_context(**VIEW)
    page = context.new_page()
    page.goto(base + pages[0], wait_until="load")
    cdp = context.new_cdp_session(page)
    out = {}
    for i, name in enumerate(pages):
        if i:
            before = page.evaluate("performance.getEntriesByName('attention:page-shown').length")
            page.locator("a[rel=next]").click()
            page.wait_for_function(f"performance.getEntriesByName('attention:page-shown').length > {before}", timeout=TIMEOUT_MS)
        if page.locator("[data-figure][data-live]").count():
            _live_figure(page)
            _ready(page)
        page.wait_for_timeout(500)
        cdp.send("HeapProfiler.collectGarbage")
        heap = cdp.send("Runtime.getHeapUsage")["usedSize"]
        worker = _worker_memory(cdp, page)
        out[name] = f"page {heap / 1e6:.1f} MB, worker " + (f"{worker / 1e6:.1f} MB" if worker else "not started")
    context.close()
    return out


def _median(values: list):
    """The median of numbers; of "from-to" spans, the run with the median end."""
    values = [v for v in values if v is not None]
    key = (lambda v: int(str(v).rsplit("-", 1)[-1])) if isinstance(values[0], str) else (lambda v: v)
    return sorted(values, key=key)[len(values) // 2]


def measure(browser, sites: list[Path], runs: int, network: dict | None, parts: set[str]) -> dict:
    """Each site's figures; the boots of the sites taken in turn, run after run, so that a change in
    the machine's load falls on every column alike."""
    from playwright.sync_api import Error as PlaywrightError

    from builder.serve import static_server
    from tests.browser.conftest import chapter_pages

    servers = [static_server(site) for site in sites]
    bases = [f"http://127.0.0.1:{server.server_address[1]}/" for server in servers]
    try:
        boots = {site: [] for site in sites}
        nexts = {site: [] for site in sites}
        for _ in range(runs):
            for site, base in zip(sites, bases):
                if "boot" in parts:
                    boots[site].append(boot(browser, base, network))
                if "next" in parts:
                    try:
                        nexts[site].append(next_chapter(browser, base))
                    except PlaywrightError as err:  # said, and left out of the medians
                        print(f"{site.name}: a next-chapter run failed: {str(err).splitlines()[0]}", file=sys.stderr)
        results = {}
        for site, base in zip(sites, bases):
            keys = list(dict.fromkeys(k for b in boots[site] for k in b))
            results[str(site)] = {}
            if boots[site]:
                results[str(site)]["boot"] = {key: _median([b.get(key) for b in boots[site]]) for key in keys}
                results[str(site)]["boot"]["stage ready, each run"] = " ".join(str(b.get("stage ready")) for b in boots[site])
            if nexts[site]:
                results[str(site)]["next chapter"] = {key: _median([n.get(key) for n in nexts[site]]) for key in nexts[site][0]}
                results[str(site)]["next chapter"]["in place: page shown to figure live, each run"] = " ".join(
                    str(n.get("in place: page shown to figure live")) for n in nexts[site])
            if "memory" in parts and any(site.glob("assets/*/js/nav.js")):
                results[str(site)]["memory"] = memory(browser, base, chapter_pages())
        return results
    finally:
        for server in servers:
            server.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    site_arguments(parser, repeat=True)
    parser.add_argument("--runs", type=int, default=3, help="boots and next-chapter moves per site (the median is printed)")
    parser.add_argument("--network", action="store_true", help="boot over a reader's network (NETWORK), not the loopback")
    parser.add_argument("--parts", default="boot,next,memory", help="what to measure, of boot, next and memory")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with chromium_on_sites(args, "navigation") as (sites, browser):
        if not sites:
            return 0
        network = NETWORK if args.network else None
        results = measure(browser, sites, args.runs, network, set(args.parts.split(",")))
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    columns = list(results.values())
    for part in ("boot", "next chapter", "memory"):
        keys = list(dict.fromkeys(k for c in columns for k in c.get(part, {})))
        if not keys:
            continue
        print(f"\n{part}" + "".join(f" | {Path(s).name:>24}" for s in results))
        for key in keys:
            print(f"  {key:44}" + "".join(f" | {str(c.get(part, {}).get(key, '-')):>24}" for c in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
