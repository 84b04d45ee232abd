"""Fit the long-sentences warning on pooled evidence: every sentence of the field pages, measured.

For every prose sentence of the field corpus (``field_eval/corpus/<lang>``) with more than
``--min-words`` visible words, this script computes what the prose layer computes
(``writing_rules.prose``: visible words; ``structure``: the hardest part's words, clauses,
nesting depth, an inserted clause, words held back, load; and the number of parts cut at
``;`` or ``: ``) and labels the sentence from two sources:

- **annotated**: on the pages of every measured round (``heldout-round<N>.txt``) the blind
  editors marked every problem; a sentence is positive when a ``long-sentences`` annotation
  (``field_eval/heldout/<lang>.yaml``) overlaps it, negative otherwise (strict);
- **dev**: on every development page, the judged ``long-sentences`` signals
  (``field_eval/judged/<lang>.yaml``): true, false, or not judged.

Then it prints, per language, precision and recall of candidate rules in the rule source's
shape: a threshold on the load (``load > max_words``), alone or with up to two lower ones that
need chained clauses (``max_words`` with ``min_clauses``, one length signal each). "found"
counts annotated long sentences that the rule flags, as ``field_quality.py --part annotated``
does (one annotation, one sentence); "P ann." is strict precision on the annotated pages,
"P dev" precision over the judged flagged sentences of the development pages ("unj." of them not judged yet).

    python benchmarks/long_sentence_fit.py                    # both languages, the candidate table
    python benchmarks/long_sentence_fit.py --language de --list 38   # annotated sentences with load >= 38
    python benchmarks/long_sentence_fit.py --check            # the rule before and the shipped one (cf. the CLI)
    python benchmarks/long_sentence_fit.py --cv               # leave one manual out: does the fit carry?

``--cv`` picks, for each manual in turn, the candidate that finds the most at strict precision
``--target`` on the annotated pages of the other manuals, scores it on the left-out manual's
pages and pools those scores; a free fit that carries to a manual it has not seen scores as
well there as on the pages it was picked on.

Pages of the current and the next held-out round (``heldout.txt``, ``heldout-next.txt``) are never
read. Uses the package's public ``writing_rules.prose`` API and the loaders of ``field_quality.py``;
the shipped warning comes from the built-in catalogue (``writing_rules.packs.catalog_for(())``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import field_quality as fq  # noqa: E402

from writing_rules.packs import catalog_for  # noqa: E402
from writing_rules.prose import iter_sentences, long_sentences, markup_for_path, read_prose, structure  # noqa: E402

RULE = "long-sentences"
# A warning: (load limit, ((lower limit, clauses), ...)): a load over the limit, or over a lower
# limit with at least that many clauses (one length signal each, ``min_clauses``).
Limits = tuple[int, tuple[tuple[int, int], ...]]
# The warning before the round-13 refit (issue 28, rounds 1-12 pooled), as ``shipped`` gives the current one.
BEFORE: dict[str, Limits] = {"en": (44, ((40, 3),)), "de": (41, ((39, 4),))}


class ShapeError(Exception):
    """The rule's warning signals no longer have the shape this script fits."""


def shipped(language: str) -> Limits:
    """The shipped warning of ``language``, read from the built-in catalogue (so from
    ``rules-src/rules/long-sentences.md`` as compiled): the load limit of the rule's plain length
    signal at the warning level, and (lower limit, clauses) of each one with ``min_clauses``."""
    catalog = catalog_for(())
    levels = catalog.RULES[RULE].signal_levels
    warnings = [
        signal
        for signal in catalog.LENGTH_SIGNALS.get(language, ())
        if signal.rule_id == RULE and levels[signal.signal_id] == "warning"
    ]
    plain = [signal for signal in warnings if signal.min_clauses is None]
    chained = [signal for signal in warnings if signal.min_clauses is not None]
    if len(plain) != 1 or any(signal.max_words is None or signal.max_chars is not None for signal in warnings):
        names = ", ".join(signal.signal_id for signal in warnings) or "none"
        raise ShapeError(
            f"{RULE} ({language}) warns through {names}: this script fits one load limit (max_words) and "
            "lower limits with min_clauses, and no max_chars; extend warning() and describe()"
        )
    high = plain[0].max_words
    assert high is not None
    lower = sorted(((signal.max_words, signal.min_clauses) for signal in chained), key=lambda item: -item[0])
    return high, tuple(lower)


