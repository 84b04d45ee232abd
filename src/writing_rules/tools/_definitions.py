"""The review tools as registry definitions (see ``writing_rules.registry``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._dispatcher import WritingToolDispatcher

__all__ = ["writing_tool_definitions"]


def writing_tool_definitions(dispatcher: WritingToolDispatcher) -> list[dict[str, Any]]:
    """One definition per review tool; each ``resolve`` returns the dispatcher's envelope.

    Use as ``IntentRegistry.create(writing_tool_definitions(dispatcher))``.
    """
    if not isinstance(dispatcher, WritingToolDispatcher):
        raise TypeError("writing_tool_definitions needs a WritingToolDispatcher")

    def resolver(name: str) -> Any:
        def resolve(arguments: Mapping[str, Any], context: Mapping[str, Any]) -> dict[str, Any]:
            return dispatcher.dispatch({"name": name, "arguments": dict(arguments)})

        return resolve

    return [
        {
            "id": descriptor["name"],
            "description": descriptor["description"],
            "input_schema": descriptor["inputSchema"],
            "resolve": resolver(descriptor["name"]),
        }
        for descriptor in dispatcher.tools()
    ]
