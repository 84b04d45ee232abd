"""Context analysis of the German passive-voice signals: which context tells a marked passive from an unmarked one?

Every ``passive-voice`` signal the CLI reports at suggestion level and above on the annotated
pages (the pages of every measured round, ``field_quality.py --part annotated``) is labelled
strictly (true when a blind editor marked ``passive-voice`` overlapping it) and described by
context features the rule's ``## de`` text names: who acts (a modal in the clause, the
participle a step of the reader or an action of the program, an agent ``von/vom/durch``,
``automatisch``), whether the sentence speaks to the readers (``Sie/du`` in the clause or the
sentence, an imperative), how it is built (``es wird``/``man``, a step adverb such as
``Dann/Nun/Anschließend``, ``Um/Wenn/Falls`` at the start, a relative, ``dass`` or ``wenn``
clause, negation, past tense), where it stands (list item, numbered step, sentence length) and
the page's share of sentences that address the readers.

It prints, for the suggestions (candidates for a warning) and the warnings (candidates for
removal):

- one row per feature: signals, marked, strict precision, manuals with a marked hit;
- leave one manual out (``--cv``): for each manual in turn, the conjunction of 1-3 features
  (or their negations) that finds the most on the other manuals at strict precision
  ``--target`` on at least three manuals, scored on the left-out manual; the left-out scores
  pooled. A context that carries scores as well on a manual it was not picked on. For the
  warnings the bar is a removal's: at least two unmarked signals per marked one.

    python benchmarks/passive_context_de.py            # feature table
    python benchmarks/passive_context_de.py --cv       # ... and leave one manual out
    python benchmarks/passive_context_de.py --list modal_kann,reader_verb   # signals with these features

Pages of the current and the next held-out round are never read (``field_quality.pages``).
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import field_quality as fq  # noqa: E402

RULE = "passive-voice"
LANGUAGE = "de"

_ABBREVIATION = re.compile(
    r"(?:\b(?:z|d|u|s|o|v|bzw|ca|ggf|vgl|usw|etc|Nr|inkl|evtl|sog|max|min|bspw|Abb|Kap)\.|\d\.)$"
)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_AUXILIARY = re.compile(r"^(?:[Ww]ird|[Ww]erden|[Ww]urden?|worden)$")
_MODALS = "kann|können|konnte|konnten|muss|müssen|musste|mussten|soll|sollen|sollte|sollten|darf|dürfen|durfte|durften"
_MODAL = re.compile(rf"\b(?:{_MODALS}|{_MODALS.title()})\b")
_PARTICIPLE = re.compile(r"[a-zäöü][a-zäöüß]+(?:t|en)")
_ADDRESS = re.compile(r"\b(?:Sie|Ihr(?:e[mnrs]?)?|Ihnen|du|dein(?:e[mnrs]?)?|dich|dir)\b")
_IMPERATIVE = re.compile(r"(?:^|[,;:–—]\s*|\b(?:und|oder|dann)\s+)[A-ZÄÖÜ][a-zäöüß]+(?:en|ern|eln) Sie\b")
_STEP_ADVERB = re.compile(r"^(?:Dann|Nun|Anschließend|Danach|Jetzt|Zuerst|Zunächst|Schließlich)\b")
_RELATIVE = re.compile(
    r"^(?:der|die|das|dem|den|deren|dessen|denen|welche[rsmn]?|(?:in|mit|für|auf|an|über|von|bei|aus|durch)"
    r" (?:dem|der|denen|die|den))\b"
)
# A step the reader does in the program (the rule: "weil die Lesenden den Schritt selbst ausführen").
READER_STEPS = frozenset(
    "installiert konfiguriert eingegeben ausgewählt gewählt aktiviert deaktiviert eingestellt angegeben eingerichtet"
    " hinzugefügt geändert angepasst festgelegt gelöscht entfernt kopiert eingefügt eingetragen bearbeitet geklickt"
    " gedrückt markiert heruntergeladen hochgeladen importiert exportiert umbenannt verschoben deinstalliert zugewiesen"
    " gedruckt eingeschaltet ausgeschaltet angeklickt gezogen angeschlossen formatiert partitioniert ausgeschnitten"
    " benannt gesetzt angelegt geöffnet geschlossen gespeichert eingebunden erstellt geschrieben definiert aufgerufen"
    " gestartet gestoppt beendet ausgeführt verwendet benutzt genutzt eingesetzt übergeben kompiliert gebaut signiert"
    " gesichert wiederhergestellt überprüft geprüft getestet verknüpft angewendet aktualisiert registriert".split()
)
# What the program does (the rule: "weil eine bestimmte Komponente ihn ausführt", or nobody that matters).
PROGRAM_ACTIONS = frozenset(
    "angezeigt ausgegeben gerendert erzeugt generiert berechnet geladen verarbeitet übersetzt interpretiert behandelt"
    " ignoriert unterstützt dargestellt ausgelöst gesendet übertragen erkannt zurückgegeben protokolliert ausgewertet"
    " eingelesen hervorgehoben ermittelt abgespielt synchronisiert".split()
)
USE = frozenset({"verwendet", "benutzt", "genutzt", "eingesetzt"})


@dataclass
class Row:
    page: str
    level: str
    signal_id: str
    match: str
    marked: bool
    annotations: frozenset[int]
    sentence: str = ""
    features: dict[str, bool] = field(default_factory=dict)

    @property
    def manual(self) -> str:
        return self.page.split("/")[0]


def sentence_of(text: str, start: int, end: int) -> str:
    """The sentence around ``text[start:end]``: from the last sentence end, blank line or list item to the next."""
    i = start
    while i > 0:
        before = text[i - 1]
        if before == "\n" and (
            text[i - 2 : i] == "\n\n" or _LIST_ITEM.match(text[i : i + 8]) or text[i : i + 1] in "#|>"
        ):
            break
        if before in ".!?" and text[i : i + 1] in " \n" and not _ABBREVIATION.search(text[max(0, i - 8) : i]):
            break
        i -= 1
    j = end
    while j < len(text):
        here = text[j]
        if (
            here in ".!?"
            and text[j + 1 : j + 2] in ("", " ", "\n")
            and not _ABBREVIATION.search(text[max(0, j - 7) : j + 1])
        ):
            j += 1
            break
        if here == "\n" and (text[j + 1 : j + 2] == "\n" or _LIST_ITEM.match(text[j + 1 : j + 9])):
            break
        j += 1
    return " ".join(text[i:j].split())


def participle_of(match: str, signal_id: str) -> str:
    words: list[str] = [
        w for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", match) if not _AUXILIARY.match(w) and not _MODAL.fullmatch(w)
    ]
    found = [w for w in words if _PARTICIPLE.fullmatch(w)]
    if not found:
        return ""
    return found[0] if signal_id == "participle-werden-de" else found[-1]


def describe(row: Row, text: str, line: str, address_share: float) -> dict[str, bool]:
    sentence = row.sentence
    match = " ".join(row.match.split())
    start = max(sentence.find(match), 0)
    end = start + len(match)
    left = max(sentence.rfind(c, 0, start) for c in ",;:–—")
    rights = [k for k in (sentence.find(c, end) for c in ",;:–—") if k != -1]
    clause = sentence[left + 1 : min(rights) if rights else len(sentence)].strip()
    scope = clause + " " + match
    body = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+|^[#>|\s]+", "", sentence)
    participle = participle_of(row.match, row.signal_id)
    modal = bool(_MODAL.search(scope))
    return {
        "modal": modal,
        "modal_kann": bool(re.search(r"\b[Kk](?:ann|önnen)\b", scope)),
        "modal_muss_soll_darf": modal and not re.search(r"\b[Kk](?:ann|önnen|onnte|onnten)\b", scope),
        "past": bool(re.search(r"\b(?:[Ww]urden?|worden)\b", match)),
        "reader_verb": participle in READER_STEPS,
        "program_verb": participle in PROGRAM_ACTIONS,
        "use_verb": participle in USE,
        "agent": bool(re.search(r"\b(?:von|vom|durch)\b", scope)),
        "automatisch": "automatisch" in scope,
        "negated": bool(re.search(r"\b(?:nicht|kein|keine|keinen|keiner|nie|niemals)\b", scope)),
        "es_or_man": bool(
            re.search(r"\b(?:[Ee]s (?:wird|werden|wurde|kann|können|muss|müssen|sollte)|man)\b", sentence)
        ),
        "step_adverb": bool(_STEP_ADVERB.match(body)),
        "address_clause": bool(_ADDRESS.search(clause)),
        "address_sentence": bool(_ADDRESS.search(sentence)),
        "imperative": bool(_IMPERATIVE.search(sentence))
        or bool(re.match(r"[A-ZÄÖÜ][a-zäöüß]+(?:en|ern|eln) Sie\b", body)),
        "um_wenn_falls_start": bool(re.match(r"(?:Um|Wenn|Falls|Sobald|Bevor|Nachdem)\b", body)),
        "relative_clause": bool(_RELATIVE.match(clause)),
        "dass_ob_clause": bool(re.match(r"(?:dass|ob)\b", clause)),
        "wenn_clause": bool(re.match(r"(?:wenn|falls|sobald|bevor|nachdem)\b", clause, re.IGNORECASE)),
        "list_item": bool(_LIST_ITEM.match(line)),
        "numbered_step": bool(re.match(r"\s*\d+[.)]\s", line)),
        "long_sentence": len(sentence.split()) > 25,
        "short_sentence": len(sentence.split()) <= 12,
        "page_addresses_readers": address_share >= 0.3,
    }


def address_share(text: str) -> float:
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n\n", text) if len(s.split()) > 3]
    return sum(bool(_ADDRESS.search(s)) for s in sentences) / len(sentences) if sentences else 0.0


def load(src: Path) -> list[Row]:
    page_list = fq.pages("annotated")
    annotations = [a for a in fq.load_annotations(LANGUAGE) if a.rule == RULE and a.page in set(page_list)]
    texts = {page: (fq.CORPUS / LANGUAGE / page).read_text(encoding="utf-8") for page in page_list}
    shares = {page: address_share(text) for page, text in texts.items()}
    rows = []
    for signal in fq.scan(LANGUAGE, page_list, "suggestion", src):
        if signal.rule != RULE:
            continue
        overlapped = frozenset(
            n
            for n, a in enumerate(annotations)
            if a.page == signal.page and fq._overlaps(a.span, (signal.start, signal.end))
        )
        row = Row(signal.page, signal.level, signal.signal_id, signal.match, bool(overlapped), overlapped)
        text = texts[signal.page]
        row.sentence = sentence_of(text, signal.start, signal.end)
        line_start = text.rfind("\n", 0, signal.start) + 1
        line_end = text.find("\n", signal.start)
        line = text[line_start : line_end if line_end != -1 else len(text)]
        row.features = describe(row, text, line, shares[signal.page])
        rows.append(row)
    return rows


Literal = tuple[str, bool]


def holds(row: Row, conjunction: Sequence[Literal]) -> bool:
    return all(row.features[name] == value for name, value in conjunction)


def acceptable(n: int, good: int, manuals: int, promote: bool, target: float) -> bool:
    """A promotion needs strict precision ``target``, a removal two unmarked signals per marked one; both 3 manuals."""
    if manuals < 3 or good < 5:
        return False
    return good / n >= target if promote else good >= 2 * (n - good)


def cross_validate(rows: list[Row], promote: bool, target: float) -> None:
    names = sorted(rows[0].features)
    literals = [(name, value) for name in names for value in (True, False)]
    manuals = sorted({r.manual for r in rows})
    # per conjunction and manual: signals and good ones (marked for a promotion, unmarked for a removal)
    counts: dict[tuple[Literal, ...], dict[str, list[int]]] = {}
    for size in (1, 2, 3):
        for conjunction in itertools.combinations(literals, size):
            if len({name for name, _ in conjunction}) < size:
                continue
            per: dict[str, list[int]] = {}
            for row in rows:
                if holds(row, conjunction):
                    cell = per.setdefault(row.manual, [0, 0])
                    cell[0] += 1
                    cell[1] += row.marked == promote
            if sum(cell[0] for cell in per.values()) >= 3:
                counts[conjunction] = per
    what = "promotion to warning" if promote else "removal of the warning"
    print(f"\nleave one manual out, {what} ({len(counts)} conjunctions with >= 3 signals):")
    pooled = [0, 0]
    for manual in manuals:
        best: tuple[int, float, tuple[Literal, ...]] | None = None
        for conjunction, per in counts.items():
            others = [cell for name, cell in per.items() if name != manual]
            n, good = sum(c[0] for c in others), sum(c[1] for c in others)
            with_good = sum(1 for c in others if c[1])
            if n and acceptable(n, good, with_good, promote, target) and (best is None or (good, good / n) > best[:2]):
                best = (good, good / n, conjunction)
        if best is None:
            print(f"  {manual:30s} no conjunction qualifies on the other manuals")
            continue
        n, good = counts[best[2]].get(manual, [0, 0])
        pooled[0] += n
        pooled[1] += good
        chosen = " & ".join(name if value else f"not {name}" for name, value in best[2])
        print(f"  {manual:30s} {chosen}: others {best[0]} good, {best[1]:.2f} -> left out {good} good of {n}")
    ratio = f"{pooled[1] / pooled[0]:.2f}" if pooled[0] else "n/a"
    print(f"  pooled over the left-out manuals: {pooled[1]} good of {pooled[0]} ({ratio})")


def feature_table(rows: list[Row], title: str) -> None:
    print(f"\n{title}: {len(rows)} signals, {sum(r.marked for r in rows)} marked")
    print(f"  {'feature':26s} {'signals':>8} {'marked':>7} {'P':>5} {'manuals':>8}   (without it: signals, P)")
    for name in sorted(rows[0].features):
        on = [r for r in rows if r.features[name]]
        off = [r for r in rows if not r.features[name]]
        marked = sum(r.marked for r in on)
        manuals = len({r.manual for r in on if r.marked})
        p = f"{marked / len(on):.2f}" if on else "n/a"
        p_off = f"{sum(r.marked for r in off) / len(off):.2f}" if off else "n/a"
        print(f"  {name:26s} {len(on):8d} {marked:7d} {p:>5} {manuals:8d}   ({len(off)}, {p_off})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cv", action="store_true", help="leave one manual out, for a promotion and a removal")
    parser.add_argument("--target", type=float, default=0.85, help="strict precision a promotion needs (0.85)")
    parser.add_argument("--list", help="comma-separated features (prefix 'not ' to negate): print those signals")
    parser.add_argument("--src", type=Path, default=HERE.parent / "src", help="the package source to measure")
    args = parser.parse_args(argv)
    rows = load(args.src)
    suggestions = [r for r in rows if r.level == "suggestion"]
    warnings = [r for r in rows if r.level != "suggestion"]
    if args.list:
        wanted = [(name.removeprefix("not ").strip(), not name.startswith("not ")) for name in args.list.split(",")]
        for row in rows:
            if holds(row, wanted):
                print(f"{int(row.marked)} {row.level[:4]} {row.manual:28s} {row.match!r:40.40s} | {row.sentence[:160]}")
        return 0
    feature_table(suggestions, "suggestions (candidates for a warning)")
    feature_table(warnings, "warnings (candidates for removal)")
    if args.cv:
        cross_validate(suggestions, True, args.target)
        cross_validate(warnings, False, args.target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
