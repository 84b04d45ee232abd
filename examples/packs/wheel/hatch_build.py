"""Hatchling build hook: the wheel carries a compiled module that matches the pack's sources.

It runs `writing-rules pack build --no-timing` on the pack folder (the build
needs `writing-rules[authoring]`, see pyproject.toml). Like writing-rules' own
hook, it builds without the timed backtracking run (that run is the pack
author's check: `writing-rules pack build` in CI, its verdicts committed in
verdicts.txt), and does nothing when the module is current.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class PackBuildHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from writing_rules.cli import main

        folder = Path(self.root) / "acme_writing_rules"
        # Prints "wrote …" or "unchanged: …", or every problem as path:line:col: message.
        status = main(["pack", "build", "--no-timing", str(folder)])
        if status != 0:
            raise RuntimeError(f"`writing-rules pack build {folder}` failed (exit {status}): the problems are above")
