"""Tool 3, ``find_writing_signals``: the static scanner.

Reads the text into its prose view (``writing_rules.prose``), runs the
compiled signal table of one language over the prose and, apart, over the
code, and reports every hit at its source position. Context flags (code,
quotation, negation) annotate hits; a hit is dropped only in a context its
rule's source excludes. The scanner judges no meaning.
"""

from __future__ import annotations

import re
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from itertools import chain, compress, groupby, repeat
from operator import attrgetter, itemgetter
from typing import Any

from .._catalog import Catalog, rule_source
from .._levels import LEVELS, level_at_least, signal_level, signal_levels
from ..prose import ProseView, TextMap, read_prose
from ._fixes import Fix, find_fix, fix_signal_ids, may_fix
from ._sentence_signals import with_sentence_lengths
from ._signal import Signal, SignalFix, signals_data
from ._text_index import IN_CODE, NEGATED, QUOTED, ProseContext, positions_in_order

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._rules_runtime import SignalIndex, SignalPattern

__all__ = ["scan_signals", "scan_text", "view_hits"]


def find_spans(
    text: str,
    language: str,
    rule_ids: tuple[str, ...],
    min_level: str | None = None,
    *,
    catalog: Catalog | None = None,
) -> list[tuple[int, int, int, str, str]]:
    """Distinct (start, end, rule order, rule id, signal id), sorted as the contract orders signals.

    ``min_level``: only the patterns of that level or above run (see ``scan_text``).
    ``catalog``: the rule data (None: the built-in catalogue).
    """
    data = rule_source(catalog)
    chosen = set(rule_ids)
    order = {rule_id: position for position, rule_id in enumerate(data.RULE_IDS) if rule_id in chosen}
    table = data.SIGNAL_TABLES[language]
    if catalog is not None and catalog.packs:  # a pack may add thousands of patterns
        by_rule = catalog.kept(("patterns by rule", language), lambda: _patterns_by_rule(table))
        selected = list(chain.from_iterable(by_rule.get(rule_id, ()) for rule_id in order))
        selected.sort()
    else:
        selected = [index for index, pattern in enumerate(table) if pattern.rule_id in order]
    if min_level is not None:
        levels_of = _pattern_levels(catalog, language)
        selected = [i for i in selected if level_at_least(levels_of[i], min_level)]
    # Each hit is one int ordered as (start, end, rank, pattern) would be: a long page has
    # thousands of hits, and a tuple of four with its own ints weighs four times as much.
    size, ranks, patterns = len(text) + 1, len(data.RULE_IDS), len(table)
    hits: list[int] = []
    for index, spans in _pattern_spans(text, language, selected, data, empty=False):
        tail = order[table[index].rule_id] * patterns + index
        hits.extend((start * size + end) * ranks * patterns + tail for start, end in spans)
    hits.sort()
    signals: list[tuple[int, int, int, str, str]] = []
    previous = named = -1
    levels: dict[int, int] = {}  # pattern -> its level's rank, for the spans two patterns share
    for hit in hits:
        place, index = divmod(hit, patterns)
        # Two patterns of one rule on one span are one signal: the first pattern of the
        # highest level names it, so a precise pattern is not hidden by a broad one.
        if place != previous:
            span, rank = divmod(place, ranks)
            start, end = divmod(span, size)
            pattern = table[index]
            signals.append((start, end, rank, pattern.rule_id, pattern.signal_id))
            previous, named = place, index
        elif _pattern_level(table, index, levels, catalog) < _pattern_level(table, named, levels, catalog):
            pattern = table[index]
            signals[-1] = (*signals[-1][:3], pattern.rule_id, pattern.signal_id)
            named = index
    del hits  # (thousands of ints on a long page: freed before the overlaps are merged)
    return _one_per_overlap(signals, catalog)


def _patterns_by_rule(table: tuple[SignalPattern, ...]) -> dict[str, tuple[int, ...]]:
    """Per rule, the positions of its patterns in ``table``."""
    positions: dict[str, list[int]] = {}
    for index, pattern in enumerate(table):
        positions.setdefault(pattern.rule_id, []).append(index)
    return {rule_id: tuple(found) for rule_id, found in positions.items()}


