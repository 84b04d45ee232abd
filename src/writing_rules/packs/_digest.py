"""The digest of a rule pack's sources: shared by the pack compiler and the pack loader.

The compiler (``generator/_packs.py``) records it in the pack module it writes;
the loader recomputes it from the pack folder to tell whether the module is
older than its sources. Both must hash the same bytes the same way, so the
compiler loads this very file by path. It imports nothing from the package.
"""

from __future__ import annotations

import os
import sys
from typing import Any

# Paths are os.path strings, not pathlib: importing pathlib (with urllib.parse) cost a command
# line that loads a pack about 6 ms, more than reading the pack.

__all__ = ["MODULE_NAME", "PACK_FORMAT", "pack_digest", "sha256", "source_files"]

# The file ``pack build`` writes into the pack folder, and the loader reads.
MODULE_NAME = "_pack_data.py"

# The shape of a pack module's data. The loader reads exactly this format; a pack
# built by a compiler that writes another one must be rebuilt. 2: fixes and messages
# in sections of their own, one line per signal, read when a scan needs them.
PACK_FORMAT = 2


def sha256(data: bytes = b"") -> Any:
    """A SHA-256 hasher: hashlib's when the process has imported it, else the interpreter's own module's.

    Importing hashlib loads OpenSSL: 2.5 ms of a command line that scans without its cache,
    which needs no other hash. The built-in module hashes a 2,000-term pack's sources in
    0.5 ms more than OpenSSL would; the digests are the same.
    """
    hashlib = sys.modules.get("hashlib")
    if hashlib is not None:
        return hashlib.sha256(data)
    try:
        if sys.version_info >= (3, 12):
            from _sha2 import sha256 as new  # type: ignore[import-not-found,unused-ignore]
        else:
            from _sha256 import sha256 as new  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # an interpreter built without it
        from hashlib import sha256 as new  # type: ignore[assignment,unused-ignore]
    return new(data)


def source_files(folder: str | os.PathLike[str]) -> list[str]:
    """The pack's sources, relative to ``folder`` and sorted: pack.yaml, terms.yaml, rules/*.md."""
    names = [name for name in ("pack.yaml", "terms.yaml") if os.path.isfile(os.path.join(folder, name))]
    rules = os.path.join(folder, "rules")
    if os.path.isdir(rules):
        # os.scandir, not Path.glob: the same names (glob's "*" matches a leading dot too), in a
        # tenth of the time on the first call of a process (glob compiles its pattern machinery).
        with os.scandir(rules) as entries:
            names += sorted(
                f"rules/{entry.name}"
                for entry in entries
                if os.path.normcase(entry.name).endswith(".md") and entry.is_file()
            )
    return sorted(names)


# No source of a pack is near this size (a 2,000-term terms.yaml is 150 kB); a bigger file
# is refused before it is read, so a hostile folder cannot make the digest exhaust memory.
MAX_SOURCE_BYTES = 16 * 1024 * 1024


def pack_digest(folder: str | os.PathLike[str], compiler_version: int) -> str:
    """SHA-256 over the pack's sources (line endings normalised) and the compiler's version.

    Raises ``ValueError`` for a source larger than ``MAX_SOURCE_BYTES``, ``OSError`` when one cannot be read.
    """
    hasher = sha256()
    hasher.update(f"writing-rules pack compiler {compiler_version}\0".encode())
    for name in source_files(folder):
        with open(os.path.join(folder, name), "rb") as stream:
            data = stream.read(MAX_SOURCE_BYTES + 1)
        if len(data) > MAX_SOURCE_BYTES:
            raise ValueError(f"{name} is larger than {MAX_SOURCE_BYTES} bytes")
        data = data.replace(b"\r\n", b"\n")
        hasher.update(name.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    digest: str = hasher.hexdigest()
    return digest
