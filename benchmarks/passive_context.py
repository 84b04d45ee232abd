"""Context analysis of the passive-voice signals on the blind-annotated pages, English or German.

Every passive-voice signal at suggestion level and above on the pages of the measured rounds
(``field_quality.py --part annotated``) gets its strict label (a blind editor marked passive
voice overlapping it), its manual (the page path's first folder) and context features that the
rule's text names for its language (who acts: a step the reader performs or the program). Only
the features differ between the languages:

- en: a modal before the passive, a participle of a reader's step or of the system, the subject,
  a "by" agent or gerund, the reader addressed in the sentence, an imperative or To/If/When
  opening, a list item, a numbered step, a heading, the sentence's length and the page's share
  of second-person sentences;
- de: a modal in the clause (kann vs. muss/soll/darf), the participle a step of the reader or an
  action of the program, an agent von/vom/durch, automatisch, negation, es/man, a step adverb
  (Dann/Nun/Anschließend) at the start, Sie/du in the clause or the sentence, an imperative,
  Um/Wenn/Falls at the start, a relative, dass or wenn clause, past tense, list item, numbered
  step, sentence length and the page's share of sentences that address the readers.

The pool is the suggestions (candidates for a warning) or, with ``--remove``, the warnings
(candidates for removal: the "wanted" signals are then the unmarked ones). For the pool it prints
one row per feature, then conjunctions of one to three features (each held or not held), checked
leaving one manual out in two ways:

- per candidate: for every manual in turn the bar (strict precision, wanted signals, manuals with
  a wanted signal) is applied to the other manuals, and where the candidate clears it there, its
  signals on the left-out manual are counted (a rule that only clears the bar because of one
  manual's sentences shows it here);
- per fold: on the other manuals the candidate with the most wanted signals that clears the bar
  is chosen and scored on the left-out manual; the left-out scores pooled (does choosing a
  context carry to a manual it was not chosen on?).

The bar's precision is 0.85 unless ``--precision`` says otherwise (a fraction is read too: a
removal that loses one marked signal per two unmarked ones is ``--remove --precision 2/3``).

    python benchmarks/passive_context.py --language en            # features, then candidates to promote
    python benchmarks/passive_context.py --language de --remove --precision 2/3   # ... warnings, to demote
    python benchmarks/passive_context.py --language en --top 40 --min-signals 5 --precision 0.85 --manuals 3
    python benchmarks/passive_context.py --language de --list modal_kann,reader_verb   # signals with these
    python benchmarks/passive_context.py --language en --src ../other-checkout/src     # another build's signals

Only the standard library and the scan of ``field_quality.py`` are used; pages of the current and
the next held-out round are never read (``field_quality.pages``).
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import field_quality as fq  # noqa: E402  (benchmarks/ is this script's folder)

RULE = "passive-voice"


@dataclass(frozen=True)
class Row:
    """One passive-voice signal with its level, strict label, manual and the context features that hold."""

    page: str
    manual: str
    signal_id: str
    match: str
    sentence: str
    marked: bool
    features: frozenset[str] = field(default_factory=frozenset)
    level: str = "suggestion"


# English ---------------------------------------------------------------------------------------

# Participles of a step the reader takes, and of what the program or system does (the rule's
# "who acts"); a word may be in neither.
EN_READER_STEPS = frozenset(
    """configured installed set entered selected enabled disabled created added specified edited changed
    modified typed clicked pressed chosen opened saved deleted removed run executed started stopped restarted
    copied moved renamed checked assigned defined inserted placed put applied downloaded uploaded replaced
    uncommented appended mounted unmounted formatted resized adjusted customized customised activated
    deactivated launched filled dragged dropped drawn highlighted positioned aligned rotated scaled pasted
    printed""".split()
)
EN_SYSTEM_ACTS = frozenset(
    """displayed shown stored called returned used generated produced handled processed rendered updated
    triggered evaluated printed logged cached computed calculated determined detected included contained
    provided supported released maintained distributed packaged shipped known named designed intended
    interpreted reported listed described documented ignored skipped affected caused""".split()
)
EN_IMPERATIVES = frozenset(
    """add use click select choose press open run type enter set change edit install create make check see go
    remove delete copy move rename save close start stop restart configure enable disable specify insert place
    put apply follow read ensure drag drop navigate switch turn tap hold find look keep try download upload
    update upgrade write replace mark uncheck define assign fill avoid do""".split()
)
_EN_MODAL = re.compile(
    r"\b(can|could|may|might|must|should|shall|will|would|needs? to|has to|have to|had to|ought to)"
    r"(?: (?:not|also|then|now|only|easily|simply|still|always|never|usually|safely|first|therefore|just|"
    r"instead|further|later|optionally|alternatively|actually))*\s*$",
    re.IGNORECASE,
)
_EN_SUBORDINATE = re.compile(
    r"\b(?:if|when|whenever|once|after|before|until|unless|while|because|since|although|though|whether)\b",
    re.IGNORECASE,
)
_EN_RELATIVE = re.compile(r"\b(?:which|that|who|whose|where)\b[^,;:]{0,60}$", re.IGNORECASE)
_EN_LIST_ITEM = re.compile(r"\s*(?:[-*+]|\d+[.)])\s")
_EN_NUMBERED = re.compile(r"\s*\d+[.)]\s")
_EN_ABBREVIATION = re.compile(r"(?:\be\.g|\bi\.e|\betc|\bvs|\bcf)$")
_EN_SECOND_PERSON = re.compile(r"\byou(?:r|rs)?\b", re.IGNORECASE)


def en_sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around ``text[start:end]``: from a sentence end, a blank line or a list item to the next."""
    left = start
    while left > 0:
        if text[left - 1] == "\n" and (left < 2 or text[left - 2] == "\n" or _EN_LIST_ITEM.match(text, left)):
            break
        if (
            text[left - 1] in ".!?"
            and text[left : left + 1] in (" ", "\n")
            and not _EN_ABBREVIATION.search(text, 0, left - 1)
        ):
            break
        left -= 1
    right = end
    while right < len(text):
        if (
            text[right] in ".!?"
            and text[right + 1 : right + 2] in ("", " ", "\n")
            and not _EN_ABBREVIATION.search(text, 0, right)
        ):
            right += 1
            break
        if text[right] == "\n" and (text[right + 1 : right + 2] == "\n" or _EN_LIST_ITEM.match(text, right + 1)):
            break
        right += 1
    return left, right


