"""Static check for regular expressions that can backtrack catastrophically.

Python's ``re`` is a backtracking engine: a pattern such as ``(a+)+b`` takes
exponential time on ``aaaa…c``. The scanner runs every pattern over texts of
up to 250,000 characters supplied by a model, so such patterns are refused. The
check works on the parse tree and refuses:

- nested quantifiers: a quantifier with a maximum above 1 inside another;
- overlapping alternatives under a quantifier (``(a|ab)*``), where two
  alternatives can start with the same character;
- a repeated group that can match nothing (``(a?a?)+``, ``(a?){24}``) or can end
  with a character it can also start with (``(a|ba?)+``): each round can take
  the same text in two ways;
- adjacent quantifiers over overlapping characters (``\\s*\\s+``, ``\\w+\\w*``),
  also when a group, an alternative, a lookaround or a quantifier that can match
  nothing stands between them or around one (``(\\s*)\\s+``, ``\\s*a*\\s*``);
- repeats that take the same characters in turn (``.*a.*b``): along a path of the
  pattern, a chain of k unbounded repeats (or bounded above ``LONG_REPEAT`` rounds)
  that share characters, with nothing between them that cannot take one of those,
  tries about n^k ways from one start, and the search tries every start (one more
  such repeat when the chain can begin there). A degree above ``MAX_DEGREE`` (2: the
  time grows as the square of the text's length, as ``.*b`` does) is refused
  (``_degree``): ``.*a.*b`` is 3, ``.*a.*a.*a.*b`` 5; a last repeat with nothing after it
  that can fail adds none (``\\S+@\\S+`` is 2, ``\\S+@\\S+\\.\\w+`` 3). The shorter bounded repeats of
  such a chain multiply their rounds instead: more than ``MAX_WAYS`` ways to split
  the text after one start (``.{0,100}a.{0,100}a.{0,100}b``: 101^3) are refused;
- backreferences, atomic groups and possessive quantifiers (the last two do
  not exist on Python 3.10, which the package supports).

One check for both sides: the compiler loads this file by path
(``generator/_redos.py``, as it loads ``_fix_text.py``) and refuses such a pattern
at build time; the pack loader runs it on a pack module's patterns and fixes when
it first compiles them, since a module is data a checkout can write by hand (its
checksums made to match) and never went through ``pack build``. What this static
check misses, the build's timed run (``generator/_timing.py``) catches.

Which characters an item matches is asked of ``re`` itself, with the flags in
force there (a leading ``(?i)``, a scoped ``(?i:…)`` or ``(?-i:…)``, ``(?s)``,
``(?a)``): case-insensitive matching follows ``re``'s own case mapping, which is
not ``str.casefold`` (``İ`` and ``ı`` match ``i``; ``ß`` does not match ``s``).
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
from collections.abc import Iterable
from typing import Any, NamedTuple

# Python's own regular-expression parser (``re._parser`` from 3.11, ``sre_parse`` before), untyped.
_NEW = sys.version_info >= (3, 11)
C: Any = importlib.import_module("re._constants" if _NEW else "sre_constants")
sre_parse: Any = importlib.import_module("re._parser" if _NEW else "sre_parse")

__all__ = ["MAX_DEGREE", "polynomial_degree", "static_problems"]

# Characters the overlap test probes: ASCII, Latin-1, Latin Extended, general
# punctuation and typographic quotes cover what the patterns are about; each
# character the pattern names (a literal, a range's ends, a short range whole),
# and the other cases of each, are added, so an overlap of other scripts
# ("[丁丂]|丁丂", "[\u4e01\u4e02]|\u4e01\u4e02") is seen too.
_PROBE = frozenset(chr(c) for c in (*range(0x0, 0x250), *range(0x2000, 0x2070), 0x3000, 0xFEFF))
_SHORT_RANGE = 1024  # a range up to this many characters is probed whole

# The flags that change which characters an item matches.
_CHAR_FLAGS = re.IGNORECASE | re.ASCII | re.DOTALL

_NESTED = "nested quantifiers (a repeated group that contains another repetition) can backtrack catastrophically"
_ALTERNATION = (
    "alternatives under a quantifier can start with the same character "
    "(overlapping alternation backtracks catastrophically)"
)
_EMPTY_ROUND = (
    "a repeated group that can match nothing can take the same text in many ways (backtracks catastrophically)"
)
_ROUND_OVERLAP = (
    "a repeated group that can end with a character it can also start with can take "
    "the same text in many ways (backtracks catastrophically)"
)
_ADJACENT = "adjacent quantifiers over overlapping characters (such as \\s*\\s+) backtrack quadratically"

# Polynomial backtracking: the refused degree, the rounds past which a bounded repeat counts as
# unbounded, and the most ways the shorter bounded repeats of one chain may split a text between them.
MAX_DEGREE = 2
LONG_REPEAT = 100
MAX_WAYS = 100_000
_KEPT_STATES = 64  # the chains followed at once; past this, those with the same characters are merged
_KEPT_CONSTRAINTS = 8  # the constraints a merged chain keeps


def _polynomial(degree: int) -> str:
    return (
        f"repeats that can take the same characters in turn (such as .*a.*b, where the search's own start "
        f"counts as one) make the time a scan takes grow as the text's length to the power {degree}; "
        f"at most {MAX_DEGREE} is allowed"
    )


def _many_ways(ways: int) -> str:
    return (
        f"bounded repeats that can take the same characters in turn (such as .{{0,99}}a.{{0,99}}a.{{0,99}}b) "
        f"can split a text in {ways:,} ways from each start; at most {MAX_WAYS:,} are allowed"
    )


Chars = frozenset[str]
Items = list[tuple[Any, Any]]


class _Check(NamedTuple):
    flags: int  # the flags in force (only those in _CHAR_FLAGS matter)
    probe: str  # the characters overlaps are looked for among

    def within(self, subpattern: Any) -> _Check:
        """The check inside a group, whose ``(?i:…)`` / ``(?-i:…)`` change the flags."""
        add, delete = subpattern[1], subpattern[2]
        flags = (self.flags | add) & ~delete
        if add & re.UNICODE:  # (?u:…) inside (?a): re takes the group's own, never both
            flags &= ~re.ASCII
        return self._replace(flags=flags & _CHAR_FLAGS)

    @property
    def everything(self) -> Chars:
        return frozenset(self.probe)


def static_problems(pattern: str) -> list[str]:
    """Return a message per construct that can backtrack catastrophically."""
    try:
        parsed = sre_parse.parse(pattern)
    except Exception:  # compile errors are reported by the caller
        return []
    items = list(parsed)
    probe = "".join(sorted(_PROBE | _named_characters(items)))
    problems: list[str] = []
    check = _Check(parsed.state.flags & _CHAR_FLAGS, probe)
    _walk(items, check, inside_repeat=False, problems=problems)
    degree, ways = _degree(items, check)
    if degree > MAX_DEGREE:
        problems.append(_polynomial(degree))
    if ways > MAX_WAYS:
        problems.append(_many_ways(ways))
    return sorted(set(problems))


def _named_characters(items: Any) -> set[str]:
    """Every character the parse tree names, a short range's whole, and their other cases."""
    named: set[str] = set()
    stack = [items]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple) and len(node) == 2 and node[0] in (C.LITERAL, C.NOT_LITERAL):
            named.add(chr(node[1]))
        elif isinstance(node, tuple) and len(node) == 2 and node[0] == C.RANGE:
            low, high = node[1]
            named.update(map(chr, range(low, high + 1) if high - low <= _SHORT_RANGE else (low, high)))
        elif isinstance(node, (list, tuple)) or type(node).__name__ == "SubPattern":
            stack.extend(node)
    cases = {variant for c in named for variant in (c.lower(), c.upper(), c.title(), c.casefold())}
    return named | {c for c in cases if len(c) == 1}


