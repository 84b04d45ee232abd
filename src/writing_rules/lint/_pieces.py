"""Scanning a whole file with the tool's scanner, whatever its length.

Files longer than ``PIECE_UNITS`` UTF-16 code units are cut into pieces (at blank
lines outside fenced code where possible, so context flags stay right), each piece
is read and scanned on its own (in worker processes when a pool's ``map`` is
given), and every position is mapped back to the whole file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from .._text_units import LINE_BREAK, utf16_length
from ..prose import read_prose
from ..tools import Signal, scan_signals
from ._engine import PIECE_UNITS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..packs import Pack

__all__ = ["DEFAULT_FRONT_MATTER_KEYS", "MapPieces", "Piece", "join_pieces", "scan_chosen", "split_points"]

MapPieces = Callable[[Callable[["Piece"], tuple[list[Signal], str | None]], list["Piece"]], Iterable[Any]]

DEFAULT_FRONT_MATTER_KEYS = ("title", "description")

_FENCE = re.compile(r"[ \t]{0,3}(```|~~~)")


def _fit(text: str, start: int, limit: int) -> int:
    """The largest end such that ``text[start:end]`` has at most ``limit`` UTF-16 units."""
    end = min(len(text), start + limit)
    while (excess := utf16_length(text[start:end]) - limit) > 0:
        end -= excess
    return end


def _cut(text: str, start: int, end: int) -> int:
    """Where to end a piece in ``text[start:end]``: the best boundary, latest first.

    Linear in the window: only its line breaks are visited (a regex that
    matched whole lines rescanned a window without a break from every position,
    4 minutes for one 250,000-character line).
    """
    window = text[start:end]
    blank_outside = blank_any = line_end = -1
    if max(window.rfind("\n"), window.rfind("\r")) >= 0:
        in_fence = False
        line_start = 0
        for match in LINE_BREAK.finditer(window):
            position = match.end()
            if text[start + position - 1] == "\r" and text[start + position : start + position + 1] == "\n":
                continue  # never part a CRLF
            if _FENCE.match(window, line_start):
                in_fence = not in_fence
            if not window[line_start : match.start()].strip():
                blank_any = position
                if not in_fence:
                    blank_outside = position
            line_end = position
            line_start = position
    for candidate in (blank_outside, blank_any, line_end):
        if candidate > 0:
            return start + candidate
    space = max(window.rfind(" "), window.rfind("\t"))
    if space >= 0:
        return start + space + 1
    # No boundary at all: a hard cut, but never inside a CRLF.
    if text[end - 1 : end] == "\r" and text[end : end + 1] == "\n" and end - 1 > start:
        return end - 1
    return end


def _fits(text: str, start: int, limit: int) -> bool:
    # Each character is one or two UTF-16 units: only a rest of at most ``limit``
    # characters can fit, so no step encodes more than one window.
    rest = len(text) - start
    return rest <= limit // 2 or (rest <= limit and utf16_length(text[start:]) <= limit)


def split_points(text: str, limit: int) -> list[int]:
    """Start offsets of pieces of at most ``limit`` UTF-16 units that cover ``text``."""
    starts = [0]
    start = 0
    while not _fits(text, start, limit):
        end = _fit(text, start, limit)
        # A limit below one character's width still makes progress.
        start = max(_cut(text, start, end), start + 1)
        starts.append(start)
    return starts


def _origins(text: str, starts: list[int]) -> list[tuple[int, int, int]]:
    """UTF-16 offset, line and column (1-based, code points) of each start, in one pass over ``text``."""
    origins = []
    utf16, line, line_start, previous = 0, 1, 0, 0
    for start in starts:
        segment = text[previous:start]
        utf16 += utf16_length(segment)
        for match in LINE_BREAK.finditer(segment):  # pieces never part a CRLF
            line += 1
            line_start = previous + match.end()
        origins.append((utf16, line, start - line_start + 1))
        previous = start
    return origins


def _shift(signal: Signal, offset: int, origin: tuple[int, int, int]) -> Signal:
    utf16, line, column = origin
    return signal._replace(
        start=signal.start + offset,
        end=signal.end + offset,
        utf16_start=signal.utf16_start + utf16,
        utf16_end=signal.utf16_end + utf16,
        column=signal.column + column - 1 if signal.line == 1 else signal.column,
        line=signal.line + line - 1,
    )


def join_pieces(text: str, starts: Sequence[int], pieces: Iterable[Iterable[Signal]]) -> list[Signal]:
    """The signals of the pieces of ``text`` that start at ``starts``, at their whole-text positions."""
    signals: list[Signal] = []
    for first, origin, piece in zip(starts, _origins(text, list(starts)), pieces, strict=True):
        signals.extend(_shift(signal, first, origin) for signal in piece)
    return signals


class Piece(NamedTuple):
    """One piece to scan, with what the scan needs: picklable, so a worker process can take it.

    ``packs`` travel as their references and digests (``lint._packs``), as in ``FileSettings``.
    """

    text: str
    language: str
    rule_ids: tuple[str, ...]
    markup: str
    front_matter_keys: tuple[str, ...] | None
    min_level: str | None
    code: bool
    packs: tuple[Pack, ...] = ()

    def __reduce__(self) -> Any:
        if not self.packs:
            return (Piece, tuple(self))
        from ._packs import pack_state

        return (_piece_with_packs, (tuple(self)[:-1], pack_state(self.packs)))


def _piece_with_packs(fields: tuple[Any, ...], state: tuple[tuple[str, str | None, str], ...]) -> Piece:
    from ._packs import packs_from_state

    return Piece._make((*fields, packs_from_state(state)))


def scan_piece(piece: Piece) -> tuple[list[Signal], str | None]:
    """The signals of one piece (positions within it) and the reader's note; runs in a worker."""
    view = read_prose(piece.text, piece.markup, front_matter_keys=piece.front_matter_keys)
    catalog = None
    if piece.packs:
        from ..packs import catalog_for

        catalog = catalog_for(piece.packs)
    found, _ = scan_signals(
        piece.text,
        piece.language,
        piece.rule_ids,
        len(piece.text) + 1,
        view=view,
        min_level=piece.min_level,
        code=piece.code,
        catalog=catalog,
    )
    return found, view.note


