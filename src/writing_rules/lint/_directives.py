"""Inline suppression: ``writing-rules-*`` directives in comments.

Markdown, MDX and HTML use HTML comments (MDX also ``{/* ... */}``);
reStructuredText uses ``..`` comments::

    <!-- writing-rules-disable-next-line hedging, filler -->
    A sentence that might be too cautious.         <!-- writing-rules-disable-line hedging -->
    <!-- writing-rules-disable passive-voice --> ... <!-- writing-rules-enable passive-voice -->
    <!-- writing-rules-disable-file long-sentences -->
    .. writing-rules-disable-next-line hedging

Without rule ids a directive covers every rule. Text after `` -- `` is a
reason for the reader and is ignored. A signal belongs to the line it starts
on, so a multi-line signal is silenced by a directive for its first line.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from heapq import heappop, heappush
from typing import NamedTuple

from .._text_units import line_column, line_starts, lines_with_breaks
from ..prose import MARKUPS as PROSE_MARKUPS

# Directive and DirectiveProblem load when a text holds a directive-like comment: most texts
# hold none, and building the two dataclasses cost 0.8 ms of every start.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._catalog import Catalog
    from ..tools import Signal
    from ._directive_types import Directive, DirectiveProblem

__all__ = [
    "DIRECTIVE_KINDS",
    "Suppressions",
    "apply_suppressions",
    "comment_body",
    "comment_spans",
    "format_directive",
    "listed_rule_ids",
    "read_directives",
    "unused_suppressions",
]

PREFIX = "writing-rules-"
DIRECTIVE_KINDS = ("disable-next-line", "disable-line", "disable-file", "disable", "enable")

# Patterns as text, compiled by re on first use (and cached there): most texts hold no
# directive, so most scans never need them, and compiling them all cost 0.4 ms of every start.
_HTML_COMMENT = r"(?s)<!--(.*?)(?:-->|\Z)"
_MDX_COMMENT = r"(?s)\{/\*(.*?)(?:\*/\}|\Z)"
_RST_COMMENT = r"(?m)^[ \t]*\.\.[ \t]+(?!_|\[|\|)([^\n]*)$"
_FENCE = r"(?m)^[ \t]{0,3}(`{3,}|~{3,})"
_INLINE_CODE = r"(?s)(`+)(?:(?!\1).)+?\1"
_OPENERS = ("<!--", "{/*", "..")
_CLOSERS = ("-->", "*/}")
_SPLIT = r"[\s,]+"
_NOT_BREAK = r"[^\r\n]"
_PREFIX_ANYWHERE = "(?i)" + re.escape(PREFIX)


class Suppressions(NamedTuple):
    """The directives of one text, and the problems found reading them."""

    directives: tuple[Directive, ...] = ()
    problems: tuple[DirectiveProblem, ...] = ()


def _rules(catalog: Catalog | None) -> Catalog:
    """The rule data whose ids directives may name (a pack's too, with its catalogue)."""
    from .._catalog import rule_source  # only once a text holds a directive

    return rule_source(catalog)


def listed_rule_ids(rule_ids: Sequence[str], limit: int = 60) -> str:
    """Rule ids for a message: a big vocabulary pack must not make the message a page long."""
    shown = ", ".join(rule_ids[:limit])
    return shown if len(rule_ids) <= limit else f"{shown} and {len(rule_ids) - limit} more"


def format_directive(
    kind: str, rule_ids: Iterable[str] = (), markup: str = "markdown", *, catalog: Catalog | None = None
) -> str:
    """The comment text of a directive for ``markup`` (an editor's "disable for this line" action).

    ``<!-- writing-rules-disable-line hedging -->``; ``{/* ... */}`` for MDX,
    ``.. writing-rules-...`` for reStructuredText. ``ValueError`` for an
    unknown kind or rule id (``catalog``: the rules of the packs in force too).
    """
    if kind not in DIRECTIVE_KINDS:
        raise ValueError(f"unknown directive kind {kind!r}; kinds: {', '.join(DIRECTIVE_KINDS)}")
    ids = list(rule_ids)
    rules = _rules(catalog)
    unknown = [rule_id for rule_id in ids if rule_id not in rules.RULES]
    if unknown:
        raise ValueError(f"unknown rule id {unknown[0]!r}; rule ids: {listed_rule_ids(rules.RULE_IDS)}")
    body = PREFIX + kind + ("" if not ids else " " + ", ".join(ids))
    if markup == "rst":
        return f".. {body}"
    if markup == "mdx":
        return f"{{/* {body} */}}"
    return f"<!-- {body} -->"


def comment_spans(text: str, markup: str = "markdown") -> list[tuple[int, int]]:
    """Source spans of the comments that can hold directives.

    The prose reader (``writing_rules.prose``) decides what is markup, so a
    comment-like text inside code (a fenced or indented block, an inline code
    span, a literal block) or escaped in prose is no comment. In Markdown and
    HTML the comments are ``<!-- -->`` (MDX also ``{/* */}``); in
    reStructuredText ``..`` comments. Plain text has no markup: there, and
    when a reader falls back to plain text, a simple scan finds HTML comments
    outside fenced and inline code.
    """
    masked = _markup_only(text, markup)
    if masked is None:
        masked = _mask_code(text)
        markup = "markdown"
    if markup == "rst":
        return [match.span() for match in re.finditer(_RST_COMMENT, masked)]
    spans = [match.span() for match in re.finditer(_HTML_COMMENT, masked)]
    if markup == "mdx":
        spans.extend(match.span() for match in re.finditer(_MDX_COMMENT, masked))
        spans.sort()
    return spans


def _markup_only(text: str, markup: str) -> str | None:
    """``text`` with everything but its markup blanked (line breaks kept), or None for plain text."""
    if markup not in PROSE_MARKUPS or markup == "text":
        return None
    from ..prose import read_prose  # a text with a directive-like comment: the reader decides what is markup

    view = read_prose(text, markup)
    if view.note is not None:  # the reader gave up and read the text as plain text
        return None
    pieces = []
    position = 0
    for start, end in view.markup_spans:
        pieces.append(re.sub(_NOT_BREAK, " ", text[position:start]))
        pieces.append(text[start:end])
        position = end
    pieces.append(re.sub(_NOT_BREAK, " ", text[position:]))
    return "".join(pieces)


def _mask_code(text: str) -> str:
    """``text`` with fenced blocks and inline code blanked out (same length), so no comment is seen there."""
    chars = list(text)
    fence: str | None = None
    fence_start = 0
    position = 0
    for line in lines_with_breaks(text):
        opener = re.match(_FENCE, line)
        if fence is None and opener:
            fence, fence_start = opener.group(1), position
        elif fence is not None and opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
            chars[fence_start : position + len(line)] = " " * (position + len(line) - fence_start)
            fence = None
        position += len(line)
    if fence is not None:
        chars[fence_start:] = " " * (len(text) - fence_start)
    masked = "".join(chars)
    return re.sub(_INLINE_CODE, lambda match: " " * len(match.group()), masked)


def comment_body(comment: str) -> str:
    """The text of a comment without its white space, opener (``<!--``, ``{/*``, ``..``) and closer.

    String operations, linear in the comment: the pattern this replaces
    (``\\s*(?:<!--|…)?\\s*(.*?)\\s*(?:-->|…)?\\s*\\Z``) took cubic time in a run of white
    space inside the comment, and a page of a checkout could hang every scan of it.
    """
    body = comment.lstrip()
    for opener in _OPENERS:
        if body.startswith(opener):
            body = body[len(opener) :].lstrip()
            break
    body = body.rstrip()
    for closer in _CLOSERS:
        if body.endswith(closer):
            return body[: -len(closer)].rstrip()
    return body


def read_directives(
    text: str,
    markup: str = "markdown",
    comments: Iterable[tuple[int, int]] | None = None,
    *,
    catalog: Catalog | None = None,
) -> Suppressions:
    """The directives in ``text``.

    ``comments`` are the source spans of its comments (from a prose view);
    without them ``comment_spans`` finds them. An unknown directive word or
    rule id is a ``DirectiveProblem``, and that comment is not a directive.
    ``catalog`` (``writing_rules.packs.catalog_for``) makes the rules of the
    packs in force known; None knows the built-in rules.
    """
    # Plain substring tests first: they cost far less than a case-blind search of every text.
    maybe = "-rules-" in text or "-Rules-" in text or "-RULES-" in text
    if comments is None and (not maybe or re.search(_PREFIX_ANYWHERE, text) is None):
        return Suppressions()  # the common case: no directive at all, no comment scan needed
    spans = comment_spans(text, markup) if comments is None else sorted(comments)
    from ._directive_types import Directive, DirectiveProblem

    starts = line_starts(text)
    directives: list[Directive] = []
    problems: list[DirectiveProblem] = []
    for start, end in spans:
        body = comment_body(text[start:end])
        if not body.lower().startswith(PREFIX):
            continue
        line, column = line_column(starts, start)
        end_line, _ = line_column(starts, max(start, end - 1))
        body = body.split(" -- ", 1)[0]
        token = body.split(maxsplit=1)[0]
        rest = body[len(token) :]
        kind = token[len(PREFIX) :]
        if kind not in DIRECTIVE_KINDS:
            import difflib  # only for a mistyped directive

            close = difflib.get_close_matches(kind, DIRECTIVE_KINDS, n=1)
            hint = f" (did you mean {PREFIX + close[0]!r}?)" if close else ""
            problems.append(
                DirectiveProblem(
                    line,
                    column,
                    f"unknown directive {token!r}{hint}; valid: {', '.join(PREFIX + k for k in DIRECTIVE_KINDS)}",
                )
            )
            continue
        ids = tuple(rule_id for rule_id in re.split(_SPLIT, rest.strip()) if rule_id)
        rules = _rules(catalog)
        unknown = [rule_id for rule_id in ids if rule_id not in rules.RULES]
        if unknown:
            import difflib  # only for an unknown id

            near = difflib.get_close_matches(unknown[0][:200], rules.RULE_IDS, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            problems.append(
                DirectiveProblem(
                    line,
                    column,
                    f"unknown rule id {unknown[0]!r} in {PREFIX}{kind}{hint}; "
                    f"valid rule ids: {listed_rule_ids(rules.RULE_IDS)}",
                )
            )
            continue
        next_line = _next_line_with_text(text, starts, end_line) if kind == "disable-next-line" else 0
        directives.append(Directive(kind, ids, start, end, line, end_line, column, next_line))
    return Suppressions(tuple(directives), tuple(problems))


def _next_line_with_text(text: str, starts: list[int], line: int) -> int:
    """The first line after ``line`` (1-based) that is not blank; the line after it if none is."""
    candidate = line + 1
    while candidate <= len(starts):
        begin = starts[candidate - 1]
        finish = starts[candidate] if candidate < len(starts) else len(text)
        if text[begin:finish].strip():
            return candidate
        candidate += 1
    return line + 1


# Named tuples, not dataclasses: building a dataclass costs about 0.3 ms of every start.
class _Region(NamedTuple):
    """``[start, end)`` where ``directive`` (a ``disable``) holds ``rules`` (None: every rule)."""

    directive: Directive
    rules: frozenset[str] | None
    start: int
    end: int
    # (index of the enable that ends it, or the number of directives when none does; index of the
    # disable): the order 0.7.0 searched its regions in, so the same disable is credited with a signal.
    key: tuple[int, int]


class _Shared(NamedTuple):
    """``[start, end)`` after the enable at ``opened``: the rule-less disables still open there, together."""

    start: int
    end: int
    closing: int  # the index of the enable that ends it (the number of directives when none does)
    opened: int  # the index of the enable it starts after


class _Regions(NamedTuple):
    """A text's ``disable`` ... ``enable`` ranges, and the directive indices that find a signal's in ``_Shared``."""

    directives: tuple[Directive, ...]
    regions: list[_Region]
    shared: list[_Shared]
    rule_less: list[int]  # the indices of the disables without rule ids
    kills: dict[str, list[int]]  # per rule id, the indices of the enables that name it
    all_kills: list[int]  # the indices of the enables without rule ids


def _regions(suppressions: Suppressions, text_length: int) -> _Regions:
    """Offset ranges where a ``disable`` is in force, closed by ``enable`` or the end of the text.

    A disable of named rules is cut by each enable naming one of the rules it still holds, and ends
    with the last; a rule-less disable is cut by every enable (for the rest of its range the rules
    enabled are no longer held) and ends with a rule-less one. After an enable the rule-less disables
    still open share one range (``_Shared``) instead of one each: their number times the enables'
    was the regions' count, and looking at every open one for each enable their product too.
    A region found first for a signal is the one with the lowest ``key``: (its enable, its disable).
    """
    directives = suppressions.directives
    regions: list[_Region] = []
    shared: list[_Shared] = []
    rule_less: list[int] = []
    kills: dict[str, list[int]] = {}
    all_kills: list[int] = []
    open_named: dict[int, tuple[frozenset[str], int]] = {}  # disable index: (rules still held, start)
    open_by_rule: dict[str, set[int]] = {}  # rule id: the open named disables holding it
    unbroken: list[int] = []  # rule-less disables since the last enable
    reopened: int | None = None  # the enable after which rule-less disables are still open
    for index, directive in enumerate(directives):
        if directive.kind == "disable":
            if directive.rule_ids:
                rules = frozenset(directive.rule_ids)
                open_named[index] = (rules, directive.end)
                for rule_id in rules:
                    open_by_rule.setdefault(rule_id, set()).add(index)
            else:
                rule_less.append(index)
                unbroken.append(index)
        elif directive.kind == "enable":
            for j in unbroken:
                regions.append(_Region(directives[j], None, directives[j].end, directive.start, (index, j)))
            if reopened is not None:
                shared.append(_Shared(directives[reopened].end, directive.start, index, reopened))
            any_rule_less = reopened is not None or bool(unbroken)
            unbroken = []
            if directive.rule_ids:
                enabled = frozenset(directive.rule_ids)
                reopened = index if any_rule_less else None
                cut: set[int] = set()
                for rule_id in enabled:
                    kills.setdefault(rule_id, []).append(index)
                    cut.update(open_by_rule.pop(rule_id, ()))
                for j in sorted(cut):
                    rules, start = open_named.pop(j)
                    regions.append(_Region(directives[j], rules, start, directive.start, (index, j)))
                    rest = rules - enabled
                    if rest:
                        open_named[j] = (rest, directive.end)
            else:
                all_kills.append(index)
                reopened = None
                for j, (rules, start) in sorted(open_named.items()):
                    regions.append(_Region(directives[j], rules, start, directive.start, (index, j)))
                open_named.clear()
                open_by_rule.clear()
    end = len(directives)
    for j in unbroken:
        regions.append(_Region(directives[j], None, directives[j].end, text_length, (end, j)))
    if reopened is not None:
        shared.append(_Shared(directives[reopened].end, text_length, end, reopened))
    for j, (rules, start) in sorted(open_named.items()):
        regions.append(_Region(directives[j], rules, start, text_length, (end, j)))
    return _Regions(directives, regions, shared, rule_less, kills, all_kills)


def _covers(directive_rules: Iterable[str] | None, rule_id: str) -> bool:
    return directive_rules is None or rule_id in directive_rules


def apply_suppressions(
    signals: Iterable[Signal], suppressions: Suppressions, text_length: int
) -> tuple[list[Signal], dict[Directive, set[str]]]:
    """The signals no directive silences, and for each directive the rule ids it silenced."""
    used: dict[Directive, set[str]] = {}
    if not suppressions.directives:
        return list(signals), used
    by_line: dict[int, list[Directive]] = {}
    whole_file: list[Directive] = []
    for directive in suppressions.directives:
        if directive.kind == "disable-next-line":
            by_line.setdefault(directive.next_line or directive.end_line + 1, []).append(directive)
        elif directive.kind == "disable-line":
            by_line.setdefault(directive.line, []).append(directive)
        elif directive.kind == "disable-file":
            whole_file.append(directive)
    regions = _regions(suppressions, text_length)
    signals = list(signals)
    in_regions = _region_silencers(signals, regions)
    # The first directive of whole_file + the line's that covers a rule, found once per line and rule.
    first_in_file: dict[str, Directive | None] = {}
    first_on_line: dict[tuple[int, str], Directive | None] = {}
    kept = []
    for signal, in_region in zip(signals, in_regions, strict=True):
        rule_id = signal.rule_id
        key = (signal.line, rule_id)
        if key in first_on_line:
            silencer = first_on_line[key]
        else:
            if rule_id not in first_in_file:
                first_in_file[rule_id] = _first_covering(whole_file, rule_id)
            silencer = first_in_file[rule_id] or _first_covering(by_line.get(signal.line, ()), rule_id)
            first_on_line[key] = silencer
        if silencer is None:
            silencer = in_region
        if silencer is None:
            kept.append(signal)
        else:
            used.setdefault(silencer, set()).add(rule_id)
    return kept, used


def _first_covering(directives: Sequence[Directive], rule_id: str) -> Directive | None:
    for directive in directives:
        if _covers(directive.rule_ids or None, rule_id):
            return directive
    return None


def _region_silencers(signals: Sequence[Signal], regions: _Regions) -> list[Directive | None]:
    """For each signal, the disable of the first region (lowest key) that holds it and covers its rule.

    Per rule, the signals in text order meet the regions in order of their start; a heap keeps the
    regions begun, by their key, and drops those ended. Looking through every region for each signal
    took time growing with their product (minutes on a page of many).
    """
    found: list[Directive | None] = [None] * len(signals)
    if not regions.regions and not regions.shared:
        return found
    by_rule: dict[str, list[int]] = {}
    for position in sorted(range(len(signals)), key=lambda k: signals[k].start):
        by_rule.setdefault(signals[position].rule_id, []).append(position)
    covering: dict[str, list[tuple[int, int, tuple[int, int], Directive]]] = {rule_id: [] for rule_id in by_rule}
    for region in regions.regions:
        entry = (region.start, region.end, region.key, region.directive)
        if region.rules is None:
            for entries in covering.values():
                entries.append(entry)
        elif len(region.rules) < len(covering):
            for rule_id in region.rules:
                if rule_id in covering:
                    covering[rule_id].append(entry)
        else:
            for rule_id, entries in covering.items():
                if rule_id in region.rules:
                    entries.append(entry)
    if regions.shared:
        for rule_id, entries in covering.items():
            named = regions.kills.get(rule_id, [])
            for part in regions.shared:
                # The first rule-less disable open after the enable at ``opened`` that no enable since
                # named this rule: enables up to ``opened`` naming it, or naming none, end its hold.
                last_kill = max(_last_at_most(named, part.opened), _last_at_most(regions.all_kills, part.opened))
                first = bisect_right(regions.rule_less, last_kill)
                if first < len(regions.rule_less) and regions.rule_less[first] < part.opened:
                    j = regions.rule_less[first]
                    entries.append((part.start, part.end, (part.closing, j), regions.directives[j]))
    for rule_id, positions in by_rule.items():
        entries = covering[rule_id]
        entries.sort(key=lambda entry: entry[0])
        begun: list[tuple[tuple[int, int], int, Directive]] = []
        next_entry = 0
        for position in positions:
            at = signals[position].start
            while next_entry < len(entries) and entries[next_entry][0] <= at:
                _, end, key, directive = entries[next_entry]
                heappush(begun, (key, end, directive))
                next_entry += 1
            while begun and begun[0][1] <= at:
                heappop(begun)  # ended before this signal, so before every later one
            if begun:
                found[position] = begun[0][2]
    return found


def _last_at_most(indices: Sequence[int], limit: int) -> int:
    """The last of the sorted ``indices`` at most ``limit``; -1 if none is."""
    found = bisect_right(indices, limit)
    return indices[found - 1] if found else -1


def unused_suppressions(suppressions: Suppressions, used: Mapping[Directive, set[str]]) -> list[tuple[Directive, str]]:
    """Directives (other than ``enable``) that silenced nothing, with a message for each."""
    unused = []
    for directive in suppressions.directives:
        if directive.kind == "enable":
            continue
        silenced = used.get(directive, set())
        if not directive.rule_ids:
            if not silenced:
                unused.append((directive, f"{PREFIX}{directive.kind} silenced nothing"))
            continue
        idle = [rule_id for rule_id in directive.rule_ids if rule_id not in silenced]
        if idle:
            unused.append((directive, f"{PREFIX}{directive.kind} {', '.join(idle)} silenced nothing"))
    return unused
