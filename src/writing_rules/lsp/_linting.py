"""Linting one open document as ``writing-rules scan`` would lint the file."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urlparse

from ..lint import CONFIG_FILE, ConfigError, ConfigResolver, FileSettings, lint_text
from ._positions import LineIndex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._catalog import Catalog
    from ..lint import LintConfig
    from ..tools import Signal

__all__ = ["CONFIG_NAMES", "PACK_NAMES", "LintedDocument", "WorkspaceConfigs", "lint_document", "one_line", "path_of"]

# Files whose change can change what a document's configuration is: the configuration files, and a
# pack's compiled module (rebuilt by `writing-rules pack build`) or its sources.
CONFIG_NAMES = (CONFIG_FILE, "pyproject.toml")
PACK_NAMES = ("_pack_data.py", "pack.yaml")
# The configuration file an error message starts with (before its line number, or ": cannot be read").
_NAMED_CONFIG = re.compile(r"(.*?(?:^|[\\/])(?:\.writing-rules\.toml|pyproject\.toml)):")


@dataclass(frozen=True)
class LintedDocument:
    """The signals of one version of a document, and the directive mistakes found in it."""

    uri: str
    version: int | None
    text: str
    index: LineIndex
    language: str
    signals: tuple[Signal, ...]
    # (1-based line, 1-based column, message) of broken directives
    problems: tuple[tuple[int, int, str], ...] = ()
    config_error: str | None = None
    catalog: Catalog | None = None  # the rules of the packs in force (None: the built-in ones)


def path_of(uri: str) -> str | None:
    """The file-system path of a ``file:`` URI, escapes decoded; None for other schemes (an unsaved
    buffer) and, except on Windows, for a file on another host."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path, errors="surrogateescape")  # as os.fsdecode gives undecodable names
    if parsed.netloc not in ("", "localhost"):
        # Another machine's file: a UNC path on Windows; elsewhere no local path (checked with the defaults).
        return f"//{unquote(parsed.netloc)}{path}" if os.name == "nt" else None
    if os.name == "nt" and path.startswith("/") and len(path) > 2 and path[2] == ":":
        path = path[1:]
    return path


