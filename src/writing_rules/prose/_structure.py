"""How hard a sentence is to take in: its words, clauses, nesting and what it holds back.

Editors judge a long sentence by its structure, not its word count alone: two
short parts joined by a semicolon read as two sentences, a straight "je mehr …,
desto …" of 33 words reads easily, while 35 words with a clause inserted into
another, or a German verb bracket held open by 15 words of inserted clauses,
do not. :func:`structure` measures one sentence of a prose view's text:

- **Parts.** The sentence is cut at ``;`` and at ``:`` followed by a space (outside
  brackets). When every part has at most 20 words, each is measured alone and
  the hardest part is the sentence's; otherwise the sentence is measured whole.
- **Words.** Visible words (a code span is one, a URL none), with a run of two or
  more capitalised words after the first word counted as one (a name or a title:
  "Astro Dev Toolbar", "Vue Router"), and each item after the first of an
  enumeration of short items counted once ("A, B, C und D").
  In English a bracketed cross-reference ("(see Section 10.3, …)") is one word.
- **Clauses.** A clause opens at a subordinator ("because", "if", "dass",
  "weil", …), at a relative pronoun after a comma (German also a preposition and
  a relative pronoun: ", in dem", and ", was"), at "um/ohne/statt … zu" after a
  comma, and in German at a focus particle and a subordinator after a comma
  (", selbst wenn", ", auch wenn", ", nur weil").
  A clause opened right after another one's comma nests one deeper; one after a
  comma of a main clause, or after "and"/"und", stays at its depth.
- **Inserted.** A subordinate clause or a bracketed or dashed aside of four
  words or more that the outer clause continues after ("Der Auftrag, der jede
  Nacht läuft, sammelt …"): a relative clause after at most eight words of the
  outer clause, or any subordinate clause after at most three words of a clause
  that is not the sentence's opening phrase ("wird Vue, anstatt …, jedes
  Element …", not "In addition, if …, it …"), where the outer clause resumes
  with a lower-case word that is no conjunction. A bracketed aside counts
  when the clause goes on after it without a comma.
- **Held back.** The words of inserted clauses before the outer clause resumes;
  in German also the words of a leading block of two or more subordinate clauses
  before the main clause's verb, and the words between a main clause's finite
  auxiliary or modal near its start (or its second word, when it ends with a
  separable particle) and the end of its verb bracket, when the bracket runs
  across inserted clauses.

``load`` folds these into one figure in words, which the sentence-length signals
compare with their ``max_words``: the words, plus 5 when the part has four
clauses nested three deep or an inserted clause, or plus 7 when it holds
something back by 15 words or more. So with ``max_words: 39``: 40 words, or 35
with complex nesting, or 33 with a held-back verb or main clause.
"""

from __future__ import annotations

import re
from itertools import compress
from operator import attrgetter
from typing import NamedTuple

from ._lazy_regex import lazy_compile
from ._view import CODE_PLACEHOLDER

__all__ = ["MAX_BONUS", "Structure", "may_add", "structure"]

COMPLEX_BONUS = 5  # four clauses nested three deep, or a clause inserted into another
HELD_BONUS = 7  # a verb, particle or main clause held back by HELD_WORDS words or more
MAX_BONUS = max(COMPLEX_BONUS, HELD_BONUS)
HELD_WORDS = 15
OUTER_WORDS = 8  # words before an inserted clause, in the segment it interrupts
SHORT_PART = 20  # words; a sentence of parts that are all this short is as hard as its hardest part


class Structure(NamedTuple):
    """The hardest part of one sentence, measured (see the module's doc)."""

    words: int
    clauses: int
    depth: int
    inserted: bool
    held_back: int
    load: int


