"""Standard input for the MCP server, checked line by line before the SDK reads it.

The SDK drops a line it cannot parse or validate (not JSON, an id of the wrong
type, ``params`` as an array) without a reply, so a client waits until its own
timeout. JSON-RPC 2.0 asks for an error response instead: ``-32700`` for a
parse error, ``-32600`` for an invalid request, ``-32602`` for invalid params,
with the request's id when one can be read (else ``null``). Lines the SDK
accepts pass through unchanged.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator
from typing import Any

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage

__all__ = ["CheckedLines", "check_line"]

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602
Problem = tuple[int, str, "str | int | None"]


def check_line(line: str) -> Problem | None:
    """None when the SDK takes ``line``; else the error response's code, message and id.

    The structure is checked here first: the SDK reads a request whose id is
    an object, a float, a boolean or null as a notification, and never answers it.
    """
    try:
        message: Any = json.loads(line)
    except (ValueError, RecursionError):
        return PARSE_ERROR, "Parse error: the message is not JSON text.", None
    if not isinstance(message, dict):
        return INVALID_REQUEST, "Invalid Request: a message is one JSON object (batches are not supported).", None
    raw_id = message.get("id")
    id = raw_id if type(raw_id) in (str, int) else None
    if "id" in message and id is None:
        return INVALID_REQUEST, "Invalid Request: 'id' must be a string or an integer.", None
    if message.get("jsonrpc") != "2.0":
        return INVALID_REQUEST, "Invalid Request: 'jsonrpc' must be \"2.0\".", id
    if "method" in message:
        if not isinstance(message["method"], str):
            return INVALID_REQUEST, "Invalid Request: 'method' must be a string.", id
        if "params" in message and not isinstance(message["params"], dict):
            return INVALID_PARAMS, "Invalid params: 'params' must be an object.", id
    elif "result" not in message and "error" not in message:
        return INVALID_REQUEST, "Invalid Request: a message needs 'method', or 'result' or 'error'.", id
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return None
    except Exception:  # the SDK would drop it without a word
        pass
    return INVALID_REQUEST, "Invalid Request: the message does not have the shape JSON-RPC 2.0 and MCP require.", id


class CheckedLines:
    """The lines of ``source`` the SDK can take; the others are answered on the server's write stream.

    ``attach(write_stream)`` hands over the stream once the SDK made it; an
    answer waits for it.
    """

    def __init__(self, source: AsyncIterable[str]) -> None:
        self._source = source
        self._ready = anyio.Event()
        self._write: Any = None

    def attach(self, write_stream: Any) -> None:
        self._write = write_stream
        self._ready.set()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for line in self._source:
            if not line.strip():
                continue  # a blank line is no message; the SDK would log it as one
            problem = check_line(line)
            if problem is None:
                yield line
                continue
            code, text, id = problem
            await self._ready.wait()
            error = types.JSONRPCError(jsonrpc="2.0", id=id, error=types.ErrorData(code=code, message=text))
            await self._write.send(SessionMessage(error))
