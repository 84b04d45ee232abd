"""Field quality: what a docs team sees when it runs the CLI on real pages.

Runs ``writing-rules scan`` (its default level unless ``--min-level`` says
otherwise) over the pages in ``field_eval/corpus/`` and prints, per rule and
language:

- signals reported and signals per 1,000 prose words;
- precision on the judged signals (``field_eval/judged/<lang>.yaml`` on the
  development pages; on the held-out pages a signal is true when it overlaps an
  annotated problem of its rule in ``field_eval/heldout/<lang>.yaml``);
- known misses found (annotated problems that a signal of the same rule overlaps): on the
  development pages the misses noted while judging plus the full annotation of the pages
  that were held out in an earlier round (``field_eval/heldout/<lang>.yaml``, entries of
  pages that ``heldout.txt`` no longer lists, or all of them when it is absent); on the
  held-out pages only the annotation of the pages ``heldout.txt`` lists;
- how many reported signals are not judged yet.

Pages ``heldout-next.txt`` lists (the next round's, prepared while the current one is held
out) belong to no part and are never scanned until they move to ``heldout.txt``.

    python benchmarks/field_quality.py                      # development pages, default level
    python benchmarks/field_quality.py --min-level suggestion
    python benchmarks/field_quality.py --part heldout       # the coordinator only, once per round!
    python benchmarks/field_quality.py --unjudged de        # list unjudged signals on the development pages
    python benchmarks/field_quality.py --json
    python benchmarks/field_quality.py --check              # validate the YAML files; scans nothing
    python benchmarks/field_quality.py --round 8            # one measured round's pages: judged precision
    python benchmarks/field_quality.py --round 8 --part annotated  # ... strict, against its blind annotation

The judging protocol is in ``field_eval/README.md``. Only the standard library,
PyYAML and the package's command line are used.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _field_pages import FieldDataError, corpus_pages, page_list  # noqa: E402  (benchmarks/ is this script's folder)

FIELD = HERE / "field_eval"
CORPUS = FIELD / "corpus"
LANGUAGES = ("en", "de")
TARGETS = {"precision": 0.85, "per_1000_words": 6.0, "misses_found": 0.80}


def heldout_list() -> list[str]:
    """The pages ``heldout.txt`` holds out in the current round; none when it is absent or empty.

    Between rounds (the last round measured and absorbed, the next one's pages not chosen yet)
    every page is a development page.
    """
    return _page_list("heldout.txt")


def next_list() -> list[str]:
    """The pages ``heldout-next.txt`` lists: the next round's, prepared while the current one is held out.

    They are neither development nor held-out pages until they move to ``heldout.txt``: no part
    holds them, so nothing scans them before their blind annotation.
    """
    return _page_list("heldout-next.txt")


def _corpus_pages() -> list[str]:
    return corpus_pages(CORPUS)


def _page_list(name: str) -> list[str]:
    return page_list(CORPUS, name)


def annotated_list() -> list[str]:
    """The pages of every measured round (``heldout-round<N>.txt``): each has a full blind annotation."""
    lists = FIELD.glob("heldout-round*.txt")
    return sorted({page for path in lists for page in path.read_text(encoding="utf-8").split()})


def pages(part: str) -> list[str]:
    """Relative page paths of one part: ``dev``, ``heldout``, ``annotated`` or ``all`` (sorted).

    ``annotated`` is the development pages that an earlier round held out: the only pages whose
    every problem was marked blind, so strict precision (a signal the editor did not mark is
    false) can be read on them; it is not a held-out figure any more.
    """
    prepared = set(next_list())
    every = [page for page in _corpus_pages() if page not in prepared]
    held = set(heldout_list())
    if part == "heldout":
        return [page for page in every if page in held]
    if part == "dev":
        return [page for page in every if page not in held]
    if part == "annotated":
        annotated = set(annotated_list())
        return [page for page in every if page in annotated and page not in held]
    return every


# --- prose words ------------------------------------------------------------------------------

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HTML_LINE = re.compile(r"^\s*</?[A-Za-z][^>]*>\s*$")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_HEADING_ANCHOR = re.compile(r"\{#[^}]*\}|\{/\*[^}]*\*/\}")
_TAG = re.compile(r"</?[A-Za-z][^>]*>|<!--.*?-->")
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
_WORD = re.compile(r"[^\W_][\w'’.-]*")


def prose_words(text: str) -> int:
    """Visible words outside code, markup, URLs and front matter; a code span counts as one word.

    A Markdown-aware approximation of the prose view, kept here so the figure does not
    depend on which reader the package ships.
    """
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
        lines = lines[end + 1 :]
    count = 0
    fence: str | None = None
    for line in lines:
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        if _HTML_LINE.match(line) or _TABLE_RULE.match(line) or line.strip().startswith(":::"):
            continue
        line = _HEADING_ANCHOR.sub(" ", line)
        line = _LINK.sub(r"\1", line)
        line = _TAG.sub(" ", line)
        line = _CODE_SPAN.sub(" codespan ", line)
        count += len(_WORD.findall(line))
    return count


# --- scanning through the CLI -----------------------------------------------------------------


@dataclass(frozen=True)
class Signal:
    page: str
    rule: str
    level: str
    start: int
    end: int
    match: str
    signal_id: str = ""


def scan(language: str, page_list: Sequence[str], min_level: str, src: Path) -> list[Signal]:
    """Run the CLI of the package in ``src`` once over the pages of one language and return its signals.

    ``min_level`` "all" passes no ``--min-level`` (for a build from before rule levels,
    whose CLI showed every signal).
    """
    root = CORPUS / language
    # The CLI runs in corpus/<lang>: a relative src must name the checkout from where we were
    # started, or Python finds nothing there and measures the installed package instead.
    env = {**os.environ, "PYTHONPATH": str(src.resolve()) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    # --no-cache: the CLI's cache is keyed by the version and the rule data, not the runtime
    # code, so a change to the reader or the scanner would otherwise be measured stale.
    command = [sys.executable, "-m", "writing_rules", "scan", "--no-fail", "--no-cache", "--format", "json"]
    command += ["--language", language, *(() if min_level == "all" else ("--min-level", min_level)), *page_list]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"writing-rules scan failed ({done.returncode}): {done.stderr.strip()}")
    signals = []
    for entry in json.loads(done.stdout):
        for item in entry["signals"]:
            signals.append(
                Signal(
                    entry["path"],
                    item["ruleId"],
                    item.get("level", ""),
                    item["start"],
                    item["end"],
                    item["match"],
                    item.get("signalId", ""),
                )
            )
    return signals


# --- judgements and annotations ---------------------------------------------------------------


def _locate(text: str, quote: str) -> list[tuple[int, int]]:
    pattern = r"\s+".join(re.escape(word) for word in quote.split())
    return [match.span() for match in re.finditer(pattern, text)]


@dataclass(frozen=True)
class Judgement:
    page: str
    rule: str
    match: str
    spans: tuple[tuple[int, int], ...]  # of the judged sentence on its page (a repeated sentence: each)
    verdict: bool
    reason: str
    sentence: str


@dataclass(frozen=True)
class Annotation:
    page: str
    rule: str
    span: tuple[int, int]
    quote: str
    reason: str


def _load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    if not isinstance(data, list):
        raise FieldDataError(f"{path}: expected a list of entries")
    return data


def _page_text(language: str, page: str, cache: dict[str, str]) -> str:
    if page not in cache:
        cache[page] = (CORPUS / language / page).read_text(encoding="utf-8")
    return cache[page]


def load_judgements(language: str) -> tuple[list[Judgement], list[Annotation]]:
    """Judged signals and the misses noted while judging (``verdict: miss``) on the development pages."""
    path = FIELD / "judged" / f"{language}.yaml"
    texts: dict[str, str] = {}
    judged: list[Judgement] = []
    misses: list[Annotation] = []
    for number, entry in enumerate(_load(path), 1):
        try:
            page, rule, verdict, sentence = entry["page"], entry["rule"], entry["verdict"], entry["sentence"]
        except (KeyError, TypeError):
            raise FieldDataError(f"{path}: entry {number} needs page, rule, sentence and verdict") from None
        spans = _locate(_page_text(language, page, texts), sentence)
        if not spans:
            raise FieldDataError(f"{path}: entry {number}: sentence not found on {page}: {sentence!r}")
        if verdict == "miss":
            misses.append(Annotation(page, rule, spans[0], sentence, entry.get("reason", "")))
        elif isinstance(verdict, bool):
            reason = entry.get("reason", "")
            judged.append(Judgement(page, rule, entry["match"], tuple(spans), verdict, reason, sentence))
        else:
            raise FieldDataError(f"{path}: entry {number}: verdict must be true, false or miss")
    return judged, misses


def load_annotations(language: str) -> list[Annotation]:
    """The full miss annotation of the held-out pages, of this round and of earlier rounds.

    Each round appends the annotation of its pages; ``measure`` keeps the entries of the part
    it measures (a page held out in an earlier round is a development page now).
    """
    path = FIELD / "heldout" / f"{language}.yaml"
    texts: dict[str, str] = {}
    found = []
    for number, entry in enumerate(_load(path), 1):
        spans = _locate(_page_text(language, entry["page"], texts), entry["quote"])
        if len(spans) != 1:
            raise FieldDataError(f"{path}: entry {number}: quote found {len(spans)} times: {entry['quote']!r}")
        found.append(Annotation(entry["page"], entry["rule"], spans[0], entry["quote"], entry.get("reason", "")))
    return found


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def judge(signal: Signal, judged: Iterable[Judgement]) -> Judgement | None:
    for item in judged:
        if (
            item.page == signal.page
            and item.rule == signal.rule
            and any(start <= signal.start < end for start, end in item.spans)
            and (item.match.lower() in signal.match.lower() or signal.match.lower() in item.match.lower())
        ):
            return item
    return None


# --- figures ----------------------------------------------------------------------------------


@dataclass
class RuleFigures:
    signals: int = 0
    judged: int = 0
    true: int = 0
    misses: int = 0
    misses_found: int = 0
    unjudged: list[Signal] = field(default_factory=list)

    def row(self, words: int) -> dict[str, Any]:
        return {
            "signals": self.signals,
            "per_1000_words": round(1000 * self.signals / words, 2) if words else None,
            "judged": self.judged,
            "true": self.true,
            "precision": round(self.true / self.judged, 3) if self.judged else None,
            "not_judged": len(self.unjudged),
            "known_misses": self.misses,
            "misses_found": self.misses_found,
            "recall_of_known_misses": round(self.misses_found / self.misses, 3) if self.misses else None,
        }


def measure(
    language: str,
    part: str,
    min_level: str,
    src: Path = HERE.parent / "src",
    by_signal: bool = False,
    only: Sequence[str] | None = None,
) -> tuple[dict[str, RuleFigures], int]:
    """Figures per rule (or per rule and signal id, ``by_signal``; known misses stay per rule).

    ``only`` narrows the part to those pages (one measured round's, ``--round``).
    """
    page_list = pages(part) if only is None else [page for page in pages(part) if page in set(only)]
    texts = {page: (CORPUS / language / page).read_text(encoding="utf-8") for page in page_list}
    words = sum(prose_words(text) for text in texts.values())
    signals = scan(language, page_list, min_level, src)
    figures: dict[str, RuleFigures] = {}

    def key(signal: Signal) -> str:
        return f"{signal.rule}/{signal.signal_id}" if by_signal else signal.rule

    if part in ("heldout", "annotated"):
        annotations = [a for a in load_annotations(language) if a.page in texts]
        for signal in signals:
            row = figures.setdefault(key(signal), RuleFigures())
            row.signals += 1
            row.judged += 1
            row.true += any(
                a.page == signal.page and a.rule == signal.rule and _overlaps(a.span, (signal.start, signal.end))
                for a in annotations
            )
        misses = annotations
    else:
        judged, misses = load_judgements(language)
        judged = [item for item in judged if item.page in texts]
        for signal in signals:
            row = figures.setdefault(key(signal), RuleFigures())
            row.signals += 1
            verdict = judge(signal, judged)
            if verdict is None:
                row.unjudged.append(signal)
            else:
                row.judged += 1
                row.true += verdict.verdict
        # Pages held out in an earlier round are development pages now: their full annotation
        # keeps measuring recall here, beside the misses noted while judging.
        misses = [miss for miss in [*misses, *load_annotations(language)] if miss.page in texts]
    for miss in misses:
        row = figures.setdefault(miss.rule, RuleFigures())
        row.misses += 1
        row.misses_found += any(
            s.page == miss.page and s.rule == miss.rule and _overlaps(miss.span, (s.start, s.end)) for s in signals
        )
    return figures, words


def _total(figures: dict[str, RuleFigures]) -> RuleFigures:
    total = RuleFigures()
    for row in figures.values():
        total.signals += row.signals
        total.judged += row.judged
        total.true += row.true
        total.misses += row.misses
        total.misses_found += row.misses_found
        total.unjudged.extend(row.unjudged)
    return total


def _cell(value: Any) -> str:
    if value is None:
        return "n/a"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _sentence(language: str, signal: Signal) -> str:
    text = (CORPUS / language / signal.page).read_text(encoding="utf-8")
    start = max(text.rfind("\n\n", 0, signal.start), max(text.rfind(m, 0, signal.start) for m in (". ", "! ", "? ")))
    end_candidates = [i for i in (text.find(m, signal.end) for m in (". ", "! ", "? ", "\n\n", ".\n")) if i != -1]
    end = min(end_candidates) + 1 if end_candidates else len(text)
    return " ".join(text[start + 1 : end].split())


def check(languages: Sequence[str]) -> int:
    """Load every judgement and annotation without scanning and print counts per part and rule.

    Safe on held-out pages: it reads the pages' text to find the quotes, never signals, so an
    annotator can check a new round before anyone measures it.
    """
    held = set(pages("heldout"))
    prepared = set(next_list())
    for language in languages:
        judged, noted = load_judgements(language)
        annotations = load_annotations(language)
        print(f"{language}: {len(judged)} judged signals, {len(noted)} misses noted while judging")
        for part, rows in (
            ("dev", [a for a in annotations if a.page not in held and a.page not in prepared]),
            ("heldout", [a for a in annotations if a.page in held]),
            ("next round's", [a for a in annotations if a.page in prepared]),
        ):
            counts: dict[str, int] = {}
            for row in rows:
                counts[row.rule] = counts.get(row.rule, 0) + 1
            listed = ", ".join(f"{rule} {count}" for rule, count in sorted(counts.items()))
            print(f"  annotated misses on {part} pages: {len(rows)} ({listed or 'none'})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--part",
        choices=("dev", "heldout", "annotated"),
        default="dev",
        help="dev: development pages, precision over judged signals; heldout: the current round (once);"
        " annotated: the pages of every measured round, strict precision against their blind annotation",
    )
    parser.add_argument("--by-signal", action="store_true", help="one row per rule and signal id")
    parser.add_argument(
        "--min-level",
        choices=("error", "warning", "suggestion", "all"),
        default="warning",
        help="the CLI's --min-level (default: warning, the CLI's default view); 'all' passes none",
    )
    parser.add_argument(
        "--src", type=Path, default=HERE.parent / "src", help="the package source to measure (another checkout's src/)"
    )
    parser.add_argument("--language", choices=LANGUAGES, action="append")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--unjudged", choices=LANGUAGES, help="list the unjudged signals of one language")
    parser.add_argument(
        "--round",
        type=int,
        help="only the pages of one measured round (heldout-round<N>.txt): its judged ('shown') precision"
        " with the default part, its strict figures with --part annotated",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="only load the judgements and annotations (every quote must be on its page) and count them; scans nothing",
    )
    args = parser.parse_args(argv)
    if not (args.src / "writing_rules" / "__init__.py").is_file():
        parser.error(f"--src names a package source (a checkout's src/, holding writing_rules/); {args.src} is not one")
    if args.check:
        return check(args.language or LANGUAGES)
    if args.part == "heldout" and not pages("heldout"):
        print(
            "field_quality.py: no held-out pages are listed (field_eval/heldout.txt is absent or empty):"
            " the last round has been absorbed into the development part and the next round's pages"
            " are not chosen yet",
            file=sys.stderr,
        )
        return 2
    only: list[str] | None = None
    if args.round is not None:
        listed = FIELD / f"heldout-round{args.round}.txt"
        if args.part == "heldout" or not listed.exists():
            parser.error(f"--round names a measured round (field_eval/heldout-round<N>.txt); {listed.name} is not one")
        only = listed.read_text(encoding="utf-8").split()
    if args.unjudged and args.part != "dev":
        # Listing signals on a held-out page with their sentences would end its blindness.
        parser.error("--unjudged lists development pages only: the held-out pages stay unread until measured")
    if args.unjudged:
        figures, _ = measure(args.unjudged, args.part, args.min_level, args.src, args.by_signal, only)
        for rule, row in sorted(figures.items()):
            for signal in row.unjudged:
                print(f"{signal.page}\t{rule}\t{signal.level}\t{signal.match!r}\t{_sentence(args.unjudged, signal)}")
        return 0
    report: dict[str, Any] = {
        "part": args.part,
        "round": args.round,
        "min_level": args.min_level,
        "src": str(args.src),
        "targets": TARGETS,
        "languages": {},
    }
    for language in args.language or LANGUAGES:
        figures, words = measure(language, args.part, args.min_level, args.src, args.by_signal, only)
        report["languages"][language] = {
            "prose_words": words,
            "rules": {rule: figures[rule].row(words) for rule in sorted(figures)},
            "total": _total(figures).row(words),
        }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    columns = ("signals", "per_1000_words", "judged", "precision", "not_judged", "known_misses", "misses_found")
    pages_named = f", round {args.round}'s pages" if args.round is not None else ""
    level = f"level: {args.min_level} and above"
    print(f"part: {args.part}{pages_named}, {level}, package: {args.src} (targets: {TARGETS})")
    for language, data in report["languages"].items():
        print(f"\n{language}: {data['prose_words']} prose words")
        width = max(20, *(len(rule) + 1 for rule in data["rules"]))
        print(f"  {'rule':<{width}}" + "".join(f"{name:>15}" for name in columns))
        for rule, row in [*data["rules"].items(), ("TOTAL", data["total"])]:
            print(f"  {rule:<{width}}" + "".join(f"{_cell(row[name]):>15}" for name in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