def _is_repeat(op: Any) -> bool:
    return op in (C.MAX_REPEAT, C.MIN_REPEAT)


def _walk(items: Items, check: _Check, inside_repeat: bool, problems: list[str]) -> None:
    _check_adjacent(items, check, problems)
    _adjacent(items, check, _NOTHING, problems)
    for op, av in items:
        name = str(op)
        if name in ("ATOMIC_GROUP", "POSSESSIVE_REPEAT"):
            problems.append("atomic groups and possessive quantifiers are not available on Python 3.10")
            continue
        if op in (C.GROUPREF, C.GROUPREF_EXISTS):
            problems.append("backreferences can backtrack exponentially; rewrite without them")
            if op == C.GROUPREF_EXISTS:
                for branch in av[1:]:
                    if branch is not None:
                        _walk(list(branch), check, inside_repeat, problems)
            continue
        if _is_repeat(op):
            _, high, body = av
            repeats = high > 1
            if repeats and inside_repeat:
                problems.append(_NESTED)
            if repeats:
                _check_alternation(list(body), check, problems)
                _check_rounds(list(body), check, problems)
            _walk(list(body), check, inside_repeat or repeats, problems)
        elif op == C.SUBPATTERN:
            _walk(list(av[-1]), check.within(av), inside_repeat, problems)
        elif op == C.BRANCH:
            for branch in av[1]:
                _walk(list(branch), check, inside_repeat, problems)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            _walk(list(av[1]), check, inside_repeat, problems)


