"""Finding the MCP SDK: a missing or wrong extra is a message saying what to install, not a traceback."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Awaitable, Callable

from .._errors import WritingRulesError
from ._router import McpToolRouter

__all__ = ["McpUnavailableError", "load_stdio_server"]

_SDK_MAJOR = 2  # the extra pins mcp>=2,<3; 1.x has a different server API
_INSTALL = "install writing-rules[mcp] (pip install 'writing-rules[mcp]')"
# Missing any of these means the extra is not (fully) installed, not a bug here.
_SDK_MODULES = frozenset({"mcp", "mcp_types", "anyio", "pydantic"})


class McpUnavailableError(WritingRulesError):
    """The MCP SDK is missing or of another major version; the message says what to install."""


def load_stdio_server() -> Callable[[McpToolRouter], Awaitable[None]]:
    """``serve_stdio(router)``, an async function serving ``router`` on standard input and output."""
    try:
        version = importlib.metadata.version("mcp")
    except importlib.metadata.PackageNotFoundError:
        raise McpUnavailableError(f"the MCP server needs the mcp package: {_INSTALL}") from None
    if version.split(".")[0] != str(_SDK_MAJOR):
        raise McpUnavailableError(f"the MCP server needs mcp {_SDK_MAJOR}.x, found {version}: {_INSTALL}")
    try:
        from ._server import serve_stdio
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in _SDK_MODULES:
            raise
        raise McpUnavailableError(f"the MCP server cannot import {error.name}: {_INSTALL}") from None
    return serve_stdio
