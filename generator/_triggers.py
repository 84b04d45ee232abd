"""Trigger analysis: where can a pattern's match start?

Python's ``re`` tries every pattern at every position of the text. Most signal
patterns start, after zero-width assertions, with a literal word
(``\\b(?:powerful|seamless)``), so a match can only start at a word that begins
with one of a few literal prefixes. The compiler works out, for each pattern,
a superset of the positions where a match can start; the scanner then makes
one pass over the words of the text and runs a pattern only at those
positions with ``regex.match(text, pos)`` (which sees the whole text, so
look-behinds and ``\\b`` behave exactly as in a full scan). Going through the
candidates left to right and skipping those inside the previous match gives
the same matches as ``regex.finditer``; a test checks that on the evaluation
set and on random text.

A trigger is a union of:

- ``literals``: lowercased literal texts, each starting with a word
  character: a match starts at a word start where the text begins with one of
  them (``"the fastest"``, ``"seamless"``). The scanner finds them through
  their longest word, the rarest one, so ``"the fastest"`` costs a look at
  every "fastest", not at every "the";
- ``anchors``: ``(strings, offset)``: a match starts ``offset`` characters after
  the start of one of ``strings`` (a look-behind such as ``(?<=[.!?] )``, or a first
  character such as ``[`` with offset 0);
- ``start``: a match can start at position 0.

When the analysis is unsure, the pattern gets ``full``: the scanner runs it
over the whole text as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ._runs import consecutive_runs
from ._sre import constants as C
from ._sre import extra_cases, simple_lower
from ._sre import parser as sre_parse

__all__ = ["Trigger", "index_problems", "pattern_trigger"]

_MAX_PREFIXES = 3000
_MAX_SET = 12
_MAX_ANCHOR_STRINGS = 16  # spellings of a look-behind the scanner finds by their whole text
# The scanner's lowercased window reaches 256 characters before its first word: a word
# looked back for lies at most this far before the key word of the literal found after it.
LOOK_BACK_REACH = 200
_MAX_LOOK_BACK_LITERALS = 200
_WORD = re.compile(r"\w")
_END_OF_WORD = "\x00"  # a non-word sentinel: "the word ends here"


@dataclass(frozen=True)
class Trigger:
    full: bool = False
    literals: tuple[str, ...] = ()
    next_words: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()
    anchors: tuple[tuple[tuple[str, ...], int], ...] = ()
    start: bool = False
    # (literal, reach) found after the first word, and that word's endings: see _look_back
    look_backs: tuple[tuple[str, int], ...] = ()
    look_back_endings: tuple[str, ...] = ()


@dataclass
class _Union:
    literals: set[str] = field(default_factory=set)
    next_words: set[str] = field(default_factory=set)
    suffixes: set[str] = field(default_factory=set)
    anchors: set[tuple[tuple[str, ...], int]] = field(default_factory=set)
    start: bool = False
    look_backs: set[tuple[str, int]] = field(default_factory=set)
    look_back_endings: set[str] = field(default_factory=set)


class _Unsure(Exception):
    pass


@lru_cache(maxsize=4096)
def pattern_trigger(pattern: str) -> Trigger:
    """The trigger of one pattern; ``full`` whenever the analysis is unsure.

    Kept per pattern text: validation and the index both ask, and the answer is a frozen value.
    """
    try:
        parsed = sre_parse.parse(pattern)
        union = _Union()
        for alternative in _alternatives(list(parsed)):
            _analyse(alternative, union)
        found = _trigger(union)
        branches = _branches_of_a_bounded_group(list(parsed))
        if branches is None:
            return found
        # ``\\b(?:a…|b…)\\b``: one branch may open with a common word and need a rarer
        # one later (a look back), where the group as a whole cannot tell. Analysed branch
        # by branch, a group whose spellings were cut at ``_MAX_PREFIXES`` would spell out
        # thousands more: that way is taken only when it turns literals into look backs.
        union = _Union()
        for alternative in branches:
            _analyse(alternative, union)
        split = _trigger(union)
    except _Unsure:
        return Trigger(full=True)
    except Exception:  # a construct this analysis does not know
        return Trigger(full=True)
    if (
        split.look_backs
        and set(split.literals) <= set(found.literals)
        and (split.next_words, split.suffixes, split.anchors, split.start)
        == (found.next_words, found.suffixes, found.anchors, found.start)
    ):
        return split
    return found


def _trigger(union: _Union) -> Trigger:
    return Trigger(
        literals=tuple(sorted(union.literals)),
        next_words=tuple(sorted(union.next_words)),
        suffixes=tuple(sorted(union.suffixes)),
        anchors=tuple(sorted(union.anchors)),
        start=union.start,
        look_backs=tuple(sorted(union.look_backs)),
        look_back_endings=tuple(sorted(union.look_back_endings)),
    )


def _branches_of_a_bounded_group(items: list[tuple[Any, Any]]) -> list[list[tuple[Any, Any]]] | None:
    """``\\b(?:a…|b…)\\b`` as ``\\ba…\\b`` and ``\\bb…\\b`` (the zero-width items either side
    go with each branch), or None when the pattern is not one such group."""
    lead = 0
    while lead < len(items) - 1 and _zero_width(items[lead]):
        lead += 1
    trail = len(items)
    while trail > lead + 1 and _zero_width(items[trail - 1]):
        trail -= 1
    if not 0 < lead == trail - 1 < len(items) - 1:
        return None
    middle = _alternatives([items[lead]])
    if len(middle) < 2:
        return None
    return [items[:lead] + branch + items[trail:] for branch in middle]


# Characters that occur every few characters of prose: a pattern anchored on one
# would be tried almost everywhere.
_FREQUENT = frozenset(" \t,;:-\u2013\u2014/()'\"")


def index_problems(pattern: str) -> list[str]:
    """Why the scanner's index could not find this pattern's starts cheaply (empty when it can)."""
    trigger = pattern_trigger(pattern)
    if trigger.full and not _opens_with_capitals(pattern):
        return [
            "the scanner cannot tell where this pattern can start, so it would run it over the whole "
            "text (about ten times slower than an indexed pattern): begin every alternative with a "
            "literal word, a fixed look-behind, or a first word with a literal ending "
            "(see docs/authoring.md, 'How the scanner finds a pattern')"
        ]
    frequent = sorted({s for strings, _ in trigger.anchors for s in strings if len(s) == 1 and s in _FREQUENT})
    if frequent:
        return [
            f"the scanner would try this pattern after every {', '.join(map(repr, frequent))} in the text: "
            "begin it with the words it needs (a look-behind such as (?<=, ) keeps the separator out of the "
            "match) (see docs/authoring.md, 'How the scanner finds a pattern')"
        ]
    return []


def _opens_with_capitals(pattern: str) -> bool:
    """True when every alternative of a case-sensitive pattern opens with a class of capital letters.

    The scanner runs such a pattern over the whole text, and that is cheap: ``re``
    skips to the class's letters in C, and only a capital starts an attempt (a
    look-behind before the class would hide it from that skip, so it must follow:
    ``[A-ZÄÖÜ](?<![\\w-].)`` rather than ``(?<![\\w-])[A-ZÄÖÜ]``).
    """
    try:
        parsed = sre_parse.parse(pattern)
    except Exception:  # a pattern re refuses: reported elsewhere
        return False
    if parsed.state.flags & re.IGNORECASE:
        return False
    for alternative in _alternatives(list(parsed)):
        if not alternative or alternative[0][0] != C.IN:
            return False
        for kind, value in alternative[0][1]:
            if kind == C.LITERAL and chr(value).isupper():
                continue
            if kind == C.RANGE and all(chr(code).isupper() for code in range(value[0], value[1] + 1)):
                continue
            return False
    return True


def _alternatives(items: list[tuple[Any, Any]]) -> list[list[tuple[Any, Any]]]:
    """Split a top-level alternation (also inside one wrapping group) into its branches.

    ``re`` factors a shared start out of an alternation (``\\b(?:a…|b…)``), so
    zero-width items before a final alternation are copied into each branch.
    """
    lead = 0
    while lead < len(items) - 1 and _zero_width(items[lead]):
        lead += 1
    if 0 < lead == len(items) - 1 and items[lead][0] == C.BRANCH:
        return [items[:lead] + alt for branch in items[lead][1][1] for alt in _alternatives(list(branch))]
    if len(items) == 1:
        op, av = items[0]
        if op == C.BRANCH:
            return [alt for branch in av[1] for alt in _alternatives(list(branch))]
        if op == C.SUBPATTERN:
            return _alternatives(list(av[-1]))
    return [items]


def _analyse(items: list[tuple[Any, Any]], union: _Union) -> None:
    index = 0
    word_start = False
    anchors: set[tuple[tuple[str, ...], int]] | None = None
    start = False
    next_words: set[str] | None = None
    while index < len(items) and _zero_width(items[index]):
        found = _lookbehind_anchor(items[index])
        if found is not None:
            anchors, start = found
        next_words = next_words or _next_words(items[index])
        word_start = word_start or _guarantees_word_start(items[index])
        index += 1
    prefixes = _prefixes(items[index:])
    if prefixes and "" not in prefixes and len(prefixes) <= _MAX_PREFIXES:
        first_is_word = {bool(_WORD.match(prefix[0])) for prefix in prefixes}
        if first_is_word == {False}:
            union.anchors |= {((char,), 0) for char in {prefix[0] for prefix in prefixes}}
            return
        if first_is_word == {True} and word_start:
            # Keep the end-of-word marker: it tells the index that the last word is whole.
            literals = {
                prefix.split(_END_OF_WORD, 1)[0].lower() + (_END_OF_WORD if _END_OF_WORD in prefix else "")
                for prefix in prefixes
            }
            common = _common_words_look_back(items[index:], literals)
            if common is not None:
                (later, distance), first_words = common
                union.look_backs |= {(literal, distance) for literal in later}
                union.look_back_endings |= first_words
                return
            union.literals |= literals
            return
    if anchors is not None:
        union.anchors |= anchors
        union.start = union.start or start
        return
    if next_words and word_start:
        union.next_words |= next_words
        return
    suffixes = _suffixes(items[index:]) if word_start else None
    if suffixes:
        back = _look_back(items[index:])
        if back is not None:
            literals, reach = back
            union.look_backs |= {(literal, reach) for literal in literals}
            union.look_back_endings |= suffixes
        else:
            union.suffixes |= suffixes
        return
    raise _Unsure


def _suffixes(items: list[tuple[Any, Any]]) -> set[str] | None:
    """Literal endings of a first word built from letter classes: ``[A-Z][a-z]{1,30}ung(?:en)?\\b``.

    The leading items must match word characters only, then literal text must
    end the word (a ``\\b`` or a non-word character follows): the match starts
    at a word that ends with one of the returned (lowercased) endings.
    """
    position = 0
    while position < len(items):
        op, av = items[position]
        # Character classes (not literals: those start the ending) over word characters.
        repeated = list(av[2]) if op in (C.MAX_REPEAT, C.MIN_REPEAT) else [(op, av)]
        if len(repeated) != 1 or repeated[0][0] != C.IN or not _only_word_chars(repeated[0]):
            break
        position += 1
    if position == 0:
        return None
    found = _walk(items[position:], optional_open=True)
    if not found:
        return None
    endings = set()
    for literal, _ in found:
        if _END_OF_WORD not in literal:
            return None
        text = literal.split(_END_OF_WORD, 1)[0].lower()
        if not text or not re.fullmatch(r"\w+", text):
            return None
        endings.add(text)
    return endings


def _look_back(
    items: list[tuple[Any, Any]], *, after_boundary: bool = False, before: int | None = None
) -> tuple[set[str], int] | None:
    """Words a match needs after its first word and a gap, and how far they can be from its start.

    ``[A-Z][a-z]{1,30}ung\\b[^.!?]{0,40}? (?:durchführen|vornehmen)\\b``: every
    word ending in "ung" is a place to try, where far fewer are followed by
    one of the verbs. The scanner finds the verbs through the index instead,
    and looks back from each for the words with the ending. Returns the
    literals that follow the first literal non-word character (a space) after
    the first word, and the most characters from the match's start to them;
    None when there are none, when they can be too far for the scanner's
    window, or when one is shorter than a key (a short word, "ist", is likely
    commoner than the ending, so looking back from it would cost more).
    """
    nested = before is not None  # items of a look-ahead, ``before`` characters after the match's start
    high = before or 0
    for position, (op, av) in enumerate(items):
        if after_boundary and (position > 0 or nested) and (op, av) == (C.AT, C.AT_BOUNDARY):
            # ``\\b`` before a literal word: that word starts a word of the text.
            found = _walk(items[position:], optional_open=True)
            back = _literals_to_find(found, high) if found and len(found) <= _MAX_LOOK_BACK_LITERALS else None
            if back:
                return back, high
        if after_boundary and op == C.ASSERT and av[0] == 1:
            # A look-ahead's literals must follow as well (``(?=[^.]{0,120}? werden muss)``).
            inner = _look_back(list(av[1]), after_boundary=True, before=high)
            if inner is not None:
                return inner
        high = min(_UNBOUNDED, high + _width((op, av))[1])
        if high > LOOK_BACK_REACH:
            return None
        if (position == 0 and not nested) or op != C.LITERAL or _WORD.match(chr(av)):
            continue
        found = _walk(items[position + 1 :], optional_open=True)
        if not found or len(found) > _MAX_LOOK_BACK_LITERALS:
            continue
        back = _literals_to_find(found, high)
        if back is None:
            return None
        if back:
            return back, high
    return None


def _literals_to_find(found: Literals, high: int) -> set[str] | None:
    """The literals of a look back (with their end-of-word markers), empty when one is shorter
    than a key or does not start with a word character, None when one may lie too far."""
    literals = {literal.split(_END_OF_WORD, 1)[0] for literal, _ in found}
    # The key word lies inside the literal: the look back starts at most this far before it.
    if high + max(map(len, literals)) > LOOK_BACK_REACH:
        return None
    if all(literal and _WORD.match(literal[0]) and len(literal) >= KEY_LENGTH for literal in literals):
        # Keep the end-of-word marker, as for a first literal.
        return {
            literal.split(_END_OF_WORD, 1)[0].lower() + (_END_OF_WORD if _END_OF_WORD in literal else "")
            for literal, _ in found
        }
    return set()


def _common_words_look_back(
    items: list[tuple[Any, Any]], literals: set[str]
) -> tuple[tuple[set[str], int], set[str]] | None:
    """A look back for a match that opens with a common word and needs a rarer literal later.

    ``\\b(?:ist|sind)\\b[^.!?\\n]{0,40}?\\b(?:immer|stets) aktuell``: looked up by its first
    literals, the pattern is tried at every "ist"; looked up by "immer" and "stets" (and the
    word after them), the scanner looks back from each for "ist" or "sind", as it does for a
    first word with a literal ending (``_look_back``). Chosen when a first literal would be
    looked up by one of the commonest words (``_COMMON``) and every literal found later, after
    a literal non-word character or a ``\\b`` (also inside a look-ahead), is a rarer one of at
    least a key's length. Returns that look back and the first words (the endings to look
    back for: each a whole word, so the word that ends with it starts the match or is a
    candidate the pattern refuses); None otherwise.
    """
    common = False
    first_words = set()
    for marked in literals:
        literal = marked.split(_END_OF_WORD, 1)[0]
        common = common or _key_word(literal, whole_last=marked != literal).group() in _COMMON
        word = re.match(r"\w+", literal)
        if word is None or (word.end() == len(literal) and marked == literal):
            return None  # the text's word may go on past the literal: not an ending to look for
        first_words.add(word.group())
    if not common:
        return None
    back = _look_back(items, after_boundary=True)
    if back is None:
        return None
    for marked in back[0]:
        literal = marked.split(_END_OF_WORD, 1)[0]
        if _key_word(literal, whole_last=marked != literal).group() in _COMMON:
            return None
    return back, first_words


def _next_words(item: tuple[Any, Any]) -> set[str] | None:
    """Words one of which must follow the first word: ``(?=[a-z]{4,60} (?:wird|werden)\\b)``.

    The look-ahead must consume one word (a repeat over word characters), one
    space, then a literal word; the match then starts at the word before it.
    """
    op, av = item
    if op != C.ASSERT or av[0] != 1:
        return None
    body = list(av[1])
    if not body or body[0][0] not in (C.MAX_REPEAT, C.MIN_REPEAT) or body[0][1][0] < 1:
        return None
    repeated = list(body[0][1][2])
    if len(repeated) != 1 or not _only_word_chars(repeated[0]):
        return None
    found = _walk(body[1:])
    if not found:
        return None
    words = set()
    for literal, _ in found:
        text = literal.split(_END_OF_WORD, 1)[0].lower()
        if not re.fullmatch(r" \w+", text):
            return None
        # Keep the end-of-word marker: the index then knows the word is whole.
        words.add(text[1:] + (_END_OF_WORD if _END_OF_WORD in literal else ""))
    return words


def _only_word_chars(item: tuple[Any, Any]) -> bool:
    """True for a one-character item that can match only word characters."""
    op, av = item
    if op == C.LITERAL:
        return bool(_WORD.match(chr(av)))
    if op != C.IN:
        return False
    for kind, value in av:
        if kind == C.LITERAL and _WORD.match(chr(value)):
            continue
        if kind == C.RANGE and all(_WORD.match(chr(code)) for code in range(value[0], value[1] + 1)):
            continue
        if kind == C.CATEGORY and value == C.CATEGORY_WORD:
            continue
        return False
    return True


def _zero_width(item: tuple[Any, Any]) -> bool:
    op, av = item
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return True
    if op == C.SUBPATTERN:
        return all(_zero_width(inner) for inner in av[-1])
    if op == C.BRANCH:
        return all(all(_zero_width(inner) for inner in branch) for branch in av[1])
    return False


def _guarantees_word_start(item: tuple[Any, Any]) -> bool:
    """True when the item ensures the character before the match is not a word character."""
    op, av = item
    if op == C.AT:
        return bool(av == C.AT_BOUNDARY)  # with a word character next, \b means a word start
    if op == C.ASSERT and av[0] == -1:
        last = list(av[1])[-1:] if list(av[1]) else []
        return bool(last) and _all_non_word(last[0])
    if op == C.ASSERT_NOT and av[0] == -1:
        body = list(av[1])
        return len(body) == 1 and body[0][0] == C.IN and _set_has_word_category(body[0][1])
    if op == C.SUBPATTERN:
        return any(_guarantees_word_start(inner) for inner in av[-1])
    if op == C.BRANCH:
        return all(any(_guarantees_word_start(inner) for inner in branch) for branch in av[1])
    return False


def _lookbehind_anchor(item: tuple[Any, Any]) -> tuple[set[tuple[tuple[str, ...], int]], bool] | None:
    """Anchors implied by a zero-width item made only of look-behinds, or None.

    An anchor ``(strings, offset)``: a match starts ``offset`` characters after
    the start of one of ``strings`` in the text. A look-behind of a few
    spellings (``(?<=[.!?] )``) is found by its whole text; a longer one by its
    first character.
    """
    op, av = item
    if op == C.ASSERT and av[0] == -1:
        body = list(av[1])
        width = _fixed_width(body)
        if width is None or not body:
            return None
        strings = _strings(body)
        if strings is not None:
            return {(strings, width)}, False
        chars = _chars(body[0])
        if chars is None:
            return None
        return {(tuple(chars), width)}, False
    if op == C.ASSERT_NOT and av[0] == -1:
        body = list(av[1])
        # (?<![^S]) : at the start, or right after one of S.
        if len(body) == 1 and body[0][0] == C.NOT_LITERAL:
            return {((chr(body[0][1]),), 1)}, True
        if len(body) == 1 and body[0][0] == C.IN and body[0][1] and body[0][1][0][0] == C.NEGATE:
            chars = _chars((C.IN, body[0][1][1:]))
            if chars is not None:
                return {(tuple(chars), 1)}, True
        return None
    if op == C.SUBPATTERN:
        inner = list(av[-1])
        return _lookbehind_anchor(inner[0]) if len(inner) == 1 else None
    if op == C.BRANCH:
        anchors: set[tuple[tuple[str, ...], int]] = set()
        start = False
        for branch in av[1]:
            branch = list(branch)
            found = _lookbehind_anchor(branch[0]) if len(branch) == 1 else None
            if found is None:
                return None
            anchors |= found[0]
            start = start or found[1]
        return anchors, start
    return None


def _fixed_width(items: list[tuple[Any, Any]]) -> int | None:
    width = 0
    for op, av in items:
        if op in (C.LITERAL, C.NOT_LITERAL, C.IN, C.ANY):
            width += 1
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT) and av[0] == av[1]:
            inner = _fixed_width(list(av[2]))
            if inner is None:
                return None
            width += inner * av[0]
        else:
            return None
    return width


def _strings(body: list[tuple[Any, Any]]) -> tuple[str, ...] | None:
    """Every text a fixed run of literal characters and small sets can match, when few."""
    strings = [""]
    for item in body:
        chars = _chars(item)
        if chars is None:
            return None
        strings = [string + char for string in strings for char in chars]
        if len(strings) > _MAX_ANCHOR_STRINGS:
            return None
    return tuple(sorted(strings))


def _chars(item: tuple[Any, Any]) -> str | None:
    """The characters a single-character item matches, when it is a small literal set."""
    op, av = item
    if op == C.LITERAL:
        return chr(av)
    if op == C.IN:
        chars = _literal_set(av)
        return "".join(sorted(set(chars))) if chars is not None else None
    return None


def _all_non_word(item: tuple[Any, Any]) -> bool:
    chars = _chars(item)
    if chars is not None:
        return not any(_WORD.match(char) for char in chars)
    op, av = item
    if op == C.IN:
        return all(kind == C.CATEGORY and av_ in (C.CATEGORY_SPACE, C.CATEGORY_NOT_WORD) for kind, av_ in av)
    return False


def _forbids_word_char(body: list[tuple[Any, Any]]) -> bool:
    """True for a negative look-ahead body that refuses any word character next."""
    alternatives = [list(branch) for branch in body[0][1][1]] if len(body) == 1 and body[0][0] == C.BRANCH else [body]
    return any(len(alt) == 1 and alt[0][0] == C.IN and _set_has_word_category(alt[0][1]) for alt in alternatives)


def _set_has_word_category(items: Any) -> bool:
    return any(op == C.CATEGORY and av == C.CATEGORY_WORD for op, av in items) and not any(
        op == C.NEGATE for op, _ in items
    )


def _prefixes(items: list[tuple[Any, Any]]) -> set[str] | None:
    # Going on past an optional item ("ein reiches geflecht", not "ein ") spares the
    # scanner a candidate at every "ein"; when the way without the item leaves an empty
    # literal (an optional item before a class), the literal stops before it as before.
    found = _walk(items, optional_open=True)
    if found is None or any(not literal for literal, _ in found):
        found = _walk(items)
    if found is None:
        return None
    return {literal for literal, _ in found}


Literals = set[tuple[str, bool]]  # (literal text, open: it covers everything so far)


def _walk(items: list[tuple[Any, Any]], optional_open: bool = False, after_word: bool = False) -> Literals | None:
    """Literal texts every match of ``items`` starts with.

    A literal stays open while it covers every item so far, so the next item
    can extend it; it closes where the pattern stops being literal. An empty
    closed literal means a match can start with anything: no trigger.
    ``optional_open`` keeps a literal open after an optional item (``(?:en)?``):
    exact, and it multiplies the spellings (past ``_MAX_PREFIXES`` the shorter
    literals found so far are kept). ``after_word``: the items follow a word character
    (a group inside a literal such as "i" in ``I(?:\\swill|'ll)?``), so a non-word item
    first ends that word.
    """
    result: Literals = {("", True)}
    for op, av in items:
        opened = [literal for literal, is_open in result if is_open]
        if not opened:
            break
        grown: Literals = {(literal, False) for literal, is_open in result if not is_open}
        # An item's tails depend on the literal only through whether it ends in a word
        # character: work them out once per item, not once per literal (hundreds of them).
        by_ending: dict[bool, Literals | None] = {}
        for literal in opened:
            ends_in_word = bool(_WORD.match(literal[-1])) if literal else after_word
            if ends_in_word not in by_ending:
                by_ending[ends_in_word] = _tails(op, av, ends_in_word, optional_open)
            tails = by_ending[ends_in_word]
            if tails is None:
                return None
            grown |= {(literal + tail, is_open) for tail, is_open in tails}
        if len(grown) > _MAX_PREFIXES:
            # Too many spellings: the shorter literals found so far still hold.
            return {(literal, False) for literal, _ in result}
        result = grown
    return result


def _tails(op: Any, av: Any, ends_in_word: bool, optional_open: bool) -> Literals | None:
    """What one item appends to an open literal (``ends_in_word``: whether that literal ends in a word character)."""
    if op == C.LITERAL:
        return {(chr(av), True)}
    if op == C.IN and _literal_set(av) is not None:
        return {(char, True) for char in _literal_set(av) or ()}
    if op == C.AT and av == C.AT_BOUNDARY and ends_in_word:
        return {(_END_OF_WORD, False)}  # a boundary after a word character: the word ends here
    if op == C.ASSERT_NOT and av[0] == 1 and ends_in_word and _forbids_word_char(list(av[1])):
        return {(_END_OF_WORD, False)}  # (?![\w...]) after a word character: the word ends here
    if op in (C.ASSERT, C.ASSERT_NOT, C.AT):
        return {("", True)}  # zero-width: the regex checks it at each candidate
    if op == C.SUBPATTERN:
        return _walk(list(av[-1]), optional_open, ends_in_word)
    if op == C.BRANCH:
        tails: Literals = set()
        for branch in av[1]:
            inner = _walk(list(branch), optional_open, ends_in_word)
            if inner is None:
                return None
            tails |= inner
        return tails
    if op in (C.MAX_REPEAT, C.MIN_REPEAT):
        low, high, body = av
        inner = _walk(list(body), optional_open, ends_in_word)
        if inner is None:
            return None
        # More repetitions may follow, so the literal closes here (unless asked to
        # go on after an optional item, which cannot repeat).
        taken = {(tail, is_open and optional_open and high == 1) for tail, is_open in inner}
        return taken | {("", True)} if low == 0 else taken
    if op == C.IN and _all_non_word((op, av)) and ends_in_word:
        return {(_END_OF_WORD, False)}  # a non-word character follows: the word ends here
    return {("", False)}


def _literal_set(items: Any) -> list[str] | None:
    chars: list[str] = []
    for op, av in items:
        if op == C.LITERAL:
            chars.append(chr(av))
        elif op == C.RANGE and av[1] - av[0] < _MAX_SET:
            chars.extend(chr(code) for code in range(av[0], av[1] + 1))
        else:
            return None
    return chars if len(chars) <= _MAX_SET else None


_UNBOUNDED = 1 << 30


def _width(item: tuple[Any, Any]) -> tuple[int, int]:
    """The fewest and most characters one item can match (``_UNBOUNDED``: no limit)."""
    op, av = item
    if op in (C.LITERAL, C.NOT_LITERAL, C.IN, C.ANY):
        return 1, 1
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return 0, 0
    if op == C.SUBPATTERN:
        return _widths(list(av[-1]))
    if op == C.BRANCH:
        widths = [_widths(list(branch)) for branch in av[1]]
        return min(least for least, _ in widths), max(most for _, most in widths)
    if op in (C.MAX_REPEAT, C.MIN_REPEAT):
        low, high, body = av
        least, most = _widths(list(body))
        return least * low, _UNBOUNDED if high == C.MAXREPEAT else min(_UNBOUNDED, most * high)
    return 0, _UNBOUNDED  # anything else (a back reference): no bound


def _widths(items: list[tuple[Any, Any]]) -> tuple[int, int]:
    least = most = 0
    for item in items:
        low, high = _width(item)
        least, most = least + low, min(_UNBOUNDED, most + high)
    return least, most


@dataclass(frozen=True)
class LanguageIndex:
    """What the template renders as one language's ``SignalIndex``."""

    # key -> ((tails, ((befores, offsets, patterns), ...)), ...)
    words: dict[
        str, tuple[tuple[tuple[str, ...], tuple[tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]], ...]], ...]
    ]
    suffixes: tuple[tuple[str, tuple[int, ...]], ...]
    key_size: int
    # the characters a key may hold, as the body of a regex class: every Latin-1 word
    # character and each character of a key (see _key_chars)
    key_chars: str
    partial: tuple[tuple[int, str], ...]
    anchors: tuple[tuple[tuple[str, ...], int, tuple[int, ...]], ...]
    start: tuple[int, ...]
    full: tuple[int, ...]
    # (pattern, reach, endings) of the patterns whose start is looked back for from a literal
    look_backs: tuple[tuple[int, int, tuple[str, ...]], ...]


