"""The verdict cache: which patterns passed the backtracking checks, so a regenerate re-times only what changed.

The static check and the timed run (``_redos.py``, ``_timing.py``) are the
compiler's slow part: timing every pattern takes a minute or more of CPU. Their
verdict depends only on the pattern's text (its flags are written inline, so
the text holds them), the examples its adversarial inputs are built from, the
timed run's parameters and the checker itself. ``verdict_key`` hashes all of
these (SHA-256): ``CHECKER_VERSION``, the static check's source and the timed
run's child program stand for the checker.

``rules-src/verdicts.txt`` lists one line per pattern that passed both checks,
sorted by rule and signal id::

    easy-claims/easy-word-en 3f5c...e1 ok

Only the key decides: the compiler recomputes each pattern's key and skips its
checks when that key is listed with ``ok``. The label before it is for the
reader of a diff. So an entry for another pattern, another set of examples or
an older checker (a forged, hand-edited or stale line) is a miss, and the
pattern is checked again. The file is trusted input from the repository, like
the sources themselves: whoever can write a line with the right key could as
well edit a pattern. ``python -m generator --retime`` ignores the file and
times every pattern again.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path

from ._timing import CHILD_PROGRAM, CPU_LIMIT, FLOOR, GROWTH_LIMIT, STEP, timed_examples

__all__ = [
    "CHECKER_VERSION",
    "VERDICTS_FILE",
    "read_verdicts",
    "render_verdicts",
    "signal_examples",
    "verdict_key",
]

# Bump on any change to how the checks judge a pattern: every cached verdict then becomes a
# miss. The texts of the static check (_redos.py) and of the timed run's child program, and
# the run's parameters, are hashed into every key as well, so a change there that forgot the
# bump still re-checks everything.
CHECKER_VERSION = 1

VERDICTS_FILE = Path("rules-src") / "verdicts.txt"

_HEADER = (
    "# Verdicts of the compiler's backtracking checks (static and timed), written by `python -m generator`.\n"
    "# One line per pattern that passed: <rule id>/<signal id> <SHA-256 of everything that decides it> ok.\n"
    "# A line whose key does not match the pattern's is ignored; `python -m generator --retime` re-checks all.\n"
)
_MARK = re.compile(r"\[\[(.*?)\]\]", re.DOTALL)
_LINE = re.compile(r"^(\S+) ([0-9a-f]{64}) ok$")
_CHILD_DIGEST = hashlib.sha256(CHILD_PROGRAM.encode("utf-8")).hexdigest()
# Line endings normalised: a checkout with CRLF files keeps the committed verdicts.
_STATIC_DIGEST = hashlib.sha256((Path(__file__).parent / "_redos.py").read_bytes().replace(b"\r\n", b"\n")).hexdigest()


def verdict_key(pattern: str, examples: Iterable[str], length: int) -> str:
    """SHA-256 over everything the checks' verdict on this pattern depends on."""
    decided_by = {
        "checker": CHECKER_VERSION,
        "child": _CHILD_DIGEST,
        "static": _STATIC_DIGEST,
        "pattern": pattern,
        "examples": list(examples),
        "length": length,
        "step": STEP,
        "growth": GROWTH_LIMIT,
        "floor": FLOOR,
        "cpu": CPU_LIMIT,
    }
    text = json.dumps(decided_by, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def signal_examples(must_match: Iterable[str], must_not_match: Iterable[str]) -> tuple[str, ...]:
    """The examples a signal's pattern is timed on (marks removed), which its key covers."""
    return timed_examples([_MARK.sub(r"\1", text) for text in (*must_match, *must_not_match)])


def read_verdicts(root: Path) -> frozenset[str]:
    """The keys ``root``'s cache lists as passed; empty when there is no cache or it is unreadable."""
    try:
        text = (Path(root) / VERDICTS_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return frozenset()
    return frozenset(found.group(2) for found in map(_LINE.match, text.splitlines()) if found)


def render_verdicts(passed: Iterable[tuple[str, str]]) -> str:
    """The cache file for ``(label, key)`` of every pattern that passed: sorted, one a line."""
    lines = sorted({f"{label} {key} ok" for label, key in passed})
    return _HEADER + "".join(line + "\n" for line in lines)
