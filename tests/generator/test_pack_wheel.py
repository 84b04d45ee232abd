"""A rule pack shipped as a wheel (examples/packs/wheel, docs/packs.md): built by hatchling with the
pack hook, it carries the compiled module and the entry point, and loads by its entry-point name."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from generator._packs import MODULE_NAME, VERDICTS_NAME

ROOT = Path(__file__).resolve().parents[2]

# Builds a wheel in a fresh process: seconds of work (`-m "not slow"` leaves it out).
pytestmark = pytest.mark.slow


def test_the_example_pack_builds_as_a_wheel_and_loads_by_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "acme-writing-rules"
    shutil.copytree(ROOT / "examples" / "packs" / "wheel", project)
    package = project / "acme_writing_rules"
    # Without its module: the hook must build it.
    shutil.copytree(
        ROOT / "examples" / "packs" / "acme",
        package,
        ignore=shutil.ignore_patterns(MODULE_NAME, VERDICTS_NAME, "__pycache__"),
    )
    (package / "__init__.py").write_text("", encoding="utf-8")
    out = tmp_path / "dist"
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(project)],
        capture_output=True,
        text=True,
        check=False,
        # Nothing of the checkout on the path: the hook runs the installed `writing-rules pack build`.
        env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"},
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    [wheel] = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert {
            "acme_writing_rules/_pack_data.py",
            "acme_writing_rules/pack.yaml",
            "acme_writing_rules/terms.yaml",
        } <= names
        [entry_points] = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
        assert "[writing_rules.packs]\nacme = acme_writing_rules._pack_data" in archive.read(entry_points).decode()
        site = tmp_path / "site"
        archive.extractall(site)
    monkeypatch.syspath_prepend(str(site))
    from writing_rules.packs import load_pack

    pack = load_pack("acme")
    assert pack.id == "acme" and "acme/terms" in pack.rules
