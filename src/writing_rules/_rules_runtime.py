"""What the generated ``_rules_data`` module is built with: its only import from this package.

The rule catalogue's value types (rules, their texts, profiles, signal
patterns and the signal index), and the few helpers the generated argument
validators call. Keeping the generated module's dependencies in one small
module lets a reader see at a glance what the data needs at run time.

The value types are named tuples, except the pattern that compiles itself on
first use: building a dataclass costs about 0.3 ms of start-up each, a named
tuple a seventh of that, and every command imports these.

The validators return the first problem in the contract's order (see
``docs/review-tools.md``, "Error codes") as an ``ArgumentProblem``, with a rank
so the dispatcher can weigh it against the checks that go beyond the schema.
"""

from __future__ import annotations

import gc
import re
from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from ._describe import show
from ._index_rows import Entries, expand_words
from ._tool_call import clean_text, pointer_segment

__all__ = [
    "MISSING",
    "ArgumentProblem",
    "Example",
    "LazySignalIndexes",
    "LengthSignal",
    "Profile",
    "Rule",
    "RuleText",
    "SignalIndex",
    "SignalPattern",
    "clean_text",
    "is_integer",
    "pointer_segment",
    "rule_table",
    "show",
    "signal_indexes",
    "signal_table",
]

MISSING = object()  # an argument the call does not carry

# One violated rule: ``(rank, code, field, message)``. ``rank`` orders problems
# (the contract's error order), ``field`` is a JSON Pointer. A plain tuple, read
# by unpacking: a rejected call builds one on the hot path, and a tuple subclass
# (named fields) cost a third of a rejection's time.
ArgumentProblem = tuple[int, str, str, str]


