"""Baselines: the signals a repository already had, so a scan fails only on new ones.

An entry is a rule id, a path (relative to the baseline file's folder) and a
fingerprint of the normalised sentence, with a count. Lines are not part of
it, so an edit elsewhere in a file does not revive an old signal; a second
copy of a baselined sentence is a new signal.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .._errors import WritingRulesError
from .._regular_files import read_regular_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..tools import Signal

__all__ = ["BASELINE_VERSION", "Baseline", "BaselineError"]

BASELINE_VERSION = 1
_FORMAT = "writing-rules-baseline"

Key = tuple[str, str, str]  # rule id, path, fingerprint
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class BaselineError(WritingRulesError):
    """A baseline file cannot be read or written; the message says why and what to do."""


@dataclass(frozen=True)
class Baseline:
    """Counts of known signals by (rule id, path, fingerprint); paths relative to ``folder``."""

    folder: str
    counts: Mapping[Key, int] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str) -> Baseline:
        """Read a baseline file; ``BaselineError`` when it is missing, corrupt or of another version."""
        regenerate = f"write a new one with: writing-rules scan --write-baseline {path} ..."
        try:
            # A FIFO or a device in its place is refused, never read (the read could wait forever).
            document = json.loads(read_regular_file(path).decode("utf-8"))
        except OSError as error:
            raise BaselineError(f"cannot read baseline {path}: {error.strerror}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise BaselineError(
                f"baseline {path} is not a writing-rules baseline (corrupt JSON: {error}); {regenerate}"
            ) from None
        except RecursionError:
            raise BaselineError(f"baseline {path} is nested too deeply to be a baseline; {regenerate}") from None
        except ValueError:  # an integer of more than 4,300 digits: Python refuses to convert it
            raise BaselineError(f"baseline {path} holds a number with more than 4,300 digits; {regenerate}") from None
        if not isinstance(document, dict) or _FORMAT not in document:
            raise BaselineError(f"baseline {path} is not a writing-rules baseline; {regenerate}")
        version = document[_FORMAT]
        if version != BASELINE_VERSION:
            raise BaselineError(
                f"baseline {path} has format version {version!r}; this writing-rules reads version "
                f"{BASELINE_VERSION}; {regenerate}"
            )
        counts: dict[Key, int] = {}
        entries = document.get("entries")
        if not isinstance(entries, list):
            raise BaselineError(f"baseline {path} has no list of entries; {regenerate}")
        for index, entry in enumerate(entries):
            try:
                key = (entry["rule"], entry["path"], entry["fingerprint"])
                count = entry["count"]
                valid = all(isinstance(part, str) for part in key) and isinstance(count, int) and count > 0
            except (TypeError, KeyError):
                valid = False
            if not valid:
                raise BaselineError(f"baseline {path}: entry {index} is malformed; {regenerate}")
            counts[key] = counts.get(key, 0) + count
        return cls(os.path.dirname(os.path.abspath(path)), counts)

    def relative(self, path: str) -> str:
        return os.path.relpath(os.path.abspath(path), self.folder).replace(os.sep, "/")

    def split(self, path: str, signals: Sequence[Signal], fingerprints: Sequence[str]) -> tuple[list[Signal], int]:
        """The signals of one file not in the baseline, and how many were in it (in text order)."""
        relative = self.relative(path)
        left: Counter[Key] = Counter()
        new = []
        known = 0
        for signal, print_ in zip(signals, fingerprints, strict=True):
            key = (signal.rule_id, relative, print_)
            if left[key] < self.counts.get(key, 0):
                left[key] += 1
                known += 1
            else:
                new.append(signal)
        return new, known


def write_baseline(path: str, files: Iterable[tuple[str, Sequence[Signal], Sequence[str]]]) -> int:
    """Write every signal of ``files`` (path, signals, fingerprints) as a baseline; returns the count."""
    folder = os.path.dirname(os.path.abspath(path))
    counts: Counter[Key] = Counter()
    for file_path, signals, fingerprints in files:
        relative = os.path.relpath(os.path.abspath(file_path), folder).replace(os.sep, "/")
        for signal, print_ in zip(signals, fingerprints, strict=True):
            counts[(signal.rule_id, relative, print_)] += 1
    entries = [
        {"path": file_path, "rule": rule_id, "fingerprint": print_, "count": count}
        for (rule_id, file_path, print_), count in sorted(
            counts.items(), key=lambda item: (item[0][1], item[0][0], item[0][2])
        )
    ]
    document = {_FORMAT: BASELINE_VERSION, "entries": entries}
    # An unpredictable name, created exclusively and never through a symbolic link: a link planted
    # at a name known in advance would have the baseline written wherever it points.
    temporary = os.path.join(folder, f".{os.path.basename(path)}.{os.urandom(12).hex()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    created = False
    try:
        text = json.dumps(document, ensure_ascii=False, indent=1)
        # A file name that is not UTF-8 holds lone surrogates (os.fsdecode), which UTF-8 cannot
        # carry: written as \uXXXX escapes, the file is UTF-8 and the name reads back exactly,
        # so its signals stay known. Only a JSON string can hold one, and an escape is valid there.
        if not text.isascii():
            text = _LONE_SURROGATE.sub(lambda found: f"\\u{ord(found[0]):04x}", text)
        handle = os.open(temporary, flags, 0o666)  # the umask decides, as for any file the user writes
        created = True
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text + "\n")
        os.replace(temporary, path)
    except OSError as error:
        if created:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise BaselineError(f"cannot write baseline {path}: {error.strerror}") from None
    return sum(counts.values())
