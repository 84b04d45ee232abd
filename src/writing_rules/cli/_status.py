"""The command line's exit statuses and its one usage error."""

from __future__ import annotations

from .._errors import WritingRulesError

__all__ = ["EXIT_CLEAN", "EXIT_ERROR", "EXIT_SIGNALS", "UsageError"]

# 0: nothing to report (or a command that reports nothing); 1: signals found (scan);
# 2: the command could not run as asked (usage, configuration, unreadable files, directive mistakes).
EXIT_CLEAN, EXIT_SIGNALS, EXIT_ERROR = 0, 1, 2


class UsageError(WritingRulesError):
    """The user's command cannot run as given; the message says what to change (exit 2)."""
