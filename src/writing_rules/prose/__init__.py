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

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    # One import per module, as in the map below; `X as X` re-exports X for mypy.
    # isort: off
    from ._markups import (
        FILE_TYPES as FILE_TYPES,
        MARKUPS as MARKUPS,
        FileType as FileType,
        markup_for_path as markup_for_path,
    )
    from ._reader import ProseError as ProseError, read_prose as read_prose
    from ._sentences import (
        Sentence as Sentence,
        iter_sentences as iter_sentences,
        long_sentences as long_sentences,
        over_limits as over_limits,
        sentences as sentences,
    )
    from ._structure import MAX_BONUS as MAX_BONUS, Structure as Structure, structure as structure
    from ._view import CODE_PLACEHOLDER as CODE_PLACEHOLDER, ProseView as ProseView, TextMap as TextMap
    # isort: on

# The names load on first use (PEP 562): the command line names a file's markup, and a run
# answered from the result cache never reads prose, so neither loads the readers. This is
# writing_rules._lazy_exports written out: the rule compiler loads this package alone, by path.
_MODULES = {
    "._markups": ("FILE_TYPES", "MARKUPS", "FileType", "markup_for_path"),
    "._reader": ("ProseError", "read_prose"),
    "._sentences": ("Sentence", "iter_sentences", "long_sentences", "over_limits", "sentences"),
    "._structure": ("MAX_BONUS", "Structure", "structure"),
    "._view": ("CODE_PLACEHOLDER", "ProseView", "TextMap"),
}
_HOMES = {name: module for module, names in _MODULES.items() for name in names}
__all__ = sorted(_HOMES)


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home, __name__), name)
    globals()[name] = value  # later reads skip this function
    return value


def __dir__() -> list[str]:
    return list(__all__)
