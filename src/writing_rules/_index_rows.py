"""Expanding the signal index's rows: the compact text the generated module stores.

The generated module writes one language's trigger table (``SignalIndex.words``)
as text, one key a line, so that a reader of a diff sees which keys a pattern
edit touched and the module stays small. This module turns that text back
into exactly the tuples the compiler built; the compiler checks the round
trip before it writes the module. It imports nothing from the package, so the
compiler can load it by file path. ``docs/rule-compiler.md`` ("The signal
index") describes the format:

    key=tails>befores@offsets:patterns;befores@offsets&tails>:patterns

- ``&`` separates a key's entries, ``;`` an entry's checks;
- a set of texts (tails, befores) is its items joined by ``|``, or one item
  with ``{a|b}`` groups standing for every combination, listed sorted
  (``ch{aff|lag}en`` is ``chaffen``, ``chlagen``);
- befores are written without the space they end with (``ma{d|k}e`` stands
  for ``made ``, ``make ``), one that ends otherwise (or a lone space) with a
  final ``~`` (``game-~`` is ``game-``), and listed sorted; empty befores
  check nothing, and a check with neither befores nor ``@offsets`` has none
  and the offset 0;
- offsets are numbers joined by ``,``, ``a..b`` a run of three or more;
- patterns are named by their signal ids joined by ``,`` (unique within a
  language): adding or removing a pattern changes only the lines of the keys
  it touches, where positions would renumber every pattern after it. The
  expansion turns each name into the pattern's position in the language's
  signal table, as the scanner uses them;
- a check without ``:patterns`` has the patterns of the check before it (the
  first check of an entry names them).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from sys import intern

__all__ = ["expand_words"]

# key -> ((tails, ((befores, offsets, patterns), ...)), ...)
Check = tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]
Entry = tuple[tuple[str, ...], tuple[Check, ...]]
Entries = tuple[Entry, ...]
# The same, with each pattern named (the generated module's literal keys)
NamedEntries = tuple[tuple[tuple[str, ...], tuple[tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...]], ...]], ...]


_AT_KEY = (0,)  # the offsets of a check written without ``befores@offsets``


def _texts(text: str) -> tuple[str, ...]:
    # Interned, as the compiler's constants were: a text that many sets hold is one object.
    if "{" not in text:
        return tuple(map(intern, text.split("|")))
    parts: list[tuple[str, ...] | list[str]] = []
    for position, part in enumerate(text.replace("}", "{").split("{")):
        parts.append(part.split("|") if position % 2 else (part,))
    return tuple(map(intern, sorted(map("".join, product(*parts)))))


def _befores(text: str) -> tuple[str, ...]:
    # Written without their final space, or with a final "~" where they end otherwise.
    return tuple(sorted(intern(item[:-1] if item[-1:] == "~" else item + " ") for item in _texts(text)))


def _numbers(text: str) -> tuple[int, ...]:
    if "." not in text:
        return tuple(map(int, text.split(",")))
    numbers: list[int] = []
    for item in text.split(","):
        low, dots, high = item.partition("..")
        numbers.extend(range(int(low), int(high) + 1) if dots else (int(low),))
    return tuple(numbers)


def _names(text: str, positions: Mapping[str, int]) -> tuple[int, ...]:
    # Pattern names in table order, as the compiler wrote them: their positions ascend.
    return tuple(map(positions.__getitem__, text.split(",")))


def _checks(
    text: str,
    befores_seen: dict[str, tuple[str, ...]],
    sets: dict[tuple[str, ...], tuple[str, ...]],
    numbers: dict[str, tuple[int, ...]],
    checks: dict[str, Check],
    positions: Mapping[str, int],
) -> tuple[Check, ...]:
    """An entry's checks, each looked up in (or added to) ``checks`` by its text with its patterns."""
    found = []
    patterns_text = ""
    for check_text in text.split(";"):
        if ":" in check_text:
            patterns_text = check_text[check_text.index(":") + 1 :]
        else:
            check_text += ":" + patterns_text
        check = checks.get(check_text)
        if check is None:
            befores_text, at, rest = check_text.partition("@")
            if at:
                befores = befores_seen.get(befores_text)
                if befores is None:
                    befores = _befores(befores_text)
                    befores = befores_seen[befores_text] = sets.setdefault(befores, befores)
                offsets_text = rest.partition(":")[0]
                offsets = numbers.get(offsets_text)
                if offsets is None:
                    offsets = numbers[offsets_text] = _numbers(offsets_text)
            else:
                befores, offsets = (), _AT_KEY
            # Names and offsets never share a key here: names start with a letter, offsets with a digit or "-".
            patterns = numbers.get(patterns_text)
            if patterns is None:
                patterns = numbers[patterns_text] = _names(patterns_text, positions)
            check = checks[check_text] = (befores, offsets, patterns)
        found.append(check)
    return tuple(found)


def expand_words(rows: str, plain: Mapping[str, NamedEntries], positions: Mapping[str, int]) -> dict[str, Entries]:
    """The trigger table from its rows (one key a line) and the keys written as plain literals.

    ``positions`` maps each pattern's name (its signal id) to its position in the
    language's signal table; the table names patterns by those positions.

    Equal texts (interned), sets, number lists, checks and entries become one
    shared object, as the compiler's constants were, so the expanded table
    takes no more memory; an entry, a check or a set is parsed once however
    many keys hold it.
    """
    texts: dict[str, tuple[str, ...]] = {"": ()}
    befores_seen: dict[str, tuple[str, ...]] = {"": ()}
    sets: dict[tuple[str, ...], tuple[str, ...]] = {}  # tails and befores alike: one object a value
    numbers: dict[str, tuple[int, ...]] = {}
    checks: dict[str, Check] = {}
    rows_seen: dict[str, tuple[Check, ...]] = {}
    entries: dict[str, Entry] = {}
    values: dict[str, Entries] = {}
    table: dict[str, Entries] = {}
    for line in rows.splitlines():
        key, _, value_text = line.partition("=")
        value = values.get(value_text)
        if value is None:
            found_entries = []
            for entry_text in value_text.split("&"):
                entry = entries.get(entry_text)
                if entry is None:
                    tails_text, _, checks_text = entry_text.partition(">")
                    tails = texts.get(tails_text) if tails_text else ("",)
                    if tails is None:
                        tails = _texts(tails_text)
                        tails = texts[tails_text] = sets.setdefault(tails, tails)
                    row = rows_seen.get(checks_text)
                    if row is None:
                        row = rows_seen[checks_text] = _checks(
                            checks_text, befores_seen, sets, numbers, checks, positions
                        )
                    entry = entries[entry_text] = (tails, row)
                found_entries.append(entry)
            value = values[value_text] = tuple(found_entries)
        table[key] = value
    if plain:
        table.update(
            (
                key,
                tuple(
                    (
                        tails,
                        tuple(
                            (befores, offsets, tuple(positions[name] for name in names))
                            for befores, offsets, names in checks
                        ),
                    )
                    for tails, checks in entries
                ),
            )
            for key, entries in plain.items()
        )
        table = dict(sorted(table.items()))
    return table
