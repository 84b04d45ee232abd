"""Changed lines since a git revision (``scan --diff REF``), read from ``git diff``.

The comparison is between ``REF`` and the working tree, so uncommitted edits
count as changed. Files git does not track yet (and does not ignore) count as
changed throughout. A file deleted since ``REF`` has no lines and is no error.
"""

from __future__ import annotations

import difflib
import os
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["ChangedLines", "DiffError", "changed_lines"]

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_ESCAPES = {"a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


class DiffError(ValueError):
    """``--diff`` cannot be computed; the message says why and what to do."""


@dataclass(frozen=True)
class ChangedLines:
    """Lines added or changed per file since ``ref``; ``None`` for a whole new (untracked) file."""

    ref: str
    root: str
    files: Mapping[str, frozenset[int] | None]
    # Paths (relative to ``root``) that existed in ``ref`` and are gone: deleted or renamed away.
    deleted: frozenset[str] = frozenset()

    def lines_for_text(self, path: str, text: str) -> frozenset[int] | None:
        """Changed line numbers of ``text`` standing for ``path`` (an editor's unsaved buffer on
        standard input), against ``path`` as it was in ``ref``; ``None`` when ``ref`` had no such file."""
        relative = self._relative(path)
        old = _git(["show", f"{self.ref}:{relative}"], self.root)
        if old.returncode != 0:
            return None
        before = old.stdout.decode("utf-8", "replace").removeprefix("\ufeff").splitlines()
        after = text.splitlines()
        changed: set[int] = set()
        matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
        for tag, _, _, first, last in matcher.get_opcodes():
            if tag in ("replace", "insert"):
                changed.update(range(first + 1, last + 1))
        return frozenset(changed)

    def _relative(self, path: str) -> str:
        relative = os.path.relpath(os.path.realpath(path), self.root)
        if relative == ".." or relative.startswith(".." + os.sep) or os.path.isabs(relative):
            raise DiffError(f"{path} is outside the git repository at {self.root}; --diff compares files inside it")
        return relative.replace(os.sep, "/")

    def was_deleted(self, path: str) -> bool:
        """Whether ``path`` existed in ``ref`` and has been deleted (or renamed) since."""
        relative = os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")
        return relative in self.deleted

    def lines_for(self, path: str) -> frozenset[int] | None:
        """Changed line numbers of ``path`` (empty: unchanged); ``None``: every line is new.

        ``DiffError`` when ``path`` lies outside the repository.
        """
        relative = os.path.relpath(os.path.realpath(path), self.root)
        if relative == ".." or relative.startswith(".." + os.sep) or os.path.isabs(relative):
            raise DiffError(f"{path} is outside the git repository at {self.root}; --diff compares files inside it")
        return self.files.get(relative.replace(os.sep, "/"), frozenset())


def _git(arguments: list[str], cwd: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            ["git", "-c", "core.quotepath=off", *arguments],
            cwd=cwd,
            capture_output=True,
            check=False,
        )
    except FileNotFoundError:
        raise DiffError("--diff needs git, which is not installed or not on PATH") from None


def changed_lines(ref: str, cwd: str | None = None) -> ChangedLines:
    """Read ``git diff REF`` in the repository around ``cwd``; ``DiffError`` when it cannot."""
    folder = os.path.abspath(cwd or os.getcwd())
    top = _git(["rev-parse", "--show-toplevel"], folder)
    if top.returncode != 0:
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
    diff = _git(["diff", "--no-color", "--no-ext-diff", "--unified=0", "--end-of-options", ref, "--"], root)
    if diff.returncode != 0:
        message = diff.stderr.decode("utf-8", "replace").strip()
        raise DiffError(f"--diff {ref}: git diff failed: {message}")
    files, deleted = _parse(diff.stdout.decode("utf-8", "surrogateescape"))
    untracked = _git(["ls-files", "--others", "--exclude-standard", "-z"], root)
    for name in untracked.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if name:
            files[name] = None
    return ChangedLines(ref, root, files, frozenset(deleted))


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


def _unquote(path: str) -> str:
    if not (path.startswith('"') and path.endswith('"')):
        return path
    raw = path[1:-1]
    out = bytearray()
    index = 0
    while index < len(raw):
        char = raw[index]
        if char == "\\" and index + 1 < len(raw):
            following = raw[index + 1]
            if following in "01234567":
                out.append(int(raw[index + 1 : index + 4], 8))
                index += 4
                continue
            out.extend(_ESCAPES.get(following, following).encode())
            index += 2
            continue
        out.extend(char.encode("utf-8", "surrogateescape"))
        index += 1
    return out.decode("utf-8", "surrogateescape")


def _parse(patch: str) -> tuple[dict[str, frozenset[int] | None], set[str]]:
    files: dict[str, frozenset[int] | None] = {}
    deleted: set[str] = set()
    current: str | None = None
    source: str | None = None
    lines: set[int] = set()
    for line in patch.split("\n"):
        if line.startswith("rename from "):  # a pure rename has no ---/+++ lines
            deleted.add(_unquote(line[len("rename from ") :]))
        elif line.startswith("--- "):
            origin = _unquote(line[4:].rstrip("\t"))
            source = origin[2:] if origin.startswith("a/") else None  # /dev/null: added
        elif line.startswith("+++ "):
            if current is not None:
                files[current] = frozenset(lines)
            target = _unquote(line[4:].rstrip("\t"))
            current = target[2:] if target.startswith("b/") else None  # /dev/null: deleted
            if source is not None and source != current:  # deleted, or renamed away
                deleted.add(source)
            lines = set()
        elif current is not None and line.startswith("@@"):
            hunk = _HUNK.match(line)
            if hunk:
                first = int(hunk.group(1))
                count = 1 if hunk.group(2) is None else int(hunk.group(2))
                lines.update(range(first, first + count))
    if current is not None:
        files[current] = frozenset(lines)
    return files, deleted
