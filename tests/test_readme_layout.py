"""README's "What lives where" table against the tree: what it names exists, and nothing is left out.

Checked: every path in the first column; every subpackage of ``writing_rules``
and every root module ``writing_rules._*`` (a new one must get its line); every
``_module`` a subpackage's line names; every top-level folder; every page in
``docs/``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "writing_rules"
# Folders the checkout may hold that are not the project's (build output, caches, virtual environments).
NOT_THE_PROJECT = {"dist", "test-artifacts"}


def _rows() -> dict[str, str]:
    """First cell -> second cell of each row of the table."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## What lives where", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = cells[1]
    return rows


def _ticked(text: str) -> set[str]:
    return set(re.findall(r"`([^`]+)`", text))


def test_every_path_in_the_table_exists() -> None:
    missing = [path for path in _rows() if "*" not in path and not (ROOT / path).exists()]
    assert missing == []


def test_every_subpackage_has_its_line() -> None:
    listed = {path.split("/")[2] for path in _rows() if re.fullmatch(r"src/writing_rules/[a-z]+/", path)}
    assert listed == {path.parent.name for path in PACKAGE.glob("*/__init__.py")}


def test_every_root_module_is_named_and_every_named_one_exists() -> None:
    rows = _rows()
    named = {name for name in _ticked(rows["src/writing_rules/_*.py"]) if re.fullmatch(r"_[a-z_]+", name)}
    named |= {Path(path).stem for path in rows if re.fullmatch(r"src/writing_rules/_[a-z_]+\.py", path)}
    assert named == {path.stem for path in PACKAGE.glob("_*.py") if path.stem not in {"__init__", "__main__"}}


def test_the_modules_a_subpackage_line_names_exist() -> None:
    missing = []
    for path, text in _rows().items():
        found = re.fullmatch(r"src/writing_rules/([a-z]+)/", path)
        if found:
            package = PACKAGE / found.group(1)
            for name in _ticked(text):
                if re.fullmatch(r"_[a-z_]+", name) and not (package / f"{name}.py").exists():
                    missing.append(f"{found.group(1)}.{name}")
    assert missing == []


def test_every_top_level_folder_has_its_line() -> None:
    listed = {path.split("/")[0] for path in _rows()}
    folders = {
        path.name
        for path in ROOT.iterdir()
        if path.is_dir()
        and not path.name.startswith(".")
        and path.name not in NOT_THE_PROJECT
        and not path.name.endswith(".egg-info")
    }
    assert folders - listed == set()


def test_every_docs_page_is_named_and_every_named_page_exists() -> None:
    named = {name for name in _ticked(_rows()["docs/"]) if name.endswith(".md")}
    assert named == {path.name for path in (ROOT / "docs").glob("*.md")}
