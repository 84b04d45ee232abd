"""Loading a compiled rule pack: a pack folder or an installed distribution's entry point.

A pack's compiled module (``_pack_data.py``, written by ``writing-rules pack
build``) holds its data as JSON in one string, ``PACK_DATA_JSON``. The loader
reads the module as text and parses that JSON: nothing in a pack folder (which
may be part of a checkout being scanned) can make the tool run code. An
installed pack is found through its entry point in the group
``writing_rules.packs``, which names the pack's module; the loader reads that
module's file the same way (installing a distribution is the user's choice, but
loading the pack still runs nothing of it).

Every check happens here, when the configuration is resolved, and each failure
is a ``PackError`` whose message says what to do: the module is missing or
older than its sources ("run `writing-rules pack build styles/acme`"), its
digest does not match, it was built by an incompatible compiler, it names a
language it has no text for, or its rule ids collide with the built-in ones or
with another pack's. Nothing is half-loaded: a pack is returned whole or not
at all.
"""

from __future__ import annotations

import errno
import itertools
import json
import os
import re
import sys
import zlib
from collections.abc import Iterable, Iterator, Mapping
from operator import itemgetter
from types import MappingProxyType
from typing import Any

from .._catalog import Pack
from .._errors import PackError
from .._index_rows import Entries, expand_words
from .._regular_files import NOT_REGULAR, read_regular_file
from .._rules_runtime import LazySignalIndexes, LengthSignal, Rule, SignalIndex, SignalPattern, rule_table
from ._digest import MODULE_NAME, PACK_FORMAT, pack_digest, source_files
from ._redos import static_problems

TYPE_CHECKING = False
if TYPE_CHECKING:
    from importlib import metadata

__all__ = ["ENTRY_POINT_GROUP", "Pack", "PackError", "load_pack", "load_packs"]

ENTRY_POINT_GROUP = "writing_rules.packs"
_LANGUAGES = ("en", "de")
_MAX_MODULE_BYTES = 64 * 1024 * 1024  # a 2,000-term pack is about 2 MB; refuse absurd files before parsing
_PACK_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def _is_folder_reference(reference: str) -> bool:
    return "/" in reference or "\\" in reference or reference.startswith(".") or reference.endswith(MODULE_NAME)


def load_pack(reference: str | os.PathLike[str], *, base: str | os.PathLike[str] | None = None) -> Pack:
    """The pack a configuration names: a folder (relative to ``base``) or an entry-point name.

    A reference with a path separator, or starting with ``.``, is a folder;
    any other is first tried as an entry point of ``writing_rules.packs``, then
    as a folder. Raises ``PackError``.
    """
    text = os.fspath(reference)
    if not isinstance(reference, str) or _is_folder_reference(text):
        return _load_folder(text, base)
    entry = _entry_point(text)
    if entry is not None:
        return _load_entry_point(text, entry)
    if os.path.isdir(os.path.join(os.getcwd() if base is None else base, text)):
        return _load_folder(text, base)
    raise PackError(
        text,
        f"no pack folder {text!r} and no installed pack of that name (entry points of group {ENTRY_POINT_GROUP!r}); "
        "name a folder as ./path, or install the pack's distribution",
    )


def load_packs(
    references: Iterable[str | os.PathLike[str]],
    *,
    base: str | os.PathLike[str] | None = None,
    builtin_rule_ids: Iterable[str] | None = None,
) -> tuple[Pack, ...]:
    """Every pack named, checked against the built-in rule ids and each other; all or none.

    ``builtin_rule_ids`` defaults to the built-in catalogue's.
    """
    if builtin_rule_ids is None:
        from .._rules_data import RULE_IDS

        builtin_rule_ids = RULE_IDS
    builtin = set(builtin_rule_ids)
    packs: list[Pack] = []
    owners: dict[str, str] = {}
    pack_ids: dict[str, str] = {}
    for reference in references:
        pack = load_pack(reference, base=base)
        if pack.id in pack_ids:
            raise PackError(pack.source, f"pack id {pack.id!r} is loaded twice (also from {pack_ids[pack.id]})")
        pack_ids[pack.id] = pack.source
        for rule_id in pack.rules:
            if rule_id in builtin:
                raise PackError(pack.source, f"rule id {rule_id!r} is a built-in rule's; rename the rule in the pack")
            if rule_id in owners:
                raise PackError(
                    pack.source, f"rule id {rule_id!r} is also a rule of pack {owners[rule_id]}; rename one of them"
                )
            owners[rule_id] = pack.source
        packs.append(pack)
    return tuple(packs)


