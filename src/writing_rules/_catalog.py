"""The rule data a scan and the review tools read: the built-in catalogue, plus loaded packs.

A ``Catalog`` has the attribute names of the generated module
``writing_rules._rules_data`` (``RULES``, ``RULE_IDS``, ``PROFILES``,
``SIGNAL_TABLES``, ``SIGNAL_INDEX``, ...), so code that reads the module reads
a catalogue the same way; ``packs`` and ``digest`` say what it holds.
``writing_rules.packs.catalog_for`` builds one that merges packs into the
built-in data; ``builtin_catalog()`` is the built-in data alone.

The tools take ``catalog=None`` for the built-in data (``rule_source``: the
same objects as the generated module's, so the built-in path scans as before
packs existed). ``Pack`` lives
here, below every subpackage, so that the tools and the root modules can name
it; ``writing_rules.packs`` is where users get it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

from ._lazy_rules import rule_data

_T = TypeVar("_T")

TYPE_CHECKING = False
if TYPE_CHECKING:  # the annotations only: importing this module stays as cheap as ``_levels`` was
    from re import Pattern

    from ._rules_runtime import LengthSignal, Profile, Rule, SignalIndex, SignalPattern

__all__ = ["CATALOG_FIELDS", "Catalog", "Pack", "builtin_catalog", "rule_source"]


class Pack(NamedTuple):
    """A loaded pack, in the shapes of the built-in catalogue (``writing_rules._rules_data``).

    Rule ids are namespaced: ``<pack>/<rule>``, or a Vale name (``Style.Rule``) as
    it is. Positions in ``signal_index`` are positions in ``signal_tables`` of the
    same language, as in the built-in index.
    """

    id: str
    version: str
    title: Mapping[str, str]
    languages: tuple[str, ...]
    vale_style: str | None
    source: str  # the reference the pack was loaded from (folder path or entry-point name)
    digest: str
    compiler_version: int
    rules: Mapping[str, Rule]  # like RULES
    signal_tables: Mapping[str, tuple[SignalPattern, ...]]  # like SIGNAL_TABLES
    length_signals: Mapping[str, tuple[LengthSignal, ...]]  # like LENGTH_SIGNALS
    signal_index: Mapping[str, SignalIndex]  # like SIGNAL_INDEX (each language expanded on first read)
    signal_fixes: Mapping[tuple[str, str], tuple[tuple[str, str], ...]]  # like SIGNAL_FIXES
    rule_excluded_contexts: Mapping[str, tuple[str, ...]]  # like RULE_EXCLUDED_CONTEXTS
    signal_messages: Mapping[tuple[str, str], str]  # a signal's one-line message; %s stands for the hit
    fold_map: Mapping[int, str]  # like FOLD_MAP, for this pack's index
    fold_unsafe: str  # characters of FOLD_UNSAFE's class ("" for none)
    # CRC-32 and size of the module's data, which records its sections' CRC-32: a module edited
    # by hand keeps the sources' digest, not this.
    module_checksum: str = ""

    @property
    def identity(self) -> str:
        """What tells this build of the pack from another: the sources' digest and the module's
        checksum (the key of cached results, catalogues and the packs a ``--jobs`` worker loads)."""
        return f"{self.digest}:{self.module_checksum}"


# The generated module's names a catalogue carries, merged where packs add to them.
CATALOG_FIELDS = (
    "LANGUAGES",
    "MAX_TEXT_UNITS",
    "RULES",
    "RULE_IDS",
    "PROFILES",
    "PROFILE_IDS",
    "SIGNAL_TABLES",
    "LENGTH_SIGNALS",
    "SIGNAL_INDEX",
    "FOLD_MAP",
    "FOLD_UNSAFE",
    "SIGNAL_FIXES",
    "RULE_EXCLUDED_CONTEXTS",
    "PROMPT_FRAGMENTS",
)


class Catalog:
    """Rule data: the built-in catalogue plus zero or more packs (``writing_rules.packs.catalog_for``).

    The attributes are the generated module's (``RULES``, ``RULE_IDS``, ``PROFILES``,
    ``PROFILE_IDS``, ``SIGNAL_TABLES``, ``SIGNAL_INDEX``, ``LENGTH_SIGNALS``,
    ``SIGNAL_FIXES``, ``RULE_EXCLUDED_CONTEXTS``, ``FOLD_MAP``, ``FOLD_UNSAFE``,
    ``LANGUAGES``, ``PROMPT_FRAGMENTS``, ``MAX_TEXT_UNITS``), with the packs' rules
    after the built-in ones; ``SIGNAL_MESSAGES`` holds the signals' own one-line
    messages (``%s`` stands for the hit; none of the built-in signals has one);
    ``packs`` the packs in the order given; ``digest`` changes whenever the
    built-in data or a pack does (a cache key). Compared by identity: catalogues
    are memoised. Read-only.
    """

    LANGUAGES: tuple[str, ...]
    MAX_TEXT_UNITS: int
    RULES: Mapping[str, Rule]
    RULE_IDS: tuple[str, ...]
    PROFILES: Mapping[str, Profile]
    PROFILE_IDS: tuple[str, ...]
    SIGNAL_TABLES: Mapping[str, tuple[SignalPattern, ...]]
    LENGTH_SIGNALS: Mapping[str, tuple[LengthSignal, ...]]
    SIGNAL_INDEX: Mapping[str, SignalIndex]
    FOLD_MAP: Mapping[int, str]
    FOLD_UNSAFE: Pattern[str] | None
    SIGNAL_FIXES: Mapping[tuple[str, str], tuple[tuple[str, str], ...]]
    RULE_EXCLUDED_CONTEXTS: Mapping[str, tuple[str, ...]]
    PROMPT_FRAGMENTS: Mapping[str, Mapping[str, str]]
    SIGNAL_MESSAGES: Mapping[tuple[str, str], str]
    packs: tuple[Pack, ...]
    digest: str

    def __init__(
        self, packs: tuple[Pack, ...], digest: str, signal_messages: Mapping[tuple[str, str], str], **fields: Any
    ) -> None:
        missing = set(CATALOG_FIELDS) - set(fields)
        if missing or set(fields) - set(CATALOG_FIELDS):
            raise TypeError(f"a Catalog needs exactly the fields {CATALOG_FIELDS}")
        set_ = object.__setattr__
        for name, value in fields.items():
            set_(self, name, value)
        set_(self, "SIGNAL_MESSAGES", signal_messages)
        set_(self, "packs", packs)
        set_(self, "digest", digest)
        set_(self, "_kept", {})

    def kept(self, key: Hashable, build: Callable[[], _T]) -> _T:
        """``build()``, computed once per catalogue and ``key`` (what the scan derives from the
        tables: kept with the catalogue, so it goes when the catalogue does)."""
        kept: dict[Hashable, Any] = self._kept  # type: ignore[attr-defined]
        if key not in kept:
            kept.setdefault(key, build())
        return kept[key]  # type: ignore[no-any-return]

    def message(self, rule_id: str, signal_id: str, match: str, language: str = "en") -> str:
        """The one-line message of a hit: its signal's message with ``%s`` standing for the
        hit's text, or else its rule's summary in ``language`` (a pack's rule without that
        language: in its first)."""
        own = self.SIGNAL_MESSAGES.get((rule_id, signal_id))
        if own is not None:
            return own.replace("%s", match)
        texts = self.RULES[rule_id].texts
        text = texts.get(language) or next(iter(texts.values()))
        return text.summary

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Catalog is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a Catalog is read-only")

    def __repr__(self) -> str:
        packs = ", ".join(pack.id for pack in self.packs) or "none"
        return f"<Catalog: {len(self.RULES)} rules, packs: {packs}, digest {self.digest[:12]}>"


_FIELDS = frozenset(CATALOG_FIELDS)
_MODULE = "writing_rules._rules_data"


class _BuiltinCatalog(Catalog):
    """The built-in catalogue: reads the generated module on every access, as the tools always did
    (so a test that replaces one of its tables sees the scan use it)."""

    def __init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "packs", ())
        set_(self, "SIGNAL_MESSAGES", MappingProxyType({}))
        set_(self, "_kept", {})

    def __getattr__(self, name: str) -> Any:  # (only for names the instance does not hold)
        if name in _FIELDS:
            module = sys.modules.get(_MODULE)  # read directly: the lazy proxy would cost a second call
            return getattr(rule_data if module is None else module, name)
        if name == "digest":
            return rule_data.SOURCE_DIGEST
        raise AttributeError(name)


_BUILTIN = _BuiltinCatalog()


def builtin_catalog() -> Catalog:
    """The built-in catalogue alone (its tables are read from the generated module when used)."""
    return _BUILTIN


def rule_source(catalog: Catalog | None) -> Catalog:
    """The catalogue to read rule data from: ``catalog``, or for None the built-in one."""
    return builtin_catalog() if catalog is None else catalog
