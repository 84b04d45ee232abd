"""Loading a compiled pack (``writing_rules.packs``; docs/packs.md, "Loading a pack").

A pack is loaded whole or not at all, each failure a ``PackError`` that says
what to do, and nothing in a pack folder runs as code.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules._rules_data import RULE_IDS
from writing_rules.packs import ENTRY_POINT_GROUP, MODULE_NAME, Pack, PackError, load_pack, load_packs
from writing_rules.packs._digest import pack_digest

ROOT = Path(__file__).resolve().parents[2]
ACME = ROOT / "examples" / "packs" / "acme"


@pytest.fixture
def acme(tmp_path: Path) -> Path:
    """A copy of the example pack with its committed, built module."""
    folder = tmp_path / "styles" / "acme"
    shutil.copytree(ACME, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def _error(reference: str | Path, **options: object) -> str:
    with pytest.raises(PackError) as caught:
        load_pack(reference, **options)  # type: ignore[arg-type]
    return str(caught.value)


def _parts(text: str) -> tuple[str, dict[str, object], str]:
    """A module's text before its data, the data, and the text after it (the sections)."""
    head, rest = text.split('PACK_DATA_JSON = r"""\n', 1)
    payload, tail = rest.split('\n"""', 1)
    return head, json.loads(payload), tail


def _with_data(text: str, data: object) -> str:
    head, _, tail = _parts(text)
    return head + 'PACK_DATA_JSON = r"""\n' + json.dumps(data) + '\n"""' + tail


def _edit_data(folder: Path, old: str, new: str) -> None:
    module = folder / MODULE_NAME
    text = module.read_text(encoding="utf-8")
    assert old in text
    module.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_example_pack_loads_in_the_catalogues_shapes(acme: Path) -> None:
    pack = load_pack("styles/acme", base=acme.parents[1])
    assert isinstance(pack, Pack)
    assert (pack.id, pack.version, pack.languages, pack.source) == ("acme", "1.0.0", ("en", "de"), "styles/acme")
    assert list(pack.rules) == ["acme/no-etc", "acme/terms"]
    terms = pack.rules["acme/terms"]
    assert set(terms.texts) == {"en", "de"}
    assert "'sign in' instead of 'log in', 'log on'" in terms.texts["en"].instruction
    assert terms.signal_levels["select-en"] == "suggestion" and terms.signal_levels["sign-in-en"] == "warning"
    for language, table in pack.signal_tables.items():
        assert all(pattern.language == language and pattern.rule_id in pack.rules for pattern in table)
        index = pack.signal_index[language]
        used = {n for entries in index.words.values() for _, checks in entries for _, _, found in checks for n in found}
        assert used | set(index.full) == set(range(len(table)))  # every pattern is reachable
    assert pack.signal_messages[("acme/terms", "sign-in-en")].startswith("Use 'sign in' instead of '%s'.")
    [(match, replacement), *_] = pack.signal_fixes[("acme/terms", "sign-in-en")]
    assert replacement == "sign in" and re.match(match, "Log on")


def test_an_index_candidate_list_finds_every_match(acme: Path) -> None:
    """Each hit of a pack pattern starts at a word whose key the index lists for that pattern."""
    pack = load_pack(acme)
    text = "Please log in, click on Save, and open Github; Sie können sich einloggen usw."
    for language, table in pack.signal_tables.items():
        index = pack.signal_index[language]
        for position, pattern in enumerate(table):
            for hit in pattern.regex.finditer(text):
                word = re.match(r"\w+", text[hit.start() :])
                assert word is not None
                key = word.group(0).lower()[: index.key_size]
                listed = {n for _, checks in index.words.get(key, ()) for _, _, found in checks for n in found}
                assert position in listed or position in index.full, (language, pattern.signal_id, hit.group(0))


def test_a_missing_module_says_how_to_build_it(acme: Path) -> None:
    (acme / MODULE_NAME).unlink()
    message = _error("styles/acme", base=acme.parents[1])
    assert "run `writing-rules pack build styles/acme`" in message and "not built" in message


