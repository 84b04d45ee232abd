"""The static backtracking check the compiler refuses patterns with: the runtime's own.

The pack loader runs the same check on hand-written pack modules, so its one home
is ``src/writing_rules/packs/_redos.py`` (stdlib only), loaded here by file path
like ``_fix_text.py``; its text is part of every verdict key (``_verdicts.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from ._runtime import load_runtime

__all__ = ["RUNTIME_FILE", "static_problems"]

RUNTIME_FILE = "packs/_redos.py"
static_problems: Callable[[str], list[str]] = load_runtime(RUNTIME_FILE).static_problems
