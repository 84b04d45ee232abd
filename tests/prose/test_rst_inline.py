"""reStructuredText inline markup: roles and reference names read in time linear in a line's length."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from writing_rules.prose import read_prose


def prose(source: str) -> str:
    return read_prose(source, "rst").text


def test_roles_and_reference_names_are_markup() -> None:
    assert prose("Call :py:func:`open` and see Python_ or `the docs`_.\n").split() == [
        "Call",
        read_prose(":func:`open`\n", "rst").text.strip(),
        "and",
        "see",
        "Python",
        "or",
        "the",
        "docs.",
    ]
    assert prose("A dotted.name_ here.\n").split() == ["A", "dotted.name", "here."]


@pytest.mark.parametrize("unit", [":a:", "www.", "a.b-"], ids=["roles", "dotted", "dashed"])
def test_a_long_line_of_role_or_name_characters_reads_in_linear_time(unit: str) -> None:
    # A role (":name:`") or a reference name ("name_") was looked for from each colon or word
    # boundary to the end of the run of name characters: a line of 40,000 such characters took
    # 9 s, one of 400,000 would take about fifteen minutes. The child gets a minute.
    code = (
        "from writing_rules.prose import read_prose\n"
        f"view = read_prose({unit!r} * 100_000 + '\\n', 'rst')\n"
        "print(len(view.text))\n"
    )
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    result = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) >= 100_000