def _check_alternation(items: Items, check: _Check, problems: list[str]) -> None:
    """Alternatives under a quantifier must start with disjoint characters.

    ``re`` factors common prefixes (``a|ab`` becomes ``a(?:|b)``), so every
    branch in the repeated body counts, and an empty alternative overlaps all.
    """
    for op, av in items:
        if op == C.SUBPATTERN:
            _check_alternation(list(av[-1]), check.within(av), problems)
        elif op == C.BRANCH:
            firsts = [_first_chars(list(branch), check) for branch in av[1]]
            for i, left in enumerate(firsts):
                for right in firsts[i + 1 :]:
                    if left is None or right is None or left & right:
                        problems.append(_ALTERNATION)
                        return
            for branch in av[1]:
                _check_alternation(list(branch), check, problems)


def _check_rounds(body: Items, check: _Check, problems: list[str]) -> None:
    """One round of a repeated body must not be able to end where the next can start.

    A round that can match nothing, or whose optional end can take a character the
    next round can start with (``(a|ba?)+`` on ``baba…``), splits the same text
    into rounds in exponentially many ways.
    """
    tail, empty = _tail(body, check)
    if empty:
        problems.append(_EMPTY_ROUND)
        return
    if tail is None or tail:
        first = _first_chars(body, check)
        if tail is None or first is None or tail & first:
            problems.append(_ROUND_OVERLAP)


def _tail(items: Items, check: _Check) -> tuple[Chars | None, bool]:
    """Characters an optional or variable end of the sequence can start with (None: unknown),
    and whether the whole sequence can match nothing."""
    chars: set[str] = set()
    for op, av in reversed(items):
        if _is_repeat(op):
            low, high, body = av
            if low < high:  # the next round could start where this repeat's next turn would,
                # or where an optional end inside a turn would: (?:b(?:ab?)?)+ splits "bab" as "ba|b"
                inner = _first_chars(list(body), check)
                inner_tail, inner_empty = _tail(list(body), check)
                if inner is None or inner_tail is None:
                    return None, False
                chars |= inner | inner_tail
                if low == 0 or inner_empty:
                    continue
                return frozenset(chars), False
            tail, empty = _tail(list(body), check) if high else (frozenset(), True)
        elif op == C.SUBPATTERN:
            tail, empty = _tail(list(av[-1]), check.within(av))
        elif op == C.BRANCH:
            tails = [_tail(list(branch), check) for branch in av[1]]
            if any(tail is None for tail, _ in tails):
                return None, False
            tail = frozenset().union(*(tail for tail, _ in tails if tail is not None))
            empty = any(empty for _, empty in tails)
        elif op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue
        elif _matching(op, av, check) is not None:
            return frozenset(chars), False
        else:
            return None, False
        if tail is None:
            return None, False
        chars |= tail
        if not empty:
            return frozenset(chars), False
    return frozenset(chars), True


