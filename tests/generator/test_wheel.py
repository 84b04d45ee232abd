"""Building: sdist, then a wheel from that sdist, carries fresh rule data and no runtime deps."""

from __future__ import annotations

import email
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
