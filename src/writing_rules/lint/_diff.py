"""Changed lines since a git revision (``scan --diff REF``).

The comparison is between ``REF`` and the working tree, so uncommitted edits
count as changed. Files git does not track yet (and does not ignore) count as
changed throughout. A file deleted since ``REF`` has no lines and is no error.

A scanned checkout is not trusted: its ``.git/config`` and ``.gitattributes``
may name programs (``core.fsmonitor``, a ``textconv`` driver, a ``clean``
filter, an external diff) that ``git diff`` would run. So git is asked only
for what runs nothing: the revision's file list (``git ls-tree``), blobs as
stored (``git cat-file``), the index's and the untracked files' names
(``git ls-files``), always with ``core.fsmonitor`` off. The lines are compared
here (``_linediff``), so no ``diff.*`` setting (``noprefix``, a diff
algorithm) changes what counts as changed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field

from .._errors import WritingRulesError
from .._regular_files import read_regular_file
from .._text_units import LINE_BREAK
from ._linediff import changed_line_numbers

__all__ = ["ChangedLines", "DiffError", "changed_lines"]

# What every git call gets, whatever the repository's or the user's configuration says: nothing
# that runs a program, and file names printed as they are.
_SAFE = ("-c", "core.fsmonitor=false", "-c", "core.quotepath=off")
_MAX_BLOB = 256 * 2**20  # read no larger blob: past any documentation file


class DiffError(WritingRulesError):
    """``--diff`` cannot be computed; the message says why and what to do."""


def _lines(raw: bytes) -> list[str]:
    """The lines of a file's bytes, split as the scanner counts lines."""
    text = raw.decode("utf-8", "replace").removeprefix("\ufeff")
    parts = LINE_BREAK.split(text)
    if parts and parts[-1] == "":
        parts.pop()
    return parts


@dataclass(frozen=True)
class ChangedLines:
    """Lines added or changed per file since ``ref``; ``None`` for a whole new file.

    ``tree`` maps each file of ``ref`` (relative to ``root``, ``/``-separated) to its
    blob id; ``present`` holds the files git tracks or would track now (the index
    and untracked files not ignored). ``files`` remembers the answers given.
    """

    ref: str
    root: str
    files: dict[str, frozenset[int] | None] = field(default_factory=dict)
    tree: Mapping[str, str] = field(default_factory=dict)
    present: frozenset[str] = frozenset()
    object_format: str = "sha1"

    def lines_for_text(self, path: str, text: str) -> frozenset[int] | None:
        """Changed line numbers of ``text`` standing for ``path``, against ``path`` as it was in ``ref``.

        ``text`` is what was scanned: an editor's unsaved buffer on standard input, or the file
        as the scan read it (a file read again could have changed since, and its changed lines
        would not be the scanned text's). ``None`` (every line new) when ``ref`` had no such
        file and git tracks it or would (or it is not on disk); empty for a file git ignores.
        """
        relative = self._relative(path)
        blob = self.tree.get(relative)
        if blob is None:
            if relative in self.present or not os.path.lexists(os.path.join(self.root, relative)):
                return None
            return frozenset()  # ignored by git: never part of the change, as in ``lines_for``
        old = self._blob(blob)
        return changed_line_numbers(_lines(old), _lines(text.encode("utf-8", "surrogatepass")))

    def _relative(self, path: str) -> str:
        relative = os.path.relpath(os.path.realpath(path), self.root)
        if relative == ".." or relative.startswith(".." + os.sep) or os.path.isabs(relative):
            raise DiffError(f"{path} is outside the git repository at {self.root}; --diff compares files inside it")
        return relative.replace(os.sep, "/")

    def was_deleted(self, path: str) -> bool:
        """Whether ``path`` existed in ``ref`` and has been deleted (or renamed) since."""
        relative = os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")
        # Asked per named path, not listed for the whole tree up front (a large repository's
        # every file would be looked up on each run).
        return relative in self.tree and not os.path.lexists(os.path.join(self.root, relative))

    def lines_for(self, path: str) -> frozenset[int] | None:
        """Changed line numbers of ``path`` (empty: unchanged); ``None``: every line is new.

        ``DiffError`` when ``path`` lies outside the repository.
        """
        relative = self._relative(path)
        if relative in self.files:
            return self.files[relative]
        blob = self.tree.get(relative)
        found: frozenset[int] | None
        if blob is None:
            # New since ref: changed throughout when git tracks it or would; an ignored file was
            # never part of the change.
            found = None if relative in self.present else frozenset()
        else:
            try:
                now: bytes | None = read_regular_file(os.path.join(self.root, relative), _MAX_BLOB)
            except OSError:
                now = None
            if now is None:
                found = frozenset()  # gone, unreadable, not a file, too large: the scan reports it
            elif _blob_id(now, self.object_format) == blob:
                found = frozenset()
            else:
                found = changed_line_numbers(_lines(self._blob(blob)), _lines(now))
        self.files[relative] = found
        return found

    def _blob(self, blob: str) -> bytes:
        # cat-file prints the blob as stored: no textconv, no filter, no attribute applies.
        shown = _git(["cat-file", "blob", blob], self.root)
        if shown.returncode != 0:
            raise DiffError(f"--diff {self.ref}: git cannot read a file of {self.ref}: {_message(shown)}")
        return shown.stdout


