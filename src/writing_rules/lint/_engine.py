"""The lint engine: one text, its path and its settings in, every signal a user sees out.

Every front end calls ``lint_text``: ``writing-rules scan`` (each file, in worker
processes too), the language server (each open document), and ``serve-mcp`` and
any host through the review-tool dispatcher created with lint settings as
``config=`` (the tool layer may not import this one, so the dispatcher asks the
settings for it: ``FileSettings.signal_finder``, ``lint._tool_finder``). The
steps, in this order:

1. the language: the settings' one, else detected from the function words;
2. the markup: the settings' one, else by the path's extension (``markup_for``);
3. the scan: the text is cut once into pieces of at most ``PIECE_UNITS`` UTF-16
   units, each read into its prose view and scanned (``lint._pieces``); the
   result may come from the result cache;
4. code: signals inside code are dropped unless ``include_code``;
5. the rule policy: disabled rules, ``min-level`` and ``accept`` (``SignalPolicy``);
6. inline directives (``writing-rules-disable…``);
7. the baseline (known signals held back);
8. changed lines (``--diff``: signals on other lines held back);
9. the signal cap (``max_signals``): ``total_signals`` counts what was kept
   before it, ``truncated`` says whether it cut.

Steps 7 to 9 need what only a whole run has (the baseline, the diff): a run that
scans in worker processes calls ``lint_text`` without them and applies them in
the parent with ``LintResult.narrowed``, which ``lint_text`` itself ends with.
"""

from __future__ import annotations

import os
from collections.abc import Container, Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple

from .._lazy_rules import rule_data as data
from .._levels import LEVELS
from ._config import FileSettings
from ._language import detect_language
from ._lint import markup_for

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..tools import Signal
    from ._baseline import Baseline
    from ._directive_types import DirectiveProblem
    from ._pieces import MapPieces

__all__ = ["PIECE_UNITS", "LintResult", "lint_text"]

# Texts longer than this are scanned in pieces (cut as for the tool's limit: blank lines outside
# fences first), whatever --jobs is, so that N processes can share one file and give the same output.
# The one place a text is cut: each piece is read and scanned whole.
PIECE_UNITS = 64_000


class LintResult(NamedTuple):
    """One text's outcome: its signals after every filter, and what each filter held back.

    A named tuple (no dataclass on the start-up path of a one-page scan).
    ``signals`` are the tool's signal objects; ``total_signals`` counts them
    before the cap, ``truncated`` says whether the cap cut. ``kept`` are the
    signals after the directives (what a baseline records), with
    ``fingerprints`` (one per kept signal) when asked for. ``unused`` holds
    (line, column, message) of directives that silenced nothing.
    """

    path: str
    language: str
    detected: bool
    markup: str
    rule_ids: tuple[str, ...]
    signals: tuple[Signal, ...]
    total_signals: int
    truncated: bool
    kept: tuple[Signal, ...] = ()
    filtered: int = 0
    suppressed: int = 0
    in_baseline: int = 0
    on_unchanged_lines: int = 0
    problems: tuple[DirectiveProblem, ...] = ()
    unused: tuple[tuple[int, int, str], ...] = ()
    fingerprints: tuple[str, ...] | None = None
    reader_note: str | None = None
    cache_warning: str | None = None

    def narrowed(
        self,
        *,
        baseline: Baseline | None = None,
        changed_lines: frozenset[int] | None = None,
        max_signals: int | None = None,
    ) -> LintResult:
        """Steps 7 to 9 on this result: the baseline, the changed lines, the cap.

        ``changed_lines`` None keeps every line (a new file, or no ``--diff``);
        unused directives on unchanged lines are held back too.
        """
        signals: Sequence[Signal] = self.signals
        unused = self.unused
        known = dropped = 0
        if baseline is not None:
            signals, known = baseline.split(self.path, signals, self.fingerprints or ())
        if changed_lines is not None:
            before = len(signals)
            signals = [signal for signal in signals if signal.line in changed_lines]
            unused = tuple(entry for entry in unused if entry[0] in changed_lines)
            dropped = before - len(signals)
        total = len(signals)
        truncated = max_signals is not None and total > max_signals
        if truncated:
            signals = signals[:max_signals]
        return self._replace(
            signals=tuple(signals),
            total_signals=total,
            truncated=truncated,
            in_baseline=self.in_baseline + known,
            on_unchanged_lines=self.on_unchanged_lines + dropped,
            unused=unused,
        )


