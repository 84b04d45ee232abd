"""The catalogue of the built-in rules and loaded packs (``writing_rules.packs.catalog_for``).

The packs' patterns join the built-in trigger index: a scan with packs must find,
for every pattern of the merged table, exactly what ``re.finditer`` finds, and the
built-in rules' signals must not change because a pack is loaded.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules import _rules_data as data
from writing_rules.packs import Catalog, Pack, PackError, catalog_for, load_pack
from writing_rules.tools import scan_signals
from writing_rules.tools._scanner import _pattern_spans, plain_spans

ROOT = Path(__file__).resolve().parents[2]
ACME = ROOT / "examples" / "packs" / "acme"

# A vocabulary whose words share trigger keys with built-in patterns ("simply", "very",
# "leverage", "in order to") and with the acme pack ("log", "click"), so that merging joins
# entries of one key from several indexes, besides keys only the pack has.
_VOCABULARY = """\
terms:
  - use: just
    avoid: [simply put, very simply]
    language: en
    case: preserve
  - use: use
    avoid: [leverage, utilise]
    language: en
  - use: sign out
    avoid: [log out, log off]
    language: en
    case: preserve
  - use: press
    avoid: [click onto]
    language: en
  - use: to
    avoid: [in order to]
    language: en
  - use: Kubernetes
    avoid: [kubernetes, k8s]
    language: en
    case: sensitive
  - use: abmelden
    avoid: [ausloggen]
    language: de
  - use: nutzen
    avoid: [leveragen]
    language: de
