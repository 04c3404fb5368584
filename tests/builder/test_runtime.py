"""Vendoring Pyodide: from the npm core, and from a distribution folder checked against its lock."""
import hashlib
import json
import shutil
import zipfile

import pytest

from builder.build import Paths, build
from builder.errors import BuildError
from builder.runtime import from_distribution, from_npm, loaded_files
from tests.conftest import ROOT
from tests.site_layout import pyodide_folder

NPM_CORE = ROOT / "node_modules" / "pyodide"
CORE_FILES = loaded_files(NPM_CORE)  # the pinned npm core: pyodide.mjs and what it loads


def fake_wheel(path, name):
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(f"{name}/__init__.py", "")
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def distribution(tmp_path):
    """A Pyodide distribution folder: the npm core plus a lock whose numpy needs another package."""
    folder = tmp_path / "pyodide-dist"
    folder.mkdir()
    for name in CORE_FILES:
        shutil.copyfile(NPM_CORE / name, folder / name)
    (folder / "package.json").write_text(json.dumps({"name": "pyodide", "version": "0.99.1"}))
    packages = {}
    for name, deps in (("numpy", ["helper-lib"]), ("helper-lib", []), ("unused", [])):
        file_name = f"{name.replace('-', '_')}-1.0-py3-none-any.whl"
        digest = fake_wheel(folder / file_name, name.replace("-", "_"))
        packages[name] = {"name": name, "version": "1.0", "file_name": file_name, "install_dir": "site",
                          "sha256": digest, "depends": deps, "imports": [name]}
    info = json.loads((NPM_CORE / "pyodide-lock.json").read_text())["info"]  # what pyodide-lock reads
    (folder / "pyodide-lock.json").write_text(json.dumps({"info": info, "packages": packages}))
    return folder


def test_npm_core_is_checked_and_loads_packages_from_the_cdn():
    rt = from_npm(ROOT / "node_modules")
    assert set(rt.files) == {f"pyodide/{n}" for n in CORE_FILES}
    assert rt.vendored == [] and rt.version in rt.package_base_url


def test_a_changed_npm_core_file_is_refused(tmp_path):
    fake = tmp_path / "node_modules" / "pyodide"
    shutil.copytree(NPM_CORE, fake)
    (fake / "pyodide.asm.wasm").write_bytes(b"\0asm-not-really")
    with pytest.raises(BuildError, match="sha256 differs"):
        from_npm(tmp_path / "node_modules")


def test_distribution_vendors_numpy_and_its_dependencies(distribution):
    rt = from_distribution(distribution)
    assert rt.version == "0.99.1"  # another version than the pinned npm one
    assert rt.vendored == ["helper-lib", "numpy"]
    assert "pyodide/numpy-1.0-py3-none-any.whl" in rt.files
    assert "pyodide/unused-1.0-py3-none-any.whl" not in rt.files
    assert rt.package_base_url is None


def test_full_build_with_a_distribution(distribution, tmp_path):
    out = tmp_path / "dist"
    build(Paths.at(ROOT), out, pyodide_dist=distribution)
    assert (pyodide_folder(out) / "helper_lib-1.0-py3-none-any.whl").is_file()
    config = json.loads((out / "runtime.json").read_text())
    assert config["pyodideVersion"] == "0.99.1" and config["packageBaseUrl"] is None
    assert config["vendored"] == ["helper-lib", "numpy"]


def test_a_wheel_with_the_wrong_hash_is_refused(distribution):
    (distribution / "helper_lib-1.0-py3-none-any.whl").write_bytes(b"tampered")
    with pytest.raises(BuildError, match="sha256 does not match") as err:
        from_distribution(distribution)
    assert "helper_lib-1.0" in str(err.value)


def test_a_missing_wheel_or_core_file_is_named(distribution):
    (distribution / "numpy-1.0-py3-none-any.whl").unlink()
    with pytest.raises(BuildError, match="numpy-1.0-py3-none-any.whl"):
        from_distribution(distribution)
    (distribution / "pyodide.asm.wasm").unlink()
    with pytest.raises(BuildError, match="missing pyodide.asm.wasm"):
        from_distribution(distribution)


def test_version_read_from_the_core_when_there_is_no_package_json(distribution):
    (distribution / "package.json").unlink()
    assert from_distribution(distribution).version == json.loads((NPM_CORE / "package.json").read_text())["version"]


