"""Reading and checking one configuration file: ``.writing-rules.toml`` or a ``pyproject.toml``'s table.

Loaded only when a configuration file is read: a scan in a project without one
(or whose ``pyproject.toml`` cannot hold the table) never builds these classes
or loads the TOML helpers.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from .._lazy_rules import rule_data as data
from .._levels import LEVELS
from .._regular_files import read_regular_file
from ._config import (
    LANGUAGES,
    MARKUPS,
    MAX_SOURCE_BYTES,
    OVERRIDE_KEYS,
    PYPROJECT,
    TOP_LEVEL_KEYS,
    ConfigError,
    FileSettings,
)
from ._directives import listed_rule_ids
from ._globs import glob_matches

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..packs import Pack
    from ._toml import KeyLines

__all__ = ["LintConfig", "read_config"]


# Named tuples, not dataclasses: a scan imports no dataclasses (with inspect, about 5 ms), and
# building each dataclass cost about 0.4 ms more.
class _Override(NamedTuple):
    paths: tuple[str, ...]
    values: Mapping[str, Any]


class LintConfig(NamedTuple):
    """One configuration file, checked. ``root`` is the folder its globs are relative to."""

    path: str | None
    root: str
    settings: FileSettings = FileSettings()
    markup_globs: tuple[tuple[str, str], ...] = ()
    include: tuple[str, ...] | None = None
    exclude: tuple[str, ...] = ()
    overrides: tuple[_Override, ...] = ()

    def relative(self, path: str) -> str:
        """``path`` relative to the config's folder, ``/``-separated (may start with ``..``)."""
        return os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")

    def selects(self, path: str) -> bool:
        """Whether ``include`` / ``exclude`` let ``path`` be scanned."""
        relative = self.relative(path)
        if self.include is not None and not any(glob_matches(glob, relative) for glob in self.include):
            return False
        return not any(glob_matches(glob, relative) for glob in self.exclude)

    def settings_for(self, path: str) -> FileSettings:
        """The settings for one file: the top level, then each matching ``[[overrides]]`` in order."""
        relative = self.relative(path)
        settings = self.settings
        markup_globs = list(self.markup_globs)
        for override in self.overrides:
            if any(glob_matches(glob, relative) for glob in override.paths):
                values = dict(override.values)
                markup = values.pop("markup", None)
                if markup is not None:
                    markup_globs.extend(markup)
                settings = settings._replace(**values)
        for glob, markup in reversed(markup_globs):
            if glob_matches(glob, relative):
                return settings._replace(markup=markup)
        return settings


def _shown(path: str) -> str:
    """``path`` as a user would type it: relative to the working folder when inside it."""
    relative = os.path.relpath(os.path.abspath(path))
    return path if relative.startswith("..") else relative