"""


@pytest.fixture(scope="module")
def vocabulary(tmp_path_factory: pytest.TempPathFactory) -> Pack:
    from generator._packs import build_pack

    folder = tmp_path_factory.mktemp("packs") / "vocab"
    folder.mkdir()
    (folder / "pack.yaml").write_text(
        "id: vocab\nversion: 0.1.0\ntitle:\n  en: Vocabulary\n  de: Wortschatz\nlanguages: [en, de]\n", encoding="utf-8"
    )
    (folder / "terms.yaml").write_text(_VOCABULARY, encoding="utf-8")
    build_pack(folder, timed=False)
    return load_pack(folder)


@pytest.fixture(scope="module")
def acme() -> Pack:
    return load_pack(ACME)


def test_no_packs_is_the_built_in_catalogue() -> None:
    builtin = catalog_for(())
    assert builtin is catalog_for([])
    assert builtin.packs == () and builtin.digest == data.SOURCE_DIGEST
    assert builtin.RULES is data.RULES and builtin.SIGNAL_INDEX is data.SIGNAL_INDEX
    assert dict(builtin.SIGNAL_MESSAGES) == {}


def test_a_catalogue_appends_the_packs_rules_and_is_memoised(acme: Pack) -> None:
    catalog = catalog_for([acme])
    assert isinstance(catalog, Catalog) and catalog is catalog_for((acme,))
    assert (*data.RULE_IDS, "acme/no-etc", "acme/terms") == catalog.RULE_IDS
    assert catalog.PROFILES["public-docs"].rule_ids == (*data.PROFILES["public-docs"].rule_ids, "acme/no-etc")
    assert catalog.PROFILES["agent-report"].rule_ids == data.PROFILES["agent-report"].rule_ids
    for language in ("en", "de"):
        assert catalog.SIGNAL_TABLES[language][: len(data.SIGNAL_TABLES[language])] == data.SIGNAL_TABLES[language]
        assert catalog.SIGNAL_TABLES[language][len(data.SIGNAL_TABLES[language]) :] == acme.signal_tables[language]
    assert catalog.digest not in (data.SOURCE_DIGEST, acme.digest) and len(catalog.digest) == 64
    assert catalog.SIGNAL_FIXES[("acme/terms", "sign-in-en")] == acme.signal_fixes[("acme/terms", "sign-in-en")]
    assert ("filler", "filler-word-en") in catalog.SIGNAL_FIXES
    assert catalog.message("acme/terms", "sign-in-en", "Log in").startswith("Use 'sign in' instead of 'Log in'.")
    assert catalog.message("acme/no-etc", "etc-en", "etc.", "de") == acme.rules["acme/no-etc"].texts["de"].summary
    with pytest.raises(AttributeError):
        catalog.RULES = {}  # type: ignore[misc]


def test_a_catalogue_of_two_packs_and_its_digest(acme: Pack, vocabulary: Pack) -> None:
    both = catalog_for([acme, vocabulary])
    assert both.RULE_IDS[-3:] == ("acme/no-etc", "acme/terms", "vocab/terms")
    assert both.digest != catalog_for([vocabulary, acme]).digest != catalog_for([acme]).digest


def test_colliding_packs_are_refused(acme: Pack) -> None:
    with pytest.raises(PackError, match="loaded twice"):
        catalog_for([acme, acme])
    with pytest.raises(PackError, match="is a built-in rule's"):
        catalog_for([acme._replace(id="other", rules={"filler": data.RULES["filler"]})])
    with pytest.raises(PackError, match="also a rule of pack"):
        catalog_for([acme, acme._replace(id="other")])
    with pytest.raises(PackError, match="names profile 'handbook'"):
        odd = acme.rules["acme/no-etc"]._replace(profiles=("handbook",))
        catalog_for([acme._replace(rules={**acme.rules, "acme/no-etc": odd})])
    with pytest.raises(TypeError):
        catalog_for(["examples/packs/acme"])  # type: ignore[list-item]


def test_merging_expands_only_the_keys_a_scan_meets(acme: Pack, vocabulary: Pack) -> None:
    catalog = catalog_for([acme, vocabulary])
    index = catalog.SIGNAL_INDEX["en"]
    rows = [key for key, value in index.words.items() if isinstance(value, str)]
    assert rows and index.expand is not None
    assert catalog.SIGNAL_INDEX["en"] is index  # merged once
    # A key shared with the built-in index was joined at once: built-in entries first.
    assert index.words["simpl"][: len(data.SIGNAL_INDEX["en"].words["simpl"])] == data.SIGNAL_INDEX["en"].words["simpl"]
    key = rows[0]
    entries = index.expand(key)
    assert isinstance(entries, tuple) and index.words[key] is entries


# Text made of the packs' words, built-in trigger words and what sits around them.
_PIECES = st.sampled_from(
    ["log in", "Log Out", "LOG OFF's", "log on", "click on", "click onto", "clicks onto", "GitHub", "Github",
     "ACME Cloud", "Acme cloud", "ACMECloud's", "etc.", "usw.", "einloggen", "Ausloggen", "leveragen", "Kubernetes",
     "kubernetes", "K8s", "k8s", "simply put", "Simply", "very simply", "very", "leverage", "leveraged", "utilise",
     "in order to", "In order to", "basically", "powerful", "seamless", "should be noted", "[TODO]", "TBD",
     "pre-log in", "blog in", "ſ", "İ", "ı", " ", "\n", "\n\n", ", ", ". ", "-", "'", "x", "the", "we", "it"]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_the_merged_index_finds_what_each_pattern_finds_alone(acme: Pack, vocabulary: Pack, text: str) -> None:
    """Every pattern of the merged table, built-in or a pack's, gets exactly ``finditer``'s matches."""
    catalog = catalog_for([acme, vocabulary])
    for language in ("en", "de"):
        table = catalog.SIGNAL_TABLES[language]
        found = dict(_pattern_spans(text, language, list(range(len(table))), catalog))
        for position, pattern in enumerate(table):
            assert found[position] == plain_spans(pattern.regex, text), (language, pattern.rule_id, pattern.signal_id)


def _signals(text: str, language: str, catalog: Catalog | None) -> list[tuple[object, ...]]:
    source = catalog or catalog_for(())
    rule_ids = tuple(rule_id for rule_id in source.RULE_IDS if source.RULES[rule_id].has_signals)
    found, _ = scan_signals(text, language, rule_ids, 10_000, catalog=catalog)
    return [tuple(signal) for signal in found]


@settings(max_examples=60, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join), st.sampled_from(["en", "de"]))
def test_a_pack_changes_no_built_in_signal(acme: Pack, vocabulary: Pack, text: str, language: str) -> None:
    builtin = _signals(text, language, None)
    assert _signals(text, language, catalog_for(())) == builtin
    with_packs = _signals(text, language, catalog_for([acme, vocabulary]))
    assert [signal for signal in with_packs if "/" not in str(signal[0])] == builtin


def test_the_scan_is_unchanged_on_real_text_without_packs() -> None:
    for language in ("en", "de"):
        text = (ROOT / "benchmarks" / "signal_eval" / f"{language}.yaml").read_text(encoding="utf-8")
        assert _signals(text, language, catalog_for(())) == _signals(text, language, None)


def test_a_pack_term_is_found_and_fixed_in_the_case_of_the_text(acme: Pack) -> None:
    catalog = catalog_for([acme])
    found, _ = scan_signals("LOG IN now. Then Log on, or log in.", "en", ("acme/terms",), 10, catalog=catalog)
    assert [(s.match, s.fix.replacement if s.fix else None) for s in found] == [
        ("LOG IN", "SIGN IN"),
        ("Log on", "Sign in"),
        ("log in", "sign in"),
    ]
    assert {s.level for s in found} == {"warning"}
    quoted, _ = scan_signals('He said "log in" there.', "en", ("acme/terms",), 10, catalog=catalog)
    assert [s.fix for s in quoted] == [None]  # no fix inside a quotation, as for built-in rules
    assert re.fullmatch(r"[0-9a-f]{64}", catalog.digest)


def test_an_imported_vale_style_works_with_its_vale_names(tmp_path: Path) -> None:
    """Joblint's rules keep Vale's names (``Joblint.Rule``) in ruleIds, disable and the results."""
    from generator._packs import build_pack
    from generator._vale import import_vale_style
    from writing_rules.tools import create_writing_tool_dispatcher

    styles = ROOT / "tests" / "generator" / "vale_styles"
    import_vale_style(styles / "Joblint", tmp_path / "joblint")
    build_pack(tmp_path / "joblint", timed=False)
    text = "We are looking for a rockstar ninja who works hard and plays hard, guys."
    config: dict[str, object] = {"packs": [str(tmp_path / "joblint")], "min-level": "suggestion"}
    found = create_writing_tool_dispatcher(config=config).dispatch(
        {"name": "find_writing_signals", "arguments": {"text": text}}
    )
    vale = sorted({signal["ruleId"] for signal in found["data"]["signals"] if signal["ruleId"].startswith("Joblint.")})
    assert len(vale) >= 2, found
    chosen = create_writing_tool_dispatcher(config=config).dispatch(
        {"name": "find_writing_signals", "arguments": {"text": text, "ruleIds": [vale[0]]}}
    )
    assert {signal["ruleId"] for signal in chosen["data"]["signals"]} == {vale[0]}
    config["disable"] = [vale[0]]
    rest = create_writing_tool_dispatcher(config=config).dispatch(
        {"name": "find_writing_signals", "arguments": {"text": text}}
    )
    assert vale[0] not in {signal["ruleId"] for signal in rest["data"]["signals"]}
    assert vale[1] in {signal["ruleId"] for signal in rest["data"]["signals"]}


def test_the_memo_keeps_the_last_few_catalogues_only() -> None:
    # A language server running while a team rebuilds its pack meets a new build each time:
    # the catalogues of the old builds must go, the current one stays memoised.
    import gc
    import weakref

    pack = load_pack(ACME)
    first = weakref.ref(catalog_for([pack]))
    builds = [pack._replace(module_checksum=f"rebuilt-{number}") for number in range(50)]
    for build in builds:
        catalog_for([build])
    gc.collect()
    assert first() is None
    assert catalog_for([builds[-1]]) is catalog_for([builds[-1]])
