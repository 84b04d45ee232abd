"""Measure the static signal scanner against the labelled set in ``signal_eval/``.

For each language and each rule the scanner runs on every labelled sentence,
restricted to that one rule (``find_writing_signals`` with ``ruleIds=[rule]``).
A sentence counts as predicted positive when at least one signal comes back.
The script prints per-rule and per-language precision, recall and counts, and
then every miss: false positives with the text that matched, and false
negatives.

    python benchmarks/signal_quality.py            # table and misses
    python benchmarks/signal_quality.py --json     # the same figures as JSON
    python benchmarks/signal_quality.py --check    # exit 1 below the quality bar
    python benchmarks/signal_quality.py --data DIR   # another labelled folder

Exit codes: 0 after a report (always, unless ``--check`` is given); 1 when
``--check`` is given and a threshold is missed or a rule is not scanned; 2 when
the set is malformed or the scanner cannot be run (import error, an error
result from the dispatcher other than a rejected rule id).

A rule the scanner rejects (``invalid-selection`` on ``ruleIds``, i.e. no
compiled patterns yet) is listed as "not scanned" and left out of the counts,
so the other rules can still be measured while patterns are being written.

The labelling guidelines are in ``signal_eval/README.md``. Only the standard
library, PyYAML and the package's public tool API are used.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
DATA_DIR = HERE / "signal_eval"
LANGUAGES = ("en", "de")

# The rules the static scanner covers, in catalogue order (spec/catalog.md).
SCANNED_RULES = (
    "word-choice",
    "easy-claims",
    "hedging",
    "filler",
    "passive-voice",
    "long-sentences",
    "nominal-style",
    "vague-quantities",
    "unsupported-claims",
    "ai-tells",
    "placeholders",
)

# Quality bar for --check.
MIN_LANGUAGE_PRECISION = 0.95
MIN_LANGUAGE_RECALL = 0.90
MIN_RULE_PRECISION = 0.85
MIN_RULE_RECALL = 0.85

MAX_SIGNALS = 500  # the API's upper bound; one signal is enough to count a hit

Dispatch = Callable[[Mapping[str, Any]], Mapping[str, Any]]


class EvalSetError(ValueError):
    """The labelled set is malformed."""


class ScannerError(RuntimeError):
    """The scanner could not be run or returned an error result."""


class RuleNotScanned(ScannerError):
    """The scanner rejects the rule id (``invalid-selection`` on ``ruleIds``):
    the rule has no compiled patterns in this build. Reported per rule, so the
    other rules can still be measured; always a ``--check`` failure."""


# --------------------------------------------------------------------------- data


def load_eval_set(path: Path) -> dict[str, dict[str, list[str]]]:
    """Read one language file and check its shape.

    Returns ``{rule_id: {"positive": [...], "negative": [...]}}`` in catalogue
    order. Unknown rules, missing labels, non-strings, blank sentences and a
    sentence listed twice for one rule (in either label) are errors.
    """
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise EvalSetError(f"{path}: cannot read: {exc}") from exc
    if not isinstance(raw, dict):
        raise EvalSetError(f"{path}: expected a mapping of rule ids at the top level")
    unknown = sorted(set(raw) - set(SCANNED_RULES))
    if unknown:
        raise EvalSetError(f"{path}: unknown rule ids {unknown}; scanned rules are {list(SCANNED_RULES)}")
    result: dict[str, dict[str, list[str]]] = {}
    for rule_id in SCANNED_RULES:
        if rule_id not in raw:
            continue
        entry = raw[rule_id]
        if not isinstance(entry, dict) or set(entry) - {"positive", "negative"}:
            raise EvalSetError(f"{path}: {rule_id}: expected only 'positive' and 'negative' lists")
        seen: dict[str, str] = {}
        labelled: dict[str, list[str]] = {}
        for label in ("positive", "negative"):
            items = entry.get(label) or []
            if not isinstance(items, list):
                raise EvalSetError(f"{path}: {rule_id}.{label}: expected a list")
            for index, sentence in enumerate(items):
                where = f"{path}: {rule_id}.{label}[{index}]"
                if not isinstance(sentence, str) or not sentence.strip():
                    raise EvalSetError(f"{where}: expected a non-blank string")
                if sentence in seen:
                    raise EvalSetError(f"{where}: already listed as {seen[sentence]}: {sentence!r}")
                seen[sentence] = label
            labelled[label] = list(items)
        result[rule_id] = labelled
    return result


# --------------------------------------------------------------------------- scoring


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, other: Counts) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        self.tn += other.tn

    @property
    def positives(self) -> int:
        return self.tp + self.fn

    @property
    def negatives(self) -> int:
        return self.fp + self.tn

    @property
    def precision(self) -> float | None:
        """TP / (TP + FP); None (undefined) when nothing was predicted."""
        predicted = self.tp + self.fp
        return self.tp / predicted if predicted else None

    @property
    def recall(self) -> float | None:
        """TP / (TP + FN); None (undefined) when there are no positives."""
        return self.tp / self.positives if self.positives else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "positives": self.positives,
            "negatives": self.negatives,
            "precision": self.precision,
            "recall": self.recall,
        }


@dataclass
class Miss:
    language: str
    rule_id: str
    kind: str  # "false-positive" or "false-negative"
    sentence: str
    matches: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"ruleId": self.rule_id, "sentence": self.sentence}
        if self.kind == "false-positive":
            data["matches"] = list(self.matches)
        return data


@dataclass
class LanguageReport:
    language: str
    rules: dict[str, Counts]
    misses: list[Miss]
    not_scanned: dict[str, str] = field(default_factory=dict)  # rule id -> scanner message

    @property
    def overall(self) -> Counts:
        """Micro-average: the counts of every rule summed."""
        total = Counts()
        for counts in self.rules.values():
            total.add(counts)
        return total


def scan(dispatch: Dispatch, text: str, language: str, rule_id: str) -> list[str]:
    """Run the scanner for one rule; return the matched texts (empty: no signal)."""
    call = {
        "name": "find_writing_signals",
        "arguments": {
            "text": text,
            "language": language,
            "ruleIds": [rule_id],
            "maxSignals": MAX_SIGNALS,
        },
    }
    result = dispatch(call)
    if not isinstance(result, Mapping) or result.get("ok") is not True:
        error = result.get("error") if isinstance(result, Mapping) else result
        if (
            isinstance(error, Mapping)
            and error.get("code") == "invalid-selection"
            and str(error.get("field", "")).startswith("/ruleIds")
        ):
            raise RuleNotScanned(f"{language}/{rule_id}: {error.get('message', '')}")
        raise ScannerError(f"find_writing_signals failed for {language}/{rule_id} on {text!r}: {error!r}")
    data = result.get("data") or {}
    signals = data.get("signals") or []
    strays = sorted({str(s.get("ruleId")) for s in signals if s.get("ruleId") != rule_id})
    if strays:
        raise ScannerError(f"asked for {rule_id} only, got signals for {strays} on {text!r}")
    matches = [str(signal.get("match", "")) for signal in signals]
    if not matches and data.get("totalSignals"):
        # Counted but not returned (cannot happen with maxSignals >= 1): still a hit.
        matches = ["<unreturned signal>"]
    return matches


def evaluate_language(
    language: str, eval_set: Mapping[str, Mapping[str, list[str]]], dispatch: Dispatch
) -> LanguageReport:
    rules: dict[str, Counts] = {}
    misses: list[Miss] = []
    not_scanned: dict[str, str] = {}
    for rule_id, labelled in eval_set.items():
        counts = Counts()
        rule_misses: list[Miss] = []
        try:
            for sentence in labelled.get("positive", []):
                if scan(dispatch, sentence, language, rule_id):
                    counts.tp += 1
                else:
                    counts.fn += 1
                    rule_misses.append(Miss(language, rule_id, "false-negative", sentence))
            for sentence in labelled.get("negative", []):
                matches = scan(dispatch, sentence, language, rule_id)
                if matches:
                    counts.fp += 1
                    rule_misses.append(Miss(language, rule_id, "false-positive", sentence, matches))
                else:
                    counts.tn += 1
        except RuleNotScanned as exc:
            not_scanned[rule_id] = str(exc)
            continue
        rules[rule_id] = counts
        misses.extend(rule_misses)
    return LanguageReport(language, rules, misses, not_scanned)


# --------------------------------------------------------------------------- the bar


def _below(value: float | None, minimum: float, has_positives: bool) -> bool:
    """A figure fails when it is under the bar; an undefined figure fails only
    when there were positives to find (nothing predicted although there was
    something to predict)."""
    if value is None:
        return has_positives
    return value < minimum


def _check_counts(label: str, counts: Counts, min_precision: float, min_recall: float) -> list[str]:
    has_positives = counts.positives > 0
    failures = []
    if _below(counts.precision, min_precision, has_positives):
        failures.append(f"{label}: precision {_fmt(counts.precision)} < {min_precision:.2f}")
    if _below(counts.recall, min_recall, has_positives):
        failures.append(f"{label}: recall {_fmt(counts.recall)} < {min_recall:.2f}")
    return failures


def check_failures(reports: list[LanguageReport]) -> list[str]:
    failures: list[str] = []
    for report in reports:
        language = report.language
        for rule_id in report.not_scanned:
            failures.append(f"{language}/{rule_id}: not scanned (the scanner rejects the rule id)")
        failures += _check_counts(f"{language}: overall", report.overall, MIN_LANGUAGE_PRECISION, MIN_LANGUAGE_RECALL)
        for rule_id, counts in report.rules.items():
            failures += _check_counts(f"{language}/{rule_id}", counts, MIN_RULE_PRECISION, MIN_RULE_RECALL)
    return failures


# --------------------------------------------------------------------------- output


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def render_text(reports: list[LanguageReport], failures: list[str] | None) -> str:
    lines: list[str] = []
    header = f"{'rule':<20} {'prec':>6} {'recall':>6} {'TP':>4} {'FP':>4} {'FN':>4} {'TN':>4}"
    for report in reports:
        lines.append(f"== {report.language} ==")
        lines.append(header)
        lines.append("-" * len(header))
        for rule_id, c in report.rules.items():
            lines.append(
                f"{rule_id:<20} {_fmt(c.precision):>6} {_fmt(c.recall):>6} {c.tp:>4} {c.fp:>4} {c.fn:>4} {c.tn:>4}"
            )
        for rule_id in report.not_scanned:
            lines.append(f"{rule_id:<20} not scanned")
        o = report.overall
        lines.append("-" * len(header))
        lines.append(
            f"{'overall (micro)':<20} {_fmt(o.precision):>6} {_fmt(o.recall):>6} "
            f"{o.tp:>4} {o.fp:>4} {o.fn:>4} {o.tn:>4}"
        )
        if report.not_scanned:
            lines.append(f"(overall covers scanned rules only; {len(report.not_scanned)} not scanned)")
        lines.append("")
    for report in reports:
        fps = [m for m in report.misses if m.kind == "false-positive"]
        fns = [m for m in report.misses if m.kind == "false-negative"]
        lines.append(f"== {report.language}: false positives ({len(fps)}) ==")
        for m in fps:
            shown = ", ".join(repr(x) for x in m.matches)
            lines.append(f"  [{m.rule_id}] {_one_line(m.sentence)}")
            lines.append(f"      matched: {shown}")
        lines.append(f"== {report.language}: false negatives ({len(fns)}) ==")
        for m in fns:
            lines.append(f"  [{m.rule_id}] {_one_line(m.sentence)}")
        lines.append("")
    if failures is not None:
        if failures:
            lines.append(f"CHECK FAILED ({len(failures)}):")
            lines.extend(f"  {f}" for f in failures)
        else:
            lines.append("CHECK PASSED")
    return "\n".join(lines).rstrip("\n") + "\n"


def _one_line(text: str) -> str:
    return text.replace("\n", "\\n")


def render_json(reports: list[LanguageReport], failures: list[str] | None) -> str:
    payload: dict[str, Any] = {
        "thresholds": {
            "languagePrecision": MIN_LANGUAGE_PRECISION,
            "languageRecall": MIN_LANGUAGE_RECALL,
            "rulePrecision": MIN_RULE_PRECISION,
            "ruleRecall": MIN_RULE_RECALL,
        },
        "languages": {},
    }
    for report in reports:
        payload["languages"][report.language] = {
            "rules": {rule_id: c.as_dict() for rule_id, c in report.rules.items()},
            "overall": report.overall.as_dict(),
            "notScanned": dict(report.not_scanned),
            "falsePositives": [m.as_dict() for m in report.misses if m.kind == "false-positive"],
            "falseNegatives": [m.as_dict() for m in report.misses if m.kind == "false-negative"],
        }
    if failures is not None:
        payload["check"] = {"passed": not failures, "failures": failures}
    return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"


# --------------------------------------------------------------------------- main


def default_dispatch() -> Dispatch:
    """The package's public dispatcher; falls back to ``src/`` in a checkout."""
    try:
        from writing_rules.tools import create_writing_tool_dispatcher
    except ImportError:
        src = HERE.parent / "src"
        if str(src) not in sys.path:
            sys.path.insert(0, str(src))
        from writing_rules.tools import create_writing_tool_dispatcher
    return create_writing_tool_dispatcher().dispatch


