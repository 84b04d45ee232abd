"""The review tools as registry definitions (see ``writing_rules.registry``)."""

from __future__ import annotations

from typing import Any

from .._tool_call import registry_definitions
from ._dispatcher import WritingToolDispatcher

__all__ = ["writing_tool_definitions"]


def writing_tool_definitions(dispatcher: WritingToolDispatcher) -> list[dict[str, Any]]:
    """One definition per review tool; each ``resolve`` returns the dispatcher's envelope.

    Use as ``IntentRegistry.create(writing_tool_definitions(dispatcher))``.
    """
    if not isinstance(dispatcher, WritingToolDispatcher):
        raise TypeError("writing_tool_definitions needs a WritingToolDispatcher")

    return registry_definitions(dispatcher.tools(), dispatcher.dispatch)