@dataclass(frozen=True)
class Row:
    page: str
    span: tuple[int, int]  # in the page's source
    annotated: bool  # the page has a full blind annotation
    marked: bool  # a blind editor marked it long-sentences (annotated pages only)
    verdict: bool | None  # judged verdict of a long-sentences signal on it (None: not judged)
    text: str
    visible: int  # visible words of the whole sentence
    words: int  # words of the hardest part (names, enumerations counted once)
    clauses: int
    depth: int
    inserted: bool
    held: int
    load: int
    parts: int  # parts cut at ";" or ": " outside brackets


def _parts(sentence: str) -> int:
    depth = 0
    parts = 1
    for piece in sentence.split():
        depth += piece.count("(") - piece.count(")")
        if depth <= 0 and piece[-1:] in ";:" and len(piece) > 1:
            parts += 1
    return parts


def rows(language: str, min_words: int) -> list[Row]:
    """Every sentence of more than ``min_words`` visible words on the development pages, labelled."""
    annotated_pages = set(fq.pages("annotated"))
    dev_pages = fq.pages("dev")
    annotations = [a for a in fq.load_annotations(language) if a.rule == "long-sentences"]
    judged = [j for j in fq.load_judgements(language)[0] if j.rule == "long-sentences"]
    found: list[Row] = []
    for page in dev_pages:
        source = (fq.CORPUS / language / page).read_text(encoding="utf-8")
        view = read_prose(source, markup_for_path(page))
        text = view.text
        for sentence in iter_sentences(text, language, longer_than=(min_words, None)):
            start, end = sentence.start, sentence.end
            # The rule's excluded contexts (heading, table; code is not prose) and one-quotation sentences,
            # as the scanner drops them.
            if view.is_heading(start) or view.in_table(start):
                continue
            if not long_sentences(text, language, 0, None, split=(sentence,)):
                continue
            span = view.source_span(start, end)
            measured = structure(text, start, end, language)
            marked = any(a.page == page and fq._overlaps(a.span, span) for a in annotations)
            verdicts = [j.verdict for j in judged if j.page == page and any(s <= span[0] < e for s, e in j.spans)]
            found.append(
                Row(
                    page,
                    span,
                    page in annotated_pages,
                    marked,
                    verdicts[0] if verdicts else None,
                    " ".join(text[start:end].split()),
                    sentence.words,
                    measured.words,
                    measured.clauses,
                    measured.depth,
                    measured.inserted,
                    measured.held_back,
                    measured.load,
                    _parts(text[start:end]),
                )
            )
    return found


Rule = Callable[[Row], bool]


def rounds() -> list[tuple[int, set[str]]]:
    """(round number, its pages) of every measured round."""
    found = []
    for path in fq.FIELD.glob("heldout-round*.txt"):
        found.append((int(path.stem.removeprefix("heldout-round")), set(path.read_text(encoding="utf-8").split())))
    return sorted(found, key=lambda item: item[0])


def figures(data: list[Row], flags: Rule) -> tuple[int, int, int, int, int]:
    """(flagged on annotated pages, of them marked, flagged on dev pages, of them judged true, not judged)."""
    ann = [row for row in data if row.annotated and flags(row)]
    dev = [row for row in data if flags(row)]
    return (
        len(ann),
        sum(row.marked for row in ann),
        len(dev),
        sum(row.verdict is True for row in dev),
        sum(row.verdict is None for row in dev),
    )


def flags(limits: Limits, row: Row) -> bool:
    """Whether the warning ``limits`` flags ``row``: load over the limit, or over a lower one with its clauses."""
    high, lower = limits
    return row.load > high or any(row.load > low and row.clauses >= clauses for low, clauses in lower)


def warning(limits: Limits) -> Rule:
    return lambda row: flags(limits, row)


def describe(limits: Limits) -> str:
    high, lower = limits
    return f"load > {high}" + "".join(f" or (load > {low} and clauses >= {clauses})" for low, clauses in lower)


def _ratio(part: int, whole: int) -> str:
    return f"{part / whole:.2f}" if whole else " n/a"


def limits_tried() -> Iterable[Limits]:
    """Candidate warnings, in the rule source's shape: a load limit alone, with one lower limit
    with chained clauses, or with two (the second lower and with more clauses)."""
    for high in range(30, 48):
        yield high, ()
    for high in range(40, 48):
        for low in range(34, high):
            for clauses in (3, 4, 5):
                yield high, ((low, clauses),)
                for low2 in range(34, low):
                    for clauses2 in range(clauses + 1, 7):
                        yield high, ((low, clauses), (low2, clauses2))


def candidates(language: str) -> Iterable[tuple[str, Rule]]:
    """(description, rule) of every candidate warning (``limits_tried``)."""
    for limits in limits_tried():
        yield describe(limits), warning(limits)


