#!/usr/bin/env python3
"""Build the attention explainer from content/ into dist/ (CLI only; the work is in builder/).

    python build.py [--out DIR] [--pyodide-dist DIR] [--no-pdf]
                                                          build the site and the print edition's PDF
    python build.py serve [--port N]                      build, serve, rebuild on change (no PDF)
    python build.py check                                 validate without writing
    python build.py fetch-runtime [--out DIR] [--url URL] a Pyodide distribution folder for --pyodide-dist:
                                                          the pinned core and numpy from the official release
    python build.py catalogue [--out DIR]                 every figure, option, grader and expression path an
                                                          author can use, as one page (.cache/catalogue/index.html)

`python` is the venv's (.venv/bin/python); `python3 dev.py build|serve|check` sets it up first.
An error is one `path:line: message`; where a figure's own code raised, --traceback adds Python's traceback.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
# What build, check, catalogue and serve computed of the figures, found again by the next run from the
# same code and inputs (builder/figure_store.py); STORE_ENV names another folder (a test run's, which
# its processes share); None: every run computes every figure.
STORE_ENV = "ATTN_FIGURE_STORE"
FIGURE_STORE: Path | None = Path(os.environ.get(STORE_ENV) or ROOT / ".cache" / "figures")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Build the attention explainer.")
    ap.add_argument("command", nargs="?", default="build", choices=("build", "serve", "check", "fetch-runtime", "catalogue"))
    ap.add_argument("--out", type=Path, default=None,
                    help="output folder (default: dist/; for serve .cache/serve/, so a served build never "
                         "replaces a real one; for fetch-runtime .cache/pyodide/; for catalogue .cache/catalogue/)")
    ap.add_argument("--url", default=None, help="fetch-runtime: the release archive (default: the official "
                                                "pyodide-<version>.tar.bz2 of the pinned version)")
    ap.add_argument("--content", type=Path, default=None, help="content folder (default: content/)")
    ap.add_argument("--pyodide-dist", type=Path, default=None,
                    help="a Pyodide distribution folder to vendor the core and numpy from (offline reading)")
    ap.add_argument("--port", type=int, default=8000, help="port for serve (default 8000; 0 picks a free one)")
    ap.add_argument("--no-pdf", action="store_true",
                    help="build: skip the PDF of the print edition (Chromium prints it, which takes seconds)")
    ap.add_argument("--traceback", action="store_true",
                    help="with an error in a figure's code, also print the Python traceback")
    args = ap.parse_args(argv)

    from builder.build import Paths, build, check
    from builder.errors import BuildError, describe

    paths = Paths.at(ROOT, args.content)
    store = None
    if FIGURE_STORE is not None and args.command in ("build", "check", "catalogue", "serve"):
        from builder.figure_store import FigureStore
        # the series' own build keeps what it makes in models/; a book elsewhere (a test's) only reads it
        store = FigureStore(FIGURE_STORE, ROOT, kept=ROOT / "models",
                            keep=paths.content.resolve() == (ROOT / "content").resolve(),
                            follows_edits=args.command == "serve")  # serve reloads the code it runs
        store.prune()
    try:
        if args.command == "fetch-runtime":
            from builder.fetch import fetch_runtime
            folder = fetch_runtime(args.out or ROOT / ".cache" / "pyodide", paths.node_modules, args.url)
            print(f"Pyodide distribution in {folder}: build with --pyodide-dist {folder}", flush=True)
            return 0
        if args.command == "catalogue":
            from builder.catalogue import write
            page = write(paths, args.out or ROOT / ".cache" / "catalogue", store=store)
            print(f"catalogue: {page.resolve().as_uri()}", flush=True)
            if store:
                print(store.report(), flush=True)
            return 0
        if args.command == "serve":
            args.out = args.out or ROOT / ".cache" / "serve"
            from builder.serve import serve
            return serve(paths, args.out, args.port, args.pyodide_dist, store)
        args.out = args.out or ROOT / "dist"
        t0 = time.perf_counter()
        if args.command == "check":
            site = check(paths, args.pyodide_dist, store)
            for warning in site.warnings:  # not errors: e.g. works no chapter cites yet
                print(warning, file=sys.stderr)
            print(f"ok: {len(site.files) + len(site.copies)} files would be written", flush=True)
            for note in site.notes:
                print(note, flush=True)
        else:
            site = build(paths, args.out, args.pyodide_dist, pdf=not args.no_pdf, store=store)
            print(f"built {len(site.files) + len(site.copies)} files into {args.out} "
                  f"in {time.perf_counter() - t0:.2f} s", flush=True)
            for note in site.notes:
                print(note, flush=True)
            if args.pyodide_dist is None:
                print("numpy is not vendored: live figures load it from Pyodide's CDN at read time; for a "
                      "site that also runs them offline, see docs/runtime.md 'Offline reading and numpy' "
                      "(build.py fetch-runtime, --pyodide-dist)", flush=True)
        if store:
            print(store.report(), flush=True)
    except BuildError as err:
        if args.traceback and err.__cause__ is not None:
            import traceback
            traceback.print_exception(err.__cause__)
        print(err, file=sys.stderr)
        return 1
    except Exception as err:  # code that does not import or fails outside a figure: its line, as serve says it
        if args.traceback:
            import traceback
            traceback.print_exception(err)
        print(f"{describe(err, ROOT)} (--traceback prints the whole traceback)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
