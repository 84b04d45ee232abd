"""A one-page scan imports only what scanning needs: start-up is most of what pre-commit and editors feel."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What other commands need and a scan never does: the document tools' asyncio, the
# stores' sqlite3, the process pool for --jobs, the HTML report, the package metadata,
# git for --diff, the baseline, "did you mean" suggestions for mistakes, the checks of a
# configuration file and the TOML parser (this repository's pyproject.toml cannot hold a
# [tool.writing-rules] table, so it is not read),
# shutil (and the compression modules it loads) for a terminal width only help text needs.
NOT_FOR_SCAN = (
    "shutil",
    "tomllib",
    "writing_rules.lint._config_file",
    "writing_rules.lint._directive_types",  # the example page holds no directive
    "writing_rules.lint._toml",
    "asyncio",
    "subprocess",
    "difflib",
    "writing_rules.lint._diff",
    "writing_rules.lint._baseline",
    "writing_rules.lint._sentences",
    "writing_rules.documents._store",
    "sqlite3",
    "concurrent.futures.process",
    "importlib.metadata",
    "writing_rules.documents._dispatcher",
    "writing_rules.documents._directory_policy",  # the help text reads DOCUMENTATION_FILES only
    "writing_rules.documents._sqlite_store",
    "writing_rules.documents._postgres_store",
    "writing_rules.review._html",
    "writing_rules.mcp",
)


def _modules_after(*arguments: str) -> tuple[set[str], str]:
    """The modules loaded by ``writing-rules scan --no-fail ARGUMENTS examples/getting-started.md``, and its output."""
    code = (
        "import sys\n"
        "from writing_rules.cli import main\n"
        "status = main(['scan', '--no-fail', *sys.argv[1:]])\n"
        "print('MODULES', *sorted(sys.modules))\n"  # printed without json: a scan may not load it
    )
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", code, *arguments, str(ROOT / "examples" / "getting-started.md")],
        capture_output=True,
        text=True,
        env=environment,
        cwd=ROOT,
        check=True,
    )
    last = done.stdout.strip().splitlines()[-1].split()
    assert last[0] == "MODULES" and "writing_rules.cli._commands" in last
    return set(last[1:]), done.stdout


def test_scan_of_one_page_imports_nothing_it_does_not_use() -> None:
    loaded, output = _modules_after()
    assert "getting-started.md" in output  # it did scan
    assert sorted(name for name in NOT_FOR_SCAN if name in loaded) == []


def test_a_scan_without_the_cache_loads_neither_json_nor_hashlib() -> None:
    # What a changed page in a pre-commit hook with --no-cache costs: about 3 ms less start-up.
    loaded, output = _modules_after("--no-cache")
    assert "getting-started.md" in output
    assert sorted(name for name in (*NOT_FOR_SCAN, "json", "hashlib") if name in loaded) == []
