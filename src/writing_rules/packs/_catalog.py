"""One catalogue of the built-in rules and loaded packs: what a scan with packs reads.

``catalog_for(packs)`` merges the packs' tables into the built-in ones, in the
shapes of the generated module: rules after the built-in ones (in the packs'
order), each pack rule in the built-in profiles it names, and each language's
patterns after the built-in patterns. The packs' triggers join the built-in
trigger index (``SignalIndex``), their pattern numbers moved past the table
before them, so a scan still makes one pass over the words of a text however
many packs there are. A language's index is merged the first time it is read
(a process that scans English never merges the German one).

Catalogues are memoised by the packs' ids and identities (digest and module
checksum): the same packs give the same object, so caches keyed by a catalogue
keep working; the last eight are kept. ``catalog_for(())`` is the built-in
catalogue (``writing_rules._catalog.builtin_catalog``).
"""

from __future__ import annotations

import re
from collections import ChainMap
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from .._catalog import Catalog, Pack, builtin_catalog
from .._index_rows import Entries, expand_words
from .._rules_runtime import LengthSignal, Rule, SignalIndex, SignalPattern
from ._digest import sha256
from ._loader import PackError, PackIndexes

__all__ = ["catalog_for", "merge_indexes"]

_MEMO: dict[tuple[tuple[str, str], ...], Catalog] = {}
# The catalogues kept, least recently used first dropped: a process uses one or a few sets of
# packs at a time (a language server, one per workspace folder), and a team that rebuilds its
# pack while the server runs must not leave every old build's catalogue in memory.
_MEMO_SIZE = 8


def catalog_for(packs: Sequence[Pack]) -> Catalog:
    """The catalogue of the built-in rules and ``packs`` (memoised by the packs' ids and identities).

    Raises ``PackError`` when a pack's rule id is a built-in one or another
    pack's, a pack is given twice, a rule names a profile the built-in
    catalogue does not have, or two packs' indexes cannot be joined.
    """
    packs = tuple(packs)
    if not packs:
        return builtin_catalog()
    for pack in packs:
        if not isinstance(pack, Pack):
            raise TypeError(f"catalog_for takes loaded packs (writing_rules.packs.Pack), not {type(pack).__name__}")
    key = tuple((pack.id, pack.identity) for pack in packs)
    found = _MEMO.pop(key, None)  # put back last: the most recently used
    # The same packs give the same catalogue; packs loaded again (the configuration was read
    # again) give a new one, which replaces the old.
    if found is None or any(mine is not theirs for mine, theirs in zip(found.packs, packs, strict=True)):
        found = _merge(builtin_catalog(), packs)
    _MEMO[key] = found
    while len(_MEMO) > _MEMO_SIZE:
        try:
            del _MEMO[next(iter(_MEMO))]
        except (KeyError, RuntimeError, StopIteration):  # another thread changed the memo meanwhile
            break
    return found


