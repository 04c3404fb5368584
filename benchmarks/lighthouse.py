#!/usr/bin/env python3
"""Print Lighthouse's scores for every page of the site (a benchmark, not a test: nothing is asserted).

Lighthouse (npm `lighthouse`, pinned in package.json) drives Debian's Chromium (/usr/bin/chromium,
through CHROME_PATH) with its mobile defaults: a Moto G class screen and simulated slow 4G and
CPU. The site is built into a temporary folder (or --site names a built one) and served on
127.0.0.1 by the server of `build.py serve`, with text gzipped as GitHub Pages sends it
(--no-gzip: as `build.py serve` sends it, uncompressed, a worst case for transfer-bound metrics).

    .venv/bin/python benchmarks/lighthouse.py [--site dist] [--baseline old-dist] [--page index.html ...] [--runs 3] [--no-gzip] [--json]

Scores vary from run to run (total blocking time most, with the machine's load): with --runs N
each page is audited N times and the run with the median performance score is printed. With
--baseline, each page of that other built site is audited too, alternating with this one's, so
both meet the same load; every row ends with the 1-minute load average when it started.
"""
from __future__ import annotations

import argparse
import functools
import gzip
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from builder.print_edition import CHROMIUM  # noqa: E402 (Debian's, as the tests and the print edition use it)

LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {"first-contentful-paint": "FCP", "largest-contentful-paint": "LCP", "total-blocking-time": "TBT",
           "cumulative-layout-shift": "CLS", "speed-index": "SI"}


TEXT = (".html", ".css", ".js", ".mjs", ".json", ".svg")


def gzip_server(folder: Path):
    """`build.py serve`'s static server, but answering gzip-accepting requests for text files with
    gzipped bodies, as a static host such as GitHub Pages does."""
    from builder.serve import _Handler, _Server

    class Handler(_Handler):
        def send_head(self):
            path = Path(self.translate_path(self.path.split("?")[0]))
            if "gzip" not in self.headers.get("Accept-Encoding", "") or path.suffix not in TEXT or not path.is_file():
                return super().send_head()
            body = gzip.compress(path.read_bytes(), mtime=0)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

    server = _Server(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def audit(url: str) -> dict:
    """One Lighthouse run on `url`: the category scores (0-100), the metrics, and what cost points."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run(["node", str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
                        f"--only-categories={','.join(CATEGORIES)}",
                        "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
                       check=True, env={**os.environ, "CHROME_PATH": str(CHROMIUM)}, timeout=300,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        result = json.loads(report.read_text())
    audits = result["audits"]
    lost = sorted({ref["id"] for cat in result["categories"].values() for ref in cat["auditRefs"]
                   if ref["weight"] > 0 and audits[ref["id"]]["score"] is not None and audits[ref["id"]]["score"] < 1})
    return {"scores": {k: round(result["categories"][k]["score"] * 100) for k in CATEGORIES},
            "metrics": {short: audits[key].get("displayValue", "") for key, short in METRICS.items()},
            "lost": lost}


def audit_with_load(url: str) -> dict:
    return {**audit(url), "load": os.getloadavg()[0]}


def median_run(runs: list[dict]) -> dict:
    """The run whose performance score is the median (the lower middle one for an even count)."""
    ordered = sorted(runs, key=lambda r: r["scores"]["performance"])
    return {**ordered[(len(ordered) - 1) // 2], "performance_runs": [r["scores"]["performance"] for r in runs]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one into a temporary folder)")
    parser.add_argument("--baseline", type=Path, help="another built site, audited alternately with this one")
    parser.add_argument("--page", action="append", help="a page to audit (default: every .html page)")
    parser.add_argument("--runs", type=int, default=1, help="audits per page; the median run is printed")
    parser.add_argument("--no-gzip", action="store_true", help="serve text uncompressed, as build.py serve does")
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
        sites = {**({"baseline": args.baseline} if args.baseline else {}), "": site}
        servers = {key: static_server(folder) if args.no_gzip else gzip_server(folder) for key, folder in sites.items()}
        bases = {key: f"http://127.0.0.1:{server.server_address[1]}/" for key, server in servers.items()}
        pages = args.page or sorted(p.name for p in site.glob("*.html"))
        results: dict[str, dict] = {}
        try:
            for page in pages:
                runs: dict[str, list] = {key: [] for key in sites}
                for _ in range(max(1, args.runs)):
                    for key in sites:
                        runs[key].append(audit_with_load(bases[key] + page))
                for key in sites:
                    results[f"{page} ({key})" if key else page] = median_run(runs[key])
        finally:
            for server in servers.values():
                server.shutdown()
                server.server_close()
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"{'page':44} {'perf':>4} {'a11y':>4} {'bp':>4} {'seo':>4}  " + "  ".join(METRICS.values())
          + "  lost points on  (performance per run)  load")
    for page, r in results.items():
        s = r["scores"]
        print(f"{page:44} {s['performance']:>4} {s['accessibility']:>4} {s['best-practices']:>4} {s['seo']:>4}  "
              + "  ".join(r["metrics"].values()) + "  " + (", ".join(r["lost"]) or "-")
              + f"  {r['performance_runs']}  {r['load']:.1f}")


if __name__ == "__main__":
    main()
