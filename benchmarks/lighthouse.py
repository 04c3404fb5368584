#!/usr/bin/env python3
"""Print Lighthouse's scores for every page of the site (a benchmark, not a test: nothing is asserted).

Lighthouse (npm `lighthouse`, pinned in package.json) drives Debian's Chromium (/usr/bin/chromium,
through CHROME_PATH) with its mobile defaults: a Moto G class screen and simulated slow 4G and
CPU. The site is built into a temporary folder (or --site names a built one) and served on
127.0.0.1 by the same server as `build.py serve`, without compression; a host such as GitHub Pages
compresses text, so the figures here are a floor for transfer-bound metrics.

    .venv/bin/python benchmarks/lighthouse.py [--site dist] [--page index.html ...] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROMIUM = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {"first-contentful-paint": "FCP", "largest-contentful-paint": "LCP", "total-blocking-time": "TBT",
           "cumulative-layout-shift": "CLS", "speed-index": "SI"}


def audit(url: str) -> dict:
    """One Lighthouse run on `url`: the category scores (0-100), the metrics, and what cost points."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run(["node", str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
                        f"--only-categories={','.join(CATEGORIES)}",
                        "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
                       check=True, env={**os.environ, "CHROME_PATH": CHROMIUM}, timeout=300,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        result = json.loads(report.read_text())
    audits = result["audits"]
    lost = sorted({ref["id"] for cat in result["categories"].values() for ref in cat["auditRefs"]
                   if ref["weight"] > 0 and audits[ref["id"]]["score"] is not None and audits[ref["id"]]["score"] < 1})
    return {"scores": {k: round(result["categories"][k]["score"] * 100) for k in CATEGORIES},
            "metrics": {short: audits[key].get("displayValue", "") for key, short in METRICS.items()},
            "lost": lost}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one into a temporary folder)")
    parser.add_argument("--page", action="append", help="a page to audit (default: every .html page)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if not LIGHTHOUSE.is_file():
        sys.exit(f"{LIGHTHOUSE} is missing: run 'npm ci' (lighthouse is a dev dependency)")
    from builder.serve import static_server

    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            from builder.build import Paths, build
            site = Path(tmp) / "dist"
            build(Paths.at(ROOT), site)
        server = static_server(site)
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        pages = args.page or sorted(p.name for p in site.glob("*.html"))
        try:
            results = {page: audit(base + page) for page in pages}
        finally:
            server.shutdown()
            server.server_close()
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"{'page':32} {'perf':>4} {'a11y':>4} {'bp':>4} {'seo':>4}  " + "  ".join(METRICS.values()) + "  lost points on")
    for page, r in results.items():
        s = r["scores"]
        print(f"{page:32} {s['performance']:>4} {s['accessibility']:>4} {s['best-practices']:>4} {s['seo']:>4}  "
              + "  ".join(r["metrics"].values()) + "  " + (", ".join(r["lost"]) or "-"))


if __name__ == "__main__":
    main()