def _check_adjacent(items: Items, check: _Check, problems: list[str]) -> None:
    """Two variable repeats in one sequence must not share characters when nothing stands between
    them but items taken at most once and possibly not at all (``b?``, ``b{0}``, ``(?:bc)?``);
    any other item (a character, a fixed count, another repeat, a capturing or flagged group,
    an alternative, a lookaround, an anchor) ends the comparison."""
    previous: Chars | None = None
    for op, av in items:
        if _is_repeat(op) and av[1] > 1 and av[1] != av[0]:
            chars = _chars_of(list(av[2]), check)
            if previous is not None and (chars is None or chars & previous):
                problems.append(_ADJACENT)
            previous = chars if chars is not None else check.everything
        elif _is_repeat(op) and av[0] == 0:
            continue  # an optional item keeps the previous repeat adjacent to the next
        else:
            previous = None


class _Pending(NamedTuple):
    """Characters variable repeats just before can still give back: unbounded ones, bounded ones."""

    unbounded: Chars
    bounded: Chars

    def join(self, other: _Pending) -> _Pending:
        return _Pending(self.unbounded | other.unbounded, self.bounded | other.bounded)


_NOTHING = _Pending(frozenset(), frozenset())


def _adjacent(items: Items, check: _Check, pending: _Pending, problems: list[str]) -> _Pending:
    """Variable repeats that meet through a group, an alternative, a lookaround or an item that
    can match nothing (``(\\s*)\\s+``, ``\\s*a*\\s*``) must not share characters when one
    of them is unbounded; the return value is what is pending after the sequence.

    Two bounded repeats cost at most the product of their bounds a position, which the
    build's timed run judges; they are refused only within one sequence with nothing
    between them but items taken at most once and possibly not at all (``_check_adjacent``).
    """
    for op, av in items:
        if _is_repeat(op):
            low, high, body = av
            if high > 1 and high != low:
                chars = _chars_of(list(body), check)
                chars = check.everything if chars is None else chars
                unbounded = high == C.MAXREPEAT
                if chars & pending.unbounded or (unbounded and chars & pending.bounded):
                    problems.append(_ADJACENT)
                own = _Pending(chars, frozenset()) if unbounded else _Pending(frozenset(), chars)
                pending = own.join(pending) if low == 0 else own
            elif low == 0:  # optional (or {0}): the items around it can meet
                pending = pending.join(_adjacent(list(body), check, pending, problems) if high else _NOTHING)
            else:  # a fixed count: what its body leaves
                pending = _adjacent(list(body), check, pending, problems)
        elif op == C.SUBPATTERN:
            pending = _adjacent(list(av[-1]), check.within(av), pending, problems)
        elif op == C.BRANCH:
            outcomes = [_adjacent(list(branch), check, pending, problems) for branch in av[1]]
            pending = _NOTHING
            for after in outcomes:
                pending = pending.join(after)
        elif op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue  # matches no character: the repeats on either side meet
        else:
            pending = _NOTHING
    return pending


def _chars_of(items: Items, check: _Check) -> Chars | None:
    """All probe characters a sequence can consume, or None when unknown."""
    chars: set[str] = set()
    for op, av in items:
        matching = _matching(op, av, check)
        if matching is not None:
            chars |= matching
        elif op == C.SUBPATTERN:
            inner = _chars_of(list(av[-1]), check.within(av))
            if inner is None:
                return None
            chars |= inner
        elif op == C.BRANCH:
            for branch in av[1]:
                inner = _chars_of(list(branch), check)
                if inner is None:
                    return None
                chars |= inner
        elif _is_repeat(op):
            inner = _chars_of(list(av[2]), check)
            if inner is None:
                return None
            chars |= inner
        elif op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue
        else:
            return None
    return frozenset(chars)


