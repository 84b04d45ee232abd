"""A document as a reader sees it, for the HTML report: blocks of shown text, each character mapped to its source.

Built on the prose view (``writing_rules.prose``): each prose block (a line of
``ProseView.text``) becomes a heading, paragraph, list item, quote or table
cell; each code block becomes a code block; an inline code span shows its
code. Every shown character keeps the source span it came from, so a hit's
source span finds its place in the shown text. Linear in the document's size.

reStructuredText roles that the prose view leaves out (a cross-reference such
as ``:pep:`729``` or ``:ref:`label```, which Sphinx shows by its target's
title) are not prose to scan, but a reader sees them: the view shows them as
Sphinx would label them (``PEP 729``), each character mapped to the whole role.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from ..prose import CODE_PLACEHOLDER, ProseView, TextMap, read_prose

__all__ = ["Block", "reader_blocks"]

# What stands before a block's first character on its source line says what the block is.
_LIST_ITEM = re.compile(r"[ \t>]*(?:[-+*]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?$")
_QUOTE = re.compile(r"[ \t]*>")
# An interpreted-text role with its text: :pep:`729`, :ref:`Title <label>`, :class:`~a.B`.
_ROLE = re.compile(r":([\w:.+-]{1,64}):`([^`\n]{1,500}(?:\n[^`\n]{1,500}){0,8})`_{0,2}")
_NUMBERED = {"pep": "PEP", "rfc": "RFC"}


def _role_label(role: str, body: str) -> str:
    """What Sphinx shows for a role: its title, else ``PEP n`` / ``RFC n``, else its target's last part."""
    body = " ".join(body.split())
    target = body.rfind("<")
    if target > 0 and body.endswith(">"):
        return body[:target].strip()
    name = role.split(":")[-1]
    if name in _NUMBERED:
        return f"{_NUMBERED[name]} {body.split('#')[0].strip()}"
    body = body.lstrip("!")
    return body[1:].rsplit(".", 1)[-1] if body.startswith("~") else body


def _sphinx_shown(
    source: str, span_start: int, piece: tuple[str, list[int], list[int]]
) -> tuple[str, list[int], list[int]]:
    """A code role's text as Sphinx shows it: ``~a.b.C`` as ``C``, ``!name`` as ``name``."""
    content, starts, ends = piece
    if source[span_start : span_start + 1] != ":":
        return piece  # a literal (``x``), not a role
    cut = 0
    if content.startswith("!"):
        cut = 1
    elif content.startswith("~"):
        cut = max(1, content.rfind(".") + 1)
    return (content[cut:], starts[cut:], ends[cut:]) if content[cut:] else piece


def _dropped_roles(view: ProseView, starts: list[int], ends: list[int]) -> list[tuple[int, int, str]]:
    """Roles of which the prose and code views show no character: (source start, source end, label)."""
    # A line break the view adds has an empty span where the role was: it shows nothing of it.
    shown = sorted(start for start, end in zip(starts, ends, strict=True) if end > start)
    code_starts = sorted(start for start, _ in view.code_spans)
    dropped = []
    for found in _ROLE.finditer(view.source):
        start, end = found.span()
        if bisect_left(shown, end) > bisect_left(shown, start):
            continue  # some of it is prose (a text role, a title)
        if bisect_left(code_starts, end) > bisect_left(code_starts, start):
            continue  # a code role: shown as code
        label = _role_label(found.group(1), found.group(2))
        if label:
            dropped.append((start, end, label))
    return dropped


@dataclass(frozen=True)
class Block:
    """One block as shown: ``kind`` (heading, paragraph, item, quote, cell, code), its text and source spans."""

    kind: str
    text: str
    starts: tuple[int, ...]  # source offset where each shown character begins
    ends: tuple[int, ...]  # and where it ends
    row: int  # source offset of the block's line: the cells of one table row share it


def _char_spans(text: str, text_map: TextMap) -> tuple[list[int], list[int]]:
    size = len(text)
    starts, ends = [0] * size, [0] * size
    segments = text_map.starts
    for k, first in enumerate(segments):
        last = segments[k + 1] if k + 1 < len(segments) else size
        if text_map.copied[k]:
            base = text_map.source_starts[k] - first
            for p in range(first, last):
                starts[p], ends[p] = base + p, base + p + 1
        else:
            for p in range(first, last):
                starts[p], ends[p] = text_map.source_starts[k], text_map.source_ends[k]
    return starts, ends


