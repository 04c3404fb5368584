#!/usr/bin/env python3
"""How long an author waits to hear of each everyday mistake, before (main's code) and after (this
tree's), by `build.py check`, `build.py` (build) and `build.py serve` (a benchmark: nothing is asserted).

Each mistake is made in a copy of the repository (its content, or a figure model), the command is
run, and the time is taken to the line that names the mistake (serve: from the save to the message
it prints as it shows it over the open page; for a model edit, to the build that follows). Serve's
times are on its warm cache (after its first build); the command line starts a process each time,
as an author does. The "before" tree is main's commit (git archive of BEFORE, never a checkout in
place), run with the same interpreter and node_modules, side by side in the same run. Also printed:
the time the edited model's own figures take to compute and draw, and the machine's load.

With --store DIR (a figure store, builder/figure_store.py: .cache/figures after a build), every
process of a tree whose build.py reads ATTN_FIGURE_STORE starts from the figures it holds: the
command line's "warm cache". Its entries are keyed by the code they were made of, so each tree
finds only what its own code made, and an edited model is computed again. A tree older than the
variable keeps its own .cache/figures, or none.

usage: .venv/bin/python benchmarks/authoring.py [--before REV] [--only NAME,...] [--commands check,build,serve]
                                                [--trees after,before] [--store DIR]
"""
from __future__ import annotations

import argparse
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
CHAPTER = "content/04-scores-to-weights.md"
MODEL = "engine/figures/softmax_temperature.py"
TIMEOUT = 600.0  # seconds one run may take before it is counted as not answered


def _replace(rel: str, old: str, new: str) -> Callable[[Path], None]:
    def make(tree: Path) -> None:
        path = tree / rel
        text = path.read_text()
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1))
    return make


def _add_file(rel: str, text: str) -> Callable[[Path], None]:
    return lambda tree: (tree / rel).write_text(text)


@dataclass
class Mistake:
    name: str
    make: Callable[[Path], None]
    said: str  # a regex the answer's line matches
    model: bool = False  # an edit to engine code, not to the content
    good: bool = False  # not a mistake: the answer is the build that follows


MISTAKES = [
    Mistake("link", _replace(CHAPTER, "# From scores to weights\n", "# From scores to weights\n\nSee [the mask](06-no-peeking-ahed.md).\n"),
            r"04-scores-to-weights\.md:3: broken link"),
    Mistake("citation", _replace(CHAPTER, "# From scores to weights\n", "# From scores to weights\n\nAs shown [@nosuchwork2017].\n"),
            r"04-scores-to-weights\.md:3: unknown citation"),
    Mistake("$", _replace(CHAPTER, "# From scores to weights\n", "# From scores to weights\n\nThe weight $w_i is small.\n"),
            r"04-scores-to-weights\.md:3: .*'\$'"),
    Mistake("expression", _replace(CHAPTER, "softmax-temperature.facts.t_min", "softmax-temperature.facts.tmin"),
            r"04-scores-to-weights\.md:71: .*has no 'tmin'"),
    Mistake("YAML", _replace(CHAPTER, "/// figure | softmax-temperature\n", "/// figure | softmax-temperature\n    temperature: [2.0\n"),
            r"04-scores-to-weights\.md:78: "),
    Mistake("option", _replace(CHAPTER, "/// figure | softmax-temperature\n", "/// figure | softmax-temperature\n    temprature: 2.0\n"),
            r"04-scores-to-weights\.md:78: .*temprature"),
    Mistake("unknown figure", _replace(CHAPTER, "/// figure | softmax-temperature\n", "/// figure | softmax-temprature\n"),
            r"04-scores-to-weights\.md:77: .*softmax-temprature"),
    Mistake("chapter not listed", _add_file("content/15-new-chapter.md", "# A new chapter\n\nText.\n"),
            r"15-new-chapter\.md"),
    Mistake("model exception", _replace(MODEL, "def compute(p: Params) -> dict:\n", "def compute(p: Params) -> dict:\n    {}['oops']\n"),
            r"softmax_temperature\.py:\d+: KeyError", model=True),
    Mistake("model edit", _replace(MODEL, "steps: int = field(50,", "steps: int = field(40,"), r"^built ", model=True, good=True),
]