def _first_chars(items: Items, check: _Check) -> Chars | None:
    """Probe characters a sequence can start with; None when it can match empty or is unknown."""
    chars: set[str] = set()
    for op, av in items:
        matching = _matching(op, av, check)
        if matching is not None:
            return frozenset(chars | matching)
        if op == C.SUBPATTERN:
            inner = _first_chars(list(av[-1]), check.within(av))
            if inner is None:
                return None
            return frozenset(chars | inner)
        if op == C.BRANCH:
            for branch in av[1]:
                inner = _first_chars(list(branch), check)
                if inner is None:
                    return None
                chars |= inner
            return frozenset(chars)
        if _is_repeat(op):
            inner = _first_chars(list(av[2]), check)
            if inner is None:
                return None
            chars |= inner
            if av[0] >= 1:
                return frozenset(chars)
            continue  # optional: the next item can start the match too
        if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue
        return None
    return None  # the sequence can match the empty string


_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
}


def _matching(op: Any, av: Any, check: _Check) -> Chars | None:
    """The probe characters one character item matches; None when ``op`` is no such item."""
    if op == C.LITERAL:
        source = _escape(av)
    elif op == C.NOT_LITERAL:
        source = f"[^{_escape(av)}]"
    elif op == C.ANY:
        source = "."
    elif op == C.IN:
        known = _set_source(av)
        if known is None:  # a member this check does not know: assume it can match anything
            return check.everything
        source = known
    else:
        return None
    return _matches(source, check.flags, check.probe)


@functools.lru_cache(maxsize=4096)
def _matches(source: str, flags: int, probe: str) -> Chars:
    """Asked of ``re`` itself: its case mapping under IGNORECASE is not ``str.casefold``."""
    return frozenset(re.compile(source, flags).findall(probe))


def _escape(code: int) -> str:
    return f"\\U{code:08x}"


def _set_source(items: Any) -> str | None:
    parts: list[str] = []
    for op, av in items:
        if op == C.NEGATE:
            parts.insert(0, "^")
        elif op == C.LITERAL:
            parts.append(_escape(av))
        elif op == C.RANGE:
            parts.append(f"{_escape(av[0])}-{_escape(av[1])}")
        elif op == C.CATEGORY and str(av) in _CATEGORIES:
            parts.append(_CATEGORIES[str(av)])
        else:
            return None
    return "[" + "".join(parts) + "]"


def polynomial_degree(pattern: str) -> int:
    """The power of the text's length a search with ``pattern`` can take time as (1: linear; 0: no pattern).

    See ``_degree``; the static check refuses a degree above ``MAX_DEGREE``.
    """
    try:
        parsed = sre_parse.parse(pattern)
    except Exception:  # compile errors are reported by the caller
        return 0
    items = list(parsed)
    probe = "".join(sorted(_PROBE | _named_characters(items)))
    return _degree(items, _Check(parsed.state.flags & _CHAR_FLAGS, probe))[0]


def _degree(items: Items, check: _Check) -> tuple[int, int]:
    """The most long repeats, and the most ways, of a chain of repeats that take the same characters in turn.

    A long repeat is unbounded (``*``, ``+``, ``{n,}``) or bounded above ``LONG_REPEAT``
    rounds. Along each path of the pattern, repeats form a chain when some characters
    are taken by every one of them, and every item between them can take one of those
    characters or match nothing: on a text of those characters each repeat can stop at
    any place, and the next goes on from there, so a chain of k repeats tries about n^k
    ways from one start. The search tries every start, as a repeat over every character
    before the pattern would: ``.*b`` is degree 2 (quadratic), ``.*a.*b`` 3, ``.*a.*a.*a.*b`` 5.
    A repeat with nothing after it that can fail (the pattern's end, or only parts that can match
    nothing, or ``\\b`` after a greedy ``\\w+``) adds nothing, to the degree or the ways: once it
    has its minimum the match succeeds, so it never gives back a place for a later part to try
    (``\\S+@\\S+`` is 2; ``\\S+@\\S+\\.\\w+`` 3, as its "." can fail after the second ``\\S+``).
    A lookaround's repeats run at each place it is tried, so they join the chain there;
    a lookaround of one character, and ``\\b``, are items between repeats like any other
    (``\\b`` needs both a word and a non-word character), ``\\A`` and ``\\Z`` end every chain.

    The shorter bounded repeats (2 to ``LONG_REPEAT`` rounds) of a chain multiply instead:
    ``.{0,100}a.{0,100}a.{0,100}b`` can split the text after one start in 101^3 ways. The
    second value is the most ways of any chain (capped at 10^9); a chain's ways and its long
    repeats are not combined (``.*a.{0,99}a.{0,99}b``: degree 2, 10,000 ways).

    An upper bound, deterministic and without running anything: it does not see that the text a
    repeat needs to stop may be what each start needs too (a scan for "should" after each
    "should" stops at the next). What it lets through, the build's timed run judges.
    """
    repeats: list[Chars] = []
    _chain_repeats(items, check, repeats)
    if not repeats:
        return 1, 1
    chains = _Chains(check, repeats)
    chains.sequence(items, {(chains.everything, frozenset()): (1, 1)}, check, final=True)
    return chains.degree, chains.ways


