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

import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .._catalog import Pack
from .._errors import WritingRulesError
from .._index_rows import expand_words
from .._rules_runtime import LengthSignal, SignalIndex, SignalPattern, rule_table
from ._digest import MODULE_NAME, PACK_FORMAT, pack_digest, source_files

__all__ = ["ENTRY_POINT_GROUP", "Pack", "PackError", "load_pack", "load_packs"]

ENTRY_POINT_GROUP = "writing_rules.packs"
_LANGUAGES = ("en", "de")
_MAX_MODULE_BYTES = 64 * 1024 * 1024  # a 2,000-term pack is about 2 MB; refuse absurd files before parsing
_PACK_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


class PackError(WritingRulesError):
    """A pack that cannot be loaded, with a message that says what to do about it.

    ``pack`` is the reference as the configuration gave it (a folder or an entry-point name).
    """

    def __init__(self, pack: str, message: str) -> None:
        super().__init__(f"pack {pack}: {message}")
        self.pack = pack
        self.message = message


def _is_folder_reference(reference: str) -> bool:
    return "/" in reference or "\\" in reference or reference.startswith(".") or reference.endswith(MODULE_NAME)


def load_pack(reference: str | Path, *, base: Path | None = None) -> Pack:
    """The pack a configuration names: a folder (relative to ``base``) or an entry-point name.

    A reference with a path separator, or starting with ``.``, is a folder;
    any other is first tried as an entry point of ``writing_rules.packs``, then
    as a folder. Raises ``PackError``.
    """
    text = str(reference)
    if isinstance(reference, Path) or _is_folder_reference(text):
        return _load_folder(text, base)
    entry = _entry_point(text)
    if entry is not None:
        return _load_entry_point(text, entry)
    folder = (base or Path.cwd()) / text
    if folder.is_dir():
        return _load_folder(text, base)
    raise PackError(
        text,
        f"no pack folder {text!r} and no installed pack of that name (entry points of group {ENTRY_POINT_GROUP!r}); "
        "name a folder as ./path, or install the pack's distribution",
    )


