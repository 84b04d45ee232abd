"""Hatchling build hook: make sure the package carries rule data that matches ``rules-src/``.

Runs for the sdist (in the checkout), for the wheel (in the unpacked sdist)
and for editable installs. Installing must be fast and must not fail on a busy
machine, so the hook only confirms that the committed module records the
digest of the current sources. When it does not (a rule was edited without
``python -m generator``), the hook regenerates the module, without the timed
backtracking run: that run is the rule author's check (``python -m
generator``, the tests, CI), not the installer's.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class RuleDataBuildHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        started = time.perf_counter()
        root = Path(self.root)
        # The hook is loaded by file path: make the project's `generator` importable.
        if str(root) not in sys.path:
            sys.path.insert(0, str(root))
        # `generator` loads its names lazily: confirming the digest imports no jinja2 or jsonschema.
        from generator import GENERATED_MODULE, digest_inputs, recorded_digest

        digest = digest_inputs(root)
        if recorded_digest(root / GENERATED_MODULE) == digest:
            elapsed = time.perf_counter() - started
            self.app.display_info(f"writing-rules: rule data is current ({digest[:12]}, {elapsed:.2f} s)")
            return
        from generator import SourceProblems, generate

        try:
            generate(root, timed=False)
        except SourceProblems as problems:
            raise RuntimeError(f"rules-src/ is invalid; fix these problems:\n{problems}") from None
        elapsed = time.perf_counter() - started
        self.app.display_info(
            f"writing-rules: regenerated {GENERATED_MODULE.as_posix()} without the timed run ({elapsed:.2f} s)"
        )