def en_page_share(text: str) -> float:
    """Share of the page's sentences (over three words) that say "you" or "your"."""
    sentences = [part for part in re.split(r"(?<=[.!?])\s+", text) if len(part.split()) > 3]
    return sum(bool(_EN_SECOND_PERSON.search(part)) for part in sentences) / len(sentences) if sentences else 0.0


def en_features(text: str, start: int, end: int, match: str, signal_id: str, page_share: float) -> dict[str, bool]:
    """The context features of one English passive: each name, and whether it holds."""
    first, last = en_sentence_span(text, start, end)
    sentence, before, after = text[first:last], text[first:start], text[end:last]
    words = match.split()
    auxiliary, participle = words[0].lower(), words[-1].lower()
    modal_found = _EN_MODAL.search(before) if auxiliary == "be" else None
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
        "participle of a reader's step": participle in EN_READER_STEPS,
        "participle of the system": participle in EN_SYSTEM_ACTS,
        "by + agent": bool(re.match(r"\s*(?:\w+ly\s+)?by\s+(?!\w+ing\b)", after)),
        "by + gerund later": bool(re.search(r"\bby\s+(?:\w+ly\s+)?\w+ing\b", after)),
        "automatically": "automatic" in sentence.lower(),
        "you in the sentence": bool(_EN_SECOND_PERSON.search(sentence)),
        "imperative opening": first_word in EN_IMPERATIVES,
        "To opening": first_word == "to",
        "If/When opening": first_word in ("if", "when", "whenever", "once", "after", "before", "unless"),
        "subordinate clause before": bool(_EN_SUBORDINATE.search(before)),
        "relative clause": bool(_EN_RELATIVE.search(before)),
        "subject this/that/it/they": bool(
            re.search(r"\b(?:this|that|these|those|it|they)\s*$", _en_strip_modal(before))
        ),
        "subject a code span": bool(re.search(r"`[^`]*`\s*(?:\(\d\w*\)\s*)?(?:\w+\s+){0,2}$", before)),
        "list item": bool(_EN_LIST_ITEM.match(line)),
        "numbered step": bool(_EN_NUMBERED.match(line)),
        "heading": line.lstrip().startswith("#"),
        "table": line.lstrip().startswith("|"),
        "over 25 words": len(sentence.split()) > 25,
        "12 words or fewer": len(sentence.split()) <= 12,
        "page: 25% or more 'you'": page_share >= 0.25,
        "negated": bool(negated),
        "to-infinitive after": bool(re.match(r"\s*(?:\w+ly\s+)?to\s+(?!the\b|a\b|an\b|be\b)[a-z]+\b", after)),
        "in/on/at after": bool(re.match(r"\s*(?:in|on|at|under|into)\b", after)),
    }
    return held


