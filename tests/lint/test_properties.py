"""Property tests for what reads a user's input: configuration, baselines, diffs, globs, fingerprints."""

from __future__ import annotations

import contextlib
import fnmatch
import json

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from writing_rules.lint import Baseline, BaselineError, ConfigError, fingerprint, load_config
from writing_rules.lint._globs import glob_matches
from writing_rules.tools import Signal

_KEYS = [
    "language",
    "profile",
    "rules",
    "disable",
    "min-level",
    "include",
    "exclude",
    "markup",
    "accept",
    "front-matter-keys",
    "overrides",
    "paths",
    "x",
]
_VALUES = st.recursive(
    st.one_of(st.booleans(), st.integers(-5, 5), st.sampled_from(["en", "filler", "warning", "*.md", "", "de", "x"])),
    lambda children: st.lists(children, max_size=3),
    max_leaves=6,
)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return json.dumps(value)


@settings(max_examples=150)
@given(st.dictionaries(st.sampled_from(_KEYS), _VALUES, max_size=5), st.booleans())
def test_any_configuration_loads_or_fails_with_a_config_error(tmp_path_factory, table: dict, override: bool) -> None:
    folder = tmp_path_factory.mktemp("config")
    body = "".join(f'"{key}" = {_toml_value(value)}\n' for key, value in table.items())
    if override:
        body = '[[overrides]]\npaths = ["a/**"]\n' + body
    path = folder / ".writing-rules.toml"
    path.write_text(body, encoding="utf-8")
    try:
        config = load_config(str(path))
    except ConfigError as error:
        assert error.line >= 1 and str(error).startswith(str(path))
    else:
        config.settings_for(str(folder / "a" / "b.md"))


@settings(max_examples=150)
@given(st.text(max_size=80))
def test_any_text_as_configuration_loads_or_fails_cleanly(tmp_path_factory, text: str) -> None:
    path = tmp_path_factory.mktemp("config") / ".writing-rules.toml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    with contextlib.suppress(ConfigError):  # anything else (a traceback) fails the test
        load_config(str(path))


_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5)),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(["writing-rules-baseline", "entries", "rule", "path", "fingerprint", "count"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=10,
)


@given(_JSON)
def test_any_json_as_baseline_loads_or_fails_with_a_baseline_error(tmp_path_factory, document: object) -> None:
    path = tmp_path_factory.mktemp("baseline") / "b.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    try:
        Baseline.load(str(path))
    except BaselineError as error:
        assert str(path) in str(error)


# The --diff comparison's property tests are in test_linediff.py: git's patch output is no longer parsed.


_NAME = st.text(alphabet=st.sampled_from(list("ab.-_[]!*?x")), min_size=1, max_size=8)


@given(_NAME, st.text(alphabet=st.sampled_from(list("ab.-_x")), min_size=1, max_size=8))
def test_a_glob_without_slash_matches_file_names_like_fnmatch(pattern: str, name: str) -> None:
    expected = fnmatch.fnmatchcase(name, pattern)
    assert glob_matches(pattern, name) == expected
    assert glob_matches(pattern, f"some/folder/{name}") == expected


@given(
    st.lists(
        st.sampled_from(["We ship it.", "It is very fast.", "Very new!", "- a list item", "# Title"]),
        min_size=1,
        max_size=6,
    ),
    st.text(alphabet="ab .\n", max_size=30),
)
def test_fingerprints_do_not_depend_on_text_before_the_paragraph(paragraphs: list[str], prefix: str) -> None:
    text = "\n\n".join(paragraphs) + "\n"
    at = text.find("very")
    if at < 0:
        at = text.find("Very")
    assume(at >= 0)
    signal = Signal("filler", "intensifier-en", "warning", text[at : at + 4], at, at + 4, at, at + 4, 1, 1)
    moved = prefix.replace("\n\n", "\n") + "\n\n" + text
    shift = len(moved) - len(text)
    assert fingerprint(text, signal) == fingerprint(moved, signal._replace(start=at + shift, end=at + 4 + shift))


def test_glob_examples() -> None:
    assert glob_matches("docs/**", "docs/a/b.md") and not glob_matches("docs/**", "other/docs/a.md")
    assert glob_matches("**/*.md", "a.md") and glob_matches("**/*.md", "x/y/a.md")
    assert glob_matches("vendor/", "vendor/x/y.md") and not glob_matches("vendor/", "a/vendor.md")
    assert glob_matches("*.md", "deep/down/a.md") and not glob_matches("/*.md", "deep/a.md")
    assert glob_matches("docs/*.md", "docs/a.md") and not glob_matches("docs/*.md", "docs/x/a.md")


@given(st.text())
def test_text_report_quotes_matches_exactly_like_json(text: str) -> None:
    from writing_rules.cli._formats import _quoted

    assert _quoted(text) == json.dumps(text, ensure_ascii=False)
