"""Documents as UTF-8 files under one folder.

Every path is resolved relative to the root's directory descriptor, one
component at a time (``_directory_paths``), and only the files the policy
allows are served (``_directory_policy``: prose documents, no hidden paths,
no file a build or docs generator reads as code). Writes are atomic
(temporary file in the same folder, flush, fsync, rename) and serialised
between threads and processes by an exclusive ``flock`` on the document file
itself, re-checked after locking because a rename replaces the file the lock
was taken on. POSIX only.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import time
from collections.abc import Iterable, Iterator

from ._directory_paths import Located, close_quietly, resolve
from ._directory_policy import (
    DOCUMENTATION_FILES,
    EXCLUDED_FILES,
    TEMPORARY_PREFIX,
    DocumentPolicy,
    is_temporary,
    shown_id,
)
from ._store import (
    Document,
    DocumentExistsError,
    DocumentNotFoundError,
    DocumentUnreadableError,
    DocumentWriteError,
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
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_TEMPORARY_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC
# A temporary file this old whose writer holds no lock on it was left by a killed writer.
_STALE_SECONDS = 300


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class DirectoryDocumentStore:
    """Files under ``root``; an id is a relative path with ``/`` separators, like ``guides/setup.md``.

    Only files whose name matches one of ``include`` (default: the prose documents
    ``DOCUMENTATION_FILES``, case-insensitive) and none of ``exclude`` (default:
    ``EXCLUDED_FILES``, the files builds and docs generators read as code or
    configuration; a pattern ending in ``/`` names a folder) are served, and never
    a path with a part starting with ``.`` unless ``allow_hidden``; reads, writes
    and creates are refused alike with ``InvalidDocumentArgumentsError``. The version
    is the SHA-256 of the file's bytes. A UTF-8 BOM is kept and not part of
    ``content``; a file that uses CRLF throughout stays CRLF. A file with more than
    one hard link is never written (the rename would silently split it).
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        include: Iterable[str] = DOCUMENTATION_FILES,
        allow_hidden: bool = False,
        exclude: Iterable[str] = EXCLUDED_FILES,
    ) -> None:
        if fcntl is None:
            raise RuntimeError("DirectoryDocumentStore needs POSIX file locks (fcntl), which this system lacks.")
        if not isinstance(root, (str, os.PathLike)):
            raise TypeError(f"root must be a path; got {type(root).__name__}")
        self._policy = DocumentPolicy.of(include, allow_hidden, exclude)
        real = os.path.realpath(os.fspath(root))
        try:
            fd = os.open(real, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
        except OSError:
            raise ValueError(f"root {os.fspath(root)!r} is not an existing directory") from None
        self._root = real
        self._root_fd = fd

    def __del__(self) -> None:
        close_quietly(getattr(self, "_root_fd", -1))

    @property
    def root(self) -> str:
        return self._root

    @property
    def include(self) -> tuple[str, ...]:
        return self._policy.include

    @property
    def allow_hidden(self) -> bool:
        return self._policy.allow_hidden

    @property
    def exclude(self) -> tuple[str, ...]:
        return self._policy.exclude

    def _locate(self, id: str, *, open_file: bool, make_directories: bool = False) -> Located:
        if not isinstance(id, str):
            check_id(id)  # raises
        parts = self._policy.check_id(id)  # the length cap first: before any other work on the id
        check_id(id)
        return resolve(
            self._root_fd,
            self._root,
            parts,
            id,
            self._policy,
            open_file=open_file,
            make_directories=make_directories,
        )

    def _path(self, located: Located) -> str:
        return os.path.join(self._root, *located.parts)

    @staticmethod
    def _decode(data: bytes, id: str) -> tuple[str, bool]:
        bom = data.startswith(_BOM)
        try:
            return data[len(_BOM) if bom else 0 :].decode("utf-8"), bom
        except UnicodeDecodeError as error:
            raise DocumentUnreadableError(
                f"Document {shown_id(id)} is not UTF-8 text (invalid byte at offset {error.start}); it is never "
                "read or written as text.",
                document_id=id,
            ) from None

    @staticmethod
    def _read_file(fd: int, id: str) -> bytes:
        try:
            return _read_all(fd)
        except OSError as error:
            raise DocumentUnreadableError(
                f"Document {shown_id(id)} cannot be read: {error.strerror}.", document_id=id
            ) from None

    def read(self, id: str) -> Document:
        located = self._locate(id, open_file=True)
        try:
            data = self._read_file(located.fd, id)
        finally:
            close_quietly(located.fd)
            close_quietly(located.parent_fd)
        content, _ = self._decode(data, id)
        return Document(id=id, content=content, version=content_digest(data), path=self._path(located))

    @contextlib.contextmanager
    def _locked(self, id: str) -> Iterator[Located]:
        """Hold an exclusive lock on the file the id currently leads to."""
        while True:
            located = self._locate(id, open_file=True)
            try:
                fcntl.flock(located.fd, fcntl.LOCK_EX)
                try:
                    now = os.stat(located.name, dir_fd=located.parent_fd, follow_symlinks=False)
                except FileNotFoundError:
                    raise DocumentNotFoundError(f"Document {shown_id(id)} was removed.", document_id=id) from None
                info = located.info
                if info is not None and (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino):
                    yield Located(located.parent_fd, located.name, located.parts, located.fd, now)
                    return
                # Another writer renamed a new file into place while we waited: lock that one.
            finally:
                close_quietly(located.fd)
                close_quietly(located.parent_fd)

    def _replace(self, located: Located, data: bytes, mode: int, id: str) -> None:
        parent = located.parent_fd
        try:
            fd, temporary = _temporary(parent)
        except OSError as error:
            raise DocumentWriteError(
                f"Document {shown_id(id)} cannot be written: {error.strerror or type(error).__name__}.",
                document_id=id,
            ) from None
        try:
            _write_all(fd, data)
            os.fsync(fd)
            os.fchmod(fd, stat.S_IMODE(mode))
            os.replace(temporary, located.name, src_dir_fd=parent, dst_dir_fd=parent)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=parent)
            raise DocumentWriteError(
                f"Document {shown_id(id)} cannot be written ({error.strerror or type(error).__name__}); "
                "it is unchanged.",
                document_id=id,
            ) from None
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=parent)
            raise
        finally:
            os.close(fd)  # after the rename: the lock on it tells cleaners the writer is alive
        _sync_directory(parent)
        _remove_stale_temporaries(parent)

    def write(self, id: str, content: str, expected_version: str | None = None) -> str:
        check_content(content)
        with self._locked(id) as located:
            data = self._read_file(located.fd, id)
            current, bom = self._decode(data, id)
            version = content_digest(data)
            if expected_version is not None and expected_version != version:
                raise VersionConflictError(
                    f"Document {shown_id(id)} changed: expected version {shown_id(expected_version)}, "
                    f"current is {version!r}. "
                    "Read it again and redo the edit.",
                    document_id=id,
                    current_version=version,
                )
            info = located.info
            assert info is not None
            if uses_crlf(current):
                content = adapt_line_breaks(content, current)
            new_data = (_BOM if bom else b"") + content.encode("utf-8")
            if new_data == data:
                return version
            if info.st_nlink > 1:
                raise DocumentWriteError(
                    f"Document {shown_id(id)} has {info.st_nlink} hard links; writing it would give this name a "
                    "new file and leave the other names with the old text, so it is never written. Ask the host "
                    "to replace the hard links with one file (or symbolic links).",
                    document_id=id,
                )
            self._replace(located, new_data, info.st_mode, id)
            return content_digest(new_data)

    def create(self, id: str, content: str) -> str:
        check_content(content)
        located = self._locate(id, open_file=False, make_directories=True)
        parent = located.parent_fd
        try:
            if located.info is not None:
                raise DocumentExistsError(f"A document {shown_id(id)} already exists.", document_id=id)
            try:
                fd, temporary = _temporary(parent)
            except OSError as error:
                raise DocumentWriteError(
                    f"Document {shown_id(id)} cannot be created: {error.strerror or type(error).__name__}.",
                    document_id=id,
                ) from None
            try:
                _write_all(fd, content.encode("utf-8"))
                os.fsync(fd)
                # link() fails if the name exists, so creating is atomic and never overwrites.
                os.link(temporary, located.name, src_dir_fd=parent, dst_dir_fd=parent, follow_symlinks=False)
            except FileExistsError:
                raise DocumentExistsError(f"A document {shown_id(id)} already exists.", document_id=id) from None
            except OSError as error:
                if error.errno in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP):
                    raise DocumentWriteError(
                        f"Document {shown_id(id)} cannot be created here (the file system refuses hard links).",
                        document_id=id,
                    ) from None
                raise DocumentWriteError(
                    f"Document {shown_id(id)} cannot be created: {error.strerror or type(error).__name__}.",
                    document_id=id,
                ) from None
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(temporary, dir_fd=parent)
                os.close(fd)
            _sync_directory(parent)
            return id
        finally:
            close_quietly(parent)