def one_line(message: str, limit: int = 400) -> str:
    """A message for the editor's status area: one line, cut to ``limit`` characters."""
    flat = " ".join(message.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _nearest_config(path: str) -> str:
    """The configuration file the lookup for ``path`` most likely read (named in an error only)."""
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        for name in (CONFIG_FILE, "pyproject.toml"):
            if os.path.isfile(os.path.join(folder, name)):
                return os.path.join(folder, name)
        parent = os.path.dirname(folder)
        if parent == folder or os.path.exists(os.path.join(folder, ".git")):
            return f"the configuration for {path}"
        folder = parent


def _config(resolver: ConfigResolver, path: str) -> tuple[LintConfig | None, str | None]:
    """The configuration in force for ``path``, or the one-line reason it cannot be used."""
    try:
        return resolver.config_for(path), None
    except ConfigError as error:
        return None, one_line(str(error))
    except Exception as error:  # a file the reader chokes on (nesting, huge numbers): still one line
        return None, one_line(f"{_nearest_config(path)}: cannot be read ({type(error).__name__}: {error})")


def _signature(path: str) -> tuple[int, int] | None:
    try:
        status = os.stat(path)
    except (OSError, ValueError):  # ValueError: a NUL character (a client's URI may hold %00)
        return None
    return status.st_mtime_ns, status.st_size


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


class WorkspaceConfigs:
    """The configurations of the open documents: read once, renewed when a configuration file changes.

    One ``ConfigResolver`` per workspace folder (and one for files outside them), so a
    configuration file is read, and its packs loaded, once, not on every keystroke. ``renew``
    forgets what a changed file can affect; ``stale`` says whether a configuration file read
    so far changed on disk (checked on each save, a few ``stat`` calls). Thread-safe: documents
    are linted in a worker thread, notifications arrive on the event loop.
    """

    def __init__(self, folders: Iterable[str] = ()) -> None:
        self._lock = threading.Lock()
        self._roots: tuple[str, ...] = ()
        self._resolvers: dict[str, ConfigResolver] = {}
        # A document's folder -> its configuration, or the reason it cannot be used (errors are kept
        # too: a broken file is not read again per keystroke, but again once it changes).
        self._found: dict[str, tuple[LintConfig | None, str | None]] = {}
        self._read: dict[str, tuple[int, int] | None] = {}  # configuration files read -> (mtime, size)
        self._broken: set[str] = set()  # configuration files that could not be used
        self.loads = 0  # configurations resolved (tests count them: once per folder, not per keystroke)
        self.set_folders(folders)

    @property
    def folders(self) -> tuple[str, ...]:
        return self._roots

    def set_folders(self, folders: Iterable[str]) -> None:
        """The workspace folders (absolute paths); what was read is kept where its folder still is."""
        roots = tuple(sorted({os.path.abspath(folder) for folder in folders}, key=len, reverse=True))
        with self._lock:
            self._roots = roots
            self._resolvers = {root: found for root, found in self._resolvers.items() if root in roots}
            self._found.clear()

    def _root(self, folder: str) -> str:
        for root in self._roots:  # the innermost first
            if _within(folder, root):
                return root
        return ""

    def config_for(self, path: str) -> tuple[LintConfig | None, str | None]:
        """The configuration for ``path`` (None: none), or the reason it cannot be used."""
        folder = os.path.dirname(os.path.abspath(path))
        with self._lock:
            found = self._found.get(folder)
            if found is None:
                root = self._root(folder)
                resolver = self._resolvers.get(root)
                if resolver is None:
                    resolver = self._resolvers[root] = ConfigResolver()
                found = self._found[folder] = _config(resolver, path)
                self.loads += 1
                self._remember(found, folder)
            return found

    def _remember(self, found: tuple[LintConfig | None, str | None], folder: str) -> None:
        """Note the files whose change makes ``found`` stale: the configuration file, its packs' modules,
        and the places between ``folder`` and it where a nearer configuration file could appear."""
        config, error = found
        if error is None:
            self._note_nearer(folder, config.root if config is not None and config.path is not None else None)
        if config is not None and config.path is not None:
            file = os.path.join(config.root, os.path.basename(config.path))
            for pack in config.settings.packs:
                if os.sep in pack.source or "/" in pack.source:  # a folder, relative to the working folder
                    folder = pack.source
                elif os.path.isdir(os.path.join(config.root, pack.source)):
                    # A bare name the loader found as a folder below the configuration ("acme").
                    folder = os.path.join(config.root, pack.source)
                else:
                    continue  # an installed pack: it changes by install
                module = os.path.abspath(os.path.join(folder, PACK_NAMES[0]))
                self._read.setdefault(module, _signature(module))
        elif error is not None and (named := _NAMED_CONFIG.match(error)) is not None:
            # The message starts with the file and its line ("a:b/.writing-rules.toml:3: ..."); a
            # folder's name, or a Windows drive, may hold a colon too.
            file = os.path.abspath(named.group(1))
            self._broken.add(file)
        else:
            return
        if os.path.basename(file) in CONFIG_NAMES:
            self._read.setdefault(file, _signature(file))

    def _note_nearer(self, folder: str, root: str | None) -> None:
        """Record, as absent (or as they are), the configuration files that would be nearer ``folder``'s
        than the one in force at ``root`` (None: none; then up to the repository's root): one created
        there (a checkout, a script) shows as changed on the next save, for a client that cannot watch."""
        current = os.path.abspath(folder)
        for _ in range(256):  # deeper than any real tree; the resolver stops at the same places
            for name in CONFIG_NAMES:
                candidate = os.path.join(current, name)
                self._read.setdefault(candidate, _signature(candidate))
            parent = os.path.dirname(current)
            if current == root or parent == current or (root is None and os.path.exists(os.path.join(current, ".git"))):
                return
            current = parent

    def stale(self) -> list[str]:
        """The files read so far that changed on disk since (a save may have changed one), and the
        configurations that could not be used (a pack may have been built since: they are cheap to try)."""
        with self._lock:
            read = list(self._read.items())
            broken = sorted(self._broken)
        return [file for file, signature in read if _signature(file) != signature or file in broken]

    def renew(self, changed: Iterable[str] = ()) -> bool:
        """Forget what the changed files can affect (everything when a pack changed); True if anything was.

        A configuration file can affect the documents at and below its folder; a pack's file
        any configuration that names the pack.
        """
        folders = []
        everything = False
        for path in changed:
            name = os.path.basename(path)
            if name in CONFIG_NAMES:
                folders.append(os.path.dirname(os.path.abspath(path)))
            elif name in PACK_NAMES:
                everything = True
        if not folders and not everything:
            return False
        with self._lock:
            if everything:
                self._resolvers.clear()
                self._found.clear()
                self._read.clear()
                self._broken.clear()
                return True
            for root in list(self._resolvers):
                # A resolver caches per folder: drop the ones that may have read below or above the change.
                if root == "" or any(_within(root, folder) or _within(folder, root) for folder in folders):
                    del self._resolvers[root]
            for folder in list(self._found):
                if any(_within(folder, changed_folder) for changed_folder in folders):
                    del self._found[folder]
            for file in list(self._read):
                if any(_within(file, changed_folder) for changed_folder in folders):
                    del self._read[file]
            self._broken = {file for file in self._broken if not any(_within(file, f) for f in folders)}
        return True


def _settings(
    path: str | None, settings: FileSettings | None, configs: WorkspaceConfigs | None = None
) -> tuple[FileSettings | None, str | None]:
    """The file's configuration, exactly as ``scan`` finds it; a broken file is reported, not fatal.

    None when the configuration leaves the file out (``include`` / ``exclude``): ``scan`` never lints it,
    or when the configuration cannot be used (then with the reason, one line naming the file):
    ``scan`` refuses to run with it. Without ``configs`` the configuration is read afresh.
    """
    if settings is not None:
        return settings, None
    if path is None:
        return FileSettings(), None
    config, error = configs.config_for(path) if configs is not None else _config(ConfigResolver(), path)
    if error is not None:
        return None, error
    if config is None:
        return FileSettings(), None
    if not config.selects(path):
        return None, None
    return config.settings_for(path), None


def lint_document(
    uri: str,
    version: int | None,
    text: str,
    *,
    language: str = "auto",
    min_level: str | None = None,
    settings: FileSettings | None = None,
    configs: WorkspaceConfigs | None = None,
) -> LintedDocument:
    """Scan ``text`` with its file's configuration and inline directives.

    ``language`` other than "auto" and ``min_level`` override the
    configuration (the client's choice), as the command line's options do;
    without a ``min-level`` anywhere, the command line's default view applies.
    ``settings`` replaces the configuration lookup altogether; ``configs`` keeps the
    configurations read (the server's), else each call reads them afresh.
    """
    path = path_of(uri)
    found, config_error = _settings(path, settings, configs)
    if found is None:
        language = language if language != "auto" else "en"
        return LintedDocument(uri, version, text, LineIndex(text), language, (), config_error=config_error)
    # The client's choices on top, as the command line's options go on top (the same overlay).
    chosen = found.overlay(language=None if language == "auto" else language, min_level=min_level)
    # A buffer without a file is named by its URI's last part, so its markup follows its extension.
    name = path or (urlparse(uri).path.rsplit("/", 1)[-1] or "untitled.md")
    linted = lint_text(text, name, chosen)
    problems = tuple((problem.line, problem.column, problem.message) for problem in linted.problems)
    return LintedDocument(
        uri=uri,
        version=version,
        text=text,
        index=LineIndex(text),
        language=linted.language,
        signals=linted.signals,
        problems=problems,
        config_error=config_error,
        catalog=chosen.catalog,
    )
