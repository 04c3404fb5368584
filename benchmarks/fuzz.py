#!/usr/bin/env python3
"""Fuzz the build with hostile inputs and print what happened (a benchmark: nothing is asserted).

Each case is a content folder (the real one with one file replaced: a mutated chapter, figure
options, inline expressions, references.bib or site.toml), run in a forked process with a time
limit through the build's gather path: site.toml, references.bib, then every chapter (scan,
validate, compute, render). The outcome is a page, a clean BuildError, a traceback or a hang.

    .venv/bin/python benchmarks/fuzz.py [--cases 10000] [--seed 0] [--timeout 10] [--workers 2]

Failing inputs are saved under --keep (default /tmp/attention-fuzz) for reproduction.
"""
from __future__ import annotations

import argparse
import collections
import json
import multiprocessing as mp
import random
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.figures import FIGURES, module  # noqa: E402

CONTENT = ROOT / "content"
CHAPTERS = sorted(p.name for p in CONTENT.glob("[0-9][0-9]-*.md"))
MAX_MESSAGE = 400  # a longer error message probably echoes unbounded input

# Fragments an author (or an attacker) might write; mutations insert, repeat and nest them.
FRAGMENTS = [
    "", "Some prose.", "    indented", "- item", "> quote", "```", "~~~", "```python", "///", "////",
    "/// figure", "/// figuer | x", "`{= code =}`", "{=", "=}", "[@", "[@]", "[@bahdanau2015]",
    "[@vaswani2017; @nope]", "[^n]", "[^n]: A note.", "[^", "$", "$$", "$x^2$", "$\\frac{a}{b$",
    "$\\query{q}\\cdot k$", "$a^$", "\\$5 and $6", "$\\nope$", "$5 and $10", "# Heading", "| a | b |",
    "|---|---|", "<div>", "</div>", "<!--", "-->", "<script>alert(1)</script>", "[link](javascript:alert(1))",
    "[link](nope.md)", "[link](01-why-attention.md#nowhere)", "![img](x.png)", "*", "**", "_", "`", "``",
    "&amp;", "&#0;", "&#x110000;", "\\", "{= softmax-bars.facts.e :.2f =}", "{= nope.x =}",
    "{= softmax-temperature{temperature: 2}.facts.t_min =}", "    temperature: 2.0", "  temperature: 2.0",
    "/// figure | softmax-temperature", "/// figure | scaling-experiment", "> /// figure | softmax-bars",
    "1. item", "        /// figure | word-map", "\ufeff", "\u2028", "\u2029", "\x00", "\x0b", "\x1b", "\x85",
    "\ud800", "é", "🙂", "\t", "\r", "\r\n", "1e999", "1" + "0" * 400, "nan", "-- --- ...", "'quoted' \"twice\"",
    "/// figure | a" + " " * 3000 + "b", "> /// figure | softmax-bars" + " " * 3000 + "x",
    "".join("`" * k + "a" for k in range(200, 0, -1)), "[a](b" * 500, "a  ", "<http://a", "$$x$$", "${" * 500,
]
YAML_VALUES = [
    "1", "-1", "0", "2.5", "1e999", "1.0e999", "-1.0e999", ".inf", "-.inf", ".nan", "1" + "0" * 400,
    "1" + "0" * 5000, "0x10", "0o17", "1_000", "1:30", "true", "yes", "null", "~", "''", "x", "'x'", '"\\x00"',
    "[1, 2, 3]", "[1, 2]", "[cat, sat, mat]", "[cat, sat]", "[]", "{}", "{a: 1}", "[[1, 2], [3, 4]]",
    "2001-01-01", "2001-01-01T00:00:00Z", "!!binary aGk=", "!!set {a}", "!!python/object:os.system x",
    "&a [1, 2]", "*a", "!!str 5", "!!float 1", "[" * 200 + "]" * 200, "|\n      block", ">", "'unclosed",
    "[1, 2", "{a: [}", "@", "%", "`", "? a", "- 1",
]
FORMATS = ["", ":.2f", ":d", ":%", ":.0%", ":g", ":{}", ":300000000", ":.999f", ":>100", ":>101", ":,",
           ":x", ":=^20.3e", ":" + "9" * 50, ":\x00", ":.2q", ": .2f", ":" + "{" * 30]


def _names(rng: random.Random) -> str:
    return rng.choice([*FIGURES, "", "nope", "softmax_temperature", "a b", "-x", "x" * 300])


def _option_names(rng: random.Random, figure: str) -> str:
    fields = list(module(figure).Params.__dataclass_fields__) if figure in FIGURES else []
    return rng.choice([*fields, *fields, "x", "1", "true", "", "a b", "<b>", "k" * 100])


