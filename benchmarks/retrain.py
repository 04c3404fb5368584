#!/usr/bin/env python3
"""Print the Retrain figures of chapter 9 as JSON (a benchmark, not a test: nothing is asserted).

- cpython: the 400-step two-head training in numpy (float32 and float64), and in PyTorch CPU on
  the same weights, batches and Adam settings when torch is importable (engine/bench.py);
- job: the Retrain job as the worker runs it (engine/jobs.py slices of 50 ms, snapshots for the
  figure, the held-out evaluation and text at the end), first and warm, on CPython;
- profile: where the numpy run spends its time (cProfile, top functions by own time);
- page: in Chromium, long tasks (over 50 ms) on the main thread while two-heads draws a Retrain's
  progress, with the engine on CPython behind the test stand-in worker (drawing does not depend on
  where the engine runs);
- pyodide: the first and a warm Retrain in Chromium with the real worker, when ATTN_PYODIDE_DIST
  names a Pyodide distribution that includes numpy (none can be downloaded on machines without
  Pyodide's CDN; then it says so).
"""
from __future__ import annotations

import cProfile
import json
import os
import pstats
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import bench  # noqa: E402
from engine.figures import FigureJob, parse  # noqa: E402
from engine.tasks.grammar import GrammarConfig, train_grammar_model  # noqa: E402
from tests.browser import chromium  # noqa: E402 (the tests' launch: /usr/bin/chromium, the features no page uses off)

PAGE = "# Retrain\n\n/// figure | two-heads\n\nThe trained model.\n///\n"


def job_seconds(seed: int) -> dict:
    """One Retrain job on CPython, sliced as the worker slices it."""
    t0 = time.perf_counter()
    job = FigureJob(parse("two-heads", {"seed": seed}), "retrain")
    slices = 0
    while not job.advance(0.05)["done"]:
        slices += 1
    return {"seconds": round(time.perf_counter() - t0, 4), "slices": slices + 1}


def profile(top: int = 8) -> list[dict]:
    prof = cProfile.Profile()
    prof.enable()
    train_grammar_model(seed=0)
    prof.disable()
    stats = pstats.Stats(prof)
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
    total = sum(v[2] for v in stats.stats.values())
    return [{"function": f"{Path(f).name}:{line} {name}", "own_seconds": round(tt, 4), "share": round(tt / total, 3)}
            for (f, line, name), (_, _, tt, _, _) in rows]


def _site(pyodide_dist: Path | None) -> tuple[str, object]:
    from builder.build import Paths, build
    from builder.serve import static_server

    folder = Path(tempfile.mkdtemp())
    (folder / "content").mkdir()
    (folder / "content" / "site.toml").write_text('[site]\ntitle = "Bench"\n\n[[chapters]]\nfile = "01-retrain.md"\n')
    (folder / "content" / "01-retrain.md").write_text(PAGE)
    build(Paths.at(ROOT, folder / "content"), folder / "dist", pyodide_dist=pyodide_dist)
    server = static_server(folder / "dist")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/01-retrain.html", server


LONG_TASKS = """() => { window.__long = [];
  new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => e.duration)))
    .observe({ type: "longtask", buffered: false }); }"""


def _retrain(page, timeout_ms: float) -> float:
    """ms from pressing Retrain to the retrained model drawn (data-state live)."""
    fig = page.locator('[data-figure="two-heads"]')
    page.evaluate("(f) => f.dataset.state = 'prerendered'", fig.element_handle())
    t0 = time.perf_counter()
    fig.get_by_role("button", name="Retrain").click()
    page.wait_for_function("() => document.querySelector('[data-figure=\"two-heads\"]').dataset.state === 'live'",
                           timeout=timeout_ms)
    return round(1000 * (time.perf_counter() - t0), 1)


def page_long_tasks() -> dict:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import live_routes

    url, server = _site(None)
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p)
            context = browser.new_context(bypass_csp=True)
            for pattern, handler in live_routes():
                context.route(pattern, handler)
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector('[data-figure="two-heads"][data-state="prerendered"]')
            page.evaluate(LONG_TASKS)
            ms = [_retrain(page, 60_000) for _ in range(3)]
            long = page.evaluate("window.__long")
            browser.close()
    finally:
        server.shutdown()
    return {"retrain_ms_stand_in": ms, "long_tasks_over_50ms": len(long),
            "longest_task_ms": round(max(long), 1) if long else 0}


def pyodide() -> dict:
    dist = os.environ.get("ATTN_PYODIDE_DIST")
    if not dist or not any(Path(dist).glob("numpy-*.whl")):
        return {"skipped": "needs ATTN_PYODIDE_DIST: a Pyodide distribution folder with numpy's wheel "
                           "(Pyodide's CDN, its only source, is unreachable from this machine)"}
    from playwright.sync_api import sync_playwright

    url, server = _site(Path(dist))
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p)
            page = browser.new_page()
            page.goto(url)
            page.locator('[data-figure="two-heads"]').get_by_role("button", name="Retrain").focus()
            page.wait_for_selector('[data-runtime-status][data-state="ready"]', timeout=300_000)
            first = _retrain(page, 120_000)
            warm = [_retrain(page, 120_000) for _ in range(2)]
            browser.close()
    finally:
        server.shutdown()
    return {"first_retrain_ms": first, "warm_retrain_ms": warm}


def main() -> None:
    config = GrammarConfig()
    np_seconds, run = bench.time_numpy(0, config, 5)
    report = {"steps": config.steps, "cpython": {"numpy_float32_seconds": round(np_seconds, 4),
                                                   "final_loss": run.losses[-1]}}
    torch_result = bench.time_torch(0, config, 5)
    if torch_result is None:
        report["cpython"]["torch"] = "not importable; skipped (pip install torch==2.13.0 for the CPU build)"
    else:
        seconds, _, version, threads = torch_result
        report["cpython"].update({"torch_seconds": round(seconds, 4), "torch_version": version, "torch_threads": threads})
    report["job"] = {"first": job_seconds(11), "warm": job_seconds(12)}
    report["profile"] = profile()
    try:
        report["page"] = page_long_tasks()
    except ImportError as err:
        report["page"] = {"skipped": f"needs Playwright: {err}"}
    report["pyodide"] = pyodide()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
