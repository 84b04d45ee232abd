"""A configuration file swapped for a FIFO after the folder walk looked at it never blocks the scan.

The walk asks ``os.path.isfile`` first; between that and the open, a checkout's file
can become a FIFO (or be one on a file system that lies). The tests make ``isfile``
answer yes for the FIFO, as a lost race would, and read in a thread.

A blocked open of a FIFO with no writer never returns, so the bound only has to tell
"never" from "finished": the work takes milliseconds, and ``_BOUND`` is far above what a
slow or busy machine needs for it. It decides nothing on a run that passes.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from writing_rules.lint import ConfigResolver
from writing_rules.packs import PackError, load_pack

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


_BOUND = 300  # seconds; only a regression (an open that waits forever) reaches it


def _within(seconds: float, function: Callable[[], object]) -> object:
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(_outcome(function)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still waiting after {seconds} s: blocked on a FIFO"
    return result[0]


def _outcome(function: Callable[[], object]) -> object:
    try:
        return function()
    except Exception as error:  # the test looks at what came out
        return error


def test_a_pyproject_that_became_a_fifo_is_not_waited_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    os.mkfifo(tmp_path / "pyproject.toml")
    page = tmp_path / "page.md"
    page.write_text("Text.\n", encoding="utf-8")
    real_isfile = os.path.isfile
    monkeypatch.setattr(os.path, "isfile", lambda path: path.endswith("pyproject.toml") or real_isfile(path))
    outcome = _within(_BOUND, lambda: ConfigResolver().config_for(str(page)))
    assert not isinstance(outcome, BaseException) or type(outcome).__name__ == "ConfigError", outcome


def test_a_pack_module_that_became_a_fifo_is_not_waited_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pack = tmp_path / "team"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: team\n", encoding="utf-8")
    os.mkfifo(pack / "_pack_data.py")
    real_isfile = os.path.isfile
    monkeypatch.setattr(os.path, "isfile", lambda path: str(path).endswith("_pack_data.py") or real_isfile(path))
    outcome = _within(_BOUND, lambda: load_pack(str(pack)))
    assert isinstance(outcome, PackError), outcome
    assert "_pack_data.py" in str(outcome)
