"""``WritingRulesError``: the base of every error the package raises for a caller to handle.

A ``ValueError``, as each of them was before it had a common base (the public
contract names them so: a bad configuration, document edit, store call or host
option is a bad value). ``SignalPolicyError`` is a ``TypeError`` too. One
exception: ``writing_rules.prose.ProseError`` (an unknown markup name) is a plain
``ValueError``, because the prose reader imports nothing from the rest of the
package (the rule compiler loads it on its own).
"""

from __future__ import annotations

__all__ = ["WritingRulesError"]


class WritingRulesError(ValueError):
    """An error writing-rules raises on purpose; its message says what to change."""
