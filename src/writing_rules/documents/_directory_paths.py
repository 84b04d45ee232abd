"""Resolving a document id inside the root, one component at a time, relative to directory descriptors.

Every step opens the next component with ``O_NOFOLLOW`` relative to the
descriptor of the directory before it (``dir_fd=``), so no other process can
swap a component for a symbolic link between a check and its use. Symbolic
links are read and followed here, by hand: one that stays inside the root is
followed, one that leaves it is refused. ``..`` inside a link pops a directory
this walk opened itself, never the file system's ``..``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from dataclasses import dataclass

from ._directory_policy import DocumentPolicy, shown_id
from ._store import (
    DocumentNotFoundError,
    DocumentUnreadableError,
    InvalidDocumentArgumentsError,
)

__all__ = ["Located", "close_quietly", "resolve"]

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
# Symbolic links followed, plus retries after a swap seen mid-walk; as the kernel's limit.
_MAX_STEPS = 40


@dataclass(frozen=True)
class Located:
    """Where an id leads: the open parent directory, the file's name in it and its path from the root.

    ``fd`` and ``info`` are the open file and its status when it exists and was
    asked for (reads and writes), else -1 and None. The caller closes both
    descriptors.
    """

    parent_fd: int
    name: str
    parts: tuple[str, ...]
    fd: int = -1
    info: os.stat_result | None = None


def close_quietly(fd: int) -> None:
    if fd >= 0:
        with contextlib.suppress(OSError):
            os.close(fd)


def _outside(id: str) -> InvalidDocumentArgumentsError:
    return InvalidDocumentArgumentsError(
        f"Document id {shown_id(id)} leads outside the document folder (through a symbolic link); "
        "only documents inside it can be used.",
        document_id=id,
    )


def _not_found(id: str) -> DocumentNotFoundError:
    return DocumentNotFoundError(
        f"No document {shown_id(id)} in the document folder; the tools never create one.", document_id=id
    )


def _os_error(error: OSError, id: str) -> Exception:
    if error.errno in (errno.ENOENT, errno.ENOTDIR):
        return _not_found(id)
    if error.errno == errno.ENAMETOOLONG:
        return InvalidDocumentArgumentsError(
            f"Document id {shown_id(id)} has a name longer than the file system allows.", document_id=id
        )
    return DocumentUnreadableError(
        f"Document {shown_id(id)} cannot be opened: {error.strerror or type(error).__name__}.", document_id=id
    )


class _Walk:
    """The directories opened so far, from the root down; ``names`` are their names below the root."""

    def __init__(self, root_fd: int) -> None:
        self.fds = [os.dup(root_fd)]
        self.names: list[str] = []

    @property
    def fd(self) -> int:
        return self.fds[-1]

    def enter(self, fd: int, name: str) -> None:
        self.fds.append(fd)
        self.names.append(name)

    def up(self, id: str) -> None:
        if not self.names:
            raise _outside(id)
        os.close(self.fds.pop())
        self.names.pop()

    def to_root(self) -> None:
        while self.names:
            os.close(self.fds.pop())
            self.names.pop()

    def release(self, keep: int = -1) -> None:
        for fd in self.fds:
            if fd != keep:
                close_quietly(fd)
        self.fds = []


def _link_target(name: str, dir_fd: int) -> str | None:
    try:
        return os.readlink(name, dir_fd=dir_fd)
    except OSError as error:
        if error.errno == errno.EINVAL:  # not (or no longer) a symbolic link
            return None
        raise


def resolve(
    root_fd: int,
    root_path: str,
    parts: tuple[str, ...],
    id: str,
    policy: DocumentPolicy,
    *,
    open_file: bool,
    make_directories: bool = False,
) -> Located:
    """Walk ``parts`` below ``root_fd``; see ``Located``. Raises ``DocumentStoreError`` subclasses only."""
    walk = _Walk(root_fd)
    pending = list(reversed(parts))  # a stack: the next component is last
    steps = made = 0
    linked = False
    try:
        while pending:
            part = pending.pop()
            if part in ("", "."):
                continue
            if part == "..":
                walk.up(id)
                continue
            try:
                info = os.stat(part, dir_fd=walk.fd, follow_symlinks=False)
            except FileNotFoundError:
                if not pending or not make_directories:
                    if not pending and not open_file:
                        policy.check_parts((*walk.names, part), id, through_link=linked)
                        located = Located(walk.fd, part, (*walk.names, part))
                        walk.release(keep=walk.fd)
                        return located
                    raise _not_found(id) from None
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, dir_fd=walk.fd)
                pending.append(part)
                made += 1
                if made > len(parts) + _MAX_STEPS:  # another process keeps removing them
                    raise _not_found(id) from None
                continue
            if stat.S_ISLNK(info.st_mode):
                steps += 1
                target = _link_target(part, walk.fd) if steps <= _MAX_STEPS else None
                if steps > _MAX_STEPS:
                    raise InvalidDocumentArgumentsError(
                        f"Document id {shown_id(id)} passes through too many symbolic links.", document_id=id
                    )
                if target is None:  # swapped back to a file meanwhile: look again
                    pending.append(part)
                    continue
                linked = True
                if target.startswith("/"):
                    if target != root_path and not target.startswith(root_path.rstrip("/") + "/"):
                        raise _outside(id)
                    walk.to_root()
                    target = target[len(root_path) :]
                pending.extend(reversed(target.split("/")))
                continue
            if pending:  # a folder on the way
                if not stat.S_ISDIR(info.st_mode):
                    raise _not_found(id)
                try:
                    fd = os.open(part, _DIRECTORY_FLAGS, dir_fd=walk.fd)
                except OSError as error:
                    if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.ENOENT):  # swapped: look again
                        steps += 1
                        if steps > _MAX_STEPS:
                            raise _os_error(error, id) from None
                        pending.append(part)
                        continue
                    raise _os_error(error, id) from None
                walk.enter(fd, part)
                continue
            # The last part: the document itself.
            names = (*walk.names, part)
            policy.check_parts(names, id, through_link=linked)
            if not open_file:
                located = Located(walk.fd, part, names, info=info)
                walk.release(keep=walk.fd)
                return located
            if not stat.S_ISREG(info.st_mode):
                raise DocumentUnreadableError(f"Document {shown_id(id)} is not a regular file.", document_id=id)
            try:
                fd = os.open(part, _FILE_FLAGS, dir_fd=walk.fd)
            except OSError as error:
                if error.errno in (errno.ELOOP, errno.ENOENT):  # swapped between stat and open
                    steps += 1
                    if steps > _MAX_STEPS:
                        raise _os_error(error, id) from None
                    pending.append(part)
                    continue
                raise _os_error(error, id) from None
            opened = os.fstat(fd)
            if not stat.S_ISREG(opened.st_mode):
                os.close(fd)
                raise DocumentUnreadableError(f"Document {shown_id(id)} is not a regular file.", document_id=id)
            located = Located(walk.fd, part, names, fd=fd, info=opened)
            walk.release(keep=walk.fd)
            return located
        raise _not_found(id)
    except OSError as error:
        raise _os_error(error, id) from None
    finally:
        walk.release()
