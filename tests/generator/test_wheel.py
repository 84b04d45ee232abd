"""Building: sdist, then a wheel from that sdist, carries fresh rule data and no runtime deps."""

from __future__ import annotations

import email
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from generator import digest_inputs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
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
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
        check=True,
        capture_output=True,
    )
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return sdist, wheel


def test_sdist_carries_everything_the_hook_needs(built: tuple[Path, Path]) -> None:
    sdist, _ = built
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


def test_wheel_carries_a_fresh_module_and_no_runtime_requirements(built: tuple[Path, Path]) -> None:
    _, wheel = built
    with zipfile.ZipFile(wheel) as archive:
        module = archive.read("writing_rules/_rules_data.py").decode("utf-8")
        (metadata_name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = email.message_from_bytes(archive.read(metadata_name))
        names = archive.namelist()
    assert digest_inputs(ROOT) in module.splitlines()[2]
    requirements = metadata.get_all("Requires-Dist") or []
    # The one exception: tomli reads configuration files on Python 3.10 (3.11+ has tomllib).
    runtime = [requirement for requirement in requirements if "extra ==" not in requirement]
    # Build backends write the marker with either quote ("tomli>=1.1; python_version < '3.11'").
    conditional = ["python_version < '3.11'" in requirement.replace('"', "'") for requirement in runtime]
    assert all(conditional) and all(requirement.startswith("tomli") for requirement in runtime), requirements
    assert not any(name.startswith(("generator/", "templates/", "rules-src/")) for name in names)
    # PEP 561: type checkers read the package's annotations only when this marker ships.
    assert "writing_rules/py.typed" in names