def tree_of(rev: str | None, dest: Path) -> Path:
    """A copy of the repository's tracked files: at `rev` (git archive), or as they are in this tree."""
    dest.mkdir(parents=True)
    if rev:
        archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    else:
        files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        for rel in filter(None, files.decode().split("\0")):
            src = ROOT / rel
            if src.is_file():
                (dest / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / rel)
    for link in ("node_modules", ".venv-pyodide"):
        if (ROOT / link).exists():
            (dest / link).symlink_to((ROOT / link).resolve())
    return dest


class Lines:
    """A process's merged output, line by line, read on a thread."""

    def __init__(self, proc):
        self.proc, self.q = proc, queue.Queue()
        threading.Thread(target=lambda: [self.q.put(x.rstrip("\n")) for x in proc.stdout], daemon=True).start()

    def wait(self, pattern: str, seconds: float) -> tuple[float, str] | None:
        """(when, the line) of the first line matching, or None."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                line = self.q.get(timeout=0.5)
            except queue.Empty:
                if self.proc.poll() is not None and self.q.empty():
                    return None
                continue
            if re.search(pattern, line):
                return time.perf_counter(), line
        return None


def launcher(tree: Path, store: Path | None) -> list[str]:
    """How to run the tree's build.py (reading the figure store, when given: main() names it in the environment)."""
    return [PY, "-u", str(tree / "build.py")]


