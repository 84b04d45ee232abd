"""The inline reader's searches find what their plain forms find."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.prose._html import closed_names
from writing_rules.prose._inline import (
    _BACKTICKS,
    _BRACKETS,
    _DELIMITER_RUN,
    _SPECIAL_MD,
    _SPECIAL_MD_NO_URL,
    _SPECIAL_MDX,
    _SPECIAL_MDX_NO_URL,
)
from writing_rules.prose._markdown import _CELL_SPLIT

# The plain form: a markup character, a bare URL after no word character, slash, dot, at sign
# or hyphen, and (Markdown only) "{" before "#", "." or "/".
_PLAIN_MD = re.compile(r"[\\`*_~\[\]<!&$]|(?<![\w/.@-])(?:https?://|www\.)|\{[#./]")
_PLAIN_MDX = re.compile(r"[\\`*_~\[\]<!&${]|(?<![\w/.@-])(?:https?://|www\.)")

_PIECES = st.sampled_from(
    [*"hHtTpPsSwW:/.@-_ {}#`*~[]<>!&$\\\nx1é", "http://", "https://", "www.", "ttps://", "ww.", "{#", "{/"]
)


@settings(max_examples=300)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_markup_starts_are_found_where_the_plain_pattern_finds_them(text: str) -> None:
    for fast, plain in ((_SPECIAL_MD, _PLAIN_MD), (_SPECIAL_MDX, _PLAIN_MDX)):
        # The reader searches from each position it resumes at; only the match's start is used.
        for position in range(len(text) + 1):
            found, expected = fast.search(text, position), plain.search(text, position)
            assert (found and found.start()) == (expected and expected.start())


_NO_URL = st.lists(st.sampled_from([*"hHtTpPsSwW:/.@-_ {}#`*~[]<>!&$\\\nx1é"]), max_size=30).map("".join)


@settings(max_examples=300)
@given(_NO_URL)
def test_without_a_url_the_searches_without_url_starts_find_the_same(text: str) -> None:
    if "://" in text or "www." in text:
        return
    for fast, plain in ((_SPECIAL_MD_NO_URL, _PLAIN_MD), (_SPECIAL_MDX_NO_URL, _PLAIN_MDX)):
        for position in range(len(text) + 1):
            found, expected = fast.search(text, position), plain.search(text, position)
            assert (found and found.start()) == (expected and expected.start())


# The reader's searches, written to open with one character or class, against their plain forms.
_REWRITTEN = [
    (_BACKTICKS, re.compile(r"`+")),
    (_DELIMITER_RUN, re.compile(r"\*+|_+|~+")),
    (_BRACKETS, re.compile(r"\\.|`+|[\[\]]", re.DOTALL)),
    (_CELL_SPLIT, re.compile(r"\\.|`+|\|")),
]


@settings(max_examples=300)
@given(st.lists(st.sampled_from([*"ab `*_~\\[]|\n\r"]), max_size=30).map("".join))
def test_rewritten_searches_find_what_their_plain_forms_find(text: str) -> None:
    for fast, plain in _REWRITTEN:
        for position in range(len(text) + 1):
            assert [m.span() for m in fast.finditer(text, position)] == [
                m.span() for m in plain.finditer(text, position)
            ]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["<", "</", "</a>", "</Tab >", "</x-y\n>", "</1>", "a", " ", ">", "\n"]), max_size=120))
def test_closed_names_are_the_names_of_every_closing_tag(pieces: list[str]) -> None:
    # closed_names walks from "<" to "<" on a page of few tags and searches a page of many
    # (more than 8 "<") with the pattern: either way, every closing tag's name.
    source = "".join(pieces)
    expected = frozenset(m[1] for m in re.finditer(r"</([A-Za-z][A-Za-z0-9._:-]{0,63})\s*>", source))
    assert closed_names(source) == expected
