"""Diagnostics and code actions for one linted document (pure: LSP values in, LSP values out)."""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from .._catalog import rule_source
from ..lint import markup_for, signal_level
from ._linting import LintedDocument, path_of
from ._positions import LineIndex
from ._rule_pages import rule_page_uri

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..tools import Signal

__all__ = ["FIX_ALL_KIND", "SOURCE", "code_actions", "diagnostics", "fix_edits"]

SOURCE = "writing-rules"
FIX_ALL_KIND = f"{types.CodeActionKind.SourceFixAll.value}.{SOURCE}"
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "suggestion": types.DiagnosticSeverity.Information,
}


def _range(index: LineIndex, start: int, end: int) -> types.Range:
    start_line, start_char = index.position(start)
    end_line, end_char = index.position(end)
    return types.Range(types.Position(start_line, start_char), types.Position(end_line, end_char))


def diagnostics(linted: LintedDocument, rule_url: str | None = None) -> list[types.Diagnostic]:
    """One diagnostic per signal (level, rule id, link to the rule's text, the fix in ``data``)."""
    found = []
    language = linted.language if linted.language in ("en", "de") else "en"
    catalog = linted.catalog
    rules = rule_source(catalog)
    pages: dict[str, str] = {}  # one lookup per rule, not per signal: it touches the file system
    for signal in linted.signals:
        rule_id = signal.rule_id
        if rule_id not in pages:
            pages[rule_id] = rule_page_uri(rule_id, language, rule_url, catalog=catalog)
        texts = rules.RULES[rule_id].texts
        title = (texts.get(language) or next(iter(texts.values()))).title  # a pack may have one language
        own = rules.SIGNAL_MESSAGES.get((rule_id, signal.signal_id))  # a pack signal's message (%s: the hit)
        fix = signal.fix
        message = own.replace("%s", signal.match) if own else f"{title}: “{signal.match}”"
        if fix is not None:
            message += f" (safe fix: “{fix.replacement}”)" if fix.replacement else f" (safe fix: delete “{fix.match}”)"
        found.append(
            types.Diagnostic(
                range=_range(linted.index, signal.start, signal.end),
                message=message,
                severity=_SEVERITY.get(
                    signal_level(rule_id, signal.signal_id, catalog=catalog), types.DiagnosticSeverity.Warning
                ),
                code=rule_id,
                code_description=types.CodeDescription(href=pages[rule_id]),
                source=SOURCE,
                data={
                    "ruleId": rule_id,
                    "signalId": signal.signal_id,
                    "start": signal.start,
                    "fix": None if fix is None else {"replacement": fix.replacement, "match": fix.match},
                },
            )
        )
    for line, column, message in linted.problems:
        position = types.Position(line - 1, max(0, column - 1))
        found.append(
            types.Diagnostic(
                range=types.Range(position, position),
                message=message,
                severity=types.DiagnosticSeverity.Error,
                code="directive",
                source=SOURCE,
            )
        )
    return found


def _fixes(linted: LintedDocument, signals: Sequence[Signal]) -> list[tuple[int, int, str]]:
    """(start, end, replacement) of the signals' fixes, non-overlapping, checked against the text."""
    chosen: list[tuple[int, int, str]] = []
    previous = 0
    for signal in sorted(signals, key=lambda signal: signal.start):
        fix = signal.fix
        if fix is None:
            continue
        start = signal.start
        end = start + len(fix.match)
        if start >= previous and linted.text[start:end] == fix.match:
            chosen.append((start, end, fix.replacement))
            previous = end
    return chosen


def fix_edits(linted: LintedDocument, signals: Sequence[Signal]) -> list[types.TextEdit]:
    """Text edits for the safe fixes of ``signals`` (all of a round, never overlapping)."""
    return [
        types.TextEdit(range=_range(linted.index, start, end), new_text=replacement)
        for start, end, replacement in _fixes(linted, signals)
    ]


def _workspace_edit(linted: LintedDocument, edits: list[types.TextEdit], document_changes: bool) -> types.WorkspaceEdit:
    if document_changes:
        # Versioned: a client refuses the edit when the document changed since this version.
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=linted.uri, version=linted.version)
        return types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=identifier, edits=list(edits))]
        )
    return types.WorkspaceEdit(changes={linted.uri: list(edits)})