def _chain_repeats(items: Items, check: _Check, found: list[Chars]) -> None:
    """The characters of each repeat of the pattern whose count varies and can exceed 1."""
    for op, av in items:
        if _is_repeat(op):
            if av[1] > 1 and av[1] != av[0]:
                chars = _chars_of(list(av[2]), check)
                found.append(check.everything if chars is None else chars)
            _chain_repeats(list(av[2]), check, found)
        elif op == C.SUBPATTERN:
            _chain_repeats(list(av[-1]), check.within(av), found)
        elif op == C.BRANCH:
            for branch in av[1]:
                _chain_repeats(list(branch), check, found)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            _chain_repeats(list(av[1]), check, found)
        elif op == C.GROUPREF_EXISTS:
            for branch in av[1:]:
                if branch is not None:
                    _chain_repeats(list(branch), check, found)


# A chain in progress: (the characters every repeat in it can take; the sets of characters the
# items between them need one of) -> its degree and ways so far (the most of any chain with that
# key, each). Characters are counted in atoms, one bit each: the classes of probe characters that
# the same repeats take (a chain's characters are always a union of atoms), so that "t", "h" and
# "e" between two ``\w*`` are one constraint.
_Cost = tuple[int, int]
_Chains_ = dict[tuple[int, frozenset[int]], _Cost]
_WAYS_CAP = 10**9
_LINE_BREAK = frozenset("\n")


