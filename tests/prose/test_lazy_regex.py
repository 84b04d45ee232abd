"""Patterns compiled at first use: the same answers as ``re.compile``, and no compiling at import."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from writing_rules.prose._lazy_regex import lazy_compile

SRC = Path(__file__).resolve().parents[2] / "src"

_PATTERNS = (
    (r"(?P<word>[a-zäöü]+)(\d)?", 0),
    (r"\bthe\b|\s+", re.IGNORECASE),
    (r"^-{3,}$", re.MULTILINE),
)


@pytest.mark.parametrize(("source", "flags"), _PATTERNS)
@given(text=st.text(alphabet="aäbZ9 -\nThe", max_size=40))
def test_a_lazy_pattern_answers_as_the_compiled_one(source: str, flags: int, text: str) -> None:
    lazy, compiled = lazy_compile(source, flags), re.compile(source, flags)
    for pattern in (lazy, lazy):  # before and after its first use
        assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in compiled.finditer(text)]
        assert pattern.findall(text) == compiled.findall(text)
        assert pattern.sub("-", text) == compiled.sub("-", text)
        assert pattern.subn("-", text, count=1) == compiled.subn("-", text, count=1)
        assert pattern.split(text) == compiled.split(text)
        for method in ("match", "search", "fullmatch"):
            found, expected = getattr(pattern, method)(text, 1), getattr(compiled, method)(text, 1)
            assert (found and found.span()) == (expected and expected.span())
    assert (lazy.pattern, lazy.flags, lazy.groups, lazy.groupindex) == (
        compiled.pattern,
        compiled.flags,
        compiled.groups,
        compiled.groupindex,
    )


def test_a_lazy_pattern_compiles_at_its_first_use_not_before() -> None:
    broken = lazy_compile("(unclosed")  # creating it parses nothing...
    with pytest.raises(re.error):
        broken.search("text")  # ...its first use does, and reports the error there


_IMPORT_SCRIPT = """
import json, sys
import re._compiler

compiled = []
original = re._compiler.compile

def recording(pattern, flags=0):
    frame = sys._getframe(1)
    while frame.f_globals.get("__name__", "").partition(".")[0] == "re":  # re's own functions
        frame = frame.f_back
    compiled.append([frame.f_globals.get("__name__"), frame.f_lineno])
    return original(pattern, flags)

re._compiler.compile = recording
import writing_rules.prose._reader, writing_rules.prose._rst, writing_rules.prose._sentences
print(json.dumps(compiled))
"""


def test_importing_the_prose_reader_compiles_no_pattern() -> None:
    # A one-page scan uses few of the reader's patterns (no HTML, table or front matter on
    # most pages); compiling them all at import was about 4 ms of its start.
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_SCRIPT], capture_output=True, text=True, env=environment, check=True
    )
    compiled = json.loads(done.stdout)
    in_prose = [(module, line) for module, line in compiled if module.startswith("writing_rules.prose")]
    assert in_prose == [], "compile module-level patterns with lazy_compile (prose/_lazy_regex.py)"