KEY_LENGTH = 5  # words are looked up by their first five letters
PREVIOUS_WORD = -1  # an entry offset meaning: the match starts at the word before this one
# An entry offset of LOOK_BACK - n: the literal starts n characters before this word, and the
# match starts at a word before it with one of the pattern's endings (see _look_back).
LOOK_BACK = -2
_VERIFY_PAST_KEY = 1  # characters of a literal checked after its key word
# The scanner's lowercased windows reach 256 characters either side: a longer text before
# a key (never seen) is not checked.
_MAX_BEFORE = 200
_NEXT_WORD = re.compile(r"\W*\w+")
_WORDS = re.compile(r"\w+")


def _key_word(literal: str, *, whole_last: bool) -> re.Match[str]:
    """The word of a literal to look it up by: the longest, the rarest.

    A word shorter than the key length must be whole (followed by a non-word
    character in the literal), so the scanner finds it with the same single
    lookup of a text word's first three letters; only a short word the
    literal may continue (``"am"`` in ``"amn't"``) needs extra lookups.
    """
    words = list(re.finditer(r"\w+", literal))
    whole = [word for word in words if word.end() < len(literal) or whole_last]
    usable = [word for word in words if len(word.group()) >= KEY_LENGTH] + whole
    return max(
        usable or words,
        key=lambda word: (
            len(word.group()) >= KEY_LENGTH,
            word.group() not in _COMMON,
            -_COMMON.get(word.group(), 0),  # of two common words, the rarer ("by the": "by")
            len(word.group()),
        ),
    )


