"""Sentences of a prose text and their length in visible words.

The sentence-length signals (a rule source's ``max_words`` / ``max_chars``) are
measured here, on the prose view's ``text``: hard-wrapped lines are joined
already, markup and URLs are gone, and an inline code span is one
``CODE_PLACEHOLDER``, so it counts as one word. The scanner and the rule
compiler (which checks the examples of a length signal) both call
:func:`long_sentences`; the compiler loads this package by file path.

A sentence never runs across a block (each block of the prose view ends with
``\\n``). Inside a block, a sentence ends after ``.``, ``!``, ``?`` or an
ellipsis (with any closing quotes or brackets) that is followed by white space,
unless the period belongs to an abbreviation ("e.g.", "z. B.", "bzw.", an
initial, a German ordinal such as "am 3. Oktober"); an acronym in capitals before a capitalised word
("CA. This") is no abbreviation spelt the same in lower case ("NO. 5" still is). A company's legal form
("Inc.", "INC.", "Co.") ends its sentence only before a capitalised word that opens sentences ("ACME Inc.
The …", but "ACME INC. Products …"; in German before any capitalised word). A one-letter word before a
period and a capital is an initial only beside another one-letter word with a
period ("J. R. R. Tolkien", "z. B.") or, for a capital letter, before a word
that seldom opens a sentence ("von J. Müller"); otherwise it is a name and
ends the sentence ("class C. This …", "the value of x. Then …"). A lower-case word after
``!``, ``?``, an ellipsis or a word of up to three letters and a period ("etc.
and") continues the sentence; after a longer word it does not, since
sentences may start with a lower-case name ("npm", "iOS"). A period inside a
token (decimals, versions, file names) ends nothing.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from itertools import compress, repeat
from operator import methodcaller
from typing import NamedTuple

from ._lazy_regex import lazy_compile
from ._structure import MAX_BONUS, Structure, may_add, structure
from ._view import CODE_PLACEHOLDER

__all__ = ["Sentence", "iter_sentences", "long_sentences", "over_limits", "sentences"]

# Lower-case, with their final period. Ambiguous ones that often end a sentence
# ("etc.", "usw.") are left out: they end one when a capital follows. So are "ref."
# and "refs.": in software docs they are mostly the word ("returns a ref.").
_ABBREVIATIONS = {
    "en": frozenset(
        """
        e.g. i.e. vs. v. approx. cf. fig. figs. dr. mr. mrs. ms. prof. inc. ltd. co. corp. llc. plc. no. nos.
        vol. ch. sec. p. pp. ca. jr. sr. st. mt. incl. esp. viz. al. resp. eq. ed. jan.
        feb. mar. apr. aug. sept. sep. oct. nov. dec.
        """.split()
    ),
    "de": frozenset(
        """
        bzw. ca. nr. ggf. vgl. inkl. evtl. bspw. sog. zzgl. abs. art. max. min. dr. hr. fr. prof.
        bzgl. allg. eigtl. einschl. gem. zz. zzt. jh. mio. mrd. tsd. std. sek. kap. bd. hrsg. tel.
        str. usf. vs. ff. geb. ehem. ugs. dt. engl. frz. lat. abb. tab. anm. aufl. mind. od. bsp.
        jan. feb. apr. aug. sept. okt. nov. dez. akt. ausg. evang. zit. vorm. nachm. ziff. lt. co.
        """.split()
    ),
}
# A company's legal form after its name, in any case ("ACME Inc.", "ACME INC.", "Müller & Co."):
# whether it ends the sentence depends on the next word (``_legal_form_ends``), never on its case.
_LEGAL_FORMS = {"en": frozenset("inc. ltd. corp. co. llc. plc.".split()), "de": frozenset(["co."])}
_TOKEN = lazy_compile(r"\S+")
_URL = lazy_compile(r"[<(\[\"'“„«»]*(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.|mailto:)", re.ASCII)
# Closing marks that may follow the end of a sentence, and opening marks before its next word.
_CLOSERS = "\"'”’“»«)]*_"
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyzäöüß")  # [a-zäöüß], as the patterns below write it
_ENDS = ".!?…"
_CLOSERS_OR_ENDS = frozenset(_CLOSERS + _ENDS)
_OPEN_QUOTES = "\"“„«»‚‘'"
_CLOSE_QUOTES = "\"”“«»‘’'"
# Two sentences written without a space after the period ("…end.Next …", "**end.**Next"):
# a lower-case letter, the mark and any closing marks, then a capital and a lower-case
# letter. File names and versions ("config.yaml", "v1.2") have no capital there.
# (It opens with the mark, so re skips to the marks in C before looking behind.)
_GLUED = lazy_compile(r"[.!?](?<=[a-zäöüß][.!?])[*_\"'”’)\]]*(?=[A-ZÄÖÜ][a-zäöüß])")
_NUMBER = lazy_compile(r"\d{1,2}")
# What never follows a German ordinal: an opening quotation mark or a code span.
_NOT_BEFORE_ORDINAL = frozenset(_OPEN_QUOTES + CODE_PLACEHOLDER)
# A sentence mark and any closing marks at the end of a token: the only tokens that may end
# a sentence (``_ends_sentence`` says no to every other one at its first test).
_MARK_AT_TOKEN_END = lazy_compile(r"[.!?…][\"'”’“»«)\]*_]*(?= |\Z)")
_OTHER_SPACE = lazy_compile(r"[^\S ]")
# Capitalised at the start of a sentence, these still lead an ordinal ("Am 3. Oktober").
_ORDINAL_LEADS = frozenset("am im vom zum zur bis ab seit der die das den dem des ein eine jeden jede".split())
# A token is a word when it holds a letter, a digit or a code span.
_WORD_CHARACTER = lazy_compile(f"[^\\W_]|{CODE_PLACEHOLDER}")
# A whole token that is no word: neither white space nor a letter, a digit or a code span.
_NOT_WORD_CHARACTER = f"(?:_|[^\\w\\s{CODE_PLACEHOLDER}])"
_NOT_A_WORD = lazy_compile(f"(?<!\\S){_NOT_WORD_CHARACTER}+(?!\\S)")
# White space other than " " and "\n": every character str.isspace says yes to.
_OTHER_SPACES = (
    "\t\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_OTHER_SPACE_BUT_NEWLINE = lazy_compile(r"[^\S \n]")
_NOT_A_WORD_AFTER_SPACE = lazy_compile(f" {_NOT_WORD_CHARACTER}{_NOT_WORD_CHARACTER}*(?![^ ])")  # (re skips to spaces)


def _sure_end(abbreviations: frozenset[str]) -> re.Pattern[str]:
    """A period that ends its sentence whatever follows: ``_ends_sentence`` says yes to each.

    It closes its token (any closing marks, then white space) after four lower-case
    letters that are not the end of an abbreviation: so its word has more than three
    letters and is no abbreviation, no initial, no "e.g." and no ordinal. (It opens
    with the period, so re skips to the periods in C.)
    """
    tails = sorted({tail for word in abbreviations if len(tail := word[-5:-1]) == 4 and _LOWER.issuperset(tail)})
    not_an_abbreviation = f"(?<!(?:{'|'.join(tails)})\\.)" if tails else ""
    return lazy_compile(f"\\.(?<=[a-zäöüß]{{4}}\\.){not_an_abbreviation}(?=[{re.escape(_CLOSERS)}]*\\s)")


_SURE_ENDS = {language: _sure_end(abbreviations) for language, abbreviations in _ABBREVIATIONS.items()}
_SURE_END = _sure_end(frozenset())


class Sentence(NamedTuple):
    """One sentence of a prose text: its span and its length.

    ``words``: visible words (a code span is one, a URL none, punctuation none);
    ``characters``: the span's length without URLs.
    """

    start: int
    end: int
    words: int
    characters: int

    def longer_than(self, max_words: int | None, max_chars: int | None) -> bool:
        """Whether it has more than ``max_words`` words or ``max_chars`` characters (None: no limit)."""
        return (max_words is not None and self.words > max_words) or (
            max_chars is not None and self.characters > max_chars
        )


def sentences(text: str, language: str) -> tuple[Sentence, ...]:
    """Every sentence of ``text`` (a prose view's text), in order; ``language`` picks the abbreviations."""
    return tuple(iter_sentences(text, language))


def iter_sentences(
    text: str, language: str, *, longer_than: tuple[int | None, int | None] | None = None
) -> Iterator[Sentence]:
    """``sentences``, one stretch of text at a time: a long page has thousands, and a check keeps few.

    ``longer_than``: (words, characters); when given, only the sentences longer than
    either limit (``Sentence.longer_than``) are yielded, and the others are never
    measured: only the stretches of text that may hold one are split at all
    (``_may_hold_long``), and those separated by plain spaces at their sentence marks alone.
    """
    abbreviations = _ABBREVIATIONS.get(language, frozenset())
    found: list[Sentence] = []
    stretches = _blocks(text) if longer_than is None else _may_hold_long(text, language, *longer_than)
    for start, end in stretches:
        if longer_than is None or not _long_by_marks(text, start, end, language, abbreviations, longer_than, found):
            _block(text, start, end, language, abbreviations, found)
            if longer_than is not None:
                found[:] = [sentence for sentence in found if sentence.longer_than(*longer_than)]
        yield from found
        found.clear()


def _blocks(text: str) -> Iterator[tuple[int, int]]:
    """The non-empty blocks (lines) of ``text``: no sentence runs across one."""
    start = 0
    for line in text.split("\n"):
        if line:
            yield start, start + len(line)
        start += len(line) + 1


def _may_hold_long(text: str, language: str, max_words: int | None, max_chars: int | None) -> Iterator[tuple[int, int]]:
    """Stretches of ``text`` that hold every sentence longer than the limits, each a run of whole sentences.

    Most periods end their sentence beyond doubt (``_SURE_ENDS``): cut there, a page
    falls into short stretches, and only one with at least ``max_words`` white-space
    characters may hold a sentence of more than ``max_words`` words (words <= tokens
    <= white space + 1). C-level passes find those few, so no Python code runs per
    sentence. A character limit is checked block by block.
    """
    if max_words is None or max_chars is not None:
        for start, end in _blocks(text):
            if not _short(text, start, end, max_words, max_chars):
                yield start, end
        return
    # The text is read a window of whole blocks at a time: a cut copy of a whole page would
    # be the largest thing a scan holds (re.sub briefly needs twice its size).
    length = len(text)
    low = 0
    while low < length:
        newline = text.find("\n", low + _WINDOW)
        high = length if newline < 0 else newline + 1
        for start, end in _window_stretches(text[low:high], language, max_words):
            start += low
            end += low
            # A stretch after a sure end opens with the closing marks of that sentence's last
            # token, and one before a sure end closes before the period: take whole tokens.
            if start > 0 and text[start - 1] == ".":
                while start < end and text[start] in _CLOSERS:
                    start += 1
            if end < length and text[end] == ".":
                end += 1
                while end < length and text[end] in _CLOSERS:
                    end += 1
            yield start, end
        low = high


_WINDOW = 16_384  # characters; a window ends after the first block end past this


def _window_stretches(window: str, language: str, max_words: int) -> list[tuple[int, int]]:
    """The stretches of one window (whole blocks) with room for a sentence of more than ``max_words`` words."""
    # The same length as ``window``, cut into stretches by "\n" at each block end and sure end.
    # (The window starts after a block end and ends with one: the sure-end test, which looks
    # at letters before a period and white space after it, sees what it would see in the text.)
    cut = _SURE_ENDS.get(language, _SURE_END).sub("\n", window)
    if any(space in window for space in _OTHER_SPACES):  # (rare; each a C-level search)
        cut = _OTHER_SPACE_BUT_NEWLINE.sub(" ", cut)  # so that counting " " counts all white space
    # A stretch of fewer than 2 * max_words + 1 characters cannot hold max_words spaces and
    # a word more; the others' spaces are counted in C (map, compress), so Python code runs
    # only for the few with room for a long sentence.
    head = cut.find("\n")
    head_end = len(cut) if head < 0 else head
    spans = [(0, head_end)] if head_end > 2 * max_words else []
    spans += map(_stretch, _at_least(2 * max_words + 1).finditer(cut))
    if not spans:
        return []
    starts, ends = zip(*spans, strict=True)
    return list(compress(spans, map(max_words.__le__, map(cut.count, repeat(" "), starts, ends))))


_stretch = methodcaller("span", 1)


def _at_least(characters: int) -> re.Pattern[str]:
    """A stretch of ``characters`` or more after a "\\n" (group 1). (re caches it: one per limit.)"""
    return re.compile(f"\\n([^\\n]{{{characters},}})")


def long_sentences(
    text: str,
    language: str,
    max_words: int | None,
    max_chars: int | None,
    *,
    split: tuple[Sentence, ...] | None = None,
    loads: dict[Sentence, Structure] | None = None,
    quotations: tuple[tuple[int, int], ...] = (),
    min_clauses: int | None = None,
) -> list[tuple[int, int]]:
    """Spans of the sentences longer than ``max_words`` words or ``max_chars`` characters.

    Words are weighed by the sentence's structure (``over_limits``): a sentence
    of two short parts joined by a semicolon is as long as its longer part, and
    one whose clauses nest or hold back a verb counts up to ``MAX_BONUS`` more.

    A sentence that is one quotation (it opens and closes with a quotation mark and
    holds no other) is someone else's wording and is left out, and so is a sentence
    that starts in one of ``quotations`` (spans of ``text``: a view's ``quote_spans``,
    its attributed block quotes). ``split``: the
    text's ``sentences``, when the caller has them already; ``loads``: a cache of
    their structures, filled here, for a caller that asks again. ``min_clauses``: a
    sentence over ``max_words`` counts only when its measured part has at least this
    many clauses (``over_limits``).
    """
    spans = []
    for sentence in iter_sentences(text, language) if split is None else split:
        if (
            over_limits(text, sentence, language, max_words, max_chars, loads=loads, min_clauses=min_clauses)
            and not _quotation(text[sentence.start : sentence.end])
            and not (quotations and _starts_in(quotations, sentence.start))
        ):
            spans.append((sentence.start, sentence.end))
    return spans


def _starts_in(spans: tuple[tuple[int, int], ...], offset: int) -> bool:
    k = bisect_right(spans, (offset, 1 << 62)) - 1
    return k >= 0 and spans[k][0] <= offset < spans[k][1]


def over_limits(
    text: str,
    sentence: Sentence,
    language: str,
    max_words: int | None,
    max_chars: int | None,
    *,
    loads: dict[Sentence, Structure] | None = None,
    min_clauses: int | None = None,
) -> bool:
    """Whether ``sentence`` is longer than ``max_chars`` characters, or its ``structure`` load exceeds ``max_words``.

    The load is the words of its hardest part plus a bonus for nesting or a held-back verb
    (``_structure``); it never exceeds the visible words by more than ``MAX_BONUS``, so
    shorter sentences are not measured. ``min_clauses``: a load over ``max_words`` counts
    only when that part also has at least this many clauses (several chained clauses, not
    one long statement); it does not touch ``max_chars``.
    """
    if max_chars is not None and sentence.characters > max_chars:
        return True
    if max_words is None or sentence.words + MAX_BONUS <= max_words:
        return False
    if sentence.words <= max_words and not may_add(text, sentence.start, sentence.end, language):
        return False  # no bonus, and the load never exceeds the visible words
    measured = None if loads is None else loads.get(sentence)
    if measured is None:
        measured = structure(text, sentence.start, sentence.end, language)
        if loads is not None:
            loads[sentence] = measured
    return measured.load > max_words and (min_clauses is None or measured.clauses >= min_clauses)


def _block(
    text: str, start: int, end: int, language: str, abbreviations: frozenset[str], found: list[Sentence]
) -> None:
    tokens = _tokens(text, start, end)
    first = 0
    last = len(tokens) - 1
    for k, (token_start, token_end) in enumerate(tokens):
        if k < last and text[token_end - 1] not in _CLOSERS_OR_ENDS:
            continue  # most tokens: _ends_sentence would say no at its first test
        following = tokens[k + 1] if k < last else None
        previous = tokens[k - 1] if k > first else None
        if following is None or _ends_sentence(
            text, token_start, token_end, following[0], previous, language, abbreviations
        ):
            found.append(_sentence(text, tokens[first][0], token_end))
            first = k + 1


def _long_by_marks(
    text: str,
    start: int,
    end: int,
    language: str,
    abbreviations: frozenset[str],
    limits: tuple[int | None, int | None],
    found: list[Sentence],
) -> bool:
    """``_block`` for the long sentences only, visiting just the tokens that end with a mark.

    ``start``/``end``: a block, or a run of its whole sentences. Returns False, and
    finds nothing, for a stretch this shortcut cannot read exactly (white space other
    than plain spaces, or two sentences glued together); the caller then reads it
    token by token.
    """
    max_words, max_chars = limits
    # (str.isprintable rules out other white space in C for most text, before the slower search.)
    if not text[start:end].isprintable() and _OTHER_SPACE.search(text, start, end) is not None:
        return False
    while start < end and text[start] == " ":
        start += 1
    while end > start and text[end - 1] == " ":
        end -= 1
    # Most stretches are one sentence: no mark before the marks and closers that end their
    # last token. None of those ends a token before the stretch's end or glues two sentences
    # (no letter follows them), so the stretch is the sentence (four C-level finds).
    tail = end
    while tail > start and text[tail - 1] in _CLOSERS_OR_ENDS:
        tail -= 1
    find = text.find
    if max(find(".", start, tail), find("!", start, tail), find("?", start, tail), find("…", start, tail)) < 0:
        if start < end:
            _keep_if_long(text, start, end, max_words, max_chars, found)
        return True
    # (Spaces only around the stretch, trimmed above: no sentence is glued across them.)
    if _GLUED.search(text, start, end) is not None:
        return False
    first = start  # where the current sentence's first token starts
    for mark in _MARK_AT_TOKEN_END.finditer(text, start, end):
        token_end = mark.end()
        if token_end >= end:
            break  # the last token ends its sentence anyway
        token_start = max(text.rfind(" ", first, mark.start()) + 1, first)
        next_start = token_end
        while text[next_start] == " ":
            next_start += 1
        previous = None
        if token_start > first:
            previous_end = token_start - 1
            while text[previous_end - 1] == " ":
                previous_end -= 1
            previous = (max(text.rfind(" ", first, previous_end) + 1, first), previous_end)
        if _ends_sentence(text, token_start, token_end, next_start, previous, language, abbreviations):
            _keep_if_long(text, first, token_end, max_words, max_chars, found)
            first = next_start
    if first < end:
        _keep_if_long(text, first, end, max_words, max_chars, found)
    return True


def _keep_if_long(
    text: str, start: int, end: int, max_words: int | None, max_chars: int | None, found: list[Sentence]
) -> None:
    # Plain spaces only (``_long_by_marks`` made sure): words <= tokens <= spaces + 1.
    if (max_chars is None or end - start <= max_chars) and (
        max_words is None or text.count(" ", start, end) < max_words
    ):
        return  # most sentences end here
    sentence = _sentence(text, start, end, plain_spaces=True)
    if sentence.longer_than(max_words, max_chars):
        found.append(sentence)


def _short(text: str, start: int, end: int, max_words: int | None, max_chars: int | None) -> bool:
    """Whether ``text[start:end]`` is too short to exceed either limit.

    Words <= tokens <= white space + 1, and characters <= the span.
    """
    if max_chars is not None and end - start > max_chars:
        return False
    return max_words is None or end - start <= 2 * max_words or len(text[start:end].split()) <= max_words


def _tokens(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """White-space separated tokens; a token with two sentences glued together is cut after the mark."""
    if _GLUED.search(text, start, end) is None:
        # No two sentences glued together anywhere in the block (the usual case): no token is cut.
        return [match.span() for match in _TOKEN.finditer(text, start, end)]
    tokens = []
    for match in _TOKEN.finditer(text, start, end):
        token_start, token_end = match.span()
        if token_end - token_start > 3 and not _URL.match(text, token_start):
            for glued in _GLUED.finditer(text, token_start, token_end):
                tokens.append((token_start, glued.end()))
                token_start = glued.end()
        tokens.append((token_start, token_end))
    return tokens


def _ends_sentence(
    text: str,
    start: int,
    end: int,
    next_start: int,
    previous: tuple[int, int] | None,
    language: str,
    abbreviations: frozenset[str],
) -> bool:
    """Whether the token ``text[start:end]`` ends its sentence.

    ``next_start``: where the next token starts; ``previous``: the span of the token
    before it in the same sentence, if any.
    """
    core_end = end
    while core_end > start and text[core_end - 1] in _CLOSERS:
        core_end -= 1
    if core_end == start or text[core_end - 1] not in _ENDS:
        return False
    if next_start == end:  # a glued token: the cut was made at a sentence end
        return True
    lower_next = _starts_lower(text, next_start)
    if text[core_end - 1] != "." or text[core_end - 2 : core_end] == "..":
        return not lower_next  # ! ? and ellipses: "and so on... and", "Yahoo! is"
    word = text[start:core_end].lstrip(_OPEN_QUOTES + "([")
    stem = word[:-1]
    if word.lower() in _LEGAL_FORMS.get(language, ()):
        return _legal_form_ends(text, next_start, language)
    # An acronym in capitals before a capitalised word ("the local CA. This …") is no abbreviation
    # spelt the same way in lower case ("ca.", "no."); a listed one is written lower-case or
    # capitalised, or in capitals before a number or in a line of capitals ("NO. 5", "DR. SMITH").
    if word.lower() in abbreviations and not (
        len(stem) > 1 and stem.isupper() and _CAPITALISED_WORD.match(text, next_start) is not None
    ):
        return False
    if lower_next and len(stem) <= 3 and stem.isalpha():
        return False  # an abbreviation not listed ("etc. and", "usw. sind")
    if len(stem) == 1 and stem.isalpha():
        return _letter_ends(text, stem, next_start, previous, language)
    if "." in stem and all(len(part) <= 3 and part.isalpha() for part in stem.split(".")):
        return False  # "e.g.", "z.B.", "U.S."
    # A German ordinal ("am 3. Oktober", "der 2. Schritt"): one or two digits and a period
    # after an article or preposition ("Stufe 3. Darüber …" ends a sentence), leading a word:
    # before a quotation mark or a code span ("auf 2. "`..`" verweist …") the number ends it.
    return not (
        language == "de"
        and _NUMBER.fullmatch(stem)
        and _before_ordinal(text, previous)
        and text[next_start : next_start + 1] not in _NOT_BEFORE_ORDINAL
    )


def _legal_form_ends(text: str, next_start: int, language: str) -> bool:
    """Whether a company's legal form and its period ("Inc.", "INC.", "Co.") end the sentence.

    Only before a capitalised word ("I" and "A" are): a lower-case word, a number or a word
    in capitals ("Co. KG", "Inc. CEO") continues it. In English the capitalised word must be one that
    opens sentences ("ACME Inc. The price …", but "ACME INC. Products are …"); German
    capitalises every noun, so there any capitalised word does ("Müller & Co. Preise …").
    """
    if language == "de":
        return _CAPITALISED_WORD.match(text, next_start) is not None
    following = _FIRST_WORD.match(text, next_start)
    if following is None or following.group(1).lower() not in _OPENERS.get(language, frozenset()):
        return False
    # A one-letter opener ("I", "A") is capitalised by its capital alone; a longer one by a
    # capital before a small letter (not a word in capitals).
    return (
        following.group(1).isupper()
        if len(following.group(1)) == 1
        else _CAPITALISED_WORD.match(text, next_start) is not None
    )


def _letter_ends(text: str, letter: str, next_start: int, previous: tuple[int, int] | None, language: str) -> bool:
    """Whether a one-letter word and its period ("class C.", "of x.") end the sentence; the next word is a capital.

    One letter of "z. B.", "d. h.", "u. a." or of a run of initials ("J. R. R.") has a
    one-letter word with a period beside it. Else a lower-case letter is a name ("x.")
    and ends its sentence; a capital is an initial ("von J. Müller") unless the next
    word is one that opens sentences ("class C. This …").
    """
    if previous is not None and _ONE_LETTER.fullmatch(text, *previous) is not None:
        return False
    if _ONE_LETTER.match(text, next_start) is not None:
        return False
    if letter.islower():
        return True
    following = _FIRST_WORD.match(text, next_start)
    return following is not None and following.group(1).lower() in _OPENERS.get(language, frozenset())


# A capital opening a lower-case word ("This", "„Dann"): what follows an acronym's sentence end.
_CAPITALISED_WORD = lazy_compile(r"[\"'“„«»(\[*_]*[A-ZÄÖÜ][a-zäöüß]")
# A one-letter word with its period, as a whole token ("z.", "B.", "(J."); and the first word of a token.
_ONE_LETTER = lazy_compile(r"[\"'“„«»(\[]*[^\W\d_]\.(?:[\"'”’“»«)\]*_,;:]*)(?=\s|\Z)")
_FIRST_WORD = lazy_compile(r"[\"'“„«»(\[*_]*([^\W\d_]+)")
# Words that open sentences far more often than they follow an initial.
_OPENERS = {
    "en": frozenset(
        """
        the a an this that these those it its if in on for to when then you we they he she there here
        but and or so as at by with from after before while since because although however note use
        see set run each all some no not also now once where what which why how our your their his her
        my i let both
        other another every any many most such only first next finally instead otherwise
        """.split()
    ),
    "de": frozenset(
        """
        das der die den dem des ein eine einen einem es er sie wir ich du ihr wenn dann in im mit für
        auf bei nach vor um damit dies diese dieser dieses diesen hier da so auch aber und oder nun
        jetzt man als wie was welche welcher welches beim zum zur alle jede jeder jedes andere
        weitere danach dabei dazu deshalb daher außerdem zudem zunächst anschließend schließlich
        """.split()
    ),
}


def _before_ordinal(text: str, previous: tuple[int, int] | None) -> bool:
    if previous is None:
        return False
    word = text[previous[0] : previous[1]]
    return word[:1].islower() or word.lower() in _ORDINAL_LEADS


def _starts_lower(text: str, position: int) -> bool:
    """Whether the first letter or digit of the token at ``position`` is a lower-case letter."""
    for k in range(position, min(position + 8, len(text))):
        char = text[k]
        if char.isalnum():
            return char.islower()
        if char.isspace() or char == CODE_PLACEHOLDER:
            return False
    return False


def _sentence(text: str, start: int, end: int, *, plain_spaces: bool = False) -> Sentence:
    """The sentence ``text[start:end]``, whole tokens from its first to its last, measured.

    ``plain_spaces``: the caller knows its only white space is plain spaces.
    """
    piece = text[start:end]
    # A URL holds "://", "www." or "mailto:": without one, no token of the sentence is a URL,
    # and every token is a word but those without a letter, digit or code span ("-", "->"),
    # counted in C (a glued sentence's cut is its end, so its tokens are its space-separated ones).
    # (A one-character find is many times faster than one for "//" or "mailto:", and most
    # sentences hold no "/" and no ":".)
    if ("/" not in piece or "//" not in piece) and "www." not in piece and (":" not in piece or "mailto:" not in piece):
        if plain_spaces or piece.isprintable():  # only plain spaces: find the tokens after one
            tokens = len(piece.split()) if "  " in piece else piece.count(" ") + 1
            return Sentence(start, end, tokens - len(_NOT_A_WORD_AFTER_SPACE.findall(" " + piece)), end - start)
        return Sentence(start, end, len(piece.split()) - len(_NOT_A_WORD.findall(piece)), end - start)
    words = 0
    url_characters = 0
    for match in _TOKEN.finditer(text, start, end):
        token_start, token_end = match.span()
        if _URL.match(text, token_start):
            url_characters += token_end - token_start
        elif _is_word(text, token_start, token_end):
            words += 1
    return Sentence(start, end, words, end - start - url_characters)


def _is_word(text: str, start: int, end: int) -> bool:
    return _WORD_CHARACTER.search(text, start, end) is not None


def _quotation(sentence: str) -> bool:
    body = sentence.rstrip(_ENDS + ")]")
    if len(body) < 2 or body[0] not in _OPEN_QUOTES or body[-1] not in _CLOSE_QUOTES:
        return False
    inner = body[1:-1]
    return not any(mark in inner for mark in '"“”„«»')