def is_integer(value: object) -> bool:
    """JSON Schema's integer: an int or a whole-number float, never a boolean."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and value.is_integer()


class Example(NamedTuple):
    """A before/after pair that shows a rule at work."""

    before: str
    after: str


class RuleText(NamedTuple):
    """Everything a reader or a model sees of one rule, in one language."""

    title: str
    summary: str
    instruction: str
    applies_when: str
    examples: tuple[Example, ...]


class Rule(NamedTuple):
    """One catalogue rule; ``texts`` maps "en" and "de" to its texts.

    ``level`` is the rule's level (``error``, ``warning`` or ``suggestion``);
    ``signal_levels`` maps each of its signal ids to that signal's level, which
    is the rule's unless the pattern states its own (a precise pattern may be a
    ``warning`` while the rule's broad pattern stays a ``suggestion``).
    """

    id: str
    level: str
    signal_levels: Mapping[str, str]
    profiles: tuple[str, ...]
    tags: tuple[str, ...]
    texts: Mapping[str, RuleText]
    has_signals: bool


# One rule as the generated module writes it: id, level, signal ids, {signal id: level} where not
# the rule's, profiles, tags, and per language the title, summary, instruction and applies_when,
# then (before, after) examples.
RuleRow = tuple[str, str, tuple[str, ...], dict[str, str], tuple[str, ...], tuple[str, ...], dict[str, tuple[Any, ...]]]


def _rule_text(title: str, summary: str, instruction: str, applies_when: str, *examples: tuple[str, str]) -> RuleText:
    return RuleText(title, summary, instruction, applies_when, tuple(Example(*example) for example in examples))


def rule_table(rows: tuple[RuleRow, ...]) -> Mapping[str, Rule]:
    """The catalogue, by id in row order, from the generated module's rows (one text a line there,
    without a field name or an ``Example(...)`` around each: that framing was a fifth of the texts)."""
    rules = {}
    for rule_id, level, signal_ids, levels, profiles, tags, texts in rows:
        rules[rule_id] = Rule(
            id=rule_id,
            level=level,
            signal_levels=MappingProxyType({signal_id: levels.get(signal_id, level) for signal_id in signal_ids}),
            profiles=profiles,
            tags=tags,
            texts=MappingProxyType({language: _rule_text(*text) for language, text in texts.items()}),
            has_signals=bool(signal_ids),
        )
    return MappingProxyType(rules)


class Profile(NamedTuple):
    """A kind of document and the rules that apply to it, in catalogue order."""

    id: str
    names: Mapping[str, str]
    framing: Mapping[str, str]
    rule_ids: tuple[str, ...]


class SignalPattern:
    """One static pattern of a rule, for one language, compiled on first use.

    ``source`` is the pattern text (or a compiled pattern). Compiling all 151
    shipped patterns costs about 70 ms, more than a one-page scan: the scanner
    reads ``regex`` only for a pattern whose trigger occurs in the text, and
    the compiled pattern is kept for the rest of the process.

    A frozen value like a dataclass (equal by its four fields), written out: the
    command line imports no ``dataclasses`` (with ``inspect``, about 5 ms of start).
    """

    __slots__ = ("_regex", "language", "rule_id", "signal_id", "source")
    rule_id: str
    signal_id: str
    language: str
    source: str | re.Pattern[str]
    _regex: re.Pattern[str] | None

    def __init__(self, rule_id: str, signal_id: str, language: str, source: str | re.Pattern[str]) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "rule_id", rule_id)
        setattr_(self, "signal_id", signal_id)
        setattr_(self, "language", language)
        setattr_(self, "source", source)
        setattr_(self, "_regex", source if isinstance(source, re.Pattern) else None)

    @property
    def regex(self) -> re.Pattern[str]:
        regex = self._regex
        if regex is None:  # two threads may both compile it: the patterns are equal
            regex = re.compile(self.source)
            object.__setattr__(self, "_regex", regex)
        return regex

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a SignalPattern is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a SignalPattern is frozen")

    def _key(self) -> tuple[str, str, str, str | re.Pattern[str]]:
        return self.rule_id, self.signal_id, self.language, self.source

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, SignalPattern)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        rule_id, signal_id, language, source = self._key()
        return f"SignalPattern(rule_id={rule_id!r}, signal_id={signal_id!r}, language={language!r}, source={source!r})"


class LengthSignal(NamedTuple):
    """One sentence-length signal of a rule, for one language.

    A prose sentence with more than ``max_words`` visible words, or more than
    ``max_chars`` characters, is a hit (None: no limit of that kind). The
    words are counted by ``writing_rules.prose.sentences``.
    """

    rule_id: str
    signal_id: str
    language: str
    max_words: int | None
    max_chars: int | None
    # A sentence over ``max_words`` is a hit only when its measured part has at least this
    # many clauses (None: any); the rule source's ``min_clauses``.
    min_clauses: int | None = None


def signal_table(language: str, rules: dict[str, dict[str, str]]) -> tuple[SignalPattern, ...]:
    """One language's patterns from the generated module's rows: per rule id, ``{signal id: pattern text}``."""
    return tuple(
        SignalPattern(rule_id, signal_id, language, source)
        for rule_id, patterns in rules.items()
        for signal_id, source in patterns.items()
    )


class SignalIndex(NamedTuple):
    """Where each pattern of one language's table can start matching (see the scanner).

    Pattern numbers are positions in that language's ``SIGNAL_TABLES`` entry.
    ``words`` maps the first letters of a lowercase word (the key) to entries
    ``(tails, checks)``, each check ``(befores, offsets, patterns)``: where the
    lowercased text after such a key continues with one of ``tails`` (the rest
    of the key word, the literal's next word and the character after it) and the text before the word
    ends with one of ``befores`` (the word before it in the patterns' literals;
    empty: nothing to check), each of ``patterns`` can match each of
    ``offsets`` characters before the word; the pattern itself checks the rest.
    The offset -1 means the match starts at the word before (a pattern whose
    look-ahead names the word that follows); offsets of -2 and below are
    explained at ``look_backs``.
    """

    words: Mapping[
        str, tuple[tuple[tuple[str, ...], tuple[tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]], ...]], ...]
    ]
    key_size: int  # keys are a word's first ``key_size`` letters, or the whole word when shorter
    # A regex class body: the characters the scanner reads a word's key from (every Latin-1
    # word character and each character of a key; a cheaper test than ``\w``, same keys).
    key_chars: str
    # (length, first letters) of short keys that a longer word may start with: looked up
    # by a word's first ``length`` letters, only for words that start with one of those letters.
    partial: tuple[tuple[int, str], ...]
    anchors: tuple[tuple[tuple[str, ...], int, tuple[int, ...]], ...]  # (texts, offset, patterns)
    start: tuple[int, ...]  # patterns that may also match at position 0
    full: tuple[int, ...]  # patterns without a trigger: scanned over the whole text
    # (lowercase ending, patterns): the match starts at a word that ends with it
    suffixes: tuple[tuple[str, tuple[int, ...]], ...] = ()
    # (pattern, reach, endings): an offset of -2 - n names a literal that starts n characters
    # before the key word; the match starts at a word with one of the endings that lies at
    # most ``reach`` characters before that literal (the scanner looks back for it).
    look_backs: tuple[tuple[int, int, tuple[str, ...]], ...] = ()
    # For an index with packs (``writing_rules.packs.catalog_for``): a value of ``words`` may
    # still be its row (a str, see ``_index_rows.py``); ``expand(key)`` gives its entries (and
    # keeps them). A scan expands only the keys its text holds. None: every value is expanded.
    expand: Callable[[str], Entries] | None = None


class LazySignalIndexes(Mapping[str, SignalIndex]):
    """Each language's ``SignalIndex``, made from its ``sources`` the first time it is read, then kept.

    The base of the built-in indexes (below) and a pack's (``writing_rules.packs``):
    a subclass says how one language's index is made (``_expand``). Each language is
    expanded at most once (two threads racing for it build equal values and keep the
    first); ``key_size``, ``in`` and iteration never expand one.
    """

    __slots__ = ("_built", "_sources", "_tables")

    def __init__(self, sources: Mapping[str, Any], tables: Mapping[str, tuple[SignalPattern, ...]]) -> None:
        self._sources = sources
        self._tables = tables
        self._built: dict[str, SignalIndex] = {}

    @abstractmethod
    def _expand(self, language: str) -> SignalIndex:
        """``language``'s index, made from ``_sources[language]``; called once per language."""

    def __getitem__(self, language: str) -> SignalIndex:
        built = self._built.get(language)
        if built is None:
            built = self._built.setdefault(language, self._expand(language))
        return built

    def key_size(self, language: str) -> int:
        """The length of the index's keys in ``language``, without expanding the index."""
        size: int = self._sources[language]["key_size"]
        return size

    def __contains__(self, language: object) -> bool:  # without expanding (Mapping's reads the item)
        return language in self._sources

    def __iter__(self) -> Iterator[str]:
        return iter(self._sources)

    def __len__(self) -> int:
        return len(self._sources)


class _SignalIndexes(LazySignalIndexes):
    """Each language's index, expanded from the generated module's rows the first time it is read.

    The rows (``_index_rows.py``) keep the module small and its diffs short;
    a process that scans German only never expands the English index.
    """

    __slots__ = ()

    def _expand(self, language: str) -> SignalIndex:
        source = dict(self._sources[language])
        # The module names patterns by signal id (so adding one renumbers nothing there);
        # the scanner takes their positions in the language's table.
        positions = {pattern.signal_id: position for position, pattern in enumerate(self._tables[language])}
        source["anchors"] = tuple(
            (texts, offset, tuple(positions[name] for name in names)) for texts, offset, names in source["anchors"]
        )
        source["start"] = tuple(positions[name] for name in source["start"])
        source["full"] = tuple(positions[name] for name in source["full"])
        source["suffixes"] = tuple(
            (ending, tuple(positions[name] for name in names)) for ending, names in source["suffixes"]
        )
        source["look_backs"] = tuple((positions[name], reach, endings) for name, reach, endings in source["look_backs"])
        # Expanding allocates some 8,000 tuples and makes no cycle: the collector, which those
        # allocations would set off over the process's objects, runs afterwards instead (with
        # the default thresholds it took 0.3 ms of a 4 ms expansion after the CLI's imports).
        collecting = gc.isenabled()
        gc.disable()
        try:
            words = MappingProxyType(expand_words(source.pop("words"), source.pop("words_plain"), positions))
        finally:
            if collecting:
                gc.enable()
        return SignalIndex(words=words, **source)


def signal_indexes(
    sources: Mapping[str, Mapping[str, Any]], tables: Mapping[str, tuple[SignalPattern, ...]]
) -> Mapping[str, SignalIndex]:
    """The per-language indexes from the generated module's sources: ``SignalIndex`` fields, with
    ``words`` as rows and ``words_plain`` the keys written as literals (see ``_index_rows.py``),
    each pattern named by its signal id; ``tables`` (``SIGNAL_TABLES``) gives their positions."""
    return _SignalIndexes(sources, tables)
