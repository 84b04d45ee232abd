"""Context analysis of English passive-voice signals on the blind-annotated pages.

Every passive-voice signal at suggestion level and above on the pages of the measured rounds
(``field_quality.py --part annotated``) gets its strict label (a blind editor marked passive
voice overlapping it), its manual (the page path's first folder) and context features that the
rule's text names (who acts: a step the reader performs or the program): a modal before the
passive, a participle of a reader's step or of the system, the subject, a "by" agent or gerund,
the reader addressed in the sentence, an imperative or To/If/When opening, a list item, a
numbered step, a heading, the sentence's length and the page's share of second-person
sentences.

Candidate rules are conjunctions of one to three features. Each is checked leave one manual
out: for every manual in turn the bar (strict precision, signals, manuals with a marked hit) is
applied to the other manuals, and where the candidate clears it there, its signals on the
left-out manual are counted. A rule that only clears the bar because of one manual's sentences
shows it here.

    python benchmarks/passive_context.py                 # features, then candidates to promote
    python benchmarks/passive_context.py --remove        # ... among the warnings, to demote
    python benchmarks/passive_context.py --top 40 --min-signals 5 --precision 0.85 --manuals 3
    python benchmarks/passive_context.py --src ../other-checkout/src   # the signals of another build

Only the standard library and the scan of ``field_quality.py`` are used.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import field_quality as fq  # noqa: E402  (benchmarks/ is this script's folder)

LANGUAGE = "en"
BROAD = "be-participle-en"  # the suggestion that reads every passive

# Participles of a step the reader takes, and of what the program or system does (the rule's
# "who acts"); a word may be in neither.
READER_STEPS = frozenset(
    """configured installed set entered selected enabled disabled created added specified edited changed
    modified typed clicked pressed chosen opened saved deleted removed run executed started stopped restarted
    copied moved renamed checked assigned defined inserted placed put applied downloaded uploaded replaced
    uncommented appended mounted unmounted formatted resized adjusted customized customised activated
    deactivated launched filled dragged dropped drawn highlighted positioned aligned rotated scaled pasted
    printed""".split()
)
SYSTEM_ACTS = frozenset(
    """displayed shown stored called returned used generated produced handled processed rendered updated
    triggered evaluated printed logged cached computed calculated determined detected included contained
    provided supported released maintained distributed packaged shipped known named designed intended
    interpreted reported listed described documented ignored skipped affected caused""".split()
)
IMPERATIVES = frozenset(
    """add use click select choose press open run type enter set change edit install create make check see go
    remove delete copy move rename save close start stop restart configure enable disable specify insert place
    put apply follow read ensure drag drop navigate switch turn tap hold find look keep try download upload
    update upgrade write replace mark uncheck define assign fill avoid do""".split()
)
_MODAL = re.compile(
    r"\b(can|could|may|might|must|should|shall|will|would|needs? to|has to|have to|had to|ought to)"
    r"(?: (?:not|also|then|now|only|easily|simply|still|always|never|usually|safely|first|therefore|just|"
    r"instead|further|later|optionally|alternatively|actually))*\s*$",
    re.IGNORECASE,
)
_SUBORDINATE = re.compile(
    r"\b(?:if|when|whenever|once|after|before|until|unless|while|because|since|although|though|whether)\b",
    re.IGNORECASE,
)
_RELATIVE = re.compile(r"\b(?:which|that|who|whose|where)\b[^,;:]{0,60}$", re.IGNORECASE)
_LIST_ITEM = re.compile(r"\s*(?:[-*+]|\d+[.)])\s")
_NUMBERED = re.compile(r"\s*\d+[.)]\s")
_ABBREVIATION = re.compile(r"(?:\be\.g|\bi\.e|\betc|\bvs|\bcf)$")
_SECOND_PERSON = re.compile(r"\byou(?:r|rs)?\b", re.IGNORECASE)


@dataclass(frozen=True)
class Row:
    """One passive-voice signal with its strict label, manual and context features."""

    page: str
    manual: str
    signal_id: str
    match: str
    sentence: str
    marked: bool
    features: frozenset[str] = field(default_factory=frozenset)


def sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around ``text[start:end]``: from a sentence end, a blank line or a list item to the next."""
    left = start
    while left > 0:
        if text[left - 1] == "\n" and (left < 2 or text[left - 2] == "\n" or _LIST_ITEM.match(text, left)):
            break
        if (
            text[left - 1] in ".!?"
            and text[left : left + 1] in (" ", "\n")
            and not _ABBREVIATION.search(text, 0, left - 1)
        ):
            break
        left -= 1
    right = end
    while right < len(text):
        if (
            text[right] in ".!?"
            and text[right + 1 : right + 2] in ("", " ", "\n")
            and not _ABBREVIATION.search(text, 0, right)
        ):
            right += 1
            break
        if text[right] == "\n" and (text[right + 1 : right + 2] == "\n" or _LIST_ITEM.match(text, right + 1)):
            break
        right += 1
    return left, right


