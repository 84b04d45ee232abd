"""How the database stores read an id: digits are a numeric id, a canonical UUID a UUID, else a path."""

from __future__ import annotations

import re

__all__ = ["IdKind", "id_kind", "refuse_id_shaped_path"]

_NUMERIC = re.compile(r"[0-9]+")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
# Numeric ids are 64-bit in both databases; a longer number can name no document.
_LARGEST_ID = 2**63 - 1

IdKind = tuple[str, object]


def id_kind(id: str) -> IdKind:
    """``("numeric_id", int)``, ``("uuid", lowercase str)`` or ``("path", id)``.

    A number too large for a 64-bit id becomes -1, which matches no document.
    """
    if _NUMERIC.fullmatch(id):
        number = int(id) if len(id) <= 19 else -1
        return "numeric_id", number if number <= _LARGEST_ID else -1
    if _UUID.fullmatch(id):
        return "uuid", id.lower()
    return "path", id


def refuse_id_shaped_path(id: str) -> str | None:
    """Why ``id`` cannot be a new document's path (it would find another document), or None."""
    if _NUMERIC.fullmatch(id) or _UUID.fullmatch(id):
        return (
            f"Path {id[:200]!r} looks like a numeric id or a UUID, which would find another document; "
            "choose a path with other characters."
        )
    return None
