"""Rule packs at build time (``generator/_packs.py``, ``_terms.py``; docs/packs.md).

What a docs team relies on: ``pack new`` gives a pack that builds and tests
green; ``pack build`` checks everything the built-in compiler checks, reports
every problem at once as ``path:line:col: message`` and then writes nothing;
a vocabulary entry finds its words with their inflections and only as whole
words, and its fix writes the preferred term the way the entry's ``case`` says.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator._errors import SourceProblems
from generator._fixes import fix_at
from generator._packs import MODULE_NAME, VERDICTS_NAME, build_pack, new_pack, pack_digest, test_pack
from generator._paths import recorded_digest
from generator._terms import compile_term
from generator._vale import import_vale_style

from .vale_support import STYLES

ROOT = Path(__file__).resolve().parents[2]
ACME = ROOT / "examples" / "packs" / "acme"
SHORT = 6_000  # the timed run's input length in tests: long enough that a linear pattern's fixed cost per call
# cannot look like growth on a slow machine (at 2,000 it measured 1.8-2.0x against the limit of 2.5)


def _copy(source: Path, target: Path) -> Path:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(MODULE_NAME, VERDICTS_NAME, "__pycache__"))
    return target


def _problems(folder: Path) -> list[str]:
    with pytest.raises(SourceProblems) as caught:
        build_pack(folder, timed=False)
    return [str(problem) for problem in caught.value.problems]


def _fix(entry: dict[str, object], text: str) -> tuple[list[str], str]:
    """The hits of the entry's signal in ``text`` and the text with every applicable fix applied."""
    term = compile_term(dict(entry), 0, "t-en")
    regex = re.compile(term.item["pattern"])
    hits = [hit.group(0) for hit in regex.finditer(text)]
    fixes = [(re.compile(fix["match"]), fix["replacement"]) for fix in term.item.get("fixes", ())]
    out, previous = [], 0
    for hit in regex.finditer(text):
        for match, replacement in fixes:
            done = fix_at(match, replacement, text, hit.start(), hit.end())
            if done is not None:
                out += [text[previous : hit.start()], done[1]]
                previous = done[0]
                break
    return hits, "".join(out) + text[previous:]


# pack new, build, test


def test_new_pack_builds_tests_and_loads(tmp_path: Path) -> None:
    from writing_rules.packs import load_pack

    folder = tmp_path / "styles" / "team-style"
    written = new_pack(folder)
    assert sorted(path.relative_to(folder).as_posix() for path in written) == [
        "pack.yaml",
        "rules/no-simply.md",
        "terms.yaml",
    ]
    assert test_pack(folder) == 2
    result = build_pack(folder, input_length=SHORT)
    assert result.changed and result.compiled and result.timed_count == 1 and result.terms == 1
    assert recorded_digest(folder / MODULE_NAME) == pack_digest(folder)
    pack = load_pack(folder)
    assert pack.id == "team-style"
    assert set(pack.rules) == {"team-style/no-simply", "team-style/terms"}


