"""The inline reader's search for where markup may start finds what its plain form finds."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.prose._inline import _SPECIAL_MD, _SPECIAL_MDX

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
