"""The Pages workflow: tests first, then the pinned runtime fetched and checked, then a vendored
build; its download step, run as written, refuses a stand-in archive that fails the pins."""
import io
import json
import shlex
import subprocess
import sys
import tarfile

import yaml

from builder.serve import static_server
from tests.conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


def _runs(job: dict) -> list[str]:
    return [step["run"] for step in job["steps"] if "run" in step]


def _workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def test_the_runtime_is_fetched_then_tested_then_built_and_deployed():
    """The live tests run against the very runtime the site then vendors and deploys."""
    jobs = _workflow()["jobs"]
    job = jobs["test-and-build"]
    runs = _runs(job)
    fetch = next(i for i, r in enumerate(runs) if "build.py fetch-runtime" in r)
    test = runs.index("bash .ci/run")  # the test command, browsers required
    build = next(i for i, r in enumerate(runs) if r.startswith("python3 dev.py build"))
    out = shlex.split(runs[fetch])[shlex.split(runs[fetch]).index("--out") + 1]
    assert fetch < test < build and shlex.split(runs[build])[-2:] == ["--pyodide-dist", out]
    assert job["env"]["ATTN_PYODIDE_DIST"].endswith("/" + out)  # what .ci/run tests with
    assert jobs["deploy"]["needs"] == "test-and-build"


def test_pull_requests_are_tested_not_deployed_and_only_deploy_may_write_pages():
    workflow = _workflow()
    on = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert "pull_request" in on and on["push"]["branches"] == ["main"]
    assert workflow["permissions"] == {"contents": "read"}
    assert workflow["concurrency"]["cancel-in-progress"] is False  # never a deploy stopped half-way
    jobs = workflow["jobs"]
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert "pull_request" in jobs["deploy"]["if"]
    assert all("permissions" not in job for name, job in jobs.items() if name != "deploy")
    upload = next(s for s in jobs["test-and-build"]["steps"] if "upload-pages-artifact" in s.get("uses", ""))
    assert "pull_request" in upload["if"]
    cached = [s["with"]["path"] for s in jobs["test-and-build"]["steps"] if "actions/cache" in s.get("uses", "")]
    assert "~/.cache/pip" in cached and ".cache/pyodide" in cached


def test_the_workflow_is_valid_for_github():
    """Against GitHub's workflow schema, as check-jsonschema vendors it (no network)."""
    done = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                           str(WORKFLOW)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_download_step_checks_what_it_downloads(tmp_path):
    jobs = _workflow()["jobs"]
    step = shlex.split(next(r for r in _runs(jobs["test-and-build"]) if "fetch-runtime" in r))
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
