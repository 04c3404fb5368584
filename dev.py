#!/usr/bin/env python3
"""Set up everything this repo needs, then build the site or run the tests.

    python3 dev.py build [build.py options]   venv + pip + npm ci (what building needs), then build dist/
    python3 dev.py serve [--port N]           the same set-up, then build.py serve (rebuild, reload)
    python3 dev.py check                      the same set-up, then build.py check (no output written)
    python3 dev.py test [pytest options]      the set-up plus the test tools, then the whole test suite
    python3 dev.py setup                      only the set-up, test tools included
    python3 dev.py new-figure NAME            a working figure to start from (model, fallback, view, tests)
    python3 dev.py catalogue                  the set-up, then build.py catalogue: what an author can use, one page

Standard library only, so it runs on a fresh machine with just Python (3.11 or newer) and Node.
Each step is skipped when its inputs have not changed since it last ran, so repeated runs are quick.
Without a Python >= 3.12 (for pyodide-build) the site still builds: builder/lockfile.py says how.
"""

import sys

MINIMUM = (3, 11)
if sys.version_info < MINIMUM:  # first, before any set-up: one line, and no pip run for minutes
    sys.exit("dev.py needs Python %d.%d or newer; this is %s (%s): run it with python3.11 or newer"
             % (MINIMUM + (sys.version.split()[0], sys.executable)))

import hashlib
import os
import shutil
import subprocess
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PY = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _digest(*files: Path) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _run(cmd, **kw):
    print("+", " ".join(map(str, cmd)), flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT, **kw)


NEEDS = ("build", "test")  # what a command needs installed, least first: test adds the test tools


def _installed(folder: Path, digest: str, need: str) -> bool:
    """Whether `folder` holds what `need` asks for: a test set-up holds the build's too."""
    return any((folder / f".installed-{digest}-{n}").exists() for n in NEEDS[NEEDS.index(need):])


def _stamp(folder: Path, digest: str, need: str) -> None:
    for old in folder.glob(".installed-*"):
        old.unlink()
    (folder / f".installed-{digest}-{need}").touch()


def python_env(need: str) -> None:
    """A local venv with the project (editable), and for `test` its test extras (pytest,
    Hypothesis, Playwright)."""
    digest = _digest(ROOT / "pyproject.toml")
    if PY.exists() and _installed(VENV, digest, need):
        return
    if not PY.exists():
        print("+ python -m venv .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    target = ".[test]" if need == "test" else "."
    _run([PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", target])
    _stamp(VENV, digest, need)


TOOLS = ROOT / ".venv-pyodide"
TOOLS_REQUIREMENTS = ROOT / "builder" / "pyodide-tools.txt"


def _pyenv_versions() -> Path:
    return Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"


def _python_312() -> str | None:
    """A Python >= 3.12 for pyodide-build: on PATH, or one pyenv installed."""
    names = [shutil.which(n) for n in ("python3.13", "python3.12")]
    names += sorted(map(str, _pyenv_versions().glob("3.1[2-9]*/bin/python3")), reverse=True)
    for name in filter(None, names):
        ok = subprocess.run([name, "-c", "import sys; sys.exit(sys.version_info < (3, 12))"], capture_output=True)
        if ok.returncode == 0:
            return name
    return None


def pyodide_env() -> None:
    """pyodide-build's lockfile tooling in a venv of its own: it needs Python >= 3.12. Without one
    the build goes on without it (the engine wheel is loaded by URL) and says so."""
    stamp = TOOLS / f".installed-{_digest(TOOLS_REQUIREMENTS)}"
    if stamp.exists() or os.environ.get("ATTN_PYODIDE_CLI"):
        return
    python = _python_312()
    if python is None:
        print(f"dev.py: no Python >= 3.12 (python3.13 or python3.12 on PATH, or in {_pyenv_versions()}): "
              "set up without pyodide-build", flush=True)
        return
    _run([python, "-m", "venv", TOOLS])
    _run([TOOLS / "bin" / "pip", "install", "--quiet", "--disable-pip-version-check", "-r", TOOLS_REQUIREMENTS])
    for old in TOOLS.glob(".installed-*"):
        old.unlink()
    stamp.touch()


def node_env(need: str) -> None:
    """node_modules exactly as package-lock.json says: its dependencies (Pyodide's core, esbuild
    and CodeMirror for the editor, Pagefind), and for `test` the devDependencies (axe-core,
    Lighthouse) too."""
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("dev.py: npm not found; install Node.js and npm (https://nodejs.org/)")
    folder, digest = ROOT / "node_modules", _digest(ROOT / "package-lock.json")
    if _installed(folder, digest, need):
        return
    _run([npm, "ci", "--no-audit", "--no-fund", *(["--omit=dev"] if need == "build" else [])])
    _stamp(folder, digest, need)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("build", "serve", "check", "test", "setup", "new-figure", "catalogue"):
        print(__doc__)
        return 2
    if argv[0] == "new-figure":  # writes files only: the project's Python is all it needs
        python_env("build")
        return subprocess.call([PY, "-m", "builder.new_figure", *argv[1:]], cwd=ROOT)
    need = "build" if argv[0] in ("build", "serve", "check", "catalogue") else "test"  # setup: everything
    python_env(need)
    pyodide_env()
    node_env(need)
    if argv[0] in ("build", "serve", "check", "catalogue"):  # build.py's own commands, in the venv's Python
        command = [] if argv[0] == "build" else [argv[0]]
        try:
            return subprocess.call([PY, "build.py", *command, *argv[1:]], cwd=ROOT)
        except KeyboardInterrupt:  # Ctrl+C stops serve: build.py has already said goodbye
            return 0
    if argv[0] == "test":
        return subprocess.call([PY, "-m", "pytest", *argv[1:]], cwd=ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
