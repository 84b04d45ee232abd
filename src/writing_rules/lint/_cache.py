"""A result cache keyed by path, content, rule data, settings and version.

By default it lives in the user's cache folder (``user_cache_dir``), never in
the checkout being scanned: a repository cannot commit entries that a fresh
clone would then trust. Each entry is one JSON file named by the SHA-256 of
its key, holding the key again and a SHA-256 of its value. An entry that is
unreadable, partial, not a regular file, holds another key or a value that
does not match its digest is ignored (and rewritten by the next scan); the
caller checks the value's shape too. Entries are written to a temporary file
of an unpredictable name, created exclusively without following links, and
renamed into place, so two processes sharing the folder never see half an
entry. A folder that is a symbolic link (or holds one where the cache writes),
or that cannot be written, gives one warning; the scan goes on without it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Callable, Mapping
from typing import Any

from .._regular_files import read_regular_file

__all__ = ["CACHE_DIR_ENV", "ResultCache", "cache_key", "user_cache_dir"]

CACHE_DIR_ENV = "WRITING_RULES_CACHE_DIR"
_APP = "writing-rules"
_LAYOUT = "v1"
_MAX_ENTRY = 64 * 2**20  # an entry larger than this is not one the cache wrote for a 50 MB file
_GITIGNORE = "# Created by writing-rules: the cache is local, never committed.\n*\n"
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# writing-rules cache; see https://bford.info/cachedir/\n"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


def user_cache_dir(environ: Mapping[str, str] | None = None, platform: str | None = None) -> str:
    """Where results are cached unless ``--cache-dir`` says otherwise.

    ``WRITING_RULES_CACHE_DIR`` when set; else the platform's user cache folder:
    ``$XDG_CACHE_HOME/writing-rules`` (``~/.cache/writing-rules``) on Linux and
    other Unix systems, ``~/Library/Caches/writing-rules`` on macOS and
    ``%LOCALAPPDATA%\\writing-rules\\Cache`` on Windows. "" when there is no such folder
    (no home folder): the scan then runs without a cache.
    """
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    chosen = env.get(CACHE_DIR_ENV)
    if chosen:
        return chosen
    if platform.startswith("win"):
        local = env.get("LOCALAPPDATA") or os.path.join(env.get("USERPROFILE") or "", "AppData", "Local")
        # Absolute as Windows reads it: a drive (C: and a slash) or a UNC share (two slashes, a server).
        absolute = local[1:3] in (":\\", ":/") or local.startswith(("\\\\", "//"))
        return os.path.join(local, _APP, "Cache") if absolute else ""
    home = env.get("HOME") or os.path.expanduser("~")
    if not os.path.isabs(home):
        return ""  # no home folder: no cache, rather than one relative to wherever the scan runs
    if platform == "darwin":
        return os.path.join(home, "Library", "Caches", _APP)
    xdg = env.get("XDG_CACHE_HOME")
    # The XDG specification: a relative path is invalid and is to be ignored.
    base = xdg if xdg and os.path.isabs(xdg) else os.path.join(home, ".cache")
    return os.path.join(base, _APP)


def cache_key(*parts: str) -> str:
    """One key from its parts (path, content hash, rule-data digest, settings, version ...)."""
    import hashlib  # 2 ms of start-up (OpenSSL) that a scan without --cache never needs

    digest = hashlib.sha256()
    for part in parts:
        encoded = part.encode("utf-8", "surrogatepass")
        digest.update(len(encoded).to_bytes(8, "big"))
        digest.update(encoded)
    return digest.hexdigest()


# json is imported where an entry is read or written: a --no-cache scan with the text report
# then never loads json (about 1 ms).


def _serialise(value: Mapping[str, Any]) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _digest(serialised: str) -> str:
    import hashlib  # see cache_key

    return hashlib.sha256(serialised.encode("utf-8", "surrogatepass")).hexdigest()


def _real_folder(path: str) -> bool:
    """Whether ``path`` is a folder itself, not a symbolic link to one."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _link_below_working_folder(folder: str) -> str | None:
    """The first symbolic link on the way from the working folder down to ``folder``, if any.

    A cache folder inside a checkout (``--cache-dir .cache/wr``) must not be led elsewhere by a
    link the checkout commits (``.cache -> /somewhere``); links above the working folder are the
    user's own.
    """
    working = os.getcwd()
    if not folder.startswith(working.rstrip(os.sep) + os.sep):
        return None
    current = working
    for part in os.path.relpath(folder, working).split(os.sep)[:-1]:  # the folder itself: see _prepare
        current = os.path.join(current, part)
        if os.path.islink(current):
            return os.path.relpath(current, working)
        if not os.path.lexists(current):
            return None
    return None