def _blob_id(content: bytes, object_format: str) -> str:
    """The id git gives ``content`` as a blob: equal ids, equal bytes (no need to read the old one)."""
    digest = hashlib.sha256() if object_format == "sha256" else hashlib.sha1()  # git's own ids, not security
    digest.update(b"blob %d\0" % len(content))
    digest.update(content)
    return digest.hexdigest()


def _message(outcome: subprocess.CompletedProcess[bytes]) -> str:
    text = outcome.stderr.decode("utf-8", "replace").strip()
    return " ".join(text.split())[:500]


def _git(arguments: list[str], cwd: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            ["git", *_SAFE, *arguments],
            cwd=cwd,
            capture_output=True,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        raise DiffError("--diff needs git, which is not installed or not on PATH") from None


def changed_lines(ref: str, cwd: str | None = None) -> ChangedLines:
    """Compare the working tree with ``REF`` in the repository around ``cwd``; ``DiffError`` when it cannot."""
    folder = os.path.abspath(cwd or os.getcwd())
    top = _git(["rev-parse", "--show-toplevel"], folder)
    if top.returncode != 0:
        message = _message(top)
        if "dubious ownership" in message:
            # git refuses a repository another user owns: say so, with git's own advice.
            raise DiffError(f"--diff: git refuses the repository around {folder}: {message}")
        raise DiffError(f"--diff needs a git repository, and {folder} is not inside one")
    root = os.path.realpath(top.stdout.decode("utf-8", "surrogateescape").strip())
    if ref.startswith("-"):
        raise DiffError(f"--diff {ref}: a revision cannot start with '-'")
    known = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"], root)
    if known.returncode != 0:
        shallow = _git(["rev-parse", "--is-shallow-repository"], root).stdout.strip() == b"true"
        if shallow:
            raise DiffError(
                f"--diff {ref}: this clone is shallow and does not have {ref}; fetch it first, e.g. "
                f"{_fetch_hint(ref, root)}'git fetch --unshallow' "
                "(in GitHub Actions: actions/checkout with fetch-depth: 0)"
            )
        raise DiffError(f"--diff {ref}: unknown revision (not a commit, branch or tag in {root})")
    commit = known.stdout.decode("ascii", "replace").strip()
    listing = _git(["ls-tree", "-r", "-z", "--full-tree", commit], root)
    if listing.returncode != 0:
        raise DiffError(f"--diff {ref}: git ls-tree failed: {_message(listing)}")
    tree: dict[str, str] = {}
    for record in listing.stdout.split(b"\0"):
        head, tab, name = record.partition(b"\t")
        fields = head.split()
        if tab and len(fields) == 3 and fields[1] == b"blob":
            tree[name.decode("utf-8", "surrogateescape")] = fields[2].decode("ascii")
    present: set[str] = set()
    for arguments in (["ls-files", "-z"], ["ls-files", "--others", "--exclude-standard", "-z"]):
        names = _git(arguments, root)
        if names.returncode != 0:
            raise DiffError(f"--diff {ref}: git ls-files failed: {_message(names)}")
        present.update(name for name in names.stdout.decode("utf-8", "surrogateescape").split("\0") if name)
    object_format = "sha256" if len(commit) == 64 else "sha1"
    return ChangedLines(ref, root, {}, tree, frozenset(present), object_format)


def _fetch_hint(ref: str, root: str) -> str:
    """A ``git fetch`` that brings ``ref`` into a shallow clone, followed by " or "; "" when none would."""
    if "~" in ref or "^" in ref or "@" in ref or ":" in ref:
        return ""  # history relative to a commit: only deepening the clone brings it
    remotes = _git(["remote"], root).stdout.decode("utf-8", "surrogateescape").split()
    remote, _, branch = ref.partition("/")
    if branch and remote in remotes:
        # origin/main is a remote-tracking branch; a shallow clone's refspec often names one branch
        # only, so the fetch names where the branch goes.
        return f"'git fetch --no-tags --depth=1 {remote} {branch}:refs/remotes/{remote}/{branch}' or "
    return f"'git fetch --no-tags --depth=1 {remotes[0] if remotes else 'origin'} {ref}' or "
