"""Model Context Protocol tool listings and call results, as plain dicts (no SDK)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._common import checked_descriptors, encodable, envelope_json

__all__ = ["mcp_call_result", "mcp_tools"]

# Descriptors without annotations are the review tools: they read, change nothing
# and reach nothing outside the process.
_READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}


def mcp_tools(descriptors: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``[{"name", "description", "inputSchema", "annotations"}]`` for ``tools/list``."""
    return [
        {
            "name": descriptor["name"],
            "description": descriptor["description"],
            "inputSchema": descriptor["inputSchema"],
            "annotations": dict(descriptor.get("annotations") or _READ_ONLY),
        }
        for descriptor in checked_descriptors(descriptors)
    ]


def mcp_call_result(envelope: Mapping[str, Any]) -> dict[str, Any]:
    """A ``tools/call`` result: the envelope as a text block and as ``structuredContent``.

    Lone surrogates (which UTF-8 cannot carry) are replaced by U+FFFD in both.
    """
    text, is_error = envelope_json(envelope)
    structured = encodable(envelope)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text, _ = envelope_json(structured)
    return {
        "content": [{"type": "text", "text": text}],
        "structuredContent": structured,
        "isError": is_error,
    }
