#!/usr/bin/env python3
"""Print how long chapter 14's Train from scratch takes in Chromium, from the click to the new run
drawn, and the held-out loss of each checkpoint as it arrives, with the seconds since the click;
then how long fine-tuning the page's model on a text of the reader's own takes (the figure's
default steps; --text, by default a page of our own words in benchmarks/texts/), and its status line
(a benchmark, not a test: nothing is asserted): the real worker with a real numpy, the
figure's default run (every step, every checkpoint's losses and sample, the whole held-out text's
loss at the end) on the series' own prose, and the load average (os.getloadavg) at the start and
at the end, since on a shared machine the wall time says as much about the neighbours as the code.

The reader has scrolled to the figure and read for a moment: Python is ready and the worker has
warmed the job (data-warm done) before the click. The site is --site, or built from the series with
Pyodide and numpy vendored from ATTN_PYODIDE_DIST (or --dist); while no chapter holds
writing-training, the build adds a chapter holding it alone (its caption joins the prose).

    .venv/bin/python benchmarks/writing_train_browser.py [--dist DIR | --site DIR] [--text FILE] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import chromium  # noqa: E402 (the tests' launch: /usr/bin/chromium, the features no page uses off)

NAME = "writing-training"
TIMEOUT_MS = 900_000
ADDED = "99-writing-training.md"


def _load() -> list[float]:
    return [round(v, 2) for v in os.getloadavg()]


def _content_with_the_figure(tmp: Path) -> Path:
    """The series' content, with a chapter holding the figure added if none holds it."""
    content = ROOT / "content"
    if any(f"figure | {NAME}" in p.read_text() for p in content.glob("*.md")):
        return content
    copy = tmp / "content"
    shutil.copytree(content, copy)
    (copy / ADDED).write_text(f"# Watching it learn\n\n/// figure | {NAME}\n\nThe model learning.\n///\n")
    with (copy / "site.toml").open("a") as f:
        f.write(f'\n[[chapters]]\nfile = "{ADDED}"\n')
    return copy


def _page_with_the_figure(site: Path) -> str:
    pages = sorted(p.name for p in site.glob("*.html") if f'data-figure="{NAME}"' in p.read_text())
    if not pages:
        raise SystemExit(f"no page of {site} holds {NAME}")
    return pages[0]


def _opened(browser, url: str):
    """The page at `url` in a new context, scrolled to the figure, once the worker has warmed its
    job (Python ready): (context, page, figure, its element handle)."""
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.goto(url, wait_until="load")
    figure = page.locator(f'[data-figure="{NAME}"]')
    figure.scroll_into_view_if_needed()
    handle = figure.element_handle()
    page.wait_for_function("f => f.dataset.warm === 'done'", arg=handle, timeout=TIMEOUT_MS)
    return context, page, figure, handle


def train_from_scratch(browser, base: str, page_name: str) -> dict:
    context, page, figure, handle = _opened(browser, base + page_name)
    page.wait_for_timeout(1000)
    data = json.loads(figure.locator(".figure-data").text_content())
    # each checkpoint's line as the figure first shows it, with the seconds since the click
    page.evaluate("""(f) => { window.__lines = [];
      new MutationObserver(() => {
        const line = f.querySelector(".figure-numbers li")?.textContent ?? "";
        if (line !== window.__lines.at(-1)?.[1]) window.__lines.push([(performance.now() - window.__t0) / 1000, line]);
      }).observe(f.querySelector(".figure-numbers"), { subtree: true, childList: true, characterData: true }); }""", handle)
    t0 = time.perf_counter()
    page.evaluate("window.__t0 = performance.now()")
    figure.get_by_role("button", name="Train from scratch").click()
    page.wait_for_function("f => f.dataset.state === 'live' && f.getAttribute('aria-busy') !== 'true'",
                           arg=handle, timeout=TIMEOUT_MS)
    wall = time.perf_counter() - t0
    steps = int(figure.locator("progress").evaluate("p => p.value"))
    held = [(t, float(m[1])) for t, line in page.evaluate("window.__lines")
            if (m := re.search(r"([0-9.]+) on held-out text", line))]
    context.close()
    return {"steps": steps, "checkpoints": len(data["checkpoints"]),
            "click_to_done_s": round(wall, 1), "ms_per_step": round(1000 * wall / steps, 1),
            "held_out_by_60_s": next((v for t, v in reversed(held) if t <= 60), None),  # the last checkpoint by then
            "held_out_at_seconds": [[round(t, 1), v] for t, v in held]}


def fine_tune(browser, base: str, page_name: str, text: str) -> dict:
    """The page's model fine-tuned on `text` for the figure's default steps: click to done, and what the figure says."""
    context, page, figure, handle = _opened(browser, base + page_name)
    figure.locator("summary", has_text="Fine-tune").click()
    figure.locator("textarea").fill(text)
    steps = int(figure.locator("input[id$='-tune']").input_value())
    t0 = time.perf_counter()
    figure.get_by_role("button", name="Fine-tune").click()
    page.wait_for_function("f => f.dataset.state === 'live' && f.getAttribute('aria-busy') !== 'true'",
                           arg=handle, timeout=TIMEOUT_MS)
    wall = time.perf_counter() - t0
    status = figure.locator(".th-status").text_content()
    context.close()
    return {"tune_steps": steps, "tune_characters": len(text), "tune_click_to_done_s": round(wall, 1),
            "tune_ms_per_step": round(1000 * wall / steps, 1), "tune_status": status}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=os.environ.get("ATTN_PYODIDE_DIST"))
    parser.add_argument("--site", type=Path, help="an already built site (vendored with a real numpy)")
    parser.add_argument("--text", type=Path, default=ROOT / "benchmarks" / "texts" / "bakery.txt",
                        help="the reader's own text to fine-tune on")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.site and not args.dist:
        print("writing_train_browser: needs a Pyodide distribution with numpy (--dist or ATTN_PYODIDE_DIST; "
              "../shared/pyodide-kit/make-kit.sh makes one) or a built --site; nothing measured")
        return 0
    from playwright.sync_api import sync_playwright

    from builder.serve import static_server

    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            from builder.build import Paths, build

            site = Path(tmp) / "dist"
            build(Paths.at(ROOT, _content_with_the_figure(Path(tmp))), site, pyodide_dist=args.dist)
        server = static_server(site)
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        try:
            with sync_playwright() as p:
                browser = chromium.launch(p)
                load_start = _load()
                results = train_from_scratch(browser, base, _page_with_the_figure(site))
                results |= fine_tune(browser, base, _page_with_the_figure(site), args.text.read_text())
                results["load_average_start"], results["load_average_end"] = load_start, _load()
                browser.close()
        finally:
            server.shutdown()
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            print(f"{key:22} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
