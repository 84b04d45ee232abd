"""``WritingRulesError``: the base of every error the package raises for a caller to handle.

A ``ValueError``, as each of them was before it had a common base (the public
contract names them so: a bad configuration, document edit, store call or host
option is a bad value). ``SignalPolicyError`` is a ``TypeError`` too. One
exception: ``writing_rules.prose.ProseError`` (an unknown markup name) is a plain
``ValueError``, because the prose reader imports nothing from the rest of the
package (the rule compiler loads it on its own).

``PackError`` (a pack that cannot be loaded, public as ``writing_rules.packs.PackError``)
lives here too, like ``Pack`` in ``_catalog``: it can be raised late, by a pack module
edited after it loaded, in code that never imports the pack loader (a tool call, a scan),
and the command line and the tool dispatcher tell it apart from a bug with a plain
``isinstance``, importing nothing.
"""

from __future__ import annotations

__all__ = ["PackError", "WritingRulesError"]


class WritingRulesError(ValueError):
    """An error writing-rules raises on purpose; its message says what to change."""


class PackError(WritingRulesError):
    """A pack that cannot be loaded, with a message that says what to do about it.

    ``pack`` is the reference as the configuration gave it (a folder or an entry-point name).
    """

    def __init__(self, pack: str, message: str) -> None:
        super().__init__(f"pack {pack}: {message}")
        self.pack = pack
        self.message = message

    def __reduce__(self) -> tuple[type[PackError], tuple[str, str]]:
        # Rebuilt from both arguments (the default passes only the full text): a PackError
        # raised in a ``scan --jobs`` worker reaches the parent as itself.
        return type(self), (self.pack, self.message)
