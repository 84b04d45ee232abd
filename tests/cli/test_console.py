"""The ``writing-rules`` console script: what the library's ``main`` does, in a process tuned to end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "examples" / "getting-started.md")


def _run(entry: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import gc, sys\n"
        f"from {entry} import main\n"
        "status = main()\n"
        "sys.stderr.write(f'THRESHOLD {gc.get_threshold()[0]} FROZEN {gc.get_freeze_count() > 0}\\n')\n"
        "sys.exit(status)\n"
    )
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-c", code, *arguments], capture_output=True, text=True, env=environment, cwd=ROOT, check=False
    )


def _default_threshold() -> int:
    """The collector's first threshold in a fresh interpreter (a test runner may have changed its own)."""
    return int(subprocess.check_output([sys.executable, "-c", "import gc; print(gc.get_threshold()[0])"]))


def test_the_installed_command_runs_the_console_entry() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["writing-rules"] == "writing_rules.cli._console:main"


@pytest.mark.parametrize(
    "arguments", [("scan", "--no-cache", PAGE), ("scan", "--no-cache", "--no-fail", "--format", "json", PAGE)]
)
def test_the_console_script_prints_and_exits_as_the_library_main(arguments: tuple[str, ...]) -> None:
    console = _run("writing_rules.cli._console", *arguments)
    library = _run("writing_rules.cli", *arguments)
    assert console.stdout == library.stdout and '"powerful"' in console.stdout
    assert console.returncode == library.returncode == (0 if "--no-fail" in arguments else 1)
    assert console.stderr.splitlines()[:-1] == library.stderr.splitlines()[:-1]
    # A short command collects cycles rarely and leaves nothing for a collection at exit; the
    # library changes nothing (the interpreter's default threshold: 700 on 3.11, 2000 on 3.13).
    default = _default_threshold()
    assert console.stderr.splitlines()[-1] == f"THRESHOLD {default * 100} FROZEN True"
    assert library.stderr.splitlines()[-1] == f"THRESHOLD {default} FROZEN False"


def test_a_usage_error_exits_2_from_the_console_script() -> None:
    done = _run("writing_rules.cli._console", "scan", "--max-signals", "0", PAGE)
    assert done.returncode == 2 and "--max-signals" in done.stderr


def test_the_servers_keep_pythons_collector() -> None:
    # `writing-rules lsp` runs for hours; --help ends it at once, after the tuning would have been decided.
    done = _run("writing_rules.cli._console", "lsp", "--help")
    assert done.returncode == 0
    assert done.stderr.splitlines()[-1] == f"THRESHOLD {_default_threshold()} FROZEN False"


@pytest.mark.parametrize(
    "entry",
    [("-m", "writing_rules"), ("-c", "import sys; from writing_rules.cli._console import main; sys.exit(main())")],
)
def test_a_reader_that_stops_early_ends_the_scan_quietly(entry: tuple[str, str], tmp_path: Path) -> None:
    """``writing-rules scan … | head``: the reader closes the pipe; no traceback, the status of a SIGPIPE."""
    page = tmp_path / "page.md"
    page.write_text("It is very easy and really simple.\n\n" * 3000, encoding="utf-8")  # far more than a pipe holds
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(
        [sys.executable, *entry, "scan", "--no-cache", "--no-fail", "--format", "json", str(page)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
        cwd=tmp_path,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(100)
    process.stdout.close()
    # communicate (not read then wait): a scan that never ends fails after the bound instead of
    # hanging the run; the work after the pipe closes takes well under a second.
    try:
        _, raw_error = process.communicate(timeout=300)
    finally:
        process.kill()
    error = raw_error.decode("utf-8")
    status = process.returncode
    assert "Traceback" not in error
    assert error == ""
    assert status == 141
