#!/usr/bin/env python3
"""Print the site's speed and size figures as JSON (a benchmark, not a test: nothing is asserted).

- cold build: `build.py` in a fresh process, imports included
- rebuild: `build.py serve`, time from editing one chapter to the rebuilt site
- page weight: bytes a chapter transfers before the runtime starts (HTML, CSS, JS, fonts; images apart)
- runtime: in Chromium on 127.0.0.1, ms from the first interaction to the status line settling
- bytes per chapter read to the end, the runtime's share apart (--bytes-per-chapter: that alone)
- offline size, and Python's boot on a second chapter of the same visit (--second-chapter-boot)
- what each page fetches before the reader scrolls or acts, mobile and desktop (--first-screen [SITE])
"""
from __future__ import annotations

import gzip
import json
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import chromium  # noqa: E402 (the tests' launch: /usr/bin/chromium, the features no page uses off)


def cold_build(out: Path, runs: int = 3) -> list[float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(out)], check=True, capture_output=True)
        times.append(round(time.perf_counter() - t0, 3))
    return times


def rebuild_through_serve(tmp: Path, edits: int = 3) -> list[float]:
    content = tmp / "content"
    shutil.copytree(ROOT / "content", content)
    proc = subprocess.Popen([sys.executable, "-u", str(ROOT / "build.py"), "serve", "--port", "0",
                             "--content", str(content), "--out", str(tmp / "serve-dist")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    try:
        while "serving" not in lines.get(timeout=60):
            pass
        while not lines.get(timeout=120).startswith("built"):  # serve's first build comes after "serving"
            pass
        time.sleep(1.0)  # let the file watcher start
        chapter = content / "04-scores-to-weights.md"
        times = []
        for i in range(edits):
            chapter.write_text(chapter.read_text() + f"\nEdit {i}.\n")
            t0 = time.perf_counter()
            while not lines.get(timeout=60).startswith("built"):
                pass
            times.append(round(time.perf_counter() - t0, 3))
        return times
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def browser_figures(site: Path) -> dict:
    from playwright.sync_api import sync_playwright

    from builder.serve import static_server

    server = static_server(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    with sync_playwright() as p:
        browser = chromium.launch(p)
        # A short viewport keeps every figure off-screen, so nothing starts Python before we interact.
        # wait_for_function evaluates its string in the page, which the pages' CSP refuses.
        page = browser.new_page(viewport={"width": 1200, "height": 400}, bypass_csp=True)
        page.route("**/cdn.jsdelivr.net/**", lambda route: route.abort())
        sizes: dict[str, int] = {}
        started = {"at": None}

        def on_response(resp):
            url = resp.url
            if "/worker.js" in url and started["at"] is None:
                started["at"] = len(sizes)
            if started["at"] is None:
                try:
                    sizes[url] = len(resp.body())
                except Exception:
                    pass

        page.on("response", on_response)
        page.add_init_script("window.__statusLog = [];")
        page.goto(base + "/04-scores-to-weights.html", wait_until="load")
        page.evaluate("""() => {
            const el = document.querySelector('[data-runtime-status]');
            new MutationObserver(() => window.__statusLog.push([performance.now(), el.dataset.state]))
              .observe(el, {attributes: true});
        }""")
        page.wait_for_timeout(500)
        idle = page.evaluate("document.querySelector('[data-runtime-status]').dataset.state")
        t_click = page.evaluate("() => { document.querySelector('[data-figure] input').focus(); return performance.now(); }")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("['ready','unavailable'].includes(document.querySelector('[data-runtime-status]').dataset.state)",
                               timeout=120_000)
        log = page.evaluate("window.__statusLog")
        settled = next(t for t, s in log if s in ("ready", "unavailable"))
        status = page.evaluate("document.querySelector('[data-runtime-status]').textContent")
        browser.close()
    server.shutdown()
    weights = {"html_css_js_fonts": 0, "images": 0}
    for url, n in sizes.items():
        kind = "images" if re.search(r"\.(svg|png|jpe?g|webp|gif)$", url) else "html_css_js_fonts"
        weights[kind] += n
    return {
        "page_bytes_before_runtime": weights,
        "files_before_runtime": sorted(u.split("/", 3)[-1] for u in sizes),
        "runtime_state_before_interaction": idle,
        "runtime_settle_ms_from_first_interaction": round(settled - t_click, 1),
        "runtime_final_status": status,
    }


def chapter_weights(site: Path) -> dict:
    """Bytes each chapter transfers before Python starts (1200x800 viewport, no interaction)."""
    from playwright.sync_api import sync_playwright

    from builder.serve import static_server
    from builder.site_config import load_site_config

    server = static_server(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    out = {}
    with sync_playwright() as p:
        browser = chromium.launch(p)
        for entry in load_site_config(ROOT / "content").chapters:
            page = browser.new_page(viewport={"width": 1200, "height": 800})
            sizes: dict[str, int] = {}
            runtime = {"started": False}

            def on_response(resp, sizes=sizes, runtime=runtime):
                if "/worker.js" in resp.url or "/pyodide/" in resp.url:
                    runtime["started"] = True
                elif not runtime["started"]:
                    try:
                        body = resp.body()
                        sizes[resp.url] = len(body)
                        gzipped[resp.url] = len(gzip.compress(body, 9))
                    except Exception:
                        pass

            gzipped: dict[str, int] = {}
            page.on("response", on_response)
            page.route("**/assets/*/runtime/worker.js", lambda route: route.abort())  # stop at the runtime's door
            page.goto(f"{base}/{entry.path.stem}.html", wait_until="load")
            page.wait_for_timeout(700)
            text = sum(n for u, n in sizes.items() if not re.search(r"\.(svg|png|jpe?g|webp|gif)$", u))
            text_gz = sum(n for u, n in gzipped.items() if not re.search(r"\.(svg|png|jpe?g|webp|gif)$", u))
            out[entry.path.stem] = {"html_css_js_kb": round(text / 1024, 1),
                                    "html_css_js_gzip_kb": round(text_gz / 1024, 1),
                                    "images_kb": round((sum(sizes.values()) - text) / 1024, 1),
                                    "files": len(sizes)}
            page.close()
        browser.close()
    server.shutdown()
    return out


def bytes_per_chapter(site: Path) -> dict:
    """Bytes each page transfers while a reader scrolls it to the end (fresh browser cache, the CDN
    unreachable): the runtime's share (Pyodide, the worker, the engine wheel) and the rest."""
    from playwright.sync_api import sync_playwright

    from builder.serve import static_server
    from builder.site_config import load_site_config

    server = static_server(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    pages = ["index.html", *(f"{e.path.stem}.html" for e in load_site_config(ROOT / "content").chapters)]
    out = {}
    with sync_playwright() as p:
        browser = chromium.launch(p)
        for name in pages:
            context = browser.new_context(viewport={"width": 1200, "height": 800}, service_workers="block")
            context.route("**/cdn.jsdelivr.net/**", lambda route: route.abort())
            page = context.new_page()
            sizes: dict[str, int] = {}

            def on_response(resp, sizes=sizes):
                try:
                    sizes[resp.url] = len(resp.body())
                except Exception:
                    pass

            page.on("response", on_response)
            page.goto(f"{base}/{name}", wait_until="load")
            height = page.evaluate("document.body.scrollHeight")
            for y in range(0, height + 800, 600):  # a reader scrolling through every figure
                page.mouse.wheel(0, 600)
                page.wait_for_timeout(60)
            page.wait_for_timeout(1500)
            try:
                page.wait_for_function("() => { const s = document.querySelector('[data-runtime-status]');"
                                       " return !s || !['loading'].includes(s.dataset.state); }", timeout=60_000)
            except Exception:
                pass
            page.wait_for_load_state("networkidle")  # an exercise's grader boots on its own, with no status line
            runtime = sum(n for u, n in sizes.items() if re.search(r"/(pyodide|py)/|/worker\.js$", u))
            out[name] = {"runtime_kb": round(runtime / 1024, 1),
                         "other_kb": round((sum(sizes.values()) - runtime) / 1024, 1)}
            context.close()
        browser.close()
    server.shutdown()
    return out


FIRST_SCREENS = {"mobile": {"width": 412, "height": 823}, "desktop": {"width": 1200, "height": 800}}


def first_screen(site: Path) -> dict:
    """What each page fetches before the reader scrolls or acts, at Lighthouse's mobile screen and a
    desktop one (fresh cache, the CDN unreachable): kB as sent and gzipped, the figure views among
    them, and the runtime's share apart (a live figure on the first screen starts Python)."""
    from playwright.sync_api import sync_playwright

    from builder.serve import static_server
    from builder.site_config import load_site_config

    server = static_server(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    pages = ["index.html", *(f"{e.path.stem}.html" for e in load_site_config(ROOT / "content").chapters)]
    out: dict = {}
    with sync_playwright() as p:
        browser = chromium.launch(p)
        for screen, viewport in FIRST_SCREENS.items():
            for name in pages:
                context = browser.new_context(viewport=viewport)
                context.route("**/cdn.jsdelivr.net/**", lambda route: route.abort())
                page = context.new_page()
                sizes: dict[str, tuple[int, int]] = {}

                def on_response(resp, sizes=sizes):
                    try:
                        body = resp.body()
                    except Exception:
                        return
                    sizes[resp.url.removeprefix(base + "/")] = (len(body), len(gzip.compress(body, 6)))

                context.on("response", on_response)
                page.goto(f"{base}/{name}", wait_until="load")
                page.wait_for_load_state("networkidle")
                runtime = [u for u in sizes if re.search(r"^(pyodide|py)/|/worker\.js$", u)]
                rest = {u: n for u, n in sizes.items() if u not in runtime}
                out.setdefault(name, {})[screen] = {
                    "kb": round(sum(n for n, _ in rest.values()) / 1024, 1),
                    "gzip_kb": round(sum(z for _, z in rest.values()) / 1024, 1),
                    "files": len(rest),
                    "views": sorted(u.rsplit("/", 1)[1] for u in rest if re.match(r"assets/[0-9a-f]+/figures/", u)),
                    "views_kb": round(sum(n for u, (n, _) in rest.items() if re.match(r"assets/[0-9a-f]+/figures/", u)) / 1024, 1),
                    "runtime_kb": round(sum(sizes[u][0] for u in runtime) / 1024, 1)}
                context.close()
        browser.close()
    server.shutdown()
    return out


def second_chapter_boot(site: Path) -> dict:
    """Python's boot on a first chapter, then on a second one in the same visit: ms from the first
    live figure on screen to "ready", and the runtime bytes taken from the network. The first chapter
    is read to its foot, which registers the service worker (theme/js/offline.js)."""
    from playwright.sync_api import sync_playwright

    from builder.serve import static_server

    server = static_server(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    out = {}
    with sync_playwright() as p:
        browser = chromium.launch(p)
        context = browser.new_context(viewport={"width": 1200, "height": 800}, bypass_csp=True)
        page = context.new_page()
        fetched = {"network": 0, "service_worker": 0}

        def on_response(resp):
            if "/pyodide/" in resp.url:
                try:
                    fetched["service_worker" if resp.from_service_worker else "network"] += len(resp.body())
                except Exception:
                    pass

        context.on("response", on_response)
        for name in ("04-scores-to-weights.html", "05-what-gets-passed-along.html"):
            fetched.update(network=0, service_worker=0)
            page.goto(f"{base}/{name}", wait_until="load")
            page.wait_for_timeout(500)
            t0 = page.evaluate("() => { document.querySelector('[data-figure][data-live]').scrollIntoView();"
                               " return performance.now(); }")
            page.wait_for_function("['ready','unavailable'].includes(document.querySelector('[data-runtime-status]').dataset.state)",
                                   timeout=120_000)
            t1 = page.evaluate("performance.now()")
            page.evaluate("document.querySelector('footer').scrollIntoView()")  # the foot of the page
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # registered and active
            out[name] = {"boot_ms": round(t1 - t0), "state": page.evaluate(
                "document.querySelector('[data-runtime-status]').dataset.state"),
                "runtime_kb_from_network": round(fetched["network"] / 1024, 1),
                "runtime_kb_from_service_worker": round(fetched["service_worker"] / 1024, 1)}
        browser.close()
    server.shutdown()
    return out


def offline_size(site: Path) -> dict:
    """What "Save for offline" stores: the build's precache manifest, in all and the runtime's part."""
    head = (site / "sw.js").read_text().split("\n", 1)[0]
    files = json.loads(head.removeprefix("const MANIFEST = ").rstrip(";"))["files"]
    runtime = sum(size for rel, (size, _) in files.items() if rel.startswith("pyodide/"))
    return {"files": len(files), "total_mb": round(sum(f[0] for f in files.values()) / 1e6, 2),
            "runtime_mb": round(runtime / 1e6, 2)}


def main() -> int:
    if sys.argv[1:] == ["--second-chapter-boot"]:  # vendored, numpy a stand-in: Python reaches "ready"
        from tests.browser.conftest import make_stand_in_distribution
        from builder.build import Paths, build

        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "dist"
            build(Paths.at(ROOT), out, pyodide_dist=make_stand_in_distribution(Path(tmp) / "pyodide"))
            print(json.dumps({"offline_size": offline_size(out), "boot": second_chapter_boot(out)}, indent=2))
        return 0
    if sys.argv[1:2] == ["--first-screen"]:  # only that part: on a built site named after it, or a fresh build
        if sys.argv[2:]:
            print(json.dumps(first_screen(Path(sys.argv[2])), indent=2))
            return 0
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "dist"
            subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(out)], check=True, capture_output=True)
            print(json.dumps(first_screen(out), indent=2))
        return 0
    if sys.argv[1:] == ["--bytes-per-chapter"]:  # only that part, on a fresh build
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "dist"
            subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(out)], check=True, capture_output=True)
            print(json.dumps(bytes_per_chapter(out), indent=2))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        out = tmp / "dist"
        report = {"cold_build_s": cold_build(out), "rebuild_after_edit_s": rebuild_through_serve(tmp)}
        if Path("/usr/bin/chromium").exists():
            report.update(browser_figures(out))
            report["chapter_weight_before_runtime"] = chapter_weights(out)
            report["bytes_per_chapter_read_to_the_end"] = bytes_per_chapter(out)
        else:
            report["browser"] = "skipped: /usr/bin/chromium not installed"
        report["offline_size"] = offline_size(out)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
