"""The MCP stdio server over an ``McpToolRouter``; the only module that imports the ``mcp`` SDK.

Imported only through ``load_stdio_server()``, so the rest of the package (the
router included) works without the extra.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from .. import __version__
from ._router import McpToolRouter

__all__ = ["build_server", "serve_stdio"]

_INSTRUCTIONS = (
    "Writing-review tools for English and German documentation. find_writing_signals marks phrases "
    "worth a second look (leads, not verdicts); compose_writing_review_prompt gives the review prompt "
    "for this host's audience and goal. A failed call returns isError with a message saying what to fix."
)


def build_server(router: McpToolRouter) -> Server[Any]:
    """A low-level SDK server whose ``tools/list`` and ``tools/call`` go to ``router``."""

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool.model_validate(tool) for tool in router.tools()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        # In a worker thread: a long scan or a file write must not stall pings and cancellations.
        result = await anyio.to_thread.run_sync(router.call, params.name, params.arguments)
        return types.CallToolResult.model_validate(result)

    return Server(
        "writing-rules",
        version=__version__,
        instructions=_INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio(router: McpToolRouter) -> None:
    """Serve ``router``'s tools on standard input and output until the client closes them."""
    server = build_server(router)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