_SUBORDINATORS = {
    "en": frozenset("because although though if unless whether while whereas until since which who whom whose".split()),
    "de": frozenset(
        """
        dass weil wenn ob obwohl obgleich während damit sodass bevor nachdem falls sobald solange
        indem seitdem sofern soweit wobei weshalb weswegen wodurch womit worauf woran wie als
        """.split()
    ),
}
# Openers that open a clause only at a comma (elsewhere they are articles, adverbs, prepositions).
_AT_COMMA = {
    "en": frozenset("where when that".split()),
    "de": frozenset("der die das dem den deren dessen denen welche welcher welches welchem welchen wo was".split()),
}
_DE_PREPOSITIONS = frozenset(
    "in an auf aus bei mit nach von vor zu über unter durch für gegen ohne um zwischen hinter neben".split()
)
_RELATIVES = {
    "en": frozenset("which who whom whose where that".split()),
    "de": frozenset("der die das dem den deren dessen denen welche welcher welches welchem welchen".split()),
}
_DE_RELATIVES = frozenset("der die das dem den deren dessen denen welche welcher welches welchem welchen".split())
_DE_INFINITIVE = frozenset("um ohne statt anstatt".split())
# A focus particle before a subordinator after a comma opens the clause with it (", selbst wenn …",
# ", auch wenn …", ", vor allem weil …" is "vor" + "allem": not read), not a main clause that resumes.
_DE_FOCUS = frozenset("selbst auch sogar nur gerade besonders insbesondere erst".split())
_CONJUNCTIONS = {
    "en": frozenset("and or but nor".split()),
    "de": frozenset("und oder aber sondern denn doch sowie".split()),
}
_DE_FINITE = frozenset(
    """
    kann können konnte konnten muss müssen musste mussten soll sollen sollte sollten darf dürfen
    will wollen wollte möchte möchten wird werden wurde wurden hat haben hatte hatten ist sind
    war waren lässt lassen
    """.split()
)
_DE_PARTICLES = frozenset(
    "an auf aus ab ein fest her hin hoch mit nach vor zu zurück weiter heraus herunter dar bei um".split()
)
# Inside a segment "als" and "wie" compare ("mehr als zehn"); they open a clause only at its start.
_COMPARISONS = frozenset(("als", "wie"))
_ENUMERATION_JOINS = frozenset("and or und oder sowie".split())
_NOT_NAMES = frozenset("i sie ihr ihre ihren ihrem ihrer ihres".split())
_URL = lazy_compile(r"[<(\[\"'“„«»]*(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.|mailto:)", re.ASCII)
_CORE = lazy_compile(f"[^\\W_][\\w'’.-]*[^\\W_]|[^\\W_]|{CODE_PLACEHOLDER}")
_OPENING = "([„“\"'‚‘«»"
_DASHES = frozenset("–—")


class _Token(NamedTuple):
    word: str  # the token's word, lower-cased ("" for no word: punctuation, a URL)
    capital: bool  # its word starts with a capital letter
    comma: bool  # a comma follows it
    colon: bool  # a colon or semicolon follows it
    opens: bool  # an opening bracket precedes it
    closes: bool  # a closing bracket follows it
    dash: bool  # the token is a dash


def may_add(text: str, start: int, end: int, language: str) -> bool:
    """False when ``structure`` of ``text[start:end]`` surely adds nothing to its words (then load <= words).

    A bonus needs a comma, a bracket or a dash (an inserted clause, a held-back verb, a
    nested clause after a comma), or at least two subordinators inside one stretch
    (clauses nested without commas). Most sentences have neither, and this test runs in C.
    """
    piece = text[start:end]
    if "," in piece or "(" in piece or "–" in piece or "—" in piece:
        return True
    # A hyphen counts as a dash only as a word of its own (any white space around it, or at an end).
    if "-" in piece and any(word in ("-", "--") for word in piece.split()):
        return True
    # (Counting every word that holds a subordinator may count too many, never too few.)
    subordinators = _SUBORDINATORS.get(language, frozenset())
    return sum(map(subordinators.__contains__, _WORDS.findall(piece.lower()))) >= 2


_WORDS = lazy_compile(r"\w+")


