"""A result cache keyed by content, rule data, settings and version.

Each entry is one JSON file named by the SHA-256 of its key, holding the key
again and a SHA-256 of its value. An entry that is unreadable, partial, holds
another key or a value that does not match its digest is ignored
(and rewritten by the next scan). Entries are written to a temporary file and
renamed into place, so two processes sharing the folder never see half an
entry. A folder that cannot be written gives one warning; the scan goes on.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from typing import Any

__all__ = ["DEFAULT_CACHE_DIR", "ResultCache", "cache_key"]

DEFAULT_CACHE_DIR = ".writing-rules-cache"
_LAYOUT = "v1"
_GITIGNORE = "# Created by writing-rules: the cache is local, never committed.\n*\n"
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# writing-rules cache; see https://bford.info/cachedir/\n"


def cache_key(*parts: str) -> str:
    """One key from its parts (content hash, rule-data digest, settings, version ...)."""
    import hashlib  # 2 ms of start-up (OpenSSL) that a scan without --cache never needs

    digest = hashlib.sha256()
    for part in parts:
        encoded = part.encode("utf-8", "surrogatepass")
        digest.update(len(encoded).to_bytes(8, "big"))
        digest.update(encoded)
    return digest.hexdigest()


# json is imported where an entry is read or written: the command line imports this module for
# DEFAULT_CACHE_DIR, and a --no-cache scan with the text report then never loads json (about 1 ms).


def _serialise(value: Mapping[str, Any]) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _digest(serialised: str) -> str:
    import hashlib  # see cache_key

    return hashlib.sha256(serialised.encode("utf-8", "surrogatepass")).hexdigest()


class ResultCache:
    """Entries under ``folder``; ``warning`` says why writing was given up, if it was."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.warning: str | None = None
        self._ready = False

    def _entry(self, key: str) -> str:
        return os.path.join(self.folder, _LAYOUT, key[:2], key[2:] + ".json")

    def get(self, key: str) -> Mapping[str, Any] | None:
        """The stored value for ``key``, or None (missing, corrupt, partial or another key's)."""
        import json

        try:
            with open(self._entry(key), "rb") as handle:
                entry = json.loads(handle.read())
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("value"), dict):
            return None
        value: Mapping[str, Any] = entry["value"]
        # Damage that leaves valid JSON (a changed byte inside a string) fails the value's digest.
        if entry.get("digest") != _digest(_serialise(value)):
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
            os.makedirs(os.path.dirname(path), exist_ok=True)
            # A name of this process's own, created exclusively (what tempfile.mkstemp does,
            # without importing tempfile, shutil and the compression modules on every scan of
            # a changed page: about 3 ms).
            temporary = os.path.join(os.path.dirname(path), f".tmp-{os.getpid()}-{os.urandom(6).hex()}.json")
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
            try:
                serialised = _serialise(value)
                with os.fdopen(handle, "w", encoding="utf-8", errors="surrogatepass") as stream:
                    stream.write(f'{{"key":{json.dumps(key)},"digest":"{_digest(serialised)}","value":{serialised}}}')
                os.replace(temporary, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError as error:
            self.warning = f"cannot write the cache in {self.folder} ({error.strerror}); scanning without it"

    def _prepare(self) -> None:
        if self._ready:
            return
        os.makedirs(self.folder, exist_ok=True)
        for name, content in ((".gitignore", _GITIGNORE), ("CACHEDIR.TAG", _TAG)):
            marker = os.path.join(self.folder, name)
            if not os.path.exists(marker):
                with open(marker, "w", encoding="utf-8") as handle:
                    handle.write(content)
        self._ready = True