def lint_text(
    text: str,
    path: str,
    settings: FileSettings,
    *,
    language: str | None = None,
    include_code: bool = False,
    fingerprints: bool = False,
    baseline: Baseline | None = None,
    changed_lines: frozenset[int] | None = None,
    max_signals: int | None = None,
    cache_dir: str | None = None,
    map_pieces: MapPieces = map,
) -> LintResult:
    """Lint ``text`` standing for ``path`` with ``settings`` (see the module's steps).

    ``language`` (``en`` / ``de``) skips detection (``scan --fix`` rescans in the
    language it found first). ``cache_dir`` reads and writes the result cache
    (the scan's result, keyed by the real path, the settings and the text).
    ``fingerprints`` computes one baseline fingerprint per kept signal.
    """
    markup = markup_for(path, settings)
    # A language the caller forces is not in the key: such a result is neither read nor stored.
    keyed = language is None
    cache = None
    key = ""
    cached = None
    if cache_dir is not None:
        from ._cache import ResultCache, cache_key  # with json and hashlib: not for --no-cache

        cache = ResultCache(cache_dir)
        import hashlib  # 2 ms of start-up (OpenSSL) that a scan without the cache never needs

        content = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        # Signals in code are scanned for only with include_code: a result holds them or not.
        code = "code" if include_code else "no-code"
        # The file's own path (resolved) is part of the key: an entry is never served for another file.
        key = cache_key(
            "scan-3", _version(), data.SOURCE_DIGEST, os.path.realpath(path), settings.key(), markup, code, content
        )
        if keyed:
            catalog = settings.catalog
            rules = data.RULES if catalog is None else catalog.RULES
            cached = cache.get(key, partial(cached_result_ok, text=text, rules=rules))
    if cached is not None:
        from ..tools import Signal

        language, detected, result = cached["language"], cached["detected"], cached["data"]
        signals = [Signal.from_wire(signal) for signal in result["signals"]]
        rule_ids = tuple(result["ruleIds"])
        note: str | None = result["note"]
    else:
        detected = settings.language == "auto" and language is None
        if language is None:
            language = detect_language(text) if detected else settings.language
        rule_ids = settings.rule_ids()
        found: list[Signal] = []
        note = None
        if rule_ids:  # everything disabled: nothing to scan for
            from ._pieces import scan_chosen  # the scanner and the reader load with the first text to scan

            found, note = scan_chosen(
                text,
                language,
                rule_ids,
                markup=markup,
                front_matter_keys=settings.front_matter_keys,
                min_level=settings.min_level,
                code=include_code,
                map_pieces=map_pieces,
                packs=settings.packs,
            )
        signals = list(found)
        if cache is not None and keyed:
            from ..tools import signals_data

            cache.put(
                key,
                {
                    "language": language,
                    "detected": detected,
                    "data": {**signals_data(language, rule_ids, found, len(found), False), "note": note},
                },
            )
    if not include_code:
        # Code is shown to readers as code: its hits are leads only on request.
        signals = [signal for signal in signals if not signal.flags & _IN_CODE]
    from ._lint import lint_signals

    linted = lint_signals(text, signals, settings, markup, fingerprints=fingerprints)
    result_ = LintResult(
        path=path,
        language=language,
        detected=detected,
        markup=markup,
        rule_ids=rule_ids,
        signals=linted.signals,
        total_signals=len(linted.signals),
        truncated=False,
        kept=linted.signals,
        filtered=linted.filtered,
        suppressed=linted.suppressed,
        problems=linted.problems,
        unused=linted.unused,
        fingerprints=linted.fingerprints,
        reader_note=note,
        cache_warning=cache.warning if cache is not None else None,
    )
    if baseline is None and changed_lines is None and max_signals is None:
        return result_
    return result_.narrowed(baseline=baseline, changed_lines=changed_lines, max_signals=max_signals)


def _version() -> str:
    from .. import __version__

    return __version__


_IN_CODE = 1  # writing_rules.tools.IN_CODE: the bit of a signal in code
_LANGUAGES = ("en", "de")
_SIGNAL_NUMBERS = ("start", "end", "utf16Start", "utf16End", "line", "column")
_CONTEXT_FLAGS = ("inCode", "inQuote", "negated")


def cached_result_ok(value: Mapping[str, Any], text: str, rules: Container[str] | None = None) -> bool:
    """Whether a cached value has the shape ``lint_text`` stores, with spans that fit ``text``.

    Anything else (a damaged or foreign entry: missing keys, a rule not in ``rules`` (default:
    the built-in ones), a span outside the text) is a cache miss, never a crash further on.
    """
    if rules is None:
        rules = data.RULES
    result = value.get("data")
    if value.get("language") not in _LANGUAGES or not isinstance(value.get("detected"), bool):
        return False
    if not isinstance(result, dict) or result.get("language") not in _LANGUAGES:
        return False
    rule_ids, signals = result.get("ruleIds"), result.get("signals")
    if not isinstance(rule_ids, list) or not all(isinstance(rule, str) and rule in rules for rule in rule_ids):
        return False
    if not isinstance(signals, list) or not isinstance(result.get("truncated"), bool):
        return False
    if not isinstance(result.get("totalSignals"), int) or not isinstance(result.get("note"), (str, type(None))):
        return False
    return all(_signal_ok(signal, text, rules) for signal in signals)


def _signal_ok(signal: object, text: str, rules: Container[str]) -> bool:
    rule_id = signal.get("ruleId") if isinstance(signal, dict) else None
    if not isinstance(signal, dict) or not isinstance(rule_id, str) or rule_id not in rules:
        return False
    if not isinstance(signal.get("signalId"), str) or signal.get("level") not in LEVELS:
        return False
    numbers = [signal.get(name) for name in _SIGNAL_NUMBERS]
    if not all(type(number) is int and number >= 0 for number in numbers):
        return False
    start, end = signal["start"], signal["end"]
    if not (start <= end <= len(text)) or signal.get("match") != text[start:end] or signal["line"] < 1:
        return False
    context = signal.get("context")
    if not isinstance(context, dict) or not all(isinstance(context.get(flag), bool) for flag in _CONTEXT_FLAGS):
        return False
    fix = signal.get("fix")
    return fix is None or (
        isinstance(fix, dict) and isinstance(fix.get("replacement"), str) and isinstance(fix.get("match"), str)
    )
