"""``writing-rules serve-mcp``: the review tools (and document tools) over MCP stdio.

The SDK is imported only when the command runs, so every other command works
without the ``mcp`` extra.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import TYPE_CHECKING, Any, TextIO

from .. import tools
from ..documents import DOCUMENTATION_FILES
from ._linting import PACK_HELP, command_line_packs
from ._status import EXIT_CLEAN, EXIT_ERROR, UsageError
from ._stores import STORE_LOCATIONS, database_store, is_database_url

if TYPE_CHECKING:
    from ..mcp import McpToolRouter

__all__ = ["add_serve_mcp_parser", "serve_mcp"]


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
        "--config",
        metavar="FILE",
        help="the team configuration to follow (default: the nearest one to the served folder)",
    )
    serve.add_argument("--no-config", action="store_true", help="follow no configuration file")
    serve.add_argument("--pack", action="append", metavar="PACK", help=PACK_HELP)
    serve.add_argument(
        "--documents",
        metavar="DIR|URL",
        help="also serve read_document and write_document on the prose documents under DIR ("
        + " ".join(DOCUMENTATION_FILES)
        + "; never hidden paths such as .git/ or .env, nor files that a build or docs generator reads as code, "
        f"such as CMakeLists.txt, requirements*.txt or _templates/), or on the documents in a database: "
        f"{STORE_LOCATIONS}",
    )
    serve.add_argument(
        "--documents-include",
        action="append",
        metavar="PATTERN",
        help="with --documents: also serve files whose name matches PATTERN, such as '*.mdx' or '*.html' "
        "(repeatable; their code runs when the site builds, so name them on purpose)",
    )
    serve.add_argument(
        "--documents-allow-hidden",
        action="store_true",
        help="with --documents: also serve paths with a part starting with '.' (a model could then "
        "change .git/config or CI workflows)",
    )


def serve_mcp(args: argparse.Namespace, stderr: TextIO) -> int:
    """Check the options, then serve until the client closes standard input; returns the exit status."""
    from ..mcp import McpUnavailableError, load_stdio_server  # only this command needs the server

    try:
        router = _router(args)
        serve_stdio = load_stdio_server()
    except (UsageError, McpUnavailableError) as error:
        stderr.write(f"writing-rules serve-mcp: error: {error}\n")
        return EXIT_ERROR
    import anyio  # present: load_stdio_server checked the extra

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a person stops a server by hand
        anyio.run(serve_stdio, router)
    return EXIT_CLEAN


def _team_settings(args: argparse.Namespace) -> Any:
    """The configuration of the served folder (--documents, else the working folder), as the CLI finds it."""
    from ..lint import ConfigError, ConfigResolver, FileSettings

    if args.config is not None and args.no_config:
        raise UsageError("give --config FILE or --no-config, not both")
    try:
        # A database has no folder of its own: its server follows the working folder's configuration.
        folder = "." if args.documents is None or is_database_url(args.documents) else args.documents
        config = ConfigResolver(args.config, disabled=args.no_config).config_for(folder)
    except ConfigError as error:
        raise UsageError(str(error)) from None
    # No file, or --no-config: the command line's defaults (levels warning and up), so MCP and scan agree.
    settings = FileSettings() if config is None else config.settings
    if args.pack:  # loaded now, once: never during a tool call
        settings = settings._replace(packs=command_line_packs(args.pack, settings.packs))
    return settings


def _router(args: argparse.Namespace) -> McpToolRouter:
    from ..documents import DirectoryDocumentStore, create_document_tool_dispatcher
    from ..mcp import McpToolRouter

    if (args.audience is None) != (args.goal is None):
        raise UsageError("give --audience and --goal together, or neither")
    context = None if args.audience is None else {"audience": args.audience, "goal": args.goal}
    settings = _team_settings(args)
    try:
        review = tools.create_writing_tool_dispatcher(review_context=context, config=settings)
    except (TypeError, ValueError) as error:
        raise UsageError(f"--audience and --goal: {error}") from None
    documents = None
    if args.documents is None and (args.documents_include or args.documents_allow_hidden):
        raise UsageError("--documents-include and --documents-allow-hidden need --documents DIR")
    if args.documents is not None:
        include = (*DOCUMENTATION_FILES, *(args.documents_include or ()))
        try:
            store = database_store(args.documents) or DirectoryDocumentStore(
                args.documents, include=include, allow_hidden=args.documents_allow_hidden
            )
            documents = create_document_tool_dispatcher(store)
        except (ImportError, RuntimeError, TypeError, ValueError) as error:
            raise UsageError(f"--documents: {error}") from None
    return McpToolRouter(review, documents)
