"""``writing-rules lsp``: the language server over stdio (needs the ``lsp`` extra).

pygls is imported only when the command runs, so the core stays dependency-free.
"""

from __future__ import annotations

from typing import Any, TextIO

__all__ = ["add_lsp_parser", "run_lsp"]


def add_lsp_parser(commands: Any) -> None:
    """Register ``lsp`` on the CLI's sub-command parsers."""
    commands.add_parser(
        "lsp",
        help="run the language server on stdin/stdout (needs the lsp extra)",
        description="Run the writing-rules Language Server over standard input and output, for editors: "
        "diagnostics while you type and code actions for the safe fixes. It reads .writing-rules.toml "
        "and inline directives as 'scan' does.",
        epilog="Editor set-up: docs/editors.md. Install: pip install 'writing-rules[lsp]'.",
    )


def run_lsp(stderr: TextIO) -> int:
    try:
        from ..lsp import serve
    except ImportError as error:
        stderr.write(f"writing-rules lsp: error: needs pygls: pip install 'writing-rules[lsp]' ({error})\n")
        return 2
    serve()
    return 0