def structure(text: str, start: int, end: int, language: str) -> Structure:
    """The structure of the sentence ``text[start:end]`` (a prose view's text): its hardest part."""
    sentence = text[start:end]
    pieces = sentence.split()
    if language == "en":
        pieces = _collapse_references(pieces)
    tokens = list(map(_TOKENS.__getitem__, pieces))
    if ";" in sentence or ":" in sentence:
        parts: list[list[_Token]] = [[]]
        depth = 0
        for token, piece in zip(tokens, pieces, strict=True):
            parts[-1].append(token)
            if "(" in piece or ")" in piece:
                depth += piece.count("(") - piece.count(")")
            if depth <= 0 and piece[-1:] in ";:" and len(piece) > 1:
                parts.append([])
        parts = [part for part in parts if part]
    else:
        parts = [tokens] if tokens else []  # (most sentences: no piece ends a part)
    if not parts:
        return Structure(0, 0, 0, False, 0, 0)
    measured = [_part(part, language) for part in parts]
    # Parts are judged as parts only when each is short: two long halves are one long sentence.
    if len(measured) > 1 and any(part.words > SHORT_PART for part in measured):
        return _part([token for part in parts for token in part], language)
    return max(measured, key=lambda part: (part.load, part.words))


_REFERENCE_OPENERS = frozenset(("(see", "(cf."))


def _collapse_references(pieces: list[str]) -> list[str]:
    """An English cross-reference in brackets ("(see Section 10.3, “Data security”)") as one word.

    The reader skips such a pointer, so a sentence is not made long or nested by the titles
    it points to. Only a bracket that opens with "see" or "cf." and closes within 30 pieces.
    """
    if not any(piece.lower() in _REFERENCE_OPENERS for piece in pieces):
        return pieces
    result: list[str] = []
    index = 0
    while index < len(pieces):
        piece = pieces[index]
        if piece.lower() in _REFERENCE_OPENERS:
            depth = 1
            end = index + 1
            while end < len(pieces) and end - index <= 30:
                depth += pieces[end].count("(") - pieces[end].count(")")
                if depth <= 0:
                    break
                end += 1
            if end < len(pieces) and depth <= 0:
                # Keep what follows the closing bracket (",", ";", ".") on the single word.
                closing = pieces[end]
                # (A bracket closed with it that opened before "(see" stays closed.)
                tail = ")" * -depth + closing[closing.rfind(")") + 1 :]
                result.append("see" + tail)
                index = end + 1
                continue
        result.append(piece)
        index += 1
    return result


class _Tokens(dict[str, _Token]):
    """The token of each piece, made once per piece: words recur. Up to 4,096 pieces of up to
    64 characters are kept (a long-running server must not hold a hostile text's long pieces)."""

    def __missing__(self, piece: str) -> _Token:
        if piece.isalpha():  # most pieces: a plain word
            token = _Token(piece.lower(), piece[0].isupper(), False, False, False, False, False)
        else:
            token = _token(piece)
        if len(self) < 4096 and len(piece) <= 64:
            self[piece] = token
        return token


_TOKENS = _Tokens()


def _token(piece: str) -> _Token:
    if piece in _DASHES or piece == "-" or piece == "--":
        return _Token("", False, False, False, False, False, True)
    if _URL.match(piece):
        return _Token("", False, piece.endswith(","), False, False, False, False)
    core = _CORE.search(piece)
    word = "" if core is None else core.group()
    tail = piece[core.end() :] if core is not None else piece
    return _Token(
        word.lower(),
        word[:1].isupper(),
        "," in tail,
        ":" in tail or ";" in tail,
        piece[:1] == "(",
        ")" in tail,
        False,
    )


