"""Rendering scan results: compiler-style text, JSON, SARIF 2.1.0 and the HTML report."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any

from .. import __version__
from .._lazy_rules import rule_data as data
from .._text_units import LINE_BREAK
from ._escape import escape_controls
from ._scan import STDIN_NAME, FileScan

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._catalog import Catalog
    from .._rules_runtime import Rule, RuleText
    from ..tools import Signal

# json loads with the formats that need it (the text report only for an unusual match): a scan
# with --no-cache and the text report then never imports it (about 1 ms of start-up).

__all__ = ["FORMATS", "RuleBook", "render_github", "render_html_report", "render_json", "render_sarif", "render_text"]

FORMATS = ("text", "json", "sarif", "html", "github")
_SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_INFORMATION_URI = "https://pypi.org/project/writing-rules/"
_SARIF_LEVELS = {"error": "error", "warning": "warning", "suggestion": "note"}
# --report-unused-suppressions lists directives that silenced nothing under this id in every format.
UNUSED_SUPPRESSION = "unused-suppression"
_UNUSED_TITLE = "A writing-rules directive that silenced nothing"


class RuleBook:
    """The rules a run's reports name: the built-in ones, and those of every pack a file was scanned with.

    Files under different configurations may use different packs; a report names
    each rule with the texts of the catalogue that has it.
    """

    def __init__(self, catalogs: Sequence[Catalog | None] = ()) -> None:
        unique: dict[int, Catalog] = {}
        for catalog in catalogs:
            if catalog is not None:
                unique.setdefault(id(catalog), catalog)
        self._catalogs = tuple(unique.values())

    def _home(self, rule_id: str) -> Catalog | None:
        """The pack catalogue holding ``rule_id``; None for a built-in rule (or an unknown id)."""
        if rule_id in data.RULES:
            return None
        for catalog in self._catalogs:
            if rule_id in catalog.RULES:
                return catalog
        return None

    def rule(self, rule_id: str) -> Rule | None:
        home = self._home(rule_id)
        return data.RULES.get(rule_id) if home is None else home.RULES[rule_id]

    def rule_ids(self) -> list[str]:
        """Every known rule id in catalogue order: the built-in ones, then the packs' in the order met."""
        ids = list(data.RULE_IDS)
        seen = set(ids)
        for catalog in self._catalogs:
            for rule_id in catalog.RULE_IDS:
                if rule_id not in seen:
                    seen.add(rule_id)
                    ids.append(rule_id)
        return ids

    def texts(self, rule_id: str, language: str | None) -> RuleText | None:
        """The rule's texts in ``language``, else in a language it has (a pack may have one only)."""
        rule = self.rule(rule_id)
        if rule is None:
            return None
        texts = rule.texts
        return texts.get(language or "en") or texts.get("en") or next(iter(texts.values()), None)

    def title(self, rule_id: str, language: str | None) -> str:
        text = self.texts(rule_id, language)
        return rule_id if text is None else text.title

    def message(self, signal: Signal, language: str | None) -> str:
        """What a report says of one hit: the signal's own message (a pack's, ``%s`` the hit), else the title."""
        home = self._home(signal.rule_id)
        if home is not None:
            message = home.SIGNAL_MESSAGES.get((signal.rule_id, signal.signal_id))
            if message:
                return message.replace("%s", signal.match)
        return self.title(signal.rule_id, language)

    @property
    def catalog(self) -> Catalog | None:
        """One catalogue for a report that takes one (the HTML report): the first set of packs met."""
        return self._catalogs[0] if self._catalogs else None

    def level(self, rule_id: str, signal_id: str | None) -> str:
        from ..lint import signal_level

        return signal_level(rule_id, signal_id, catalog=self._home(rule_id))


_BUILTIN_ONLY = RuleBook()


def _unused(result: FileScan) -> list[dict[str, Any]]:
    return list(result.data.get("unusedSuppressions", ())) if result.data is not None else []


def _scanned(results: Sequence[FileScan]) -> list[FileScan]:
    return [result for result in results if result.data is not None]


def _signals(result: FileScan) -> tuple[Signal, ...]:
    """A scanned file's signals, typed (the JSON format writes the wire objects of ``data``)."""
    assert result.lint is not None
    return result.lint.signals


