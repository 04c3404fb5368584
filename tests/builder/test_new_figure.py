"""`python3 dev.py new-figure NAME` (builder/new_figure.py): the skeleton, generated into a copy of
the repository, builds, is a figure with no list edited, and passes its own tests and the text contract
as written."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builder import new_figure
from tests.conftest import ROOT

# Not the README's example (value-mix): an author who followed it has that figure already.
NAME, MODULE = "scaffold-probe", "scaffold_probe"


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """A copy of the repository to scaffold in, removed after the module's tests."""
    repo = tmp_path_factory.mktemp("new-figure") / "repo"
    for name in ("builder", "engine", "theme", "tests", "content", "models"):  # models/: chapter 14's, not trained again
        shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("build.py", "pyproject.toml"):
        shutil.copy(ROOT / name, repo / name)
    for name in ("node_modules", ".venv-pyodide"):
        if (ROOT / name).exists():
            (repo / name).symlink_to(ROOT / name)
    yield repo
    shutil.rmtree(repo.parent)


def _in(repo: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=repo, capture_output=True, text=True, timeout=600, env=env)


def test_the_skeleton_builds_and_passes_its_tests(repo):
    made = _in(repo, "-m", "builder.new_figure", NAME)
    assert made.returncode == 0, made.stderr
    for path in (f"engine/figures/{MODULE}.py", f"builder/fallbacks/{MODULE}.py", f"theme/figures/{NAME}.js",
                 f"tests/engine/figures/test_{MODULE}.py", f"tests/browser/figures/test_{MODULE}.py"):
        assert (repo / path).is_file() and path in made.stdout, path
    found = _in(repo, "-c", "from engine.figures import FIGURES; print(' '.join(FIGURES))")
    assert NAME in found.stdout.split(), found.stderr  # found from its module
    # they read the model, and the skeleton is not live (it needs no ASK): no row to add
    for shared in ("engine/figures/__init__.py",  # no registry to edit
                   "tests/engine/figures/test_text.py", "tests/browser/test_real_python.py", "tests/browser/asks.py"):
        assert (repo / shared).read_text() == (ROOT / shared).read_text(), shared
    # the figures already in FIGURES read from this run's store, here and in the skeleton's tests
    checked = _in(repo, "-u", "build.py", "check")
    assert checked.returncode == 0, checked.stderr
    # one process (-n 0): a few tests, and this run's own workers already keep the cores busy
    tested = _in(repo, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                 f"tests/engine/figures/test_{MODULE}.py", f"tests/browser/figures/test_{MODULE}.py",
                 "tests/engine/figures/test_text.py", "tests/builder/test_live_figures.py",
                 "tests/builder/test_catalogue.py",  # its options, each with its doc=, are listed
                 "-k", "scaffold or probe or example or ASK or every_option")
    assert tested.returncode == 0, tested.stdout[-3000:]
    summary = tested.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary, summary
    if "skipped" in summary:  # the browser test needs Chromium: say so rather than pass silently
        assert "SKIPPED" in tested.stdout and ("Chromium" in tested.stdout or "chromium" in tested.stdout)


@pytest.mark.parametrize("name, words", [("Value_Mix", "not a figure name"),
                                         ("softmax-bars", "engine/figures/softmax_bars.py already exists"),
                                         ("params", "engine/figures/params.py already exists")])  # a module they share
def test_a_bad_or_taken_name_writes_nothing(tmp_path, name, words):
    (tmp_path / "engine" / "figures").mkdir(parents=True)
    for module in ("softmax_bars.py", "params.py"):
        shutil.copy(ROOT / "engine" / "figures" / module, tmp_path / "engine" / "figures" / module)
    before = sorted(tmp_path.rglob("*"))
    with pytest.raises(SystemExit, match=words):
        new_figure.create(tmp_path, name)
    assert sorted(tmp_path.rglob("*")) == before
