"""One file's signals as the team wants them: configuration filters, then inline directives."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..prose import markup_for_path
from ._config import FileSettings, filter_signals
from ._directives import apply_suppressions, read_directives, unused_suppressions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..tools import Signal
    from ._directive_types import DirectiveProblem

__all__ = ["LintedText", "lint_signals", "markup_for"]


def markup_for(path: str, settings: FileSettings | None = None) -> str:
    """The markup of ``path``: the setting when it is not ``auto``, else by extension, as the prose reader names it."""
    if settings is not None and settings.markup != "auto":
        return settings.markup
    return markup_for_path(path)


class LintedText(NamedTuple):
    """The signals left after configuration and directives, and what the directives did.

    ``unused`` holds (line, column, message) of directives that silenced
    nothing; ``fingerprints`` (when asked for) has one baseline fingerprint
    per kept signal.
    """

    signals: tuple[Signal, ...]
    filtered: int
    suppressed: int
    problems: tuple[DirectiveProblem, ...]
    unused: tuple[tuple[int, int, str], ...]
    fingerprints: tuple[str, ...] | None = None


def lint_signals(
    text: str,
    signals: Sequence[Signal],
    settings: FileSettings,
    markup: str,
    *,
    comments: Iterable[tuple[int, int]] | None = None,
    fingerprints: bool = False,
) -> LintedText:
    """Apply ``settings`` (disabled rules, ``min-level``, ``accept``) and the text's directives.

    ``comments`` are the text's comment spans when a prose view has them; a
    simple scan finds them otherwise.
    """
    wanted = filter_signals(signals, text, settings)
    directives = read_directives(text, "mdx" if markup == "mdx" else markup, comments, catalog=settings.catalog)
    kept, used = apply_suppressions(wanted, directives, len(text))
    unused = tuple(
        (directive.line, directive.column, message) for directive, message in unused_suppressions(directives, used)
    )
    prints = None
    if fingerprints:  # only for a baseline: its sentence hashing loads with it
        from ._sentences import fingerprint

        prints = tuple(fingerprint(text, signal) for signal in kept)
    return LintedText(
        signals=tuple(kept),
        filtered=len(signals) - len(wanted),
        suppressed=len(wanted) - len(kept),
        problems=directives.problems,
        unused=unused,
        fingerprints=prints,
    )