def _quoted(text: str) -> str:
    """``json.dumps(text, ensure_ascii=False)``, without the call for the common printable text."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    import json

    return json.dumps(text, ensure_ascii=False)


def render_text(results: Sequence[FileScan], rules: RuleBook = _BUILTIN_ONLY) -> str:
    """``path:line:column: rule-id: "match" title``, one line per signal (JSON and SARIF carry the level).

    A pack's signal with its own message shows the message instead of the title.
    """
    lines = []
    titles: dict[tuple[str, str | None], str] = {}
    for result in _scanned(results):
        for signal in _signals(result):
            match = _quoted(signal.match)
            key = (signal.rule_id, result.language)
            title = titles.get(key) or titles.setdefault(key, rules.title(*key))
            if signal.rule_id not in data.RULES:
                title = rules.message(signal, result.language)
            code = " (in code)" if signal.in_code else ""
            lines.append(f"{result.path}:{signal.line}:{signal.column}: {signal.rule_id}: {match} {title}{code}")
        for entry in _unused(result):
            lines.append(f"{result.path}:{entry['line']}:{entry['column']}: {UNUSED_SUPPRESSION}: {entry['message']}")
    # A file name or a match may hold line breaks or bidirectional controls: one line stays one line.
    return "".join(escape_controls(line) + "\n" for line in lines)


_GITHUB_COMMANDS = {"error": "error", "warning": "warning", "suggestion": "notice"}


def _github_escape(value: str, *, property_: bool) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


_MATCH_SHOWN = 60  # a longer match (long-sentences: a whole sentence) is shown by its start
EXCERPT_LIMIT = 200  # characters of the sentence an annotation quotes around its match


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def sentence_excerpt(text: str, start: int, end: int, limit: int = EXCERPT_LIMIT) -> str:
    """The sentence around ``text[start:end]`` on one line, cut to ``limit`` characters around the match.

    White space (line breaks included) becomes single spaces; a cut end is marked ``…``.
    """
    from ..lint import sentence_span

    first, last = sentence_span(text, start, end)
    before, match, after = (" ".join(text[a:b].split()) for a, b in ((first, start), (start, end), (end, last)))
    # One space stays where the text had white space next to the match.
    if before and text[start - 1 : start].isspace():
        before += " "
    if after and text[end : end + 1].isspace():
        after = " " + after
    room = limit - len(match)
    if room <= 2:
        return _shorten(match, limit)
    # Keep about a third of the room before the match: a reader needs more of what follows.
    keep_before = min(len(before), max(room // 3, room - len(after)))
    keep_after = room - keep_before
    if keep_before < len(before):
        before = "…" + before[len(before) - keep_before + 1 :].lstrip()
    if keep_after < len(after):
        after = after[: keep_after - 1].rstrip() + "…"
    return before + match + after


def render_github(results: Sequence[FileScan], rules: RuleBook = _BUILTIN_ONLY) -> str:
    """GitHub Actions workflow commands, one annotation per signal (``::warning file=…,line=…::…``).

    Rule levels choose the command: error, warning, or notice for suggestions. Each
    annotation is one line: the matched text, the rule title and, when the text is at
    hand, the sentence around the match (at most ``EXCERPT_LIMIT`` characters).
    """
    import json

    lines = []
    for result in _scanned(results):
        path = _uri(result.path)
        for signal in _signals(result):
            end_line, end_column = _end(signal)
            command = _GITHUB_COMMANDS.get(rules.level(signal.rule_id, signal.signal_id), "warning")
            title = rules.title(signal.rule_id, result.language)
            properties = ",".join(
                f"{name}={_github_escape(str(value), property_=True)}"
                for name, value in (
                    ("file", path),
                    ("line", signal.line),
                    ("endLine", end_line),
                    ("col", signal.column),
                    ("endColumn", end_column),
                    ("title", f"{signal.rule_id}: {title}"),
                )
            )
            shown = _shorten(" ".join(signal.match.split()) or signal.match, _MATCH_SHOWN)
            said = title if signal.rule_id in data.RULES else rules.message(signal, result.language)
            message = f"{json.dumps(shown, ensure_ascii=False)}: {said}"
            if result.text is not None and len(signal.match) <= _MATCH_SHOWN:
                message += f" | {sentence_excerpt(result.text, signal.start, signal.end)}"
            lines.append(f"::{command} {properties}::{_github_escape(message, property_=False)}")
        for entry in _unused(result):
            properties = ",".join(
                f"{name}={_github_escape(str(value), property_=True)}"
                for name, value in (
                    ("file", path),
                    ("line", entry["line"]),
                    ("col", entry["column"]),
                    ("title", UNUSED_SUPPRESSION),
                )
            )
            lines.append(f"::warning {properties}::{_github_escape(entry['message'], property_=False)}")
    return "".join(line + "\n" for line in lines)


def render_json(results: Sequence[FileScan]) -> str:
    """A list with one object per scanned file: the tool's ``data`` plus ``path`` and ``language``."""
    return "".join(iter_json(results))