def _part(tokens: list[_Token], language: str) -> Structure:
    words = _words(tokens, language)
    segments = _segments(tokens)
    subordinators = _SUBORDINATORS.get(language, frozenset())
    at_comma = _AT_COMMA.get(language, frozenset())
    conjunctions = _CONJUNCTIONS.get(language, frozenset())
    clauses = 1
    depth = max_depth = 0
    inserted = False
    held = 0
    kinds: list[str] = []  # per segment: "sub" (opens a clause), "and" (coordinated), "main"
    relative: list[bool] = []  # per segment: opened by a relative pronoun (or "um … zu") at its comma
    # Each segment's words (every segment has one), listed once: the tests below read them often.
    words_of = [[token.word for token in segment if token.word] for segment in segments]
    counts = list(map(len, words_of))
    for index, segment in enumerate(segments):
        found = words_of[index]
        first = found[0]
        # The words after the segment's first token (its first word, unless that token is none).
        later = found[1:] if segment[0].word else found
        second = later[0] if later else ""
        opens = first in subordinators or (index > 0 and first in at_comma)
        focus = False
        if language == "de" and index > 0 and not opens:
            focus = first in _DE_FOCUS and second in subordinators and second not in _COMPARISONS
            opens = (
                focus
                or (first in _DE_PREPOSITIONS and second in _DE_RELATIVES)
                or (first in _DE_INFINITIVE and "zu" in found)
            )
        # A relative pronoun needs a clause after it: ", der Compiler, usw." is an enumeration;
        # An article before a noun is no relative pronoun either (", den Netlify Edge Functions,").
        # (A focus particle's segment is opened by its subordinator: ", auch wenn, wie hier, …".)
        if (
            opens
            and not focus
            and first not in subordinators
            and (counts[index] < 3 or (_second_capital(segment) and counts[index] < 6))
        ):
            opens = False
        relative.append(
            opens and not focus and (first in _RELATIVES.get(language, frozenset()) or first not in subordinators)
        )
        if opens:
            kind = "sub"
        elif first in conjunctions:
            kind = "and"
        else:
            kind = "main"
        kinds.append(kind)
        if kind == "sub":
            clauses += 1
            depth = depth + 1 if index > 0 and kinds[index - 1] == "sub" else max(depth, 1)
        elif kind == "main":
            depth = 0
        # A subordinator inside a segment opens a clause there too (English often has no comma).
        inner = (
            0
            if subordinators.isdisjoint(later)  # (most segments)
            else sum(1 for word in later if word in subordinators and word not in _COMPARISONS)
        )
        if focus:
            inner -= 1  # (the subordinator after the particle opened this clause: counted above)
        clauses += inner
        max_depth = max(max_depth, depth + inner)
    # An inserted clause: a subordinate run after a main segment that the main clause continues
    # after. Its words are held back from the outer clause.
    index = 1
    while index < len(segments):
        # (The outer part before it is short: a subject or an object still waiting for its verb,
        # not a whole clause followed by an afterthought.)
        outer = counts[index - 1]
        if (
            kinds[index] == "sub"
            and kinds[index - 1] in ("main", "sub")
            and ((outer <= 3 and index > 1) or (relative[index] and outer <= OUTER_WORDS))
        ):
            run_end = index
            while run_end < len(segments) and kinds[run_end] == "sub":
                run_end += 1
            if run_end < len(segments) and kinds[run_end] == "main" and _resumes(segments[run_end], language):
                inserted = True
                held = max(held, sum(counts[index:run_end]))
            index = run_end
        index += 1
    # Asides in brackets or between dashes, of four words or more, are inserted too.
    aside = _longest_aside(tokens)
    if aside >= 4:
        inserted = True
        held = max(held, aside)
    if language == "de":
        held = max(held, _leading_block(segments, kinds), _bracket(segments, kinds))
    if held >= HELD_WORDS:
        bonus = HELD_BONUS
    elif inserted or (clauses >= 4 and max_depth >= 3):
        bonus = COMPLEX_BONUS
    else:
        bonus = 0
    return Structure(words, clauses, max_depth, inserted, held, words + bonus)


def _words(tokens: list[_Token], language: str) -> int:
    """Visible words, a run of capitalised words (a name, a title) and enumerated items counted once."""
    count = 0
    previous_capital = False
    for position, token in enumerate(tokens):
        if not token.word:
            previous_capital = False
            continue
        name = token.capital and token.word not in _NOT_NAMES and position > 0
        if not (name and previous_capital):
            count += 1
        previous_capital = name and not token.comma
    # An enumeration of three or more short items ("A, B, C und D"): each item after the first counts once.
    items = _enumeration_items(tokens)
    return count - items


