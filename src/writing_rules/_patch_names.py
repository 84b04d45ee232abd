"""File names on the ``---``/``+++`` lines of a patch, written as git writes them.

Used by ``scan --fix --dry-run`` and by the document tools' diffs: a file name in a
checkout can hold a line break, and written as it is, the lines after it would read
as the header of a patch of another file.
"""

from __future__ import annotations

import os
import re

__all__ = ["needs_quoting", "quote_patch_name"]

# Git's quote_c_style with core.quotePath on: letters for these, octal for other bytes below
# 0x20, 0x7f and every byte of a non-ASCII character.
_ESCAPES = {0x07: "\\a", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0B: "\\v", 0x0C: "\\f", 0x0D: "\\r"}
_ESCAPES.update({ord('"'): '\\"', ord("\\"): "\\\\"})


def quote_patch_name(prefix: str, name: str) -> str:
    """``prefix + name`` as git writes it on a ``---``/``+++`` line of a patch, and as ``git apply`` reads it.

    A name with a quote, a backslash, a control or a non-ASCII character is
    C-quoted (``"a/n\\nl.md"``); unquoted, a newline in a name would start a
    line of the patch, and a hostile checkout could name files whose names read
    as a patch of another file. A label holding a space ends with a tab, as in
    git, so patch tools know where the name ends.
    """
    data = os.fsencode(prefix + name)  # a name that is not UTF-8 keeps its bytes
    if all(0x20 <= byte < 0x7F and byte not in (0x22, 0x5C) for byte in data):
        label = data.decode("ascii")
    else:
        label = (
            '"'
            + "".join(_ESCAPES.get(byte) or (chr(byte) if 0x20 <= byte < 0x7F else f"\\{byte:03o}") for byte in data)
            + '"'
        )
    return label + "\t" if " " in label else label


# Characters that break a line for some reader of the patch (str.splitlines among them), and the
# two git escapes; a name without any is written as it is.
_UNSAFE = re.compile(r'[\x00-\x1f\x7f-\x9f"\\\u2028\u2029]')


def needs_quoting(name: str) -> bool:
    """Whether ``name`` holds a control character, a line or paragraph separator, a quote or a backslash."""
    return _UNSAFE.search(name) is not None