def _merge(builtin: Catalog, packs: tuple[Pack, ...]) -> Catalog:
    rules: dict[str, Rule] = dict(builtin.RULES)
    owners: dict[str, str] = {}
    seen_packs: set[str] = set()
    for pack in packs:
        if pack.id in seen_packs:
            raise PackError(pack.source, f"pack id {pack.id!r} is loaded twice")
        seen_packs.add(pack.id)
        for rule_id, rule in pack.rules.items():
            if rule_id in builtin.RULES:
                raise PackError(pack.source, f"rule id {rule_id!r} is a built-in rule's; rename the rule in the pack")
            if rule_id in owners:
                raise PackError(
                    pack.source, f"rule id {rule_id!r} is also a rule of pack {owners[rule_id]}; rename one of them"
                )
            owners[rule_id] = pack.source
            for profile in rule.profiles:
                if profile not in builtin.PROFILES:
                    raise PackError(
                        pack.source,
                        f"rule {rule_id!r} names profile {profile!r}, which this writing-rules does not have "
                        f"(profiles: {', '.join(builtin.PROFILE_IDS)}); rebuild the pack",
                    )
            rules[rule_id] = rule
    profiles = {
        profile_id: profile._replace(
            rule_ids=(
                *profile.rule_ids,
                *(rule_id for rule_id in owners if profile_id in rules[rule_id].profiles),
            )
        )
        for profile_id, profile in builtin.PROFILES.items()
    }
    languages = builtin.LANGUAGES
    tables: dict[str, tuple[SignalPattern, ...]] = {}
    lengths: dict[str, tuple[LengthSignal, ...]] = {}
    for language in languages:
        tables[language] = builtin.SIGNAL_TABLES.get(language, ()) + tuple(
            pattern for pack in packs for pattern in pack.signal_tables.get(language, ())
        )
        lengths[language] = builtin.LENGTH_SIGNALS.get(language, ()) + tuple(
            signal for pack in packs for signal in pack.length_signals.get(language, ())
        )
    key_size = getattr(builtin.SIGNAL_INDEX, "key_size", None)
    for pack in packs:
        for language in pack.languages:
            if language not in languages:
                raise PackError(pack.source, f"the pack names language {language!r}; writing-rules knows en and de")
            # Checked now, not when a scan first reads the merged index.
            if key_size is not None and _key_size(pack, language) != key_size(language):
                raise PackError(
                    pack.source, "the pack's trigger index does not fit this writing-rules': rebuild the pack"
                )
    excluded = dict(builtin.RULE_EXCLUDED_CONTEXTS)
    fold_map = dict(builtin.FOLD_MAP)
    unsafe = [builtin.FOLD_UNSAFE.pattern] if builtin.FOLD_UNSAFE is not None else []
    for pack in packs:
        excluded.update(pack.rule_excluded_contexts)
        for code, new in pack.fold_map.items():
            if fold_map.setdefault(code, new) != new:
                raise PackError(pack.source, f"the pack folds {chr(code)!r} otherwise than writing-rules: rebuild it")
            # A pack folds only characters its own keys need (İ, ı, ſ): one that lowercases to a
            # character of the built-in keys would hide their triggers in every text.
            if code not in builtin.FOLD_MAP and any(
                re.fullmatch(f"[{builtin.SIGNAL_INDEX[language].key_chars}]", chr(code).lower())
                for language in languages
            ):
                message = f"the pack folds {chr(code)!r}, a letter of the built-in rules: rebuild it"
                raise PackError(pack.source, message)
        if pack.fold_unsafe:
            unsafe.append(f"[{re.escape(pack.fold_unsafe)}]")
    hasher = sha256(f"writing-rules catalogue\0{builtin.digest}".encode())
    for pack in packs:
        hasher.update(f"\0{pack.id}\0{pack.identity}".encode())
    # Chained, not copied: a pack reads a signal's fixes and message when a scan first needs them.
    fixes: ChainMap[tuple[str, str], tuple[tuple[str, str], ...]] = ChainMap(
        dict(builtin.SIGNAL_FIXES),
        *(pack.signal_fixes for pack in packs),  # type: ignore[arg-type]  # read only, never written
    )
    messages: ChainMap[tuple[str, str], str] = ChainMap({}, *(pack.signal_messages for pack in packs))  # type: ignore[arg-type]
    return Catalog(
        packs,
        hasher.hexdigest(),
        MappingProxyType(messages),
        LANGUAGES=languages,
        MAX_TEXT_UNITS=builtin.MAX_TEXT_UNITS,
        RULES=MappingProxyType(rules),
        RULE_IDS=tuple(rules),
        PROFILES=MappingProxyType(profiles),
        PROFILE_IDS=tuple(profiles),
        SIGNAL_TABLES=MappingProxyType(tables),
        LENGTH_SIGNALS=MappingProxyType(lengths),
        SIGNAL_INDEX=_MergedIndexes(builtin, packs),
        FOLD_MAP=MappingProxyType(fold_map),
        FOLD_UNSAFE=re.compile("|".join(unsafe)) if unsafe else None,
        SIGNAL_FIXES=MappingProxyType(fixes),
        RULE_EXCLUDED_CONTEXTS=MappingProxyType(excluded),
        PROMPT_FRAGMENTS=builtin.PROMPT_FRAGMENTS,
    )


def _key_size(pack: Pack, language: str) -> int:
    index = pack.signal_index
    return index.key_size(language) if isinstance(index, PackIndexes) else index[language].key_size


class _MergedIndexes(Mapping[str, SignalIndex]):
    """Each language's merged index, built the first time it is read (then kept)."""

    __slots__ = ("_built", "_builtin", "_packs")

    def __init__(self, builtin: Catalog, packs: tuple[Pack, ...]) -> None:
        self._builtin = builtin
        self._packs = packs
        self._built: dict[str, SignalIndex] = {}

    def __getitem__(self, language: str) -> SignalIndex:
        built = self._built.get(language)
        if built is None:
            base = self._builtin.SIGNAL_INDEX[language]  # KeyError for a language the catalogue lacks
            parts: list[tuple[int, Pack]] = []
            offset = len(self._builtin.SIGNAL_TABLES[language])
            for pack in self._packs:
                if language in pack.signal_index:
                    parts.append((offset, pack))
                    offset += len(pack.signal_tables[language])
            merged = _merge_language(base, language, parts) if parts else base
            built = self._built.setdefault(language, merged)
        return built

    def __contains__(self, language: object) -> bool:  # without merging (Mapping's reads the item)
        return language in self._builtin.SIGNAL_INDEX

    def __iter__(self) -> Iterator[str]:
        return iter(self._builtin.SIGNAL_INDEX)

    def __len__(self) -> int:
        return len(self._builtin.SIGNAL_INDEX)


