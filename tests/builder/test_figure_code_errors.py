"""Mistakes in a figure's own code, and a chapter site.toml leaves out: one `path:line` message each,
from `build` and `check`, never a traceback unless asked for (--traceback)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builder.errors import BuildError
from builder.site_config import load_site_config
from tests.builder.helpers import one_chapter_site
from tests.conftest import ROOT

FIGURE = "# A chapter\n\nText.\n\n/// figure | softmax-temperature\n\nA caption.\n///\n"


@pytest.fixture
def repo(tmp_path) -> Path:
    """A copy of the code a test may break, with a one-chapter content folder."""
    repo = tmp_path / "repo"
    for name in ("builder", "engine", "theme"):
        shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(ROOT / "build.py", repo / "build.py")
    (repo / "node_modules").symlink_to(ROOT / "node_modules")
    if (ROOT / ".venv-pyodide").exists():
        (repo / ".venv-pyodide").symlink_to(ROOT / ".venv-pyodide")
    one_chapter_site(repo / "content", FIGURE)
    return repo


def _run(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "build.py", *args], cwd=repo, capture_output=True, text=True, timeout=300)


def _break(path: Path, after: str, line: str) -> int:
    """Insert `line` (indented like the next one) after the line starting with `after`; its number."""
    lines = path.read_text().splitlines(keepends=True)
    i = next(i for i, ln in enumerate(lines) if ln.startswith(after)) + 1
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    lines.insert(i, indent + line + "\n")
    path.write_text("".join(lines))
    return i + 1


@pytest.mark.parametrize("command", [[], ["check"]])
@pytest.mark.parametrize("code, error", [("{}['oops']", "KeyError: 'oops'"), ("def oops(:", "SyntaxError: invalid syntax")],
                         ids=["raises", "does not parse"])
def test_a_model_that_raises_names_the_chapter_line_and_the_model_line(repo, command, code, error):
    line = _break(repo / "engine" / "figures" / "softmax_temperature.py", "def compute(", code)
    done = _run(repo, *command)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"content/01-test.md:5: figure 'softmax-temperature': "
                           f"engine/figures/softmax_temperature.py:{line}: {error}\n")
    shown = _run(repo, *command, "--traceback")
    assert shown.returncode == 1 and "Traceback (most recent call last)" in shown.stderr
    assert shown.stderr.endswith(done.stderr)


def test_a_model_that_does_not_parse_read_by_an_expression_is_one_line(repo):
    line = _break(repo / "engine" / "figures" / "softmax_temperature.py", "def compute(", "def oops(:")
    (repo / "content" / "01-test.md").write_text("# A chapter\n\nIt is {= softmax-temperature.facts.t_min =}.\n")
    done = _run(repo, "check")  # read while the chapter is scanned, before any directive is
    assert done.returncode == 1 and done.stderr == (f"engine/figures/softmax_temperature.py:{line}: SyntaxError: "
                                                    "invalid syntax (--traceback prints the whole traceback)\n")


def test_a_fallback_that_raises_and_a_quoted_number_name_their_code_too(repo):
    line = _break(repo / "builder" / "fallbacks" / "softmax_temperature.py", "def draw(", "raise ValueError('no axes')")
    done = _run(repo, "check")
    assert done.stderr == (f"content/01-test.md:5: figure 'softmax-temperature': "
                           f"builder/fallbacks/softmax_temperature.py:{line}: ValueError: no axes\n")
    shutil.copy(ROOT / "builder" / "fallbacks" / "softmax_temperature.py", repo / "builder" / "fallbacks")
    line = _break(repo / "engine" / "figures" / "softmax_temperature.py", "def facts(", "1 / 0")
    (repo / "content" / "01-test.md").write_text("# A chapter\n\nIt is {= softmax-temperature.facts.t_min =}.\n")
    done = _run(repo, "check")
    assert done.stderr == (f"content/01-test.md:3: figure 'softmax-temperature': "
                           f"engine/figures/softmax_temperature.py:{line}: ZeroDivisionError: division by zero\n")


def test_a_view_that_does_not_parse_is_a_build_error_at_its_line_and_column(repo):
    view = repo / "theme" / "figures" / "softmax-temperature.js"
    lines = view.read_text().splitlines(keepends=True)
    lines[11] = "  const broken = ;\n" + lines[11]
    view.write_text("".join(lines))
    for command in ([], ["check"]):
        done = _run(repo, *command)
        assert done.returncode == 1
        assert done.stderr == 'theme/figures/softmax-temperature.js:12:18: Unexpected ";"\n'
    assert not (repo / "dist").exists()


def test_a_chapter_missing_from_site_toml_names_the_lines_to_add(tmp_path):
    content = one_chapter_site(tmp_path / "content", "# One\n")
    (content / "02-two.md").write_text("# Two\n")
    (content / "_draft.md").write_text("# Not yet\n")
    with pytest.raises(BuildError) as err:
        load_site_config(content)
    assert err.value.path == content / "02-two.md"
    assert 'add the lines [[chapters]] and file = "02-two.md" there' in str(err.value)
    assert "site.toml" in str(err.value)
    (content / "02-two.md").unlink()
    assert [e.path.name for e in load_site_config(content).chapters] == ["01-test.md"]