class _Chains:
    """Follows the paths of a pattern, counting along each the repeats that overlap (``_degree``)."""

    def __init__(self, check: _Check, repeats: list[Chars]) -> None:
        self.bits = {c: 1 << i for i, c in enumerate(check.probe)}
        self.all_characters = (1 << len(check.probe)) - 1
        atoms = [self.all_characters]
        for chars in dict.fromkeys(repeats):
            taken = self.characters(chars)
            atoms = [part for atom in atoms for part in (atom & taken, atom & ~taken) if part]
        self.atoms = atoms
        self.everything = (1 << len(atoms)) - 1
        self.masks: dict[Chars, int] = {}
        self.degree = 1
        self.ways = 1

    def characters(self, chars: Chars) -> int:
        """One bit per probe character (each of ``chars`` is one)."""
        bits = self.bits
        return sum(bits[c] for c in chars)

    def of_characters(self, characters: int) -> int:
        """The atoms that hold one of ``characters`` (a bit per probe character)."""
        return sum(1 << i for i, atom in enumerate(self.atoms) if atom & characters)

    def mask(self, chars: Chars) -> int:
        found = self.masks.get(chars)
        if found is None:
            found = self.masks[chars] = self.of_characters(self.characters(chars))
        return found

    def other(self, chars: Chars) -> int:
        """The atoms that hold a character not in ``chars``."""
        return self.of_characters(self.all_characters & ~self.characters(chars))

    def add(self, chains: _Chains_, key: tuple[int, frozenset[int]], cost: _Cost) -> None:
        known = chains.get(key)
        if known is None:
            chains[key] = cost
        elif known[0] < cost[0] or known[1] < cost[1]:
            chains[key] = (max(known[0], cost[0]), max(known[1], cost[1]))
        else:
            return
        self.degree = max(self.degree, cost[0])
        self.ways = max(self.ways, cost[1])

    def meet(self, chains: _Chains_, mask: int) -> _Chains_:
        """Past an item that takes one of ``mask``'s characters: the chains whose characters include one."""
        out: _Chains_ = {}
        for (own, needed), cost in chains.items():
            if own & ~mask == 0:  # it takes each of the chain's characters: it always will
                self.add(out, (own, needed), cost)
            elif own & mask:
                self.add(out, (own, needed | {mask}), cost)
        return out

    def sequence(self, items: Items, chains: _Chains_, check: _Check, final: bool = False) -> _Chains_:
        """The chains past ``items`` (a new dict, or ``chains`` itself when no item changed them);
        ``final``: nothing after the sequence can make the match fail."""
        ends = _ends(items, final)
        for (op, av), end in zip(items, ends, strict=True):
            matching = _matching(op, av, check)
            if matching is not None:
                chains = self.meet(chains, self.mask(matching))
            elif op == C.SUBPATTERN:
                chains = self.sequence(list(av[-1]), chains, check.within(av), end)
            elif op == C.BRANCH:
                out: _Chains_ = {}
                for branch in av[1]:
                    for key, cost in self.sequence(list(branch), chains, check, end).items():
                        self.add(out, key, cost)
                chains = out
            elif _is_repeat(op):
                chains = self.repeat(av, chains, check, end)
            elif op == C.AT:
                chains = self.anchor(av, chains, check)
            elif op in (C.ASSERT, C.ASSERT_NOT):
                self.sequence(list(av[1]), chains, check)  # its repeats run at each place it is tried
                one = _one_character(list(av[1]), check)
                if one is not None:  # the character next to the place must be (or not be) one of these
                    chains = self.meet(chains, self.mask(one) if op == C.ASSERT else self.other(one))
            else:  # a backreference (refused anyway): what follows it is not followed
                chains = {}
            if len(chains) > _KEPT_STATES:
                chains = _merged(chains)
        return chains

    def repeat(self, av: Any, chains: _Chains_, check: _Check, final: bool) -> _Chains_:
        low, high, body = av
        body = list(body)
        if high <= 1 or low == high:  # taken at most once, or a fixed number of times: its items in turn
            after = dict(self.sequence(body, chains, check, final and high <= 1)) if high else {}
            if low == 0:
                for key, cost in chains.items():
                    self.add(after, key, cost)
            return after
        chars = _chars_of(body, check)
        mask = self.everything if chars is None else self.mask(chars)
        out = dict(chains) if low == 0 else self.meet(chains, mask)
        # A long repeat adds one to the degree, a shorter one multiplies the ways by its rounds; one
        # with nothing after it that can fail adds nothing: past its minimum the match succeeds, so
        # it never gives back a place (\S+@\S+ is quadratic, \S+@\S+\.\w+ cubic).
        if final:
            longer, rounds = 0, 1
        else:
            longer, rounds = (1, 1) if high > LONG_REPEAT else (0, high - low + 1)
        self.add(out, (mask, frozenset()), (longer, rounds))  # a chain of its own
        for (own, needed), (degree, ways) in chains.items():
            shared = own & mask
            if shared and all(shared & constraint for constraint in needed):
                self.add(out, (shared, needed), (degree + longer, min(ways * rounds, _WAYS_CAP)))
        return out

    def anchor(self, code: Any, chains: _Chains_, check: _Check) -> _Chains_:
        name = str(code)
        if name == "AT_NON_BOUNDARY":  # holds inside a run of one character
            return chains
        if name == "AT_BOUNDARY":  # a word character on one side, a non-word character on the other
            word = _matches(r"\w", check.flags, check.probe)
            return self.meet(self.meet(chains, self.mask(word)), self.other(word))
        if name in ("AT_BEGINNING", "AT_END"):  # next to a line break (under (?m); taken as if always)
            return self.meet(chains, self.mask(_LINE_BREAK))
        return {}  # the start or the end of the text: one place


