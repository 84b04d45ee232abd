"""``writing-rules serve-mcp``: the review tools (and document tools) over MCP stdio.

The SDK is imported only when the command runs, so every other command works
without the ``mcp`` extra.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
from typing import Any, TextIO

from ..documents import DirectoryDocumentStore, create_document_tool_dispatcher
from ..tools import create_writing_tool_dispatcher

__all__ = ["add_serve_mcp_parser", "serve_mcp"]

_EXIT_OK, _EXIT_ERROR = 0, 2
_SDK_MAJOR = 2  # the extra pins mcp>=2,<3; 1.x has a different server API
_INSTALL = "install writing-rules[mcp] (pip install 'writing-rules[mcp]')"
# Missing any of these means the extra is not (fully) installed, not a bug here.
_SDK_MODULES = frozenset({"mcp", "mcp_types", "anyio", "pydantic"})


class _ServeError(ValueError):
    """The server cannot start as asked; the message says what to change."""


def add_serve_mcp_parser(commands: Any) -> None:
    """Register ``serve-mcp`` on the CLI's sub-command parsers."""
    serve = commands.add_parser(
        "serve-mcp",
        help="serve the tools over MCP stdio (needs the mcp extra)",
        description="Serve the four review tools over the Model Context Protocol on standard input "
        "and output. The audience and goal of the review prompt come from these options, never from "
        "a tool call; without them compose_writing_review_prompt answers host-context-missing.",
        epilog="Example client configuration: command 'writing-rules', args ['serve-mcp', "
        "'--audience', 'New admins', '--goal', 'Install the agent', '--documents', 'docs'].",
    )
    serve.add_argument("--audience", help="who reads the documents (with --goal)")
    serve.add_argument("--goal", help="what the reader wants to achieve (with --audience)")
    serve.add_argument(
        "--documents",
        metavar="DIR",
        help="also serve read_document and write_document on the files under DIR",
    )


def serve_mcp(args: argparse.Namespace, stderr: TextIO) -> int:
    """Check the options, then serve until the client closes standard input; returns the exit status."""
    try:
        router = _router(args)
        serve_stdio = _load_sdk()
    except _ServeError as error:
        stderr.write(f"writing-rules serve-mcp: error: {error}\n")
        return _EXIT_ERROR
    import anyio  # present: _load_sdk checked the extra

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a person stops a server by hand
        anyio.run(serve_stdio, router)
    return _EXIT_OK


def _router(args: argparse.Namespace) -> Any:
    from .._mcp_router import McpToolRouter

    if (args.audience is None) != (args.goal is None):
        raise _ServeError("give --audience and --goal together, or neither")
    context = None if args.audience is None else {"audience": args.audience, "goal": args.goal}
    try:
        review = create_writing_tool_dispatcher(review_context=context)
    except (TypeError, ValueError) as error:
        raise _ServeError(f"--audience and --goal: {error}") from None
    documents = None
    if args.documents is not None:
        try:
            documents = create_document_tool_dispatcher(DirectoryDocumentStore(args.documents))
        except (RuntimeError, ValueError) as error:
            raise _ServeError(f"--documents: {error}") from None
    return McpToolRouter(review, documents)


def _load_sdk() -> Any:
    try:
        version = importlib.metadata.version("mcp")
    except importlib.metadata.PackageNotFoundError:
        raise _ServeError(f"the MCP server needs the mcp package: {_INSTALL}") from None
    if version.split(".")[0] != str(_SDK_MAJOR):
        raise _ServeError(f"the MCP server needs mcp {_SDK_MAJOR}.x, found {version}: {_INSTALL}")
    try:
        from .._mcp_server import serve_stdio
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in _SDK_MODULES:
            raise
        raise _ServeError(f"the MCP server cannot import {error.name}: {_INSTALL}") from None
    return serve_stdio
