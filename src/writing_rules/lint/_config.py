"""Team configuration: ``.writing-rules.toml`` or ``[tool.writing-rules]`` in ``pyproject.toml``.

For each scanned file the nearest configuration wins: the file's folder first,
then each parent up to a boundary, never above it. Inside a repository (a folder
holding ``.git``, ``.hg`` or ``.svn``) the boundary is its root; outside one it is
the first folder holding a project marker (``pyproject.toml``, ``setup.cfg``,
``package.json``), else the working folder when the file lies inside it, else the
file's own folder. The search never climbs above the user's home folder either:
a ``.writing-rules.toml`` someone left in ``/tmp`` or above ``$HOME`` cannot
decide what a scan of a folder below it reports. In a
folder, ``.writing-rules.toml`` comes before ``pyproject.toml``, and a
``pyproject.toml`` without a ``[tool.writing-rules]`` table does not count.
Configurations are not merged: the nearest one is the whole configuration.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any, NamedTuple

from .._errors import WritingRulesError
from .._regular_files import read_regular_file
from ..prose import MARKUPS as PROSE_MARKUPS
from ..tools import SignalPolicy

# Reading a configuration file (its checks, LintConfig, the TOML helpers and tomllib: ~4 ms of
# start-up) loads only when there is one to read.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._catalog import Catalog
    from ..packs import Pack
    from ..tools import Signal
    from ._config_file import LintConfig
    from ._tool_finder import ToolSignalFinder

__all__ = [
    "CONFIG_FILE",
    "MARKUPS",
    "ConfigError",
    "ConfigResolver",
    "FileSettings",
    "filter_signals",
    "find_config",
    "load_config",
    "repository_root",
    "search_boundary",
]

CONFIG_FILE = ".writing-rules.toml"
# A configuration file larger than this is refused before it is parsed: TOML parsers take minutes
# on some shapes of a large file.
MAX_SOURCE_BYTES = 2**20
PYPROJECT = "pyproject.toml"
MARKUPS = ("auto", *PROSE_MARKUPS)  # "auto": by the file's extension (writing_rules.prose.FILE_TYPES)
LANGUAGES = ("auto", "en", "de")
DEFAULT_FRONT_MATTER_KEYS = ("title", "description")
_SETTING_KEYS = ("language", "profile", "rules", "disable", "min-level", "markup", "accept", "front-matter-keys")
TOP_LEVEL_KEYS = (*_SETTING_KEYS, "packs", "include", "exclude", "overrides")
OVERRIDE_KEYS = ("paths", *_SETTING_KEYS)


class ConfigError(WritingRulesError):
    """A configuration file cannot be used; the message names the file, the line and what is allowed."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
        self.reason = message