def second_person_share(text: str) -> float:
    """Share of the page's sentences (over three words) that say "you" or "your"."""
    sentences = [part for part in re.split(r"(?<=[.!?])\s+", text) if len(part.split()) > 3]
    return sum(bool(_SECOND_PERSON.search(part)) for part in sentences) / len(sentences) if sentences else 0.0


def features(text: str, start: int, end: int, match: str, page_share: float) -> frozenset[str]:
    """The context features of one passive (names of the ones that hold)."""
    first, last = sentence_span(text, start, end)
    sentence, before, after = text[first:last], text[first:start], text[end:last]
    words = match.split()
    auxiliary, participle = words[0].lower(), words[-1].lower()
    modal_found = _MODAL.search(before) if auxiliary == "be" else None
    modal = modal_found.group(1).lower() if modal_found else ""
    opening = re.sub(r"^[\s>*#\-+\d.)|_`\[]*", "", sentence).split()
    first_word = opening[0].lower().strip("*_,") if opening else ""
    line_start = text.rfind("\n", 0, start) + 1
    line = text[line_start : text.find("\n", start) if "\n" in text[start:] else len(text)]
    negated = re.search(r"\b(?:not|never|cannot|no longer)\b|n[’']t\b", match + " " + before[-20:], re.IGNORECASE)
    held = {
        "modal": bool(modal),
        "modal can/may": modal in ("can", "may"),
        "modal must/should/need to": modal in ("must", "should", "shall", "need to", "needs to", "has to", "have to"),
        "modal will/would": modal in ("will", "would"),
        "past (was/were)": auxiliary in ("was", "were"),
        "participle of a reader's step": participle in READER_STEPS,
        "participle of the system": participle in SYSTEM_ACTS,
        "by + agent": bool(re.match(r"\s*(?:\w+ly\s+)?by\s+(?!\w+ing\b)", after)),
        "by + gerund later": bool(re.search(r"\bby\s+(?:\w+ly\s+)?\w+ing\b", after)),
        "automatically": "automatic" in sentence.lower(),
        "you in the sentence": bool(_SECOND_PERSON.search(sentence)),
        "imperative opening": first_word in IMPERATIVES,
        "To opening": first_word == "to",
        "If/When opening": first_word in ("if", "when", "whenever", "once", "after", "before", "unless"),
        "subordinate clause before": bool(_SUBORDINATE.search(before)),
        "relative clause": bool(_RELATIVE.search(before)),
        "subject this/that/it/they": bool(re.search(r"\b(?:this|that|these|those|it|they)\s*$", _strip_modal(before))),
        "subject a code span": bool(re.search(r"`[^`]*`\s*(?:\(\d\w*\)\s*)?(?:\w+\s+){0,2}$", before)),
        "list item": bool(_LIST_ITEM.match(line)),
        "numbered step": bool(_NUMBERED.match(line)),
        "heading": line.lstrip().startswith("#"),
        "table": line.lstrip().startswith("|"),
        "over 25 words": len(sentence.split()) > 25,
        "12 words or fewer": len(sentence.split()) <= 12,
        "page: 25% or more 'you'": page_share >= 0.25,
        "negated": bool(negated),
        "to-infinitive after": bool(re.match(r"\s*(?:\w+ly\s+)?to\s+(?!the\b|a\b|an\b|be\b)[a-z]+\b", after)),
        "in/on/at after": bool(re.match(r"\s*(?:in|on|at|under|into)\b", after)),
    }
    return frozenset(name for name, holds in held.items() if holds)


def _strip_modal(before: str) -> str:
    return re.sub(
        r"\b(?:can|could|may|might|must|should|will|would|needs? to|has to|have to|also|then|now|only|easily|"
        r"simply|not)\b\s*",
        "",
        before,
        flags=re.IGNORECASE,
    ).rstrip()


def rows(src: Path = HERE.parent / "src") -> list[Row]:
    """Every passive-voice signal at suggestion level and above on the annotated pages, labelled."""
    pages = fq.pages("annotated")
    signals = fq.scan(LANGUAGE, pages, "suggestion", src)
    marks = [a for a in fq.load_annotations(LANGUAGE) if a.rule == "passive-voice" and a.page in set(pages)]
    texts = {page: (fq.CORPUS / LANGUAGE / page).read_text(encoding="utf-8") for page in pages}
    shares = {page: second_person_share(text) for page, text in texts.items()}
    table = []
    for signal in signals:
        if signal.rule != "passive-voice":
            continue
        text = texts[signal.page]
        first, last = sentence_span(text, signal.start, signal.end)
        marked = any(a.page == signal.page and fq._overlaps(a.span, (signal.start, signal.end)) for a in marks)
        table.append(
            Row(
                signal.page,
                signal.page.split("/")[0],
                signal.signal_id,
                signal.match,
                " ".join(text[first:last].split()),
                marked,
                features(text, signal.start, signal.end, signal.match, shares[signal.page]),
            )
        )
    return table


@dataclass(frozen=True)
class Bar:
    """What a candidate must reach: strict precision, signals and manuals with a hit it wants."""

    precision: float = 0.85
    signals: int = 5
    manuals: int = 3

    def cleared(self, hits: Sequence[Row], wanted: Callable[[Row], bool]) -> bool:
        good = [row for row in hits if wanted(row)]
        return (
            len(hits) >= self.signals
            and len(good) >= self.precision * len(hits)
            and len({row.manual for row in good}) >= self.manuals
        )


