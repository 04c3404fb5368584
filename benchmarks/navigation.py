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
- next chapter: Python booted on chapter 4, the page read to its end (its link to chapter 5
  scrolled to, SETTLE_MS for the page there to draw), then chapter 5's first live figure changed
  the moment its view has drawn: ms from the new page appearing (in place: nav.js's mark; a full
  load: its first contentful paint) to the figure drawn from the worker, with what the view's
  first draw and the recompute took of it. Three ways: in place, the pointer resting on the link
  HOVER_MS before the click (as a reader's does: nav.js fetches the page meanwhile and the
  figures' layer prepares its live figures); in place, clicked with no rest (a fresh tab, Python
  booted again, so nothing of the first move helps it); and a full load (in that second tab, the
  HTTP cache warm). After an in-place move the figure is scrolled to and changed by a script in
  the page (READ_NEXT), so no round trip of the benchmark's adds to the time or gives the worker
  time to finish what it does meanwhile; after a full load, by the benchmark's steps, small
  beside the boot;
- memory: the 14 chapters moved through in place in one tab, each one's first live figure scrolled
  to: the page's JS heap after a garbage collection, and the figures' worker's (its JS heap and
  the backing stores, which hold Python's WebAssembly memory), after each.

    .venv/bin/python benchmarks/navigation.py [--dist DIR | --site DIR [--site DIR ...]] [--runs N] [--network]
                                              [--parts boot,next,memory] [--json]