def _sync_directory(fd: int) -> None:
    # Makes the rename durable; some file systems cannot fsync a directory.
    with contextlib.suppress(OSError):
        os.fsync(fd)


def _temporary(parent: int) -> tuple[int, str]:
    """A new, locked file in the folder ``parent``; mode 0o666 less the umask, like any new file.

    The name is short (so a document name at the file system's limit still has
    room beside it) and hidden (so no policy serves it).
    """
    for _ in range(100):
        name = f"{TEMPORARY_PREFIX}{secrets.token_hex(8)}.tmp"
        try:
            fd = os.open(name, _TEMPORARY_FLAGS, 0o666, dir_fd=parent)
        except FileExistsError:
            continue
        fcntl.flock(fd, fcntl.LOCK_EX)  # released when the writer closes it or dies
        return fd, name
    raise FileExistsError(errno.EEXIST, "no free temporary name")


def _remove_stale_temporaries(parent: int) -> None:
    """Remove temporary files that killed writers left in ``parent``: old, and locked by nobody."""
    now = time.time()
    with contextlib.suppress(OSError), os.scandir(parent) as entries:
        for entry in entries:
            if not is_temporary(entry.name):
                continue
            with contextlib.suppress(OSError):
                info = entry.stat(follow_symlinks=False)
                if not stat.S_ISREG(info.st_mode) or now - info.st_mtime < _STALE_SECONDS:
                    continue
                fd = os.open(entry.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | _CLOEXEC, dir_fd=parent)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    again = os.stat(entry.name, dir_fd=parent, follow_symlinks=False)
                    if (again.st_dev, again.st_ino) == (info.st_dev, info.st_ino):
                        os.unlink(entry.name, dir_fd=parent)
                finally:
                    os.close(fd)