def _after_key(literal: str, end: int) -> int:
    """Where the scanner's check of a literal after its key word ends: past the next word and
    the character after it (the whole literal when shorter)."""
    following = _NEXT_WORD.match(literal, end)
    return min(len(literal), (following.end() if following else end) + _VERIFY_PAST_KEY)


def _before_key(literal: str, offset: int) -> str:
    """The literal's last word before its key word, with what follows it (empty when none).

    That word is what tells "works on every" from any "every"; checking further back
    adds spellings faster than it removes candidates.
    """
    before = literal[:offset]
    starts = [word.start() for word in _WORDS.finditer(before)]
    checked = before[starts[-1] :] if starts else before
    return checked if len(checked) <= _MAX_BEFORE else ""


# Words too frequent to look a literal up by, when the literal has another word; the
# commonest first (their frequency in the field corpus's pages, both languages): of
# two, the literal is looked up by the rarer ("by the" by "by": "the" is 11x commoner).
_COMMON_BY_FREQUENCY = (
    "the to die a and und in der of you sie is zu for your das von eine mit für auf this ist from with be "
    "den ein it that es as are on if nicht or oder by an dem im des sind einer aus wir einen we einem bei "
    "i zum at so ich zur am"
).split()
_COMMON = {word: len(_COMMON_BY_FREQUENCY) - rank for rank, word in enumerate(_COMMON_BY_FREQUENCY)}


