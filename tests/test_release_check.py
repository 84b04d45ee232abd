"""scripts/release-check.sh refuses a release whose version and changelog disagree, before building anything."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def checkout(tmp_path: Path, version: str, heading: str) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "release-check.sh", tmp_path / "scripts" / "release-check.sh")
    package = tmp_path / "src" / "writing_rules"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f'"""x"""\n\n__version__ = "{version}"\n', encoding="utf-8")
    (tmp_path / "CHANGELOG.md").write_text(f"# Changelog\n\n{heading}\n\n- a change\n", encoding="utf-8")
    return tmp_path


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(folder / "scripts" / "release-check.sh"), *args], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("version", "heading", "message"),
    [
        ("0.3.0", "## [0.2.0] - 2026-12-07", "does not name 0.3.0"),
        ("0.3.0", "## [0.3.0] - Unreleased", "still says 'Unreleased'"),
        ("0.3.0", "## Unreleased", "does not name 0.3.0"),
    ],
)
def test_a_version_the_changelog_does_not_release_is_refused(
    tmp_path: Path, version: str, heading: str, message: str
) -> None:
    done = run(checkout(tmp_path, version, heading))
    assert done.returncode == 1 and message in done.stderr
    assert not (tmp_path / "dist").exists()


def test_the_repositorys_version_and_changelog_pass_the_first_check() -> None:
    # The dry run's first step on the real checkout (the build itself is tests/generator/test_wheel.py).
    done = subprocess.run(["bash", "-n", str(ROOT / "scripts" / "release-check.sh")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    import writing_rules

    lines = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines()
    heading = next(line for line in lines if line.startswith("## ["))
    assert heading.startswith(f"## [{writing_rules.__version__}]")
