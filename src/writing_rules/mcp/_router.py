"""One tool table for an MCP server: the review tools, and the document tools when a folder is served.

Pure: no SDK is imported here, so the routing can be tested (and reused by a
host's own server) without the ``mcp`` extra.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .._tool_call import error_envelope, unknown_tool_error
from ..adapters import mcp_call_result, mcp_tools
from ..documents import DocumentToolDispatcher
from ..tools import WritingToolDispatcher

__all__ = ["McpToolRouter"]


@dataclass(frozen=True)
class McpToolRouter:
    """Lists the served tools in MCP shape and runs ``tools/call`` on the right dispatcher."""

    review: WritingToolDispatcher
    documents: DocumentToolDispatcher | None = None
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Names are fixed for the server's life; computed once, not per call.
        object.__setattr__(self, "_names", tuple(tool["name"] for tool in self._descriptors()))

    @property
    def tool_names(self) -> tuple[str, ...]:
        return self._names

    def tools(self) -> list[dict[str, Any]]:
        """``tools/list`` entries: name, description, inputSchema and annotations."""
        return mcp_tools(self._descriptors())

    def call(self, name: str, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
        """A ``tools/call`` result (``content``, ``structuredContent``, ``isError``); never raises."""
        return mcp_call_result(self.envelope(name, arguments))

    def envelope(self, name: str, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
        """The dispatcher's envelope for one call; an unknown name lists every served tool."""
        call = {"name": name, "arguments": {} if arguments is None else arguments}
        if self.documents is not None and name in self.documents.tool_names:
            return self.documents.dispatch(call)
        if name in self._names:
            return self.review.dispatch(call)
        # Answered here rather than by the review dispatcher, whose message would
        # leave out the document tools this server also offers.
        return error_envelope(None, unknown_tool_error(name, self._names))

    def _descriptors(self) -> list[dict[str, Any]]:
        descriptors = self.review.tools()
        if self.documents is not None:
            descriptors += self.documents.tools()
        return descriptors