def build_index(patterns: list[tuple[str, bool]]) -> LanguageIndex:
    """Index a language's patterns, given as (pattern text, ignorecase) in table order."""
    # (key, pattern) -> offset of the key word in the literals -> (heads: key word + a few
    # characters, befores: the literal's text just before the key word)
    words: dict[tuple[str, int], dict[int, tuple[set[str], set[str]]]] = {}
    partial: dict[int, set[str]] = {}
    anchors: dict[tuple[tuple[str, ...], int], list[int]] = {}
    suffixes: dict[str, list[int]] = {}
    look_backs: list[tuple[int, int, tuple[str, ...]]] = []
    start: list[int] = []
    full: list[int] = []
    for index, (pattern, ignorecase) in enumerate(patterns):
        trigger = pattern_trigger(pattern)
        if trigger.full or any(
            len(literal) != len(literal.lower())
            for literal in (
                *trigger.literals,
                *trigger.next_words,
                *trigger.suffixes,
                *(literal for literal, _ in trigger.look_backs),
                *trigger.look_back_endings,
            )
        ):
            full.append(index)
            continue
        for marked in trigger.literals:
            literal = marked.rstrip(_END_OF_WORD)
            key = _key_word(literal, whole_last=marked != literal)
            # Only the key word, the words either side of it and the character after
            # those are checked; the pattern itself checks the rest. Storing every
            # spelling of the words around the key (their combinations ran to 16,800
            # literals) made the module 950 KiB.
            heads, befores = words.setdefault((key.group()[:KEY_LENGTH], index), {}).setdefault(
                key.start(), (set(), set())
            )
            heads.add(literal[key.start() : _after_key(literal, key.end())])
            befores.add(_before_key(literal, key.start()))
            if len(key.group()) < KEY_LENGTH and key.end() == len(literal) and marked == literal:
                # A short word the text's word may continue: needs a lookup by its own length.
                partial.setdefault(len(key.group()), set()).add(key.group()[0])
        for ending in trigger.suffixes:
            suffixes.setdefault(ending, []).append(index)
        for marked, _ in trigger.look_backs:
            # The literal after the first word, found through its key word as any literal is;
            # the offset says where the literal starts and that the match starts before it.
            literal = marked.rstrip(_END_OF_WORD)
            key = _key_word(literal, whole_last=marked != literal)
            heads, befores = words.setdefault((key.group()[:KEY_LENGTH], index), {}).setdefault(
                LOOK_BACK - key.start(), (set(), set())
            )
            heads.add(literal[key.start() : _after_key(literal, key.end())])
            befores.add(_before_key(literal, key.start()))
            if len(key.group()) < KEY_LENGTH and key.end() == len(literal) and marked == literal:
                partial.setdefault(len(key.group()), set()).add(key.group()[0])
        if trigger.look_backs:
            reach = max(reach for _, reach in trigger.look_backs)
            look_backs.append((index, reach, trigger.look_back_endings))
        for marked in trigger.next_words:
            # The match starts at the word before this one: offset PREVIOUS_WORD.
            word = marked.rstrip(_END_OF_WORD)
            heads, befores = words.setdefault((word[:KEY_LENGTH], index), {}).setdefault(PREVIOUS_WORD, (set(), set()))
            heads.add(word)
            befores.add("")
            if len(word) < KEY_LENGTH and marked == word:
                partial.setdefault(len(word), set()).add(word[0])
        for strings, offset in trigger.anchors:
            if ignorecase:
                strings = _case_variants(strings)
            anchors.setdefault((strings, offset), []).append(index)
        if trigger.start:
            start.append(index)
    # Checks are grouped so that the scanner tests each text once per word: by the tails
    # after the key, then by the texts before it, naming the offsets and every pattern
    # that needs them (patterns share them often: "is" starts a dozen).
    grouped: dict[str, dict[tuple[str, ...], dict[tuple[tuple[str, ...], tuple[int, ...]], set[int]]]] = {}
    for (prefix, index), by_offset in sorted(words.items()):
        by_check: dict[tuple[tuple[str, ...], tuple[str, ...]], set[int]] = {}
        for offset, (heads, befores) in sorted(by_offset.items()):
            # A head that starts with another head adds nothing: the shorter one already passes.
            kept = [head for head in sorted(heads) if not any(head.startswith(other) for other in heads - {head})]
            # Every head starts with its key, which the lookup has matched already: store what follows.
            assert all(head.startswith(prefix) for head in kept), (prefix, kept)
            tails = tuple(head[len(prefix) :] for head in kept)
            # An empty text before the key (the key starts the literal) is no check at all.
            before = () if "" in befores else tuple(sorted(_shortest_endings(befores)))
            by_check.setdefault((tails, before), set()).add(offset)
        for (tails, before), offsets in by_check.items():
            by_tails = grouped.setdefault(prefix, {}).setdefault(tails, {})
            by_tails.setdefault((before, tuple(sorted(offsets))), set()).add(index)
    table = {
        prefix: tuple(
            (tails, tuple((before, offsets, tuple(sorted(found))) for (before, offsets), found in sorted(by.items())))
            for tails, by in sorted(by_tails.items())
        )
        for prefix, by_tails in sorted(grouped.items())
    }
    return LanguageIndex(
        words=table,
        suffixes=tuple((ending, tuple(found)) for ending, found in sorted(suffixes.items())),
        # Short keys that are whole words need no extra lookup: a text word's
        # first letters are the word itself. Only short words a text word may continue do.
        key_size=KEY_LENGTH,
        key_chars=_key_chars({char for key in table for char in key}),
        partial=tuple((size, "".join(sorted(firsts))) for size, firsts in sorted(partial.items())),
        anchors=tuple((strings, offset, tuple(found)) for (strings, offset), found in sorted(anchors.items())),
        start=tuple(start),
        full=tuple(full),
        look_backs=tuple(look_backs),
    )