def _entry_point(name: str) -> metadata.EntryPoint | None:
    from importlib import metadata  # here: importing it costs more than loading a pack

    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name == name:
            return entry
    return None


def _load_entry_point(name: str, entry: metadata.EntryPoint) -> Pack:
    """An installed pack: the entry point names its module (``acme_writing_rules._pack_data``).

    The module's file is looked up on ``sys.path`` by name, not imported, so not even
    the pack package's ``__init__`` runs.
    """
    module = entry.value.split(":", 1)[0].strip()
    parts = module.split(".")
    if not module or not all(part.isidentifier() for part in parts):
        raise PackError(name, f"entry point names {entry.value!r}, which is not a module name")
    for folder in sys.path:
        path = os.path.join(folder or ".", *parts[:-1], parts[-1] + ".py")
        if os.path.isfile(path):
            # An installed pack carries its compiled module; its sources are checked when shipped alongside.
            return _from_module(name, path, os.path.dirname(path), display=name, require_sources=False)
    raise PackError(name, f"entry point names module {module!r}, which is not installed as a Python file")


def _load_folder(reference: str, base: str | os.PathLike[str] | None) -> Pack:
    folder = reference
    if not os.path.isabs(folder) and base is not None:
        folder = os.path.join(base, folder)
    if os.path.basename(os.path.normpath(folder)) == MODULE_NAME:
        folder = os.path.dirname(os.path.normpath(folder))
    if not os.path.isdir(folder):
        raise PackError(reference, f"no such pack folder: {os.path.normpath(folder)}")
    if not os.path.isfile(os.path.join(folder, "pack.yaml")):
        raise PackError(reference, "the folder has no pack.yaml; it is not a pack")
    return _from_module(reference, os.path.join(folder, MODULE_NAME), folder, display=reference, require_sources=True)


def _build_hint(display: str) -> str:
    return f"run `writing-rules pack build {display}`"