def _pattern_levels(catalog: Catalog | None, language: str) -> tuple[str, ...]:
    """The level of each pattern's signal, in table order (kept per catalogue with packs)."""
    if catalog is None or not catalog.packs:
        return _levels_of(catalog, language)
    return catalog.kept(("pattern levels", language), lambda: _levels_of(catalog, language))


def _levels_of(catalog: Catalog | None, language: str) -> tuple[str, ...]:
    # signal_level of each pattern, each rule's levels read once per run of its patterns: a
    # call per pattern cost a one-page scan with a 2,000-term pack 0.6 ms.
    levels: list[str] = []
    for rule_id, patterns in groupby(rule_source(catalog).SIGNAL_TABLES[language], _RULE_ID):
        own, level = signal_levels(rule_id, catalog=catalog)
        levels.extend(map(own.get, map(_SIGNAL_ID, patterns), repeat(level)))
    return tuple(levels)


_RULE_ID, _SIGNAL_ID = attrgetter("rule_id"), attrgetter("signal_id")


def _one_per_overlap(
    signals: list[tuple[int, int, int, str, str]], catalog: Catalog | None
) -> list[tuple[int, int, int, str, str]]:
    """One signal per rule where its hits overlap ("should be avoided" and "be avoided"): the hit
    of the highest level, and of hits of one level the longest (the first of equal ones).

    Preferring the level keeps a scan that runs only the patterns of some level and above
    (``min_level``) reporting what a full scan reports at those levels. ``signals`` is
    sorted by start, end and rule order; so is the result.
    """
    kept: list[tuple[int, int, int, str, str] | None] = []
    last: dict[int, int] = {}  # rule order -> index in ``kept`` of its last signal
    merged = False
    for signal in signals:
        start, end, rank, rule_id, signal_id = signal
        at = last.get(rank, -1)
        previous = kept[at] if at >= 0 else None
        if previous is None or start >= previous[1]:
            last[rank] = len(kept)
            kept.append(signal)
            continue
        merged = True
        level, previous_level = _level_rank(rule_id, signal_id, catalog), _level_rank(rule_id, previous[4], catalog)
        if level < previous_level or (level == previous_level and end - start > previous[1] - previous[0]):
            kept[at] = None  # (the kept signal goes where its start sorts it)
            last[rank] = len(kept)
            kept.append(signal)
    if not merged:
        return signals
    # No two kept signals share a start, end and rule (they would overlap), so the tuples sort
    # as their first three fields do, without a key tuple per signal.
    return sorted(signal for signal in kept if signal is not None)


_order3 = itemgetter(0, 1, 2)


def _pattern_level(
    table: tuple[SignalPattern, ...], index: int, levels: dict[int, int], catalog: Catalog | None
) -> int:
    """The rank of the level of pattern ``index``'s signal, computed once per scan."""
    level = levels.get(index)
    if level is None:
        pattern = table[index]
        level = levels[index] = _level_rank(pattern.rule_id, pattern.signal_id, catalog)
    return level


_MAX_OTHER_FIXES = 64  # signals with fixes a rule may have for its hits to try each other's


def _rule_fix(
    text: str, start: int, end: int, rule_id: str, signal_id: str, fixed: tuple[str, ...], catalog: Catalog | None
) -> Fix | None:
    """The signal's own fix, else a fix another pattern of its rule declares for the same hit.

    A precise pattern of a higher level may name a span that a broad pattern's fix covers
    ("very" found by both): the fix belongs to the hit, not to the pattern that names it.
    ``fixed`` lists the signals of the rule that declare fixes.
    """
    if not may_fix(text, start, rule_id, catalog=catalog):
        return None
    fix = find_fix(text, start, end, rule_id, signal_id, catalog=catalog)
    if fix is not None or len(fixed) > _MAX_OTHER_FIXES:
        # A pack's vocabulary is one rule with a signal (and fixes) per term: another term's fix
        # fits a hit only where that term's own pattern finds the same span, so trying thousands
        # of them (each compiled on first use) would find nothing.
        return fix
    for other in fixed:
        if other != signal_id:
            fix = find_fix(text, start, end, rule_id, other, catalog=catalog)
            if fix is not None:
                return fix
    return None