# Every Latin-1 character re counts as a word character (\\w).
_LATIN1_WORD = frozenset(char for char in map(chr, range(256)) if _WORD.match(char))


def _key_chars(chars: set[str]) -> str:
    """A regex class body of the Latin-1 word characters and ``chars`` (a key's characters).

    The scanner finds the text's words with this class instead of ``\\w``: a
    class of Latin-1 characters is a bitmap ``re`` tests in one step, where
    ``\\w`` asks Unicode's tables for every character (a quarter of the pass).
    A word's key is the same either way, since every character of a key is in
    the class: a run of class characters starts where the word starts, and it
    holds the word's first letters. A word with a letter outside the class only
    gives extra lookups of its pieces, which the patterns then refuse.
    """
    parts = []
    for first, last in consecutive_runs(sorted(map(ord, _LATIN1_WORD | chars))):
        low, high = re.escape(chr(first)), re.escape(chr(last))
        parts.append(low if first == last else low + high if last == first + 1 else f"{low}-{high}")
    return "".join(parts)


def _shortest_endings(texts: set[str]) -> set[str]:
    """The texts that do not end with another of them (a text ending with one that passes passes too)."""
    return {text for text in texts if not any(text != other and text.endswith(other) for other in texts)}


def _case_variants(strings: tuple[str, ...]) -> tuple[str, ...]:
    """Every upper/lower spelling of each string (an ignore-case pattern's anchors)."""
    variants = set()
    for string in strings:
        spellings = [""]
        for char in string:
            spellings = [spelling + case for spelling in spellings for case in {char, char.lower(), char.upper()}]
        variants.update(spellings)
    return tuple(sorted(variants))


