"""``Signal``: one hit of the scanner, typed, from the scanner to the output formats.

The camelCase objects of the tool's contract (``find_writing_signals``) are made
from it only where a wire format is made: the tool's envelope, the command
line's formats, the result cache, the language server's diagnostics.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

__all__ = ["CONTEXTS", "IN_CODE", "NEGATED", "QUOTED", "Signal", "SignalFix", "signals_data"]

# The context bits of a signal (``ProseContext.flags`` holds QUOTED and NEGATED). Here, not
# with the text index: a run answered from the cache builds signals without loading it.
IN_CODE, QUOTED, NEGATED = 1, 2, 4
# The ``context`` object of each combination of flag bits. Copy it per signal: a caller may
# change it, and a copy costs a third of building one from the bits.
CONTEXTS = tuple(
    {"inCode": bool(flags & IN_CODE), "inQuote": bool(flags & QUOTED), "negated": bool(flags & NEGATED)}
    for flags in range(8)
)


class SignalFix(NamedTuple):
    """A safe fix: ``match`` (the text it replaces, starting where the signal starts) becomes ``replacement``."""

    replacement: str
    match: str


class Signal(NamedTuple):
    """One signal. Offsets are code points of the text; ``utf16_*`` are UTF-16 units; ``line`` and
    ``column`` are 1-based (column in code points); ``flags`` hold the context bits.

    A named tuple: the fastest immutable record to build (the scanner builds one per hit).
    """

    rule_id: str
    signal_id: str
    level: str
    match: str
    start: int
    end: int
    utf16_start: int
    utf16_end: int
    line: int
    column: int
    flags: int = 0
    fix: SignalFix | None = None

    @property
    def in_code(self) -> bool:
        return bool(self.flags & IN_CODE)

    @property
    def in_quote(self) -> bool:
        return bool(self.flags & QUOTED)

    @property
    def negated(self) -> bool:
        return bool(self.flags & NEGATED)

    def wire_context(self) -> dict[str, bool]:
        """The contract's ``context`` object (``inCode``, ``inQuote``, ``negated``)."""
        return CONTEXTS[self.flags].copy()

    def wire(self) -> dict[str, Any]:
        """The tool contract's object (camelCase keys, in the contract's order)."""
        signal: dict[str, Any] = {
            "ruleId": self.rule_id,
            "signalId": self.signal_id,
            "level": self.level,
            "match": self.match,
            "start": self.start,
            "end": self.end,
            "utf16Start": self.utf16_start,
            "utf16End": self.utf16_end,
            "line": self.line,
            "column": self.column,
            "context": CONTEXTS[self.flags].copy(),
        }
        if self.fix is not None:
            signal["fix"] = {"replacement": self.fix.replacement, "match": self.fix.match}
        return signal

    @classmethod
    def from_wire(cls, signal: Mapping[str, Any]) -> Signal:
        """The signal a contract object describes (one checked for its shape: the result cache's)."""
        context = signal["context"]
        flags = (
            (IN_CODE if context["inCode"] else 0)
            | (QUOTED if context["inQuote"] else 0)
            | (NEGATED if context["negated"] else 0)
        )
        fix = signal.get("fix")
        return cls(
            signal["ruleId"],
            signal["signalId"],
            signal["level"],
            signal["match"],
            signal["start"],
            signal["end"],
            signal["utf16Start"],
            signal["utf16End"],
            signal["line"],
            signal["column"],
            flags,
            None if fix is None else SignalFix(fix["replacement"], fix["match"]),
        )


def signals_data(
    language: str,
    rule_ids: Iterable[str],
    signals: Iterable[Signal],
    total_signals: int,
    truncated: bool,
) -> dict[str, Any]:
    """``find_writing_signals``' ``data`` object: the one place it is made (the tool, the dispatcher
    with a config, the command line's formats, the result cache)."""
    return {
        "language": language,
        "ruleIds": list(rule_ids),
        "signals": [signal.wire() for signal in signals],
        "totalSignals": total_signals,
        "truncated": truncated,
    }
