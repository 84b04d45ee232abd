"""Building: sdist, then a wheel from that sdist, carries fresh rule data and no runtime deps."""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import NamedTuple

import pytest

from generator import digest_inputs

ROOT = Path(__file__).resolve().parents[2]

# Builds an sdist and a wheel: seconds of work (`-m "not slow"` leaves it out).
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    out = tmp_path_factory.mktemp("dist")
    # Build from a copy so the checkout is never touched by the build.
    source = tmp_path_factory.mktemp("src") / "project"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv*",
            "dist",
            "*.egg-info",
            "__pycache__",
            ".pytest_cache",
            ".hypothesis",
            ".ruff_cache",
            "test-artifacts",
        ),
    )
    # Make the copy's module stale, as after a rule edit without `python -m generator`:
    # the hook must regenerate it (without the timed run) for the sdist, then only
    # confirm the digest when it builds the wheel from that sdist.
    rule = next((source / "rules-src" / "rules").glob("*.md"))
    rule.write_text(rule.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.fail(f"the build failed ({done.returncode}):\n{done.stdout}\n{done.stderr}", pytrace=False)
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return Built(sdist, wheel, digest_inputs(source), done.stdout + done.stderr)


class Built(NamedTuple):
    sdist: Path
    wheel: Path
    digest: str  # of the copy's sources, which differ from the checkout's
    output: str


def test_sdist_carries_everything_the_hook_needs(built: Built) -> None:
    sdist = built.sdist
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in (
        "build/hatch_hook.py",
        "generator/__main__.py",
        "templates/rules_data.py.j2",
        "rules-src/catalog.yaml",
        "src/writing_rules/_rules_data.py",
    ):
        assert needed in names, needed


def test_wheel_carries_a_fresh_module_and_no_runtime_requirements(built: Built) -> None:
    wheel = built.wheel
    with zipfile.ZipFile(wheel) as archive:
        module = archive.read("writing_rules/_rules_data.py").decode("utf-8")
        (metadata_name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = email.message_from_bytes(archive.read(metadata_name))
        names = archive.namelist()
    assert built.digest in module.splitlines()[2]
    requirements = metadata.get_all("Requires-Dist") or []
    # The one exception: tomli reads configuration files on Python 3.10 (3.11+ has tomllib).
    runtime = [requirement for requirement in requirements if "extra ==" not in requirement]
    # Build backends write the marker with either quote ("tomli>=1.1; python_version < '3.11'").
    conditional = ["python_version < '3.11'" in requirement.replace('"', "'") for requirement in runtime]
    assert all(conditional) and all(requirement.startswith("tomli") for requirement in runtime), requirements
    assert not any(name.startswith(("generator/", "templates/", "rules-src/")) for name in names)
    # PEP 561: type checkers read the package's annotations only when this marker ships.
    assert "writing_rules/py.typed" in names


def test_the_artefacts_carry_the_packages_version(built: Built) -> None:
    # One source of truth: hatchling reads __version__ from the package (pyproject's dynamic version).
    import writing_rules

    version = writing_rules.__version__
    assert built.sdist.name == f"writing_rules-{version}.tar.gz"
    assert built.wheel.name == f"writing_rules-{version}-py3-none-any.whl"
    with zipfile.ZipFile(built.wheel) as archive:
        (metadata_name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = email.message_from_bytes(archive.read(metadata_name))
    assert metadata["Version"] == version


def test_hook_regenerates_a_stale_module_without_the_timed_run_then_only_confirms(built: Built) -> None:
    # sdist from the edited checkout: regenerated; wheel from that sdist: confirmed.
    assert "regenerated src/writing_rules/_rules_data.py without the timed run" in built.output
    assert f"rule data is current ({built.digest[:12]}" in built.output


def test_the_wheel_carries_the_pack_compiler_under_its_own_name(built: Built) -> None:
    with zipfile.ZipFile(built.wheel) as archive:
        names = set(archive.namelist())
        (metadata_name,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = email.message_from_bytes(archive.read(metadata_name))
    assert {
        "writing_rules_compiler/__init__.py",
        "writing_rules_compiler/pack.py",
        "writing_rules_compiler/schemas/pack.schema.json",
        "writing_rules_compiler/templates/pack_data.py.j2",
        "writing_rules_compiler/rules-src/catalog.yaml",
    } <= names
    assert not any("__pycache__" in name for name in names)
    authoring = sorted(
        requirement.split(";")[0].split(">=")[0].lower()
        for requirement in metadata.get_all("Requires-Dist") or []
        if "extra == 'authoring'" in requirement.replace('"', "'")
    )
    assert authoring == ["jinja2", "jsonschema", "pyyaml"], metadata.get_all("Requires-Dist")


def _venv_run(venv: Path, *command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` with the venv's scripts first on PATH, and nothing of the checkout on sys.path."""
    environment = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    environment["PATH"] = os.pathsep.join([str(scripts), environment.get("PATH", "")])
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=environment, check=False)


def test_installed_with_the_authoring_extra_pack_works_outside_the_checkout(built: Built, tmp_path: Path) -> None:
    """A fresh venv: the wheel alone says what to install; with the extra, new/test/build work as in a checkout."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = str(venv / ("Scripts" if os.name == "nt" else "bin") / "python")
    work = tmp_path / "work"  # outside the checkout
    work.mkdir()
    quiet = ("--disable-pip-version-check", "--no-input", "--quiet")
    done = _venv_run(venv, python, "-m", "pip", "install", *quiet, "--no-deps", str(built.wheel), cwd=work)
    assert done.returncode == 0, done.stdout + done.stderr
    done = _venv_run(venv, "writing-rules", "pack", "new", "acme", cwd=work)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "writing-rules pack: error: the pack commands need the authoring extra (jinja2, PyYAML, jsonschema; "
        "missing: jinja2, PyYAML, jsonschema): pip install 'writing-rules[authoring]'\n"
    )
    assert list(work.iterdir()) == []
    done = _venv_run(venv, "writing-rules", "pack", "build", "--help", cwd=work)  # help needs no extra
    assert done.returncode == 0 and "--no-timing" in done.stdout, done.stderr

    done = _venv_run(venv, python, "-m", "pip", "install", *quiet, f"{built.wheel}[authoring]", cwd=work)
    if done.returncode != 0:
        if os.environ.get("CI") == "true":
            pytest.fail(f"cannot install the authoring extra:\n{done.stdout}\n{done.stderr}", pytrace=False)
        pytest.skip(f"cannot install jinja2, PyYAML and jsonschema here (no index?): {done.stderr.strip()[-300:]}")
    where = _venv_run(
        venv, python, "-c", "import writing_rules, writing_rules_compiler as c; print(c.__file__)", cwd=work
    )
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout + where.stderr  # the installed compiler

    done = _venv_run(venv, "writing-rules", "pack", "new", "acme", cwd=work)
    assert (done.returncode, done.stdout) == (0, "wrote 3 files into acme; next: writing-rules pack build acme\n")
    done = _venv_run(venv, "writing-rules", "pack", "test", "acme", cwd=work)
    assert done.returncode == 0 and done.stdout.startswith("acme: 2 rule(s), every example holds"), done.stderr
    done = _venv_run(venv, "writing-rules", "pack", "build", "acme", cwd=work)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wrote acme/_pack_data.py (1 pattern(s) timed, 1 of 1 term(s) checked;")
    # The checkout's compiler builds the same scaffold into the same bytes: it is one compiler.
    from generator import build_pack, new_pack

    new_pack(tmp_path / "here" / "acme")
    build_pack(tmp_path / "here" / "acme")
    for name in ("_pack_data.py", "verdicts.txt"):
        assert (work / "acme" / name).read_bytes() == (tmp_path / "here" / "acme" / name).read_bytes(), name
    code = "from writing_rules.packs import load_pack; print(*sorted(load_pack('acme').rules))"
    loaded = _venv_run(venv, python, "-c", code, cwd=work)
    assert loaded.stdout == "acme/no-simply acme/terms\n", loaded.stderr
