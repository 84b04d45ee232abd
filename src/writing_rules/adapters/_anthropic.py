"""Anthropic Messages API tools and tool results."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._common import AdapterError, checked_descriptors, envelope_json

__all__ = ["anthropic_tool_result", "anthropic_tools"]


def anthropic_tools(descriptors: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``[{"name", "description", "input_schema"}]`` for the ``tools`` parameter."""
    return [
        {
            "name": descriptor["name"],
            "description": descriptor["description"],
            "input_schema": descriptor["inputSchema"],
        }
        for descriptor in checked_descriptors(descriptors)
    ]


def anthropic_tool_result(tool_use_id: str, envelope: Mapping[str, Any]) -> dict[str, Any]:
    """A ``tool_result`` content block carrying the envelope as JSON text; ``is_error`` from ``ok``."""
    if not isinstance(tool_use_id, str) or not tool_use_id:
        raise AdapterError("tool_use_id must be the non-empty id of the model's tool_use block")
    text, is_error = envelope_json(envelope)
    return {"type": "tool_result", "tool_use_id": tool_use_id, "content": text, "is_error": is_error}
