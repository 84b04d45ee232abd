"""The README's note on running the tests names what CI really does: the variable, the script, the port."""

from __future__ import annotations

import re
from pathlib import Path

from tests.postgres_support import DSN_VARIABLE

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_says_how_ci_provides_postgresql() -> None:
    script = (ROOT / ".ci" / "start-postgres").read_text(encoding="utf-8")
    assert DSN_VARIABLE in README and DSN_VARIABLE in script
    assert "source .ci/start-postgres" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    port = re.search(r"^_pg_port=(\d+)$", script, re.MULTILINE)
    data = re.search(r"^_pg_data=(\S+)$", script, re.MULTILINE)
    assert port and data
    assert f"port {port.group(1)}" in README and f"`{data.group(1)}`" in README


def test_the_readme_gives_the_suites_time_and_the_fast_subset() -> None:
    assert re.search(r"about \d+ minutes on two cores", README)
    assert 'python -m pytest -m "not slow"' in README