def _merge_language(base: SignalIndex, language: str, parts: list[tuple[int, Pack]]) -> SignalIndex:
    """The built-in index of ``language`` joined with the packs' (each at its table's offset).

    A key only one pack has keeps its row (a str) until a scan meets it: the merged
    index's ``expand`` turns it into entries then. Keys shared with the built-in index
    or another pack are expanded now and their entries joined.
    """
    # Values are entries, or a pack's row (a str) until ``expand`` reads it.
    words: dict[str, Any] = dict(base.words)
    names_of: dict[str, Mapping[str, int]] = {}  # a row's key -> its pack's pattern positions

    def expand(key: str) -> Entries:
        value = words[key]
        if isinstance(value, str):
            try:
                value = expand_words(f"{key}={value}", {}, names_of[key])[key]
            except (KeyError, ValueError, IndexError):
                value = ()  # a row no compiler wrote (the load checked its pattern names) finds nothing
            words[key] = value
        return value  # type: ignore[no-any-return]

    def join(key: str, entries: Entries) -> None:
        known = words.get(key)
        if known is not None and isinstance(known, str):
            known = expand(key)
        words[key] = entries if known is None else known + entries

    heads = [base]
    for offset, pack in parts:
        index = pack.signal_index
        if isinstance(index, PackIndexes):
            head, rows, plain, names = index.rows(language, offset)
            for key, row in rows.items():
                if key in words:
                    join(key, expand_words(f"{key}={row}", {}, names)[key])
                else:
                    words[key] = row
                    names_of[key] = names
            for key, entries in plain.items():
                join(key, entries)
        else:  # a pack's index given expanded (a Pack built by hand)
            head = _shifted(index[language], offset)
            for key, entries in head.words.items():
                join(key, entries)
        heads.append(head)
    return _joined(heads, words, expand)


def _moved(numbers: tuple[int, ...], offset: int) -> tuple[int, ...]:
    return tuple(number + offset for number in numbers) if offset else numbers


def _shifted(index: SignalIndex, offset: int) -> SignalIndex:
    """``index`` with every pattern number moved by ``offset`` (its table starts there)."""
    if not offset:
        return index
    return index._replace(
        words={
            key: tuple(
                (tails, tuple((befores, offsets, _moved(patterns, offset)) for befores, offsets, patterns in checks))
                for tails, checks in entries
            )
            for key, entries in index.words.items()
        },
        anchors=tuple((texts, at, _moved(patterns, offset)) for texts, at, patterns in index.anchors),
        start=_moved(index.start, offset),
        full=_moved(index.full, offset),
        suffixes=tuple((ending, _moved(patterns, offset)) for ending, patterns in index.suffixes),
        look_backs=tuple((pattern + offset, reach, endings) for pattern, reach, endings in index.look_backs),
    )


def merge_indexes(parts: Sequence[tuple[int, SignalIndex]]) -> SignalIndex:
    """One index for several tables placed one after the other: ``(offset, index)`` each, expanded.

    The offset is where that index's table starts in the joined table; its pattern
    numbers move by it. (``catalog_for`` joins a pack's rows without expanding them.)
    """
    words: dict[str, Entries] = {}
    heads = []
    for offset, index in parts:
        head = _shifted(index, offset)
        for key, entries in head.words.items():
            known = words.get(key)
            words[key] = entries if known is None else known + entries
        heads.append(head)
    return _joined(heads, words, None)


def _joined(heads: Sequence[SignalIndex], words: dict[str, Any], expand: Any) -> SignalIndex:
    """The index with ``words`` and the other fields of ``heads`` (in final positions) joined.

    ``key_chars`` is the union of the character classes (each index's keys read the same
    with either: every class holds the Latin-1 word characters and the characters of its
    keys); short keys (``partial``) join per length, ``suffixes`` per ending. Raises
    ``ValueError`` for indexes whose keys have different lengths.
    """
    first = heads[0]
    if any(head.key_size != first.key_size for head in heads):
        raise ValueError("the indexes' keys have different lengths; rebuild the pack with this writing-rules")
    partial: dict[int, str] = {}
    suffixes: dict[str, tuple[int, ...]] = {}
    classes: list[str] = []
    for head in heads:
        for length, firsts in head.partial:
            had = partial.get(length, "")
            partial[length] = had + "".join(sorted(set(firsts) - set(had)))
        for ending, patterns in head.suffixes:
            suffixes[ending] = suffixes.get(ending, ()) + patterns
        if head.key_chars not in classes:
            classes.append(head.key_chars)
    has_rows = expand is not None and any(isinstance(value, str) for value in words.values())
    return SignalIndex(
        words=MappingProxyType(words),
        key_size=first.key_size,
        key_chars="".join(classes),
        partial=tuple(sorted(partial.items())),
        anchors=tuple(anchor for head in heads for anchor in head.anchors),
        start=tuple(number for head in heads for number in head.start),
        full=tuple(number for head in heads for number in head.full),
        suffixes=tuple(suffixes.items()),
        look_backs=tuple(look for head in heads for look in head.look_backs),
        expand=expand if has_rows else None,
    )