def _en_strip_modal(before: str) -> str:
    return re.sub(
        r"\b(?:can|could|may|might|must|should|will|would|needs? to|has to|have to|also|then|now|only|easily|"
        r"simply|not)\b\s*",
        "",
        before,
        flags=re.IGNORECASE,
    ).rstrip()


# German ----------------------------------------------------------------------------------------

_DE_ABBREVIATION = re.compile(
    r"(?:\b(?:z|d|u|s|o|v|bzw|ca|ggf|vgl|usw|etc|Nr|inkl|evtl|sog|max|min|bspw|Abb|Kap)\.|\d\.)$"
)
_DE_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_DE_AUXILIARY = re.compile(r"^(?:[Ww]ird|[Ww]erden|[Ww]urden?|worden)$")
_DE_MODALS = (
    "kann|können|konnte|konnten|muss|müssen|musste|mussten|soll|sollen|sollte|sollten|darf|dürfen|durfte|durften"
)
_DE_MODAL = re.compile(rf"\b(?:{_DE_MODALS}|{_DE_MODALS.title()})\b")
_DE_PARTICIPLE = re.compile(r"[a-zäöü][a-zäöüß]+(?:t|en)")
_DE_ADDRESS = re.compile(r"\b(?:Sie|Ihr(?:e[mnrs]?)?|Ihnen|du|dein(?:e[mnrs]?)?|dich|dir)\b")
_DE_IMPERATIVE = re.compile(r"(?:^|[,;:–—]\s*|\b(?:und|oder|dann)\s+)[A-ZÄÖÜ][a-zäöüß]+(?:en|ern|eln) Sie\b")
_DE_STEP_ADVERB = re.compile(r"^(?:Dann|Nun|Anschließend|Danach|Jetzt|Zuerst|Zunächst|Schließlich)\b")
_DE_RELATIVE = re.compile(
    r"^(?:der|die|das|dem|den|deren|dessen|denen|welche[rsmn]?|(?:in|mit|für|auf|an|über|von|bei|aus|durch)"
    r" (?:dem|der|denen|die|den))\b"
)
# A step the reader does in the program (the rule: "weil die Lesenden den Schritt selbst ausführen").
DE_READER_STEPS = frozenset(
    "installiert konfiguriert eingegeben ausgewählt gewählt aktiviert deaktiviert eingestellt angegeben eingerichtet"
    " hinzugefügt geändert angepasst festgelegt gelöscht entfernt kopiert eingefügt eingetragen bearbeitet geklickt"
    " gedrückt markiert heruntergeladen hochgeladen importiert exportiert umbenannt verschoben deinstalliert zugewiesen"
    " gedruckt eingeschaltet ausgeschaltet angeklickt gezogen angeschlossen formatiert partitioniert ausgeschnitten"
    " benannt gesetzt angelegt geöffnet geschlossen gespeichert eingebunden erstellt geschrieben definiert aufgerufen"
    " gestartet gestoppt beendet ausgeführt verwendet benutzt genutzt eingesetzt übergeben kompiliert gebaut signiert"
    " gesichert wiederhergestellt überprüft geprüft getestet verknüpft angewendet aktualisiert registriert".split()
)
# What the program does (the rule: "weil eine bestimmte Komponente ihn ausführt", or nobody that matters).
DE_PROGRAM_ACTIONS = frozenset(
    "angezeigt ausgegeben gerendert erzeugt generiert berechnet geladen verarbeitet übersetzt interpretiert behandelt"
    " ignoriert unterstützt dargestellt ausgelöst gesendet übertragen erkannt zurückgegeben protokolliert ausgewertet"
    " eingelesen hervorgehoben ermittelt abgespielt synchronisiert".split()
)
DE_USE = frozenset({"verwendet", "benutzt", "genutzt", "eingesetzt"})