class ResultCache:
    """Entries under ``folder``; ``warning`` says why writing was given up, if it was."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.warning: str | None = None
        self._ready = False

    def _entry(self, key: str) -> str:
        return os.path.join(self.folder, _LAYOUT, key[:2], key[2:] + ".json")

    def get(self, key: str, check: Callable[[Mapping[str, Any]], bool] | None = None) -> Mapping[str, Any] | None:
        """The stored value for ``key``, or None (missing, corrupt, partial, another key's, or
        refused by ``check``, which judges the value's shape)."""
        import json

        try:
            raw = read_regular_file(self._entry(key), _MAX_ENTRY, follow_links=False)
        except OSError:
            return None
        try:
            entry = json.loads(raw)
        except (ValueError, RecursionError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("value"), dict):
            return None
        value: Mapping[str, Any] = entry["value"]
        # Damage that leaves valid JSON (a changed byte inside a string) fails the value's digest.
        try:
            if entry.get("digest") != _digest(_serialise(value)):
                return None
        except (ValueError, RecursionError):  # a huge integer or deep nesting cannot be serialised again
            return None
        if check is not None and not check(value):
            return None
        return value

    def put(self, key: str, value: Mapping[str, Any]) -> None:
        """Store ``value`` (JSON-serialisable) under ``key``; never raises for the file system."""
        import json

        if self.warning is not None:
            return
        path = self._entry(key)
        try:
            self._prepare()
            shard = os.path.dirname(path)
            self._folder(os.path.dirname(shard))
            self._folder(shard)
            # A name no one can predict, created exclusively and never through a link (what
            # tempfile.mkstemp does, without importing tempfile, shutil and the compression modules
            # on every scan of a changed page: about 3 ms).
            temporary = os.path.join(shard, f".tmp-{os.urandom(12).hex()}.json")
            handle = os.open(temporary, _CREATE, 0o600)
            try:
                serialised = _serialise(value)
                with os.fdopen(handle, "w", encoding="utf-8", errors="surrogatepass") as stream:
                    stream.write(f'{{"key":{json.dumps(key)},"digest":"{_digest(serialised)}","value":{serialised}}}')
                os.replace(temporary, path)  # replaces a link planted at the entry's name, never its target
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except _Refused as refused:
            self.warning = f"the cache folder {self.folder} {refused}; scanning without it"
        except OSError as error:
            self.warning = f"cannot write the cache in {self.folder} ({error.strerror}); scanning without it"

    def _folder(self, path: str) -> None:
        """Make ``path`` a folder, refusing a symbolic link in its place (it could lead anywhere)."""
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o700)
        if not _real_folder(path):
            raise _Refused(f"holds a symbolic link or file at {os.path.relpath(path, self.folder)}")

    def _prepare(self) -> None:
        if self._ready:
            return
        link = _link_below_working_folder(os.path.abspath(self.folder))
        if link is not None:
            raise _Refused(f"passes through the symbolic link {link}")
        parent = os.path.dirname(os.path.abspath(self.folder))
        if not os.path.lexists(self.folder):
            os.makedirs(parent, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                os.mkdir(self.folder, 0o700)
        if not _real_folder(self.folder):
            raise _Refused("is a symbolic link (or not a folder)")
        for name, content in ((".gitignore", _GITIGNORE), ("CACHEDIR.TAG", _TAG)):
            try:
                # O_EXCL fails on any existing name, a dangling link included: nothing is written through one.
                handle = os.open(os.path.join(self.folder, name), _CREATE, 0o644)
            except FileExistsError:
                continue
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(content)
        self._ready = True


class _Refused(Exception):
    """The cache folder is not one the cache may write in; the message says why."""