def run_command(tree: Path, command: str, mistake: Mistake, out: Path, figures: Path | None) -> tuple[float | None, str]:
    """Seconds until `build.py command` says the mistake (None if it never does), and what it said."""
    argv = [*launcher(tree, figures), *([] if command == "build" else [command]), "--content", str(tree / "content")]
    argv += ["--out", str(out), "--no-pdf"] if command == "build" else []
    t0 = time.perf_counter()
    try:
        done = subprocess.run(argv, cwd=tree, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "timed out"
    took = time.perf_counter() - t0
    said = (done.stdout + done.stderr).strip().splitlines()
    hit = next((line for line in said if re.search(mistake.said, line)), None)
    if mistake.good:
        return (took, "built") if done.returncode == 0 else (None, said[-1] if said else "")
    return (took if hit else None), (hit or (said[-1] if said else ""))


def _undo(tree: Path, pristine: Path, mistake: Mistake) -> None:
    """Put back the file(s) the mistake touched, from the untouched copy."""
    for rel in (CHAPTER, MODEL):
        if (tree / rel).read_bytes() != (pristine / rel).read_bytes():
            shutil.copy2(pristine / rel, tree / rel)
    extra = tree / "content" / "15-new-chapter.md"
    if extra.exists():
        extra.unlink()


def run_serve(tree: Path, pristine: Path, mistakes: list[Mistake], out: Path, results: dict, label: str,
              figures: Path | None) -> None:
    proc = subprocess.Popen([*launcher(tree, figures), "serve", "--port", "0", "--content", str(tree / "content"),
                             "--out", str(out)], cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = Lines(proc)
    try:
        if not lines.wait(r"^built ", TIMEOUT):
            print(f"{label} serve: no first build", flush=True)
            return
        for mistake in mistakes:
            t0 = time.perf_counter()
            mistake.make(tree)
            hit = lines.wait(mistake.said, TIMEOUT)
            results[(mistake.name, "serve", label)] = (hit[0] - t0 if hit else None, hit[1] if hit else "no answer")
            _undo(tree, pristine, mistake)
            if not lines.wait(r"^built ", TIMEOUT):  # back to a good build before the next mistake
                print(f"{label} serve: no good build after undoing {mistake.name}", flush=True)
                return
            time.sleep(1.0)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def own_figures_seconds(tree: Path) -> float:
    """The time the edited model's figures (every use of it in the content, with its options) take
    to compute, with their facts and drawings, in a process of their own."""
    code = f"""
import sys, time
sys.path.insert(0, {str(tree)!r})
from builder.build import Paths, Options, read_config, read_chapters, load_runtime
from builder.cache import BuildCache
from pathlib import Path
from engine.figures import name_of
paths = Paths.at(Path({str(tree)!r}))
config = read_config(Options(paths, load_runtime(paths, None), BuildCache()))
book = read_chapters(config)
uses = {{u.params for s in book.chapters for u in s.scanned.directives if u.name == "figure"}}
uses |= {{u.expression.params for s in book.chapters for u in s.scanned.expressions}}
mine = [p for p in uses if name_of(p) == "softmax-temperature"]
cache = BuildCache().figures
t0 = time.perf_counter()
for p in mine:
    cache.svg(cache.lookup(p))
print(time.perf_counter() - t0)
"""
    done = subprocess.run([PY, "-c", code], cwd=tree, capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def _say(results: dict, mistake: Mistake, command: str, label: str) -> None:
    took, said = results.get((mistake.name, command, label), (None, "not run"))
    print(f"{label} {command} {mistake.name}: {'no answer' if took is None else f'{took:.2f} s'}: {said[:160]}", flush=True)


def table(results: dict, mistakes: list[Mistake], commands: list[str], trees: list[str]) -> str:
    head = ["mistake"] + [f"{c} {t}" for c in commands for t in trees]
    rows = [head]
    for m in mistakes:
        row = [m.name]
        for c in commands:
            for t in trees:
                took = results.get((m.name, c, t), ("-",))[0]
                row.append("-" if took == "-" else ("no answer" if took is None else f"{took:.2f} s"))
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["| " + " | ".join(cell.ljust(w) for cell, w in zip(r, widths)) + " |" for r in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", default="f33f64c", help="main's commit to compare with (default f33f64c)")
    ap.add_argument("--only", default="", help="mistakes to make, by name, comma-separated (default: all ten)")
    ap.add_argument("--commands", default="check,build,serve")
    ap.add_argument("--trees", default="after,before")
    ap.add_argument("--store", type=Path, default=None, help="a figure store to start from (.cache/figures after a build)")
    args = ap.parse_args()
    mistakes = [m for m in MISTAKES if not args.only or m.name in args.only.split(",")]
    commands, trees = args.commands.split(","), args.trees.split(",")
    results: dict = {}
    print("load at start:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(), flush=True)
    with tempfile.TemporaryDirectory(prefix="authoring-") as tmp:
        tmp = Path(tmp)
        built = {}
        figures: dict[str, Path | None] = {label: args.store for label in trees}
        if args.store:
            os.environ["ATTN_FIGURE_STORE"] = str(args.store.resolve())  # the processes below inherit it
        for label in trees:
            built[label] = tree_of(args.before if label == "before" else None, tmp / label)
            tree_of(args.before if label == "before" else None, tmp / f"{label}-pristine")
        # after's serve and command line, then before's command line, then before's serve, whose
        # model edits restart it and recompute every figure (the slowest runs last)
        phases = [(label, command) for label in trees for command in commands
                  if not (label == "before" and command == "serve")]
        phases += [("before", "serve")] if "before" in trees and "serve" in commands else []
        for label, command in phases:
            tree, pristine = built[label], tmp / f"{label}-pristine"
            if command == "serve":
                run_serve(tree, pristine, mistakes, tmp / f"{label}-serve-out", results, label, figures[label])
            else:
                for mistake in [m for m in mistakes if not m.good]:  # a model edit on the command line is a whole build
                    mistake.make(tree)
                    try:
                        results[(mistake.name, command, label)] = run_command(tree, command, mistake, tmp / f"{label}-dist",
                                                                              figures[label])
                    finally:
                        _undo(tree, pristine, mistake)
                    _say(results, mistake, command, label)
            if command == "serve":
                for mistake in mistakes:
                    _say(results, mistake, command, label)
        own = own_figures_seconds(built[trees[0]])
    print()
    print(table(results, mistakes, commands, trees))
    print(f"\nthe edited model's own figures (softmax-temperature: compute, facts, drawing): {own:.2f} s")
    print("load at end:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
