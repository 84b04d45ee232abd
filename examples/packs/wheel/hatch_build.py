"""Hatchling build hook: the wheel carries a compiled module that matches the pack's sources.

Like writing-rules' own hook, it builds without the timed backtracking run
(that run is the pack author's check: `pack build` in CI, its verdicts
committed in verdicts.txt), and does nothing when the module is current.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class PackBuildHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from generator import SourceProblems, build_pack

        folder = Path(self.root) / "acme_writing_rules"
        try:
            result = build_pack(folder, timed=False)
        except SourceProblems as problems:
            raise RuntimeError(f"the pack is invalid; fix these problems:\n{problems}") from None
        self.app.display_info(f"acme pack: {'built' if result.changed else 'current'} {result.module.name}")
