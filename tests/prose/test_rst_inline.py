"""reStructuredText inline markup: roles and reference names, and the bounds on their names."""

from __future__ import annotations

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


def test_a_role_name_is_read_up_to_128_characters_and_a_reference_name_up_to_256() -> None:
    # The bounds that keep a long line of name characters linear (benchmarks/bench_hostile.py times
    # one): past them the run is text, as docs/prose.md says.
    assert "r" not in prose("See :" + "r" * 128 + ":`open` now.\n")
    assert "r" * 129 in prose("See :" + "r" * 129 + ":`open` now.\n")
    assert prose("See " + "n" * 256 + "_ now.\n").split() == ["See", "n" * 256, "now."]
    assert prose("See " + "n" * 257 + "_ now.\n").split() == ["See", "n" * 257 + "_", "now."]
