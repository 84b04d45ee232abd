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
# shutil (and the compression modules it loads) for a terminal width only help text needs,
# and tempfile (which loads shutil) for writing the result cache.
NOT_FOR_SCAN = (
    # dataclasses loads inspect (with ast, dis and tokenize): about 5 ms, and 0.4 ms more for
    # each class it builds; the values a scan makes are named tuples.
    "dataclasses",
    "inspect",
    "shutil",
    "tempfile",
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
    "writing_rules.cli._pack",  # the pack compiler's command
    # The review tools' dispatcher and what only its other tools need: the command line checks
    # --profile and --rule with it (none given here) and scans with the scanner itself.
    "writing_rules.tools._dispatcher",
    "writing_rules.tools._evidence",
    "writing_rules.tools._context",
)


# What only scanning a text needs: a re-run answered from the result cache (an unchanged page)
# reads no prose, creates no dispatcher and compiles no rule pattern.
NOT_FOR_A_CACHED_RUN = (
    "writing_rules.prose._reader",
    "writing_rules.prose._markdown",
    "writing_rules.prose._view",
    "writing_rules.prose._sentences",
    "writing_rules.tools._scanner",
    "writing_rules.tools._text_index",
    "writing_rules.lint._pieces",
)


def _modules_after(*arguments: str, cache_dir: Path | None = None) -> tuple[set[str], str]:
    """The modules loaded by ``writing-rules scan --no-fail ARGUMENTS examples/getting-started.md``, and its output.

    With ``cache_dir`` the page is scanned once first, so that the run measured is answered from the cache.
    """
    code = (
        "import sys\n"
        "from writing_rules.cli import main\n"
        "status = main(['scan', '--no-fail', *sys.argv[1:]])\n"
        "print('MODULES', *sorted(sys.modules))\n"  # printed without json: a scan may not load it
    )
    if cache_dir is not None:
        arguments = (*arguments, "--cache-dir", str(cache_dir))
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    # With a cache, the second run is the one answered from it.
    for _ in range(1 if cache_dir is None else 2):
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


def test_scan_of_one_page_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    # A first scan with the cache (the default): it also writes the page's result.
    loaded, output = _modules_after("--cache-dir", str(tmp_path / "cache"))
    assert any((tmp_path / "cache").rglob("*.json")), "the scan wrote its result"
    assert "getting-started.md" in output  # it did scan
    assert sorted(name for name in NOT_FOR_SCAN if name in loaded) == []


def test_a_scan_without_the_cache_loads_neither_json_nor_hashlib() -> None:
    # What a changed page in a pre-commit hook with --no-cache costs: about 3 ms less start-up.
    loaded, output = _modules_after("--no-cache")
    assert "getting-started.md" in output
    assert sorted(name for name in (*NOT_FOR_SCAN, "json", "hashlib") if name in loaded) == []


def test_a_re_run_from_the_cache_loads_neither_the_prose_reader_nor_the_scanner(tmp_path: Path) -> None:
    loaded, output = _modules_after(cache_dir=tmp_path / "cache")
    # The cached result, reported as a scan reports it: the page's four signals.
    assert sum("getting-started.md:" in line for line in output.splitlines()) == 4
    assert any(tmp_path.rglob("*")), "the first run filled the cache"
    assert sorted(name for name in (*NOT_FOR_SCAN, *NOT_FOR_A_CACHED_RUN) if name in loaded) == []


def test_a_scan_loads_the_reader_and_the_scanner_it_skips_on_a_cached_run() -> None:
    # The list above names modules a scan does use: the test cannot pass by naming unused ones.
    loaded, _ = _modules_after("--no-cache")
    assert sorted(name for name in NOT_FOR_A_CACHED_RUN if name not in loaded) == []