def mutate_chapter(rng: random.Random) -> tuple[str, str]:
    """A real chapter with a few random insertions, repetitions, deletions and byte changes."""
    name = rng.choice(CHAPTERS)
    lines = (CONTENT / name).read_text().split("\n")
    for _ in range(rng.randint(1, 6)):
        op = rng.random()
        at = rng.randrange(len(lines) + 1)
        if op < 0.35:
            lines.insert(at, rng.choice(FRAGMENTS))
        elif op < 0.5:  # a fragment repeated, inline or as lines: deep nesting, long lines
            frag = rng.choice(FRAGMENTS)
            n = rng.choice([2, 10, 100, 1000, 5000])
            lines.insert(at, frag * n if rng.random() < 0.6 else "\n".join([frag] * n))
        elif op < 0.6 and lines:
            del lines[rng.randrange(len(lines))]
        elif op < 0.7 and lines:  # change the indentation of a line
            i = rng.randrange(len(lines))
            lines[i] = " " * rng.choice([0, 1, 2, 3, 4, 5, 8]) + lines[i].lstrip()
        elif op < 0.8 and lines:  # a random character inside a line
            i = rng.randrange(len(lines))
            j = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:j] + rng.choice("$[]{}=`*_<>&\\/|:^@#-\x01\x7f\u2028") + lines[i][j:]
        elif op < 0.9 and lines:  # cut a line short
            i = rng.randrange(len(lines))
            lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
        elif op < 0.95:
            lines.insert(at, expression(rng))
        else:
            lines.insert(at, figure_block(rng))
    return name, "\n".join(lines)


def figure_block(rng: random.Random) -> str:
    name = _names(rng)
    options = [f"{' ' * rng.choice([4, 4, 4, 2, 6])}{_option_names(rng, name)}: {rng.choice(YAML_VALUES)}"
               for _ in range(rng.randint(0, 4))]
    close = rng.choice(["///", "///", "////", ""])
    return "\n".join([f"/// figure | {name}", *options, "", "Caption with $x$.", close])


def expression(rng: random.Random) -> str:
    name = _names(rng)
    params = ""
    if rng.random() < 0.5:
        pairs = ", ".join(f"{_option_names(rng, name)}: {rng.choice(YAML_VALUES)}" for _ in range(rng.randint(0, 3)))
        params = "{" + pairs + "}"
    path = rng.choice([".facts.t_min", ".facts.e", ".params.steps", ".labels.0", ".labels.-1", ".labels.99",
                       ".by_d.512.unscaled", ".x.y", ".facts", "." + "a" * 200, ".0.0.0"])
    return f"Value {{= {name}{params}{path} {rng.choice(FORMATS)} =}} here."


def chapter_with_options(rng: random.Random) -> tuple[str, str]:
    blocks = [figure_block(rng) if rng.random() < 0.7 else expression(rng) for _ in range(rng.randint(1, 4))]
    return CHAPTERS[0], "# Options\n\n" + "\n\n".join(blocks) + "\n"


def chapter_with_expressions(rng: random.Random) -> tuple[str, str]:
    return CHAPTERS[0], "# Expressions\n\n" + "\n\n".join(expression(rng) for _ in range(rng.randint(1, 5))) + "\n"


BIB_FRAGMENTS = ["@misc{x,", "}", "{", "author = {A, B}", "title = {T}", "year = {2001}", "url = {https://x.org}",
                 "doi = {10.1/x}", "url = {javascript:alert(1)}", "@string{s = \"x\"}", "@comment{", "@preamble{\"x\"}",
                 "author = {" + "{" * 500 + "}" * 500 + "}", "title = {" + "x" * 100000 + "}", "year = {1e999}",
                 "author = {and and and}", "\x00", "@misc{vaswani2017, title={Dup}}", "crossref = {bahdanau2015}",
                 "editor = {E, F}", "author = {Others}", "%", "@", "=", ",", "\"", "#"]


def mutate_bibtex(rng: random.Random) -> tuple[str, str]:
    lines = (CONTENT / "references.bib").read_text().split("\n")
    for _ in range(rng.randint(1, 5)):
        at = rng.randrange(len(lines) + 1)
        if rng.random() < 0.6:
            lines.insert(at, rng.choice(BIB_FRAGMENTS))
        elif lines:
            i = rng.randrange(len(lines))
            j = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:j] + rng.choice(["{", "}", "\"", ",", "@", "=", "\\", ""]) + lines[i][j + 1:]
    return "references.bib", "\n".join(lines)


TOML_FRAGMENTS = ["[site]", "title = 1", "title = \"\"", "title = 1e999", "[[chapters]]", "file = 1",
                  "file = \"nope.md\"", "file = \"../../etc/passwd.md\"", "file = \"01-why-attention.md\"",
                  "file = \"/abs.md\"", "file = \"x.txt\"", "chapters = 5", "[chapters]", "number = 10000000000000000000",
                  "title = \"<script>\"", "\x00", "= =", "[", "title = \"\"\"", "author = [1, \"a\"]",
                  "description = {a = 1}", "file = \"01-why-attention.md\"\nfile = \"02-words-as-points.md\""]


def mutate_toml(rng: random.Random) -> tuple[str, str]:
    lines = (CONTENT / "site.toml").read_text().split("\n")
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(lines) + 1)
        if rng.random() < 0.7:
            lines.insert(at, rng.choice(TOML_FRAGMENTS))
        elif lines:
            del lines[rng.randrange(len(lines))]
    return "site.toml", "\n".join(lines)