def test_new_pack_refuses_a_folder_with_files(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(FileExistsError):
        new_pack(tmp_path, "acme")
    assert [path.name for path in tmp_path.iterdir()] == ["keep.txt"]
    with pytest.raises(ValueError, match="not a slug"):
        new_pack(tmp_path / "new", "Not A Slug")


def test_the_example_pack_builds(tmp_path: Path) -> None:
    folder = _copy(ACME, tmp_path / "acme")
    result = build_pack(folder, input_length=SHORT)
    assert result.rules == 2 and result.terms == 5
    # The committed module is what the compiler renders from the committed sources.
    assert (ACME / MODULE_NAME).read_text(encoding="utf-8") == (folder / MODULE_NAME).read_text(encoding="utf-8"), (
        "run `python -m generator.pack build examples/packs/acme`"
    )


def test_a_second_build_does_nothing_and_one_edited_term_is_checked_alone(tmp_path: Path) -> None:
    folder = _copy(ACME, tmp_path / "acme")
    build_pack(folder, input_length=SHORT)
    again = build_pack(folder, input_length=SHORT)
    assert not again.compiled and not again.changed
    terms = folder / "terms.yaml"
    terms.write_text(terms.read_text(encoding="utf-8").replace("[click on]", "[click on, tap on]"), encoding="utf-8")
    edited = build_pack(folder, input_length=SHORT)
    assert edited.changed and edited.checked_terms == 1 and edited.timed_count == 0
    assert "tap on" in (folder / MODULE_NAME).read_text(encoding="utf-8")


def test_a_pack_built_on_one_python_is_checked_again_on_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pack's verdicts name the Python they were made on, like the built-in catalogue's."""
    from generator import _verdicts

    folder = _copy(ACME, tmp_path / "acme")
    build_pack(folder, input_length=SHORT)
    running = _verdicts.PYTHON
    monkeypatch.setattr(_verdicts, "PYTHON", "cpython-3.99")
    other = build_pack(folder, input_length=SHORT)
    assert other.compiled and other.timed_count == 2 and other.checked_terms == 5
    lines = [line for line in (folder / VERDICTS_NAME).read_text(encoding="utf-8").splitlines() if "#" not in line]
    assert sorted({line.split()[-1] for line in lines}) == sorted(["cpython-3.99", running])
    monkeypatch.undo()
    assert not build_pack(folder, input_length=SHORT).compiled


def test_problems_are_all_reported_with_places_and_nothing_is_written(tmp_path: Path) -> None:
    folder = _copy(ACME, tmp_path / "acme")
    rule = folder / "rules" / "no-etc.md"
    rule.write_text(rule.read_text(encoding="utf-8").replace("[[etc.]]", "[[etcetera]]"), encoding="utf-8")
    terms = folder / "terms.yaml"
    terms.write_text(
        terms.read_text(encoding="utf-8").replace("language: de", "language: fr")
        + "  - use: sign on\n    avoid: [log in]\n    language: en\n",
        encoding="utf-8",
    )
    problems = _problems(folder)
    display = folder.as_posix()
    assert any(p.startswith(f"{display}/rules/no-etc.md:") and "does not match this must_match" in p for p in problems)
    assert any(re.match(rf"{re.escape(display)}/terms\.yaml:\d+:\d+: ", p) and "'fr'" in p for p in problems)
    assert not (folder / MODULE_NAME).exists() and not (folder / VERDICTS_NAME).exists()


def test_pack_rules_cover_exactly_the_declared_languages(tmp_path: Path) -> None:
    folder = tmp_path / "solo"
    new_pack(folder, "solo")
    rule = folder / "rules" / "no-simply.md"
    text = rule.read_text(encoding="utf-8")
    rule.write_text(text.replace("title:\n  en:", "title:\n  de: Nicht einfach\n  en:") + "\n## de\n", encoding="utf-8")
    problems = _problems(folder)
    assert any("title needs exactly the pack's languages: en" in p for p in problems)
    assert any("section '## de': the pack declares en only" in p for p in problems)


def test_a_vale_name_needs_a_vale_pack(tmp_path: Path) -> None:
    folder = tmp_path / "team"
    new_pack(folder, "team")
    old = folder / "rules" / "no-simply.md"
    text = old.read_text(encoding="utf-8").replace("id: no-simply", "id: Team.Simply")
    old.unlink()
    (folder / "rules" / "Team.Simply.md").write_text(text, encoding="utf-8")
    assert any("is not a slug" in p for p in _problems(folder))


def test_an_avoided_word_has_one_replacement(tmp_path: Path) -> None:
    folder = tmp_path / "team"
    new_pack(folder, "team")
    terms = folder / "terms.yaml"
    terms.write_text(
        terms.read_text(encoding="utf-8") + "  - use: sign on\n    avoid: [Log In]\n    language: en\n",
        encoding="utf-8",
    )
    [problem] = _problems(folder)
    assert problem.startswith(f"{folder.as_posix()}/terms.yaml:9:13:")
    assert "avoided by entry 1 ('sign in')" in problem


def test_the_cli_exits_2_with_every_problem(tmp_path: Path) -> None:
    folder = tmp_path / "team"
    new_pack(folder, "team")
    (folder / "terms.yaml").write_text("terms:\n  - use: x\n    avoid: [y]\n    language: en\n    colour: red\n")
    done = subprocess.run(
        [sys.executable, "-m", "generator.pack", "build", "--no-timing", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert re.search(r"terms\.yaml:5:5: unknown field 'colour'", done.stderr)
    assert not (folder / MODULE_NAME).exists()


def test_an_imported_vale_style_builds_with_vale_names(tmp_path: Path) -> None:
    out = tmp_path / "joblint"
    import_vale_style(STYLES / "Joblint", out)
    build_pack(out, timed=False)
    from writing_rules.packs import load_pack

    pack = load_pack(out)
    assert pack.vale_style == "Joblint"
    assert all(rule_id.startswith("Joblint.") for rule_id in pack.rules)


# terms


PRESERVE = {"use": "sign in", "avoid": ["log in"], "language": "en", "case": "preserve"}


def test_preserve_keeps_the_hits_capitalisation() -> None:
    assert _fix(PRESERVE, "Log in, then log in again. LOG IN!")[1] == "Sign in, then sign in again. SIGN IN!"


def test_inflections_are_found_and_fixed_in_kind() -> None:
    entry = {"use": "container", "avoid": ["box"], "language": "en", "case": "preserve"}
    hits, fixed = _fix(entry, "One box, two boxes, the box's lid, the box’s lid.")
    assert hits == ["box", "boxes", "box's", "box’s"]
    assert fixed == "One container, two containers, the container's lid, the container’s lid."


def test_words_are_found_whole_and_not_inside_hyphenated_compounds() -> None:
    hits, fixed = _fix(PRESERVE, "A blog in, log inside, pre-log in, log in-flow, catalog in. Or log in.")
    assert hits == ["log in"]
    assert fixed.endswith("Or sign in.")


def test_insensitive_finds_any_case_and_fixes_only_where_use_stays_as_written() -> None:
    entry = {"use": "GitHub", "avoid": ["git hub"], "language": "en"}
    hits, fixed = _fix(entry, "Push to git hub. Git Hub works. GIT HUB too.")
    assert hits == ["git hub", "Git Hub", "GIT HUB"]
    assert fixed == "Push to GitHub. GitHub works. GIT HUB too."  # an ALL CAPS hit gets no fix


def test_sensitive_flags_use_in_another_capitalisation() -> None:
    entry = {"use": "GitHub", "avoid": [], "language": "en", "case": "sensitive"}
    hits, fixed = _fix(entry, "GitHub and Github and github's page, not GitHubber.")
    assert hits == ["Github", "github's"]
    assert fixed == "GitHub and GitHub and GitHub's page, not GitHubber."


def test_a_term_brings_checked_examples_and_a_message() -> None:
    term = compile_term({**PRESERVE, "why": "Our product says so."}, 0, "sign-in-en")
    assert term.message == "Use 'sign in' instead of '%s'. Our product says so."
    assert any("[[log in]]" in text for text in term.item["must_match"])
    assert "Please see pre-log in for details." in term.item["must_not_match"]
    assert "Please see sign in for details." in term.item["must_not_match"]


_WORD = st.text(alphabet=st.sampled_from("abcXYZäß -'’.+"), min_size=1, max_size=12)


@settings(max_examples=40)
@given(
    use=_WORD,
    avoid=st.lists(_WORD, max_size=3),
    case=st.sampled_from(["sensitive", "insensitive", "preserve"]),
    language=st.sampled_from(["en", "de"]),
)
def test_any_vocabulary_builds_or_reports_problems(
    tmp_path_factory: pytest.TempPathFactory, use: str, avoid: list[str], case: str, language: str
) -> None:
    folder = tmp_path_factory.mktemp("pack")
    (folder / "pack.yaml").write_text("id: p\nversion: 1\ntitle: {en: P, de: P}\nlanguages: [en, de]\n")
    entry = {"use": use, "avoid": avoid, "language": language, "case": case}
    (folder / "terms.yaml").write_text(yaml.safe_dump({"terms": [entry]}, allow_unicode=True), encoding="utf-8")
    try:
        build_pack(folder, timed=False)
    except SourceProblems as problems:
        assert problems.problems
        assert not (folder / MODULE_NAME).exists()
    else:
        from writing_rules.packs import load_pack

        assert recorded_digest(folder / MODULE_NAME) == pack_digest(folder)
        assert set(load_pack(folder).rules) == {"p/terms"}  # what builds, loads


def test_pack_test_reports_a_broken_example_and_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "team"
    new_pack(folder, "team")
    rule = folder / "rules" / "no-simply.md"
    rule.write_text(rule.read_text(encoding="utf-8").replace('- "Then restart the server."', '- "Simply go."'))
    with pytest.raises(SourceProblems) as caught:
        test_pack(folder)
    [problem] = caught.value.problems
    assert (problem.path, problem.message) == (
        f"{folder.as_posix()}/rules/no-simply.md",
        "pattern matches 'Simply' in this must_not_match example",
    )
    assert sorted(path.name for path in folder.iterdir()) == ["pack.yaml", "rules", "terms.yaml"]


def test_a_pattern_that_backtracks_is_refused_without_running_it_on_the_examples(tmp_path: Path) -> None:
    # The static check refused the pattern, and the examples were checked with it all the same:
    # a must_not_match example of forty "a"s made `pack test` or `pack build` of a hostile pack
    # source (a checkout, a pull request) run for ever. Here the examples are harmless: any
    # problem about them shows they were run.
    folder = tmp_path / "team"
    new_pack(folder, "team")
    rule = folder / "rules" / "no-simply.md"
    rule.write_text(
        rule.read_text(encoding="utf-8")
        .replace("pattern: '(?i)\\bsimply\\b'", "pattern: '(?i)\\bsimply (?:a+)+!'")
        .replace('- "Then restart the server."', '- "Simply a!"')
    )
    with pytest.raises(SourceProblems) as caught:
        test_pack(folder)
    messages = [problem.message for problem in caught.value.problems]
    assert any("nested quantifiers" in message for message in messages), messages
    assert not any("example" in message for message in messages), messages


def test_a_forged_verdict_does_not_skip_the_static_check(tmp_path: Path) -> None:
    # verdicts.txt sits in the pack folder, beside the sources: a checkout can commit a line
    # that vouches for any pattern (the key is computed from the sources). The static check
    # costs a millisecond and is what keeps the build from running such a pattern at all, so
    # it runs whatever the cache says; only the timed run is taken from the cache.
    from generator._verdicts import PYTHON, signal_examples, verdict_key

    folder = tmp_path / "team"
    new_pack(folder, "team")
    rule = folder / "rules" / "no-simply.md"
    pattern = "(?i)\\bsimply (?:a+)+!"
    rule.write_text(
        rule.read_text(encoding="utf-8")
        .replace("pattern: '(?i)\\bsimply\\b'", f"pattern: '{pattern}'")
        .replace("[[simply]] restart the server", "[[simply a!]] restart the server")
    )
    front = yaml.safe_load(rule.read_text(encoding="utf-8").split("---")[1])
    signal = front["signals"][0]
    key = verdict_key(pattern, signal_examples(signal["must_match"], signal["must_not_match"]), SHORT)
    (folder / VERDICTS_NAME).write_text(f"team/no-simply/simply-en {key} ok {PYTHON}\n", encoding="utf-8")
    with pytest.raises(SourceProblems) as caught:
        build_pack(folder, input_length=SHORT)
    messages = [problem.message for problem in caught.value.problems]
    assert any("nested quantifiers" in message for message in messages), messages


def test_a_source_too_large_is_a_problem_not_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from writing_rules.packs import _digest

    folder = tmp_path / "team"
    new_pack(folder, "team")
    monkeypatch.setattr(_digest, "MAX_SOURCE_BYTES", 100)
    monkeypatch.setattr(sys.modules["_writing_rules_for_compiler_packs__digest"], "MAX_SOURCE_BYTES", 100)
    [problem] = _problems(folder)
    assert "is larger than 100 bytes" in problem


def _team_style_with_a_vocabulary(tmp_path: Path) -> Path:
    """A one-rule Vale style with an accept list, imported as the pack folder ``team``."""
    style = tmp_path / "Team"
    style.mkdir()
    (style / "Simple.yml").write_text("extends: existence\nmessage: \"Avoid '%s'.\"\ntokens: [simply]\n")
    (style / "accept.txt").write_text("FooCloud\n")
    out = tmp_path / "team"
    import_vale_style(style, out)
    return out


def test_a_vale_vocabulary_becomes_vale_terms_with_fixes(tmp_path: Path) -> None:
    out = _team_style_with_a_vocabulary(tmp_path)
    build_pack(out, timed=False)
    from writing_rules.packs import load_pack

    pack = load_pack(out)
    assert list(pack.rules) == ["Team.Simple", "team/Vale.Terms"]
    [(match, replacement), *_] = pack.signal_fixes[("team/Vale.Terms", "foocloud-en")]
    [pattern] = [p for p in pack.signal_tables["en"] if p.rule_id == "team/Vale.Terms"]
    hits = [hit.group(0) for hit in pattern.regex.finditer("FooCloud, Foocloud and foocloud.")]
    assert hits == ["Foocloud", "foocloud"]
    assert replacement == "FooCloud" and re.match(match, "Foocloud")


def test_two_imported_styles_with_vocabularies_load_side_by_side(tmp_path: Path) -> None:
    # Each style's vocabulary gives Vale's own rules (Vale.Terms, Vale.Avoid). Vale has one
    # vocabulary per configuration; a team loading two imported styles has two, one per pack,
    # so their ids carry the pack's namespace, as every pack rule id not the style's own does.
    import shutil

    from writing_rules.packs import catalog_for, load_packs

    folders = []
    for name, accepted, rejected in (("Joblint", "FooCloud\n", "blacklist\n"), ("Team", "BarCloud\n", "whitelist\n")):
        style = tmp_path / "styles" / name
        if name == "Joblint":
            shutil.copytree(STYLES / "Joblint", style)
            style = style / "Joblint"
        else:
            style.mkdir(parents=True)
            (style / "Simple.yml").write_text("extends: existence\nmessage: \"Avoid '%s'.\"\ntokens: [simply]\n")
        (style / "Vocab" / "Base").mkdir(parents=True)
        (style / "Vocab" / "Base" / "accept.txt").write_text(accepted)
        (style / "Vocab" / "Base" / "reject.txt").write_text(rejected)
        out = tmp_path / name.lower()
        import_vale_style(style, out)
        build_pack(out, timed=False)
        folders.append(out)
    joblint, team = load_packs(folders)
    assert {"joblint/Vale.Terms", "joblint/Vale.Avoid", "Joblint.TechTerms"} <= set(joblint.rules)
    assert [rule_id for rule_id in team.rules] == ["Team.Simple", "team/Vale.Avoid", "team/Vale.Terms"]
    catalog = catalog_for([joblint, team])
    assert {"joblint/Vale.Terms", "team/Vale.Terms"} <= set(catalog.RULE_IDS)
    [(match, replacement), *_] = team.signal_fixes[("team/Vale.Terms", "barcloud-en")]
    assert replacement == "BarCloud" and re.match(match, "Barcloud")


def test_a_vale_pack_built_with_the_old_shared_vocabulary_ids_says_to_rebuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import generator._packs as packs_compiler
    from writing_rules.packs import PackError, load_pack

    out = _team_style_with_a_vocabulary(tmp_path)
    monkeypatch.setattr(packs_compiler, "_VALE_OWN", "\0")  # ids as before: Vale.Terms, shared by every pack
    build_pack(out, timed=False)
    with pytest.raises(PackError) as caught:
        load_pack(out)
    message = str(caught.value)
    assert "'Vale.Terms' is the shared name an older writing-rules gave" in message
    assert "'team/Vale.Terms'" in message and f"run `writing-rules pack build {out}`" in message


def _words(letters: str) -> st.SearchStrategy[str]:
    word = st.text(alphabet=st.sampled_from(letters + letters.upper()), min_size=2, max_size=7)
    return st.lists(word, min_size=1, max_size=2).map(" ".join)


@settings(max_examples=30)
@given(
    use=_words("abcdefgä"),
    avoid=st.lists(_words("kmnoprtuvwüß"), min_size=1, max_size=3, unique_by=str.casefold),
    case=st.sampled_from(["sensitive", "insensitive", "preserve"]),
    language=st.sampled_from(["en", "de"]),
)
def test_an_ordinary_vocabulary_entry_always_builds(
    tmp_path_factory: pytest.TempPathFactory, use: str, avoid: list[str], case: str, language: str
) -> None:
    """Words that are neither each other nor inside each other: every generated example and fix holds
    (``ß``, whose capital is ``SS`` for ``str`` but not for ``re``, included)."""
    folder = tmp_path_factory.mktemp("pack")
    (folder / "pack.yaml").write_text("id: p\nversion: 1\ntitle: {en: P, de: P}\nlanguages: [en, de]\n")
    entry = {"use": use, "avoid": avoid, "language": language, "case": case}
    (folder / "terms.yaml").write_text(yaml.safe_dump({"terms": [entry]}, allow_unicode=True), encoding="utf-8")
    build_pack(folder, timed=False)


def test_the_terms_rule_lists_at_most_a_hundred_terms(tmp_path: Path) -> None:
    from writing_rules.packs import load_pack

    folder = tmp_path / "big"
    new_pack(folder, "big")
    entries = [{"use": f"good{n:03d}", "avoid": [f"bad{n:03d}"], "language": "en"} for n in range(120)]
    (folder / "terms.yaml").write_text(yaml.safe_dump({"terms": entries}), encoding="utf-8")
    build_pack(folder, timed=False)
    terms = load_pack(folder).rules["big/terms"]
    instruction = terms.texts["en"].instruction
    assert "'good099' instead of 'bad099'" in instruction and "good100" not in instruction
    assert instruction.endswith("- (and 20 more)")
    assert len(terms.signal_levels) == 120


def test_a_problem_in_pack_yaml_does_not_hide_the_rules_problems(tmp_path: Path) -> None:
    folder = tmp_path / "team"
    new_pack(folder, "team")
    (folder / "pack.yaml").write_text("id: team\ntitle: {en: Team}\nlanguages: [en]\n", encoding="utf-8")
    rule = folder / "rules" / "no-simply.md"
    rule.write_text(rule.read_text(encoding="utf-8").replace("[[simply]] restart", "[[simply restart]]", 1))
    problems = _problems(folder)
    assert any("pack.yaml" in p and "'version' is a required property" in p for p in problems)
    assert any("no-simply.md" in p and "the example marks 'simply restart'" in p for p in problems)


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("name", [MODULE_NAME, VERDICTS_NAME])
@pytest.mark.parametrize("kind", ["fifo", "link to a device"])
def test_a_build_neither_blocks_nor_reads_without_end_what_stands_in_place_of_its_outputs(
    tmp_path: Path, name: str, kind: str
) -> None:
    """A checkout may hold a FIFO, or a link to /dev/zero, where the build reads its module and
    verdict cache: the build reads neither, and replaces it with the file it writes, in the folder."""
    import os

    folder = _copy(ACME, tmp_path / "acme")
    (folder / name).unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(folder / name)
    else:
        (folder / name).symlink_to("/dev/zero")
    script = (
        # (Memory capped: a read of /dev/zero would otherwise take all the machine has.)
        "import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)); "
        "from generator._packs import build_pack; "
        f"build_pack({str(folder)!r}, timed={name == VERDICTS_NAME}, input_length=2000)"
    )
    # A child process with a time-out: a blocked read would otherwise hang the test run.
    try:
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"pack build blocked on a {kind} in place of {name}")
    assert done.returncode == 0, done.stderr[-2000:]
    assert (folder / name).is_file() and not (folder / name).is_symlink()
    assert recorded_digest(folder / MODULE_NAME) == pack_digest(folder)