def read_config(path: str, *, required: bool) -> LintConfig | None:
    """The file at ``path`` checked; None for a ``pyproject.toml`` without the table unless ``required``."""
    shown = _shown(path)
    try:
        # A FIFO or a device in its place is refused, never read (the read could wait forever).
        raw = read_regular_file(path, MAX_SOURCE_BYTES)
        source = raw.decode("utf-8-sig")
    except OSError as error:
        if error.errno == errno.EFBIG:
            # Before parsing: TOML parsers take minutes on some shapes of a large file.
            raise ConfigError(
                shown, 1, f"larger than {MAX_SOURCE_BYTES // 2**20} MB: not a configuration file"
            ) from None
        raise ConfigError(shown, 1, f"cannot read the configuration: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(shown, 1, f"not UTF-8 text (invalid byte at offset {error.start})") from None
    from ._toml import KeyLines, TomlError, parse_toml

    try:
        document = parse_toml(source)
    except TomlError as error:
        raise ConfigError(shown, error.line, f"not valid TOML: {error} (column {error.column})") from None
    lines = KeyLines(source)
    prefix: tuple[str, ...] = ()
    if os.path.basename(path) == PYPROJECT:
        table = document.get("tool", {}).get("writing-rules") if isinstance(document.get("tool"), dict) else None
        if table is None:
            if required:
                raise ConfigError(shown, 1, "no [tool.writing-rules] table in this pyproject.toml")
            return None
        prefix = ("tool", "writing-rules")
        if not isinstance(table, dict):
            raise ConfigError(shown, lines.line(*prefix), "tool.writing-rules must be a table")
        document = table
    checker = _Checker(shown, lines, prefix)
    return checker.config(document, os.path.dirname(os.path.abspath(path)))


class _Checker:
    def __init__(self, path: str, lines: KeyLines, prefix: tuple[str, ...]) -> None:
        self.path = path
        self.lines = lines
        self.prefix = prefix
        self.pack_rule_ids: tuple[str, ...] = ()  # the rules of the packs the configuration loads

    def fail(self, where: tuple[Any, ...], message: str) -> ConfigError:
        return ConfigError(self.path, self.lines.line(*self.prefix, *where), message)

    def config(self, document: Mapping[str, Any], root: str) -> LintConfig:
        self.unknown_keys(document, TOP_LEVEL_KEYS, ())
        # First: the packs' rule ids are valid in rules, disable and every override.
        if "packs" in document:
            values_packs = self.packs(document, root)
            self.pack_rule_ids = tuple(rule_id for pack in values_packs for rule_id in pack.rules)
        else:
            values_packs = ()
        values, markup = self.settings(document, ())
        if values_packs:
            values["packs"] = values_packs
        include = self.globs(document, "include", ()) if "include" in document else None
        exclude = self.globs(document, "exclude", ()) if "exclude" in document else ()
        overrides = []
        raw = document.get("overrides", [])
        if not isinstance(raw, list) or not all(isinstance(entry, dict) for entry in raw):
            raise self.fail(("overrides",), "overrides must be an array of tables: [[overrides]] with paths = [...]")
        for index, entry in enumerate(raw):
            where = ("overrides", index)
            self.unknown_keys(entry, OVERRIDE_KEYS, where)
            if "paths" not in entry:
                raise self.fail(where, '[[overrides]] needs paths = ["glob", ...] naming the files it applies to')
            paths = self.globs(entry, "paths", where)
            if not paths:
                raise self.fail((*where, "paths"), "paths must name at least one glob")
            override_values, override_markup = self.settings(entry, where)
            if override_markup:
                override_values["markup"] = override_markup
            overrides.append(_Override(paths, override_values))
        return LintConfig(
            path=self.path,
            root=root,
            settings=FileSettings(**values),
            markup_globs=markup,
            include=include,
            exclude=exclude,
            overrides=tuple(overrides),
        )

    def packs(self, document: Mapping[str, Any], root: str) -> tuple[Pack, ...]:
        """The packs ``packs`` names, loaded now (once per configuration file); all or none."""
        value = document["packs"]
        if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
            example = f"[{_short(value, json.dumps)}]" if isinstance(value, str) else '["./styles/acme"]'
            raise self.fail(
                ("packs",),
                f"packs must be an array of packs: folders relative to this file or installed pack names, "
                f"e.g. packs = {example}",
            )
        if not value:
            return ()
        from ..packs import PackError
        from ._packs import load_pack_references, shown_reference

        try:
            return load_pack_references(value, root)
        except PackError as error:
            # The error names the pack as the user can type it; the line is the one that wrote it.
            written = {shown_reference(reference, root): reference for reference in value}
            line = self.lines.value_line((*self.prefix, "packs"), written.get(error.pack, error.pack))
            raise ConfigError(self.path, line, str(error)) from None

    def unknown_keys(self, table: Mapping[str, Any], allowed: Sequence[str], where: tuple[Any, ...]) -> None:
        for key in table:
            if key == "packs" and where:
                raise self.fail(
                    (*where, key),
                    "packs applies to the whole configuration, not to some files: move it to the top level "
                    "(a file's rules can still be chosen with rules and disable here)",
                )
            if key not in allowed:
                hint = _did_you_mean(key, allowed)
                place = "[[overrides]]" if where else "the configuration"
                raise self.fail(
                    (*where, key), f"unknown key {_short(key)} in {place}{hint}; valid keys: {', '.join(allowed)}"
                )

    def settings(
        self, table: Mapping[str, Any], where: tuple[Any, ...]
    ) -> tuple[dict[str, Any], tuple[tuple[str, str], ...]]:
        values: dict[str, Any] = {}
        if "language" in table:
            values["language"] = self.choice(table, "language", LANGUAGES, where)
        if "profile" in table:
            values["profile"] = self.choice(table, "profile", data.PROFILE_IDS, where)
        if "rules" in table:
            values["rules"] = self.rule_ids(table, "rules", where)
        if "disable" in table:
            values["disable"] = self.rule_ids(table, "disable", where)
        if "min-level" in table:
            values["min_level"] = self.choice(table, "min-level", LEVELS, where)
        if "accept" in table:
            values["accept"] = self.strings(table, "accept", where)
        if "front-matter-keys" in table:
            values["front_matter_keys"] = self.strings(table, "front-matter-keys", where)
        markup: tuple[tuple[str, str], ...] = ()
        if "markup" in table:
            markup = self.markup(table, where)
        return values, markup

    def choice(self, table: Mapping[str, Any], key: str, allowed: Sequence[str], where: tuple[Any, ...]) -> str:
        value = table[key]
        if not isinstance(value, str) or value not in allowed:
            shown = _short(value, json.dumps) if isinstance(value, str) else f"a {_toml_type(value)}"
            raise self.fail(
                (*where, key),
                f"{key} = {shown} is not allowed{_did_you_mean(value, allowed)}; valid choices: {', '.join(allowed)}",
            )
        return value

    def strings(self, table: Mapping[str, Any], key: str, where: tuple[Any, ...]) -> tuple[str, ...]:
        value = table[key]
        if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
            raise self.fail((*where, key), f'{key} must be an array of non-empty strings, e.g. {key} = ["..."]')
        return tuple(value)

    def globs(self, table: Mapping[str, Any], key: str, where: tuple[Any, ...]) -> tuple[str, ...]:
        value = table[key]
        if isinstance(value, str):
            raise self.fail((*where, key), f"{key} must be an array of globs: {key} = [{_short(value, json.dumps)}]")
        return self.strings(table, key, where)

    def rule_ids(self, table: Mapping[str, Any], key: str, where: tuple[Any, ...]) -> tuple[str, ...]:
        value = table[key]
        if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
            example = f"[{_short(value, json.dumps)}]" if isinstance(value, str) else '["..."]'
            raise self.fail(
                (*where, key),
                f"{key} must be an array of rule ids: {key} = {example}; valid rule ids: {', '.join(data.RULE_IDS)}",
            )
        values = tuple(value)
        for value in values:
            if value not in data.RULES and value not in self.pack_rule_ids:
                line = self.lines.value_line((*self.prefix, *where, key), value)
                known = (*data.RULE_IDS, *self.pack_rule_ids)
                hint = ""
                if "/" in value and not self.pack_rule_ids:
                    hint = " (a pack's rule: name its pack in packs = [...] at the top level first)"
                raise ConfigError(
                    self.path,
                    line,
                    f"unknown rule id {_short(value)} in {key}{_did_you_mean(value, known) or hint}; "
                    f"valid rule ids: {listed_rule_ids(known)}",
                )
        return values

    def markup(self, table: Mapping[str, Any], where: tuple[Any, ...]) -> tuple[tuple[str, str], ...]:
        value = table["markup"]
        if isinstance(value, str):
            return (("**", self.choice(table, "markup", MARKUPS, where)),)
        if not isinstance(value, dict):
            raise self.fail(
                (*where, "markup"),
                'markup must be a table of glob = markup, e.g. [markup] "*.txt" = "markdown"; '
                f"markups: {', '.join(MARKUPS)}",
            )
        pairs = []
        for glob, markup in value.items():
            if not isinstance(markup, str) or markup not in MARKUPS:
                raise self.fail(
                    (*where, "markup", glob),
                    f"markup for {_short(glob)} must be one of: {', '.join(MARKUPS)}",
                )
            pairs.append((glob, markup))
        return tuple(pairs)


_SHOWN = 60  # characters of a key or value echoed in a message: a 5 MB key is not printed whole


def _short(value: str, quote: Callable[[str], str] = repr) -> str:
    """``value`` quoted for a message, cut to its first characters when long."""
    if len(value) <= _SHOWN:
        return quote(value)
    return f"{quote(value[:_SHOWN])}... ({len(value):,} characters)"


def _toml_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "table"
    return type(value).__name__


def _did_you_mean(value: object, allowed: Sequence[str]) -> str:
    if not isinstance(value, str) or len(value) > _SHOWN:
        return ""
    import difflib  # only for a mistake: a valid configuration never loads it

    close = difflib.get_close_matches(value, allowed, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
