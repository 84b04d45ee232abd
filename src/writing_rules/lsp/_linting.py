"""Linting one open document as ``writing-rules scan`` would lint the file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import unquote, urlparse

from ..lint import CONFIG_FILE, ConfigError, ConfigResolver, FileSettings, lint_text
from ._positions import LineIndex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..tools import Signal

__all__ = ["LintedDocument", "lint_document", "one_line", "path_of"]


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


def _settings(path: str | None, settings: FileSettings | None) -> tuple[FileSettings | None, str | None]:
    """The file's configuration, exactly as ``scan`` finds it; a broken file is reported, not fatal.

    None when the configuration leaves the file out (``include`` / ``exclude``): ``scan`` never lints it,
    or when the configuration cannot be used (then with the reason, one line naming the file):
    ``scan`` refuses to run with it.
    """
    if settings is not None:
        return settings, None
    if path is None:
        return FileSettings(), None
    try:
        config = ConfigResolver().config_for(path)  # fresh: an edited configuration counts at once
    except ConfigError as error:
        return None, one_line(str(error))
    except Exception as error:  # a file the reader chokes on (nesting, huge numbers): still one line
        return None, one_line(f"{_nearest_config(path)}: cannot be read ({type(error).__name__}: {error})")
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
) -> LintedDocument:
    """Scan ``text`` with its file's configuration and inline directives.

    ``language`` other than "auto" and ``min_level`` override the
    configuration (the client's choice), as the command line's options do;
    without a ``min-level`` anywhere, the command line's default view applies.
    ``settings`` replaces the configuration lookup altogether.
    """
    path = path_of(uri)
    found, config_error = _settings(path, settings)
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
    )