def fold_table(prefix_chars: set[str]) -> tuple[dict[str, str], str]:
    """How to lowercase a text so that ``str.lower`` agrees with ``re``'s IGNORECASE.

    The scanner looks words up in a lowercased copy of the text. ``str.lower``
    agrees with how ``re`` compares ignoring case except for a few characters:
    one whose lowercase form is longer (``İ``; the offsets would shift) and
    those ``re`` treats as equal to a trigger letter although their lowercase
    differs (long s for ``s``, dotless i for ``i``). Returns ``(replace,
    unsafe)``: characters to replace, one for one, before lowercasing, and the
    characters no replacement can fix (a trigger letter itself), with which a
    text is scanned the slow, exact way.
    """
    replace: dict[str, str] = {}
    for code in range(0x110000):
        if not 0xD800 <= code <= 0xDFFF and len(chr(code).lower()) != 1:
            # re compares by the simple lowercase mapping: İ is i.
            replace[chr(code)] = chr(simple_lower(code))
    extra = extra_cases()
    for letter in prefix_chars:
        for code in extra.get(ord(letter), ()):
            if chr(code).lower() != letter:
                replace[chr(code)] = letter
    unsafe = {char for char in replace if char in prefix_chars or char.lower() in prefix_chars}
    return {char: new for char, new in sorted(replace.items()) if char not in unsafe}, "".join(sorted(unsafe))