def _layout(folder, module, module_text):
    """A stand-in for a Pyodide release whose pyodide.mjs loads `module` as its core (pyodide.asm.js,
    as the pinned 0.29 does, or pyodide.asm.mjs, as later releases do): the loader names the
    files it fetches, as the real one does."""
    for old in ("pyodide.asm.mjs", "pyodide.asm.js", "package.json"):
        (folder / old).unlink(missing_ok=True)
    (folder / "pyodide.mjs").write_text(
        f'const s = `${{indexURL}}{module}`; fetch(indexURL + "pyodide.asm.wasm");'
        'const z = indexURL + "python_stdlib.zip"; const l = indexURL + "pyodide-lock.json";')
    (folder / module).write_text(module_text)
    return folder


def _older_layout(folder, module_text='API.version="0.27.7";'):
    return _layout(folder, "pyodide.asm.js", module_text)


def _newer_layout(folder, module_text='API.version="314.0.7";'):
    return _layout(folder, "pyodide.asm.mjs", module_text)


def test_the_core_module_is_the_one_pyodide_mjs_loads(distribution):
    rt = from_distribution(_newer_layout(distribution))
    assert "pyodide/pyodide.asm.mjs" in rt.files and "pyodide/pyodide.asm.js" not in rt.files
    assert rt.version == "314.0.7"
    rt = from_distribution(_older_layout(distribution))
    core = {n for n in rt.files if not n.endswith(".whl")}
    assert core == {f"pyodide/{n}" for n in ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
                                             "python_stdlib.zip", "pyodide-lock.json")}
    assert rt.version == "0.27.7"  # read from the core module, there being no package.json


def test_full_build_with_either_layout(distribution, tmp_path):
    build(Paths.at(ROOT), tmp_path / "old", pyodide_dist=_older_layout(distribution))
    assert (pyodide_folder(tmp_path / "old") / "pyodide.asm.js").is_file()
    assert not (pyodide_folder(tmp_path / "old") / "pyodide.asm.mjs").exists()
    build(Paths.at(ROOT), tmp_path / "new", pyodide_dist=_newer_layout(distribution))
    assert (pyodide_folder(tmp_path / "new") / "pyodide.asm.mjs").is_file()
    assert not (pyodide_folder(tmp_path / "new") / "pyodide.asm.js").exists()


def test_a_loader_that_names_no_core_or_a_missing_file_is_refused(distribution):
    loader = distribution / "pyodide.mjs"
    loader.write_text('fetch("pyodide.asm.wasm"); "python_stdlib.zip"; "pyodide-lock.json"')
    with pytest.raises(BuildError, match="cannot tell which core"):
        from_distribution(distribution)
    _older_layout(distribution)
    (distribution / "pyodide.asm.js").unlink()
    with pytest.raises(BuildError, match="missing pyodide.asm.js"):
        from_distribution(distribution)


@pytest.mark.parametrize("where", ["absolute", "parent", "nested parent", "empty"])
def test_a_lock_file_name_that_is_not_a_plain_name_is_refused(distribution, tmp_path, where):
    """An absolute name would publish a local file; '../x' would write outside the output folder.
    Each target exists with the right sha256, so only the name check can refuse it."""
    outside = tmp_path / "outside.whl"
    digest = fake_wheel(outside, "outside")
    name = {"absolute": str(outside), "parent": "../outside.whl", "nested parent": "a/../../outside.whl",
            "empty": ""}[where]
    lock = json.loads((distribution / "pyodide-lock.json").read_text())
    lock["packages"]["helper-lib"].update(file_name=name, sha256=digest)
    (distribution / "pyodide-lock.json").write_text(json.dumps(lock))
    with pytest.raises(BuildError, match="only a plain file name"):
        from_distribution(distribution)


def test_a_malformed_lock_entry_is_an_error(distribution):
    lock = json.loads((distribution / "pyodide-lock.json").read_text())
    lock["packages"]["numpy"]["depends"] = "helper-lib"
    del lock["packages"]["helper-lib"]["sha256"]
    (distribution / "pyodide-lock.json").write_text(json.dumps(lock))
    with pytest.raises(BuildError, match="list of dependencies"):
        from_distribution(distribution)
    lock["packages"]["numpy"]["depends"] = ["helper-lib"]
    (distribution / "pyodide-lock.json").write_text(json.dumps(lock))
    with pytest.raises(BuildError, match="no sha256"):
        from_distribution(distribution)
