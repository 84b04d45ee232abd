"""Hatchling build hook: compile ``rules-src/`` into the package before every build.

Runs for the sdist (in the checkout), for the wheel (in the unpacked sdist)
and for editable installs, so every artefact carries a module that matches
its sources. Generation is idempotent and writes only changed bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class RuleDataBuildHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        # The hook is loaded by file path: make the project's `generator` importable.
        if str(root) not in sys.path:
            sys.path.insert(0, str(root))
        from generator import GENERATED_MODULE, SourceProblems, generate

        try:
            changed = generate(root)
        except SourceProblems as problems:
            raise RuntimeError(f"rules-src/ is invalid; fix these problems:\n{problems}") from None
        if changed:
            self.app.display_info(f"writing-rules: regenerated {GENERATED_MODULE.as_posix()}")
