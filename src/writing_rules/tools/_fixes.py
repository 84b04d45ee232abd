"""Safe fixes: which hits have one, and applying them to a text.

A rule source may give a signal pattern safe replacements (see
``docs/authoring.md``). A fix is tried at the start of a hit; when its match
reaches at least to the hit's end, the text it matched becomes the
replacement, in the capitalisation of that text. The compiler checked every
fix against its examples with the same rule (``writing_rules._fix_text``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from types import MappingProxyType
from typing import NamedTuple

from .._catalog import Catalog, rule_source
from .._fix_text import apply_case, fix_at

__all__ = ["Fix", "apply_case", "apply_fixes", "find_fix", "fix_signal_ids", "has_fixes", "may_fix"]


# A named tuple, not a dataclass: building a dataclass costs about 0.3 ms of every start.
class Fix(NamedTuple):
    """Replace ``text[start:end]`` with ``replacement``; ``start`` is the hit's start."""

    start: int
    end: int
    replacement: str


@cache
def _compiled(match: str) -> re.Pattern[str]:
    # Compiled when first tried: most scans never need a fix, and a signal's later fixes (a
    # term's plural and possessive forms) only for a hit its first ones do not fit. Keyed by
    # the text: two catalogues may hold a pack rule of one id in two versions.
    return re.compile(match)


def fix_signal_ids(catalog: Catalog | None) -> Mapping[str, tuple[str, ...]]:
    """Per rule with fixes, its signals that declare one, in the data's order (read without the
    fixes; kept per catalogue with packs: a pack may declare thousands of fixes)."""
    if catalog is None or not catalog.packs:
        return _fix_ids_of(catalog)
    return catalog.kept("fix signal ids", lambda: _fix_ids_of(catalog))


def _fix_ids_of(catalog: Catalog | None) -> Mapping[str, tuple[str, ...]]:
    fixed: dict[str, list[str]] = {}
    for rule_id, signal_id in rule_source(catalog).SIGNAL_FIXES:
        fixed.setdefault(rule_id, []).append(signal_id)
    return MappingProxyType({rule_id: tuple(signal_ids) for rule_id, signal_ids in fixed.items()})


# Past this many signals with fixes, a rule's fixes are not joined: a pack's vocabulary is one
# rule with a signal per term, and joining thousands of fixes would cost more than trying them.
_MAX_JOINED = 64


def _any_fix(rule_id: str, catalog: Catalog | None = None) -> re.Pattern[str] | None:
    """``_joined_fixes`` of the rule, kept (per catalogue with packs)."""
    if catalog is None or not catalog.packs:
        return _builtin_any_fix(rule_id)
    return catalog.kept(("joined fixes", rule_id), lambda: _joined_fixes(rule_id, catalog))


@cache
def _builtin_any_fix(rule_id: str) -> re.Pattern[str] | None:
    return _joined_fixes(rule_id, rule_source(None))


def _joined_fixes(rule_id: str, catalog: Catalog) -> re.Pattern[str] | None:
    """One pattern that matches where some fix of the rule matches, or None when they cannot be joined.

    A rule has dozens of fixes, tried one by one at each of its hits; most hits have
    none, and one joined pattern tells so in a single match. Patterns that are all
    case-insensitive as a whole, refer to no group and set no other global flag join
    exactly: an alternation matches where one of its branches does.
    """
    signals = fix_signal_ids(catalog).get(rule_id, ())
    if len(signals) > _MAX_JOINED:
        return None
    fixes = catalog.SIGNAL_FIXES
    patterns = [match for signal in signals for match, _ in fixes[rule_id, signal]]
    if not patterns or not all(p.startswith("(?i)") and not _UNJOINABLE.search(p, 4) for p in patterns):
        return None
    try:
        return re.compile("(?i)" + "|".join(f"(?:{pattern[4:]})" for pattern in patterns))
    except re.error:  # a name used twice, say
        return None


# What a branch cannot carry into an alternation: a reference to a group (numbered anew
# there) or a global flag (Python 3.10 applies it to the whole pattern).
_UNJOINABLE = re.compile(r"\\[1-9]|\(\?P=|\(\?\(|\\g<|\(\?[aiLmsux]+\)")


def may_fix(text: str, start: int, rule_id: str, *, catalog: Catalog | None = None) -> bool:
    """False when no fix of the rule can apply to a hit at ``start`` (True when unsure)."""
    joined = _any_fix(rule_id, catalog)
    return joined is None or joined.match(text, start) is not None


def has_fixes(rule_id: str, signal_id: str, *, catalog: Catalog | None = None) -> bool:
    """True when the signal's source declares at least one safe fix."""
    return (rule_id, signal_id) in rule_source(catalog).SIGNAL_FIXES


def find_fix(
    text: str, start: int, end: int, rule_id: str, signal_id: str, *, catalog: Catalog | None = None
) -> Fix | None:
    """The first declared fix of the signal that applies to the hit ``text[start:end]``, if any."""
    fixes = rule_source(catalog).SIGNAL_FIXES.get((rule_id, signal_id))
    if fixes is None:
        return None
    for match, template in fixes:
        done = fix_at(_compiled(match), template, text, start, end)
        if done is not None:
            return Fix(start, *done)
    return None


def apply_fixes(text: str, fixes: Iterable[Fix]) -> tuple[str, int]:
    """``text`` with the fixes applied, and how many were; a fix overlapping an earlier one is left out.

    Text outside the fixed spans is copied unchanged.
    """
    pieces: list[str] = []
    previous = 0
    applied = 0
    for fix in sorted(fixes, key=lambda fix: (fix.start, fix.end)):
        if fix.start < previous or not 0 <= fix.start <= fix.end <= len(text):
            continue
        pieces.append(text[previous : fix.start])
        pieces.append(fix.replacement)
        previous = fix.end
        applied += 1
    pieces.append(text[previous:])
    return "".join(pieces), applied
