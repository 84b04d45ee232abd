"""``python -m writing_rules``: the command line, as a process of its own (like the console script)."""

from __future__ import annotations

import sys

from .cli import console_main

if __name__ == "__main__":
    sys.exit(console_main())
