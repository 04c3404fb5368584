#!/usr/bin/env python3
"""Build the attention explainer from content/ into dist/ (CLI only; the work is in builder/).

    python build.py [--out DIR] [--pyodide-dist DIR]     build the site
    python build.py serve [--port N]                      build, serve, rebuild on change
    python build.py check                                 validate without writing

`python` is the venv's (.venv/bin/python); `python3 dev.py build|serve|check` sets it up first.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Build the attention explainer.")
    ap.add_argument("command", nargs="?", default="build", choices=("build", "serve", "check"))
    ap.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (default: dist/)")
    ap.add_argument("--content", type=Path, default=None, help="content folder (default: content/)")
    ap.add_argument("--pyodide-dist", type=Path, default=None,
                    help="a Pyodide distribution folder to vendor the core and numpy from (offline reading)")
    ap.add_argument("--port", type=int, default=8000, help="port for serve (default 8000; 0 picks a free one)")
    args = ap.parse_args(argv)

    from builder.build import Paths, build, check
    from builder.errors import BuildError

    paths = Paths.at(ROOT, args.content)
    try:
        if args.command == "serve":
            from builder.serve import serve
            return serve(paths, args.out, args.port, args.pyodide_dist)
        t0 = time.perf_counter()
        if args.command == "check":
            site = check(paths, args.pyodide_dist)
            for warning in site.warnings:  # not errors: e.g. works no chapter cites yet
                print(warning, file=sys.stderr)
            print(f"ok: {len(site.files) + len(site.copies)} files would be written", flush=True)
        else:
            site = build(paths, args.out, args.pyodide_dist)
            print(f"built {len(site.files) + len(site.copies)} files into {args.out} "
                  f"in {time.perf_counter() - t0:.2f} s", flush=True)
    except BuildError as err:
        print(err, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