def scan_chosen(
    text: str,
    language: str,
    rule_ids: tuple[str, ...],
    *,
    limit: int = PIECE_UNITS,
    markup: str = "markdown",
    front_matter_keys: Sequence[str] | None = DEFAULT_FRONT_MATTER_KEYS,
    min_level: str | None = None,
    code: bool = True,
    map_pieces: MapPieces = map,
    packs: tuple[Pack, ...] = (),
) -> tuple[list[Signal], str | None]:
    """Every signal of ``text`` read as ``markup``, and why it was read as plain text (or None).

    ``language`` is ``"en"`` or ``"de"`` and ``rule_ids`` are known rules with
    signals in catalogue order (the settings give them so). The text is cut once,
    into pieces of at most ``limit`` UTF-16 units; each piece is read into its
    prose view (``writing_rules.prose``) and scanned over it by the tool's own
    scanner, without the 500-signal cap a model's call has. ``front_matter_keys``
    None: the text cannot open with front matter. ``map_pieces`` scans the pieces
    (a process pool's ``map`` spreads them). ``packs`` are scanned with the built-in rules
    (``rule_ids`` may name theirs).

    ``min_level`` and ``code=False`` leave out what the caller drops anyway: the
    patterns below that level and the code (see ``scan_text``).
    """
    starts = split_points(text, limit)
    keys = None if front_matter_keys is None else tuple(front_matter_keys)
    bounds = zip(starts, [*starts[1:], len(text)], strict=True)
    # Front matter can only open the text: later pieces are read without it.
    jobs = [
        Piece(text[first:end], language, rule_ids, markup, keys if first == 0 else None, min_level, code, packs)
        for first, end in bounds
    ]
    if len(jobs) == 1:
        signals, note = scan_piece(jobs[0])
        return signals, note
    outcomes = list(map_pieces(scan_piece, jobs))
    note = next((found_note for _, found_note in outcomes if found_note), None)
    return join_pieces(text, starts, (found for found, _ in outcomes)), note
