"""Which files a document folder serves: documentation files, never hidden paths or temporary files.

A model that can write any file under a git checkout can run code (``.git/config``
``core.fsmonitor``, ``.git/hooks``, a CI workflow, a build script), and one that
can read any file can read ``.env``. The policy is checked on the id as given and
again on the path a symbolic link resolves to.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from typing import NamedTuple

from ._documentation_files import DOCUMENTATION_FILES

__all__ = [
    "DOCUMENTATION_FILES",
    "MAX_ID_LENGTH",
    "TEMPORARY_PREFIX",
    "DocumentPolicy",
    "is_temporary",
    "shown_id",
]

# Checked before any path work: realpath-style resolution of a long id is quadratic.
MAX_ID_LENGTH = 1024
_SHOWN = 100

TEMPORARY_PREFIX = ".wr-"
# This store's temporary names, and the longer ones of earlier versions (".name.<12 hex>.tmp").
_TEMPORARY = re.compile(r"\.wr-[0-9a-f]{16}\.tmp|\..+\.[0-9a-f]{12}\.tmp", re.DOTALL)


def is_temporary(name: str) -> bool:
    """True for the name of a writer's temporary file (served never, cleaned when stale)."""
    return _TEMPORARY.fullmatch(name) is not None


def shown_id(id: str) -> str:
    """``repr(id)``, cut to a readable length: an id is echoed in messages a model reads."""
    if len(id) <= _SHOWN:
        return repr(id)
    return f"{id[:_SHOWN]!r}… ({len(id)} characters)"


# A named tuple, not a dataclass: building a dataclass costs about 0.3 ms of every start.
class DocumentPolicy(NamedTuple):
    """Name patterns a served file must match, and whether hidden paths may be served."""

    include: tuple[str, ...] = DOCUMENTATION_FILES
    allow_hidden: bool = False

    @classmethod
    def of(cls, include: Iterable[str], allow_hidden: bool) -> DocumentPolicy:
        """Check the host's options; a host mistake raises ``TypeError`` or ``ValueError``."""
        if isinstance(include, (str, bytes)) or not isinstance(include, Iterable):
            raise TypeError("include must be a sequence of file name patterns such as ('*.md', '*.txt')")
        patterns = tuple(include)
        if not patterns:
            raise ValueError("include must name at least one file name pattern; ('*',) serves every name")
        for pattern in patterns:
            if not isinstance(pattern, str) or not pattern:
                raise TypeError(f"include patterns must be non-empty strings; got {pattern!r}")
            if "/" in pattern:
                raise ValueError(f"include pattern {pattern!r} has a '/'; patterns match file names only")
        if not isinstance(allow_hidden, bool):
            raise TypeError("allow_hidden must be True or False")
        return cls(tuple(pattern.lower() for pattern in patterns), allow_hidden)

    def describe(self) -> str:
        """The policy in words, for the messages that refuse an id."""
        kinds = "every file name" if "*" in self.include else ", ".join(self.include)
        hidden = "hidden paths included" if self.allow_hidden else "never a path with a part starting with '.'"
        return f"this document folder serves {kinds} ({hidden})"

    def check_id(self, id: str) -> tuple[str, ...]:
        """The parts of a plain relative id that this policy serves; else ``InvalidDocumentArgumentsError``."""
        # Imported here, not with the module: the command line reads DOCUMENTATION_FILES for
        # its help text on every start and needs none of the stores.
        from ._store import InvalidDocumentArgumentsError

        if len(id) > MAX_ID_LENGTH:
            raise InvalidDocumentArgumentsError(
                f"Document id {shown_id(id)} is longer than {MAX_ID_LENGTH} characters; use the document's "
                "relative path, such as 'guides/setup.md'."
            )
        if id.startswith(("/", "\\")):
            raise InvalidDocumentArgumentsError(
                f"Document id {shown_id(id)} is an absolute path; use a path relative to the document folder, "
                "such as 'guides/setup.md'.",
                document_id=id,
            )
        parts = tuple(id.split("/"))
        if any(part in ("", ".", "..") for part in parts):
            raise InvalidDocumentArgumentsError(
                f"Document id {shown_id(id)} is not a plain relative path; '..', '.' and empty parts are not "
                "allowed. Use a path such as 'guides/setup.md'.",
                document_id=id,
            )
        self.check_parts(parts, id, through_link=False)
        return parts

    def check_parts(self, parts: tuple[str, ...], id: str, *, through_link: bool) -> None:
        """Refuse hidden parts, temporary files and names outside ``include``."""
        from ._store import InvalidDocumentArgumentsError

        via = " through a symbolic link" if through_link else ""
        for part in parts:
            if is_temporary(part):
                raise InvalidDocumentArgumentsError(
                    f"Document id {shown_id(id)} leads{via} to a writer's temporary file, which is never served.",
                    document_id=id,
                )
            if part.startswith(".") and not self.allow_hidden:
                raise InvalidDocumentArgumentsError(
                    f"Document id {shown_id(id)} leads{via} to a hidden path (a part starting with '.', like "
                    f".git/ or .env); {self.describe()}.",
                    document_id=id,
                )
        name = parts[-1].lower()
        if not any(fnmatch.fnmatchcase(name, pattern) for pattern in self.include):
            raise InvalidDocumentArgumentsError(
                f"Document id {shown_id(id)} leads{via} to a file that is not one of the documentation files "
                f"served here; {self.describe()}.",
                document_id=id,
            )