_PIECE = 1 << 16  # characters of JSON written at once


def iter_json(results: Sequence[FileScan]) -> Iterator[str]:
    """``render_json`` in pieces, file by file, so a large report is never held as one string."""
    import json

    encoder = json.JSONEncoder(ensure_ascii=False, indent=2)
    first = True
    for result in results:
        if result.data is None:
            continue
        # The encoder's tokens are joined into pieces of about _PIECE characters: a write per
        # token cost more than the encoding (the writer cleans each write, see _commands).
        pieces = ["[\n  " if first else ",\n  "]
        size = 0
        first = False
        # One level deeper than the list; a JSON string never holds a raw line break.
        for part in encoder.iterencode({**result.data, "path": result.path, "language": result.language}):
            pieces.append(part.replace("\n", "\n  "))
            size += len(part)
            if size > _PIECE:
                yield "".join(pieces)
                pieces.clear()
                size = 0
        yield "".join(pieces)
    yield "[]\n" if first else "\n]\n"


def _sarif_uri(path: str) -> str:
    """``path`` as a URI reference (RFC 3986): ``%``, ``#``, ``?`` and the rest percent-encoded,
    so that a reader decoding it gets the file's real name back."""
    from urllib.parse import quote_from_bytes

    if path == STDIN_NAME:
        return "stdin"
    relative = os.path.relpath(path)
    if relative.startswith(".."):
        from pathlib import Path

        return Path(os.path.abspath(path)).as_uri()
    return quote_from_bytes(os.fsencode(relative.replace(os.sep, "/")), safe="/")


def _uri(path: str) -> str:
    if path == STDIN_NAME:
        return "stdin"
    relative = os.path.relpath(path)
    if relative.startswith(".."):
        return "file://" + os.path.abspath(path).replace(os.sep, "/")
    return relative.replace(os.sep, "/")


def _end(signal: Signal, text: str | None = None) -> tuple[int, int]:
    """End line and (exclusive) end column of a signal's match (or of ``text`` starting where it starts)."""
    text = signal.match if text is None else text
    breaks = list(LINE_BREAK.finditer(text))
    if not breaks:
        return signal.line, signal.column + len(text)
    return signal.line + len(breaks), len(text) - breaks[-1].end() + 1


def _sarif_fixes(signal: Signal, uri: str) -> list[dict[str, Any]]:
    """The signal's safe fix as a SARIF ``fix``: replace ``fix.match`` (it starts where the signal does)."""
    fix = signal.fix
    if fix is None or not fix.match:
        return []
    import json

    match, replacement = fix.match, fix.replacement
    end_line, end_column = _end(signal, match)
    quoted = json.dumps(match, ensure_ascii=False)
    return [
        {
            "description": {
                "text": f"Replace {quoted} with {json.dumps(replacement, ensure_ascii=False)}"
                if replacement
                else f"Delete {quoted}"
            },
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": uri},
                    "replacements": [
                        {
                            "deletedRegion": {
                                "startLine": signal.line,
                                "startColumn": signal.column,
                                "endLine": end_line,
                                "endColumn": end_column,
                                "charOffset": signal.start,
                                "charLength": len(match),
                            },
                            "insertedContent": {"text": replacement},
                        }
                    ],
                }
            ],
        }
    ]


def _sarif_rule(rule_id: str, language: str, rules: RuleBook) -> dict[str, Any]:
    rule = rules.rule(rule_id)
    text = rules.texts(rule_id, language)
    assert rule is not None and text is not None
    # A pack's rule (acme/sign-in, write-good.Passive): each part capitalised, the separators dropped.
    parts = rule_id.replace("/", "-").replace(".", "-").split("-")
    return {
        "id": rule_id,
        "name": "".join(part[:1].upper() + part[1:] for part in parts),
        "shortDescription": {"text": text.title},
        "fullDescription": {"text": text.summary},
        "help": {"text": f"{text.instruction}\n\nApplies when: {text.applies_when}"},
        "defaultConfiguration": {"level": _SARIF_LEVELS[rule.level]},
        "properties": {"tags": list(rule.tags)},
    }