class FileSettings(NamedTuple):
    """The settings in force for one file, after overrides (and the command line, when applied)."""

    language: str = "auto"
    profile: str | None = None
    rules: tuple[str, ...] | None = None
    disable: tuple[str, ...] = ()
    min_level: str | None = None
    markup: str = "auto"
    accept: tuple[str, ...] = ()
    front_matter_keys: tuple[str, ...] = DEFAULT_FRONT_MATTER_KEYS
    # The team's rule packs (``packs`` in the configuration, ``--pack``), loaded when it was resolved.
    packs: tuple[Pack, ...] = ()

    def __reduce__(self) -> Any:
        # A pack's tables cannot be pickled (and a vocabulary is megabytes): a worker gets each pack's
        # reference and digest, and loads it once (lint._packs).
        if not self.packs:
            return (FileSettings, tuple(self))
        from ._packs import pack_state

        return (_settings_with_packs, (tuple(self)[:-1], pack_state(self.packs)))

    @property
    def catalog(self) -> Catalog | None:
        """The rule data of these settings: the built-in rules and the packs' (None: the built-in ones alone)."""
        if not self.packs:
            return None
        from ..packs import catalog_for  # memoised: the same packs give the same catalogue

        return catalog_for(self.packs)

    def rule_ids(self) -> tuple[str, ...]:
        """The rules to scan with, in catalogue order: profile, then ``rules``, less ``disable``."""
        from .._catalog import rule_source

        rules = rule_source(self.catalog)
        pool: Iterable[str] = rules.RULE_IDS
        if self.profile is not None:
            pool = rules.PROFILES[self.profile].rule_ids
        chosen = set(pool)
        if self.rules is not None:
            chosen &= set(self.rules)
        chosen -= set(self.disable)
        return tuple(rule_id for rule_id in rules.RULE_IDS if rule_id in chosen and rules.RULES[rule_id].has_signals)

    def overlay(
        self,
        *,
        language: str | None = None,
        profile: str | None = None,
        rules: Iterable[str] | None = None,
        min_level: str | None = None,
        markup: str | None = None,
    ) -> FileSettings:
        """These settings with a person's choices on top: the command line's options or the editor's.

        None leaves a setting as the file has it (``language="auto"`` asks for detection). Rules
        named run whatever the file disables. Without a ``min-level`` anywhere,
        the default view applies (warnings and errors), so the command line and
        the editor agree.
        """
        from .._levels import DEFAULT_MIN_LEVEL

        changes: dict[str, Any] = {}
        if language is not None:
            changes["language"] = language
        if profile is not None:
            changes["profile"] = profile
        if rules:
            changes["rules"] = tuple(rules)
            changes["disable"] = ()
        if min_level is not None:
            changes["min_level"] = min_level
        elif self.min_level is None:
            changes["min_level"] = DEFAULT_MIN_LEVEL
        if markup is not None:
            changes["markup"] = markup
        return self._replace(**changes) if changes else self

    def signal_finder(self) -> ToolSignalFinder:
        """The lint engine for ``create_writing_tool_dispatcher(config=...)``: the tool's scans
        run ``lint_text`` with these settings (see ``lint._tool_finder``)."""
        from ._tool_finder import ToolSignalFinder

        return ToolSignalFinder(self)

    def policy(self) -> SignalPolicy:
        """What agents and the command line both apply: disabled rules, ``min-level``, ``accept``."""
        return SignalPolicy(frozenset(self.disable), self.min_level, self.accept, self.catalog)

    def key(self) -> str:
        """A canonical text of these settings (for cache keys); a pack counts by its id and identity."""
        import json  # only the cache needs it: a --no-cache scan never loads json

        values: list[Any] = [
            self.language,
            self.profile,
            self.rules,
            self.disable,
            self.min_level,
            self.markup,
            self.accept,
            self.front_matter_keys,
        ]
        if self.packs:  # a rebuilt pack is another pack
            values.append([[pack.id, pack.identity] for pack in self.packs])
        return json.dumps(values, ensure_ascii=False, separators=(",", ":"))


def _settings_with_packs(fields: tuple[Any, ...], state: tuple[tuple[str, str | None, str], ...]) -> FileSettings:
    """``FileSettings`` unpickled in a worker process, its packs loaded there once."""
    from ._packs import packs_from_state

    return FileSettings._make((*fields, packs_from_state(state)))


def filter_signals(signals: Iterable[Signal], text: str, settings: FileSettings) -> list[Signal]:
    """The signals the team wants to see: rules not disabled, at ``min-level`` or above, and not
    inside an accepted term.

    An accepted term is matched case-sensitively; a signal is dropped when its
    whole match lies inside one occurrence of the term (``Simple Queue
    Service`` keeps ``simple`` quiet there, and only there). The review-tool
    dispatcher applies the same ``SignalPolicy`` for agents.
    """
    return settings.policy().keep(signals, text)


# -- reading a file (see _config_file.py) ------------------------------------------------------------


def load_config(path: str) -> LintConfig:
    """Read one configuration file (``.writing-rules.toml``, or a ``pyproject.toml``'s table).

    Raises ``ConfigError`` for a file that cannot be read, malformed TOML, an
    unknown key, a wrong type or an unknown rule id.
    """
    from ._config_file import read_config

    found = read_config(path, required=True)
    assert found is not None
    return found


# -- finding the nearest configuration --------------------------------------------------------------


REPOSITORY_MARKERS = (".git", ".hg", ".svn")
PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", "package.json")