def _level_rank(rule_id: str, signal_id: str, catalog: Catalog | None) -> int:
    return LEVELS.index(signal_level(rule_id, signal_id, catalog=catalog))


def plain_spans(regex: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    """Every non-empty match of one pattern over the whole text (the reference behaviour)."""
    return [match.span() for match in regex.finditer(text) if match.end() > match.start()]


def _pattern_spans(
    text: str, language: str, selected: list[int], catalog: Catalog | None = None, *, empty: bool = True
) -> Iterator[tuple[int, list[tuple[int, int]]]]:
    """Spans per selected pattern, in table order; the same as ``plain_spans`` for each.

    ``empty=False`` leaves out patterns whose trigger is not in the text (a pack adds
    thousands of patterns, and a page holds the triggers of a few).
    """
    data = rule_source(catalog)
    table = data.SIGNAL_TABLES[language]
    index = data.SIGNAL_INDEX[language]
    # The text is lowercased a window at a time to look words up. A few characters
    # are replaced first so that the copy agrees with re's IGNORECASE (FOLD_MAP:
    # dotless i, long s, capital I with dot); a text with a character no
    # replacement can fix (none with the shipped patterns) runs every pattern whole.
    if data.FOLD_UNSAFE is not None and data.FOLD_UNSAFE.search(text):
        for i in selected:
            yield i, plain_spans(table[i].regex, text)
        return
    wanted = set(selected)
    # Candidates are kept as machine integers (4 bytes each, not a 32-byte int object and a
    # pointer): a page holds tens of thousands of them, most of which never match.
    kind = "i" if array("i").itemsize >= 4 and len(text) < 1 << 31 else "q"
    # Made for a pattern when its first candidate is found: a pack adds thousands of patterns,
    # and a page holds the triggers of a few.
    candidates: dict[int, array[int]] = defaultdict(partial(array, kind))
    if any(i not in index.full for i in selected):
        _word_candidates(text, language, index, wanted, candidates, data)
        for strings, offset, patterns in index.anchors:
            targets = [i for i in patterns if i in wanted]
            if targets:
                positions = _anchor_positions(text, strings, offset)
                for i in targets:
                    candidates[i].extend(positions)
        for i in index.start:
            if i in wanted:
                candidates[i].append(0)
    full = set(index.full)
    if not empty:  # the patterns that may have spans: those with candidates, and those run whole
        selected = sorted(full.intersection(selected).union(candidates))
    for i in selected:
        if i in full:
            yield i, plain_spans(table[i].regex, text)
            continue
        found = candidates.pop(i, None)
        if not found:
            yield i, []  # its trigger is not in the text: the pattern is not even compiled
            continue
        regex = table[i].regex
        spans: list[tuple[int, int]] = []
        last_end = -1
        # The pattern is tried at every candidate in C (map), and only its matches come back
        # here: most candidates fail. Going through the matches left to right and dropping
        # those inside the previous one, or empty, gives finditer's matches.
        # Sorted, not deduplicated: a position listed twice (two literals of the pattern) is
        # tried twice and its second match dropped below, which costs less than a set.
        positions = sorted(found)
        for match in filter(None, map(regex.match, repeat(text, len(positions)), positions)):
            start, end = match.span()
            if start >= last_end and end > start:
                spans.append((start, end))
                last_end = end
        del found  # done with them
        yield i, spans


# The text is lowercased a window at a time: str.lower briefly needs twelve bytes a
# character while it builds a copy, so even a 16,384-character window held 200 KiB, the
# largest thing a scan held; more windows cost next to nothing.
_WINDOW = 4_096
_PREVIOUS_WORD = -1  # an index offset: the match starts at the word before the key word
_LOOK_BACK = -2  # index offsets from here down: look back from a literal (SignalIndex.look_backs)
_REACH = 256  # checked texts are shorter than this; a window's copy reaches this far either side
_COPY_TABLE_PAST = 4_000  # characters; below this the word table is read in place


def _word_candidates(
    text: str, language: str, index: SignalIndex, wanted: set[int], candidates: dict[int, array[int]], data: Catalog
) -> None:
    """One pass over the words of the text, looking each up (lowercased) in the trigger table."""
    table = index.words
    # With every pattern selected (the common case) no entry needs the selection test.
    narrowed = len(wanted) < len(data.SIGNAL_TABLES[language])
    # Keys are a word's first letters (the whole word when shorter); shorter
    # lengths are listed only for triggers that a longer word may start with:
    # those are looked up in a pass of their own over the few words that start
    # with their letters (a test on every word cost more than the lookups).
    partial = [
        # (The look-behind follows the first letter, so that re skips to those letters in C.)
        re.compile(rf"([{re.escape(firsts)}](?<!\w.)\w{{{short - 1}}})\w")
        for short, firsts in index.partial
    ]
    # A plain dict's get is several times faster than a read-only mapping's (which
    # calls through to the dict), but copying ~800 keys costs about 30 µs: worth it
    # only past a few hundred words.
    get = dict(table).get if len(text) > _COPY_TABLE_PAST else table.get
    # Words are runs of the key characters: a bitmap test per character, where \w asks
    # Unicode's tables; the keys come out the same (see SignalIndex.key_chars).
    key_words = re.compile(rf"([{index.key_chars}]{{1,{index.key_size}}})[{index.key_chars}]*")  # cached by re
    # Only a text that holds one of FOLD_MAP's characters pays for the replacement.
    fold = tuple((chr(code), new) for code, new in data.FOLD_MAP.items() if chr(code) in text) or None
    endings = _wanted_endings(index, wanted)
    # Per pattern found by looking back: how far, and a finder of its first word's endings.
    looks = {
        i: (reach, re.compile(rf"{_alternation(sorted(ends))}\b")) for i, reach, ends in index.look_backs if i in wanted
    }
    expand = index.expand  # None: every key's entries are expanded (no pack, or none of its rows)
    length = len(text)
    low = 0
    while low < length:
        high = min(low + _WINDOW, length)
        if high < length:
            # End the window after white space, so no word is cut in two.
            cut = max(text.rfind(" ", low, high), text.rfind("\n", low, high))
            high = cut + 1 if cut > low else high
        # The copy starts ``back`` characters before the window, for the words before a key.
        back = min(low, _REACH)
        base = low - back
        folded = _lowercase(text[base : high + _REACH], fold)
        # Each match's group 1 is the word's key: its first ``size`` letters (the loop runs
        # for every word of the text that is a trigger's key, so it calls no function).
        # Short keys a longer word may start with come from passes of their own; their group
        # 1 is the key too, so one loop serves both.
        matches = list(key_words.finditer(folded, back, high - base))
        for finder in partial:
            matches += finder.finditer(folded, back, high - base)
        # Most words are no key: they are looked up in C (map) and never come back to Python.
        found = list(map(get, map(_key_of, matches)))
        for match, entries in compress(zip(matches, found, strict=True), found):
            if expand is not None and isinstance(entries, str):  # a pack's key, expanded when first met
                entries = expand(match[1])
            at = match.start()
            after_key = match.end(1)
            for tails, checks in entries:  # type: ignore[union-attr]  # (compress kept the found ones)
                # The rest of the key word and the word after it, then the word before it
                # (the lookup matched the key); the pattern checks the rest.
                if not folded.startswith(tails, after_key):
                    continue
                for befores, offsets, patterns in checks:
                    if befores and not folded.endswith(befores, 0, at):
                        continue
                    for offset in offsets:
                        if offset < _PREVIOUS_WORD:
                            # The literal starts ``_LOOK_BACK - offset`` characters before the key;
                            # the patterns start at a word with their ending not far before it.
                            _look_back(text, folded, base, at + offset - _LOOK_BACK, patterns, looks, candidates)
                            continue
                        if offset == _PREVIOUS_WORD:
                            if base + at < 2:
                                continue
                            position = _word_start(text, base + at - 1)
                        elif offset <= base + at:
                            position = base + at - offset
                        else:
                            continue
                        for i in patterns:
                            if not narrowed or i in wanted:
                                candidates[i].append(position)
        if endings is not None:
            _suffix_candidates(text, folded, base, back, high, endings, candidates)
        low = high


_key_of = itemgetter(1)  # a word's key: group 1 of its match


def _look_back(
    text: str,
    folded: str,
    base: int,
    literal: int,
    patterns: tuple[int, ...],
    looks: dict[int, tuple[int, re.Pattern[str]]],
    candidates: dict[int, array[int]],
) -> None:
    """Candidates of ``patterns`` before a literal at ``literal`` in ``folded`` (the copy of ``text[base:]``):
    the starts of the words, at most a pattern's reach before it, that end with one of its endings."""
    for i in patterns:
        look = looks.get(i)
        if look is None:
            continue  # not selected
        reach, finder = look
        # The literal follows a non-word character, so an ending's \b before it reads the same
        # in the window as in the text.
        for found in finder.finditer(folded, max(literal - reach, 0), literal):
            candidates[i].append(_word_start(text, base + found.start()))


def _lowercase(text: str, fold: tuple[tuple[str, str], ...] | None) -> str:
    """``text.lower()``, after FOLD_MAP's replacements when the text needs them (same length)."""
    if fold is not None:
        # str.replace runs in C over the few characters; translate would look up every one.
        for old, new in fold:
            text = text.replace(old, new)
    return text.lower()


def _wanted_endings(
    index: SignalIndex, wanted: set[int]
) -> tuple[tuple[re.Pattern[str], ...], dict[str, list[int]]] | None:
    """The word endings some wanted pattern's first word needs: finders and, per ending, its patterns."""
    endings = {ending: [i for i in patterns if i in wanted] for ending, patterns in index.suffixes}
    endings = {ending: patterns for ending, patterns in endings.items() if patterns}
    if not endings:
        return None
    # A word ending in "sten" also ends in any listed "ten": credit every listed ending.
    credited = {
        ending: [i for other, found in endings.items() if ending.endswith(other) for i in found] for ending in endings
    }
    # One finder per first letter, each a trie of its endings: re skips to a finder's
    # literal opening ("ung") in C, where one finder for all the endings stopped at
    # every "s" and "u" (a flat alternation of a dozen endings is slower still). The
    # text is lowercased already, so no IGNORECASE either; the leftmost match of a
    # finder is the longest of its endings the word has.
    firsts = sorted({ending[0] for ending in endings})
    finders = tuple(re.compile(f"({_alternation(sorted(e for e in endings if e[0] == first))})\\b") for first in firsts)
    return finders, credited


def _suffix_candidates(
    text: str,
    folded: str,
    base: int,
    back: int,
    high: int,
    endings: tuple[tuple[re.Pattern[str], ...], dict[str, list[int]]],
    candidates: dict[int, array[int]],
) -> None:
    """Starts of the window's words that end with one of the endings (C-level passes).

    ``folded`` is the lowercased copy of ``text[base:]``; the window starts ``back`` into it.
    """
    finders, credited = endings
    for finder in finders:
        for found in finder.finditer(folded, back, high - base):
            start = _word_start(text, base + found.start())
            for i in credited[found[1]]:
                candidates[i].append(start)


def _alternation(words: list[str]) -> str:
    """A regex matching exactly ``words``, factored by common first letters."""
    if len(words) == 1:
        return re.escape(words[0])
    groups: dict[str, list[str]] = {}
    for word in words:
        groups.setdefault(word[:1], []).append(word[1:])
    branches = []
    for first, rests in groups.items():
        optional = "" in rests
        rests = [rest for rest in rests if rest]
        if not rests:
            branches.append(re.escape(first))
            continue
        tail = _alternation(rests)
        tail = f"(?:{tail})" if len(rests) > 1 or optional else tail
        branches.append(re.escape(first) + tail + ("?" if optional else ""))
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


def _start(match: re.Match[str]) -> int:
    return match.start()


def _word_start(text: str, end: int) -> int:
    """Start of the run of word characters (``\\w``: letters, digits, ``_``) that ends at ``end``."""
    # Usually a space starts the word: two searches in C instead of a step per letter.
    cut = text.rfind(" ", max(0, end - 64), end) + 1
    if cut and (cut == end or text[cut:end].isalnum()):
        return cut
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    return start


def _anchor_positions(text: str, strings: tuple[str, ...], offset: int) -> list[int]:
    """Positions ``offset`` characters after the start of each occurrence of one of ``strings``."""
    limit = len(text)
    if len(strings) == 1:
        string = strings[0]
        positions: list[int] = []
        found = text.find(string)
        while found != -1:
            if found + offset <= limit:
                positions.append(found + offset)
            found = text.find(string, found + 1)
        return positions
    # Several texts: one C-level pass (each missing text would cost a pass of ``find``).
    finder = re.compile(_alternation(sorted(strings)))  # re caches the compiled pattern
    if not _may_overlap(strings):
        return [found + offset for found in map(_start, finder.finditer(text)) if found + offset <= limit]
    positions = []
    match = finder.search(text)
    while match is not None:
        found = match.start()
        if found + offset <= limit:
            positions.append(found + offset)
        match = finder.search(text, found + 1)
    return positions


def _may_overlap(strings: tuple[str, ...]) -> bool:
    """True when one text's end can be another's start (occurrences could overlap)."""
    return any(a[cut : cut + len(b)] == b[: len(a) - cut] for a in strings for b in strings for cut in range(1, len(a)))


def view_hits(
    view: ProseView,
    language: str,
    rule_ids: tuple[str, ...],
    limit: int | None = None,
    *,
    min_level: str | None = None,
    code: bool = True,
    catalog: Catalog | None = None,
) -> tuple[list[tuple[int, int, int, str, str, int]], int]:
    """The first ``limit`` hits (all when None) of the selected rules on a prose view, and the count of all.

    A hit is (source start, end, rank, rule id, signal id, flags). The patterns
    run over the prose and, apart, over the code; every span is mapped back to
    the source. Hits in a context the rule's source excludes are dropped here,
    so every caller drops the same ones. Sorted as signals. ``flags`` holds
    the context bits (in code 1, in a quotation 2, negated 4): a small int,
    where a dict per hit would weigh more than the hit. ``min_level``,
    ``code`` and ``catalog`` are ``scan_text``'s.
    """
    excluded: Mapping[str, tuple[str, ...]] = rule_source(catalog).RULE_EXCLUDED_CONTEXTS
    contexts: dict[bool, ProseContext] = {}
    kept: list[tuple[list[tuple[int, int, int, str, str]], bool, TextMap]] = []
    for in_code, text, text_map in ((False, view.text, view.prose_map), (True, view.code_text, view.code_map)):
        found = (
            find_spans(text, language, rule_ids, min_level, catalog=catalog) if text and (code or not in_code) else []
        )
        if not in_code:
            found = with_sentence_lengths(found, text, language, rule_ids, catalog=catalog)
        if not found:
            continue
        context = contexts[in_code] = ProseContext(text, language)
        checks = _exclusion_checks(excluded, view, context, in_code, {hit[3] for hit in found})
        if checks:
            found = [hit for hit in found if (check := checks.get(hit[3])) is None or not check(hit[0], hit[1])]
        kept.append((found, in_code, text_map))
    total = sum(len(found) for found, _, _ in kept)
    located = _located(kept, total, limit)
    del kept, found  # every hit of the page (thousands on a long one): only the located ones go on
    located.sort(key=_signal_order)
    if limit is not None:
        del located[limit:]
    # The quotation and negation flags are found only for the hits reported: a long page
    # has thousands of hits past the cap, and each flag reads the hit's block. A hit kept
    # although its rule excludes negated hits was found not negated above.
    not_negated = {rule_id for rule_id, contexts_ in excluded.items() if "negated" in contexts_}
    # Each text's flags in one call, its hits in order.
    flags_of: dict[bool, Iterator[int]] = {}
    for in_code, context in contexts.items():
        mine = [hit for hit in located if hit[5] is in_code]
        asked = [hit[3] not in not_negated for hit in mine]
        flags = context.flags_of(map(_start_in_text, mine), map(_end_in_text, mine), asked)
        flags_of[in_code] = iter([flag | IN_CODE for flag in flags] if in_code else flags)
    hits = [
        (source_start, source_end, rank, rule_id, signal_id, next(flags_of[in_code]))
        for source_start, source_end, rank, rule_id, signal_id, in_code, _, _ in located
    ]
    return hits, total


def _located(
    kept: list[tuple[list[tuple[int, int, int, str, str]], bool, TextMap]], total: int, limit: int | None
) -> list[tuple[int, int, int, str, str, bool, int, int]]:
    """The hits of each text that may be among the first ``limit`` (all when None), at their source
    positions: (source start, end, rank, rule id, signal id, in code, start, end in the scanned text)."""
    located: list[tuple[int, int, int, str, str, bool, int, int]] = []
    for found, in_code, text_map in kept:
        if limit is not None and total > limit:
            found = _leading(found, limit, text_map)
        sources = text_map.source_spans(map(_first, found), map(_second, found))
        located.extend(
            (source_start, source_end, rank, rule_id, signal_id, in_code, start, end)
            for (source_start, source_end), (start, end, rank, rule_id, signal_id) in zip(sources, found, strict=True)
        )
    return located


def _leading(
    found: list[tuple[int, int, int, str, str]], limit: int, text_map: TextMap
) -> list[tuple[int, int, int, str, str]]:
    """The hits of one text that may be among the first ``limit`` of the source (all, if unsure).

    ``found`` is in the text's order. Where the map keeps that order, a hit after the
    first ``limit`` comes after them in the source too, unless it starts at the same
    source offset as the last of them (its end or rule may put it first).
    """
    if len(found) <= limit or not text_map.keeps_order():
        return found
    last = text_map.source_start(found[limit - 1][0])
    cut = limit
    while cut < len(found) and text_map.source_start(found[cut][0]) == last:
        cut += 1
    return found[:cut]


# No fix is offered in code or inside quotation marks (someone else's wording), nor under a
# negation: "not very useful" is not "not useful" (issue 28: PEP deletions that changed meaning).
_NO_FIX = IN_CODE | QUOTED | NEGATED
_first, _second = itemgetter(0), itemgetter(1)
_start_in_text, _end_in_text = itemgetter(6), itemgetter(7)
# The order of signals: source start, end, then rule order; the sort is stable.
_signal_order = itemgetter(0, 1, 2)


def _exclusion_checks(
    excluded: Mapping[str, tuple[str, ...]], view: ProseView, context: ProseContext, in_code: bool, rule_ids: set[str]
) -> dict[str, Callable[[int, int], bool]]:
    """Per rule of ``rule_ids`` that excludes a context, whether its hit ``start..end`` of the prose
    (or code) lies in such a context; rules whose hits are never excluded here are left out."""
    checks: dict[str, Callable[[int, int], bool]] = {}
    for rule_id in rule_ids & excluded.keys():
        tests: list[Callable[[int, int], bool]] = []
        contexts = excluded[rule_id]
        if "code" in contexts and in_code:
            tests.append(_always)
        if "negated" in contexts:
            tests.append(context.negated)
        if "quotation" in contexts:
            tests.append(_at_start(context.in_quote))
        if "heading" in contexts and "table" in contexts and not in_code:
            tests.append(lambda start, end: view.is_heading(start) or view.in_table(start))
        elif "heading" in contexts and not in_code:
            tests.append(_at_start(view.is_heading))
        elif "table" in contexts and not in_code:
            tests.append(_at_start(view.in_table))
        if tests:
            # Most rules exclude one context: its own test, with no loop around it.
            checks[rule_id] = tests[0] if len(tests) == 1 else _any_of(tuple(tests))
    return checks


def _always(start: int, end: int) -> bool:
    return True


def _at_start(test: Callable[[int], bool]) -> Callable[[int, int], bool]:
    return lambda start, end: test(start)


def _any_of(tests: tuple[Callable[[int, int], bool], ...]) -> Callable[[int, int], bool]:
    return lambda start, end: any(test(start, end) for test in tests)


def scan_signals(
    text: str,
    language: str,
    rule_ids: tuple[str, ...],
    max_signals: int,
    *,
    markup: str = "markdown",
    view: ProseView | None = None,
    min_level: str | None = None,
    code: bool = True,
    catalog: Catalog | None = None,
) -> tuple[list[Signal], int]:
    """The first ``max_signals`` signals of ``text`` read as ``markup``, and how many there are.

    For a caller that drops the signals below a level, or in code, anyway (the command
    line by default): ``min_level`` runs only the patterns of that level or above
    (sentence lengths are checked whatever their level), and ``code=False`` leaves the
    code unscanned. What such a caller keeps is unchanged: a pattern finds its spans
    alone, and of two patterns of one rule on one span the higher level's names it.
    ``catalog`` is the rule data to scan with (``writing_rules.packs.catalog_for``;
    None: the built-in catalogue); ``rule_ids`` are ids of its rules.
    """
    # Only the count of the hits past the cap is reported. The view, read here, goes with
    # the call: no name holds it while the signals are built (peak memory 5.2x -> 4.6x).
    hits, total = view_hits(
        read_prose(text, markup) if view is None else view,
        language,
        rule_ids,
        max_signals,
        min_level=min_level,
        code=code,
        catalog=catalog,
    )
    levels: dict[tuple[str, str], str] = {}
    fix_ids = fix_signal_ids(catalog)
    signals: list[Signal] = []
    append = signals.append
    positions = positions_in_order(text, [(hit[0], hit[1]) for hit in hits])
    for (start, end, _, rule_id, signal_id, flags), (utf16_start, utf16_end, line, column) in zip(
        hits, positions, strict=True
    ):
        level = levels.get(key := (rule_id, signal_id))
        if level is None:
            level = levels[key] = signal_level(rule_id, signal_id, catalog=catalog)
        fix = None
        if rule_id in fix_ids and not flags & _NO_FIX:
            found = _rule_fix(text, start, end, rule_id, signal_id, fix_ids[rule_id], catalog)
            if found is not None:
                # ``match`` is the text the replacement replaces; it starts where the signal starts.
                fix = SignalFix(found.replacement, text[start : found.end])
        append(
            Signal(
                rule_id, signal_id, level, text[start:end], start, end, utf16_start, utf16_end, line, column, flags, fix
            )
        )
    return signals, total


def scan_text(
    text: str,
    language: str,
    rule_ids: tuple[str, ...],
    max_signals: int,
    *,
    markup: str = "markdown",
    view: ProseView | None = None,
    min_level: str | None = None,
    code: bool = True,
    catalog: Catalog | None = None,
) -> dict[str, Any]:
    """``data`` of ``find_writing_signals``: ``text`` read as ``markup`` (the tool reads Markdown).

    The tool's objects of ``scan_signals`` (see there for ``min_level``, ``code`` and ``catalog``).
    """
    signals, total = scan_signals(
        text,
        language,
        rule_ids,
        max_signals,
        markup=markup,
        view=view,
        min_level=min_level,
        code=code,
        catalog=catalog,
    )
    return signals_data(language, rule_ids, signals, total, total > max_signals)
