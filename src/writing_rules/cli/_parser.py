"""argparse without the terminal-width look-up on every start.

argparse builds a help formatter for each ``add_argument`` (to check the
metavar), and the formatter's constructor imports ``shutil`` for the terminal
width: about 1.7 ms of every start (``shutil`` loads the compression modules)
for help text that most runs never print. ``CommandParser`` formats with
``LazyWidthFormatter``, which asks for the width when it writes help or usage,
so the text is the same as argparse's own.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["CommandParser", "LazyWidthFormatter"]


class LazyWidthFormatter(argparse.HelpFormatter):
    """``argparse.HelpFormatter``, with the width (when not given) read in ``format_help``."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        # Any width will do until format_help: argparse reads it only while writing the text.
        super().__init__(prog, indent_increment, max_help_position, 80 if width is None else width)
        self._given_width = width
        self._given_help_position = max_help_position

    def format_help(self) -> str:
        width = self._given_width
        if width is None:
            import shutil

            width = shutil.get_terminal_size().columns - 2
        # As argparse.HelpFormatter.__init__ sets them from the width.
        self._width = width
        self._max_help_position = min(self._given_help_position, max(width - 20, self._indent_increment * 2))
        return super().format_help()


class CommandParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose default formatter is ``LazyWidthFormatter``; its sub-parsers too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", LazyWidthFormatter)
        super().__init__(*args, **kwargs)
