"""One version everywhere: the package, its installed metadata and the changelog's newest release."""

from __future__ import annotations

import importlib.metadata
import re
import sys
from pathlib import Path

import writing_rules

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]


def _newest_changelog_version() -> str:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    found = re.search(r"^## \[(\d+\.\d+\.\d+[^\]]*)\]", text, re.MULTILINE)
    assert found, "CHANGELOG.md has no '## [X.Y.Z] - date' heading"
    return found.group(1)


def test_the_changelogs_newest_heading_names_the_packages_version() -> None:
    assert _newest_changelog_version() == writing_rules.__version__


def test_the_installed_metadata_reports_the_packages_version() -> None:
    # An editable install records the version at install time: after a bump, reinstall (pip install -e .).
    assert importlib.metadata.version("writing-rules") == writing_rules.__version__


def test_pyproject_reads_the_version_from_the_package_only() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["hatch"]["version"]["path"] == "src/writing_rules/__init__.py"


def test_the_command_line_reports_the_version(capsys) -> None:
    from writing_rules.cli import main

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"writing-rules {writing_rules.__version__}\n"
