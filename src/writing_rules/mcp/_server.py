"""The MCP stdio server over an ``McpToolRouter``; the only module that imports the ``mcp`` SDK.

Imported only through ``load_stdio_server()``, so the rest of the package (the
router included) works without the extra.
"""

from __future__ import annotations

import io
import sys
from typing import Any, cast

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from .. import __version__
from ._router import McpToolRouter
from ._transport import CheckedLines

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
    """Serve ``router``'s tools on standard input and output until the client closes them.

    Malformed messages, which the SDK would drop without a reply, are answered
    with JSON-RPC errors (``_transport``).
    """
    server = build_server(router)
    # Decoded as the SDK decodes it: UTF-8, an invalid byte replaced.
    source = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    lines = CheckedLines(source)
    async with stdio_server(stdin=cast(Any, lines)) as (read_stream, write_stream):
        lines.attach(write_stream)
        await server.run(read_stream, write_stream, server.create_initialization_options())
