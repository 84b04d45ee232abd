"""The ``writing-rules`` command line: scan files, list rules, print prompts and tools, apply edits.

```
writing-rules scan docs/ --format sarif --output writing.sarif
```

The command line reads files; the runtime tools it calls never do. The names
here load on first use (PEP 562), so that the console script (``_console``)
sets up its process before the commands load.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .._lazy_exports import lazy_exports

# FileScan, ScanOptions and scan_text_as: how the language server scans an open document as `scan` would.
__all__ = ["FileScan", "ScanOptions", "detect_language", "main", "scan_text_as"]

_HOMES = {
    "FileScan": "._scan",
    "ScanOptions": "._scan",
    "scan_text_as": "._scan",
    "detect_language": "._language",
}

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from ._language import detect_language
    from ._scan import FileScan, ScanOptions, scan_text_as


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    from ._commands import run

    return run(argv, sys.stdin, sys.stdout, sys.stderr)


__getattr__, __dir__ = lazy_exports(globals(), _HOMES)
