"""The verdict cache: which patterns passed the backtracking checks, so a regenerate re-times only what changed.

The static check and the timed run (``_redos.py``, ``_timing.py``) are the
compiler's slow part: timing every pattern takes a minute or more of CPU. Their
verdict depends on the pattern's text (its flags are written inline, so
the text holds them), the examples its adversarial inputs are built from, the
timed run's parameters, the checker itself and the Python that runs it. ``verdict_key`` hashes all of
these (SHA-256): ``CHECKER_VERSION``, the static check's source and the timed
run's child program stand for the checker. The Python is not in the key but
beside it on the line (``PYTHON``), so one key can be vouched for on several.

``rules-src/verdicts.txt`` lists one line per pattern and Python that passed
both checks, sorted by rule and signal id, then Python::

    easy-claims/easy-word-en 3f5c...e1 ok cpython-3.11

The key and the Python decide: the compiler recomputes each pattern's key and
skips its timed run when that key is listed with ``ok`` for the Python it runs on
(``PYTHON``: implementation and major.minor, which fix the ``re`` engine and the
parser the static check reads). The label before it is for the reader of a diff.
So an entry for another pattern, another set of examples, an older checker or
another Python (a forged, hand-edited, stale or foreign line) is a miss, and the
pattern is checked again. A line in the format before 0.5.0, without a Python,
is a miss too: it does not say which ``re`` it stands for. When the file is
rewritten, another Python's lines are kept while their key is still a current
pattern's (the key itself does not depend on the Python), so each Python re-times
only what changed for it. The file is trusted for the timed run only: a line
with the right key is easy to forge (a pack's cache sits beside its sources, in
a checkout that may be hostile), so the static check, which costs a millisecond
a pattern and keeps a refused pattern from ever being run, runs whatever the
file says. ``python -m generator --retime`` ignores the file and times every
pattern again.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from ._paths import runtime_package
from ._redos import RUNTIME_FILE
from ._timing import CHILD_PROGRAM, CPU_LIMIT, FLOOR, GROWTH_LIMIT, STEP, timed_examples

__all__ = [
    "CHECKER_VERSION",
    "PYTHON",
    "STATIC_DIGEST",
    "VERDICTS_FILE",
    "parse_verdicts",
    "read_cache",
    "read_verdicts",
    "render_verdicts",
    "signal_examples",
    "trusted_keys",
    "verdict_key",
]

# Bump on any change to how the checks judge a pattern: every cached verdict then becomes a
# miss. The texts of the static check (packs/_redos.py of the runtime) and of the timed run's child program, and
# the run's parameters, are hashed into every key as well, so a change there that forgot the
# bump still re-checks everything.
CHECKER_VERSION = 1

VERDICTS_FILE = Path("rules-src") / "verdicts.txt"

# The Python a verdict is recorded for, and trusted on: the ``re`` engine (and ``sre_parse``,
# which the static check reads) changes between minor versions and implementations, not
# between patch releases, so a patch release keeps the verdicts (CI's Python is Debian's
# 3.11.2, the project machine's 3.11.7).
PYTHON = f"{sys.implementation.name}-{sys.version_info.major}.{sys.version_info.minor}"

_HEADER = (
    "# Verdicts of the compiler's backtracking checks (static and timed), written by `python -m generator`.\n"
    "# One line per pattern and Python that passed: <rule id>/<signal id> <SHA-256 of everything that decides it>\n"
    "# ok <Python implementation-major.minor>. A line whose key does not match the pattern's, or whose Python is\n"
    "# not the one running, is not trusted; `python -m generator --retime` re-checks all on the running Python.\n"
)
_MARK = re.compile(r"\[\[(.*?)\]\]", re.DOTALL)
_LINE = re.compile(r"^(\S+) ([0-9a-f]{64}) ok ([a-z][a-z0-9_]*-[0-9]+\.[0-9]+)$")
_CHILD_DIGEST = hashlib.sha256(CHILD_PROGRAM.encode("utf-8")).hexdigest()
# The static check's source (SHA-256), line endings normalised: a checkout with CRLF files keeps
# the committed verdicts. The pack compiler's term-checker key reuses it.
STATIC_DIGEST = hashlib.sha256((runtime_package() / RUNTIME_FILE).read_bytes().replace(b"\r\n", b"\n")).hexdigest()


def verdict_key(pattern: str, examples: Iterable[str], length: int) -> str:
    """SHA-256 over everything the checks' verdict on this pattern depends on."""
    decided_by = {
        "checker": CHECKER_VERSION,
        "child": _CHILD_DIGEST,
        "static": STATIC_DIGEST,
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


def parse_verdicts(text: str) -> dict[str, frozenset[str]]:
    """Each key a cache text lists as passed, with the Pythons it passed on (well-formed lines only)."""
    found: dict[str, set[str]] = {}
    for line in map(_LINE.match, text.splitlines()):
        if line:
            found.setdefault(line.group(2), set()).add(line.group(3))
    return {key: frozenset(pythons) for key, pythons in found.items()}


def trusted_keys(text: str, python: str | None = None) -> frozenset[str]:
    """The keys a cache text lists as passed on ``python`` (by default the running one, ``PYTHON``)."""
    python = python or PYTHON
    return frozenset(key for key, pythons in parse_verdicts(text).items() if python in pythons)


def read_cache(root: Path) -> str:
    """The text of ``root``'s cache; empty when there is none or it is unreadable."""
    try:
        return (Path(root) / VERDICTS_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def read_verdicts(root: Path, python: str | None = None) -> frozenset[str]:
    """The keys ``root``'s cache lists as passed on ``python`` (the running one); empty without a cache."""
    return trusted_keys(read_cache(root), python)


def render_verdicts(passed: Iterable[tuple[str, str]], previous: str = "") -> str:
    """The cache file for ``(label, key)`` of every pattern that passed on the running Python.

    ``previous`` is the file it replaces: its lines for other Pythons are kept for every key
    in ``passed`` (a current pattern's), under the current label; the rest are dropped.
    Sorted, one line per pattern and Python.
    """
    others = parse_verdicts(previous)
    lines = sorted(
        f"{label} {key} ok {python}" for label, key in set(passed) for python in {PYTHON, *others.get(key, ())}
    )
    return _HEADER + "".join(line + "\n" for line in lines)