def de_sentence(text: str, start: int, end: int) -> str:
    """The sentence around ``text[start:end]``: from the last sentence end, blank line or list item to the next."""
    i = start
    while i > 0:
        before = text[i - 1]
        if before == "\n" and (
            text[i - 2 : i] == "\n\n" or _DE_LIST_ITEM.match(text[i : i + 8]) or text[i : i + 1] in "#|>"
        ):
            break
        if before in ".!?" and text[i : i + 1] in " \n" and not _DE_ABBREVIATION.search(text[max(0, i - 8) : i]):
            break
        i -= 1
    j = end
    while j < len(text):
        here = text[j]
        if (
            here in ".!?"
            and text[j + 1 : j + 2] in ("", " ", "\n")
            and not _DE_ABBREVIATION.search(text[max(0, j - 7) : j + 1])
        ):
            j += 1
            break
        if here == "\n" and (text[j + 1 : j + 2] == "\n" or _DE_LIST_ITEM.match(text[j + 1 : j + 9])):
            break
        j += 1
    return " ".join(text[i:j].split())


def de_participle(match: str, signal_id: str) -> str:
    words: list[str] = [
        w for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", match) if not _DE_AUXILIARY.match(w) and not _DE_MODAL.fullmatch(w)
    ]
    found = [w for w in words if _DE_PARTICIPLE.fullmatch(w)]
    if not found:
        return ""
    return found[0] if signal_id == "participle-werden-de" else found[-1]