def _rst_disable_edits(linted: LintedDocument, line: int, rule_id: str) -> list[types.TextEdit]:
    """reStructuredText has no comment at a line's end, and a comment line inside a paragraph is
    paragraph text. A signal on a paragraph's first line gets ``disable-next-line`` before it;
    one further down gets ``disable`` ... ``enable`` around the paragraph. Each comment is
    followed by the blank line docutils wants (the directives skip blank lines)."""
    index = linted.index
    first = line
    while first > 0 and index.line_text(first - 1).strip():
        first -= 1
    text = index.line_text(first)
    indent = text[: len(text) - len(text.lstrip())]
    before = types.Position(first, 0)
    if first == line:
        directive = f"{indent}.. writing-rules-disable-next-line {rule_id}\n\n"
        return [types.TextEdit(range=types.Range(before, before), new_text=directive)]
    last = line
    while last + 1 < index.line_count and index.line_text(last + 1).strip():
        last += 1
    after = types.Position(*index.position(index.line_end(last)))
    newline = index.text[index.line_end(last) : index.line_end(last) + 2]
    newline = "\r\n" if newline.startswith("\r\n") else newline[:1] if newline[:1] in ("\r", "\n") else "\n"
    return [
        types.TextEdit(range=types.Range(before, before), new_text=f"{indent}.. writing-rules-disable {rule_id}\n\n"),
        types.TextEdit(
            range=types.Range(after, after),
            new_text=f"{newline}{newline}{indent}.. writing-rules-enable {rule_id}",
        ),
    ]


def _disable_edits(linted: LintedDocument, signal: Signal) -> list[types.TextEdit]:
    """The suppression directive for the signal's first line, in the document's comment syntax."""
    line = signal.line - 1
    rule_id = signal.rule_id
    markup = markup_for(path_of(linted.uri) or linted.uri)
    if markup == "rst":
        return _rst_disable_edits(linted, line, rule_id)
    comment = (
        f"{{/* writing-rules-disable-line {rule_id} */}}"
        if markup == "mdx"
        else f"<!-- writing-rules-disable-line {rule_id} -->"
    )
    end = linted.index.position(linted.index.line_end(line))
    position = types.Position(*end)
    return [types.TextEdit(range=types.Range(position, position), new_text=f" {comment}")]


def _wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether the client asked for ``kind`` (kinds are hierarchical: "source" covers "source.fixAll")."""
    return only is None or any(kind == want or kind.startswith(want + ".") for want in only)


def code_actions(
    linted: LintedDocument,
    start: int,
    end: int,
    only: Sequence[str] | None = None,
    *,
    document_changes: bool = True,
) -> list[types.CodeAction]:
    """Apply this fix, disable this rule for this line, and apply all safe fixes in the file."""
    actions: list[types.CodeAction] = []
    quick = types.CodeActionKind.QuickFix.value
    here = [
        signal
        for signal in linted.signals
        if signal.start <= end and start <= signal.end  # touching the range counts, as at a cursor
    ]
    if _wanted(quick, only):
        for signal in here:
            edits = fix_edits(linted, [signal])
            fix = signal.fix
            if edits and fix is not None:
                title = (
                    f"Replace “{fix.match}” with “{fix.replacement}”"
                    if fix.replacement
                    else f"Delete “{fix.match.strip()}”"
                )
                actions.append(
                    types.CodeAction(
                        title=title,
                        kind=types.CodeActionKind.QuickFix,
                        edit=_workspace_edit(linted, edits, document_changes),
                        is_preferred=True,
                    )
                )
        seen: set[tuple[int, str]] = set()
        for signal in here:
            key = (signal.line, signal.rule_id)
            if key in seen:
                continue
            seen.add(key)
            actions.append(
                types.CodeAction(
                    title=f"Disable {signal.rule_id} for this line",
                    kind=types.CodeActionKind.QuickFix,
                    edit=_workspace_edit(linted, _disable_edits(linted, signal), document_changes),
                )
            )
    every = fix_edits(linted, linted.signals)
    if every:
        title = f"Apply all safe fixes in this file ({len(every)})"
        # Fix-all is a quick fix beside a signal; as source.fixAll only when asked for by kind
        # (on save, or from a source-action menu), so a light bulb does not list it twice.
        for kind in (quick, FIX_ALL_KIND):
            if (here if kind == quick else only is not None) and _wanted(kind, only):
                actions.append(
                    types.CodeAction(title=title, kind=kind, edit=_workspace_edit(linted, every, document_changes))
                )
    return actions
