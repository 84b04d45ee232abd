"""The engine's result cache never serves a result made under a language the caller forced."""

from __future__ import annotations

from pathlib import Path

from writing_rules.lint import FileSettings, lint_text

PAGE = "# Guide\n\nThis is a powerful tool. Simply install it and run it.\n"


def test_a_forced_language_result_is_not_served_to_a_detecting_run(tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    path = str(tmp_path / "page.md")
    forced = lint_text(PAGE, path, FileSettings(), language="de", cache_dir=cache)
    assert forced.language == "de"
    detected = lint_text(PAGE, path, FileSettings(), cache_dir=cache)
    assert detected.language == "en"
    assert detected.signals == lint_text(PAGE, path, FileSettings()).signals
