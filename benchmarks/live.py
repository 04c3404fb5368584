#!/usr/bin/env python3
"""Print how long a reader waits on Python in the page, with the real worker and a real numpy (a
benchmark, not a test: nothing is asserted). In Chromium (/usr/bin/chromium), on a site built with
Pyodide and numpy vendored from ATTN_PYODIDE_DIST (or --dist), or an already built --site:

- exercise: chapter 4, whose live figures boot their own Python too. The reader scrolls to the
  exercise, starts writing (a paste) and clicks Run 10 s later: ms from the click to the verdict.
  Then a runaway loop: ms to the timeout verdict, and the right code Run again at once, and once
  more 10 s after a second timeout: ms from each click to its verdict.
- retrain: chapter 9's Retrain, ms from the click to the new model drawn (data-state live): the
  first with Python not yet started (the click starts it), then a second one; and on a fresh page,
  the first clicked a second after the worker warmed Retrain (the figure near, Python ready).

    .venv/bin/python benchmarks/live.py [--dist DIR | --site DIR] [--json]
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import chromium  # noqa: E402 (the tests' launch: /usr/bin/chromium, the features no page uses off)

RIGHT = "def softmax(x):\n    e = np.exp(x - x.max(axis=-1, keepdims=True))\n    return e / e.sum(axis=-1, keepdims=True)\n"
RUNAWAY = "def softmax(x):\n    while True:\n        pass\n"
READING_S = 10  # from the first keystroke to Run


def _paste(page, section, code: str) -> None:
    editor = section.locator(".cm-content")
    editor.click()
    editor.press("Control+a")
    page.evaluate("t => navigator.clipboard.writeText(t)", code)
    editor.press("Control+v")


def _run_ms(page, section, state: str) -> int:
    result = section.locator("[data-exercise-result]")
    t0 = time.perf_counter()
    section.get_by_role("button", name="Run").click()
    page.wait_for_function("([el, s]) => el.dataset.state === s", arg=[result.element_handle(), state], timeout=180_000)
    return round((time.perf_counter() - t0) * 1000)


def exercise(browser, base: str) -> dict:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(base + "04-scores-to-weights.html", wait_until="load")
    page.locator("[data-figure][data-live]").first.scroll_into_view_if_needed()  # figures boot their Python
    section = page.locator('[data-exercise="softmax"]')
    section.scroll_into_view_if_needed()
    section.locator(".cm-content").wait_for(timeout=30_000)
    _paste(page, section, RIGHT)
    page.wait_for_timeout(READING_S * 1000)
    out = {"first_run_ms": _run_ms(page, section, "passed")}
    _paste(page, section, RUNAWAY)
    out["timeout_verdict_ms"] = _run_ms(page, section, "timeout")
    _paste(page, section, RIGHT)
    out["run_at_once_after_timeout_ms"] = _run_ms(page, section, "passed")
    _paste(page, section, RUNAWAY)
    _run_ms(page, section, "timeout")
    _paste(page, section, RIGHT)
    page.wait_for_timeout(READING_S * 1000)
    out[f"run_{READING_S}s_after_timeout_ms"] = _run_ms(page, section, "passed")
    context.close()
    return out


def retrain(browser, base: str) -> dict:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.goto(base + "09-learning-to-look.html", wait_until="load")
    figure = page.locator('[data-figure="two-heads"]')
    figure.scroll_into_view_if_needed()
    out = {}
    for run in ("first_ms_python_started_by_the_click", "second_ms"):
        page.evaluate("f => f.dataset.state = 'prerendered'", figure.element_handle())
        t0 = time.perf_counter()
        figure.get_by_role("button", name="Retrain").click()
        page.wait_for_function("f => f.dataset.state === 'live' && f.getAttribute('aria-busy') !== 'true'",
                               arg=figure.element_handle(), timeout=300_000)
        out[run] = round((time.perf_counter() - t0) * 1000)
    context.close()
    # A reader who scrolls to the figure and reads a second after the worker has warmed Retrain.
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.goto(base + "09-learning-to-look.html", wait_until="load")
    figure = page.locator('[data-figure="two-heads"]')
    figure.scroll_into_view_if_needed()
    page.wait_for_function("f => f.dataset.warm === 'done'", arg=figure.element_handle(), timeout=300_000)
    page.wait_for_timeout(1000)
    t0 = time.perf_counter()
    figure.get_by_role("button", name="Retrain").click()
    page.wait_for_function("f => f.dataset.state === 'live' && f.getAttribute('aria-busy') !== 'true'",
                           arg=figure.element_handle(), timeout=300_000)
    out["first_ms_after_the_warm_up"] = round((time.perf_counter() - t0) * 1000)
    context.close()
    return out


def site_arguments(parser: argparse.ArgumentParser, repeat: bool = False) -> None:
    """--dist and --site (repeated, with `repeat`, to measure sites side by side)."""
    parser.add_argument("--dist", type=Path, default=os.environ.get("ATTN_PYODIDE_DIST"))
    parser.add_argument("--site", type=Path, action="append" if repeat else "store",
                        help="an already built site (vendored with a real numpy)" + ("; repeat to compare" if repeat else ""))


@contextlib.contextmanager
def chromium_on_sites(args, name: str):
    """For the block: (sites, browser), the sites --site names or one built from --dist, and Chromium;
    ([], None), with a line saying why, without either."""
    with tempfile.TemporaryDirectory() as tmp:
        sites = [args.site] if isinstance(args.site, Path) else args.site or []
        if not sites and not args.dist:
            print(f"{name}: needs a Pyodide distribution with numpy (--dist or ATTN_PYODIDE_DIST; "
                  "../shared/pyodide-kit/make-kit.sh makes one) or a built --site; nothing measured")
            yield [], None
            return
        if not sites:
            from builder.build import Paths, build

            sites = [Path(tmp) / "dist"]
            build(Paths.at(ROOT), sites[0], pyodide_dist=args.dist)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = chromium.launch(p)
            yield sites, browser
            browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    site_arguments(parser)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from builder.serve import static_server

    with chromium_on_sites(args, "live") as (sites, browser):
        if not sites:
            return 0
        server = static_server(sites[0])
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        results = {"exercise": exercise(browser, base), "retrain": retrain(browser, base)}
        server.shutdown()
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for part, numbers in results.items():
            for name, value in numbers.items():
                print(f"{part:9} {name:40} {value:>8,} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