def render_sarif(results: Sequence[FileScan], language: str = "en", rules: RuleBook = _BUILTIN_ONLY) -> str:
    """SARIF 2.1.0 as GitHub code scanning reads it; rule texts in ``language``.

    Columns and character offsets count code points (``columnKind``), like the tool.
    A pack's rules are described like the built-in ones, their text as help.
    """
    import json

    scanned = _scanned(results)
    used = {rule_id for result in scanned if result.lint is not None for rule_id in result.lint.rule_ids}
    rule_ids = [rule_id for rule_id in rules.rule_ids() if rule_id in used]
    index = {rule_id: position for position, rule_id in enumerate(rule_ids)}
    sarif_results = []
    for result in scanned:
        for signal in _signals(result):
            end_line, end_column = _end(signal)
            fixes = _sarif_fixes(signal, _sarif_uri(result.path))
            sarif_results.append(
                {
                    "ruleId": signal.rule_id,
                    "ruleIndex": index[signal.rule_id],
                    "level": _SARIF_LEVELS[signal.level],
                    "message": {
                        "text": f"{json.dumps(signal.match, ensure_ascii=False)}: "
                        f"{rules.message(signal, result.language)}"
                    },
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": _sarif_uri(result.path)},
                                "region": {
                                    "startLine": signal.line,
                                    "startColumn": signal.column,
                                    "endLine": end_line,
                                    "endColumn": end_column,
                                    "charOffset": signal.start,
                                    "charLength": signal.end - signal.start,
                                },
                            }
                        }
                    ],
                    "properties": {"signalId": signal.signal_id, "context": signal.wire_context()},
                    **({"fixes": fixes} if fixes else {}),
                }
            )
        for entry in _unused(result):
            sarif_results.append(
                {
                    "ruleId": UNUSED_SUPPRESSION,
                    "ruleIndex": len(rule_ids),
                    "level": "warning",
                    "message": {"text": entry["message"]},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": _sarif_uri(result.path)},
                                "region": {"startLine": entry["line"], "startColumn": entry["column"]},
                            }
                        }
                    ],
                }
            )
    driver_rules = [_sarif_rule(rule_id, language, rules) for rule_id in rule_ids]
    if any(_unused(result) for result in scanned):
        driver_rules.append(
            {
                "id": UNUSED_SUPPRESSION,
                "name": "UnusedSuppression",
                "shortDescription": {"text": _UNUSED_TITLE},
                "fullDescription": {"text": f"{_UNUSED_TITLE}: remove it, or the rule ids it no longer needs."},
                "help": {
                    "text": "Reported by --report-unused-suppressions. Remove the directive (or the rule "
                    "ids that silenced nothing), so stale suppressions do not hide new signals."
                },
                "defaultConfiguration": {"level": "warning"},
            }
        )
    log = {
        "$schema": _SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "writing-rules",
                        "version": __version__,
                        "informationUri": _INFORMATION_URI,
                        "rules": driver_rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": sarif_results,
            }
        ],
    }
    return json.dumps(log, ensure_ascii=False, indent=2) + "\n"


def render_html_report(
    results: Sequence[FileScan], language: str | None = None, rules: RuleBook = _BUILTIN_ONLY
) -> str:
    """One self-contained page with a section per file (unreadable files say why).

    Rule texts are in ``language``; with ``--language auto`` they follow the
    files when all of them were detected as one language, else English.
    """
    from ..review import ReportDocument, render_report  # only --format html needs the report

    if language is None:
        languages = {result.language for result in _scanned(results)}
        language = languages.pop() if len(languages) == 1 else "en"
    documents = [
        ReportDocument(
            label=result.path,
            text=result.text,
            hits=tuple(result.data["signals"]) if result.data is not None else (),
            language=result.language or language or "en",
            error=result.error,
            markup=result.markup,
        )
        for result in results
    ]
    count = len(results)
    title = f"writing-rules scan: {results[0].path}" if count == 1 else f"writing-rules scan: {count} files"
    return render_report(documents, language=language or "en", title=title, catalog=rules.catalog)