@dataclass(frozen=True)
class Result:
    """One candidate: pooled figures, and the left-out manuals' figures where the others cleared the bar."""

    name: str
    signals: int
    wanted: int
    manuals: int
    folds: int
    held_signals: int
    held_wanted: int


def cross_validate(
    name: str, hits: Sequence[Row], every_manual: Iterable[str], bar: Bar, wanted: Callable[[Row], bool]
) -> Result:
    """Leave one manual out: where the candidate clears ``bar`` without a manual, count its hits on that manual."""
    folds = held = held_wanted = 0
    for manual in every_manual:
        if bar.cleared([row for row in hits if row.manual != manual], wanted):
            folds += 1
            left_out = [row for row in hits if row.manual == manual]
            held += len(left_out)
            held_wanted += sum(wanted(row) for row in left_out)
    good = [row for row in hits if wanted(row)]
    return Result(name, len(hits), len(good), len({row.manual for row in good}), folds, held, held_wanted)


def candidates(pool: Sequence[Row], size: int = 3, least: int = 4) -> dict[frozenset[int], tuple[str, ...]]:
    """Conjunctions of up to ``size`` features (each held or not held) with at least ``least`` signals.

    Keyed by the signals they select, so equal selections count once (under the shortest name).
    """
    names = sorted({name for row in pool for name in row.features})
    atoms: dict[str, frozenset[int]] = {}
    for name in names:
        held = frozenset(i for i, row in enumerate(pool) if name in row.features)
        atoms[name] = held
        atoms[f"not {name}"] = frozenset(range(len(pool))) - held
    found: dict[frozenset[int], tuple[str, ...]] = {}
    for count in range(1, size + 1):
        for combo in itertools.combinations(sorted(atoms), count):
            chosen = atoms[combo[0]]
            for atom in combo[1:]:
                chosen &= atoms[atom]
                if len(chosen) < least:
                    break
            if len(chosen) >= least and (chosen not in found or len(combo) < len(found[chosen])):
                found[chosen] = combo
    return found


def _ratio(part: int, whole: int) -> str:
    return f"{part}/{whole} = {part / whole:.2f}" if whole else "0/0"


def feature_table(pool: Sequence[Row]) -> None:
    marked = sum(row.marked for row in pool)
    print(f"{len(pool)} {BROAD} signals, {marked} marked ({marked / len(pool):.2f}); per feature:")
    for name in sorted({name for row in pool for name in row.features}):
        hits = [row for row in pool if name in row.features]
        good = [row for row in hits if row.marked]
        print(f"  {name:34} {_ratio(len(good), len(hits)):>18}  marked on {len({row.manual for row in good})} manuals")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--remove", action="store_true", help="look for unmarked classes among the warnings")
    parser.add_argument("--precision", type=float, default=0.85)
    parser.add_argument("--min-signals", type=int, default=5)
    parser.add_argument("--manuals", type=int, default=3)
    parser.add_argument("--top", type=int, default=25, help="also list this many of the best candidates under the bar")
    parser.add_argument(
        "--src",
        type=Path,
        default=HERE.parent / "src",
        help="the package source to scan with (another checkout's src/)",
    )
    args = parser.parse_args(argv)
    table = rows(args.src)
    manuals = sorted({row.manual for row in table})
    if args.remove:
        pool = [row for row in table if row.signal_id != BROAD]

        def wanted(row: Row) -> bool:
            return not row.marked

        print(f"{len(pool)} passive-voice warnings, {sum(not row.marked for row in pool)} unmarked")
    else:
        pool = [row for row in table if row.signal_id == BROAD]

        def wanted(row: Row) -> bool:
            return row.marked

        feature_table(pool)
    bar = Bar(args.precision, args.min_signals, args.manuals)
    results = [
        cross_validate(" & ".join(names), [pool[i] for i in sorted(chosen)], manuals, bar, wanted)
        for chosen, names in candidates(pool).items()
    ]
    passing = [r for r in results if r.wanted >= bar.precision * r.signals and r.signals >= bar.signals]
    passing = [r for r in passing if r.manuals >= bar.manuals]
    print(f"\ncandidates at the bar pooled ({bar}), with the left-out manuals where the others clear it:")
    for r in sorted(passing, key=lambda r: (-r.wanted, r.name)):
        print(
            f"  {r.name:70} pooled {_ratio(r.wanted, r.signals)} ({r.manuals} manuals);"
            f" held out in {r.folds} folds: {_ratio(r.held_wanted, r.held_signals)}"
        )
    if not passing:
        print("  none")
    print(f"\nthe best {args.top} with {max(3 * bar.signals, 15)} signals or more:")
    larger = [r for r in results if r.signals >= max(3 * bar.signals, 15)]
    for r in sorted(larger, key=lambda r: (-r.wanted / r.signals, -r.wanted, r.name))[: args.top]:
        print(f"  {r.name:70} pooled {_ratio(r.wanted, r.signals)} ({r.manuals} manuals)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