def run(
    argv: list[str] | None = None,
    *,
    dispatch: Dispatch | None = None,
    data_dir: Path | None = None,
    out=None,
    err=None,
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--check",
        action="store_true",
        help=(
            f"exit 1 if a language's precision < {MIN_LANGUAGE_PRECISION} or recall < "
            f"{MIN_LANGUAGE_RECALL}, or a rule's precision or recall < {MIN_RULE_PRECISION}"
        ),
    )
    parser.add_argument("--language", choices=LANGUAGES, action="append", help="only this language (repeatable)")
    parser.add_argument("--rule", choices=SCANNED_RULES, action="append", help="only this rule (repeatable)")
    parser.add_argument(
        "--data",
        "--data-dir",
        dest="data_dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="folder holding en.yaml and de.yaml (default: signal_eval/; held-out set: signal_eval/heldout/)",
    )
    args = parser.parse_args(argv)

    directory = args.data_dir or data_dir or DATA_DIR
    languages = args.language or list(LANGUAGES)
    try:
        sets = {}
        for language in languages:
            eval_set = load_eval_set(directory / f"{language}.yaml")
            if args.rule:
                eval_set = {r: v for r, v in eval_set.items() if r in args.rule}
            sets[language] = eval_set
    except EvalSetError as exc:
        print(f"error: {exc}", file=err)
        return 2

    try:
        dispatch = dispatch or default_dispatch()
        reports = [evaluate_language(language, sets[language], dispatch) for language in languages]
    except ImportError as exc:
        print(f"error: cannot import writing_rules.tools: {exc}", file=err)
        return 2
    except ScannerError as exc:
        print(f"error: {exc}", file=err)
        return 2

    failures = check_failures(reports) if args.check else None
    out.write(render_json(reports, failures) if args.json else render_text(reports, failures))
    if failures:
        return 1
    return 0


def main() -> None:
    sys.exit(run())


if __name__ == "__main__":
    main()
