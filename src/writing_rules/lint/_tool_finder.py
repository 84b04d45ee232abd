"""The lint engine behind ``find_writing_signals`` for a dispatcher created with lint settings.

``create_writing_tool_dispatcher(config=settings)`` (the host's settings, or
``serve-mcp``'s folder configuration) runs every scan of the tool through
``lint_text``, as ``writing-rules scan`` does: the rule policy, ``accept`` and
the text's own inline directives. The tool layer may not import this one, so it
asks the settings for this object (``FileSettings.signal_finder``).
"""

from __future__ import annotations

# difflib, prose, _directive_types, _lint and _pieces are what lint_text loads on first need (a
# mistyped directive asks difflib): loaded with the dispatcher, so that a dispatch imports nothing.
import difflib  # noqa: F401
from collections.abc import Sequence

from .. import prose  # noqa: F401
from . import _directive_types, _lint, _pieces  # noqa: F401
from ._config import FileSettings
from ._engine import lint_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..tools import Signal

__all__ = ["ToolSignalFinder"]

# The tool's text has no file: it is read as Markdown, as the tool always reads it.
_TOOL_TEXT_PATH = "find_writing_signals.md"


class ToolSignalFinder:
    """``find_signals(text, language, rule_ids)``: every signal ``lint_text`` keeps, code hits included."""

    __slots__ = ("_settings",)

    def __init__(self, settings: FileSettings) -> None:
        self._settings = settings

    def find_signals(self, text: str, language: str, rule_ids: tuple[str, ...]) -> Sequence[Signal]:
        if not rule_ids:
            return ()  # the policy left no rule (overlay reads no rules as "all of them")
        settings = self._settings.overlay(rules=rule_ids, markup="markdown")
        # The tool annotates hits in code (inCode) where the command line drops them.
        return lint_text(text, _TOOL_TEXT_PATH, settings, language=language, include_code=True).signals
