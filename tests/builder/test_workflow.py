"""The Pages workflow: tests first, then the pinned runtime fetched and checked, then a vendored
build; its download step, run as written, refuses a stand-in archive that fails the pins."""
import io
import json
import shlex
import subprocess
import tarfile

import yaml

from builder.serve import static_server
from tests.conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


def _runs(job: dict) -> list[str]:
    return [step["run"] for step in job["steps"] if "run" in step]


def test_tests_run_before_a_vendored_build_is_deployed():
    jobs = yaml.safe_load(WORKFLOW.read_text())["jobs"]
    assert _runs(jobs["test"]) == ["bash .ci/run"]  # the test command, browsers required
    assert jobs["build"]["needs"] == "test" and jobs["deploy"]["needs"] == "build"
    runs = _runs(jobs["build"])
    fetch = next(i for i, r in enumerate(runs) if "build.py fetch-runtime" in r)
    build = next(i for i, r in enumerate(runs) if r.startswith("python3 dev.py build"))
    out = shlex.split(runs[fetch])[shlex.split(runs[fetch]).index("--out") + 1]
    assert fetch < build and shlex.split(runs[build])[-2:] == ["--pyodide-dist", out]


def test_the_download_step_checks_what_it_downloads(tmp_path):
    jobs = yaml.safe_load(WORKFLOW.read_text())["jobs"]
    step = shlex.split(next(r for r in _runs(jobs["build"]) if "fetch-runtime" in r))
    step[0] = str(ROOT / ".venv" / "bin" / "python")
    step[step.index("--out") + 1] = str(tmp_path / "pyodide")
    lock = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text())
    www = tmp_path / "www"
    www.mkdir()
    with tarfile.open(www / "release.tar.bz2", "w:bz2") as tar:  # a stand-in for the release
        data = b"not numpy"
        info = tarfile.TarInfo(f"pyodide/{lock['packages']['numpy']['file_name']}")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    server = static_server(www)
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/release.tar.bz2"
        done = subprocess.run([*step, "--url", url], capture_output=True, text=True, cwd=ROOT)
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 1, done.stdout
    assert "sha256 does not match the pinned pyodide-lock.json" in done.stderr
    assert not (tmp_path / "pyodide").exists()
