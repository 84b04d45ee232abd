"""Which files a document folder serves: prose documents, never hidden paths, temporary files or build files.

A model that can write any file under a git checkout can run code (``.git/config``
``core.fsmonitor``, ``.git/hooks``, a CI workflow, a build script, ``CMakeLists.txt``,
a Sphinx template), and one that can read any file can read ``.env``. The policy is
checked on the id as given and again on the path a symbolic link resolves to.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from typing import NamedTuple

from ._documentation_files import DOCUMENTATION_FILES, EXCLUDED_FILES

__all__ = [
    "DOCUMENTATION_FILES",
    "EXCLUDED_FILES",
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


# Served only when the host names them: their code runs when the site builds.
_NAMED_ONLY = ("*.mdx", "*.html", "*.htm")


# A named tuple, not a dataclass: building a dataclass costs about 0.3 ms of every start.
class DocumentPolicy(NamedTuple):
    """Name patterns a served file must match, names it must not, and whether hidden paths may be served.

    ``exclude`` wins over ``include``: a pattern ending in ``/`` names a folder
    anywhere on the path, ``folder/name`` a file name anywhere under such a folder,
    any other pattern the file name.
    """

    include: tuple[str, ...] = DOCUMENTATION_FILES
    allow_hidden: bool = False
    exclude: tuple[str, ...] = EXCLUDED_FILES

    @classmethod
    def of(cls, include: Iterable[str], allow_hidden: bool, exclude: Iterable[str] = EXCLUDED_FILES) -> DocumentPolicy:
        """Check the host's options; a host mistake raises ``TypeError`` or ``ValueError``."""
        patterns = _patterns(include, "include", "('*.md', '*.txt')")
        if not patterns:
            raise ValueError("include must name at least one file name pattern; ('*',) serves every name")
        for pattern in patterns:
            if "/" in pattern:
                raise ValueError(f"include pattern {pattern!r} has a '/'; patterns match file names only")
        if not isinstance(allow_hidden, bool):
            raise TypeError("allow_hidden must be True or False")
        excluded = _patterns(exclude, "exclude", "('CMakeLists.txt', '_templates/')")
        for pattern in excluded:
            folder, _, name = pattern.partition("/")
            if not folder or "/" in name:
                raise ValueError(
                    f"exclude pattern {pattern!r} is not one of the three forms: a file name ('CMakeLists.txt'), "
                    "a folder name and '/' ('_templates/'), or a folder name, '/' and a file name "
                    "('requirements/*.txt': such a file anywhere under such a folder)"
                )
        lowered = tuple(pattern.lower() for pattern in patterns)
        return cls(lowered, allow_hidden, tuple(pattern.lower() for pattern in excluded))

    def describe(self) -> str:
        """The policy in words, for the messages that refuse an id."""
        kinds = "every file name" if "*" in self.include else ", ".join(self.include)
        hidden = "hidden paths included" if self.allow_hidden else "never a path with a part starting with '.'"
        named = [pattern for pattern in _NAMED_ONLY if pattern not in self.include and "*" not in self.include]
        only_named = f"; {', '.join(named)} only when the host names them" if named else ""
        return f"this document folder serves {kinds} ({hidden}{only_named})"

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
        excluded = self._excluded(parts)
        if excluded is not None:
            raise InvalidDocumentArgumentsError(
                f"Document id {shown_id(id)} leads{via} to {excluded}: a file that a build, package manager or "
                "docs generator reads as code or configuration, so it is never served to a model.",
                document_id=id,
            )
        if not any(fnmatch.fnmatchcase(name, pattern) for pattern in self.include):
            raise InvalidDocumentArgumentsError(
                f"Document id {shown_id(id)} leads{via} to a file that is not one of the documentation files "
                f"served here; {self.describe()}.",
                document_id=id,
            )

    def _excluded(self, parts: tuple[str, ...]) -> str | None:
        """Why ``parts`` is excluded, in words, or None."""
        name = parts[-1].lower()
        for pattern in self.exclude:
            if "/" in pattern:
                folder, _, file = pattern.partition("/")
                if file and not fnmatch.fnmatchcase(name, file):
                    continue
                for part in parts[:-1]:
                    if fnmatch.fnmatchcase(part.lower(), folder):
                        named = f"{shown_id(parts[-1])} (it matches {file!r}) " if file else "a file "
                        return f"{named}under a folder named {shown_id(part)}"
            elif fnmatch.fnmatchcase(name, pattern):
                return f"{shown_id(parts[-1])} (it matches {pattern!r})"
        return None


def _patterns(value: object, option: str, example: str) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{option} must be a sequence of file name patterns such as {example}")
    patterns = tuple(value)
    for pattern in patterns:
        if not isinstance(pattern, str) or not pattern:
            raise TypeError(f"{option} patterns must be non-empty strings; got {pattern!r}")
    return patterns