def _enumeration_items(tokens: list[_Token]) -> int:
    """Words saved by counting each item of short enumerations once: (item words - 1) per later item."""
    saved = 0
    run: list[int] = []  # word counts of the current run's comma-separated items
    current = 0
    for token in tokens:
        if token.word in _ENUMERATION_JOINS:
            run.append(current)
            current = 0
            continue
        if token.word:
            current += 1
        if token.comma or token.colon:
            run.append(current)
            current = 0
    run.append(current)
    # Runs of consecutive short items (at most three words each).
    streak: list[int] = []
    for size in [*run, 99]:
        if 0 < size <= 3:
            streak.append(size)
            continue
        if len(streak) >= 3:
            saved += sum(item - 1 for item in streak[1:])
        streak = []
    return saved


def _segments(tokens: list[_Token]) -> list[list[_Token]]:
    """The runs of tokens up to and including each comma, those with a word (cut in C: map, compress)."""
    ends = list(compress(range(1, len(tokens) + 1), map(_COMMA, tokens)))
    segments = [tokens[start:end] for start, end in zip([0, *ends], [*ends, len(tokens)], strict=True)]
    return [segment for segment in segments if any(map(_WORD_OF, segment))]


_COMMA, _WORD_OF = attrgetter("comma"), attrgetter("word")


def _second_capital(segment: list[_Token]) -> bool:
    words = [token for token in segment if token.word]
    return len(words) > 1 and words[1].capital


def _count(segment: list[_Token]) -> int:
    return sum(1 for token in segment if token.word)


def _resumes(segment: list[_Token], language: str) -> bool:
    """Whether a segment after a clause continues the clause before it: it opens with a lower-case word
    that is no conjunction (German: a verb of the outer clause, "…, sammelt alle"; English: "…, is")."""
    first = next((token for token in segment if token.word), None)
    return first is not None and not first.capital and first.word not in _CONJUNCTIONS.get(language, frozenset())


def _longest_aside(tokens: list[_Token]) -> int:
    longest = 0
    inside: int | None = None
    dashed: int | None = None
    last = len(tokens) - 1
    for position, token in enumerate(tokens):
        if token.dash:
            if dashed is None:
                dashed = 0
            else:
                longest = max(longest, dashed)
                dashed = None
            continue
        if token.opens:
            inside = 0
        if inside is not None and token.word:
            inside += 1
        if dashed is not None and token.word:
            dashed += 1
        if token.closes and inside is not None:
            # An aside that ends its clause ("…, like Backbone), and …") interrupts nothing.
            if not token.comma and position < last:
                longest = max(longest, inside)
            inside = None
    return longest


def _leading_block(segments: list[list[_Token]], kinds: list[str]) -> int:
    """Words of two or more subordinate clauses that open a German sentence before its main clause."""
    run = 0
    while run < len(kinds) and kinds[run] in ("sub", "and"):
        run += 1
    if run < 2 or run >= len(kinds) or kinds[0] != "sub":
        return 0
    return sum(_count(segment) for segment in segments[:run])


def _bracket(segments: list[list[_Token]], kinds: list[str]) -> int:
    """Words a German main clause's verb bracket holds open: from a finite auxiliary or modal among its
    first four words, or from its second word when it ends with a separable particle, to its end."""
    longest = 0
    index = 0
    while index < len(segments):
        if kinds[index] != "main":
            index += 1
            continue
        # The clause runs on through inserted clauses to the segment that resumes it.
        stop = index + 1
        while stop < len(segments) and kinds[stop] == "sub":
            stop += 1
        # Only a bracket that runs across inserted clauses counts: the clause resumes after them.
        if stop == index + 1 or stop >= len(segments) or kinds[stop] != "main":
            index += 1
            continue
        words = [token.word for segment in segments[index : stop + 1] for token in segment if token.word]
        head = next((k for k, word in enumerate(words[:4]) if word in _DE_FINITE), None)
        if head is not None and len(words) > head + 2:
            longest = max(longest, len(words) - head - 2)
        elif words and words[-1] in _DE_PARTICLES and len(words) > 3:
            longest = max(longest, len(words) - 3)
        index = stop
    return longest