GENERATORS = {"chapter": mutate_chapter, "options": chapter_with_options, "expression": chapter_with_expressions,
              "bibtex": mutate_bibtex, "toml": mutate_toml}


def make_case(seed: int, kinds: list[str]) -> tuple[str, str, str]:
    rng = random.Random(seed)
    kind = kinds[seed % len(kinds)]
    name, text = GENERATORS[kind](rng)
    return kind, name, text


def gather_all(content: Path, cache) -> int:
    """The build's gather path for the content, without the runtime and the templates: pages built."""
    from builder.build import gather_chapter
    from builder.references import load as load_bibliography
    from builder.site_config import load_site_config

    config = load_site_config(content)
    bibliography = load_bibliography(content)
    return len([gather_chapter(e, cache, bibliography) for e in config.chapters])


def _run(content: Path, cache, conn) -> None:
    from builder.errors import BuildError

    try:
        gather_all(content, cache)
        conn.send(("page", ""))
    except BuildError as err:
        text = str(err)
        problem = "error without line" if err.line is None and err.path.suffix == ".md" else (
            "long message" if len(err.message) > MAX_MESSAGE else "")
        conn.send(("error", problem + (": " + text[:200] if problem else "")))
    except BaseException as err:  # noqa: BLE001 - a traceback is what we are counting
        frames = traceback.extract_tb(err.__traceback__)
        ours = [f for f in frames if str(ROOT) in f.filename and "/.venv/" not in f.filename] or frames
        where = f"{Path(ours[-1].filename).name}:{ours[-1].lineno}" if ours else "?"
        conn.send(("traceback", f"{type(err).__name__} at {where}: {str(err)[:120]}"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--kinds", default=",".join(GENERATORS), help="comma-separated: " + ", ".join(GENERATORS))
    ap.add_argument("--keep", type=Path, default=Path(tempfile.gettempdir()) / "attention-fuzz")
    args = ap.parse_args(argv)
    kinds = args.kinds.split(",")

    from builder.figures import FigureCache

    cache = FigureCache()
    gather_all(CONTENT, cache)  # warm the figure cache once; every fork inherits it
    ctx = mp.get_context("fork")
    work = Path(tempfile.mkdtemp(prefix="fuzz-"))
    counts = collections.Counter()
    by_kind = collections.defaultdict(collections.Counter)
    signatures = collections.Counter()
    examples: dict[str, Path] = {}
    running: list = []
    t0 = time.perf_counter()

    def finish(seed, kind, proc, conn, started, folder):
        outcome, detail = "hang", f"no result after {args.timeout:g} s"
        if conn.poll():
            outcome, detail = conn.recv()
        elif proc.is_alive():
            proc.kill()
        proc.join()
        if outcome == "error" and detail:
            outcome = "unclean error"
        counts[outcome] += 1
        by_kind[kind][outcome] += 1
        if outcome not in ("page", "error"):
            sig = f"{kind}: {outcome}: {detail.split(': ')[0] if outcome == 'traceback' else detail[:80]}"
            signatures[sig] += 1
            if sig not in examples:
                keep = args.keep / f"case-{seed}"
                shutil.rmtree(keep, ignore_errors=True)
                shutil.copytree(folder, keep)
                (keep / "OUTCOME.txt").write_text(f"{outcome}: {detail}\n")
                examples[sig] = keep
        shutil.rmtree(folder, ignore_errors=True)

    for seed in range(args.seed, args.seed + args.cases):
        kind, name, text = make_case(seed, kinds)
        folder = work / f"c{seed}"
        shutil.copytree(CONTENT, folder)
        (folder / name).write_bytes(text.encode("utf-8", "surrogatepass"))
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_run, args=(folder, cache, send))
        proc.start()
        send.close()
        running.append((seed, kind, proc, recv, time.perf_counter(), folder))
        while len(running) >= args.workers:
            for item in list(running):
                seed_, kind_, proc_, conn_, started, folder_ = item
                if conn_.poll() or not proc_.is_alive() or time.perf_counter() - started > args.timeout:
                    running.remove(item)
                    finish(seed_, kind_, proc_, conn_, started, folder_)
            time.sleep(0.002)
    for item in running:
        seed_, kind_, proc_, conn_, started, folder_ = item
        conn_.poll(max(0.0, args.timeout - (time.perf_counter() - started)))
        finish(seed_, kind_, proc_, conn_, started, folder_)
    shutil.rmtree(work, ignore_errors=True)

    report = {
        "cases": args.cases, "seconds": round(time.perf_counter() - t0, 1),
        "pages built": counts["page"], "clean errors": counts["error"],
        "unclean errors (no line, or message over %d chars)" % MAX_MESSAGE: counts["unclean error"],
        "tracebacks": counts["traceback"], "hangs": counts["hang"],
        "by kind": {k: dict(v) for k, v in sorted(by_kind.items())},
        "first signatures": [f"{n} x {sig} (example: {examples[sig]})" for sig, n in signatures.most_common(12)],
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