def _ends(items: Items, final: bool) -> list[bool]:
    """For each item, whether nothing after it can make the match fail (``final``: nothing after
    ``items`` can). What can match nothing cannot fail (a repeat or an optional part whose minimum
    is 0, a group of such parts); nor can ``\\b`` right after a greedy unbounded ``\\w+`` (its end
    is a word character followed by none, under the same flags). Anything else can: a character,
    an anchor, a lookaround, an alternative, a repeat that must be taken at least once."""
    ends = [False] * len(items)
    rest = final
    for index in range(len(items) - 1, -1, -1):
        ends[index] = rest
        op, av = items[index]
        if op == C.AT and str(av) == "AT_BOUNDARY" and index and _greedy_words(*items[index - 1]):
            continue  # the \b holds where the \w+ before it stops, so it cannot fail there
        rest = rest and _cannot_fail(op, av)
    return ends


def _cannot_fail(op: Any, av: Any) -> bool:
    if _is_repeat(op):
        return bool(av[0] == 0)
    if op == C.SUBPATTERN:
        return all(_cannot_fail(*item) for item in av[-1])
    return False


def _greedy_words(op: Any, av: Any) -> bool:
    """A greedy ``\\w+`` (or ``\\w{n,}`` with n >= 1): it stops before a non-word character or the end."""
    if op != C.MAX_REPEAT or av[0] < 1 or av[1] != C.MAXREPEAT:
        return False
    body = list(av[2])
    return (
        len(body) == 1
        and body[0][0] == C.IN
        and [(str(o), str(a)) for o, a in body[0][1]] == [("CATEGORY", "CATEGORY_WORD")]
    )


def _minimal(needed: Iterable[int]) -> list[int]:
    """The constraints without those a narrower one implies, narrowest first."""
    kept: list[int] = []
    for constraint in sorted(set(needed), key=_narrow_first):
        if not any(other & ~constraint == 0 for other in kept):
            kept.append(constraint)
    return kept


def _narrow_first(constraint: int) -> tuple[int, int]:
    return constraint.bit_count(), constraint


def _merged(chains: _Chains_) -> _Chains_:
    """One chain per set of characters: constraints that hold when any merged chain's hold, the highest costs."""
    merged: dict[int, tuple[frozenset[int], _Cost]] = {}
    for (own, needed), cost in chains.items():
        known = merged.get(own)
        if known is None:
            merged[own] = (needed, cost)
        else:
            merged[own] = (_either(known[0], needed), (max(known[1][0], cost[0]), max(known[1][1], cost[1])))
    return {(own, needed): cost for own, (needed, cost) in merged.items()}


@functools.lru_cache(maxsize=4096)
def _either(first: frozenset[int], second: frozenset[int]) -> frozenset[int]:
    """Constraints that hold when all of ``first`` or all of ``second`` hold; the narrowest few are
    kept (fewer constraints let more chains through, never fewer)."""
    left, right = _narrowest(first), _narrowest(second)
    return frozenset(_minimal(a | b for a in left for b in right)[:_KEPT_CONSTRAINTS])


@functools.lru_cache(maxsize=4096)
def _narrowest(needed: frozenset[int]) -> tuple[int, ...]:
    return tuple(_minimal(needed)[:_KEPT_CONSTRAINTS])


def _one_character(items: Items, check: _Check) -> Chars | None:
    """The characters a lookaround of one character tests; None when it tests more."""
    if len(items) != 1:
        return None
    op, av = items[0]
    matching = _matching(op, av, check)
    if matching is not None:
        return matching
    if op == C.SUBPATTERN:
        return _one_character(list(av[-1]), check.within(av))
    if op == C.BRANCH:
        found: set[str] = set()
        for branch in av[1]:
            inner = _one_character(list(branch), check)
            if inner is None:
                return None
            found |= inner
        return frozenset(found)
    return None
