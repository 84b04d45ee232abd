"""Documents read as a reader sees them: Markdown/MDX, reStructuredText, HTML and plain text.

``read_prose(source, markup)`` returns a :class:`ProseView`: the prose of the
document (what a reader reads, with code and markup left out) and an exact map
from every prose character back to the source, plus the document's code as a
separate text. The scanner runs its patterns over the prose and reports source
positions; ``sentences`` splits the prose into sentences and counts their
visible words. No dependencies; linear time on any input.
"""

from __future__ import annotations

from importlib import import_module

__all__ = [
    "CODE_PLACEHOLDER",
    "FILE_TYPES",
    "MARKUPS",
    "MAX_BONUS",
    "FileType",
    "ProseError",
    "ProseView",
    "Sentence",
    "Structure",
    "TextMap",
    "iter_sentences",
    "long_sentences",
    "markup_for_path",
    "over_limits",
    "read_prose",
    "sentences",
    "structure",
]

# The names load on first use (PEP 562): the command line names a file's markup, and a run
# answered from the result cache never reads prose, so neither loads the readers. (The rule
# compiler loads this package alone, by path, so it cannot use the package's lazy_exports.)
_HOMES = {
    "MARKUPS": "._markups",
    "FILE_TYPES": "._markups",
    "FileType": "._markups",
    "markup_for_path": "._markups",
    "ProseError": "._reader",
    "read_prose": "._reader",
    "Sentence": "._sentences",
    "iter_sentences": "._sentences",
    "long_sentences": "._sentences",
    "sentences": "._sentences",
    "over_limits": "._sentences",
    "Structure": "._structure",
    "MAX_BONUS": "._structure",
    "structure": "._structure",
    "CODE_PLACEHOLDER": "._view",
    "ProseView": "._view",
    "TextMap": "._view",
}

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from ._markups import FILE_TYPES, MARKUPS, FileType, markup_for_path
    from ._reader import ProseError, read_prose
    from ._sentences import Sentence, iter_sentences, long_sentences, over_limits, sentences
    from ._structure import MAX_BONUS, Structure, structure
    from ._view import CODE_PLACEHOLDER, ProseView, TextMap


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home, __name__), name)
    globals()[name] = value  # later reads skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