def table(language: str, data: list[Row], target: float, show_all: bool, top: int) -> None:
    marked = len([a for a in fq.load_annotations(language) if a.rule == "long-sentences"])
    print(
        f"\n{language}: {len(data)} sentences measured, {sum(row.annotated for row in data)} on annotated pages, "
        f"{marked} long-sentences annotations ({sum(row.marked for row in data)} on measured sentences)"
    )
    columns = ("ann.", "true", "P ann.", "found", "dev", "true", "P dev", "unj.")
    print(f"{'':9} {'rule':52} " + " ".join(f"{column:>6}" for column in columns))
    lines: list[tuple[bool, int, float, str]] = []
    before, current = describe(BEFORE[language]), describe(shipped(language))
    for name, rule in candidates(language):
        ann, true, dev, dev_true, unjudged = figures(data, rule)
        judged = dev - unjudged
        precision = true / ann if ann else 0.0
        ok = precision >= target and (dev_true / judged if judged else 0.0) >= target
        tag = "*" if ok else " "
        if name == before:
            tag += " before"
        if name == current:
            tag += " shipped"
        line = (
            f"{tag:9} {name:52} {ann:6} {true:6} {_ratio(true, ann):>6} {true:6} {dev:6} {dev_true:6} "
            f"{_ratio(dev_true, judged):>6} {unjudged:6}"
        )
        lines.append((" and " not in name or "before" in tag or "shipped" in tag, true, precision, line))
    # Every threshold alone; of the combinations, those on target that find the most.
    print("\n".join(line for alone, _, _, line in lines if alone or show_all))
    best = sorted((item for item in lines if not item[0] and item[3].startswith("*")), key=lambda x: (-x[1], -x[2]))
    if not show_all:
        print(f"  ... the {top} combinations on target (*: P ann. and P dev >= {target}) that find the most:")
        print("\n".join(line for _, _, _, line in best[:top]))


def source(page: str) -> str:
    """The manual a page comes from (its first path component: ``debian-reference``, ``vue`` …)."""
    return page.split("/", 1)[0]


def pick(counts: dict[Limits, dict[str, tuple[int, int]]], sources: Iterable[str], target: float) -> Limits | None:
    """The candidate that finds the most on ``sources`` with strict precision >= ``target`` there
    (ties: fewer lower limits, then higher precision, then the higher load limit)."""
    chosen = sources if isinstance(sources, (set, frozenset)) else set(sources)
    best: tuple[tuple[int, int, float, int], Limits] | None = None
    for limits, per_source in counts.items():
        flagged = sum(per_source.get(name, (0, 0))[0] for name in chosen)
        marked = sum(per_source.get(name, (0, 0))[1] for name in chosen)
        if not flagged or marked / flagged < target:
            continue
        key = (marked, -len(limits[1]), marked / flagged, limits[0])
        if best is None or key > best[0]:
            best = (key, limits)
    return None if best is None else best[1]


def cross_validate(language: str, data: list[Row], target: float, base: Limits | None = None) -> None:
    """Leave one manual out: pick the warning on the annotated pages of the other manuals, score it
    on the left-out one's, and pool the left-out scores (how well the fit carries to a new manual).
    With ``base``, only one more lower limit with chained clauses is picked, added to ``base``
    (or none), keeping the precision at the target or, where ``base`` is below it, at ``base``'s."""
    annotated = [row for row in data if row.annotated and row.load > 30]
    sources = sorted({source(row.page) for row in data if row.annotated})
    marked_of = {
        name: sum(row.marked for row in data if row.annotated and source(row.page) == name) for name in sources
    }
    counts: dict[Limits, dict[str, tuple[int, int]]] = {}
    tried = limits_tried() if base is None else _added_to(base)
    for limits in tried:
        per_source: dict[str, tuple[int, int]] = {}
        for row in annotated:
            if flags(limits, row):
                flagged, marked = per_source.get(source(row.page), (0, 0))
                per_source[source(row.page)] = (flagged + 1, marked + row.marked)
        counts[limits] = per_source
    family = "" if base is None else f", only a limit added to {describe(base)}"
    print(
        f"\n{language}: leave one manual out ({len(sources)} manuals; pick: most found at P ann. >= {target}{family})"
    )
    totals = {"picked": [0, 0], "before": [0, 0], "shipped": [0, 0]}
    fixed = {"before": BEFORE[language], "shipped": shipped(language)}
    for name in sources:
        others = set(sources) - {name}
        floor = target
        if base is not None:
            # An added limit may not take the precision below the target, nor below the base's own.
            flagged, marked = (sum(counts[base].get(other, (0, 0))[k] for other in others) for k in (0, 1))
            floor = min(target, marked / flagged if flagged else target)
        limits = pick(counts, others, floor)
        cells = []
        for label, rule in (("picked", limits), *fixed.items()):
            flagged, marked = (0, 0) if rule is None else _on(counts, rule, annotated, name)
            totals[label][0] += flagged
            totals[label][1] += marked
            cells.append(f"{label} {marked}/{flagged}")
        print(
            f"  {name:28} of {marked_of[name]:3}: {', '.join(cells)}   picked: {describe(limits) if limits else 'none'}"
        )
    total = sum(marked_of.values())
    for label, (flagged, marked) in totals.items():
        print(
            f"  {label:8} left-out pooled: {flagged} flagged, {marked} marked (P {_ratio(marked, flagged)}), "
            f"found {marked} of {total}"
        )
    print(f"  picked on every manual: {describe(pick(counts, set(sources), target) or (0, ()))}")


