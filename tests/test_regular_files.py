"""``read_regular_file``: how the command line, ``--diff`` and the result cache read a file."""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import pytest

from writing_rules._regular_files import NOT_REGULAR, read_regular_file


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_bytes(b"# Title\r\n\r\nText.\n")
    assert read_regular_file(str(page)) == b"# Title\r\n\r\nText.\n"
    assert read_regular_file(str(page), limit=18) == b"# Title\r\n\r\nText.\n"


def test_a_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_bytes(b"x" * 11)
    with pytest.raises(OSError) as raised:
        read_regular_file(str(page), limit=10)
    assert raised.value.errno == errno.EFBIG


def test_a_folder_is_not_a_regular_file(tmp_path: Path) -> None:
    with pytest.raises(OSError) as raised:
        read_regular_file(str(tmp_path))
    assert raised.value.errno in {errno.EINVAL, errno.EISDIR, errno.EACCES}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_without_a_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "page.md"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as raised:
        read_regular_file(str(fifo))  # a blocking open would wait for a writer forever
    assert (raised.value.errno, raised.value.strerror) == (errno.EINVAL, NOT_REGULAR)


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges on Windows")
def test_a_link_is_followed_only_when_asked(tmp_path: Path) -> None:
    target = tmp_path / "target.json"
    target.write_bytes(b"{}")
    link = tmp_path / "entry.json"
    link.symlink_to(target)
    assert read_regular_file(str(link)) == b"{}"
    with pytest.raises(OSError):
        read_regular_file(str(link), follow_links=False)
