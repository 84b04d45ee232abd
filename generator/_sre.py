"""Python's own regular-expression parser, on every supported version.

The compiler reads patterns the way ``re`` does, through ``re``'s parser.
Its modules moved in Python 3.11 (``sre_parse`` became ``re._parser``, and the
old names warn), and they are internals that type stubs describe only in
part, so they are loaded here, once, and used untyped.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

__all__ = ["constants", "extra_cases", "parser", "simple_lower"]

_NEW = sys.version_info >= (3, 11)
constants: Any = importlib.import_module("re._constants" if _NEW else "sre_constants")
parser: Any = importlib.import_module("re._parser" if _NEW else "sre_parse")


def extra_cases() -> dict[int, tuple[int, ...]]:
    """The code points ``re`` treats as equal beyond simple lowercase (empty before 3.11)."""
    try:
        casefix: Any = importlib.import_module("re._casefix")
    except ImportError:  # pragma: no cover - Python 3.10 has no such table
        return {}
    return dict(casefix._EXTRA_CASES)


def simple_lower(code: int) -> int:
    """The simple lowercase mapping ``re`` compares by (``İ`` is ``i``)."""
    try:
        sre: Any = importlib.import_module("_sre")
        return int(sre.unicode_tolower(code))
    except (ImportError, AttributeError):  # pragma: no cover - not CPython
        return ord(chr(code).lower()[0])