A build before a change beside one after it: `git archive main | tar -x -C /tmp/before`, then in
/tmp/before `python build.py build --out /tmp/before-site --pyodide-dist KIT --no-pdf` (copy .cache/
snapshot-*.bin.gz there first, or Node makes it again), the same here, and both sites given by --site.
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
HOVER_MS = 250  # a reader's pointer resting on a link before the click (instant.page reckons 300 ms or more)
# From scrolling to the link to pointing at it: the page's end settles (its figures draw as they
# near, and the page grows above the link), as it has for a reader who reads it.
SETTLE_MS = 1000
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
// Every figure's data-state as it changes, and the reader's last change, on the page's clock.
window.__figureStates = [];
new MutationObserver((records) => {
  for (const r of records) window.__figureStates.push([r.target.id, r.target.dataset.state, performance.now()]);
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
for (const type of ["change", "keydown"]) document.addEventListener(type, () => { window.__changed = performance.now(); }, true);
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


def _state_at(page, figure, state: str) -> float:
    """The page's clock when `figure`'s data-state last became `state` (RECORD's observer saw it)."""
    return page.evaluate("([id, s]) => window.__figureStates.filter(([i, t]) => i === id && t === s).pop()[2]",
                         [figure.get_attribute("id"), state])


# The reader of the next page, as fast as a reader can be: once nav.js marks the page shown, its
# first live figure is scrolled to, and the moment its view has drawn (data-state leaves static)
# it is changed (_change's change, as events); window.__next then holds the page's clock at each.
# Run in the page, so no round trip of the benchmark's falls between the steps: the figure is
# changed while whatever the worker does meanwhile may still run, never after it had time to end.
READ_NEXT = """() => {
  window.__next = null;
  const shown = () => performance.getEntriesByName('attention:page-shown')[0]?.startTime;
  const wait = (ok) => new Promise((resolve) => {  // shown(): a mark, which no observer here sees at once
    const check = () => (ok() ? resolve(performance.now()) : requestAnimationFrame(check));
    check();
  });
  const settle = (fig, ok) => new Promise((resolve) => {  // data-state, the moment it changes
    if (ok(fig.dataset.state)) return resolve(performance.now());
    const seen = new MutationObserver(() => {
      if (ok(fig.dataset.state)) { seen.disconnect(); resolve(performance.now()); }
    });
    seen.observe(fig, { attributes: true, attributeFilter: ['data-state'] });
  });
  (async () => {
    await wait(() => shown() !== undefined);
    const fig = document.querySelector('[data-figure][data-live]');
    fig.scrollIntoView({ block: 'center' });
    const drawn = await settle(fig, (s) => s !== 'static');
    const changed = performance.now();
    const select = fig.querySelector('.ct-edit select');
    if (select) {
      select.value = [...select.options].find((o) => o.value !== select.value).value;
      for (const type of ['input', 'change']) select.dispatchEvent(new Event(type, { bubbles: true }));
    } else {
      const control = fig.querySelector('[data-key-control]');
      control.dispatchEvent(new KeyboardEvent('keydown', { key: control.dataset.keyControl, bubbles: true }));
    }
    const live = await settle(fig, (s) => s === 'live');
    window.__next = { shown: shown(), drawn, changed, live };
  })();
}"""


def _booted_on_four(browser, base: str):
    """A fresh tab on chapter 4, its first live figure on screen and Python ready: (context, page)."""
    context = browser.new_context(**VIEW)
    page = context.new_page()
    page.add_init_script(RECORD)
    page.goto(base + FOUR, wait_until="load")
    _live_figure(page)
    _ready(page)
    return context, page


def _next_in_place(browser, base: str, hover_ms: int, full_load: bool) -> dict:
    """Chapter 4 booted in a fresh tab, then its link to chapter 5 followed in place, the pointer
    resting on it `hover_ms` first (0: clicked at once), and chapter 5 read by READ_NEXT; then,
    with `full_load`, chapter 5 loaded in full in the same tab (the HTTP cache warm) and its figure
    changed likewise. The page's clock throughout."""
    context, page = _booted_on_four(browser, base)
    link = page.locator("a[rel=next]")
    link.scroll_into_view_if_needed()  # the reader reads on to the page's end, where the figures there draw
    page.wait_for_timeout(SETTLE_MS)
    if hover_ms:
        link.hover()
        page.wait_for_timeout(hover_ms)
    page.evaluate(READ_NEXT)
    link.click()
    page.wait_for_function("window.__next !== null", timeout=TIMEOUT_MS)
    t = page.evaluate("window.__next")
    out = {"page shown to figure live": round(t["live"] - t["shown"]),
           "of which: shown to figure drawn": round(t["drawn"] - t["shown"]),
           "of which: the recompute": round(t["live"] - t["changed"]),
           "workers started in all": page.evaluate("window.__workers")}
    if full_load:
        out.update(_full_load(page, base))
    context.close()
    return out


def _full_load(page, base: str) -> dict:
    page.goto(base + FIVE, wait_until="load")
    figure = _live_figure(page)
    _change(figure)
    page.wait_for_function("f => f.dataset.state === 'live'", arg=figure.element_handle(), timeout=TIMEOUT_MS)
    live, changed = _state_at(page, figure, "live"), page.evaluate("window.__changed")
    paint = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0")
    return {"full load: first paint to figure live": round(live - paint),
            "full load: of which the recompute (Python boots)": round(live - changed)}


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


def next_chapter(browser, base: str, in_place: bool) -> dict:
    """The in-place moves (hovered, then not: the second tab ends with the full load), or on a site
    that moves by full loads alone, the full load after chapter 4's boot."""
    if not in_place:
        context, page = _booted_on_four(browser, base)
        out = _full_load(page, base)
        context.close()
        return out
    out = {}
    for label, hover in ((f"in place, hovered {HOVER_MS} ms", HOVER_MS), ("in place, no hover", 0)):
        out.update({(k if k.startswith("full load") else f"{label}: {k}"): v
                    for k, v in _next_in_place(browser, base, hover, full_load=not hover).items()})
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
                        nexts[site].append(next_chapter(browser, base, any(site.glob("assets/*/js/nav.js"))))
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
                for key in [k for k in nexts[site][0] if k.endswith("page shown to figure live")]:
                    results[str(site)]["next chapter"][f"{key}, each run"] = " ".join(str(n.get(key)) for n in nexts[site])
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