def _from_module(reference: str, path: str, folder: str, *, display: str, require_sources: bool) -> Pack:
    hint = _build_hint(display)
    if not os.path.exists(path):
        raise PackError(reference, f"the pack is not built ({MODULE_NAME} is missing): {hint}")
    if not os.path.isfile(path):  # a device or a pipe in its place: never read one
        raise PackError(reference, f"{MODULE_NAME} is not a regular file: {hint}")
    try:
        # Opened without blocking and checked on the open descriptor: the module can have
        # become a FIFO or a device since the check above.
        raw = read_regular_file(path, _MAX_MODULE_BYTES)
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raise PackError(reference, f"{MODULE_NAME} is larger than {_MAX_MODULE_BYTES} bytes; {hint}") from None
        if exc.errno == errno.EINVAL and exc.strerror == NOT_REGULAR:
            raise PackError(reference, f"{MODULE_NAME} is not a regular file: {hint}") from None
        raise PackError(reference, f"{MODULE_NAME} cannot be read ({_short(exc)}): {hint}") from None
    try:
        data, sections, checksum = _read_data(raw)
    except (OSError, UnicodeDecodeError, ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        raise PackError(reference, f"{MODULE_NAME} cannot be read ({_short(exc)}): {hint}") from None
    if not isinstance(data, dict):
        raise PackError(reference, f"{MODULE_NAME} holds no pack data: {hint}")
    pack_format = data.get("format")
    if pack_format != PACK_FORMAT:
        raise PackError(
            reference,
            f"built by an incompatible compiler (pack format {pack_format!r}; this writing-rules reads format "
            f"{PACK_FORMAT}): {hint} with this version",
        )
    compiler = data.get("compiler")
    recorded = data.get("digest")
    if not isinstance(compiler, int) or not isinstance(recorded, str):
        raise PackError(reference, f"{MODULE_NAME} records no digest or compiler version: {hint}")
    has_sources = os.path.isfile(os.path.join(folder, "pack.yaml"))
    if require_sources or has_sources:
        try:
            current = pack_digest(folder, compiler)
            sources = source_files(folder)
        except (OSError, ValueError) as exc:
            raise PackError(reference, f"cannot read the pack's sources ({_short(exc)})") from None
        if current != recorded:
            newest = max((_mtime(os.path.join(folder, name)) for name in sources), default=0.0)
            if newest > _mtime(path) or data.get("sources") != sources:
                raise PackError(reference, f"{MODULE_NAME} is older than the pack's sources: {hint}")
            raise PackError(
                reference,
                f"the digest in {MODULE_NAME} does not match the pack's sources (edited by hand, or sources "
                f"replaced): {hint}",
            )
    try:
        pack = _pack(reference, data, sections)
    except PackError:
        raise  # already says what is wrong and what to do
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise PackError(reference, f"{MODULE_NAME} is malformed ({_short(exc)}): {hint}") from None
    # The module's own bytes, in the pack's identity: the digest covers the sources only.
    return pack._replace(module_checksum=checksum)


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


_NAMES = (b"PACK_DATA_JSON", b"PACK_PATTERNS", b"PACK_FIXES", b"PACK_MESSAGES")
_ROW_NAMES = re.compile(r":([^;&\n]*)")
_QUOTES = b'"""'


class _Lines:
    """A section of the module: its lines are ``lines[first:first + size]`` of the whole module's.

    ``crc32`` is the checksum of the section's text (the bytes between its quotes).
    """

    __slots__ = ("crc32", "first", "lines", "size")

    def __init__(self, lines: list[bytes], first: int, size: int, crc32: str) -> None:
        self.lines = lines
        self.first = first
        self.size = size
        self.crc32 = crc32


def _read_data(raw: bytes) -> tuple[Any, dict[str, _Lines], str]:
    """The module's data, its sections (the texts between ``NAME = r\"\"\"`` and the closing
    quotes) and its checksum.

    Read as bytes, never run. The data is JSON (``json.loads`` reads a 2,000-term pack
    in a fifth of the time ``ast.literal_eval`` takes); the sections (``PACK_PATTERNS``,
    ``PACK_FIXES``, ``PACK_MESSAGES``) are lines read by ``_section`` (a module of an
    older format has none, and is refused by its format). The checksum is the data's
    CRC-32 and size: the data records each section's CRC-32 (checked when the pack loads),
    so it covers everything the loader reads, at a tenth of the cost of the whole module's.

    The module is split into lines once, and a section is a range of them: searching for
    each section's end, copying each section and splitting it again when a scan first
    reads it cost a one-page scan with a 2,000-term pack some 2 ms more. A section ends at
    the first line that starts with the closing quotes, as a search for them would find.
    """
    if b"\r" in raw:  # a checkout with Windows line endings
        raw = raw.replace(b"\r\n", b"\n")
    opening = _NAMES[0] + b' = r"""\n'
    found = raw.find(opening)  # (anywhere: the first section's opening need not start a line)
    if found < 0:
        raise ValueError("no PACK_DATA_JSON")
    start = found + len(opening)
    lines = raw.split(b"\n")
    first = raw.count(b"\n", 0, start)  # the line that starts at ``start``
    offset = start  # of line ``first``
    view = memoryview(raw)
    sections: dict[str, _Lines] = {}
    text = b""
    for name in _NAMES:
        if name != _NAMES[0]:
            try:
                opened = lines.index(name + b' = r"""', first)
            except ValueError:
                continue
            if opened == len(lines) - 1:  # the file's last line, with no line break after it
                continue
            offset += sum(map(len, lines[first:opened])) + opened - first
            first = opened + 1
            offset += len(lines[opened]) + 1
        try:
            end = lines.index(_QUOTES, first)
        except ValueError:
            end = len(lines)
        # (A line with more after the quotes closes the section too.)
        if any(map(bytes.startswith, lines[first:end], itertools.repeat(_QUOTES))):
            end = next(number for number in range(first, end) if lines[number].startswith(_QUOTES))
        if end == len(lines):
            raise ValueError(f"{name.decode()} is not closed")
        size = sum(map(len, lines[first:end])) + end - first - 1 if end > first else 0  # bytes of its text
        if name == _NAMES[0]:
            text = raw[offset : offset + size]
        else:
            sections[name.decode()] = _Lines(
                lines, first, end - first if size else 0, f"{zlib.crc32(view[offset : offset + size]):08x}"
            )
        offset += size + 1 if end > first else 0
        first = end
    data = json.loads(text.decode("utf-8"))
    return data, sections, f"{zlib.crc32(text):08x}-{len(text)}"


class _Section(Mapping[tuple[str, str], Any]):
    """One section of a pack module: per (rule id, signal id), its JSON value, parsed on first read.

    The keys (the data lists them) are checked when the pack loads; a value is parsed
    when a scan first needs it (a pattern to compile, a fix at a hit, a message for a
    hit) and then kept. ``convert`` turns the parsed JSON into the catalogue's shape.
    A line that cannot be read (only a module edited by hand, its checksum made to
    match, has one) is a ``PackError`` naming the pack and saying to rebuild it: the
    scan that meets it stops with that message, as the load would have.
    """

    __slots__ = ("_convert", "_first", "_keys", "_lines", "_name", "_values", "reference")

    def __init__(self, reference: str, name: str, text: _Lines, keys: dict[tuple[str, str], int], convert: Any) -> None:
        self.reference = reference
        self._name = name
        self._lines = text.lines  # the whole module's: line ``number`` is ``_lines[_first + number]``
        self._first = text.first
        self._keys = keys  # -> line number
        self._convert = convert
        self._values: dict[tuple[str, str], Any] = {}

    def __getitem__(self, key: tuple[str, str]) -> Any:
        value = self._values.get(key)
        if value is None:
            number = self._keys[key]
            line = self._lines[self._first + number]
            ids = f"{key[0]}\t{key[1]}\t".encode()
            if not line.startswith(ids):  # (only a module edited with its checksum)
                raise self.error(key, f"line {number + 1} of section {self._name} is not {key[1]}'s")
            try:
                value = self._convert(json.loads(line[len(ids) :].decode("utf-8")))
            except (ValueError, TypeError, KeyError, IndexError, re.error, RecursionError, MemoryError) as exc:
                problem = f"line {number + 1} of section {self._name} cannot be read ({_short(exc)})"
                raise self.error(key, problem) from None
            value = self._values.setdefault(key, value)
        return value

    def error(self, key: tuple[str, str], problem: str) -> PackError:
        """The ``PackError`` for a problem with signal ``key``'s value (``problem`` says what and where)."""
        return PackError(
            self.reference,
            f"{MODULE_NAME} was changed after it was built: {problem}, for {key[0]}/{key[1]}; "
            f"{_build_hint(self.reference)}",
        )

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def _section(
    reference: str,
    name: str,
    text: _Lines,
    recorded: Any,
    keys: list[tuple[str, str]],
    rules: Mapping[str, Rule],
    convert: Any,
    checked: dict[tuple[str, str], int] | None = None,
) -> _Section:
    """A section whose lines hold ``keys`` in order, each a signal of the pack; its checksum checked.

    ``checked``: the line numbers of ``keys`` when another section's check made them already.
    """
    # CRC-32: the section is the one written with this data (a change by hand, or a cut file, shows).
    if not isinstance(recorded, str) or text.crc32 != recorded:
        raise ValueError(f"section {name} does not match its checksum")
    if len(keys) != text.size:
        raise ValueError(f"section {name} does not have a line for each of its signals")
    if checked is not None:
        return _Section(reference, name, text, checked, convert)
    unknown = _unknown_signal(keys, rules)
    if unknown is not None:
        raise ValueError(f"signal {unknown[0]}/{unknown[1]} belongs to no rule of the pack")
    numbers = dict(zip(keys, range(len(keys)), strict=True))
    if len(numbers) != len(keys):
        raise ValueError(f"section {name} names a signal twice")
    return _Section(reference, name, text, numbers, convert)


def _unknown_signal(keys: list[tuple[str, str]], rules: Mapping[str, Rule]) -> tuple[str, str] | None:
    """The first of ``keys`` that is no signal of ``rules``, or None.

    Each rule's run of keys is looked up in its ``signal_levels`` at once: a set of the
    pack's (rule id, signal id) pairs cost a 2,000-term pack's load 0.4 ms.
    """
    for rule_id, run in itertools.groupby(keys, _RULE_ID):
        rule = rules.get(rule_id)
        levels = {} if rule is None else rule.signal_levels
        run_keys = list(run)
        if not all(map(levels.__contains__, map(_SIGNAL_ID, run_keys))):
            return next(key for key in run_keys if key[1] not in levels)
    return None


_RULE_ID, _SIGNAL_ID = itemgetter(0), itemgetter(1)


def _listed(recorded: Any, every: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A section's signals in line order: those the data lists, or the patterns section's but
    those it lists as ``except`` (a vocabulary's fixes and messages)."""
    if "except" in recorded:
        left_out = set(_signals(recorded["except"]))
        return [key for key in every if key not in left_out] if left_out else every
    return _signals(recorded["signals"])


def _signals(groups: Any) -> list[tuple[str, str]]:
    """``[[rule id, [signal id, ...]], ...]`` as (rule id, signal id) pairs."""
    return [(rule_id, signal_id) for rule_id, signal_ids in groups for signal_id in signal_ids]


class _PackPattern(SignalPattern):
    """A pack's pattern, whose text is read from the pack's patterns section when it is first compiled."""

    __slots__ = ("_sources",)
    _sources: _Section

    def __init__(self, rule_id: str, signal_id: str, language: str, sources: _Section) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "rule_id", rule_id)
        setattr_(self, "signal_id", signal_id)
        setattr_(self, "language", language)
        setattr_(self, "_regex", None)
        setattr_(self, "_sources", sources)

    @classmethod
    def table(
        cls, keys: Iterable[tuple[str, str]], language: str, sources: Mapping[tuple[str, str], str]
    ) -> tuple[SignalPattern, ...]:
        """One pattern per (rule id, signal id), as ``__init__`` makes them, in half the time: the slots
        are set through their descriptors, not ``object.__setattr__`` by name (a 2,000-term pack's
        table cost a one-page scan as a process 1.4 ms)."""
        new = object.__new__
        slots: dict[str, Any] = {**vars(SignalPattern), **vars(_PackPattern)}  # name -> member descriptor
        set_rule, set_signal, set_language = (slots[name].__set__ for name in ("rule_id", "signal_id", "language"))
        set_regex, set_sources = slots["_regex"].__set__, slots["_sources"].__set__
        table = []
        for rule_id, signal_id in keys:
            pattern = new(cls)
            set_rule(pattern, rule_id)
            set_signal(pattern, signal_id)
            set_language(pattern, language)
            set_regex(pattern, None)
            set_sources(pattern, sources)
            table.append(pattern)
        return tuple(table)

    @property
    def source(self) -> str:  # type: ignore[override]
        text: str = self._sources[self.rule_id, self.signal_id]
        return text

    @property
    def regex(self) -> re.Pattern[str]:
        regex = self._regex
        if regex is None:  # compiled when a scan first meets its trigger, as a built-in pattern is
            source = self.source
            key = (self.rule_id, self.signal_id)
            try:
                regex = re.compile(source)
                problems = static_problems(source)
            except (re.error, ValueError, TypeError, OverflowError, RecursionError, MemoryError) as exc:
                raise self._sources.error(key, f"its pattern is no regular expression ({_short(exc)})") from None
            if problems:  # the build refuses it: only a module written by hand has one (the static
                # check; a slower-than-linear pattern it lets through only the build's timed run refuses)
                raise self._sources.error(key, f"its pattern is one the build refuses ({problems[0]})")
            object.__setattr__(self, "_regex", regex)
        return regex

    def __eq__(self, other: object) -> bool:  # equal to the SignalPattern of the same fields
        if not isinstance(other, SignalPattern):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


def _source(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("a pattern is not a string")
    return value


def _fixes(value: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list):
        raise ValueError("the fixes are not a list")
    pairs = tuple((match, template) for match, template in value)
    if not pairs or not all(isinstance(item, str) for pair in pairs for item in pair):
        raise ValueError("a fix is not a (match, replacement) pair of strings")
    for match, template in pairs:
        # Checked when first read (a hit needs the signal's fixes), not when a fix applies: the
        # expression and the template's group references (``sub`` parses a template before it
        # looks for a match). The fixer compiles the same text again, from ``re``'s cache.
        re.compile(match).sub(template, "")
        problems = static_problems(match)
        if problems:  # the build refuses it: only a module written by hand has one
            raise ValueError(f"a fix is one the build refuses ({problems[0]})")
    return pairs


def _message(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("a message is not a string")
    return value


def _pack(reference: str, data: dict[str, Any], sections: dict[str, _Lines]) -> Pack:
    pack_id = data["id"]
    if not isinstance(pack_id, str) or not _PACK_ID.match(pack_id):
        raise ValueError(f"pack id {pack_id!r} is not a slug")
    languages = tuple(data["languages"])
    for language in languages:
        if language not in _LANGUAGES:
            raise PackError(reference, f"the pack names language {language!r}; writing-rules knows en and de")
    vale_style = data.get("vale_style")
    rows = []
    for row in data["rules"]:
        rule_id, level, signal_ids, levels, profiles, tags, texts = row
        # A Vale pack's rules are its style's (``Style.Rule``), plus Vale's own vocabulary rules in
        # the pack's namespace (``<pack>/Vale.Terms``, ``<pack>/Vale.Avoid``).
        prefixes = (f"{vale_style}.", pack_id + "/") if vale_style else (pack_id + "/",)
        if vale_style and isinstance(rule_id, str) and rule_id.startswith("Vale."):
            # Built before those ids were namespaced: two imported styles with vocabularies collided.
            raise PackError(
                reference,
                f"rule id {rule_id!r} is the shared name an older writing-rules gave an imported Vale "
                f"vocabulary rule; it is now {pack_id + '/' + rule_id!r}, so two imported styles load "
                f"side by side: {_build_hint(reference)} (and rename {rule_id!r} so in the configuration)",
            )
        if not isinstance(rule_id, str) or not rule_id.startswith(prefixes):
            raise ValueError(f"rule id {rule_id!r} is not in the pack's namespace {pack_id + '/'!r}")
        missing = [language for language in languages if language not in texts]
        if missing:
            raise PackError(
                reference,
                f"the pack names language {missing[0]!r}, but rule {rule_id!r} has no text for it; "
                f"add its '## {missing[0]}' section, or remove {missing[0]!r} from pack.yaml, and "
                f"{_build_hint(reference)}",
            )
        extra = [language for language in texts if language not in languages]
        if extra:
            raise ValueError(f"rule {rule_id!r} has text for {extra[0]!r}, which the pack does not name")
        texts = {language: (*text[:4], *(tuple(example) for example in text[4:])) for language, text in texts.items()}
        rows.append((rule_id, level, tuple(signal_ids), dict(levels), tuple(profiles), tuple(tags), texts))
    rules = rule_table(tuple(rows))
    recorded = data["sections"]
    named = {language: _signals(data["patterns"].get(language, ())) for language in languages}
    every = [key for language in languages for key in named[language]]
    sources = _section(
        reference, "patterns", sections["PACK_PATTERNS"], recorded["patterns"]["crc32"], every, rules, _source
    )
    tables = {language: _PackPattern.table(named[language], language, sources) for language in languages}
    lengths = {
        language: tuple(LengthSignal(r, s, language, w, c) for r, s, w, c in data["length_signals"].get(language, ()))
        for language in languages
    }
    # Every keyed table names the pack's own signals only: a module edited by hand must not
    # attach fixes or excluded contexts to a built-in rule (or another pack's).
    for rule_id, signal_id, _, *limits in (signal for lengths_of in lengths.values() for signal in lengths_of):
        if _unknown_signal([(rule_id, signal_id)], rules):
            raise ValueError(f"signal {rule_id}/{signal_id} belongs to no rule of the pack")
        if not all(limit is None or (_is_int(limit) and limit > 0) for limit in limits):
            raise ValueError(f"signal {rule_id}/{signal_id} has a length limit that is not a number")
    # A vocabulary's fixes are often listed as the patterns' signals, all of them: checked once.
    fixes, messages = (
        _section(
            reference,
            name,
            sections[f"PACK_{name.upper()}"],
            recorded[name]["crc32"],
            keys,
            rules,
            convert,
            sources._keys if keys is every else None,
        )
        for name, convert in (("fixes", _fixes), ("messages", _message))
        for keys in (_listed(recorded[name], every),)
    )
    for rule_id in data["excluded_contexts"]:
        if rule_id not in rules:
            raise ValueError(f"excluded contexts of {rule_id!r}, which is no rule of the pack")
    index = PackIndexes({language: data["index"][language] for language in languages}, tables)
    return Pack(
        id=pack_id,
        version=str(data["version"]),
        title=MappingProxyType(dict(data["title"])),
        languages=languages,
        vale_style=vale_style,
        source=reference,
        digest=data["digest"],
        compiler_version=data["compiler"],
        rules=rules,
        signal_tables=MappingProxyType(tables),
        length_signals=MappingProxyType(lengths),
        signal_index=index,
        signal_fixes=fixes,
        rule_excluded_contexts=MappingProxyType({k: tuple(v) for k, v in data["excluded_contexts"].items()}),
        signal_messages=messages,
        fold_map=MappingProxyType(_fold_map(data["fold_map"])),
        fold_unsafe=str(data["fold_unsafe"]),
    )


def _fold_map(recorded: Any) -> dict[int, str]:
    """The pack's ``fold_map``: characters replaced one for one before a text is lowercased.

    A replacement must keep the text's length (the scanner maps positions back one to one);
    ``catalog_for`` checks that it leaves the built-in rules' keys alone.
    """
    folds = {int(code): new for code, new in recorded.items()}
    for code, new in folds.items():
        if not 0 <= code < 0x110000 or not isinstance(new, str) or len(new) != 1 or len(new.lower()) != 1:
            raise ValueError(f"fold_map replaces {code} with {new!r}, not one character with one")
    return folds


class PackIndexes(LazySignalIndexes):
    """A pack's index per language, expanded the first time it is read.

    The pack names its patterns ``p<position>`` (its signal ids repeat across
    rules: every imported Vale rule's signal is ``existence``). ``catalog_for``
    reads the rows themselves (``rows``), with the positions its merged table
    gives them, and expands only the keys a scan meets.
    """

    __slots__ = ()

    def __init__(self, sources: dict[str, Any], tables: Mapping[str, tuple[SignalPattern, ...]]) -> None:
        for language, source in sources.items():
            _check_index(source, len(tables[language]))
        super().__init__(sources, tables)

    def rows(
        self, language: str, offset: int
    ) -> tuple[SignalIndex, dict[str, str], dict[str, Entries], dict[str, int]]:
        """For a table that starts at ``offset``: the index of ``language`` without ``words``, its rows
        by key, its plain keys' entries, and the positions of its pattern names."""
        source = self._sources[language]
        names = dict(zip(_pattern_names(len(self._tables[language])), itertools.count(offset)))
        rows = dict(line.split("=", 1) for line in source["words"].splitlines())
        return self._fields(language, {}, names), rows, _plain(source["words_plain"], names), names

    def _fields(self, language: str, words: Mapping[str, Entries], names: Mapping[str, int]) -> SignalIndex:
        source = self._sources[language]

        def each(found: Iterable[str]) -> tuple[int, ...]:
            return tuple(names[name] for name in found)

        return SignalIndex(
            words=MappingProxyType(dict(words)),
            key_size=source["key_size"],
            key_chars=source["key_chars"],
            partial=tuple((length, firsts) for length, firsts in source["partial"]),
            anchors=tuple((tuple(texts), at, each(found)) for texts, at, found in source["anchors"]),
            start=each(source["start"]),
            full=each(source["full"]),
            suffixes=tuple((ending, each(found)) for ending, found in source["suffixes"]),
            look_backs=tuple((names[name], reach, tuple(endings)) for name, reach, endings in source["look_backs"]),
        )

    def _expand(self, language: str) -> SignalIndex:
        source = self._sources[language]
        names = dict(zip(_pattern_names(len(self._tables[language])), itertools.count()))
        words = expand_words(source["words"], source["words_plain"], names)
        if words:
            words = {key: _tuples(entries) for key, entries in words.items()} if source["words_plain"] else words
        return self._fields(language, words, names)


def _plain(plain: Mapping[str, Any], names: Mapping[str, int]) -> dict[str, Entries]:
    """The plain keys' entries, their patterns at their positions, as tuples (JSON gives lists;
    the scanner needs tuples of texts)."""
    return {
        key: tuple(
            (
                tuple(tails),
                tuple(
                    (tuple(befores), tuple(offsets), tuple(names[name] for name in found))
                    for befores, offsets, found in checks
                ),
            )
            for tails, checks in entries
        )
        for key, entries in plain.items()
    }


def _tuples(entries: Any) -> Entries:
    """Entries with every list a tuple (expand_words copies the plain keys' entries as JSON gave them)."""
    return tuple(
        (tuple(tails), tuple((tuple(befores), tuple(offsets), tuple(found)) for befores, offsets, found in checks))
        for tails, checks in entries
    )


_NAMED: list[str] = []


def _pattern_names(size: int) -> list[str]:
    """``p0`` to ``p<size - 1>``: how a pack's index names the patterns of its table."""
    if len(_NAMED) < size:
        _NAMED.extend(f"p{position}" for position in range(len(_NAMED), size))
    return _NAMED[:size]


def _check_index(source: Any, size: int) -> None:
    """The index's fields have their shapes, and every pattern it names is one of the ``size`` patterns.

    The data has no checksum (only the sections do), and the scanner reads these fields
    without checking them: ``key_chars`` is spliced into its word finder, the other numbers
    and texts are offsets and literals. A value no compiler writes would crash a scan, or
    make the word finder miss the built-in rules' triggers.
    """
    if not isinstance(source["key_size"], int) or not _is_word_class(source["key_chars"]):
        raise ValueError("the index has no key size or key characters")
    if not isinstance(source["words"], str) or not isinstance(source["words_plain"], dict):
        raise ValueError("the index has no words")
    if not all("=" in line for line in source["words"].splitlines()):
        raise ValueError("a row of the index has no key")
    if not all(_is_int(short) and short > 0 and _is_text(firsts) for short, firsts in source["partial"]):
        raise ValueError("the index's short keys are malformed")
    if not all(_is_texts(texts) and texts and _is_int(at) for texts, at, _ in source["anchors"]):
        raise ValueError("the index's anchors are malformed")
    if not all(_is_text(ending) for ending, _ in source["suffixes"]):
        raise ValueError("the index's endings are malformed")
    if not all(_is_int(reach) and reach >= 0 and _is_texts(ends) for _, reach, ends in source["look_backs"]):
        raise ValueError("the index's look-backs are malformed")
    named = [*source["start"], *source["full"]]
    named += [name for _, _, found in source["anchors"] for name in found]
    named += [name for _, found in source["suffixes"] for name in found]
    named += [name for name, _, _ in source["look_backs"]]
    named += [
        name
        for entries in source["words_plain"].values()
        for _, checks in entries
        for *_, found in checks
        for name in found
    ]
    # In the rows, patterns are named after a ":" up to the check's or the entry's end (the
    # rows reserve ":", ";" and "&": no text holds one).
    lists = set(_ROW_NAMES.findall(source["words"]))  # (each once: a vocabulary's rows repeat them)
    if lists:
        named += ",".join(lists).split(",")
    unknown = set(named).difference(_pattern_names(size))
    if unknown:
        raise ValueError(f"the index names pattern {min(unknown)!r}, which the pack does not have")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and value != ""


def _is_texts(values: Any) -> bool:
    return isinstance(values, list) and all(_is_text(value) for value in values)


# A class body as the compiler writes it: word characters and ranges of them, none escaped.
_CLASS_BODY = re.compile(r"(?:\w(?:-\w)?)+")
_RANGE = re.compile(r"(\w)-(\w)")
_NOT_WORD = re.compile(r"\W")


def _is_word_class(body: Any) -> bool:
    """Whether ``body`` is the body of a regex class of word characters only (``key_chars``).

    A character outside ``\\w`` (white space, a hyphen) would join words, and a ``]``
    would end the class: either way the scanner would no longer find the built-in keys.
    """
    if not isinstance(body, str) or not _CLASS_BODY.fullmatch(body):
        return False
    spans = sorted((ord(low), ord(high)) for low, high in _RANGE.findall(body))
    end = -1
    for low, high in spans:
        if low > high:
            return False
        low = max(low, end + 1)  # each code point tested once, however the ranges overlap
        if low <= high and _NOT_WORD.search("".join(map(chr, range(low, high + 1)))):
            return False
        end = max(end, high)
    return True