def test_a_module_older_than_its_sources_says_how_to_rebuild(acme: Path) -> None:
    terms = acme / "terms.yaml"
    terms.write_text(terms.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    later = (acme / MODULE_NAME).stat().st_mtime + 10
    os.utime(terms, (later, later))
    message = _error("styles/acme", base=acme.parents[1])
    assert "older than the pack's sources" in message and "run `writing-rules pack build styles/acme`" in message


def test_a_digest_that_does_not_match(acme: Path) -> None:
    module = acme / MODULE_NAME
    _edit_data(acme, '"digest": "', '"digest": "0')
    later = max(path.stat().st_mtime for path in acme.rglob("*")) + 10
    os.utime(module, (later, later))
    assert "does not match the pack's sources" in _error(acme)


def test_an_incompatible_compiler_version(acme: Path) -> None:
    _edit_data(acme, '"format": 2,', '"format": 99,')
    message = _error(acme)
    assert "incompatible compiler (pack format 99" in message and "pack build" in message


def test_a_language_without_text(acme: Path) -> None:
    module = acme / MODULE_NAME
    text = module.read_text(encoding="utf-8")
    data = _parts(text)[1]
    del data["rules"][0][6]["de"]  # type: ignore[index]  # acme/no-etc loses its German text
    module.write_text(_with_data(text, data), encoding="utf-8")
    message = _error(acme)
    assert "names language 'de', but rule 'acme/no-etc' has no text for it" in message


def _add_line(text: str, section: str, rule_id: str, signal_id: str, value: object) -> str:
    """The module with a line added to a section, listed in the data with the section's checksum."""
    name = f"PACK_{section.upper()}"
    before, rest = text.split(f'{name} = r"""\n', 1)
    lines, after = rest.split('\n"""', 1)
    lines += f"\n{rule_id}\t{signal_id}\t{json.dumps(value)}"
    text = before + f'{name} = r"""\n' + lines + '\n"""' + after
    data = _parts(text)[1]
    entry = data["sections"][section]  # type: ignore[index]
    if section == "patterns":  # listed by the tables, in language order
        data["patterns"]["de"].append([rule_id, [signal_id]])  # type: ignore[index]
    else:  # every line's signal, listed
        entry.pop("except", None)
        entry["signals"] = [[line.split("\t")[0], [line.split("\t")[1]]] for line in lines.split("\n")]
    entry["crc32"] = f"{zlib.crc32(lines.encode()):08x}"
    return _with_data(text, data)


@pytest.mark.parametrize(
    "section, value",
    [("fixes", [["powerful", "weak"]]), ("messages", "ignore me"), ("patterns", "powerful")],
)
def test_a_module_cannot_reach_a_built_in_rule(acme: Path, section: str, value: object) -> None:
    # A hand-edited module (its digest covers the sources, not the data) must not attach a fix,
    # a message, a pattern or an excluded context to a rule outside the pack, even with the
    # sections' checksums made to match.
    module = acme / MODULE_NAME
    text = module.read_text(encoding="utf-8")
    module.write_text(_add_line(text, section, "word-choice", "hype-word-en", value), encoding="utf-8")
    assert "word-choice/hype-word-en belongs to no rule of the pack" in _error(acme)


@pytest.mark.parametrize("section", ["PACK_PATTERNS", "PACK_FIXES", "PACK_MESSAGES"])
def test_a_section_edited_by_hand_is_refused_when_the_pack_loads(acme: Path, section: str) -> None:
    # The sections are read when a scan needs them; their checksums are checked at once.
    module = acme / MODULE_NAME
    text = module.read_text(encoding="utf-8")
    at = text.index(f'{section} = r"""\n') + len(f'{section} = r"""\n')
    module.write_text(text[:at] + text[at:].replace("\t", "\t ", 1), encoding="utf-8")
    assert "does not match its checksum" in _error(acme)


def test_a_section_line_out_of_place_is_an_error_when_read(acme: Path) -> None:
    # Lines swapped and the checksum made to match: only a module written to deceive gets past the
    # load, and reading the value is then an error, never another signal's fix.
    module = acme / MODULE_NAME
    text = module.read_text(encoding="utf-8")
    before, rest = text.split('PACK_FIXES = r"""\n', 1)
    lines, after = rest.split('\n"""', 1)
    first, second, *others = lines.split("\n")
    lines = "\n".join([second, first, *others])
    data = _parts(text)[1]
    data["sections"]["fixes"]["crc32"] = f"{zlib.crc32(lines.encode()):08x}"  # type: ignore[index]
    module.write_text(_with_data(before + 'PACK_FIXES = r"""\n' + lines + '\n"""' + after, data), encoding="utf-8")
    pack = load_pack(acme)
    with pytest.raises(PackError, match="is not sign-in-en's"):
        pack.signal_fixes["acme/terms", "sign-in-en"]


def set_line(folder: Path, section: str, rule_id: str, signal_id: str, value: str) -> None:
    """The module with one section line's value replaced by ``value`` (raw text), the checksum made to match."""
    module = folder / MODULE_NAME
    text = module.read_text(encoding="utf-8")
    name = f"PACK_{section.upper()}"
    before, rest = text.split(f'{name} = r"""\n', 1)
    lines, after = rest.split('\n"""', 1)
    ids = f"{rule_id}\t{signal_id}\t"
    edited = [ids + value if line.startswith(ids) else line for line in lines.split("\n")]
    assert edited != lines.split("\n")
    lines = "\n".join(edited)
    data = _parts(before + f'{name} = r"""\n' + lines + '\n"""' + after)[1]
    data["sections"][section]["crc32"] = f"{zlib.crc32(lines.encode()):08x}"  # type: ignore[index]
    module.write_text(_with_data(before + f'{name} = r"""\n' + lines + '\n"""' + after, data), encoding="utf-8")


_BAD_LINES = [
    ("patterns", "acme/no-etc", "etc-en", '"(?i)(etc"'),  # not a regular expression
    ("patterns", "acme/no-etc", "etc-en", '"(?i)\\betc'),  # not JSON
    ("patterns", "acme/no-etc", "etc-en", "42"),  # not a string
    ("fixes", "acme/terms", "sign-in-en", '[["(?i)(log in", "sign in"]]'),  # not a regular expression
    ("fixes", "acme/terms", "sign-in-en", '[["log in"]]'),  # not a pair
    ("fixes", "acme/terms", "sign-in-en", '{"log in": 1}'),  # not a list
    ("messages", "acme/terms", "sign-in-en", "[1]"),  # not a string
    ("messages", "acme/terms", "sign-in-en", '"\\ud800 broken'),  # not JSON
    # Regular expressions the build refuses, which a checkout can commit in a module it wrote
    # itself: ``re`` takes exponential time on "etc aaaa…!", so one line of text hung a scan.
    ("patterns", "acme/no-etc", "etc-en", '"(?i)\\\\betc (?:a+)+b"'),  # nested quantifiers
    ("patterns", "acme/no-etc", "etc-en", '"(?i)\\\\betc (?:a|ab)*c"'),  # overlapping alternatives
    ("fixes", "acme/terms", "sign-in-en", '[["(?i)log in(?:\\\\s*\\\\s*)+x", "sign in"]]'),
    # Polynomial backtracking of degree 3 and more: four ".*" gaps did not finish on 400 characters in 60 s.
    ("patterns", "acme/no-etc", "etc-en", '"(?i)\\\\betc.*a.*a.*a.*b"'),
    ("fixes", "acme/terms", "sign-in-en", '[["(?i)log in.*a.*b", "sign in"]]'),
]


@pytest.mark.parametrize("section, rule_id, signal_id, value", _BAD_LINES)
def test_a_bad_section_line_is_a_pack_error_that_says_to_rebuild(
    acme: Path, section: str, rule_id: str, signal_id: str, value: str
) -> None:
    # Checksum made to match: the load succeeds (the lines are read lazily), reading the line fails.
    set_line(acme, section, rule_id, signal_id, value)
    pack = load_pack(acme)
    with pytest.raises(PackError) as caught:
        if section == "patterns":
            pattern = next(p for p in pack.signal_tables["en"] if (p.rule_id, p.signal_id) == (rule_id, signal_id))
            pattern.regex  # noqa: B018
        else:
            getattr(pack, f"signal_{section}")[rule_id, signal_id]
    message = str(caught.value)
    assert message.startswith(f"pack {acme}: ") and f"run `writing-rules pack build {acme}`" in message
    assert caught.value.pack == str(acme)


def test_a_slow_pattern_written_by_hand_is_refused_naming_its_signal_and_the_rebuild(acme: Path) -> None:
    # The loader has no timed run: a pattern whose time grows as a power of the text's length
    # (".*a.*a.*a.*b": the fifth) is refused by the static check before it ever runs.
    set_line(acme, "patterns", "acme/no-etc", "etc-en", '"(?i)\\\\betc.*a.*a.*a.*b"')
    pattern = next(p for p in load_pack(acme).signal_tables["en"] if p.signal_id == "etc-en")
    with pytest.raises(PackError) as caught:
        pattern.regex  # noqa: B018
    message = str(caught.value)
    assert "for acme/no-etc/etc-en" in message
    assert "grow as the text's length to the power 5" in message
    assert f"run `writing-rules pack build {acme}`" in message


@pytest.mark.parametrize("pattern", ["\\\\S+@\\\\S+", "\\\\w+_\\\\w+", "\\\\S+:\\\\S+", "[\\\\w.]+@[\\\\w.]+"])
def test_a_quadratic_pattern_written_by_hand_loads_and_scans(acme: Path, pattern: str) -> None:
    # A last repeat with nothing after it that can fail adds no degree: these are at most
    # quadratic, v0.7.0 loaded them, and a pack edited by hand with one still loads.
    set_line(acme, "patterns", "acme/no-etc", "etc-en", f'"{pattern}"')
    found = next(p for p in load_pack(acme).signal_tables["en"] if p.signal_id == "etc-en")
    assert found.regex.search("mail user@example.com, see key:value, snake_case")


def test_a_pack_error_crosses_processes() -> None:
    import pickle

    error = PackError("styles/acme", "_pack_data.py is malformed: run `writing-rules pack build styles/acme`")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is PackError and str(copy) == str(error)
    assert (copy.pack, copy.message) == (error.pack, error.message)


def test_a_module_cannot_exclude_contexts_of_a_built_in_rule(acme: Path) -> None:
    module = acme / MODULE_NAME
    text = module.read_text(encoding="utf-8")
    data = _parts(text)[1]
    data["excluded_contexts"]["word-choice"] = ["quotation"]  # type: ignore[index]
    module.write_text(_with_data(text, data), encoding="utf-8")
    assert "'word-choice', which is no rule of the pack" in _error(acme)


def test_ids_may_not_collide(acme: Path, tmp_path: Path) -> None:
    with pytest.raises(PackError, match="'acme/terms' is a built-in rule's"):
        load_packs([acme], builtin_rule_ids=[*RULE_IDS, "acme/terms"])
    with pytest.raises(PackError, match="loaded twice"):
        load_packs([acme, acme])
    assert [pack.id for pack in load_packs([acme])] == ["acme"]


def test_a_pack_that_is_not_there(tmp_path: Path) -> None:
    assert "no such pack folder" in _error("./styles/none", base=tmp_path)
    assert "no installed pack of that name" in _error("no-such-pack-distribution", base=tmp_path)
    (tmp_path / "bare").mkdir()
    assert "no pack.yaml" in _error("./bare", base=tmp_path)


def test_nothing_in_a_pack_folder_runs(acme: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    module = acme / MODULE_NAME
    text = module.read_text(encoding="utf-8")
    module.write_text(f"open({str(marker)!r}, 'w').close()\n" + text, encoding="utf-8")
    load_pack(acme)  # the data is read; the statement before it is not run
    assert not marker.exists()
    module.write_text(f'PACK_DATA_JSON = r"""\n{{}}\n"""\nopen({str(marker)!r}, "w")\n', encoding="utf-8")
    assert "pack build" in _error(acme)  # refused: the data is not a pack's
    assert not marker.exists()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_in_place_of_a_file_is_never_read(acme: Path) -> None:
    (acme / MODULE_NAME).unlink()
    (acme / MODULE_NAME).symlink_to("/dev/zero")
    assert "is not a regular file" in _error(acme)
    (acme / MODULE_NAME).unlink()
    shutil.copy(ACME / MODULE_NAME, acme / MODULE_NAME)
    (acme / "terms.yaml").unlink()
    (acme / "terms.yaml").symlink_to("/dev/zero")  # no longer a source: the digest leaves it out
    assert "older than the pack's sources" in _error(acme)


@settings(max_examples=60)
@given(
    st.binary(max_size=400)
    | st.text(max_size=400).map(lambda text: ('PACK_DATA_JSON = r"""\n' + text + '\n"""').encode())
)
def test_any_module_bytes_load_or_give_a_pack_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        pack = Path(temporary)
        shutil.copy(ACME / "pack.yaml", pack / "pack.yaml")
        (pack / MODULE_NAME).write_bytes(data)
        with pytest.raises(PackError):
            load_pack(pack)


def test_an_installed_pack_is_found_by_its_entry_point(
    acme: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    package = site / "acme_writing_rules"
    shutil.copytree(acme, package)
    (package / "__init__.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\n", encoding="utf-8")
    info = site / "acme_writing_rules-1.0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-writing-rules\nVersion: 1.0.0\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\nacme = acme_writing_rules._pack_data\n")
    monkeypatch.syspath_prepend(str(site))
    pack = load_pack("acme")
    assert pack.id == "acme" and pack.source == "acme" and "acme/terms" in pack.rules
    assert not (tmp_path / "ran").exists()  # the package's __init__ did not run


_LITERALS = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)
_KEYS = ("id", "version", "title", "languages", "vale_style", "rules", "patterns", "length_signals", "sections",
         "excluded_contexts", "index", "fold_map", "fold_unsafe")  # fmt: skip


@settings(max_examples=80)
@given(key=st.sampled_from(_KEYS), value=_LITERALS)
def test_malformed_data_with_a_matching_digest_gives_a_pack_error(key: str, value: object) -> None:
    """A module whose digest matches its sources but whose data is damaged: a PackError, never a crash."""
    text = (ACME / MODULE_NAME).read_text(encoding="utf-8")
    data = _parts(text)[1]
    data[key] = value
    with tempfile.TemporaryDirectory() as temporary:
        pack = Path(temporary)
        shutil.copytree(ACME, pack, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
        (pack / MODULE_NAME).write_text(_with_data(text, data), encoding="utf-8")
        with contextlib.suppress(PackError):  # loading or refusing are both fine; nothing else is
            load_pack(pack)


_TEXT_PIECES = st.sampled_from(
    ["log in", "Log On", "LOG IN's", "click on", "clicks on", "GitHub", "Github", "github’s", "ACME Cloud",
     "Acme cloud", "ACMECloud", "etc.", "usw.", "einloggen", "Einloggen", "pre-log in", "blog in", "ſ", "İ",
     " ", "\n", ", ", "-", "x", "the"]
)  # fmt: skip


@settings(max_examples=150)
@given(st.lists(_TEXT_PIECES, max_size=30).map("".join))
def test_the_scanner_finds_with_a_packs_index_what_each_pattern_finds_alone(text: str) -> None:
    """The pack's index, fed to the scanner's candidate search in place of the built-in one, gives
    every pattern exactly the matches ``finditer`` gives: what the wiring step merges is sound."""
    from types import SimpleNamespace

    from writing_rules.tools import _scanner

    pack = load_pack(ACME)
    unsafe = re.compile(f"[{re.escape(pack.fold_unsafe)}]") if pack.fold_unsafe else None
    # The pack alone, in the shape the scanner reads (a catalogue of its tables only).
    shim: Any = SimpleNamespace(
        SIGNAL_TABLES=pack.signal_tables, SIGNAL_INDEX=pack.signal_index, FOLD_MAP=pack.fold_map, FOLD_UNSAFE=unsafe
    )
    for language, table in pack.signal_tables.items():
        found = dict(_scanner._pattern_spans(text, language, list(range(len(table))), shim))
        for position, pattern in enumerate(table):
            assert found[position] == _scanner.plain_spans(pattern.regex, text), (language, pattern.signal_id)


def test_an_imported_vale_packs_index_finds_what_its_patterns_find(tmp_path: Path) -> None:
    """The same for Joblint's 17 imported rules, over Vale's own fixture documents."""
    from types import SimpleNamespace

    from generator._packs import build_pack
    from generator._vale import import_vale_style
    from writing_rules.tools import _scanner

    styles = ROOT / "tests" / "generator" / "vale_styles"
    import_vale_style(styles / "Joblint", tmp_path / "joblint")
    build_pack(tmp_path / "joblint", timed=False)
    pack = load_pack(tmp_path / "joblint")
    table = pack.signal_tables["en"]
    unsafe = re.compile(f"[{re.escape(pack.fold_unsafe)}]") if pack.fold_unsafe else None
    shim: Any = SimpleNamespace(
        SIGNAL_TABLES=pack.signal_tables, SIGNAL_INDEX=pack.signal_index, FOLD_MAP=pack.fold_map, FOLD_UNSAFE=unsafe
    )
    texts = [path.read_text(encoding="utf-8") for path in sorted((styles / "Joblint" / "fixtures").rglob("*.md"))]
    assert texts
    hits = 0
    for text in texts:
        found = dict(_scanner._pattern_spans(text, "en", list(range(len(table))), shim))
        for position, pattern in enumerate(table):
            expected = _scanner.plain_spans(pattern.regex, text)
            assert found[position] == expected, pattern.rule_id
            hits += len(expected)
    assert hits > 20


_BIG_EN = (
    "The file was deleted by the administrator. It is very simply done, basically. Please log in, etc.\n\n"
    "It might be argued that the settings should be changed by the user in order to make use of the feature.\n"
) * 20
_BIG_DE = "Die Datei wurde vom Administrator gelöscht. Das ist eigentlich sehr einfach. Bitte einloggen usw.\n\n" * 20


def _builtin_signals(signals: list[Any]) -> list[tuple[str, str, int, int]]:
    return [(s.rule_id, s.signal_id, s.start, s.end) for s in signals if s.rule_id in RULE_IDS]


_DAMAGED_INDEX = {
    # A regex class body: spliced into the scanner's word finder, it could break it or make it find no word.
    "key_chars, not a class": lambda d: d["index"]["en"].__setitem__("key_chars", "](?!)["),
    "key_chars, a class that finds nothing": lambda d: d["index"]["en"].__setitem__("key_chars", "]|(?!)[a"),
    "key_chars, a class with white space": lambda d: d["index"]["en"].__setitem__("key_chars", " -~"),
    # Folding a letter of the built-in triggers away hides their signals.
    "fold_map, a letter": lambda d: d["fold_map"].update({"97": "q", "101": "q", "105": "q"}),
    "fold_map, s to long s": lambda d: d["fold_map"].update({"115": "ſ"}),
    "fold_map, no character": lambda d: d["fold_map"].update({"9999999": "x"}),
    "fold_map, longer": lambda d: d["fold_map"].update({"1000": "xyz"}),
    "length signal, a text": lambda d: d["length_signals"].__setitem__("en", [["acme/no-etc", "etc-en", "x", None]]),
    "a row without =": lambda d: d["index"]["en"].__setitem__("words", d["index"]["en"]["words"] + "noequals\n"),
    "an empty suffix": lambda d: d["index"]["en"].__setitem__("suffixes", [["", ["p0"]]]),
    "a partial key of text": lambda d: d["index"]["en"].__setitem__("partial", [["x", "ab"]]),
    "an anchor at text": lambda d: d["index"]["en"].__setitem__("anchors", [[["etc"], "x", ["p0"]]]),
    "a look-back of text": lambda d: d["index"]["en"].__setitem__("look_backs", [["p0", "x", ["ab"]]]),
}


@pytest.mark.parametrize("damage", sorted(_DAMAGED_INDEX))
def test_a_module_edited_by_hand_is_refused_or_scans_the_built_in_rules_as_before(acme: Path, damage: str) -> None:
    """The data outside the sections has no checksum: whatever it holds, the pack is refused when it
    loads, or it scans without a crash and leaves the built-in rules' signals as they are."""
    from writing_rules.packs import catalog_for
    from writing_rules.tools import scan_signals

    module = acme / MODULE_NAME
    text = module.read_text(encoding="utf-8")
    data = _parts(text)[1]
    _DAMAGED_INDEX[damage](data)
    module.write_text(_with_data(text, data), encoding="utf-8")
    try:
        catalog = catalog_for(load_packs([acme]))
    except PackError as error:
        assert "build" in str(error)  # what to do: build the pack again
        return
    for language, sample in (("en", _BIG_EN), ("de", _BIG_DE)):
        alone, _ = scan_signals(sample, language, RULE_IDS, 10_000, min_level="suggestion")
        both, _ = scan_signals(sample, language, catalog.RULE_IDS, 10_000, min_level="suggestion", catalog=catalog)
        assert _builtin_signals(both) == _builtin_signals(alone)


def test_a_process_without_hashlib_computes_the_same_digest(acme: Path) -> None:
    """A command line that has not imported hashlib hashes with the interpreter's own module."""
    script = (
        "import sys\n"
        "from writing_rules.packs._digest import pack_digest, sha256\n"
        "print(pack_digest(sys.argv[1], 2), sha256(b'abc').hexdigest(), 'hashlib' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(acme)], capture_output=True, text=True, check=True)
    digest, abc, imported = done.stdout.split()
    assert digest == pack_digest(acme, 2)
    assert abc == hashlib.sha256(b"abc").hexdigest()
    assert imported == "False"