def _added_to(base: Limits) -> Iterable[Limits]:
    """``base`` alone, and with one more lower limit (34-40) that needs 3-6 clauses."""
    yield base
    for low in range(34, 41):
        for clauses in range(3, 7):
            if (low, clauses) not in base[1]:
                yield base[0], tuple(sorted((*base[1], (low, clauses)), reverse=True))


def _parse_limits(text: str) -> Limits:
    """``"41,40:4"`` -> (41, ((40, 4),)): a load limit, then lower limits with their clauses."""
    high, *lower = text.split(",")
    pairs = [item.split(":") for item in lower]
    return int(high), tuple(sorted(((int(low), int(clauses)) for low, clauses in pairs), reverse=True))


def _on(
    counts: dict[Limits, dict[str, tuple[int, int]]], limits: Limits, rows: list[Row], name: str
) -> tuple[int, int]:
    """(flagged, marked) of ``limits`` on the manual ``name`` (counted when it is no candidate)."""
    if limits in counts:
        return counts[limits].get(name, (0, 0))
    flagged = [row for row in rows if source(row.page) == name and flags(limits, row)]
    return len(flagged), sum(row.marked for row in flagged)


def listing(data: list[Row], low: int) -> None:
    for row in sorted(data, key=lambda row: (-row.load, row.page)):
        if row.load < low or not row.annotated:
            continue
        label = "MARKED" if row.marked else "-"
        verdict = {True: "judged true", False: "judged false", None: ""}[row.verdict]
        print(
            f"load {row.load:2} words {row.words:2}/{row.visible:2} clauses {row.clauses} depth {row.depth} "
            f"ins {int(row.inserted)} held {row.held:2} parts {row.parts}  {label:6} {verdict:12} {row.page}\n"
            f"    {row.text[:400]}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--language", choices=fq.LANGUAGES, action="append")
    parser.add_argument("--min-words", type=int, default=20, help="measure sentences over this many visible words")
    parser.add_argument("--target", type=float, default=0.85, help="precision both parts must reach (marked *)")
    parser.add_argument("--top", type=int, default=12, help="combinations on target to print")
    parser.add_argument("--all", action="store_true", help="print every candidate")
    parser.add_argument("--list", type=int, metavar="LOAD", help="list annotated-page sentences from this load")
    parser.add_argument("--check", action="store_true", help="the before and shipped rules only (compare the CLI's)")
    parser.add_argument("--cv", action="store_true", help="leave one manual out: pick on the others, score the one")
    parser.add_argument(
        "--cv-base",
        metavar="LIMITS",
        help='with --cv, pick only one lower limit with chained clauses added to these ("41,40:4")',
    )
    args = parser.parse_args(argv)
    for language in args.language or fq.LANGUAGES:
        data = rows(language, args.min_words)
        if args.list is not None:
            listing(data, args.list)
        elif args.cv:
            base = None if args.cv_base is None else _parse_limits(args.cv_base)
            cross_validate(language, data, args.target, base)
        elif args.check:
            for label, limits in (("before", BEFORE[language]), ("shipped", shipped(language))):
                ann, true, dev, dev_true, unjudged = figures(data, warning(limits))
                print(
                    f"{language} {label:7} {describe(limits)}: annotated {ann} flagged, {true} marked "
                    f"(P {_ratio(true, ann)}); dev {dev} flagged, {dev_true} judged true, {unjudged} not judged"
                )
                # Per round: flagged/marked (of the round's annotations), so one round cannot carry the fit.
                cells = []
                for number, round_pages in rounds():
                    flagged = [row for row in data if row.page in round_pages and warning(limits)(row)]
                    total = sum(row.marked for row in data if row.page in round_pages)
                    cells.append(f"r{number} {sum(row.marked for row in flagged)}/{len(flagged)} of {total}")
                print(f"   per round (marked/flagged of annotations): {', '.join(cells)}")
        else:
            table(language, data, args.target, args.all, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