def load_packs(
    references: Iterable[str | Path], *, base: Path | None = None, builtin_rule_ids: Iterable[str] | None = None
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
        path = Path(folder or ".", *parts[:-1], parts[-1] + ".py")
        if path.is_file():
            # An installed pack carries its compiled module; its sources are checked when shipped alongside.
            return _from_module(name, path, path.parent, display=name, require_sources=False)
    raise PackError(name, f"entry point names module {module!r}, which is not installed as a Python file")


def _load_folder(reference: str, base: Path | None) -> Pack:
    folder = Path(reference)
    if not folder.is_absolute() and base is not None:
        folder = base / folder
    if folder.name == MODULE_NAME:
        folder = folder.parent
    if not folder.is_dir():
        raise PackError(reference, f"no such pack folder: {folder}")
    if not (folder / "pack.yaml").is_file():
        raise PackError(reference, "the folder has no pack.yaml; it is not a pack")
    return _from_module(reference, folder / MODULE_NAME, folder, display=reference, require_sources=True)


def _build_hint(display: str) -> str:
    return f"run `writing-rules pack build {display}`"


def _from_module(reference: str, path: Path, folder: Path, *, display: str, require_sources: bool) -> Pack:
    hint = _build_hint(display)
    if not path.exists():
        raise PackError(reference, f"the pack is not built ({MODULE_NAME} is missing): {hint}")
    if not path.is_file():  # a device or a pipe in its place: never read one
        raise PackError(reference, f"{MODULE_NAME} is not a regular file: {hint}")
    try:
        with open(path, "rb") as stream:
            raw = stream.read(_MAX_MODULE_BYTES + 1)
    except OSError as exc:
        raise PackError(reference, f"{MODULE_NAME} cannot be read ({_short(exc)}): {hint}") from None
    if len(raw) > _MAX_MODULE_BYTES:
        raise PackError(reference, f"{MODULE_NAME} is larger than {_MAX_MODULE_BYTES} bytes; {hint}")
    try:
        data = _read_data(raw)
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
    has_sources = (folder / "pack.yaml").is_file()
    if require_sources or has_sources:
        try:
            current = pack_digest(folder, compiler)
            sources = source_files(folder)
        except (OSError, ValueError) as exc:
            raise PackError(reference, f"cannot read the pack's sources ({_short(exc)})") from None
        if current != recorded:
            newest = max((_mtime(folder / name) for name in sources), default=0.0)
            if newest > _mtime(path) or data.get("sources") != sources:
                raise PackError(reference, f"{MODULE_NAME} is older than the pack's sources: {hint}")
            raise PackError(
                reference,
                f"the digest in {MODULE_NAME} does not match the pack's sources (edited by hand, or sources "
                f"replaced): {hint}",
            )
    try:
        return _pack(reference, data)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise PackError(reference, f"{MODULE_NAME} is malformed ({_short(exc)}): {hint}") from None


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


_OPEN = 'PACK_DATA_JSON = r"""\n'
_CLOSE = '\n"""'


def _read_data(raw: bytes) -> Any:
    """The module's data: the JSON between ``PACK_DATA_JSON = r\"\"\"`` and the closing quotes.

    Read as text, never run, and JSON rather than a Python literal: ``json.loads``
    reads a 2,000-term pack in a fifth of the time ``ast.literal_eval`` takes.
    """
    text = raw.decode("utf-8")
    start = text.find(_OPEN)
    end = text.rfind(_CLOSE)
    if start < 0 or end < start:
        raise ValueError("no PACK_DATA_JSON")
    return json.loads(text[start + len(_OPEN) : end])


def _tuples(value: Any) -> Any:
    """JSON's lists as tuples, all the way down (the index's entries are tuples in the built-in tables)."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    if isinstance(value, dict):
        return {key: _tuples(item) for key, item in value.items()}
    return value


def _pack(reference: str, data: dict[str, Any]) -> Pack:
    pack_id = data["id"]
    if not isinstance(pack_id, str) or not _PACK_ID.match(pack_id):
        raise ValueError(f"pack id {pack_id!r} is not a slug")
    data = _tuples(data)
    languages = tuple(data["languages"])
    for language in languages:
        if language not in _LANGUAGES:
            raise PackError(reference, f"the pack names language {language!r}; writing-rules knows en and de")
    vale_style = data.get("vale_style")
    rows = tuple(data["rules"])
    for row in rows:
        rule_id, texts = row[0], row[6]
        # A Vale pack's rules are its style's, plus Vale's own vocabulary rules (Vale.Terms, Vale.Avoid).
        prefixes = (f"{vale_style}.", "Vale.") if vale_style else (pack_id + "/",)
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
    rules = rule_table(rows)
    tables: dict[str, tuple[SignalPattern, ...]] = {}
    for language in languages:
        patterns = data["patterns"].get(language, ())
        for rule_id, signal_id, _ in patterns:
            if rule_id not in rules or signal_id not in rules[rule_id].signal_levels:
                raise ValueError(f"pattern {rule_id}/{signal_id} belongs to no rule of the pack")
        tables[language] = tuple(
            SignalPattern(rule_id, signal_id, language, source) for rule_id, signal_id, source in patterns
        )
    lengths = {
        language: tuple(LengthSignal(r, s, language, w, c) for r, s, w, c in data["length_signals"].get(language, ()))
        for language in languages
    }
    index = {language: _index(data["index"][language], tables[language]) for language in languages}
    fixes = {(rule_id, signal_id): tuple((m, r) for m, r in pairs) for rule_id, signal_id, pairs in data["fixes"]}
    messages = {(rule_id, signal_id): text for rule_id, signal_id, text in data["messages"]}
    # Every keyed table names the pack's own signals only: a module edited by hand must not
    # attach fixes or excluded contexts to a built-in rule (or another pack's).
    keyed = [*fixes, *messages, *((r, s) for lengths_of in lengths.values() for r, s, *_ in lengths_of)]
    for rule_id, signal_id in keyed:
        if rule_id not in rules or signal_id not in rules[rule_id].signal_levels:
            raise ValueError(f"signal {rule_id}/{signal_id} belongs to no rule of the pack")
    for rule_id in data["excluded_contexts"]:
        if rule_id not in rules:
            raise ValueError(f"excluded contexts of {rule_id!r}, which is no rule of the pack")
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
        signal_index=MappingProxyType(index),
        signal_fixes=MappingProxyType(fixes),
        rule_excluded_contexts=MappingProxyType({k: tuple(v) for k, v in data["excluded_contexts"].items()}),
        signal_messages=MappingProxyType(messages),
        fold_map=MappingProxyType({int(code): str(new) for code, new in data["fold_map"].items()}),
        fold_unsafe=str(data["fold_unsafe"]),
    )


def _index(source: Mapping[str, Any], table: Sequence[SignalPattern]) -> SignalIndex:
    """One language's index, expanded now (a pack is loaded once, when the configuration is resolved).

    The pack names its patterns ``p<position>`` (its signal ids repeat across
    rules: every imported Vale rule's signal is ``existence``).
    """
    positions = {f"p{position}": position for position in range(len(table))}

    def each(names: Iterable[str]) -> tuple[int, ...]:
        return tuple(positions[name] for name in names)

    return SignalIndex(
        words=MappingProxyType(expand_words(source["words"], source["words_plain"], positions)),
        key_size=source["key_size"],
        key_chars=source["key_chars"],
        partial=tuple(source["partial"]),
        anchors=tuple((texts, offset, each(names)) for texts, offset, names in source["anchors"]),
        start=each(source["start"]),
        full=each(source["full"]),
        suffixes=tuple((ending, each(names)) for ending, names in source["suffixes"]),
        look_backs=tuple((positions[name], reach, endings) for name, reach, endings in source["look_backs"]),
    )
