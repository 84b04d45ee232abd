"""Where the generated module lives, and the source digest it records."""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["GENERATED_MODULE", "recorded_digest"]

GENERATED_MODULE = Path("src") / "writing_rules" / "_rules_data.py"

_DIGEST_LINE = re.compile(r"^# Source digest \(SHA-256[^)]*\): ([0-9a-f]{64})$", re.MULTILINE)


def recorded_digest(module: Path) -> str | None:
    """The source digest in a generated module's header; None when absent or unreadable."""
    try:
        with open(module, encoding="utf-8") as stream:
            head = stream.read(2048)
    except OSError:
        return None
    found = _DIGEST_LINE.search(head)
    return found.group(1) if found else None
