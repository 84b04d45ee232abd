"""Writing a language's trigger table as compact rows, one key a line.

The trigger table (``SignalIndex.words``) is most of the generated module.
Written as Python tuples it repeats every text in quotes and brackets; as rows
(``src/writing_rules/_index_rows.py`` describes the format and expands them)
it takes a third of the room, and a pattern edit still changes only the lines
of the keys it touches. Sets of texts that are every combination of a few
parts (``chaffen worden``, ``chaffen wurde``, ``chlagen worden``, ``chlagen
wurde``) are written as the parts (``ch{aff|lag}en w{orden|urde}``).

Patterns are named by their signal ids, not by their positions in the table:
adding a pattern would renumber every pattern after it and rewrite most rows.
A key whose texts hold a character the rows reserve is written as a plain
literal instead (its patterns named too). The rows are expanded with the runtime's own code here and
must give back the table exactly, or the compiler stops.
"""

from __future__ import annotations

from typing import Any

from ._runs import consecutive_runs
from ._runtime import load_runtime

__all__ = ["index_rows"]

# Characters the rows use as separators; a text holding one is written as a literal.
# The rows sit in a triple-quoted string: a quote or a backslash would need escaping.
_RESERVED = frozenset('=>&;@:|{}~"\\\n\r')

Words = dict[str, Any]


def index_rows(words: Words, names: tuple[str, ...]) -> tuple[str, Words]:
    """``(rows, plain)``: the rows (one line a key, each ending in a newline) and the keys written as literals.

    ``names[i]`` names the pattern at position ``i`` of the language's table (its signal id).
    """
    lines: list[str] = []
    plain: Words = {}
    for key, entries in words.items():
        line = _line(key, entries, names)
        if line is None:
            plain[key] = tuple(
                (tails, tuple((befores, offsets, tuple(names[i] for i in found)) for befores, offsets, found in checks))
                for tails, checks in entries
            )
        else:
            lines.append(line)
    rows = "".join(line + "\n" for line in lines)
    positions = {name: position for position, name in enumerate(names)}
    expanded = load_runtime("_index_rows.py").expand_words(rows, plain, positions)
    if expanded != words or list(expanded) != list(words):
        wrong = next((key for key in words if expanded.get(key) != words[key]), None)
        raise AssertionError(f"the index rows do not give back the table (first wrong key: {wrong!r})")
    return rows, plain


def _plain(text: str) -> bool:
    return not _RESERVED.intersection(text)


def _line(key: str, entries: Any, names: tuple[str, ...]) -> str | None:
    """The key's row, or None when a text cannot be written in one."""
    if not key or not _plain(key) or not entries:
        return None
    parts = []
    for tails, checks in entries:
        # Each entry names its patterns, so equal entries read (and expand to) equal text.
        last: tuple[int, ...] | None = None
        if not tails or not checks or not all(map(_plain, tails)):
            return None
        written = []
        for befores, offsets, patterns in checks:
            # Empty befores are written as nothing; an empty text among them cannot be.
            if "" in befores or not offsets or not patterns or not all(map(_plain, befores)):
                return None
            # The commonest check, no befores at offset 0 (the key starts the match), is written as nothing.
            check = "" if not befores and offsets == (0,) else f"{_befores(befores)}@{_numbers(offsets)}"
            if patterns != last:
                check += ":" + ",".join(names[i] for i in patterns)
                last = patterns
            written.append(check)
        parts.append(f"{_texts(tails)}>{';'.join(written)}")
    return f"{key}={'&'.join(parts)}"


def _numbers(values: tuple[int, ...]) -> str:
    """``0,3..7,9``: runs of three or more consecutive numbers as ``first..last``."""
    items = []
    for first, last in consecutive_runs(values):
        if last - first >= 2:
            items.append(f"{first}..{last}")
        else:
            items.extend(map(str, range(first, last + 1)))
    return ",".join(items)


def _befores(befores: tuple[str, ...]) -> str:
    """Texts before a key, each written without the space it (nearly always) ends with; one
    ending otherwise (or a lone space) is written with a final ``~``. The runtime lists them sorted."""
    # A lone space keeps it, with the "~": an empty text would read as no befores at all.
    written = tuple(text[:-1] if text.endswith(" ") and text != " " else text + "~" for text in befores)
    return _texts(tuple(sorted(written)))


def _texts(texts: tuple[str, ...]) -> str:
    """A set of texts: its items joined by ``|``, or one item with ``{a|b}`` groups when shorter.

    Groups stand for every combination, which the runtime lists sorted: only a
    sorted set without repeats may be written with them.
    """
    listed = "|".join(texts)
    if len(texts) < 2 or list(texts) != sorted(set(texts)):
        return listed
    grouped = "".join(part if isinstance(part, str) else "{" + "|".join(part) + "}" for part in _parts(set(texts)))
    return grouped if len(grouped) < len(listed) else listed


def _parts(texts: set[str]) -> list[str | tuple[str, ...]]:
    """Literal parts and groups whose combinations are exactly ``texts``."""
    if len(texts) == 1:
        return [next(iter(texts))]
    head = _common_prefix(texts)
    rests = {text[len(head) :] for text in texts}
    tail = _common_prefix({rest[::-1] for rest in rests})[::-1]
    middles = {rest[: len(rest) - len(tail)] for rest in rests}
    split = _product(middles)
    if split is None:
        return [head, tuple(sorted(middles)), tail]
    firsts, seconds = split
    return [head, *_parts(firsts), *_parts(seconds), tail]


def _common_prefix(texts: set[str]) -> str:
    first, last = min(texts), max(texts)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return first[:size]


def _product(texts: set[str]) -> tuple[set[str], set[str]] | None:
    """Two sets of at least two texts whose concatenations are exactly ``texts``, or None."""
    shortest = min(texts, key=lambda text: (len(text), text))
    for cut in range(len(shortest) + 1):
        first, second = shortest[:cut], shortest[cut:]
        firsts = {text[: len(text) - len(second)] for text in texts if text.endswith(second)}
        seconds = {text[len(first) :] for text in texts if text.startswith(first)}
        if (
            len(firsts) >= 2
            and len(seconds) >= 2
            and len(firsts) * len(seconds) == len(texts)
            and {a + b for a in firsts for b in seconds} == texts
        ):
            return firsts, seconds
    return None
