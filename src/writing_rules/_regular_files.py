"""Reading a file someone else may have put there: a regular file only, opened without blocking.

The command line reads the files it was given or found, ``--diff`` the working
tree's copy of a changed file, the result cache its entries. Any of them can be
a FIFO or a device by the time it is opened (swapped in after a folder walk, or
committed to a checkout): a plain ``open`` of a FIFO waits for a writer forever,
and a device can be read without end. So the file is opened with ``O_NONBLOCK``,
checked with ``fstat`` on the open descriptor (the file checked is the file read)
and read up to a limit.
"""

from __future__ import annotations

import errno
import os
import stat

__all__ = ["NOT_REGULAR", "read_regular_file"]

NOT_REGULAR = "not a regular file"
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def read_regular_file(path: str, limit: int | None = None, *, follow_links: bool = True) -> bytes:
    """The bytes of the regular file at ``path``; ``OSError`` for anything else.

    The error is the open's (missing, unreadable; with ``follow_links=False``, a
    symbolic link where the platform has ``O_NOFOLLOW``), ``EINVAL`` with
    :data:`NOT_REGULAR` (a FIFO, a device, a folder) or ``EFBIG`` when the file
    holds more than ``limit`` bytes (its size is checked before the read, and no
    more than ``limit + 1`` bytes are read in case it grows).
    """
    fd = os.open(path, _FLAGS if follow_links else _FLAGS | _NOFOLLOW)
    with os.fdopen(fd, "rb") as handle:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise OSError(errno.EINVAL, NOT_REGULAR)
        if limit is not None and status.st_size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit:,} bytes")
        data = handle.read() if limit is None else handle.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit:,} bytes")
    return data