def _code_pieces(view: ProseView) -> dict[int, tuple[str, list[int], list[int]]]:
    """The code shown for each code span, keyed by the span's source start."""
    code = view.code_text
    starts, ends = _char_spans(code, view.code_map)
    pieces: dict[int, tuple[str, list[int], list[int]]] = {}
    p = 0
    for span_start, span_end in view.code_spans:
        while p < len(code) and starts[p] < span_start:
            p += 1
        first = p
        while p < len(code) and starts[p] < span_end:
            p += 1
        last = p
        while last > first and code[last - 1] == "\n":
            last -= 1
        pieces[span_start] = (code[first:last], starts[first:last], ends[first:last])
    return pieces


def _kind(view: ProseView, offset: int, source_start: int, source_end: int) -> tuple[str, int]:
    source = view.source
    line = max(source.rfind("\n", 0, source_start), source.rfind("\r", 0, source_start)) + 1
    if view.is_heading(offset):
        return "heading", line
    if view.markup not in ("markdown", "mdx"):
        return "paragraph", line
    before = source[line:source_start]
    line_end = source.find("\n", source_end)
    after = source[source_end : len(source) if line_end < 0 else line_end].strip()
    if before.rstrip().endswith("|") or after.startswith("|"):
        return "cell", line
    if _LIST_ITEM.match(before):
        return "item", line
    if _QUOTE.match(before):
        return "quote", line
    return "paragraph", line


def reader_blocks(source: str, markup: str) -> list[Block]:
    """The blocks of ``source`` read as ``markup``, in source order."""
    view = read_prose(source, markup)
    text = view.text
    starts, ends = _char_spans(text, view.prose_map)
    code = _code_pieces(view)
    roles: list[tuple[int, int, str]] = []
    if markup == "rst":
        roles = _dropped_roles(view, starts, ends)
        code = {start: _sphinx_shown(source, start, piece) for start, piece in code.items()}
    next_role = 0
    inline: set[int] = set()
    blocks: list[Block] = []
    first = 0
    while first < len(text):
        cut = text.find("\n", first)
        last = len(text) if cut < 0 else cut
        shown: list[str] = []
        shown_starts: list[int] = []
        shown_ends: list[int] = []
        if roles and first < last:
            # Roles before this block: their own blocks, unless on the line the block starts on.
            while next_role < len(roles) and roles[next_role][0] < starts[first]:
                start, end, label = roles[next_role]
                if source.find("\n", end, starts[first]) >= 0:  # no slice: a role far ahead is not copied
                    blocks.append(Block("paragraph", label, (start,) * len(label), (end,) * len(label), start))
                else:
                    shown.append(label)
                    shown_starts.extend((start,) * len(label))
                    shown_ends.extend((end,) * len(label))
                next_role += 1
        for p in range(first, last):
            while next_role < len(roles) and p > first and roles[next_role][0] < starts[p]:
                start, end, label = roles[next_role]
                shown.append(label)
                shown_starts.extend((start,) * len(label))
                shown_ends.extend((end,) * len(label))
                next_role += 1
            piece = code.get(starts[p]) if text[p] == CODE_PLACEHOLDER else None
            if piece is not None and piece[0]:
                inline.add(starts[p])
                shown.append(piece[0])
                shown_starts.extend(piece[1])
                shown_ends.extend(piece[2])
            else:
                shown.append(text[p])
                shown_starts.append(starts[p])
                shown_ends.append(ends[p])
        if roles and first < last:
            # Roles after the block's last character on its last line end the block.
            while next_role < len(roles) and source.find("\n", ends[last - 1], roles[next_role][0]) < 0:
                start, end, label = roles[next_role]
                shown.append(label)
                shown_starts.extend((start,) * len(label))
                shown_ends.extend((end,) * len(label))
                next_role += 1
        joined = "".join(shown)
        if joined.strip():
            kind, row = _kind(view, first, starts[first], ends[last - 1]) if first < last else ("paragraph", first)
            blocks.append(Block(kind, joined, tuple(shown_starts), tuple(shown_ends), row))
        first = last + 1
    for start, end, label in roles[next_role:]:
        blocks.append(Block("paragraph", label, (start,) * len(label), (end,) * len(label), start))
    for span_start, (content, code_starts, code_ends) in code.items():
        if span_start not in inline and content.strip():
            blocks.append(Block("code", content, tuple(code_starts), tuple(code_ends), span_start))
    blocks.sort(key=lambda block: block.starts[0])
    return blocks