def repository_root(folder: str) -> str | None:
    """The nearest folder at or above ``folder`` that holds ``.git``, or None."""
    current = os.path.abspath(folder)
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _home() -> str | None:
    home = os.path.expanduser("~")
    return os.path.abspath(home) if home != "~" else None


def _holds(folder: str, names: tuple[str, ...]) -> bool:
    return any(os.path.lexists(os.path.join(folder, name)) for name in names)


def _first_up(start: str, markers: tuple[str, ...], home: str | None) -> str | None:
    """The nearest folder at or above ``start`` holding one of ``markers``; home at the highest."""
    current = start
    while True:
        if _holds(current, markers):
            return current
        parent = os.path.dirname(current)
        if current == home or parent == current:
            return None
        current = parent


def search_boundary(folder: str, cwd: str | None = None) -> str:
    """The highest folder the configuration search for files in ``folder`` may look in.

    The repository root (``.git``, ``.hg``, ``.svn``); outside a repository the first
    folder with a project marker, else the working folder when ``folder`` lies in
    it, else ``folder`` itself; never above the user's home.
    """
    start = os.path.abspath(folder)
    home = _home()
    found = _first_up(start, REPOSITORY_MARKERS, home) or _first_up(start, PROJECT_MARKERS, home)
    if found is not None:
        return found
    if home is not None and (start == home or start.startswith(home.rstrip(os.sep) + os.sep)):
        return home
    working = os.path.abspath(cwd or os.getcwd())
    if start == working or start.startswith(working.rstrip(os.sep) + os.sep):
        return working
    return start


def find_config(path: str) -> LintConfig | None:
    """The configuration nearest to ``path`` (a file or a folder), or None when there is none."""
    return ConfigResolver().config_for(path)


class ConfigResolver:
    """Finds the nearest configuration per file, reading each folder and file once.

    ``explicit`` (``--config FILE``) is used for every file; ``disabled``
    (``--no-config``) means no file is read at all.
    """

    def __init__(self, explicit: str | None = None, *, disabled: bool = False) -> None:
        self._explicit = load_config(explicit) if explicit is not None and not disabled else None
        self._disabled = disabled
        self._folders: dict[tuple[str, str], LintConfig | None] = {}
        self._boundaries: dict[str, str] = {}

    def config_for(self, path: str) -> LintConfig | None:
        """The configuration in force for ``path``; ``ConfigError`` when that file is broken."""
        if self._disabled:
            return None
        if self._explicit is not None:
            return self._explicit
        absolute = os.path.abspath(path)
        folder = absolute if os.path.isdir(absolute) else os.path.dirname(absolute)
        boundary = self._boundaries.get(folder)
        if boundary is None:
            boundary = self._boundaries[folder] = search_boundary(folder)
        return self._lookup(folder, boundary)

    def _lookup(self, start: str, boundary: str) -> LintConfig | None:
        # A loop, not recursion: a tree 1,200 folders deep must not exhaust the stack.
        visited = []
        folder = start
        found: LintConfig | None = None
        while True:
            if (folder, boundary) in self._folders:
                found = self._folders[(folder, boundary)]
                break
            visited.append(folder)
            found = self._here(folder)
            parent = os.path.dirname(folder)
            if found is not None or folder == boundary or parent == folder:
                break
            folder = parent
        for seen in visited:
            self._folders[(seen, boundary)] = found
        return found

    @staticmethod
    def _here(folder: str) -> LintConfig | None:
        candidate = os.path.join(folder, CONFIG_FILE)
        required = os.path.isfile(candidate)
        if not required:
            candidate = os.path.join(folder, PYPROJECT)
            if not os.path.isfile(candidate) or not _may_count(candidate):
                return None
        from ._config_file import read_config

        return read_config(candidate, required=required)


def _may_count(pyproject: str) -> bool:
    """Whether a pyproject.toml may hold the table: most do not, and are then neither parsed nor checked."""
    from ._pyproject import may_hold_table

    try:
        # Not a plain open: the file can have become a FIFO since the walk looked at it.
        raw = read_regular_file(pyproject, MAX_SOURCE_BYTES)
        return may_hold_table(raw.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError):
        return True  # read_config reports the problem (too large, not a file, not UTF-8), naming the file
