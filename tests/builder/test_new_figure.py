"""`python3 dev.py new-figure NAME` (builder/new_figure.py): the skeleton, generated into a copy of
the repository, builds, is registered, and passes its own tests and the text contract as written."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builder import new_figure
from tests.conftest import ROOT

# Not the README's example (value-mix): an author who followed it has that name in FIGURES already.
NAME, MODULE = "scaffold-probe", "scaffold_probe"


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """A copy of the repository to scaffold in, removed after the module's tests."""
    repo = tmp_path_factory.mktemp("new-figure") / "repo"
    for name in ("builder", "engine", "theme", "tests", "content"):
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


def test_the_skeleton_builds_and_passes_its_tests(repo, prewarmed):
    made = _in(repo, "-m", "builder.new_figure", NAME, "--after", "softmax-bars")
    assert made.returncode == 0, made.stderr
    for path in (f"engine/figures/{MODULE}.py", f"builder/fallbacks/{MODULE}.py", f"theme/figures/{NAME}.js",
                 f"tests/engine/figures/test_{MODULE}.py", f"tests/browser/figures/test_{MODULE}.py"):
        assert (repo / path).is_file() and path in made.stdout, path
    assert f'    "softmax-bars",\n    "{NAME}",\n' in (repo / "engine" / "figures" / "__init__.py").read_text()
    # they read the model, and the skeleton is not live (it needs no ASK): no row to add
    for shared in ("tests/engine/figures/test_text.py", "tests/browser/test_real_python.py", "tests/browser/asks.py"):
        assert (repo / shared).read_text() == (ROOT / shared).read_text(), shared
    # the figures already in FIGURES computed once, here and in the skeleton's tests
    checked = _in(repo, *prewarmed.argv(repo / "build.py")[1:], "check")
    assert checked.returncode == 0, checked.stderr
    # one process (-n 0): a few tests, and this run's own workers already keep the cores busy
    tested = _in(repo, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                 f"tests/engine/figures/test_{MODULE}.py", f"tests/browser/figures/test_{MODULE}.py",
                 "tests/engine/figures/test_text.py", "tests/builder/test_live_figures.py",
                 "tests/builder/test_catalogue.py",  # its options, each with its doc=, are listed
                 "-k", "scaffold or probe or example or ASK or every_option", env=prewarmed.env())
    assert tested.returncode == 0, tested.stdout[-3000:]
    summary = tested.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary, summary
    if "skipped" in summary:  # the browser test needs Chromium: say so rather than pass silently
        assert "SKIPPED" in tested.stdout and ("Chromium" in tested.stdout or "chromium" in tested.stdout)


@pytest.mark.parametrize("name, after, words", [("Value_Mix", None, "not a figure name"),
                                                ("softmax-bars", None, "already in FIGURES"),
                                                (NAME, "softmax-bar", "--after 'softmax-bar' is not in FIGURES")])
def test_a_bad_or_taken_name_writes_nothing(tmp_path, name, after, words):
    (tmp_path / new_figure.REGISTRY).parent.mkdir(parents=True)
    shutil.copy(ROOT / new_figure.REGISTRY, tmp_path / new_figure.REGISTRY)
    with pytest.raises(SystemExit, match=words):
        new_figure.create(tmp_path, name, after)
    assert (tmp_path / new_figure.REGISTRY).read_text() == (ROOT / new_figure.REGISTRY).read_text()
    assert not (tmp_path / "theme").exists()