def de_features(text: str, start: int, end: int, match: str, signal_id: str, page_share: float) -> dict[str, bool]:
    """The context features of one German passive: each name, and whether it holds."""
    sentence = de_sentence(text, start, end)
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start : line_end if line_end != -1 else len(text)]
    participle = de_participle(match, signal_id)
    match = " ".join(match.split())
    at = max(sentence.find(match), 0)
    stop = at + len(match)
    left = max(sentence.rfind(c, 0, at) for c in ",;:–—")
    rights = [k for k in (sentence.find(c, stop) for c in ",;:–—") if k != -1]
    clause = sentence[left + 1 : min(rights) if rights else len(sentence)].strip()
    scope = clause + " " + match
    body = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+|^[#>|\s]+", "", sentence)
    modal = bool(_DE_MODAL.search(scope))
    return {
        "modal": modal,
        "modal_kann": bool(re.search(r"\b[Kk](?:ann|önnen)\b", scope)),
        "modal_muss_soll_darf": modal and not re.search(r"\b[Kk](?:ann|önnen|onnte|onnten)\b", scope),
        "past": bool(re.search(r"\b(?:[Ww]urden?|worden)\b", match)),
        "reader_verb": participle in DE_READER_STEPS,
        "program_verb": participle in DE_PROGRAM_ACTIONS,
        "use_verb": participle in DE_USE,
        "agent": bool(re.search(r"\b(?:von|vom|durch)\b", scope)),
        "automatisch": "automatisch" in scope,
        "negated": bool(re.search(r"\b(?:nicht|kein|keine|keinen|keiner|nie|niemals)\b", scope)),
        "es_or_man": bool(
            re.search(r"\b(?:[Ee]s (?:wird|werden|wurde|kann|können|muss|müssen|sollte)|man)\b", sentence)
        ),
        "step_adverb": bool(_DE_STEP_ADVERB.match(body)),
        "address_clause": bool(_DE_ADDRESS.search(clause)),
        "address_sentence": bool(_DE_ADDRESS.search(sentence)),
        "imperative": bool(_DE_IMPERATIVE.search(sentence))
        or bool(re.match(r"[A-ZÄÖÜ][a-zäöüß]+(?:en|ern|eln) Sie\b", body)),
        "um_wenn_falls_start": bool(re.match(r"(?:Um|Wenn|Falls|Sobald|Bevor|Nachdem)\b", body)),
        "relative_clause": bool(_DE_RELATIVE.match(clause)),
        "dass_ob_clause": bool(re.match(r"(?:dass|ob)\b", clause)),
        "wenn_clause": bool(re.match(r"(?:wenn|falls|sobald|bevor|nachdem)\b", clause, re.IGNORECASE)),
        "list_item": bool(_DE_LIST_ITEM.match(line)),
        "numbered_step": bool(re.match(r"\s*\d+[.)]\s", line)),
        "long_sentence": len(sentence.split()) > 25,
        "short_sentence": len(sentence.split()) <= 12,
        "page_addresses_readers": page_share >= 0.3,
    }


def de_page_share(text: str) -> float:
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n\n", text) if len(s.split()) > 3]
    return sum(bool(_DE_ADDRESS.search(s)) for s in sentences) / len(sentences) if sentences else 0.0


# Both languages --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Language:
    """What differs between the languages: the sentence around a signal and the context features."""

    sentence: Callable[[str, int, int], str]
    page_share: Callable[[str], float]
    features: Callable[[str, int, int, str, str, float], dict[str, bool]]


def _en_sentence(text: str, start: int, end: int) -> str:
    first, last = en_sentence_span(text, start, end)
    return " ".join(text[first:last].split())


LANGUAGES = {
    "en": Language(_en_sentence, en_page_share, en_features),
    "de": Language(de_sentence, de_page_share, de_features),
}


def rows(language: str, src: Path = HERE.parent / "src") -> tuple[list[Row], list[str]]:
    """Every passive-voice signal at suggestion level and above on the annotated pages, labelled; the feature names."""
    spec = LANGUAGES[language]
    pages = fq.pages("annotated")
    signals = fq.scan(language, pages, "suggestion", src)
    marks = [a for a in fq.load_annotations(language) if a.rule == RULE and a.page in set(pages)]
    texts = {page: (fq.CORPUS / language / page).read_text(encoding="utf-8") for page in pages}
    shares = {page: spec.page_share(text) for page, text in texts.items()}
    table = []
    names: set[str] = set()
    for signal in signals:
        if signal.rule != RULE:
            continue
        text = texts[signal.page]
        marked = any(a.page == signal.page and fq._overlaps(a.span, (signal.start, signal.end)) for a in marks)
        held = spec.features(text, signal.start, signal.end, signal.match, signal.signal_id, shares[signal.page])
        names.update(held)
        table.append(
            Row(
                signal.page,
                signal.page.split("/")[0],
                signal.signal_id,
                signal.match,
                spec.sentence(text, signal.start, signal.end),
                marked,
                frozenset(name for name, holds in held.items() if holds),
                signal.level,
            )
        )
    return table, sorted(names)


Literal = tuple[str, bool]


def holds(row: Row, conjunction: Iterable[Literal]) -> bool:
    """Whether every feature of ``conjunction`` holds (True) or does not hold (False) on ``row``."""
    return all((name in row.features) == value for name, value in conjunction)


def parse_literals(text: str) -> list[Literal]:
    """``"a,not b"`` -> [("a", True), ("b", False)]."""
    return [
        (part.strip().removeprefix("not ").strip(), not part.strip().startswith("not ")) for part in text.split(",")
    ]


@dataclass(frozen=True)
class Bar:
    """What a candidate must reach: strict precision, wanted signals and manuals with a wanted signal."""

    precision: float = 0.85
    signals: int = 5
    manuals: int = 3

    def cleared(self, hits: Sequence[Row], wanted: Callable[[Row], bool]) -> bool:
        good = [row for row in hits if wanted(row)]
        return (
            len(good) >= self.signals
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


def candidates(pool: Sequence[Row], size: int = 3, least: int = 3) -> dict[frozenset[int], tuple[str, ...]]:
    """Conjunctions of up to ``size`` features (each held or not held) with at least ``least`` signals.

    Keyed by the signals they select, so equal selections count once (under the first, shortest name).
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


@dataclass(frozen=True)
class Fold:
    """One left-out manual: the candidate chosen on the others (``None``: none cleared the bar) and its score."""

    manual: str
    chosen: str | None
    others_wanted: int
    others_signals: int
    held_wanted: int
    held_signals: int


def choose_per_fold(
    selections: Sequence[tuple[str, Sequence[Row]]],
    every_manual: Iterable[str],
    bar: Bar,
    wanted: Callable[[Row], bool],
) -> list[Fold]:
    """Leave one manual out: choose on the other manuals, score on the left-out one.

    The chosen candidate clears ``bar`` on the others and has the most wanted signals there (then
    the highest precision; on a tie the first in ``selections``).
    """
    folds = []
    for manual in every_manual:
        best: tuple[int, float, int] | None = None
        for number, (_, hits) in enumerate(selections):
            others = [row for row in hits if row.manual != manual]
            if others and bar.cleared(others, wanted):
                good = sum(wanted(row) for row in others)
                if best is None or (good, good / len(others)) > best[:2]:
                    best = (good, good / len(others), number)
        if best is None:
            folds.append(Fold(manual, None, 0, 0, 0, 0))
            continue
        name, hits = selections[best[2]]
        others = [row for row in hits if row.manual != manual]
        left_out = [row for row in hits if row.manual == manual]
        folds.append(
            Fold(
                manual,
                name,
                best[0],
                len(others),
                sum(wanted(row) for row in left_out),
                len(left_out),
            )
        )
    return folds


def _ratio(part: int, whole: int) -> str:
    return f"{part}/{whole} = {part / whole:.2f}" if whole else "0/0"


def feature_table(pool: Sequence[Row], names: Sequence[str]) -> None:
    """One row per feature: signals, marked, strict precision, manuals with a marked one; and without it."""
    width = max(len(name) for name in [*names, "feature"])
    print(f"  {'feature':{width}s} {'signals':>8} {'marked':>7} {'P':>5} {'manuals':>8}   (without it: signals, P)")
    for name in names:
        on = [row for row in pool if name in row.features]
        off = [row for row in pool if name not in row.features]
        marked = sum(row.marked for row in on)
        manuals = len({row.manual for row in on if row.marked})
        p = f"{marked / len(on):.2f}" if on else "n/a"
        p_off = f"{sum(row.marked for row in off) / len(off):.2f}" if off else "n/a"
        print(f"  {name:{width}s} {len(on):8d} {marked:7d} {p:>5} {manuals:8d}   ({len(off)}, {p_off})")


def fraction(text: str) -> float:
    """``0.85`` or ``2/3`` as a float (argparse reports a ValueError as a usage error)."""
    try:
        return float(Fraction(text))
    except ZeroDivisionError as error:
        raise ValueError(text) from error


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--language", choices=sorted(LANGUAGES), default="en")
    parser.add_argument("--remove", action="store_true", help="look for unmarked classes among the warnings")
    parser.add_argument("--list", help="comma-separated features (prefix 'not ' to negate): print those signals")
    parser.add_argument(
        "--precision", type=fraction, default=0.85, help="strict precision of the wanted signals (0.85; 2/3 reads)"
    )
    parser.add_argument("--min-signals", type=int, default=5, help="wanted signals a candidate needs (5)")
    parser.add_argument("--manuals", type=int, default=3, help="manuals with a wanted signal a candidate needs (3)")
    parser.add_argument("--top", type=int, default=25, help="also list this many of the best candidates under the bar")
    parser.add_argument(
        "--src",
        type=Path,
        default=HERE.parent / "src",
        help="the package source to scan with (another checkout's src/)",
    )
    args = parser.parse_args(argv)
    table, names = rows(args.language, args.src)
    if args.list:
        conjunction = parse_literals(args.list)
        for row in table:
            if holds(row, conjunction):
                print(f"{int(row.marked)} {row.level[:4]} {row.manual:28s} {row.match!r:40.40s} | {row.sentence[:160]}")
        return 0
    manuals = sorted({row.manual for row in table})
    if args.remove:
        pool = [row for row in table if row.level != "suggestion"]

        def wanted(row: Row) -> bool:
            return not row.marked

        title = "warnings (candidates for removal; wanted: unmarked)"
    else:
        pool = [row for row in table if row.level == "suggestion"]

        def wanted(row: Row) -> bool:
            return row.marked

        title = "suggestions (candidates for a warning; wanted: marked)"
    marked = sum(row.marked for row in pool)
    print(f"{args.language} {title}: {len(pool)} signals, {marked} marked, {len(pool) - marked} unmarked")
    feature_table(pool, names)
    bar = Bar(args.precision, args.min_signals, args.manuals)
    found = candidates(pool)
    selections = [(" & ".join(combo), [pool[i] for i in sorted(chosen)]) for chosen, combo in found.items()]
    results = [cross_validate(name, hits, manuals, bar, wanted) for name, hits in selections]
    passing = [r for r, (_, hits) in zip(results, selections, strict=True) if bar.cleared(hits, wanted)]
    print(f"\ncandidates at the bar pooled ({bar}), with the left-out manuals where the others clear it:")
    for r in sorted(passing, key=lambda r: (-r.wanted, r.name)):
        print(
            f"  {r.name:70} pooled {_ratio(r.wanted, r.signals)} ({r.manuals} manuals);"
            f" held out in {r.folds} folds: {_ratio(r.held_wanted, r.held_signals)}"
        )
    if not passing:
        print("  none")
    least = max(3 * bar.signals, 15)
    print(f"\nthe best {args.top} with {least} signals or more:")
    larger = [r for r in results if r.signals >= least]
    for r in sorted(larger, key=lambda r: (-r.wanted / r.signals, -r.wanted, r.name))[: args.top]:
        print(f"  {r.name:70} pooled {_ratio(r.wanted, r.signals)} ({r.manuals} manuals)")
    print(
        f"\nleave one manual out, choosing on the others ({len(selections)} distinct selections of 3 signals or more):"
    )
    pooled = [0, 0]
    for fold in choose_per_fold(selections, sorted({row.manual for row in pool}), bar, wanted):
        if fold.chosen is None:
            print(f"  {fold.manual:30s} no conjunction qualifies on the other manuals")
            continue
        pooled[0] += fold.held_signals
        pooled[1] += fold.held_wanted
        print(
            f"  {fold.manual:30s} {fold.chosen}: others {_ratio(fold.others_wanted, fold.others_signals)}"
            f" -> left out {fold.held_wanted} wanted of {fold.held_signals}"
        )
    ratio = f"{pooled[1] / pooled[0]:.2f}" if pooled[0] else "n/a"
    print(f"  pooled over the left-out manuals: {pooled[1]} wanted of {pooled[0]} ({ratio})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
