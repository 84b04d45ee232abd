"""Documents as UTF-8 files under one folder.

Writes are atomic (temporary file in the same folder, flush, fsync, rename)
and serialised between threads and processes by an exclusive ``flock`` on the
document file itself, re-checked after locking because a rename replaces the
file the lock was taken on. POSIX only.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator

from ._store import (
    Document,
    DocumentExistsError,
    DocumentNotFoundError,
    DocumentUnreadableError,
    DocumentWriteError,
    InvalidDocumentArgumentsError,
    VersionConflictError,
    check_content,
    check_id,
    content_digest,
)
from ._text import adapt_line_breaks, uses_crlf

try:
    import fcntl
except ImportError:  # not POSIX
    fcntl = None  # type: ignore[assignment]

__all__ = ["DirectoryDocumentStore"]

_BOM = b"\xef\xbb\xbf"
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


class DirectoryDocumentStore:
    """Files under ``root``; an id is a relative path with ``/`` separators, like ``guides/setup.md``.

    The version is the SHA-256 of the file's bytes. A UTF-8 BOM is kept and
    not part of ``content``; a file that uses CRLF throughout stays CRLF.
    """

    def __init__(self, root: str | os.PathLike[str]) -> None:
        if fcntl is None:
            raise RuntimeError("DirectoryDocumentStore needs POSIX file locks (fcntl), which this system lacks.")
        if not isinstance(root, (str, os.PathLike)):
            raise TypeError(f"root must be a path; got {type(root).__name__}")
        real = os.path.realpath(os.fspath(root))
        if not os.path.isdir(real):
            raise ValueError(f"root {os.fspath(root)!r} is not an existing directory")
        self._root = real

    @property
    def root(self) -> str:
        return self._root

    def _resolve(self, id: str) -> str:
        check_id(id)
        if id.startswith(("/", "\\")) or os.path.isabs(id) or (len(id) > 1 and id[1] == ":"):
            raise InvalidDocumentArgumentsError(
                f"Document id {id!r} is an absolute path; use a path relative to the document folder, "
                "such as 'guides/setup.md'.",
                document_id=id,
            )
        parts = id.split("/")
        if any(part in ("", ".", "..") for part in parts):
            raise InvalidDocumentArgumentsError(
                f"Document id {id!r} is not a plain relative path; '..', '.' and empty parts are not "
                "allowed. Use a path such as 'guides/setup.md'.",
                document_id=id,
            )
        real = os.path.realpath(os.path.join(self._root, *parts))
        if real == self._root or os.path.commonpath([real, self._root]) != self._root:
            raise InvalidDocumentArgumentsError(
                f"Document id {id!r} leads outside the document folder (through a symbolic link); "
                "only documents inside it can be used.",
                document_id=id,
            )
        return real

    def _open(self, path: str, id: str) -> tuple[int, os.stat_result]:
        try:
            fd = os.open(path, _OPEN_FLAGS)
        except (FileNotFoundError, NotADirectoryError):
            raise DocumentNotFoundError(
                f"No document {id!r} in the document folder; the tools never create one.", document_id=id
            ) from None
        except OSError as error:
            raise DocumentUnreadableError(
                f"Document {id!r} cannot be opened: {error.strerror or type(error).__name__}.", document_id=id
            ) from None
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise DocumentUnreadableError(f"Document {id!r} is not a regular file.", document_id=id)
        return fd, info

    @staticmethod
    def _decode(data: bytes, id: str) -> tuple[str, bool]:
        bom = data.startswith(_BOM)
        try:
            return data[len(_BOM) if bom else 0 :].decode("utf-8"), bom
        except UnicodeDecodeError as error:
            raise DocumentUnreadableError(
                f"Document {id!r} is not UTF-8 text (invalid byte at offset {error.start}); it is never "
                "read or written as text.",
                document_id=id,
            ) from None

    def read(self, id: str) -> Document:
        path = self._resolve(id)
        fd, _ = self._open(path, id)
        try:
            data = _read_all(fd)
        except OSError as error:
            raise DocumentUnreadableError(
                f"Document {id!r} cannot be read: {error.strerror}.", document_id=id
            ) from None
        finally:
            os.close(fd)
        content, _ = self._decode(data, id)
        return Document(id=id, content=content, version=content_digest(data), path=path)

    @contextlib.contextmanager
    def _locked(self, path: str, id: str) -> Iterator[tuple[int, os.stat_result]]:
        """Hold an exclusive lock on the file currently at ``path``."""
        while True:
            fd, info = self._open(path, id)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                try:
                    now = os.stat(path)
                except FileNotFoundError:
                    raise DocumentNotFoundError(f"Document {id!r} was removed.", document_id=id) from None
                if (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino):
                    yield fd, info
                    return
                # Another writer renamed a new file into place while we waited: lock that one.
            finally:
                os.close(fd)

    def _replace(self, path: str, data: bytes, mode: int, id: str) -> None:
        directory, name = os.path.split(path)
        try:
            fd, temporary = _temporary(directory, name)
        except OSError as error:
            raise DocumentWriteError(
                f"Document {id!r} cannot be written: {error.strerror or type(error).__name__}.",
                document_id=id,
            ) from None
        try:
            _write_durably(fd, data)
            os.chmod(temporary, stat.S_IMODE(mode))
            os.replace(temporary, path)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise DocumentWriteError(
                f"Document {id!r} cannot be written ({error.strerror or type(error).__name__}); it is unchanged.",
                document_id=id,
            ) from None
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        self._sync_directory(directory)

    @staticmethod
    def _sync_directory(directory: str) -> None:
        # Makes the rename durable; some file systems cannot fsync a directory.
        with contextlib.suppress(OSError):
            fd = os.open(directory, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def write(self, id: str, content: str, expected_version: str | None = None) -> str:
        path = self._resolve(id)
        check_content(content)
        with self._locked(path, id) as (fd, info):
            try:
                data = _read_all(fd)
            except OSError as error:
                raise DocumentUnreadableError(
                    f"Document {id!r} cannot be read: {error.strerror}.", document_id=id
                ) from None
            current, bom = self._decode(data, id)
            version = content_digest(data)
            if expected_version is not None and expected_version != version:
                raise VersionConflictError(
                    f"Document {id!r} changed: expected version {expected_version!r}, "
                    f"current is {version!r}. "
                    "Read it again and redo the edit.",
                    document_id=id,
                    current_version=version,
                )
            if uses_crlf(current):
                content = adapt_line_breaks(content, current)
            new_data = (_BOM if bom else b"") + content.encode("utf-8")
            if new_data == data:
                return version
            self._replace(path, new_data, info.st_mode, id)
            return content_digest(new_data)

    def create(self, id: str, content: str) -> str:
        path = self._resolve(id)
        check_content(content)
        directory, name = os.path.split(path)
        try:
            os.makedirs(directory, exist_ok=True)
            fd, temporary = _temporary(directory, name)
        except OSError as error:
            raise DocumentWriteError(
                f"Document {id!r} cannot be created: {error.strerror or type(error).__name__}.",
                document_id=id,
            ) from None
        try:
            _write_durably(fd, content.encode("utf-8"))
            # link() fails if the name exists, so creating is atomic and never overwrites.
            os.link(temporary, path)
        except FileExistsError:
            raise DocumentExistsError(f"A document {id!r} already exists.", document_id=id) from None
        except OSError as error:
            if error.errno in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP):
                raise DocumentWriteError(
                    f"Document {id!r} cannot be created here (the file system refuses hard links).",
                    document_id=id,
                ) from None
            raise DocumentWriteError(
                f"Document {id!r} cannot be created: {error.strerror or type(error).__name__}.",
                document_id=id,
            ) from None
        finally:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        self._sync_directory(directory)
        return id


def _write_durably(fd: int, data: bytes) -> None:
    """Write ``data`` to the open file ``fd`` and close it, flushed to the disk."""
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _temporary(directory: str, name: str) -> tuple[int, str]:
    """A new file next to the target; mode 0o666 less the umask, like any new file."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        path = os.path.join(directory, f".{name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(path, flags, 0o666), path
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", directory)
